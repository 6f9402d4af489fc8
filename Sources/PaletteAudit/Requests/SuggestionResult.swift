public import ColorScience
import TokenSources

/// The answer to a suggestion request (`contrast suggest --format json`, `POST /v1/suggest`).
///
/// The foreground may be translucent: the pair is measured as it is drawn, the foreground
/// painted over the background (as `contrast check` measures it), and so is every suggested
/// background. The background is opaque.
public struct SuggestionResult: Sendable, Codable {
    public var foreground: String
    public var background: String
    /// The opaque colors seen, when the foreground is translucent.
    public var composited: CompositedPair?
    public var target: String
    public var ratio: Double
    public var display: String
    public var passes: Bool
    /// Absent when the pair already passes.
    public var suggestions: Suggestions?

    public init(foreground: SRGB, background: SRGB, target: ContrastTarget) {
        let m = ContrastMeasurement(foreground: foreground, background: background.opaque)
        let seen = m.effectiveForeground ?? foreground
        self.foreground = foreground.hex
        self.background = background.hex
        if !foreground.isOpaque { composited = CompositedPair(foreground: seen.hex, background: background.opaque.hex) }
        self.target = target.description
        ratio = m.ratio
        display = RatioFormat.display(ratio)
        passes = target.isMet(foreground: seen, background: background.opaque)
        suggestions = passes ? nil : Auditor.suggestions(foreground: foreground, background: background.opaque, target: target)
    }
}
