internal import CMicroHTTPD
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a request is handled.
public enum Lane: Sendable {
    /// On the connection's I/O thread, at once: for answers that cost microseconds (health,
    /// metrics, static files, one contrast pair).
    case inline
    /// On the bounded worker pool, separate from the I/O threads: for handlers whose cost grows
    /// with the request (audits, reports, batches). A full queue answers 503 at once.
    case pool
}

/// A request's cancellation: set when its deadline passes or the server shuts down. Work that
/// can stop part-way asks ``shouldStop()``; a handler that was asked and said yes has
/// abandoned its work, and the server answers 503 instead of the handler's partial response.
/// One that never asked (or finished first) is answered as it returned.
public final class Cancellation: Sendable {
    private let flag = Atomic<Int>(0)  // 0 running, 1 past its deadline, 2 server stopping
    private let observed = Atomic<Bool>(false)

    public init() {}

    /// Whether the request was cancelled, without recording that its work stopped.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) != 0 }

    /// Asked by work that stops when the answer is yes: records that it stopped.
    public func shouldStop() -> Bool {
        guard isCancelled else { return false }
        observed.store(true, ordering: .relaxed)
        return true
    }

    /// Whether work observed the cancellation and stopped (its response is incomplete).
    var workStopped: Bool { observed.load(ordering: .relaxed) }

    enum Reason: Int { case deadline = 1, shutdown = 2 }

    func cancel(_ reason: Reason) {
        _ = flag.compareExchange(expected: 0, desired: reason.rawValue, ordering: .relaxed)
    }

    var reason: Reason? { Reason(rawValue: flag.load(ordering: .relaxed)) }
}

/// A request waiting for, or running on, a worker. Its connection is suspended in
/// libmicrohttpd until the worker stores the response and resumes it.
final class Job: @unchecked Sendable {
    // Set before the job is queued; `response` is written by the one worker (or the canceller)
    // that takes the job out of the pool, before it resumes the connection, and read by the
    // I/O thread after libmicrohttpd calls the handler again (the resume is the hand-off).
    let request: Request
    let state: RequestState
    let connection: OpaquePointer
    let socket: Int32
    let cancellation: Cancellation
    /// The route's name, for a response the server gives in the handler's place.
    let route: String?

    init(request: Request, state: RequestState, connection: OpaquePointer, socket: Int32, cancellation: Cancellation, route: String?) {
        self.route = route
        self.request = request
        self.state = state
        self.connection = connection
        self.socket = socket
        self.cancellation = cancellation
    }
}

/// A fixed number of worker threads taking jobs from a bounded FIFO queue.
///
/// Workers run at a lower scheduling priority than libmicrohttpd's I/O threads, so while every
/// worker computes, health checks, metrics and static files are still answered at once.
final class WorkerPool: Sendable {
    struct State {
        var queue: [Job?] = []
        var head = 0
        var queued = 0
        /// Jobs taken by a worker and not yet answered, by socket.
        var running: [Int32: Job] = [:]
        var stopping = false
        var rejected = 0
        var cancelled = 0
    }

    let workers: Int
    let queueLimit: Int
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    /// Starts the workers. `run` computes a job's response, calls ``finished(_:)`` and then
    /// resumes the connection (in that order: a client's next request must find the worker's
    /// place free, or a full pool would refuse it).
    func start(run: @escaping @Sendable (Job) -> Void) {
        for _ in 0..<workers {
            DetachedThread { [self] in
                cmhd_lower_thread_priority(5)
                while let job = next() { run(job) }
            }.start()
        }
    }

    /// Queues a job, or returns false at once when every worker is busy and `queueLimit` jobs
    /// wait already (or the pool stopped). `accepted` runs before any worker can see the job
    /// (the connection is suspended there, so the worker's resume always comes after it).
    func submit(_ job: Job, accepted: () -> Void) -> Bool {
        let taken = state.withLock { s -> Bool in
            guard !s.stopping, s.queued + s.running.count < workers + queueLimit else {
                s.rejected += 1
                return false
            }
            accepted()
            s.queue.append(job)
            s.queued += 1
            return true
        }
        if taken { available.signal() }
        return taken
    }

    private func next() -> Job? {
        while true {
            available.wait()
            let taken = state.withLock { s -> (job: Job?, stop: Bool) in
                while s.head < s.queue.count {
                    let job = s.queue[s.head]
                    s.queue[s.head] = nil
                    s.head += 1
                    if let job {
                        s.queued -= 1
                        s.running[job.socket] = job
                        compact(&s)
                        return (job, false)
                    }
                }
                compact(&s)
                return (nil, s.stopping && s.queued == 0)
            }
            if let job = taken.job { return job }
            if taken.stop { return nil }
        }
    }

    private func compact(_ s: inout State) {
        if s.head > 64 && s.head * 2 > s.queue.count {
            s.queue.removeFirst(s.head)
            s.head = 0
        }
    }

    func finished(_ job: Job) {
        state.withLock { s in
            if s.running[job.socket] === job { s.running[job.socket] = nil }
        }
    }

    /// Cancels the job of a socket whose request passed its deadline. A queued one is taken out
    /// and returned, for the caller to answer; a running one is flagged. Returns nil when the
    /// socket has no job.
    func expire(socket: Int32) -> (found: Bool, dequeued: Job?) {
        state.withLock { s in
            if let job = s.running[socket] {
                if !job.cancellation.isCancelled { s.cancelled += 1 }
                job.cancellation.cancel(.deadline)
                return (true, nil)
            }
            for index in s.head..<s.queue.count {
                guard let job = s.queue[index], job.socket == socket else { continue }
                s.queue[index] = nil
                s.queued -= 1
                job.cancellation.cancel(.deadline)
                s.cancelled += 1
                return (true, job)
            }
            return (false, nil)
        }
    }

    /// Cancels every job: the queued ones are returned for the caller to answer, the running
    /// ones are flagged. With `stop`, the workers exit once the queue is empty and nothing more
    /// is accepted.
    func cancelAll(stop: Bool) -> [Job] {
        let dequeued = state.withLock { s -> [Job] in
            var out: [Job] = []
            for index in s.head..<s.queue.count {
                if let job = s.queue[index] { out.append(job) }
                s.queue[index] = nil
            }
            s.queued = 0
            for job in out + Array(s.running.values) where !job.cancellation.isCancelled {
                job.cancellation.cancel(.shutdown)
                s.cancelled += 1
            }
            if stop { s.stopping = true }
            return out
        }
        if stop { for _ in 0..<workers { available.signal() } }
        return dequeued
    }

    /// Whether any job is queued or running.
    var isBusy: Bool { state.withLock { $0.queued > 0 || !$0.running.isEmpty } }

    struct Statistics: Sendable {
        var queued: Int
        var running: Int
        var rejected: Int
        var cancelled: Int
    }

    var statistics: Statistics {
        state.withLock { Statistics(queued: $0.queued, running: $0.running.count, rejected: $0.rejected, cancelled: $0.cancelled) }
    }
}

/// A plain detached thread (no Foundation in this module).
final class DetachedThread: @unchecked Sendable {
    // Set once before the thread starts, read only by it.
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    func start() {
        #if canImport(Darwin)
        var thread: pthread_t?  // an optional pointer on Apple's platforms
        #else
        var thread = pthread_t()
        #endif
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let me = Unmanaged<DetachedThread>.fromOpaque(raw).takeRetainedValue()
            me.body()
            return nil
        }, context)
        if created == 0 {
            #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
            #else
            pthread_detach(thread)
            #endif
        } else {
            Unmanaged<DetachedThread>.fromOpaque(context).release()
        }
    }
}
