extension SRGB {
    /// The canonical hex form: `#rrggbb` for an opaque color, `#rrggbbaa` otherwise, lowercase.
    ///
    /// Channels are rounded half up to 8 bits, as browsers serialize colors.
    public var hex: String {
        var text = "#"
        text.reserveCapacity(9)
        SRGB.appendHexByte(SRGB.to8Bit(red), to: &text)
        SRGB.appendHexByte(SRGB.to8Bit(green), to: &text)
        SRGB.appendHexByte(SRGB.to8Bit(blue), to: &text)
        let alpha8 = SRGB.to8Bit(alpha)
        if alpha8 != 255 { SRGB.appendHexByte(alpha8, to: &text) }
        return text
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

    private static let hexDigits: [Character] = Array("0123456789abcdef")

    private static func appendHexByte(_ byte: UInt8, to text: inout String) {
        text.append(hexDigits[Int(byte >> 4)])
        text.append(hexDigits[Int(byte & 0xF)])
    }
}

extension SRGB: CustomStringConvertible {
    public var description: String { hex }
}
