/// The bytes a ``JSONWriter`` writes: a growable buffer of its own, so that each piece is one
/// comparison of the room left and a copy. (Appending to an `Array` checks the buffer's
/// uniqueness, builds a span and stores the count in the heap object on every append.)
///
/// Not copyable: two copies would write over each other's bytes. Its memory goes with it.
struct JSONBuffer: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Room for `needed` more bytes, where the next byte goes: write at most `needed` there,
    /// then ``commit(_:)`` how many were written.
    @inline(__always)
    mutating func room(_ needed: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(capacity - count < needed) { grow(needed) }
        return start + count
    }

    /// Counts `written` bytes put at ``room(_:)`` as written.
    @inline(__always)
    mutating func commit(_ written: Int) { count += written }

    /// Makes room for at least `needed` bytes beyond those written: the capacity doubles (or
    /// grows to what is needed, if more), so appending n bytes costs O(n) copies in all.
    private mutating func grow(_ needed: Int) {
        precondition(needed >= 0 && needed <= Int.max / 2 - count, "a JSON document too large to hold")
        // Past what the answer may build (``OutputCeiling``): what was written is dropped, as
        // the answer will be refused, so the buffer holds no more than the limit.
        if let ceiling = OutputCeiling.current, !ceiling.allows(count + needed) {
            count = 0
            if capacity >= needed { return }
        }
        let grown = max(capacity * 2, count + needed)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.initialize(from: start, count: count)
        start.deallocate()
        start = bigger
        capacity = grown
    }

    /// Room for `extra` more bytes from now on, so a document of about known size is not
    /// copied each time the buffer doubles.
    mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        room(1).pointee = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        JSONBuffer.copySmall(bytes, to: room(bytes.count))
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// The bytes written, as an array: a copy (an `Array` cannot take over this memory), so a
    /// document's bytes exist twice for a moment as its writer hands them over.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// Appends the bytes written to `out`.
    func append(to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }

    /// Forgets the bytes written, keeping the memory.
    mutating func removeAll() { count = 0 }

    /// Copies `piece` to `out`; a short one (a key's name, a literal, a number's digits)
    /// without a call to `memcpy`, which costs more than the copy for pieces this short: its
    /// first and last 2, 4 or 8 bytes (which may overlap) by its length, its first and last 16
    /// as four 8-byte words from 17 to 32, one byte alone. Pieces over 32 bytes go to `memcpy`.
    @inline(__always)
    static func copySmall(_ piece: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) {
        guard let source = piece.baseAddress else { return }
        let count = piece.count
        @inline(__always) func ends<Word: FixedWidthInteger>(_: Word.Type) {
            let size = MemoryLayout<Word>.size
            let first = UnsafeRawPointer(source).loadUnaligned(as: Word.self)
            let last = UnsafeRawPointer(source + count - size).loadUnaligned(as: Word.self)
            UnsafeMutableRawPointer(out).storeBytes(of: first, as: Word.self)
            UnsafeMutableRawPointer(out + count - size).storeBytes(of: last, as: Word.self)
        }
        switch count {
        case 0: break
        case 1: out[0] = source[0]
        case 2...3: ends(UInt16.self)
        case 4...7: ends(UInt32.self)
        case 8...16: ends(UInt64.self)
        case 17...32:
            // The first 16 and the last 16, as two words each.
            @inline(__always) func word(at offset: Int) {
                let word = UnsafeRawPointer(source + offset).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(out + offset).storeBytes(of: word, as: UInt64.self)
            }
            word(at: 0); word(at: 8); word(at: count - 16); word(at: count - 8)
        default: out.initialize(from: source, count: count)
        }
    }
}

/// A number's digits, straight into room reserved for them (``JSONBuffer/room(_:)``, a
/// ``JSONCursor``'s): the standard library hands a `Double`'s digits to `_writeASCII`, and
/// ``JSONNumber/writeInteger(_:to:)`` an integer's.
struct DigitStream: TextOutputStream {
    /// The most bytes a number takes (`-1.2345678901234567e-308` is 24, `Int.min` 20).
    static var bound: Int { 32 }

    let at: UnsafeMutablePointer<UInt8>
    var count = 0

    init(at: UnsafeMutablePointer<UInt8>) { self.at = at }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _writeASCII($0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        precondition(buffer.count <= DigitStream.bound - count, "a number passed the room reserved for it")
        JSONBuffer.copySmall(UnsafeBufferPointer(start: source, count: buffer.count), to: at + count)
        count += buffer.count
    }
}
