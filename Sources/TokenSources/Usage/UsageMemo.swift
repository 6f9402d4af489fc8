import Synchronization

/// What the usage readers of one run work out once and share: built the first time a reader
/// asks for it under a key, then handed to every later reader of the same run (the
/// ``UsageContext`` that holds it lives as long as the run, so nothing outlives the files it was
/// made from). Each value is built at most once per key; a reader that builds a value while
/// holding another one's lock is refused by design (values are built outside the lock).
public final class UsageMemo: Sendable {
    private let values = Mutex<[String: any Sendable]>([:])

    public init() {}

    /// The value stored under `key`, made by `make` the first time. Two readers asking at once
    /// may both make it; the first stored is kept, so every reader sees the same value.
    public func value<T: Sendable>(_ key: String, make: () -> T) -> T {
        if let known = values.withLock({ $0[key] }) as? T { return known }
        let made = make()
        return values.withLock { stored in
            if let known = stored[key] as? T { return known }
            stored[key] = made
            return made
        }
    }
}
