import ColorScience

/// Writes the audit model as compact JSON with sorted keys, by hand: the same document
/// `JSONEncoder` (`.sortedKeys`) writes, several times faster, for the HTTP service (a profile
/// showed the generic encoder taking two thirds of `POST /v1/audit`). Keys below are written
/// in sorted order; a test checks the output against `JSONEncoder`'s.
struct JSONText {
    /// The bytes written so far (numbers are written into it as a text stream).
    var stream = ByteStream()
    /// Per open container: whether a member has been written (so the next needs a comma).
    private var written: [Bool] = []
    /// A key was just written: the next value belongs to it.
    private var afterKey = false
    /// Pretty-printed as `JSONEncoder`'s `.prettyPrinted` lays it out (two spaces per level,
    /// `"key" : value`, an empty container as an opening line, an empty line and a closing
    /// line), for the CLI's `--format json` and the report's `audit.json`.
    private let pretty: Bool
    /// Where the bytes go in pieces of about ``chunkBytes`` as they are written, when set (a
    /// large audit is written to its file piece by piece instead of held whole).
    private let sink: (([UInt8]) -> Void)?
    private static let chunkBytes = 1 << 20

    init(pretty: Bool = false, sink: (([UInt8]) -> Void)? = nil) {
        self.pretty = pretty
        self.sink = sink
        stream.bytes.reserveCapacity(sink == nil ? 1 << 12 : JSONText.chunkBytes + (1 << 12))
    }

    var bytes: [UInt8] { stream.bytes }

    /// Hands what is written so far to the sink once it is large enough.
    private mutating func drainIfLarge() {
        guard let sink, stream.bytes.count >= JSONText.chunkBytes else { return }
        sink(stream.bytes)
        stream.bytes.removeAll(keepingCapacity: true)
    }

    /// Hands the rest to the sink.
    mutating func finish() {
        guard let sink, !stream.bytes.isEmpty else { return }
        sink(stream.bytes)
        stream.bytes.removeAll(keepingCapacity: true)
    }

    /// A line break and the indentation of each depth, made once.
    private static let lineStarts: [[UInt8]] = (0..<64).map { Array(("\n" + String(repeating: " ", count: 2 * $0)).utf8) }

    private mutating func put(_ text: StaticString) {
        text.withUTF8Buffer { stream.bytes.append(contentsOf: $0) }
    }

    private mutating func put(_ byte: UInt8) {
        stream.bytes.append(byte)
    }

    private mutating func newline(depth: Int) {
        if depth < JSONText.lineStarts.count {
            stream.bytes.append(contentsOf: JSONText.lineStarts[depth])
        } else {
            put(0x0A)
            stream.bytes.append(contentsOf: repeatElement(0x20, count: 2 * depth))
        }
    }

