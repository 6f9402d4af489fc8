/// The color scheme a `light-dark()` value is read in (CSS Color 5 §5).
public enum ColorScheme: String, Sendable, CaseIterable {
    case light, dark
}

/// The result of reading a CSS color: the sRGB color everything measures, and how it was written.
public struct ParsedColor: Hashable, Sendable {
    /// The color in sRGB, inside the gamut (mapped in when the text described a color outside it).
    public var color: SRGB
    /// The notation it was written in: `hex`, `named`, `rgb`, `hsl`, `hwb`, `lab`, `lch`,
    /// `oklab`, `oklch`, or `color(<space>)`.
    public var notation: String
    /// Whether the written color lies outside sRGB and was gamut-mapped (CSS Color 4 §13.2).
    public var wasOutOfGamut: Bool
    /// For an out-of-gamut color, its sRGB components before mapping (outside `0...1`).
    public var unmappedComponents: SIMD3<Double>?
    /// Whether the text holds a `light-dark()`, so its color depends on the color scheme it
    /// was parsed in (``CSSColor/parse(_:scheme:)``).
    public var dependsOnScheme = false

    @inlinable
    public init(color: SRGB, notation: String, wasOutOfGamut: Bool = false, unmappedComponents: SIMD3<Double>? = nil) {
        self.color = color
        self.notation = notation
        self.wasOutOfGamut = wasOutOfGamut
        self.unmappedComponents = unmappedComponents
    }
}

extension SRGB {
    /// Reads any CSS Color 4 color (see ``CSSColor/parse(_:)``) into sRGB.
    public init(css text: String) throws(ColorParseError) {
        self = try CSSColor.parse(text).color
    }
}
