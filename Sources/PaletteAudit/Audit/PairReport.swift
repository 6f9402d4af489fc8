public import ColorScience
public import TokenSources

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
    /// The inputs that are not 8-bit colors (`rgb(118.6 118.6 118.6)`): their hex is only
    /// their nearest 8-bit color, and the ratio is theirs, not the hex's.
    public var rounded: [String]?
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
        if !(foreground.color.isExactIn8Bit && background.color.isExactIn8Bit && backdrop?.color.isExactIn8Bit != false) {
            var inexact: [String] = []
            if !foreground.color.isExactIn8Bit { inexact.append("foreground") }
            if !background.color.isExactIn8Bit { inexact.append("background") }
            if backdrop?.color.isExactIn8Bit == false { inexact.append("backdrop") }
            rounded = inexact
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

    /// Appends the JSON of ``jsonBytes(id:)`` to a buffer (a batch writes many into one): laid
    /// out in room reserved at its end, with no writer of its own.
    public func appendJSON(to out: inout [UInt8], id: String? = nil) {
        out.append(addingCapacity: laidOutBound(id: id)) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                var cursor = JSONCursor(buffer)
                layOut(&cursor, id: id)
                initialized = cursor.written
            }
        }
    }

    /// Writes the report as the next value of `w`. In the compact layout (a batch's lines, the
    /// service's bodies) its keys are laid out as literal fragments, one append each, as a
    /// batch of millions needs; ``writeMembers(_:id:)`` is the same report through the writer's
    /// ordinary calls, and a test holds the two to the same bytes.
    public func write(_ w: inout JSONWriter, id: String? = nil) {
        if w.isCompact { writeLaidOut(&w, id: id) } else { writeMembers(&w, id: id) }
    }

    func writeLaidOut(_ w: inout JSONWriter, id: String?) {
        w.laidOut(bound: laidOutBound(id: id)) { layOut(&$0, id: id) }
    }

    /// The compact report through a cursor with room for ``laidOutBound(id:)`` bytes.
    private func layOut(_ c: inout JSONCursor, id: String?) {
        c.fragment("{\"achieved\":"); c.string(achieved)
        c.fragment(",\"apca\":"); c.number(apca)
        if let backdrop { c.fragment(",\"backdrop\":"); c.string(backdrop) }
        c.fragment(",\"background\":"); c.string(background)
        if let composited {
            c.fragment(",\"composited\":{\"background\":"); c.string(composited.background)
            c.fragment(",\"foreground\":"); c.string(composited.foreground)
            c.fragment("}")
        }
        if let cvd {
            c.fragment(",\"cvd\":{\"background\":"); c.string(cvd.background)
            c.fragment(",\"deficiencies\":["); c.strings(cvd.deficiencies)
            c.fragment("],\"deficiency\":"); c.string(cvd.deficiency)
            c.fragment(",\"display\":"); c.string(cvd.display)
            c.fragment(",\"foreground\":"); c.string(cvd.foreground)
            c.fragment(",\"ratio\":"); c.number(cvd.ratio)
            if let verdict = cvd.verdict { c.fragment(",\"verdict\":"); c.string(verdict) }
            c.fragment("}")
        }
        c.fragment(",\"display\":"); c.string(display)
        c.fragment(",\"foreground\":"); c.string(foreground)
        if let id { c.fragment(",\"id\":"); c.string(id) }
        c.fragment(",\"level\":"); c.string(level)
        if let outOfGamut { c.fragment(",\"outOfGamut\":["); c.strings(outOfGamut); c.fragment("]") }
        c.fragment(pass ? ",\"pass\":true" : ",\"pass\":false")
        if let range {
            c.fragment(",\"range\":{\"best\":"); c.number(range.best)
            c.fragment(",\"bestBackdrop\":"); c.string(range.bestBackdrop)
            c.fragment(",\"worst\":"); c.number(range.worst)
            c.fragment(",\"worstBackdrop\":"); c.string(range.worstBackdrop)
            c.fragment("}")
        }
        c.fragment(",\"ratio\":"); c.number(ratio)
        if let required { c.fragment(",\"required\":"); c.number(required) }
        if let rounded { c.fragment(",\"rounded\":["); c.strings(rounded); c.fragment("]") }
        c.fragment(",\"usage\":"); c.string(usage)
        c.fragment(verdicts.largeTextAA ? ",\"verdicts\":{\"large-text\":{\"AA\":true" : ",\"verdicts\":{\"large-text\":{\"AA\":false")
        c.fragment(verdicts.largeTextAAA ? ",\"AAA\":true},\"non-text\":{\"AA\":" : ",\"AAA\":false},\"non-text\":{\"AA\":")
        c.fragment(verdicts.nonTextAA ? "true},\"text\":{\"AA\":" : "false},\"text\":{\"AA\":")
        c.fragment(verdicts.textAA ? "true,\"AAA\":" : "false,\"AAA\":")
        c.fragment(verdicts.textAAA ? "true}}}" : "false}}}")
    }

    /// The most bytes ``writeLaidOut(_:id:)`` writes: every fragment it can write, each number
    /// at the cursor's bound, and each string at six bytes a byte escaped with its quotes and a
    /// comma (``JSONWriter/quotedBound(_:)`` is six a byte and two).
    private func laidOutBound(id: String?) -> Int {
        var bytes = achieved.utf8.count + background.utf8.count + display.utf8.count + foreground.utf8.count
            + level.utf8.count + usage.utf8.count
        var strings = 6
        func add(_ text: String?) {
            guard let text else { return }
            bytes += text.utf8.count
            strings += 1
        }
        add(id)
        add(backdrop)
        add(composited?.background); add(composited?.foreground)
        add(range?.bestBackdrop); add(range?.worstBackdrop)
        if let outOfGamut { for item in outOfGamut { add(item) } }
        if let rounded { for item in rounded { add(item) } }
        if let cvd {
            add(cvd.background); add(cvd.deficiency); add(cvd.display); add(cvd.foreground); add(cvd.verdict)
            for item in cvd.deficiencies { add(item) }
        }
        return PairReport.fragmentBytes + 6 * JSONCursor.numberBound + JSONWriter.quotedBound(bytes) + 3 * strings
    }

    /// More than the bytes of the fragments ``writeLaidOut(_:id:)`` writes for any report:
    /// 468 on its longest path (every optional part, the longer of each alternative), 583 for
    /// all its fragments together. Past it the cursor stops the process; it never writes past.
    static var fragmentBytes: Int { 640 }

    /// ``write(_:id:)`` through the writer's ordinary calls, in any layout.
    func writeMembers(_ w: inout JSONWriter, id: String?) {
        w.beginObject()
            w.key("achieved"); w.string(achieved)
            w.key("apca"); w.number(apca)
            if let backdrop { w.key("backdrop"); w.string(backdrop) }
            w.key("background"); w.string(background)
            if let composited { w.key("composited"); composited.write(&w) }
            if let cvd { w.key("cvd"); cvd.write(&w) }
            w.key("display"); w.string(display)
            w.key("foreground"); w.string(foreground)
            if let id { w.key("id"); w.string(id) }
            w.key("level"); w.string(level)
            if let outOfGamut { w.key("outOfGamut"); w.strings(outOfGamut) }
            w.key("pass"); w.bool(pass)
            if let range { w.key("range"); range.write(&w) }
            w.key("ratio"); w.number(ratio)
            if let required { w.key("required"); w.number(required) }
            if let rounded { w.key("rounded"); w.strings(rounded) }
            w.key("usage"); w.string(usage)
            w.key("verdicts")
            w.beginObject()
                w.key("large-text")
                w.beginObject()
                    w.key("AA"); w.bool(verdicts.largeTextAA)
                    w.key("AAA"); w.bool(verdicts.largeTextAAA)
                w.endObject()
                w.key("non-text")
                w.beginObject(); w.key("AA"); w.bool(verdicts.nonTextAA); w.endObject()
                w.key("text")
                w.beginObject()
                    w.key("AA"); w.bool(verdicts.textAA)
                    w.key("AAA"); w.bool(verdicts.textAAA)
                w.endObject()
            w.endObject()
        w.endObject()
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
