import TokenSources

/// The fast reading of the common request shape, without a JSON tree.
extension PairRequest {
    /// Reads one JSON Lines record of the common shape without building a JSON tree: an object
    /// whose keys are known and distinct and whose values are strings of printable ASCII without
    /// escapes (`{"fg":"#777","bg":"#fff"}`). Any other line gives nil, and the caller reads it
    /// with ``init(json:at:)``, which accepts the rest of JSON and words every error; both give
    /// the same request for a line this one accepts.
    public init?(simpleLine line: UnsafeBufferPointer<UInt8>) {
        var reader = SimpleReader(bytes: line)
        guard let pair = reader.pair() else { return nil }
        reader.skipSpace()
        guard reader.atEnd else { return nil }
        self = pair
    }

    /// Reads `{"pairs": [ … ]}` whose every pair has the shape ``init(simpleLine:)`` reads, without
    /// a JSON tree (a 10,000-pair request is mostly such a list); nil for any other document,
    /// which the caller reads with the full JSON reader.
    public static func simpleList(_ body: UnsafeBufferPointer<UInt8>) -> [PairRequest]? {
        var reader = SimpleReader(bytes: body)
        guard reader.take(0x7B), reader.take(0x22), reader.string() == "pairs", reader.take(0x3A), reader.take(0x5B) else { return nil }
        var pairs: [PairRequest] = []
        pairs.reserveCapacity(body.count / 32)
        if !reader.take(0x5D) {
            while true {
                guard let pair = reader.pair() else { return nil }
                pairs.append(pair)
                if reader.take(0x5D) { break }
                guard reader.take(0x2C) else { return nil }
            }
        }
        guard reader.take(0x7D) else { return nil }
        reader.skipSpace()
        return reader.atEnd ? pairs : nil
    }

    /// The reader behind ``init(simpleLine:)`` and ``simpleList(_:)``.
    fileprivate struct SimpleReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool { i == bytes.count }

        mutating func skipSpace() {
            while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D || bytes[i] == 0x0A) { i += 1 }
        }

        /// Skips white space, then takes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.count && bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// A string of printable ASCII without escapes, after its opening quote.
        mutating func string() -> String? {
            let start = i
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 {
                    i += 1
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]), as: UTF8.self)
                }
                if b < 0x20 || b >= 0x7F || b == 0x5C { return nil }
                i += 1
            }
            return nil
        }

        /// One object of known, distinct keys with simple string values.
        mutating func pair() -> PairRequest? {
            guard take(0x7B) else { return nil }
            var pair = PairRequest(foreground: nil, background: nil)
            // The fields met, by property (`fg` and `foreground` are one): a repeat, or a field
            // given under both its names, goes to the full reader, which words the error.
            var seen: UInt16 = 0
            guard !take(0x7D) else { return nil }  // {} is an error the full reader words
            while true {
                guard take(0x22), let key = string(), let index = PairRequest.fieldIndex(key) else { return nil }
                let bit = PairRequest.propertyBit(index)
                guard seen & bit == 0 else { return nil }
                seen |= bit
                guard take(0x3A), take(0x22), let value = string() else { return nil }
                pair.set(field: index, to: value)
                if take(0x7D) { return pair }
                guard take(0x2C) else { return nil }
            }
        }
    }

}
