import Synchronization

/// What reading one input may cost, and whether to stop early.
///
/// Every reader spends from the budget of the read it is part of: one step for each reference
/// it follows (an alias, a `var()`, a `$ref`, an `$extends`, a nested block), and one step for
/// each byte of text or node it builds by expansion. The budget is proportional to the input
/// (``stepsPerInputByte`` steps for each byte read, at least ``minimumSteps``), so a reader's
/// work and memory grow with the input and never with what it expands to. A read that would go
/// past it stops with one `limit-exceeded` problem that names the construct and where it is;
/// a read whose request was cancelled (its deadline passed) stops as soon as a reader next
/// spends.
///
/// The budget is installed for a read with ``withBudget(_:_:)`` and found by readers through
/// ``current``, so the decoders' signatures do not carry it; a read with none installed gets
/// one of its own at its entry point (``PaletteDecoder/decode(bytes:file:defaultName:limits:reader:)``
/// and ``PaletteLoader``).
public final class ReadBudget: Sendable {
    /// Steps a read may spend for each byte of its input.
    public static let stepsPerInputByte = 64
    /// The steps every read may spend, however small its input.
    public static let minimumSteps = 1_000_000
    /// The deepest nesting any reader follows (blocks, chains of references, nested color
    /// functions) before it reports a problem instead of going on.
    public static let maximumDepth = 256
    /// The bytes of text and nodes a read may build by expansion, at most (256 MiB).
    public static let defaultMaximumBytes = 256 << 20
    /// The bytes a read may build for each byte of its input, under that cap: a token file
    /// builds a few times its size; a kilobyte that `$ref`s one group from many places builds
    /// without end.
    public static let bytesPerInputByte = 512
    /// The bytes every read may build, however small its input (8 MiB).
    public static let minimumBytes = 8 << 20
    /// The bytes one token of a theme holds once a read has built it, with what the audit
    /// resolves of it and a listing's entry: what a reader that copies every token into every
    /// theme (Figma's modes, Material's schemes) charges for each copy. Measured on a Figma file
    /// of 50 modes × 4,000 variables (200,000 theme tokens): 600 bytes a token at the peak of
    /// `POST /v1/audit`, 950 at that of `POST /v1/tokens` (release build). Charged at 64 bytes,
    /// the file read under any cap and two of them took the server past the pod's 384 MiB.
    public static let bytesPerThemeToken = 1_024

