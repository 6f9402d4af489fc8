public import RealModule

/// The sRGB transfer function (IEC 61966-2-1), between gamma-encoded and linear-light values.
///
/// The decoding threshold is 0.04045, as in the sRGB standard and WCAG 2.2's definition of
/// relative luminance (WCAG 2.0 printed 0.03928; no 8-bit value lies between the two, so the
/// results agree for every hex color). Negative values are mirrored, as CSS Color 4 extends the
/// curve for out-of-gamut colors.
public enum SRGBTransfer {
    /// Gamma-encoded value to linear light.
    ///
    /// A value that is exactly an 8-bit step (`k / 255`, as every hex color's channels are) is
    /// read from ``linearTable``, which holds the very results of the formula below: the answer
    /// is bit-for-bit the same, without a `pow` per channel.
    @inlinable
    public static func decode(_ value: Double) -> Double {
        if let step = eightBitStep(value) { return linearTable[step] }
        return decodeByFormula(value)
    }

    /// `k` when `value` is exactly `k / 255` (as `SRGB(red8:green8:blue8:)` computes it), else
    /// nil: the test behind every table of per-8-bit-value results.
    @inlinable @inline(__always)
    public static func eightBitStep(_ value: Double) -> Int? {
        let scaled = value * 255
        guard scaled >= 0 && scaled <= 255 else { return nil }
        let step = Int(scaled + 0.5)
        return Double(step) / 255 == value ? step : nil
    }

    /// The transfer formula itself, for any value (negative values mirrored).
    @inlinable
    public static func decodeByFormula(_ value: Double) -> Double {
        let magnitude = abs(value)
        let linear = magnitude <= 0.04045
            ? magnitude / 12.92
            : Double.pow((magnitude + 0.055) / 1.055, 2.4)
        return value < 0 ? -linear : linear
    }

    /// The 8-bit level a linear-light value shows as: exactly `SRGB.to8Bit(encode(value))`,
    /// found among 255 thresholds instead of through `pow`.
    public static func eightBitLevel(linear value: Double) -> UInt8 {
        guard value > 0 else { return 0 }  // also NaN
        guard value < 1 else { return 255 }
        // Start from the level at the lower edge of the value's bucket (buckets are even in the
        // fourth root, where the levels are nearly even too: at most one threshold per bucket),
        // then count the thresholds passed.
        var level = Int(levelBuckets[Int(value.squareRoot().squareRoot() * Double(levelBuckets.count - 1))])
        let thresholds = levelThresholds
        while level < 255 && thresholds[level] <= value { level += 1 }
        return UInt8(level)
    }

    /// Element b: the level of (b / 1024)⁴, a lower bound for every value in bucket b.
    static let levelBuckets: [UInt8] = (0...1024).map { bucket in
        let edge = Double(bucket) / 1024
        let value = edge * edge * edge * edge
        return UInt8(levelThresholds.reduce(0) { $0 + ($1 <= value ? 1 : 0) })
    }

    /// Element k: the least linear value that shows as level k + 1 or more, found by bisecting
    /// the bit patterns of doubles with the encoding and rounding themselves, so the table
    /// cannot disagree with them.
    static let levelThresholds: [Double] = (1...255).map { level in
        func level8(_ x: Double) -> Int { Int(SRGB.to8Bit(encode(x))) }
        // Non-negative doubles order as their bit patterns do.
        var low: UInt64 = 0, high = (1.0).bitPattern  // level8(0) = 0 < level ≤ level8(1) = 255
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if level8(Double(bitPattern: middle)) >= level { high = middle } else { low = middle }
        }
        return Double(bitPattern: high)
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

    /// The linear value of each 8-bit channel value, `decodeByFormula(Double(k) / 255)`: the very
    /// results of the formula, so a hex color measures the same through the table as through
    /// `pow`, without a `pow` per channel.
    public static let linearTable: [Double] = (0...255).map { decodeByFormula(Double($0) / 255) }
}

extension SRGB {
    /// The linear-light red, green and blue.
    @inlinable
    public var linear: SIMD3<Double> {
        SIMD3(SRGBTransfer.decode(red), SRGBTransfer.decode(green), SRGBTransfer.decode(blue))
    }
}