    /// `text` as a JSON string.
    private mutating func quoted(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            if utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                var escaped = JSONValue.quoted(String(decoding: utf8, as: UTF8.self))
                escaped.withUTF8 { stream.bytes.append(contentsOf: $0) }
            } else {
                stream.bytes.append(0x22)
                stream.bytes.append(contentsOf: utf8)
                stream.bytes.append(0x22)
            }
        }
    }

    /// The next value is a member named `name`.
    mutating func key(_ name: String) {
        if written.last == true { put(0x2C) }
        if !written.isEmpty { written[written.count - 1] = true }
        if pretty { newline(depth: written.count) }
        quoted(name)
        if pretty { put(" : ") } else { put(0x3A) }
        afterKey = true
    }

    private mutating func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        if written.last == true { put(0x2C) }
        if !written.isEmpty { written[written.count - 1] = true }
        if pretty && !written.isEmpty { newline(depth: written.count) }
    }

    private mutating func close(_ bracket: UInt8) {
        drainIfLarge()
        if pretty {
            if written.last != true { put(0x0A) }
            newline(depth: written.count - 1)
        }
        put(bracket)
        written.removeLast()
    }

    mutating func string(_ s: String) { beginValue(); quoted(s) }
    mutating func number(_ d: Double) { beginValue(); JSONNumber.write(d, to: &stream) }
    mutating func int(_ i: Int) { beginValue(); stream.write(String(i)) }
    mutating func bool(_ b: Bool) { beginValue(); if b { put("true") } else { put("false") } }

    mutating func object(_ body: (inout JSONText) -> Void) {
        beginValue()
        put(0x7B)
        written.append(false)
        body(&self)
        close(0x7D)
    }

    mutating func array<T>(_ items: [T], _ each: (inout JSONText, T) -> Void) {
        beginValue()
        put(0x5B)
        written.append(false)
        for item in items { each(&self, item) }
        close(0x5D)
    }

    mutating func strings(_ items: [String]) { array(items) { $0.string($1) } }

    /// Already-encoded JSON as the next value.
    mutating func raw(_ json: [UInt8]) { beginValue(); stream.bytes.append(contentsOf: json) }

    /// A final newline (the pretty documents end with one).
    mutating func endLine() { put(0x0A) }

    // Optional members: written only when present, as JSONEncoder does.
    mutating func string(_ name: String, _ value: String?) { if let value { key(name); string(value) } }
    mutating func number(_ name: String, _ value: Double?) { if let value { key(name); number(value) } }
    mutating func int(_ name: String, _ value: Int?) { if let value { key(name); int(value) } }
}

extension AuditReport {
    /// Compact JSON with sorted keys (see ``JSONText``).
    public func compactJSON() -> [UInt8] {
        json(pretty: false)
    }

    /// The same document pretty-printed, with a final newline: what `contrast audit --format
    /// json` prints and `contrast report` writes as `audit.json`.
    public func prettyJSON() -> String {
        var w = JSONText(pretty: true)
        document(&w)
        w.endLine()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// ``prettyJSON()`` handed to `write` in pieces of about a megabyte, in order, so a large
    /// audit never exists whole as text (the pieces joined are exactly ``prettyJSON()``).
    public func writePrettyJSON(_ write: ([UInt8]) -> Void) {
        withoutActuallyEscaping(write) { write in
            var w = JSONText(pretty: true, sink: write)
            document(&w)
            w.endLine()
            w.finish()
        }
    }

    func json(pretty: Bool) -> [UInt8] {
        var w = JSONText(pretty: pretty)
        document(&w)
        return w.bytes
    }

    private func document(_ w: inout JSONText) {
        w.object { w in
            if let comparison { w.key("comparison"); comparison.write(&w) }
            w.key("palettes"); w.array(palettes) { w, p in p.write(&w) }
            w.key("schemaVersion"); w.int(schemaVersion)
            do {
                w.key("skipped")
                w.array(skipped) { w, s in
                    w.object { w in
                        w.key("file"); w.string(s.file)
                        w.key("reason"); w.string(s.reason)
                    }
                }
            }
            w.key("summary"); summary.write(&w)
        }
    }
}

extension AuditReport {
    /// `{"audit", "comparison", "current", "palette", "proposed"}`: the answer to a proposal.
    public static func proposalJSON(palette: String, current: AuditSummary, proposed: AuditSummary,
                                    comparison: BaselineComparison, audit: AuditReport) -> [UInt8] {
        var w = JSONText()
        w.object { w in
            w.key("audit"); w.raw(audit.compactJSON())
            w.key("comparison"); comparison.write(&w)
            w.key("current"); current.write(&w)
            w.key("palette"); w.string(palette)
            w.key("proposed"); proposed.write(&w)
        }
        return w.bytes
    }
}

extension AuditSummary {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.key("assumptions"); w.int(assumptions)
            w.key("checks"); w.int(checks)
            w.key("exempt"); w.int(exempt)
            w.key("fail"); w.int(fail)
            w.key("falseClaims"); w.int(falseClaims)
            w.key("pass"); w.int(pass)
            w.key("problems"); w.int(problems)
        }
    }
}

