/// How `JSONWriter` escapes strings: one pass that copies a clean string between its quotes,
/// eight bytes at a time, and escapes byte by byte from the first byte that needs it.
extension JSONWriter {
    // MARK: Escaping

    /// `text` as a JSON string: `"`, `\` and control characters escaped (`\n`, `\r`, `\t`, else
    /// `\u00XX`); everything else, non-ASCII included, as it is.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            // Most strings need no escaping: they are copied between their quotes in one pass
            // that stops at the first byte to escape; the rest is then escaped byte by byte.
            let clean = out.appendQuotedIfClean(utf8)
            guard clean < utf8.count else { return }
            appendEscaped(UnsafeBufferPointer(rebasing: utf8[clean...]), to: &out)
            out.append(0x22)
        }
    }

    /// Appends `text` escaped, without quotes.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped($0, to: &out) }
    }

    /// Escapes into the buffer a piece at a time, so that no more than six times a piece's
    /// bytes are ever reserved ahead.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var start = 0
        while start < utf8.count {
            let piece = UnsafeBufferPointer(rebasing: utf8[start..<min(utf8.count, start + 4096)])
            out.append(addingCapacity: escapedBound(piece.count)) { span in
                span.withUnsafeMutableBufferPointer { buffer, initialized in
                    initialized = writeEscaped(piece, to: buffer.baseAddress!)
                }
            }
            start += piece.count
        }
    }

    /// The most bytes `count` bytes of text take escaped (`\u00XX` for each), and quoted.
    @inline(__always) static func escapedBound(_ count: Int) -> Int { 6 * count }
    @inline(__always) static func quotedBound(_ count: Int) -> Int { 6 * count + 2 }

    /// Writes `utf8` as a JSON string at `out`, which has room for ``quotedBound(_:)`` bytes;
    /// returns how many it wrote.
    @inline(__always)
    static func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x22
        let clean = copyClean(utf8, to: out + 1)
        var written = 1 + clean
        if clean < utf8.count {
            written += writeEscaped(UnsafeBufferPointer(rebasing: utf8[clean...]), to: out + written)
        }
        out[written] = 0x22
        return written + 1
    }

    /// Copies `utf8` to `out` up to the first byte a JSON string must escape (`"`, `\`, a
    /// control character), eight bytes at a time while none is; returns how many it copied.
    @inline(__always)
    static func copyClean(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let count = utf8.count
        var copied = 0
        if let source = utf8.baseAddress {
            while copied + 8 <= count {
                let word = UnsafeRawPointer(source + copied).loadUnaligned(as: UInt64.self)
                if [UInt8].mayNeedEscape(word) { break }
                UnsafeMutableRawPointer(out + copied).storeBytes(of: word, as: UInt64.self)
                copied += 8
            }
        }
        while copied < count {
            let byte = utf8[copied]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { break }
            out[copied] = byte
            copied += 1
        }
        return copied
    }

    /// Writes every byte of `utf8` at `out`, escaped where a JSON string must be (`\"`, `\\`,
    /// `\n`, `\r`, `\t`, else `\u00XX` for a control character); `out` has room for
    /// ``escapedBound(_:)`` bytes. Returns how many it wrote.
    static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        for byte in utf8 {
            switch byte {
            case 0x22, 0x5C:
                out[n] = 0x5C; out[n + 1] = byte; n += 2
            case 0x0A:
                out[n] = 0x5C; out[n + 1] = UInt8(ascii: "n"); n += 2
            case 0x0D:
                out[n] = 0x5C; out[n + 1] = UInt8(ascii: "r"); n += 2
            case 0x09:
                out[n] = 0x5C; out[n + 1] = UInt8(ascii: "t"); n += 2
            case ..<0x20:
                let digits: StaticString = "0123456789abcdef"
                out[n] = 0x5C; out[n + 1] = UInt8(ascii: "u"); out[n + 2] = 0x30; out[n + 3] = 0x30
                out[n + 4] = digits.utf8Start[Int(byte >> 4)]; out[n + 5] = digits.utf8Start[Int(byte & 15)]
                n += 6
            default:
                out[n] = byte; n += 1
            }
        }
        return n
    }
}

extension Array where Element == UInt8 {
    /// Appends three pieces with one check of the buffer's uniqueness and capacity (each
    /// `append(contentsOf:)` makes its own).
    @inline(__always)
    mutating func append(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ c: UnsafeBufferPointer<UInt8>) {
        let total = a.count + b.count + c.count
        guard total > 0 else { return }
        append(addingCapacity: total) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                let out = buffer.baseAddress!
                if let start = a.baseAddress { out.initialize(from: start, count: a.count) }
                if let start = b.baseAddress { (out + a.count).initialize(from: start, count: b.count) }
                if let start = c.baseAddress { (out + a.count + b.count).initialize(from: start, count: c.count) }
                initialized = total
            }
        }
    }

    /// Appends `"` and then the bytes of `utf8` up to the first one a JSON string must escape
    /// (`"`, `\\`, a control character); when there is none, the closing `"` too. Returns how
    /// many bytes of `utf8` were copied: `utf8.count` when the string is complete.
    @inline(__always)
    mutating func appendQuotedIfClean(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let count = utf8.count
        var copied = 0
        append(addingCapacity: count + 2) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                let out = buffer.baseAddress!
                out[0] = 0x22
                copied = JSONWriter.copyClean(utf8, to: out + 1)
                if copied == count {
                    out[count + 1] = 0x22
                    initialized = count + 2
                } else {
                    initialized = copied + 1
                }
            }
        }
        return copied
    }

    /// Whether one of the eight bytes of `word` is a control character, `"` or `\\`. (A byte
    /// below `n` leaves its high bit set in `(w - n·0x01…) & ~w & 0x80…`, and a byte equal to
    /// `c` is a zero byte of `w ^ c·0x01…`; a borrow can only mark a byte after such a one.)
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- 0x20 &* ones) & ~word & highs
        let quote = word ^ (0x22 &* ones), backslash = word ^ (0x5C &* ones)
        let equal = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
        return control | equal != 0
    }
}

/// A writer belongs to the one thread writing its document (its sink is any closure).
@available(*, unavailable)
extension JSONWriter: Sendable {}