    /// The steps the read may spend: its input's share, grown by each file it reads.
    public var maximumSteps: Int { stepsLimit.load(ordering: .relaxed) }
    /// The bytes the read may build by expansion, likewise (never past the cap it was made with).
    public var maximumBytes: Int { bytesLimit.load(ordering: .relaxed) }
    private let stepsLimit: Atomic<Int>
    private let bytesLimit: Atomic<Int>
    /// The cap on ``maximumBytes``, and whether files read add to the limits (not for a
    /// budget of explicit figures).
    private let bytesCap: Int
    private let grows: Bool
    private let shouldStop: (@Sendable () -> Bool)?
    /// The run's deadline this budget stops at (``Deadline``), named in its problem instead of
    /// a request's.
    private let deadline: Deadline?
    private let steps = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)
    private let state = Mutex<PaletteProblem?>(nil)
    private let cancelled = Atomic<Bool>(false)
    /// Set with the first problem: the check every spend makes, without taking the lock.
    private let stopped = Atomic<Bool>(false)

    /// A budget for reading `inputBytes` bytes. `shouldStop` is asked as the read goes on (a
    /// request's cancellation); `maximumBytes` caps what expansion may build (under it, a read
    /// may build ``bytesPerInputByte`` for each byte, at least ``minimumBytes``).
    public convenience init(inputBytes: Int, maximumBytes: Int = ReadBudget.defaultMaximumBytes, shouldStop: (@Sendable () -> Bool)? = nil) {
        self.init(inputBytes: inputBytes, maximumBytes: maximumBytes, shouldStop: shouldStop, deadline: nil)
    }

    /// A budget for reading `inputBytes` bytes that stops when `deadline` passes.
    public convenience init(inputBytes: Int, maximumBytes: Int = ReadBudget.defaultMaximumBytes, deadline: Deadline) {
        self.init(inputBytes: inputBytes, maximumBytes: maximumBytes, shouldStop: { deadline.hasPassed }, deadline: deadline)
    }

    private init(inputBytes: Int, maximumBytes: Int, shouldStop: (@Sendable () -> Bool)?, deadline: Deadline?) {
        let (scaled, overflow) = max(0, inputBytes).multipliedReportingOverflow(by: Self.stepsPerInputByte)
        self.stepsLimit = Atomic(overflow ? Int.max : max(Self.minimumSteps, scaled))
        let (built, builtOverflow) = max(0, inputBytes).multipliedReportingOverflow(by: Self.bytesPerInputByte)
        self.bytesLimit = Atomic(min(maximumBytes, builtOverflow ? Int.max : max(Self.minimumBytes, built)))
        self.bytesCap = maximumBytes
        self.grows = true
        self.shouldStop = shouldStop
        self.deadline = deadline
    }

    /// A budget with explicit figures (tests).
    public init(maximumSteps: Int, maximumBytes: Int = ReadBudget.defaultMaximumBytes, shouldStop: (@Sendable () -> Bool)? = nil) {
        self.stepsLimit = Atomic(maximumSteps)
        self.bytesLimit = Atomic(maximumBytes)
        self.bytesCap = maximumBytes
        self.grows = false
        self.shouldStop = shouldStop
        self.deadline = nil
    }

    /// Adds a file the read went on to read (a resolver's sources, a set's files, an
    /// `@import`) to its input: the read may spend and build in proportion to all it read, not
    /// to the file it started from.
    public func grant(inputBytes: Int) {
        guard grows, inputBytes > 0 else { return }
        Self.raise(stepsLimit, by: inputBytes, times: Self.stepsPerInputByte, cap: Int.max)
        Self.raise(bytesLimit, by: inputBytes, times: Self.bytesPerInputByte, cap: bytesCap)
    }

    /// Adds `count × rate` to `limit`, saturating at `cap`.
    private static func raise(_ limit: borrowing Atomic<Int>, by count: Int, times rate: Int, cap: Int) {
        let (added, overflow) = count.multipliedReportingOverflow(by: rate)
        while true {
            let before = limit.load(ordering: .relaxed)
            let (sum, sumOverflow) = before.addingReportingOverflow(added)
            let after = overflow || sumOverflow ? cap : min(cap, sum)
            if after <= before || limit.compareExchange(expected: before, desired: after, ordering: .relaxed).exchanged { return }
        }
    }

    /// The budget of the read under way on this thread, if any.
    @TaskLocal public static var current: ReadBudget?

    /// Runs `body` with `budget` as ``current`` (a request's handler throws its own errors).
    public static func withBudget<T, E: Error>(_ budget: ReadBudget, _ body: () throws(E) -> T) throws(E) -> T {
        let result = $current.withValue(budget) { Result { () throws(E) -> T in try body() } }
        return try result.get()
    }

    /// Runs `body` under the current budget, or under a new one for `inputBytes` when there is
    /// none (stopping at the current ``deadline``, if any), and returns the problem that stopped
    /// it (if any) beside its result.
    public static func ensuring<T>(inputBytes: Int, _ body: () throws -> T) rethrows -> (T, PaletteProblem?) {
        if current != nil { return (try body(), nil) }  // the outer read reports its own problem
        let budget = deadline.map { ReadBudget(inputBytes: inputBytes, deadline: $0) } ?? ReadBudget(inputBytes: inputBytes)
        let result = try withBudget(budget, body)
        return (result, budget.problem)
    }

    /// The problem that stopped the read: the budget ran out, or the request was cancelled.
    public var problem: PaletteProblem? { state.withLock { $0 } }

    /// Whether the read was stopped by its request's cancellation.
    public var wasCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Whether the read has been stopped (out of budget or cancelled); readers that see yes
    /// return what they have and read no further.
    public var isExhausted: Bool { stopped.load(ordering: .acquiring) }

    /// Spends `cost` steps and `built` bytes on `construct` (said in the problem, as "a var()
    /// chain" or "$extends"), at `file` and `location`. Returns false when the read must stop.
    public func spend(_ cost: Int = 1, bytes built: Int = 0, on construct: @autoclosure () -> String, file: String?, location: SourceLocation?) -> Bool {
        let before = steps.wrappingAdd(max(0, cost), ordering: .relaxed).oldValue
        let after = before &+ max(0, cost)
        var builtAfter = 0
        if built > 0 { builtAfter = bytes.wrappingAdd(built, ordering: .relaxed).newValue }
        // The cancellation is asked every 4,096 steps: often enough to stop within
        // milliseconds, rarely enough to cost nothing measurable.
        if let shouldStop, before >> 12 != after >> 12 || cost >= 4096, shouldStop() {
            cancelled.store(true, ordering: .relaxed)
            let stopped = deadline.map { "\($0.name) passed" } ?? "the request was stopped at its deadline"
            let problem = PaletteProblem(.limitExceeded, "\(stopped) while reading \(construct())", file: file, location: location)
            record(problem)
            deadline?.noteStop(problem)
            return false
        }
        if after > maximumSteps || after < before {
            record(PaletteProblem(.limitExceeded, "reading \(construct()) would take more than \(maximumSteps) steps, the budget for an input of this size (\(Self.stepsPerInputByte) a byte, at least \(Self.minimumSteps)); it expands far beyond its size, so it is not read", file: file, location: location))
            return false
        }
        if builtAfter > maximumBytes {
            record(PaletteProblem(.limitExceeded, "reading \(construct()) would build more than \(maximumBytes >> 20) MiB, the budget for an input of this size; it expands far beyond its size, so it is not read", file: file, location: location))
            return false
        }
        return !isExhausted
    }

    /// What a charge counts against (``charge(_:for:against:file:location:)``).
    public enum Allowance: Sendable {
        /// The bytes this read may build for its input (``maximumBytes``): what a reader records
        /// as it reads (the ledger), which grows with the input as expansion may.
        case read
        /// The bytes the whole request may build (the cap the budget was made with, the
        /// service's `--max-request-memory`): what is built from what was read (the audit's
        /// checks and results, a token listing), which grows with the checks asked for.
        case request
    }

    /// The bytes the whole request may build (``Allowance/request``).
    public var maximumRequestBytes: Int { bytesCap }

    /// The bytes spent on expansion and charged so far.
    public var builtBytes: Int { bytes.load(ordering: .relaxed) }

    /// Charges `built` bytes that the request builds besides what expansion builds (a ledger
    /// entry as it is recorded, an audit's results as they are measured, a listing's entries
    /// before they are made), named `what` ("the ledger of what was not read", "the audit's
    /// results"), to the same count as expansion. False when the count passes `allowance`'s
    /// limit: the budget then holds one `limit-exceeded` problem that names what grew, and the
    /// caller stops building.
    public func charge(_ built: Int, for what: @autoclosure () -> String, against allowance: Allowance = .request,
                       file: String? = nil, location: SourceLocation? = nil) -> Bool {
        guard built > 0 else { return !isExhausted }
        let after = bytes.wrappingAdd(built, ordering: .relaxed).newValue
        let limit = allowance == .read ? maximumBytes : bytesCap
        if after > limit || after < built {
            let budget = allowance == .read
                ? "the memory a read of this size may build (\(Self.bytesPerInputByte) bytes a byte, at least \(Self.minimumBytes >> 20) MiB, at most \(ByteCount.megabytes(bytesCap)))"
                : "the memory one request may build (\(ByteCount.megabytes(bytesCap)), --max-request-memory)"
            record(PaletteProblem(.limitExceeded, "\(what()) would take more than \(ByteCount.megabytes(limit)), \(budget); it is refused rather than built", file: file, location: location))
            return false
        }
        return !isExhausted
    }

    /// Charges the current budget (see ``charge(_:for:against:file:location:)``); true when no
    /// budget is installed.
    @inline(__always)
    public static func charge(_ built: Int, for what: @autoclosure () -> String, against allowance: Allowance = .request,
                              file: String? = nil, location: SourceLocation? = nil) -> Bool {
        guard let budget = current else { return true }
        return budget.charge(built, for: what(), against: allowance, file: file, location: location)
    }

    /// Spends from the current budget (see ``spend(_:bytes:on:file:location:)``); true when no
    /// budget is installed.
    @inline(__always)
    public static func spend(_ cost: Int = 1, bytes built: Int = 0, on construct: @autoclosure () -> String, file: String?, location: SourceLocation?) -> Bool {
        guard let budget = current else { return true }
        return budget.spend(cost, bytes: built, on: construct(), file: file, location: location)
    }

    /// The deadline of the run under way on this thread (the CLI's `--deadline`): every read
    /// that makes its own budget (``ensuring(inputBytes:_:)``) stops when it passes, as a
    /// request's read stops at the request's deadline.
    @TaskLocal public static var deadline: Deadline?

    /// Runs `body` with `deadline` as ``deadline``.
    public static func withDeadline<T>(_ deadline: Deadline, _ body: () throws -> T) rethrows -> T {
        try $deadline.withValue(deadline, operation: body)
    }

    /// A time by which a run's reads must stop (the CLI's `--deadline`), and the first read it
    /// stopped, for the run's error.
    public final class Deadline: Sendable {
        /// How problems name it: "the --deadline of 30 s".
        public let name: String
        public let seconds: Double
        private let end: ContinuousClock.Instant
        private let first = Mutex<PaletteProblem?>(nil)

        /// A deadline `seconds` from now.
        public init(seconds: Double, name: String) {
            self.seconds = seconds
            self.name = name
            let nanoseconds = seconds >= 1e9 ? Int64.max : Int64(max(0, seconds) * 1e9)
            self.end = ContinuousClock.now.advanced(by: .nanoseconds(nanoseconds))
        }

        public var hasPassed: Bool { ContinuousClock.now >= end }

        /// The first read it stopped: the file, the place and what was being read.
        public var firstStop: PaletteProblem? { first.withLock { $0 } }

        func noteStop(_ problem: PaletteProblem) {
            first.withLock { if $0 == nil { $0 = problem } }
        }
    }

    /// Whether the current read has been stopped.
    public static var isExhausted: Bool { current?.isExhausted ?? false }

    /// Records `problem` as the one that stopped the read (the first wins), for a reader that
    /// found a depth limit itself.
    public func stop(_ problem: PaletteProblem) { record(problem) }

    private func record(_ problem: PaletteProblem) {
        state.withLock { if $0 == nil { $0 = problem } }
        stopped.store(true, ordering: .releasing)
    }
}
