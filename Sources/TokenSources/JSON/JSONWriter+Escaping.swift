/// How `JSONWriter` escapes strings: one pass that copies a clean string between its quotes,
/// eight bytes at a time, and escapes byte by byte from the first byte that needs it.
extension JSONWriter {
    // MARK: Escaping

    /// `text` as a JSON string: `"`, `\` and control characters escaped (`\n`, `\r`, `\t`, else
    /// `\u00XX`); everything else, non-ASCII included, as it is.
    public static func quoted(_ text: String) -> String {
        var out = JSONBuffer(capacity: text.utf8.count + 2)
        appendQuoted(text, to: &out)
        return String(decoding: out.array, as: UTF8.self)
    }

    /// Appends `text` as a JSON string.
    static func appendQuoted(_ text: String, to out: inout JSONBuffer) {
        // A native string lends its bytes where they are; another (a bridged one) is made
        // contiguous first.
        if text.utf8.withContiguousStorageIfAvailable({ appendQuoted($0, to: &out) }) == nil {
            var text = text
            text.withUTF8 { appendQuoted($0, to: &out) }
        }
    }

    /// Most strings need no escaping: they are copied between their quotes in one pass that
    /// stops at the first byte to escape; the rest is then escaped byte by byte.
    @inline(__always)
    private static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout JSONBuffer) {
        let count = utf8.count
        let at = out.room(count + 2)
        at[0] = 0x22
        let clean = copyClean(utf8, to: at + 1)
        if clean == count {
            at[count + 1] = 0x22
            out.commit(count + 2)
            return
        }
        out.commit(clean + 1)
        appendEscaped(UnsafeBufferPointer(rebasing: utf8[clean...]), to: &out)
        out.append(0x22)
    }

    /// Appends a JSON pointer made of `segments` as a JSON string (`"/themes/light"`): each
    /// segment after a `/`, its `~` written `~0` and its `/` written `~1` (RFC 6901), and the
    /// whole escaped as a JSON string. A segment is written in one reservation of the buffer,
    /// a long one in pieces of 4 KB, so no more than six times a piece's bytes are reserved.
    static func appendPointer(_ segments: [String], to out: inout JSONBuffer) {
        out.append(0x22)
        for segment in segments {
            var segment = segment
            segment.withUTF8 { utf8 in
                var start = 0
                repeat {
                    let piece = UnsafeBufferPointer(rebasing: utf8[start..<min(utf8.count, start + 4096)])
                    let slash = start == 0 ? 1 : 0
                    let at = out.room(1 + escapedBound(piece.count))
                    if slash == 1 { at[0] = 0x2F }
                    out.commit(slash + writePointerSegment(piece, to: at + slash))
                    start += piece.count
                } while start < utf8.count
            }
        }
        out.append(0x22)
    }

    /// Writes a pointer segment (or a piece of one) at `out`, which has room for
    /// ``escapedBound(_:)`` of its bytes (`~0` and `~1` take two for one): its runs between `~`
    /// and `/` as a JSON string's contents. Returns how many bytes it wrote.
    @inline(__always)
    private static func writePointerSegment(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0, runStart = 0
        func run(to end: Int) {
            let piece = UnsafeBufferPointer(rebasing: utf8[runStart..<end])
            let clean = copyClean(piece, to: out + n)
            n += clean
            if clean < piece.count { n += writeEscaped(UnsafeBufferPointer(rebasing: piece[clean...]), to: out + n) }
        }
        for index in utf8.indices where utf8[index] == 0x7E || utf8[index] == 0x2F {
            run(to: index)
            out[n] = 0x7E
            out[n + 1] = utf8[index] == 0x7E ? 0x30 : 0x31
            n += 2
            runStart = index + 1
        }
        run(to: utf8.count)
        return n
    }

    /// Escapes into the buffer a piece at a time, so that no more than six times a piece's
    /// bytes are ever reserved ahead.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout JSONBuffer) {
        var start = 0
        while start < utf8.count {
            let piece = UnsafeBufferPointer(rebasing: utf8[start..<min(utf8.count, start + 4096)])
            out.commit(writeEscaped(piece, to: out.room(escapedBound(piece.count))))
            start += piece.count
        }
    }

    /// The most bytes `count` bytes of text take escaped (`\u00XX` for each), and quoted.
    @inline(__always) static func escapedBound(_ count: Int) -> Int { 6 * count }
    @inline(__always) package static func quotedBound(_ count: Int) -> Int { 6 * count + 2 }

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
                if JSONWriter.mayEndString(word) { break }
                UnsafeMutableRawPointer(out + copied).storeBytes(of: word, as: UInt64.self)
                copied += 8
            }
        }
        if let source = utf8.baseAddress {
            // The last seven bytes or fewer: four and two at a time where clean, then one.
            if copied + 4 <= count {
                let word = UnsafeRawPointer(source + copied).loadUnaligned(as: UInt32.self)
                if !JSONWriter.mayEndString(word) {
                    UnsafeMutableRawPointer(out + copied).storeBytes(of: word, as: UInt32.self)
                    copied += 4
                }
            }
            if copied + 2 <= count {
                let word = UnsafeRawPointer(source + copied).loadUnaligned(as: UInt16.self)
                if !JSONWriter.mayEndString(word) {
                    UnsafeMutableRawPointer(out + copied).storeBytes(of: word, as: UInt16.self)
                    copied += 2
                }
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

extension JSONWriter {
    /// Appends a compact member's name, `"name":` after a comma when `comma`, in one check of
    /// the room left. `name` needs no escaping (a literal).
    @inline(__always)
    static func appendKey(_ name: UnsafeBufferPointer<UInt8>, comma: Bool, to buffer: inout JSONBuffer) {
        let count = name.count
        let out = buffer.room(count + 4)
        out[0] = 0x2C
        out[1] = 0x22
        let start = comma ? 2 : 1
        if !comma { out[0] = 0x22 }
        JSONBuffer.copySmall(name, to: out + start)
        out[start + count] = 0x22
        out[start + count + 1] = 0x3A
        buffer.commit(start + count + 2)
    }

    /// Whether one of the bytes of `word` (8, 4 or 2 of them) is a control character, `quote`
    /// or `\\`: a byte a JSON string must escape (`quote` is `"`), or one that ends a plain run
    /// when reading one (`quote` is the string's own). The writer and the parser both scan with
    /// it. (A byte below 0x20 leaves its high bit set in `(w - 0x20·0x01…) & ~w & 0x80…`, and a
    /// byte equal to `c` is a zero byte of `w ^ c·0x01…`; a borrow can only mark a byte after
    /// such a one.)
    @inline(__always)
    static func mayEndString<Word: FixedWidthInteger & UnsignedInteger>(_ word: Word, quote: UInt8 = 0x22) -> Bool {
        let ones = Word.max / 0xFF, highs = ones &* 0x80
        let control = (word &- 0x20 &* ones) & ~word & highs
        let quoted = word ^ (Word(quote) &* ones), backslash = word ^ (0x5C &* ones)
        let equal = ((quoted &- ones) & ~quoted | (backslash &- ones) & ~backslash) & highs
        return control | equal != 0
    }
}

/// A writer belongs to the one thread writing its document (its sink is any closure).
@available(*, unavailable)
extension JSONWriter: Sendable {}
