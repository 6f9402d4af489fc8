public import ColorScience
import TokenSources

/// True-color terminal escapes for swatches.
public enum ANSI {
    public static let reset = "\u{1B}[0m"
    public static let bold = "\u{1B}[1m"
    public static let dim = "\u{1B}[2m"
    public static let red = "\u{1B}[31m"
    public static let green = "\u{1B}[32m"
    public static let yellow = "\u{1B}[33m"

    /// " Aa " in the foreground color on the background color.
    public static func swatch(foreground: SRGB, background: SRGB, text: String = " Aa ") -> String {
        let f = foreground.quantized, b = background.quantized
        func bytes(_ c: SRGB) -> String { "\(SRGB.to8Bit(c.red));\(SRGB.to8Bit(c.green));\(SRGB.to8Bit(c.blue))" }
        return "\u{1B}[38;2;\(bytes(f))m\u{1B}[48;2;\(bytes(b))m\(text)\(reset)"
    }
}