extension PaletteReport {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.key("assumptions"); w.array(assumptions) { w, a in a.write(&w) }
            w.string("description", description)
            w.string("file", file)
            if let files { w.key("files"); w.strings(files) }
            w.string("format", format)
            if let ledger { w.key("ledger"); ledger.write(&w) }
            w.key("name"); w.string(name)
            w.key("problems"); w.array(problems) { w, p in p.write(&w) }
            w.string("source", source)
            w.key("summary"); summary.write(&w)
            w.key("themes"); w.array(themes) { w, t in t.write(&w) }
            if let warnings { w.key("warnings"); w.array(warnings) { w, p in p.write(&w) } }
        }
    }
}

extension ThemeReport {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.key("name"); w.string(name)
            w.key("results"); w.array(results) { w, r in r.write(&w) }
            w.key("summary"); summary.write(&w)
            if let unresolved {
                w.key("unresolved")
                w.array(unresolved) { w, u in
                    w.object { w in
                        w.key("background"); w.string(u.background)
                        w.key("foreground"); w.string(u.foreground)
                        w.key("id"); w.string(u.id)
                        w.key("problem"); w.string(u.problem)
                    }
                }
            }
        }
    }
}

extension Assumption {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.string("check", check)
            w.key("pointer"); w.string(pointer.description)
            w.key("reason"); w.string(reason)
            if let themes { w.key("themes"); w.strings(themes) }
            w.string("token", token)
            w.string("value", value)
        }
    }
}

extension PaletteProblem {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.key("code"); w.string(code.rawValue)
            w.string("file", file)
            if let location {
                w.key("location")
                w.object { w in
                    w.key("column"); w.int(location.column)
                    w.key("line"); w.int(location.line)
                    w.key("offset"); w.int(location.offset)
                }
            }
            w.key("message"); w.string(message)
            w.key("pointer"); w.string(pointer.description)
            if severity == .warning { w.key("severity"); w.string("warning") }
            w.string("theme", theme)
        }
    }
}

extension ResolvedColor {
    func write(_ w: inout JSONText) {
        w.object { w in
            if let aliases { w.key("aliases"); w.strings(aliases) }
            w.string("assumed", assumed)
            w.key("css"); w.string(css)
            w.string("deprecated", deprecated)
            w.string("file", file)
            w.key("hex"); w.string(hex)
            w.int("line", line)
            if let operations { w.key("operations"); w.strings(operations) }
            if let outOfGamut { w.key("outOfGamut"); w.bool(outOfGamut) }
            w.string("pointer", pointer?.description)
            w.key("reference"); w.string(reference)
            w.string("token", token)
        }
    }
}

extension SuggestedColor {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.key("apca"); w.number(apca)
            w.key("deltaEOK"); w.number(deltaEOK)
            w.key("direction"); w.string(direction)
            w.key("display"); w.string(display)
            w.key("hex"); w.string(hex)
            w.key("ratio"); w.number(ratio)
        }
    }
}

