/// Writes a laid-out compact value into room reserved for it (``JSONWriter/laidOut(bound:_:)``):
/// literal fragments, escaped strings and numbers, each a copy into memory already there.
/// Internal: it holds a pointer into the writer's buffer that is valid only inside the
/// closure it is lent to, so no code outside this module can keep one.
package struct JSONCursor {
    private let start: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// How many bytes have been written.
    package private(set) var written = 0

    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress!
        capacity = buffer.count
    }

    /// The most bytes ``number(_:)`` writes.
    package static var numberBound: Int { DigitStream.bound }

    @inline(__always)
    private func room(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(count <= capacity - written, "a laid-out JSON value passed the room reserved for it")
        return start + written
    }

    /// Literal compact JSON (`,"ratio":`), written as it is.
    @inline(__always)
    package mutating func fragment(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            guard let source = bytes.baseAddress else { return }
            room(bytes.count).initialize(from: source, count: bytes.count)
            written += bytes.count
        }
    }

    /// A string, quoted and escaped.
    @inline(__always)
    package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            let at = room(JSONWriter.quotedBound(utf8.count))
            written += JSONWriter.writeQuoted(utf8, to: at)
        }
    }

    /// Strings separated by commas (an array's values).
    @inline(__always)
    package mutating func strings(_ items: [String]) {
        for (index, item) in items.enumerated() {
            if index > 0 { fragment(",") }
            string(item)
        }
    }

    /// A number, as ``JSONNumber`` writes it.
    @inline(__always)
    package mutating func number(_ d: Double) {
        var digits = DigitStream(at: room(JSONCursor.numberBound))
        JSONNumber.write(d, to: &digits)
        written += digits.count
    }
}

/// A cursor writes into one writer's buffer, on the thread writing it.
@available(*, unavailable)
extension JSONCursor: Sendable {}
