/// The one writer of hand-made JSON: every JSON document the tool writes without `JSONEncoder`
/// (the audit model, a pair's report, a batch's answers and error lines, the contrast matrix,
/// a palette file written back, the access log's JSON lines) goes through it, so escaping,
/// numbers and layout are decided once.
///
/// Members are written in the order they are given; callers that promise sorted keys (the
/// audit model, a pair's report) write them sorted, and tests compare them with
/// `JSONEncoder(.sortedKeys)`. `JSONEncoder` stays where a `Codable` model is the point.
///
/// Layouts:
/// - ``Layout/compact``: no white space (the service's bodies, `check --batch` lines).
/// - ``Layout/pretty``: `JSONEncoder`'s `.prettyPrinted` (two spaces per level, `"key" : value`,
///   an empty container as an opening line, an empty line and a closing line): the CLI's
///   `--format json` and `contrast report`'s `audit.json`.
/// - ``Layout/document``: how palette files are written back (two spaces per level,
///   `"key": value`, `{}` and `[]` when empty, and short lists of scalars on one line).
public struct JSONWriter: ~Copyable {
    public enum Layout: Sendable {
        case compact, pretty, document
    }

    /// How a container lays out its values beyond what the ``Layout`` says.
    public enum ContainerStyle: Sendable {
        /// As the layout says.
        case normal
        /// Values on one line, separated by `", "` (``Layout/document``'s short lists).
        case inline
        /// Each value on a line of its own, without indentation, in any layout: the matrix's
        /// pairs (`[\n{…},\n{…}\n]`), which a reader can take a line at a time.
        case linePerValue
    }

    /// The bytes written so far.
    private var stream = JSONBuffer()
    /// The open containers, innermost last.
    private var containers = ContainerStack()
    /// A key was just written: the next value belongs to it.
    private var afterKey = false
    private let layout: Layout
    /// Where the bytes go in pieces of about ``chunkBytes`` as they are written, when set (a
    /// large audit or matrix is written piece by piece instead of held whole).
    private let sink: (([UInt8]) -> Void)?
    private static let chunkBytes = 1 << 20

    public init(layout: Layout = .compact, sink: (([UInt8]) -> Void)? = nil) {
        self.layout = layout
        self.sink = sink
        if sink != nil { stream.reserve(JSONWriter.chunkBytes + (1 << 12)) }
    }

    /// Reserves room for `count` more bytes, so a document whose size is about known is not
    /// copied each time its buffer doubles.
    public mutating func reserve(_ count: Int) {
        stream.reserve(count)
    }

    /// The bytes written (all of them, when there is no sink; what is not yet handed over, when
    /// there is).
    public var bytes: [UInt8] { stream.array }

    /// Writes one compact document at the end of `out` (a batch's lines).
    public static func append(to out: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        body(&writer)
        writer.stream.append(to: &out)
    }

    /// One compact document as bytes.
    public static func compact(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        body(&writer)
        return writer.bytes
    }

    /// Hands the rest to the sink.
    public mutating func finish() {
        guard let sink, stream.count > 0 else { return }
        sink(stream.array)
        stream.removeAll()
    }

    /// Hands what is written so far to the sink once it is large enough.
    private mutating func drainIfLarge() {
        guard let sink, stream.count >= JSONWriter.chunkBytes else { return }
        sink(stream.array)
        stream.removeAll()
    }

    // MARK: Values

    /// The next value is a member named `name`. (A literal name takes the `StaticString`
    /// overload below, which copies it without looking for characters to escape.)
    @_disfavoredOverload
    public mutating func key(_ name: String) {
        separate()
        quoted(name)
        afterKeyName()
    }

    /// The next value is a member named `name`, a literal the caller knows needs no escaping
    /// (the fixed keys of a model: the hot path of a batch).
    @inline(__always)
    public mutating func key(_ name: StaticString) {
        if layout == .compact, containers.depth > 0, containers.topStyle == .normal {
            // `,"name":` (or `"name":`) in one append: the name is copied as it is, with no
            // look for characters to escape and one check of the buffer's capacity.
            let hadValue = containers.topHasValue
            containers.topHasValue = true
            name.withUTF8Buffer { JSONWriter.appendKey($0, comma: hadValue, to: &stream) }
            afterKey = true
            return
        }
        separate()
        put(0x22)
        name.withUTF8Buffer { stream.append($0) }
        put(0x22)
        afterKeyName()
    }

