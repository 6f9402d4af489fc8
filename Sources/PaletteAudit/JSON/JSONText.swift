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
