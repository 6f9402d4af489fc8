/// WCAG 2.x relative luminance and contrast ratio.
///
/// Relative luminance is defined in WCAG 2.2 (Understanding "relative luminance"): decode each
/// sRGB channel (threshold 0.04045) and weight it 0.2126 / 0.7152 / 0.0722. The contrast ratio is
/// `(L1 + 0.05) / (L2 + 0.05)` with L1 the lighter of the two, a number in `1...21`.
/// Nothing is rounded here: pass/fail decisions compare the full-precision ratio.
public enum WCAG {
    /// Luminance weights of linear red, green and blue (ITU-R BT.709, as WCAG gives them).
    /// (A constant, not a stored global: reading a lazily made global costs a `swift_once` at
    /// every use, and luminances are computed millions of times.)
    @inlinable
    public static var luminanceWeights: SIMD3<Double> { SIMD3<Double>(0.2126, 0.7152, 0.0722) }

    /// The relative luminance of linear-light components.
    @inlinable
    public static func relativeLuminance(linear: SIMD3<Double>) -> Double {
        (linear * luminanceWeights).sum()
    }

    /// The relative luminance of 8-bit channels, through a table of decoded values.
    @inlinable
    public static func relativeLuminance(red8: UInt8, green8: UInt8, blue8: UInt8) -> Double {
        let table = SRGBTransfer.linearTable
        return 0.2126 * table[Int(red8)] + 0.7152 * table[Int(green8)] + 0.0722 * table[Int(blue8)]
    }

    /// The contrast ratio of two relative luminances, in either order.
    @inlinable
    public static func contrastRatio(luminance first: Double, _ second: Double) -> Double {
        first > second ? (first + 0.05) / (second + 0.05) : (second + 0.05) / (first + 0.05)
    }
}

extension SRGB {
    /// The WCAG 2.x relative luminance of this color's channels, in `0...1` (alpha is ignored).
    @inlinable
    public var relativeLuminance: Double { WCAG.relativeLuminance(linear: linear) }

    /// The WCAG 2.x contrast ratio between this color and `other`, in `1...21`, treating both as
    /// opaque. The ratio is symmetric: `a.contrastRatio(with: b) == b.contrastRatio(with: a)`.
    /// For translucent colors, use ``ContrastMeasurement`` which composites them first.
    @inlinable
    public func contrastRatio(with other: SRGB) -> Double {
        WCAG.contrastRatio(luminance: relativeLuminance, other.relativeLuminance)
    }
}

/// Displaying a contrast ratio without ever rounding a failure up into a pass.
public enum RatioFormat {
    /// The ratio floored to two decimals, `"4.49"` for 4.4989 (never `"4.50"`).
    public static func floored(_ ratio: Double) -> String {
        format(ratio, suffix: false)
    }

    /// `"4.49:1"`.
    public static func display(_ ratio: Double) -> String {
        format(ratio, suffix: true)
    }

    /// The floored ratio's digits, written in place (a batch formats one per pair).
    private static func format(_ ratio: Double, suffix: Bool) -> String {
        guard ratio.isFinite, ratio >= 0, ratio < 1e15 else { return suffix ? "0.00:1" : "0.00" }
        // A tiny allowance keeps an exact 4.5 computed as 4.4999999999999991 from showing 4.49:
        // 1e-9 is far below any difference a threshold comparison could be decided by.
        var hundredths = Int((ratio * 100 + 1e-9).rounded(.down))
        var digits = 0
        var scan = hundredths
        repeat { digits += 1; scan /= 10 } while scan > 0
        let wholeDigits = max(1, digits - 2)
        let count = wholeDigits + 3 + (suffix ? 2 : 0)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = wholeDigits + 2
            for _ in 0..<2 {
                buffer[index] = 0x30 + UInt8(hundredths % 10)
                hundredths /= 10
                index -= 1
            }
            buffer[index] = 0x2E  // .
            for _ in 0..<wholeDigits {
                index -= 1
                buffer[index] = 0x30 + UInt8(hundredths % 10)
                hundredths /= 10
            }
            if suffix {
                buffer[count - 2] = 0x3A  // :
                buffer[count - 1] = 0x31  // 1
            }
            return count
        }
    }
}