    @inline(__always)
    public mutating func string(_ s: String) { beginValue(); quoted(s) }
    @inline(__always)
    public mutating func number(_ d: Double) {
        beginValue()
        var digits = DigitStream(at: stream.room(DigitStream.bound))
        JSONNumber.write(d, to: &digits)
        stream.commit(digits.count)
    }
    public mutating func int(_ i: Int) {
        beginValue()
        var digits = DigitStream(at: stream.room(DigitStream.bound))
        JSONNumber.writeInteger(i, to: &digits)
        stream.commit(digits.count)
    }
    @inline(__always)
    public mutating func bool(_ b: Bool) { beginValue(); if b { put("true") } else { put("false") } }
    public mutating func null() { beginValue(); put("null") }

    /// A number written as the caller formatted it (the matrix keeps Swift's `21.0`, as its
    /// CSV does). `text` must be a JSON number.
    public mutating func number(formatted text: String) {
        beginValue()
        var text = text
        text.withUTF8 { stream.append($0) }
    }

    /// Already-encoded JSON as the next value.
    public mutating func raw(_ json: [UInt8]) { beginValue(); stream.append(json) }

    public mutating func object(_ style: ContainerStyle = .normal, _ body: (inout JSONWriter) -> Void) {
        open(0x7B, style)
        body(&self)
        close(0x7D)
    }

    // MARK: Laid out by the caller

    /// Whether the layout is ``Layout/compact``: then a model written millions of times (a
    /// batch's pair reports) may lay out its fixed keys and punctuation itself, as literal
    /// fragments, through ``laidOut(bound:_:)``, with its strings and numbers still escaped
    /// and formatted here. Such a model also writes itself through the ordinary calls, and a
    /// test holds the two to the same bytes.
    public var isCompact: Bool { layout == .compact }

    /// The next value, laid out by the caller through a ``JSONCursor`` in at most `bound`
    /// bytes: the separator before it is written first, and the buffer's uniqueness and
    /// capacity are checked once for the whole value instead of once per piece. A piece that
    /// would pass `bound` stops the process rather than write past the buffer, so `bound` is
    /// counted with ``quotedBound(_:)`` for each string and ``JSONCursor/numberBound`` for each
    /// number.
    @inline(__always)
    package mutating func laidOut(bound: Int, _ body: (inout JSONCursor) -> Void) {
        beginValue()
        var cursor = JSONCursor(UnsafeMutableBufferPointer(start: stream.room(bound), count: bound))
        body(&cursor)
        stream.commit(cursor.written)
    }

    /// Opens an object that ``endObject()`` closes: for a model written millions of times (a
    /// batch's pair reports), where the closure of ``object(_:_:)`` would copy the model it
    /// captures, retaining each of its strings and arrays, at every level.
    @inline(__always)
    public mutating func beginObject() { open(0x7B, .normal) }

    @inline(__always)
    public mutating func endObject() { close(0x7D) }

    /// An array whose values `body` writes.
    public mutating func array(_ style: ContainerStyle = .normal, _ body: (inout JSONWriter) -> Void) {
        open(0x5B, style)
        body(&self)
        close(0x5D)
    }

    /// The values of an array without its brackets, separated by commas: a part of an array
    /// written on another thread, to be joined to the others with ``raw(_:)``.
    public mutating func arrayContents(_ body: (inout JSONWriter) -> Void) {
        containers.push(.normal)
        body(&self)
        containers.pop()
    }

    public mutating func array<T>(_ items: [T], _ each: (inout JSONWriter, T) -> Void) {
        open(0x5B, .normal)
        for item in items { each(&self, item) }
        close(0x5D)
    }

    public mutating func strings(_ items: [String]) { array(items) { $0.string($1) } }

    /// A final newline (the pretty documents end with one).
    public mutating func endLine() { put(0x0A) }

    // Optional members: written only when present, as JSONEncoder does. A literal name takes
    // the `StaticString` overloads, which copy it as it is.
    @_disfavoredOverload
    public mutating func string(_ name: String, _ value: String?) { if let value { key(name); string(value) } }
    @_disfavoredOverload
    public mutating func number(_ name: String, _ value: Double?) { if let value { key(name); number(value) } }
    @_disfavoredOverload
    public mutating func int(_ name: String, _ value: Int?) { if let value { key(name); int(value) } }
    @inline(__always)
    public mutating func string(_ name: StaticString, _ value: String?) { if let value { key(name); string(value) } }
    @inline(__always)
    public mutating func number(_ name: StaticString, _ value: Double?) { if let value { key(name); number(value) } }
    @inline(__always)
    public mutating func int(_ name: StaticString, _ value: Int?) { if let value { key(name); int(value) } }