extension CheckResult {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.key("achieved"); w.string(achieved.name)
            w.key("apca"); w.number(apca)
            w.number("apcaRequired", apcaRequired)
            if let assumed { w.key("assumed"); w.strings(assumed) }
            if let backdrop { w.key("backdrop"); backdrop.write(&w) }
            w.key("background"); background.write(&w)
            if let claim {
                w.key("claim")
                w.object { w in
                    w.key("claim")
                    w.object { w in
                        w.string("level", claim.claim.level)
                        w.number("minimumRatio", claim.claim.minimumRatio)
                        w.string("quote", claim.claim.quote)
                        w.number("ratio", claim.claim.ratio)
                        w.string("where", claim.claim.where)
                    }
                    w.key("message"); w.string(claim.message)
                    w.key("supported"); w.bool(claim.supported)
                }
            }
            if let composited {
                w.key("composited")
                w.object { w in
                    w.key("background"); w.string(composited.background)
                    w.key("foreground"); w.string(composited.foreground)
                }
            }
            w.string("criterion", criterion)
            w.string("description", description)
            w.key("display"); w.string(display)
            if let fixes {
                w.key("fixes")
                w.array(fixes) { w, fix in
                    w.object { w in
                        w.key("changes")
                        w.array(fix.changes) { w, change in
                            w.object { w in
                                if let override = change.override { w.key("override"); w.bool(override) }
                                w.key("pointer"); w.string(change.pointer.description)
                                w.string("token", change.token)
                                w.key("value"); w.string(change.value)
                            }
                        }
                        w.key("kind"); w.string(fix.kind)
                    }
                }
            }
            w.string("fontSize", fontSize)
            w.int("fontWeight", fontWeight)
            w.key("foreground"); foreground.write(&w)
            w.key("id"); w.string(id)
            w.key("kind"); w.string(kind.name)
            w.key("level"); w.string(level.name)
            w.int("line", line)
            w.key("pointer"); w.string(pointer.description)
            if let range {
                w.key("range")
                w.object { w in
                    w.key("best"); w.number(range.best)
                    w.key("bestBackdrop"); w.string(range.bestBackdrop)
                    w.key("worst"); w.number(range.worst)
                    w.key("worstBackdrop"); w.string(range.worstBackdrop)
                }
            }
            w.key("ratio"); w.number(ratio)
            if let reasons { w.key("reasons"); w.strings(reasons) }
            w.number("required", required)
            if let suggestions {
                w.key("suggestions")
                w.object { w in
                    w.key("background"); w.array(suggestions.background) { w, c in c.write(&w) }
                    if let both = suggestions.both {
                        w.key("both")
                        w.object { w in
                            w.key("background"); both.background.write(&w)
                            w.key("foreground"); both.foreground.write(&w)
                        }
                    }
                    w.key("foreground"); w.array(suggestions.foreground) { w, c in c.write(&w) }
                    if let notes = suggestions.notes { w.key("notes"); w.strings(notes) }
                }
            }
            w.key("usage"); w.string(usage.name)
            w.key("verdict"); w.string(verdict.rawValue)
        }
    }
}

extension BaselineEntry {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.key("achieved"); w.string(achieved)
            w.key("check"); w.string(check)
            w.key("level"); w.string(level)
            w.key("palette"); w.string(palette)
            w.key("ratio"); w.number(ratio)
            w.key("theme"); w.string(theme)
            w.key("usage"); w.string(usage)
            w.key("verdict"); w.string(verdict.rawValue)
        }
    }
}

extension BaselineComparison {
    func write(_ w: inout JSONText) {
        func change(_ w: inout JSONText, _ c: BaselineChange) {
            w.object { w in
                w.key("after"); c.after.write(&w)
                w.key("before"); c.before.write(&w)
                w.key("key"); w.string(c.key)
            }
        }
        w.object { w in
            w.key("added"); w.strings(added)
            w.key("improvements"); w.array(improvements, change)
            w.key("regressions"); w.array(regressions, change)
            w.key("removed"); w.strings(removed)
            w.key("unchanged"); w.int(unchanged)
        }
    }
}

extension ReadLedger.Summary {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.key("colorDeclarations"); w.int(colorDeclarations)
            w.key("notColors"); w.int(notColors)
            w.key("notRead"); w.array(notRead) { w, e in e.write(&w) }
            w.key("read"); w.int(read)
        }
    }
}

extension ReadLedger.Entry {
    func write(_ w: inout JSONText) {
        w.object { w in
            w.int("column", column)
            w.key("disposition"); w.string(disposition.rawValue)
            w.string("file", file)
            w.int("line", line)
            w.key("name"); w.string(name)
            w.string("reason", reason)
            if let themes { w.key("themes"); w.strings(themes) }
            w.string("type", type)
        }
    }
}
