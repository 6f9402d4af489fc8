import Synchronization

/// The most bytes one answer may build in a JSON buffer (the service's `--max-response`),
/// enforced while the answer is written rather than once it is whole: a buffer that would grow
/// past it drops what it holds and is marked, so refusing a response bound to be too large
/// costs no more memory than the limit. The service installs one per request (``with(_:_:)``)
/// and refuses the answer when it ``isExceeded``; the CLI, which streams, installs none.
public final class OutputCeiling: Sendable {
    public let limit: Int
    private let state = Mutex<(exceeded: Bool, largest: Int)>((false, 0))

    /// The ceiling of the answer being built on this thread, if any.
    @TaskLocal public static var current: OutputCeiling?

    public init(limit: Int) {
        self.limit = max(limit, 0)
    }

    /// Runs `body` with `ceiling` as ``current``.
    public static func with<T>(_ ceiling: OutputCeiling, _ body: () throws -> T) rethrows -> T {
        try $current.withValue(ceiling, operation: body)
    }

    /// Whether some buffer would have grown past the limit.
    public var isExceeded: Bool { state.withLock { $0.exceeded } }

    /// The most bytes one buffer was asked to hold (what the refused answer would have
    /// needed, at the least, once past the limit).
    public var largest: Int { state.withLock { $0.largest } }

    /// Whether a buffer may hold `bytes`; false (and marked) past the limit.
    func allows(_ bytes: Int) -> Bool {
        state.withLock { state in
            state.largest = max(state.largest, bytes)
            if bytes > limit { state.exceeded = true }
            return !state.exceeded
        }
    }
}
