/// A color as hue (degrees), saturation and lightness (both `0...1`), the sRGB cylinder of CSS `hsl()`.
public struct HSL: Hashable, Sendable {
    public var hue: Double
    public var saturation: Double
    public var lightness: Double

    public init(hue: Double, saturation: Double, lightness: Double) {
        self.hue = hue
        self.saturation = saturation
        self.lightness = lightness
    }

    /// The HSL form of an sRGB color (CSS Color 4 §7.1 algorithm); hue is 0 for grays.
    public init(_ color: SRGB) {
        let r = color.red, g = color.green, b = color.blue
        let maximum = max(r, g, b), minimum = min(r, g, b)
        let lightness = (minimum + maximum) / 2
        let delta = maximum - minimum
        var hue = 0.0, saturation = 0.0
        if delta != 0 {
            saturation = (lightness == 0 || lightness == 1)
                ? 0 : (maximum - lightness) / min(lightness, 1 - lightness)
            switch maximum {
            case r: hue = (g - b) / delta + (g < b ? 6 : 0)
            case g: hue = (b - r) / delta + 2
            default: hue = (r - g) / delta + 4
            }
            hue *= 60
        }
        self.init(hue: hue, saturation: saturation, lightness: lightness)
    }

    /// The sRGB color (CSS Color 4 §7.1 `hslToRgb`), opaque.
    public var srgb: SRGB {
        let h = HSL.normalizedHue(hue)
        let s = saturation, l = lightness
        func channel(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return SRGB(red: channel(0), green: channel(8), blue: channel(4))
    }

    /// A hue folded into `0..<360`; NaN and infinities become 0, as CSS does.
    static func normalizedHue(_ hue: Double) -> Double {
        guard hue.isFinite else { return 0 }
        let folded = hue.truncatingRemainder(dividingBy: 360)
        return folded < 0 ? folded + 360 : folded
    }
}

/// CSS `hwb()`: hue, whiteness and blackness (`0...1`), converted as CSS Color 4 §8.1 says.
public struct HWB: Hashable, Sendable {
    public var hue: Double
    public var whiteness: Double
    public var blackness: Double

    public init(hue: Double, whiteness: Double, blackness: Double) {
        self.hue = hue
        self.whiteness = whiteness
        self.blackness = blackness
    }

    public var srgb: SRGB {
        var w = whiteness, b = blackness
        if w + b >= 1 {
            let gray = w / (w + b)
            return SRGB(red: gray, green: gray, blue: gray)
        }
        w = max(0, w)
        b = max(0, b)
        let pure = HSL(hue: hue, saturation: 1, lightness: 0.5).srgb
        func mix(_ c: Double) -> Double { c * (1 - w - b) + w }
        return SRGB(red: mix(pure.red), green: mix(pure.green), blue: mix(pure.blue))
    }
}
