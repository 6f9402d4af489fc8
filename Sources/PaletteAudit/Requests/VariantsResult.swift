public import ColorScience
import TokenSources

/// A color's nearest passing variant on each background (`contrast variants`, `POST /v1/variants`).
public struct VariantsResult: Sendable, Codable {
    public struct Variant: Sendable, Codable {
        public var background: String
        /// Absent when no color of this hue reaches the target on this background.
        public var variant: SuggestedColor?
        public var alternatives: [SuggestedColor]
        public var bestReachable: Double?
    }

    public var color: String
    public var target: String
    public var variants: [Variant]

    public init(color: SRGB, on backgrounds: [SRGB], target: ContrastTarget) {
        self.color = color.hex
        self.target = target.description
        variants = NearestPassing.variants(of: color, on: backgrounds, target: target).map {
            Variant(background: $0.background.hex, variant: $0.variant.map(SuggestedColor.init),
                    alternatives: $0.result.suggestions.dropFirst().map(SuggestedColor.init), bestReachable: $0.result.bestReachableRatio)
        }
    }

    /// Whether every background has a variant.
    public var allReached: Bool { variants.allSatisfy { $0.variant != nil } }
}

