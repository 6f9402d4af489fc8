public import ColorScience

/// The contrast of one color pair, as `contrast check --format json` and `/v1/contrast` report it.
public struct PairReport: Sendable, Codable {
    /// Canonical hex of the foreground as parsed.
    public var foreground: String
    public var background: String
    public var backdrop: String?
    /// The opaque colors seen after compositing, when either input is translucent.
    public var composited: CompositedPair?
    /// The WCAG ratio in full precision (the worst case when the backdrop is unknown).
    public var ratio: Double
    /// Floored to two decimals: `"4.49:1"`.
    public var display: String
    public var range: RatioRange?
    /// APCA Lc, signed (positive: dark text on light background).
    public var apca: Double
    /// The best level reached: AAA, AA, AA-large or none.
    public var achieved: String
    /// Pass/fail for every usage and level: `{"text": {"AA": true, "AAA": false}, …}`.
    public var verdicts: [String: [String: Bool]]
    /// What was asked, and whether it passes.
    public var usage: String
    public var level: String
    public var required: Double?
    public var pass: Bool
    /// Set when an input was outside sRGB and gamut-mapped.
    public var outOfGamut: [String]?

    public init(foreground: ParsedColor, background: ParsedColor, backdrop: ParsedColor? = nil,
                requirement: ContrastRequirement = ContrastRequirement(usage: .text)) {
        let m = ContrastMeasurement(foreground: foreground.color, background: background.color, backdrop: backdrop?.color)
        self.foreground = foreground.color.hex
        self.background = background.color.hex
        self.backdrop = backdrop?.color.hex
        if let f = m.effectiveForeground, let b = m.effectiveBackground, !(foreground.color.isOpaque && background.color.isOpaque) {
            composited = CompositedPair(foreground: f.hex, background: b.hex)
        }
        ratio = m.ratio
        display = RatioFormat.display(m.ratio)
        if m.isRange, let worst = m.worstBackdrop, let best = m.bestBackdrop {
            range = RatioRange(worst: m.ratio, best: m.bestRatio, worstBackdrop: worst.hex, bestBackdrop: best.hex)
        }
        apca = m.apca
        achieved = AchievedLevel(ratio: m.ratio).name
        var verdicts: [String: [String: Bool]] = [:]
        for usage in [ContrastUsage.text, .largeText] {
            verdicts[usage.name] = ["AA": ContrastRequirement(usage: usage, level: .AA).isMet(by: m.ratio),
                                    "AAA": ContrastRequirement(usage: usage, level: .AAA).isMet(by: m.ratio)]
        }
        verdicts[ContrastUsage.nonText.name] = ["AA": ContrastRequirement(usage: .nonText).isMet(by: m.ratio)]
        self.verdicts = verdicts
        usage = requirement.usage.name
        level = requirement.level.name
        required = requirement.minimumRatio
        pass = requirement.isMet(by: m.ratio)
        let outside = [("foreground", foreground), ("background", background)].filter { $0.1.wasOutOfGamut }.map(\.0)
            + (backdrop?.wasOutOfGamut == true ? ["backdrop"] : [])
        outOfGamut = outside.isEmpty ? nil : outside
    }
}
