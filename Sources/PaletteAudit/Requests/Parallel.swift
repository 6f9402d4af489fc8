import Dispatch
import Synchronization
import TokenSources

/// Independent parts of one job on several threads, with their results in the order of the
/// parts: `check --batch` and `POST /v1/contrast` split long lists of pairs this way, so the
/// answer is the same, in the same order, as one thread would give.
public enum Parallel {
    /// `body(k)` for k in 0..<count, on up to `count` threads at once.
    public static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<max(0, count)).map { body($0) } }
        let slots = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        slots.initialize(repeating: nil)
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        nonisolated(unsafe) let shared = slots  // each iteration writes only its own slot
        DispatchQueue.concurrentPerform(iterations: count) { shared[$0] = body($0) }
        return slots.map { $0! }
    }

    /// As ``map(_:_:)``, for work a deadline may stop: a part that has not started when
    /// `isCancelled()` says yes is not run, and the answer is nil (the parts already running
    /// finish; `body` may ask `isCancelled` itself to stop sooner).
    public static func map<T: Sendable>(_ count: Int, cancelled isCancelled: @Sendable () -> Bool, _ body: @Sendable (Int) -> T) -> [T]? {
        let parts: [T?] = map(count) { k in isCancelled() ? nil : body(k) }
        guard parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.map { $0! }
    }

    /// `body(i)` for i in 0..<count, on `threads` threads that each take the next index as they
    /// finish one (work of uneven cost, as suggestions are, keeps every thread busy), with the
    /// results in index order; nil when `isCancelled()` said yes before an index was taken.
    public static func mapTakingTurns<T: Sendable>(_ count: Int, threads: Int, cancelled isCancelled: (@Sendable () -> Bool)? = nil,
                                                   _ body: @Sendable (Int) -> T) -> [T]? {
        let output = UnsafeMutableBufferPointer<T?>.allocate(capacity: max(1, count))
        output.initialize(repeating: nil)
        defer {
            output.deinitialize()
            output.deallocate()
        }
        let next = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        nonisolated(unsafe) let slots = output  // each index is written by the one thread that took it
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                if index >= count || stopped.load(ordering: .relaxed) { return }
                if let isCancelled, isCancelled() {
                    stopped.store(true, ordering: .relaxed)
                    return
                }
                slots[index] = body(index)
            }
        }
        if stopped.load(ordering: .relaxed) { return nil }
        return (0..<count).map { output[$0]! }
    }

    /// How many parts a list of `items` is worth splitting into: one per core, each of at
    /// least `minimum` items (below that, handing work to threads costs more than it saves).
    public static func parts(items: Int, minimum: Int, threads: Int) -> Int {
        max(1, min(threads, items / max(1, minimum)))
    }
}
