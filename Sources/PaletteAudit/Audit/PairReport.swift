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
    /// The report as compact JSON with sorted keys, written by ``JSONWriter``: the same document
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
        JSONWriter.append(to: &out) { write(&$0, id: id) }
    }

    /// Writes the report as the next value of `w`.
    public func write(_ w: inout JSONWriter, id: String? = nil) {
        w.object { w in
            w.key(Keys.achieved); w.string(achieved)
            w.key(Keys.apca); w.number(apca)
            if let backdrop { w.key(Keys.backdrop); w.string(backdrop) }
            w.key(Keys.background); w.string(background)
            if let composited {
                w.key(Keys.composited)
                w.object { w in
                    w.key(Keys.background); w.string(composited.background)
                    w.key(Keys.foreground); w.string(composited.foreground)
                }
            }
            if let cvd {
                w.key(Keys.cvd)
                w.object { w in
                    w.key(Keys.background); w.string(cvd.background)
                    w.key(Keys.deficiencies); w.strings(cvd.deficiencies)
                    w.key(Keys.deficiency); w.string(cvd.deficiency)
                    w.key(Keys.display); w.string(cvd.display)
                    w.key(Keys.foreground); w.string(cvd.foreground)
                    w.key(Keys.ratio); w.number(cvd.ratio)
                    if let verdict = cvd.verdict { w.key(Keys.verdict); w.string(verdict) }
                }
            }
            w.key(Keys.display); w.string(display)
            w.key(Keys.foreground); w.string(foreground)
            if let id { w.key(Keys.id); w.string(id) }
            w.key(Keys.level); w.string(level)
            if let outOfGamut { w.key(Keys.outOfGamut); w.strings(outOfGamut) }
            w.key(Keys.pass); w.bool(pass)
            if let range {
                w.key(Keys.range)
                w.object { w in
                    w.key(Keys.best); w.number(range.best)
                    w.key(Keys.bestBackdrop); w.string(range.bestBackdrop)
                    w.key(Keys.worst); w.number(range.worst)
                    w.key(Keys.worstBackdrop); w.string(range.worstBackdrop)
                }
            }
            w.key(Keys.ratio); w.number(ratio)
            if let required { w.key(Keys.required); w.number(required) }
            w.key(Keys.usage); w.string(usage)
            w.key(Keys.verdicts)
            w.object { w in
                w.key(Keys.largeText)
                w.object { w in
                    w.key(Keys.AA); w.bool(verdicts.largeTextAA)
                    w.key(Keys.AAA); w.bool(verdicts.largeTextAAA)
                }
                w.key(Keys.nonText)
                w.object { w in w.key(Keys.AA); w.bool(verdicts.nonTextAA) }
                w.key(Keys.text)
                w.object { w in
                    w.key(Keys.AA); w.bool(verdicts.textAA)
                    w.key(Keys.AAA); w.bool(verdicts.textAAA)
                }
            }
        }
    }

    /// The report's member names, made once (``JSONWriter/Key``): a batch writes millions.
    private enum Keys {
        static let AA = JSONWriter.Key("AA")
        static let AAA = JSONWriter.Key("AAA")
        static let achieved = JSONWriter.Key("achieved")
        static let apca = JSONWriter.Key("apca")
        static let backdrop = JSONWriter.Key("backdrop")
        static let background = JSONWriter.Key("background")
        static let best = JSONWriter.Key("best")
        static let bestBackdrop = JSONWriter.Key("bestBackdrop")
        static let composited = JSONWriter.Key("composited")
        static let cvd = JSONWriter.Key("cvd")
        static let deficiencies = JSONWriter.Key("deficiencies")
        static let deficiency = JSONWriter.Key("deficiency")
        static let display = JSONWriter.Key("display")
        static let foreground = JSONWriter.Key("foreground")
        static let id = JSONWriter.Key("id")
        static let largeText = JSONWriter.Key("large-text")
        static let level = JSONWriter.Key("level")
        static let nonText = JSONWriter.Key("non-text")
        static let outOfGamut = JSONWriter.Key("outOfGamut")
        static let pass = JSONWriter.Key("pass")
        static let range = JSONWriter.Key("range")
        static let ratio = JSONWriter.Key("ratio")
        static let required = JSONWriter.Key("required")
        static let text = JSONWriter.Key("text")
        static let usage = JSONWriter.Key("usage")
        static let verdict = JSONWriter.Key("verdict")
        static let verdicts = JSONWriter.Key("verdicts")
        static let worst = JSONWriter.Key("worst")
        static let worstBackdrop = JSONWriter.Key("worstBackdrop")
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
