/// A color as hue (degrees), saturation and lightness (both `0...1`), the sRGB cylinder of CSS `hsl()`.
///
/// The conversions are CSS Color 4 §7.1's, written once here on unclamped components: the
/// `hsl()` and `hwb()` notations (``SpacedColor``) use them too, in their `0…100` units.
public struct HSL: Hashable, Sendable {
    public var hue: Double
    public var saturation: Double
    public var lightness: Double

    public init(hue: Double, saturation: Double, lightness: Double) {
        self.hue = hue
        self.saturation = saturation
        self.lightness = lightness
    }

    /// The HSL form of an sRGB color; hue is 0 for grays.
    public init(_ color: SRGB) {
        let hsl = HSL.fromRGB(SIMD3(color.red, color.green, color.blue))
        self.init(hue: hsl.x, saturation: hsl.y, lightness: hsl.z)
    }

    /// The sRGB color, opaque.
    public var srgb: SRGB {
        let rgb = HSL.toRGB(hue: hue, saturation: saturation, lightness: lightness)
        return SRGB(red: rgb.x, green: rgb.y, blue: rgb.z)
    }

    /// CSS Color 4 `hslToRgb` on unclamped components (`s` and `l` `0…1`).
    static func toRGB(hue: Double, saturation s: Double, lightness l: Double) -> SIMD3<Double> {
        let h = normalizedHue(hue)
        func channel(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return SIMD3(channel(0), channel(8), channel(4))
    }

    /// CSS Color 4 `rgbToHsl` on unclamped components: hue in degrees, `s` and `l` `0…1`. A
    /// negative saturation (a color outside sRGB) turns the hue around.
    static func fromRGB(_ c: SIMD3<Double>) -> SIMD3<Double> {
        var s = 0.0
        var h = rgbHue(c)
        let maximum = max(c.x, c.y, c.z), minimum = min(c.x, c.y, c.z)
        let l = (minimum + maximum) / 2
        if maximum != minimum {
            s = (l == 0 || l == 1) ? 0 : (maximum - l) / min(l, 1 - l)
        }
        if s < 0 {
            h += 180
            s = abs(s)
        }
        return SIMD3(normalizedHue(h), s, l)
    }

    /// The hue of an RGB triple in degrees (`0..<360`), 0 for grays: the one hue `hsl()` and
    /// `hwb()` share.
    static func rgbHue(_ c: SIMD3<Double>) -> Double {
        let maximum = max(c.x, c.y, c.z), minimum = min(c.x, c.y, c.z)
        let d = maximum - minimum
        guard d != 0 else { return 0 }
        let sextant: Double = switch maximum {
        case c.x: (c.y - c.z) / d + (c.y < c.z ? 6 : 0)
        case c.y: (c.z - c.x) / d + 2
        default: (c.x - c.y) / d + 4
        }
        return sextant * 60
    }

    /// A hue folded into `0..<360`; NaN and infinities become 0, as CSS does.
    static func normalizedHue(_ hue: Double) -> Double {
        guard hue.isFinite else { return 0 }
        let folded = hue.truncatingRemainder(dividingBy: 360)
        return folded < 0 ? folded + 360 : folded
    }
}
