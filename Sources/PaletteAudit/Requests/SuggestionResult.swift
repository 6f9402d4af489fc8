public import ColorScience

/// The answer to a suggestion request (`contrast suggest --format json`, `POST /v1/suggest`).
public struct SuggestionResult: Sendable, Codable {
    public var foreground: String
    public var background: String
    public var target: String
    public var ratio: Double
    public var display: String
    public var passes: Bool
    /// Absent when the pair already passes.
    public var suggestions: Suggestions?

    public init(foreground: SRGB, background: SRGB, target: ContrastTarget) {
        self.foreground = foreground.hex
        self.background = background.hex
        self.target = target.description
        ratio = foreground.contrastRatio(with: background)
        display = RatioFormat.display(ratio)
        passes = target.isMet(foreground: foreground, background: background)
        suggestions = passes ? nil : Auditor.suggestions(foreground: foreground, background: background, target: target)
    }
}

