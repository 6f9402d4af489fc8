/// A color in the sRGB space: gamma-encoded red, green and blue in `0...1`, plus alpha in `0...1`.
///
/// This is the value everything in `ColorScience` measures. Colors written in other spaces
/// (`oklch()`, `color(display-p3 …)`) are converted into it by ``CSSColor/parse(_:)``, which
/// gamut-maps anything sRGB cannot show and says so. Components are kept in full `Double`
/// precision; ``hex`` rounds them to 8 bits only for display.
public struct SRGB: Hashable, Sendable {
    /// Gamma-encoded red, `0...1`.
    public var red: Double
    /// Gamma-encoded green, `0...1`.
    public var green: Double
    /// Gamma-encoded blue, `0...1`.
    public var blue: Double
    /// Opacity, `0...1` (1 is opaque).
    public var alpha: Double

    /// A color from components in `0...1`. Values outside the range are clamped, NaN becomes 0.
    @inlinable
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = SRGB.clampUnit(red)
        self.green = SRGB.clampUnit(green)
        self.blue = SRGB.clampUnit(blue)
        self.alpha = SRGB.clampUnit(alpha)
    }

    /// A color from 8-bit channels (`0...255`) and an alpha in `0...1`.
    @inlinable
    public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha: Double = 1) {
        self.red = Double(red8) / 255
        self.green = Double(green8) / 255
        self.blue = Double(blue8) / 255
        self.alpha = SRGB.clampUnit(alpha)
    }

    /// A color from a 24-bit `0xRRGGBB` value.
    @inlinable
    public init(rgb24 value: UInt32, alpha: Double = 1) {
        self.init(red8: UInt8(truncatingIfNeeded: value >> 16),
                  green8: UInt8(truncatingIfNeeded: value >> 8),
                  blue8: UInt8(truncatingIfNeeded: value),
                  alpha: alpha)
    }

    public static let black = SRGB(red: 0, green: 0, blue: 0)
    public static let white = SRGB(red: 1, green: 1, blue: 1)
    public static let transparent = SRGB(red: 0, green: 0, blue: 0, alpha: 0)

    /// Whether the color is fully opaque.
    public var isOpaque: Bool { alpha >= 1 }

    /// The same color with alpha 1.
    public var opaque: SRGB {
        var copy = self
        copy.alpha = 1
        return copy
    }

    /// The channels as a vector, for the matrix math of the other spaces.
    @inlinable
    public var components: SIMD3<Double> { SIMD3(red, green, blue) }

    /// The color rounded to the 8-bit channels its ``hex`` shows (alpha to 1/255 steps).
    public var quantized: SRGB {
        SRGB(red8: SRGB.to8Bit(red), green8: SRGB.to8Bit(green), blue8: SRGB.to8Bit(blue),
             alpha: Double(SRGB.to8Bit(alpha)) / 255)
    }

    /// Whether ``hex`` is this color itself, not its nearest 8-bit color: each channel and the
    /// alpha on an 8-bit level, within a ten-thousandth of a level (what arithmetic on exact
    /// levels leaves, and Figma's float32 channels: 92/255 is stored 2e-6 of a level off).
    /// `rgb(118.6 118.6 118.6)` is not: its hex, #777777, is another color, with another
    /// contrast.
    public var isExactIn8Bit: Bool {
        func onLevel(_ value: Double) -> Bool {
            let scaled = value * 255
            return abs(scaled - scaled.rounded()) < 1e-4
        }
        return onLevel(red) && onLevel(green) && onLevel(blue) && onLevel(alpha)
    }

    /// Rounds a unit component to `0...255`, half up, as browsers serialize.
    ///
    /// A value a billionth below a half step still rounds up: conversions such as
    /// `hwb(120 30% 50%)` land on 127.49999999999999 where exact arithmetic gives 127.5.
    @inlinable
    public static func to8Bit(_ value: Double) -> UInt8 {
        let scaled = (value * 255 + 1e-9).rounded(.toNearestOrAwayFromZero)
        if !(scaled > 0) { return 0 }  // also NaN
        if scaled >= 255 { return 255 }
        return UInt8(scaled)
    }

    @inlinable
    static func clampUnit(_ value: Double) -> Double {
        if !(value > 0) { return 0 }  // also NaN
        return value < 1 ? value : 1
    }
}
