/// A table from 64-bit keys (here, the bits of a lightness) to values, open-addressed and
/// hashed by one multiplication (Fibonacci hashing). A ladder looks up its halvings over a
/// million times in a cold batch of suggestions, so a lookup is one multiplication and a probe
/// rather than `Dictionary`'s SipHash of every key.
///
/// Its size doubles when half full, so work and memory grow with the keys stored, which a
/// ladder bounds (its halvings end at ``NearestPassing/Ladder/finest``).
struct BitsTable<Value> {
    private var keys: [UInt64] = []
    private var values: [Value?] = []
    private var count = 0
    /// log2 of the capacity (0 while empty).
    private var shift = 0

    init() {}

    /// The slot holding `key`, or the empty slot where it would go.
    private func slot(_ key: UInt64) -> Int {
        let mask = keys.count - 1
        var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - shift))
        while values[index] != nil && keys[index] != key { index = (index + 1) & mask }
        return index
    }

    subscript(key: UInt64) -> Value? {
        keys.isEmpty ? nil : values[slot(key)]
    }

    /// Stores `value` for `key` (there is no removing: a ladder never forgets a halving).
    mutating func set(_ key: UInt64, _ value: Value) {
        if (count + 1) * 2 > keys.count { grow() }
        let index = slot(key)
        if values[index] == nil { count += 1 }
        keys[index] = key
        values[index] = value
    }

    /// Changes the value of `key`, starting from `initial` when it has none.
    mutating func update(_ key: UInt64, default initial: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        var value = self[key] ?? initial()
        change(&value)
        set(key, value)
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        shift = max(4, shift + 1)
        keys = Array(repeating: 0, count: 1 << shift)
        values = Array(repeating: nil, count: 1 << shift)
        for (key, value) in zip(oldKeys, oldValues) where value != nil {
            let index = slot(key)
            keys[index] = key
            values[index] = value
        }
    }
}
