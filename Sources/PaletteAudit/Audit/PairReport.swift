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

extension PairReport {
    /// The report as compact JSON with sorted keys, written directly: the same document
    /// `JSONEncoder` (`.sortedKeys`) produces, several times faster, for the hot HTTP path.
    public func jsonBytes(id: String? = nil) -> [UInt8] {
        var out = "{"
        func key(_ name: String) { out += (out.count > 1 ? "," : "") + "\"" + name + "\":" }
        func string(_ text: String) -> String { JSONValue.quoted(text) }
        func number(_ value: Double) -> String { JSONNumber.format(value) }
        key("achieved"); out += string(achieved)
        key("apca"); out += number(apca)
        if let backdrop { key("backdrop"); out += string(backdrop) }
        key("background"); out += string(background)
        if let composited {
            key("composited"); out += "{\"background\":\(string(composited.background)),\"foreground\":\(string(composited.foreground))}"
        }
        key("display"); out += string(display)
        key("foreground"); out += string(foreground)
        if let id { key("id"); out += string(id) }
        key("level"); out += string(level)
        if let outOfGamut { key("outOfGamut"); out += "[" + outOfGamut.map(string).joined(separator: ",") + "]" }
        key("pass"); out += pass ? "true" : "false"
        if let range {
            key("range")
            out += "{\"best\":\(number(range.best)),\"bestBackdrop\":\(string(range.bestBackdrop)),\"worst\":\(number(range.worst)),\"worstBackdrop\":\(string(range.worstBackdrop))}"
        }
        key("ratio"); out += number(ratio)
        if let required { key("required"); out += number(required) }
        key("usage"); out += string(usage)
        key("verdicts")
        out += "{" + verdicts.keys.sorted().map { usage in
            string(usage) + ":{" + (verdicts[usage] ?? [:]).keys.sorted().map { level in
                string(level) + ":" + ((verdicts[usage]?[level] ?? false) ? "true" : "false")
            }.joined(separator: ",") + "}"
        }.joined(separator: ",") + "}"
        out += "}"
        return Array(out.utf8)
    }
}

/// JSON numbers as Foundation's encoder writes them: integers without a fraction, others in
/// their shortest round-trip form.
public enum JSONNumber {
    public static func format(_ value: Double) -> String {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return value.isFinite ? String(value) : "null"
    }
}
