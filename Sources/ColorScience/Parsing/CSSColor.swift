import RealModule

/// Reads CSS Color Level 4 and 5 text into sRGB.
///
/// Accepted: `#rgb #rgba #rrggbb #rrggbbaa`; the 148 named colors and `transparent`;
/// `rgb()`/`rgba()` and `hsl()`/`hsla()` in legacy comma syntax and modern space syntax with
/// `/ alpha` and `none`; `hwb()`; `lab() lch() oklab() oklch()`; `color()` in `srgb`,
/// `srgb-linear`, `display-p3`, `display-p3-linear`, `a98-rgb`, `prophoto-rgb`, `rec2020`,
/// `xyz`, `xyz-d50` and `xyz-d65`; and `calc()`, `min()`, `max()`, `clamp()`, `abs()` and
/// `sign()` over numbers, percentages and angles inside them. CSS Color 5: `color-mix()` of one
/// or two colors in any of those spaces (and `hsl`, `hwb`, `lab`, `lch`, `oklab`, `oklch`) with
/// `shorter|longer|increasing|decreasing hue`; relative colors (`rgb(from C r g b / alpha)` for
/// every function, with `calc()` over the channel keywords); and `light-dark(A, B)`, which needs
/// a color scheme (``parse(_:scheme:)``). Colors nest in each other. Values are clamped as
/// browsers clamp them; colors outside sRGB are gamut-mapped and flagged, never clipped silently.
///
/// Rejected, with a ``ColorParseError`` that says what was expected and at which byte: anything
/// else, including `currentColor`, system colors and `var()` (their value depends on a document).
public enum CSSColor {
    /// The longest text accepted, in UTF-8 bytes. Real colors are far shorter; the limit keeps
    /// hostile input (a 100 KB string) cheap to reject.
    public static let maximumLength = 1024

    /// How deeply `calc()` expressions may nest.
    static let maximumNesting = 32

    /// Parses `text` as a CSS color. A `light-dark()` value is refused here (its color depends
    /// on the color scheme): use ``parse(_:scheme:)``.
    @inlinable
    public static func parse(_ text: String) throws(ColorParseError) -> ParsedColor {
        if let fast = fastHex(text) { return fast }
        return try parseInFull(text, scheme: nil)
    }

    /// Parses `text` as a CSS color in a color scheme: `light-dark(A, B)` is A in `.light` and B
    /// in `.dark` (``ParsedColor/dependsOnScheme`` says whether the text had one); with `nil`,
    /// a `light-dark()` is an error that says so.
    public static func parse(_ text: String, scheme: ColorScheme?) throws(ColorParseError) -> ParsedColor {
        if let fast = fastHex(text) { return fast }
        return try parseInFull(text, scheme: scheme)
    }

    /// Whether `text` is a CSS color (in `scheme`, as ``parse(_:scheme:)`` reads it), for a
    /// caller that only asks: the answer is the same as that of `try? parse`, but a failure's
    /// message is not finished (an unknown word is not measured against every color name for
    /// its "did you mean").
    public static func isColor(_ text: String, scheme: ColorScheme? = nil) -> Bool {
        if fastHex(text) != nil { return true }
        return (try? parseInFull(text, scheme: scheme, suggestingNames: false)) != nil
    }

    /// The value of each byte as a hex digit, 0xFF for the bytes that are not one.
    @usableFromInline
    static let hexDigitValues: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]

    /// The value before it is shown in sRGB: its space, components (with missing ones) and
    /// alpha, for comparing with other implementations' serializations.
    static func spaced(_ text: String, scheme: ColorScheme? = nil) throws(ColorParseError) -> SpacedColor {
        var copy = Array(text.utf8)
        return try copy.withUnsafeMutableBufferPointer { buffer throws(ColorParseError) -> SpacedColor in
            var parser = ColorParser(text: text, bytes: UnsafeBufferPointer(buffer), scheme: scheme)
            let value = try parser.parseColorValue()
            parser.skipWhitespace()
            if parser.current.kind != .end {
                throw parser.error(.trailingInput, "expected the end of the color", at: parser.current.offset)
            }
            return value
        }
    }

    /// Everything but the short hex forms: the full CSS parser.
    @usableFromInline
    static func parseInFull(_ text: String, scheme: ColorScheme?, suggestingNames: Bool = true) throws(ColorParseError) -> ParsedColor {
        let byteCount = text.utf8.count
        if byteCount > maximumLength {
            throw ColorParseError(code: .tooLong,
                                  message: "color text is \(byteCount) bytes; the limit is \(maximumLength)",
                                  offset: maximumLength, input: text)
        }
        // The parser reads the string's own bytes; only a bridged string is copied first.
        let direct = text.utf8.withContiguousStorageIfAvailable { bytes -> Result<ParsedColor, ColorParseError> in
            var parser = ColorParser(text: text, bytes: bytes, scheme: scheme, suggestsNames: suggestingNames)
            return Result { () throws(ColorParseError) in try parser.parseColor() }
        }
        if let direct { return try direct.get() }
        let copy = Array(text.utf8)
        return try copy.withUnsafeBufferPointer { bytes throws(ColorParseError) -> ParsedColor in
            var parser = ColorParser(text: text, bytes: bytes, scheme: scheme, suggestsNames: suggestingNames)
            return try parser.parseColor()
        }
    }

    /// `#rgb`, `#rgba`, `#rrggbb` and `#rrggbbaa` without whitespace, read straight from the
    /// bytes (the common case in palettes). Anything else, including every malformed hex color,
    /// goes through the full parser, which says what is wrong.
    @inlinable
    static func fastHex(_ text: String) -> ParsedColor? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> ParsedColor? in
            let count = bytes.count
            guard count == 7 || count == 9 || count == 4 || count == 5, bytes[0] == UInt8(ascii: "#") else { return nil }
            // Branch-free: random hex digits mix letters and numbers too often for a branch per digit.
            var value: UInt32 = 0
            var invalid: UInt8 = 0
            for index in 1..<count {
                let digit = hexDigitValues[Int(bytes[index])]
                invalid |= digit
                value = value << 4 | UInt32(digit & 0xF)
            }
            if invalid & 0xF0 != 0 { return nil }
            switch count {
            case 7: return ParsedColor(color: SRGB(rgb24: value), notation: "hex")
            case 9: return ParsedColor(color: SRGB(rgb24: value >> 8, alpha: Double(value & 0xFF) / 255), notation: "hex")
            default:
                // Short forms repeat each digit: #abc is #aabbcc.
                var digits = count == 5 ? value >> 4 : value
                var wide: UInt32 = 0
                for shift in stride(from: 8, through: 0, by: -4) {
                    let d = digits >> UInt32(shift) & 0xF
                    wide = wide << 8 | d << 4 | d
                }
                digits = value & 0xF
                let alpha = count == 5 ? Double(digits << 4 | digits) / 255 : 1
                return ParsedColor(color: SRGB(rgb24: wide, alpha: alpha), notation: "hex")
            }
        } ?? nil
    }
}
