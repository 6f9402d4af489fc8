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
    public var verdicts: PairVerdicts
    /// What was asked, and whether it passes.
    public var usage: String
    public var level: String
    public var required: Double?
    public var pass: Bool
    /// Set when an input was outside sRGB and gamut-mapped.
    public var outOfGamut: [String]?
    /// The lowest ratio under the simulated color-vision deficiencies; `verdict` is `warn` when
    /// the pair passes in normal vision and not as simulated.
    public var cvd: SimulatedContrast?

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
        verdicts = PairVerdicts(ratio: m.ratio)
        usage = requirement.usage.name
        level = requirement.level.name
        required = requirement.minimumRatio
        pass = requirement.isMet(by: m.ratio)
        cvd = Auditor.simulatedContrast(m, required: requirement.minimumRatio, normalVerdict: requirement.minimumRatio == nil ? .exempt : pass ? .pass : .fail, policy: .warn)
        if foreground.wasOutOfGamut || background.wasOutOfGamut || backdrop?.wasOutOfGamut == true {
            var outside: [String] = []
            if foreground.wasOutOfGamut { outside.append("foreground") }
            if background.wasOutOfGamut { outside.append("background") }
            if backdrop?.wasOutOfGamut == true { outside.append("backdrop") }
            outOfGamut = outside
        }
    }
}

extension PairReport {
    /// The report as compact JSON with sorted keys, written directly: the same document
    /// `JSONEncoder` (`.sortedKeys`) produces, several times faster. The one encoding of a pair
    /// for `check --batch`, `check --format json` and `/v1/contrast` (a test compares it with
    /// `JSONEncoder`'s).
    public func jsonBytes(id: String? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(720)
        appendJSON(to: &out, id: id)
        return out
    }

    /// Appends the JSON of ``jsonBytes(id:)`` to a buffer (a batch writes many into one).
    public func appendJSON(to out: inout [UInt8], id: String? = nil) {
        func raw(_ text: StaticString) {
            text.withUTF8Buffer { out.append(contentsOf: $0) }
        }
        func string(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                if bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                    out.append(contentsOf: JSONValue.quoted(String(decoding: bytes, as: UTF8.self)).utf8)
                } else {
                    out.append(0x22)
                    out.append(contentsOf: bytes)
                    out.append(0x22)
                }
            }
        }
        func number(_ value: Double) {
            var stream = ByteStream()
            swap(&stream.bytes, &out)
            JSONNumber.write(value, to: &stream)
            swap(&stream.bytes, &out)
        }
        func bool(_ value: Bool) { value ? raw("true") : raw("false") }
        raw("{\"achieved\":"); string(achieved)
        raw(",\"apca\":"); number(apca)
        if let backdrop { raw(",\"backdrop\":"); string(backdrop) }
        raw(",\"background\":"); string(background)
        if let composited {
            raw(",\"composited\":{\"background\":"); string(composited.background)
            raw(",\"foreground\":"); string(composited.foreground)
            raw("}")
        }
        if let cvd {
            raw(",\"cvd\":{\"background\":"); string(cvd.background)
            raw(",\"deficiencies\":[")
            for (index, name) in cvd.deficiencies.enumerated() {
                if index > 0 { raw(",") }
                string(name)
            }
            raw("],\"deficiency\":"); string(cvd.deficiency)
            raw(",\"display\":"); string(cvd.display)
            raw(",\"foreground\":"); string(cvd.foreground)
            raw(",\"ratio\":"); number(cvd.ratio)
            if let verdict = cvd.verdict { raw(",\"verdict\":"); string(verdict) }
            raw("}")
        }
        raw(",\"display\":"); string(display)
        raw(",\"foreground\":"); string(foreground)
        if let id { raw(",\"id\":"); string(id) }
        raw(",\"level\":"); string(level)
        if let outOfGamut {
            raw(",\"outOfGamut\":[")
            for (index, name) in outOfGamut.enumerated() {
                if index > 0 { raw(",") }
                string(name)
            }
            raw("]")
        }
        raw(",\"pass\":"); bool(pass)
        if let range {
            raw(",\"range\":{\"best\":"); number(range.best)
            raw(",\"bestBackdrop\":"); string(range.bestBackdrop)
            raw(",\"worst\":"); number(range.worst)
            raw(",\"worstBackdrop\":"); string(range.worstBackdrop)
            raw("}")
        }
        raw(",\"ratio\":"); number(ratio)
        if let required { raw(",\"required\":"); number(required) }
        raw(",\"usage\":"); string(usage)
        raw(",\"verdicts\":{\"large-text\":{\"AA\":"); bool(verdicts.largeTextAA)
        raw(",\"AAA\":"); bool(verdicts.largeTextAAA)
        raw("},\"non-text\":{\"AA\":"); bool(verdicts.nonTextAA)
        raw("},\"text\":{\"AA\":"); bool(verdicts.textAA)
        raw(",\"AAA\":"); bool(verdicts.textAAA)
        raw("}}}")
    }
}