    /// A JSON pointer as a string value (`"/themes/light/tokens/text.body"`), written from its
    /// segments: the same bytes as `string(pointer.description)`, without making that string.
    public mutating func pointer(_ pointer: JSONPointer) {
        beginValue()
        JSONWriter.appendPointer(pointer.segments, to: &stream)
    }

    // MARK: Layout

    @inline(__always)
    private mutating func quoted(_ text: String) { JSONWriter.appendQuoted(text, to: &stream) }

    @inline(__always)
    private mutating func put(_ text: StaticString) {
        text.withUTF8Buffer { stream.append($0) }
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        stream.append(byte)
    }

    /// A line break and the indentation of each depth, made once.
    private static let lineStarts: [[UInt8]] = (0..<64).map { Array(("\n" + String(repeating: " ", count: 2 * $0)).utf8) }

    private mutating func newline(depth: Int) {
        if depth < JSONWriter.lineStarts.count {
            stream.append(JSONWriter.lineStarts[depth])
        } else {
            put(0x0A)
            let at = stream.room(2 * depth)
            at.initialize(repeating: 0x20, count: 2 * depth)
            stream.commit(2 * depth)
        }
    }

    /// Before a member or a value in a container: the comma after the previous one, and the
    /// line break the layout puts there.
    @inline(__always) private mutating func separate() {
        guard containers.depth > 0 else { return }
        let hadValue = containers.topHasValue
        containers.topHasValue = true
        if layout == .compact && containers.topStyle == .normal {
            if hadValue { put(0x2C) }
            return
        }
        switch containers.topStyle {
        case .inline:
            if hadValue { put(", ") }
        case .linePerValue:
            if hadValue { put(",\n") }
        case .normal:
            if hadValue { put(0x2C) }
            if layout != .compact { newline(depth: containers.depth) }
        }
    }

    @inline(__always)
    private mutating func afterKeyName() {
        switch layout {
        case .compact: put(0x3A)
        case .pretty: put(" : ")
        case .document: put(": ")
        }
        afterKey = true
    }

    @inline(__always)
    private mutating func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        separate()
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8, _ style: ContainerStyle) {
        beginValue()
        put(bracket)
        if style == .linePerValue { put(0x0A) }
        containers.push(style)
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        drainIfLarge()
        let hadValue = containers.topHasValue
        switch containers.topStyle {
        case .inline: break
        case .linePerValue: put(0x0A)
        case .normal:
            switch layout {
            case .compact: break
            case .pretty:
                if !hadValue { put(0x0A) }
                newline(depth: containers.depth - 1)
            case .document:
                if hadValue { newline(depth: containers.depth - 1) }
            }
        }
        put(bracket)
        containers.pop()
    }
}

/// The open containers of a ``JSONWriter``: for each, whether a value was written in it and
/// its style. The innermost one's are plain stored values (read for every value written); the
/// outer ones' are saved, the first 32 levels in two words (no allocation for the usual
/// document), deeper ones, which a palette written back may have, in an array.
private struct ContainerStack {
    private(set) var depth = 0
    /// The innermost container's state.
    var topHasValue = false
    private(set) var topStyle: JSONWriter.ContainerStyle = .normal
    private var savedHasValue: UInt64 = 0
    private var savedStyles: UInt64 = 0  // two bits a level
    private var deeper: [(hasValue: Bool, style: JSONWriter.ContainerStyle)] = []

    private static func code(_ style: JSONWriter.ContainerStyle) -> UInt64 {
        switch style {
        case .normal: 0
        case .inline: 1
        case .linePerValue: 2
        }
    }

    @inline(__always) mutating func push(_ style: JSONWriter.ContainerStyle) {
        if depth > 0 {
            let level = depth - 1
            if level < 32 {
                let bit = UInt64(1) << UInt64(level)
                savedHasValue = topHasValue ? savedHasValue | bit : savedHasValue & ~bit
                savedStyles = savedStyles & ~(3 << UInt64(2 * level)) | ContainerStack.code(topStyle) << UInt64(2 * level)
            } else {
                deeper.append((topHasValue, topStyle))
            }
        }
        depth += 1
        topHasValue = false
        topStyle = style
    }

    @inline(__always) mutating func pop() {
        depth -= 1
        guard depth > 0 else { return }
        let level = depth - 1
        if level < 32 {
            topHasValue = savedHasValue & (UInt64(1) << UInt64(level)) != 0
            switch (savedStyles >> UInt64(2 * level)) & 3 {
            case 1: topStyle = .inline
            case 2: topStyle = .linePerValue
            default: topStyle = .normal
            }
        } else {
            let saved = deeper.removeLast()
            topHasValue = saved.hasValue
            topStyle = saved.style
        }
    }
}
