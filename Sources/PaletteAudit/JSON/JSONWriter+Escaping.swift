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
        text.withUTF8 { utf8 in
            if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                out.append(contentsOf: utf8)
            } else {
                appendEscaped(utf8, to: &out)
            }
        }
    }

    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        for byte in utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case ..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
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
                // Eight bytes at a time while none of them is to be escaped; the loop below
                // finds the exact byte.
                if let source = utf8.baseAddress {
                    while copied + 8 <= count {
                        let word = UnsafeRawPointer(source + copied).loadUnaligned(as: UInt64.self)
                        if Self.mayNeedEscape(word) { break }
                        UnsafeMutableRawPointer(out + 1 + copied).storeBytes(of: word, as: UInt64.self)
                        copied += 8
                    }
                }
                while copied < count {
                    let byte = utf8[copied]
                    if byte < 0x20 || byte == 0x22 || byte == 0x5C { break }
                    out[copied + 1] = byte
                    copied += 1
                }
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