/// Pass/fail of a pair for every usage and level. In JSON, an object of objects keyed by usage
/// and level (`{"large-text": {"AA": true, "AAA": false}, "non-text": {"AA": true}, "text": …}`);
/// in memory, five booleans (the report is built once per pair of a batch).
public struct PairVerdicts: Hashable, Sendable, Codable {
    public var textAA, textAAA, largeTextAA, largeTextAAA, nonTextAA: Bool

    public init(ratio: Double) {
        textAA = ContrastRequirement(usage: .text, level: .AA).isMet(by: ratio)
        textAAA = ContrastRequirement(usage: .text, level: .AAA).isMet(by: ratio)
        largeTextAA = ContrastRequirement(usage: .largeText, level: .AA).isMet(by: ratio)
        largeTextAAA = ContrastRequirement(usage: .largeText, level: .AAA).isMet(by: ratio)
        nonTextAA = ContrastRequirement(usage: .nonText).isMet(by: ratio)
    }

    /// The levels of a usage by name (`"text"`, `"large-text"`, `"non-text"`), as in the JSON.
    public subscript(usage: String) -> [String: Bool]? {
        switch usage {
        case ContrastUsage.text.name: ["AA": textAA, "AAA": textAAA]
        case ContrastUsage.largeText.name: ["AA": largeTextAA, "AAA": largeTextAAA]
        case ContrastUsage.nonText.name: ["AA": nonTextAA]
        default: nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let table = try [String: [String: Bool]](from: decoder)
        func value(_ usage: String, _ level: String) throws -> Bool {
            guard let v = table[usage]?[level] else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "verdicts lack \(usage) \(level)"))
            }
            return v
        }
        textAA = try value(ContrastUsage.text.name, "AA")
        textAAA = try value(ContrastUsage.text.name, "AAA")
        largeTextAA = try value(ContrastUsage.largeText.name, "AA")
        largeTextAAA = try value(ContrastUsage.largeText.name, "AAA")
        nonTextAA = try value(ContrastUsage.nonText.name, "AA")
    }

    public func encode(to encoder: any Encoder) throws {
        let table: [String: [String: Bool]] = [ContrastUsage.text.name: ["AA": textAA, "AAA": textAAA],
                                               ContrastUsage.largeText.name: ["AA": largeTextAA, "AAA": largeTextAAA],
                                               ContrastUsage.nonText.name: ["AA": nonTextAA]]
        try table.encode(to: encoder)
    }
}

/// JSON numbers as Foundation's encoder writes them: integers without a fraction, others in
/// their shortest round-trip form.
public enum JSONNumber {
    public static func format(_ value: Double) -> String {
        var text = ""
        write(value, to: &text)
        return text
    }

    /// Writes the number's text to a stream without making a string first (a batch writes two
    /// or three per pair).
    public static func write<Target: TextOutputStream>(_ value: Double, to target: inout Target) {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 {
            target.write(String(Int(value)))
        } else if value.isFinite {
            value.write(to: &target)
        } else {
            target.write("null")
        }
    }
}

/// Bytes as a text stream: numbers write their ASCII digits straight into the buffer.
struct ByteStream: TextOutputStream {
    var bytes: [UInt8] = []

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The standard library hands integers' and floating-point numbers' digits to this hook;
    /// without it they would become a `String` first.
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}
