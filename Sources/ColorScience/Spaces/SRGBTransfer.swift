public import RealModule

/// The sRGB transfer function (IEC 61966-2-1), between gamma-encoded and linear-light values.
///
/// The decoding threshold is 0.04045, as in the sRGB standard and WCAG 2.2's definition of
/// relative luminance (WCAG 2.0 printed 0.03928; no 8-bit value lies between the two, so the
/// results agree for every hex color). Negative values are mirrored, as CSS Color 4 extends the
/// curve for out-of-gamut colors.
public enum SRGBTransfer {
    /// Gamma-encoded value to linear light.
    @inlinable
    public static func decode(_ value: Double) -> Double {
        let magnitude = abs(value)
        let linear = magnitude <= 0.04045
            ? magnitude / 12.92
            : Double.pow((magnitude + 0.055) / 1.055, 2.4)
        return value < 0 ? -linear : linear
    }

    /// Linear light to a gamma-encoded value.
    @inlinable
    public static func encode(_ value: Double) -> Double {
        let magnitude = abs(value)
        let encoded = magnitude <= 0.0031308
            ? magnitude * 12.92
            : 1.055 * Double.pow(magnitude, 1 / 2.4) - 0.055
        return value < 0 ? -encoded : encoded
    }

    /// The linear value of each 8-bit channel value, computed once.
    public static let linearTable: [Double] = (0...255).map { decode(Double($0) / 255) }
}

extension SRGB {
    /// The linear-light red, green and blue.
    @inlinable
    public var linear: SIMD3<Double> {
        SIMD3(SRGBTransfer.decode(red), SRGBTransfer.decode(green), SRGBTransfer.decode(blue))
    }
}
