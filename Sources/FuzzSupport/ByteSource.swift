/// A fuzz input read as a sequence of choices: how a structure-aware target turns libFuzzer's
/// bytes into a document (a stylesheet, a token file) that is well formed most of the time, so
/// that mutations explore the readers' structures (rules, at-rules, aliases, sets) rather than
/// their tokenizers. Every byte is a choice or a piece of text; once the bytes run out every
/// choice is the first (zero), so the document ends; the same bytes always make the same
/// document.
public struct ByteSource {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = Array(bytes)
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been used.
    public var isEmpty: Bool { index >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A number in `range`, from one byte (two when the range is wider than a byte).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = range.upperBound - range.lowerBound + 1
        guard width > 1 else { return range.lowerBound }
        var value = Int(byte())
        if width > 256 { value = value << 8 | Int(byte()) }
        return range.lowerBound + value % width
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// One of `options` (the first once the bytes run out).
    public mutating func pick<T>(_ options: [T]) -> T {
        options[int(0...options.count - 1)]
    }

    /// A count that is mostly small (0…`small`) and one time in 40 large (up to `large`): how a
    /// repeat, a chain or a name's length grows into a bomb without the input growing.
    public mutating func count(small: Int, large: Int) -> Int {
        byte() < 250 ? int(0...small) : int(0...large)
    }

    /// Up to `limit` bytes of the input as text, as written (a length byte, then the bytes):
    /// where the dictionary's words (`var(`, `@media`, `{a.b}`) land in a document.
    public mutating func raw(limit: Int = 48) -> String {
        let length = min(int(0...limit), bytes.count - index)
        guard length > 0 else { return "" }
        defer { index += length }
        return String(decoding: bytes[index..<index + length], as: UTF8.self)
    }
}
