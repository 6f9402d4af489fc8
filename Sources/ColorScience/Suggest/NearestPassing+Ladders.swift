import Synchronization

extension NearestPassing {
    /// Ladders by color and direction, kept between searches by whoever owns this value (an
    /// audit's suggestion cache, say); ColorScience itself keeps nothing between calls. Bounded:
    /// when full it starts over. Each ladder keeps what its searches made: at most 257 evenly
    /// spaced rungs and 512 stretches' bounds (about 30 KB), and the halvings looked at, a few
    /// dozen near the thresholds searched for (about a thousand, 100 KB, if every one were).
    public final class Ladders: Sendable {
        struct Key: Hashable {
            let color: SRGB
            let lighter: Bool
        }

        /// How many ladders are kept before the table starts over.
        public let capacity: Int
        private let ladders = Mutex<[Key: Ladder]>([:])

        public init(capacity: Int = 1024) {
            self.capacity = max(1, capacity)
        }

        func ladder(for color: SRGB, lighter: Bool) -> Ladder {
            let key = Key(color: color, lighter: lighter)
            if let known = ladders.withLock({ $0[key] }) { return known }
            let made = Ladder(OKLCH(color), lighter: lighter)
            return ladders.withLock { table in
                if let raced = table[key] { return raced }
                if table.count >= capacity { table.removeAll(keepingCapacity: true) }
                table[key] = made
                return made
            }
        }
    }
}
