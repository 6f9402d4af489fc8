extension SRGB {
    /// The canonical hex form: `#rrggbb` for an opaque color, `#rrggbbaa` otherwise, lowercase.
    ///
    /// Channels are rounded half up to 8 bits, as browsers serialize colors.
    public var hex: String {
        let alpha8 = SRGB.to8Bit(alpha)
        let count = alpha8 == 255 ? 7 : 9
        // At most 9 ASCII bytes: a small string, built in place without an allocation.
        return String(unsafeUninitializedCapacity: count) { buffer in
            func put(_ byte: UInt8, at index: Int) {
                buffer[index] = SRGB.hexDigitBytes[Int(byte >> 4)]
                buffer[index + 1] = SRGB.hexDigitBytes[Int(byte & 0xF)]
            }
            buffer[0] = 0x23
            put(SRGB.to8Bit(red), at: 1)
            put(SRGB.to8Bit(green), at: 3)
            put(SRGB.to8Bit(blue), at: 5)
            if count == 9 { put(alpha8, at: 7) }
            return count
        }
    }

    /// The CSS `rgb()` form as browsers serialize it: `rgb(37, 99, 235)`, or
    /// `rgba(37, 99, 235, 0.5)` when the color is translucent.
    public var rgbFunction: String {
        let r = SRGB.to8Bit(red), g = SRGB.to8Bit(green), b = SRGB.to8Bit(blue)
        if alpha >= 1 { return "rgb(\(r), \(g), \(b))" }
        return "rgba(\(r), \(g), \(b), \(SRGB.formatAlpha(alpha)))"
    }

    /// Alpha with at most three decimals and no trailing zeros (`0.5`, `0.125`, `0`).
    static func formatAlpha(_ alpha: Double) -> String {
        let thousandths = Int((alpha * 1000).rounded())
        if thousandths >= 1000 { return "1" }
        if thousandths <= 0 { return "0" }
        var digits = String(thousandths)
        while digits.count < 3 { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return "0." + digits
    }

    private static let hexDigitBytes: [UInt8] = Array("0123456789abcdef".utf8)
}

extension SRGB: CustomStringConvertible {
    public var description: String { hex }
}
