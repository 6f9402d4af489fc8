internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// How the server listens and what it tolerates.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port; ``Server/port`` tells which.
    public var port: UInt16 = 8080
    /// I/O threads (each runs its own poll loop): they read requests, answer the inline lane
    /// and send responses.
    public var threads = 2
    /// Threads that run the handler for the pool lane (``lane``).
    public var workers = 2
    /// Pool-lane requests that may wait for a worker; past that, 503 with `Retry-After` at once.
    public var queueLimit = 64
    /// Which requests run on the worker pool, with the route's name (for a request refused
    /// because the pool is full); by default none (every handler runs inline).
    public var lane: @Sendable (Request) -> (lane: Lane, route: String?) = { _ in (.inline, nil) }
    /// The kernel's send buffer per connection (0: the system's default). With it, a client
    /// that pipelines requests and reads no response holds one response and this many bytes.
    public var sendBufferBytes = 64 << 10
    /// After answering a request whose body was not read (413, a refused header), keep
    /// reading and discarding for at most this long and this many bytes before closing, so
    /// the client reads the answer instead of a reset.
    public var lingerSeconds = 5.0
    public var lingerBytes = 64 << 20
    /// Largest request body accepted; larger ones get 413.
    public var maximumBodyBytes = 1 << 20
    /// Open connections at most (counting those whose first request is still arriving). Past
    /// it, the oldest connections without a request in progress (open over a second) give way to
    /// a new one; when none can, the new one is answered 503 at once (by the handler within a
    /// margin of a quarter more, at least 64; past the margin, before its request is read), so
    /// clients over the limit learn it promptly instead of waiting in the kernel's backlog.
    public var connectionLimit = 1024
    /// Open connections per client address at most (0: no limit). Past it, connections are
    /// still accepted and answered 503 at once (up to a quarter more, at least 8, once their
    /// request is read; past that margin, before reading anything).
    public var perAddressConnectionLimit = 0
    /// An idle connection is closed after this many seconds.
    public var idleTimeoutSeconds = 15
    /// A request whose headers and body take longer than this in total is answered 408 and
    /// closed, however steadily it trickles (libmicrohttpd's own timeout measures idleness only).
    public var requestDeadlineSeconds = 30.0
    /// A connection whose request line and headers take longer than this to arrive is closed
    /// unanswered (a fresh connection that sends nothing included), bounded apart from the
    /// request deadline so that clients trickling headers give up their slots sooner.
    public var headerTimeoutSeconds = 10.0
    /// Memory libmicrohttpd may use per connection for headers. libmicrohttpd clears this pool
    /// for every request, so its size is paid per request: 64 KiB made that clearing ~40 % of
    /// the instructions of a `/healthz` (callgrind). 32 KiB is libmicrohttpd's own default.
    public var connectionMemoryBytes = 32 << 10
    /// PEM-encoded certificate and key: serve HTTPS.
    public var tlsCertificatePEM: String?
    public var tlsKeyPEM: String?
    /// Which TLS versions, key exchanges and ciphers are offered, as a GnuTLS priority string.
    /// The default allows TLS 1.2 and 1.3 with forward-secret key exchange (ECDHE, DHE) and
    /// AEAD ciphers only: no TLS 1.0/1.1, no static-RSA key exchange, no CBC.
    public var tlsPriorities = ServerConfiguration.modernTLS
    public static let modernTLS = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:+DHE-RSA:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:+CHACHA20-POLY1305"
    /// libmicrohttpd's own messages (a connection it closed, a TLS failure), one string each;
    /// nil leaves them on standard error as libmicrohttpd writes them.
    public var messageLog: (@Sendable (String) -> Void)?
    /// The response for a request the server refuses before any handler sees it (408, 413,
    /// 503, malformed framing). The server knows nothing of the body format: the application
    /// supplies it (the service answers RFC 9457 problem+json); by default, plain text.
    public var refusal: @Sendable (Refusal) -> Response = { refusal in
        Response(status: refusal.status, contentType: "text/plain; charset=utf-8", body: "\(refusal.title): \(refusal.detail)\n")
    }

    public init() {}
}

/// A request the server itself refuses: its status, the status's title, and what was wrong.
public struct Refusal: Sendable {
    public var status: Int
    public var title: String
    public var detail: String

    public init(status: Int, title: String, detail: String) {
        self.status = status
        self.title = title
        self.detail = detail
    }
}

public struct ServerError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// An HTTP/1.1 server on libmicrohttpd: a poll-based thread pool calling a synchronous handler.
///
/// The server accepts connections itself (`Acceptor`) and hands each to libmicrohttpd once the
/// head of its first request has arrived well-formed; malformed ones are answered 400 there.
///
/// Requests are answered once their body is complete (queueing a response earlier makes
/// libmicrohttpd close the connection), bodies are accumulated up to a limit, and per-request
/// state is released when libmicrohttpd reports the request completed (also when the client
/// disconnects mid-upload).
public final class Server: Sendable {
    public let configuration: ServerConfiguration
    /// Where libmicrohttpd sends its messages; allocated once, alive as long as the server,
    /// written once in `start()` before the daemon (and its threads) exist.
    private nonisolated(unsafe) let loggerTarget = UnsafeMutablePointer<cmhd_logger_target>.allocate(capacity: 1)
    let handler: Handler
    let onComplete: (@Sendable (CompletedRequest) -> Void)?
    private let state = Mutex(State())
    /// Read or changed by every request: atomics, so requests on different I/O threads do not
    /// meet at the state's lock for them.
    private let draining = Atomic<Bool>(false)
    private let requestsInFlight = Atomic<Int>(0)
    private let connectionsOpen = Atomic<Int>(0)
    /// The pool lane's workers.
    let pool: WorkerPool
    let lingering: LingeringClose

    struct State {
        var daemon: DaemonHandle?
        var acceptor: Acceptor?
        var port: UInt16 = 0
        var draining = false
        /// Open connections by socket: when their current request began (the connection's
        /// start, or the end of its previous request).
        var clocks: [Int32: ContinuousClock.Instant] = [:]
        var sweeping = false
        /// Open connections' client addresses, and how many each address has open.
        var addresses: [Int32: String] = [:]
        var perAddress: [String: Int] = [:]
        /// Connections answered before their body was read: they linger when closed.
        var lingerOnClose: Set<Int32> = []
        /// Connections whose request body is arriving.
        var uploading: Set<Int32> = []
        /// Connections whose current request's headers are in (the access handler saw them).
        var headersIn: Set<Int32> = []
        /// Connections whose current request line is in (libmicrohttpd logged its target).
        var requestLine: Set<Int32> = []
        /// Connections that have completed at least one request.
        var served: Set<Int32> = []
        /// Connections shut down to make room for a new one, already uncounted.
        var evicted: Set<Int32> = []
    }

    /// The daemon pointer. libmicrohttpd allows adding a connection and stopping from any
    /// thread; the acceptor adds, and `stop()` stops it after the acceptor has ended.
    struct DaemonHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    public init(configuration: ServerConfiguration, handler: @escaping Handler,
                onComplete: (@Sendable (CompletedRequest) -> Void)? = nil) {
        self.configuration = configuration
        self.handler = handler
        self.onComplete = onComplete
        self.lingering = LingeringClose(seconds: configuration.lingerSeconds, maximumBytes: configuration.lingerBytes)
        self.pool = WorkerPool(workers: configuration.workers, queueLimit: configuration.queueLimit)
    }

    /// The port listened on, once started.
    public var port: UInt16 { state.withLock { $0.port } }

    /// Requests received and not yet completed.
    public var inFlight: Int { requestsInFlight.load(ordering: .acquiring) }

    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Binds and starts serving. The server must stay alive until ``stop()``.
    public func start() throws(ServerError) {
        var config = cmhd_config()
        config.flags = MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        config.thread_pool_size = UInt32(max(1, configuration.threads))
        // The acceptor enforces the limits (`connectionAccepted`); libmicrohttpd's own, which
        // counts a connection until it has closed it (an evicted one a little longer than the
        // server does), only stands behind them.
        config.connection_limit = UInt32(2 * hardConnectionLimit)
        config.connection_timeout_seconds = UInt32(max(1, configuration.idleTimeoutSeconds))
        config.connection_memory_limit = max(16 << 10, configuration.connectionMemoryBytes)
        // Strict HTTP/1.1 framing: libmicrohttpd refuses spaces in the target and header
        // names; the rest of RFC 9112's rules are checked in `earlyRejection`.
        config.strict_for_client = 1
        let context = Unmanaged.passUnretained(self).toOpaque()
        if configuration.messageLog != nil {
            loggerTarget.pointee = cmhd_logger_target(sink: { context, message in
                guard let context, let message else { return }
                let server = Unmanaged<Server>.fromOpaque(context).takeUnretainedValue()
                let text = String(cString: message).trimmingCharacters(in: "\n")
                // libmicrohttpd's thread-pool workers re-read the options and report the logger
                // as "not the first option"; it is, and every message does come here.
                if text.hasPrefix("MHD_OPTION_EXTERNAL_LOGGER is not the first option") { return }
                server.configuration.messageLog?(text)
            }, context: context)
            config.logger = UnsafePointer(loggerTarget)
        }
        var bound: UInt16 = 0
        let listener = cmhd_listen(configuration.host, configuration.port, 512, &bound)
        guard listener >= 0 else {
            throw ServerError(description: "cannot listen on \(configuration.host):\(configuration.port): \(String(cString: strerror(errno))) (address in use, or not a local IP address)")
        }
        let daemon: OpaquePointer? = withOptionalCString(configuration.tlsKeyPEM) { key in
                withOptionalCString(configuration.tlsCertificatePEM) { cert in
                    configuration.tlsPriorities.withCString { priorities in
                        config.tls_key_pem = key
                        config.tls_cert_pem = cert
                        config.tls_priorities = priorities
                        return cmhd_start_daemon(&config, accessHandler, context, completedHandler, context, connectionNotifier, context, uriLogger, context)
                    }
                }
            }
        guard let daemon else {
            close(listener)
            throw ServerError(description: "cannot start serving on \(configuration.host):\(configuration.port) (a bad TLS certificate, key or priority string)")
        }
        let acceptor: Acceptor
        do {
            acceptor = try Acceptor(listener: listener, daemon: DaemonHandle(pointer: daemon), server: self,
                                    checksHeads: configuration.tlsCertificatePEM == nil)
        } catch {
            close(listener)
            MHD_stop_daemon(daemon)
            throw error
        }
        state.withLock {
            $0.daemon = DaemonHandle(pointer: daemon)
            $0.acceptor = acceptor
            $0.port = bound
            $0.sweeping = true
        }
        pool.start { [unowned self] job in self.run(job) }
        startSweeper()
        acceptor.start()
    }

    // MARK: The pool lane

    /// Runs a job on a worker: the handler's response, or 503 when the job was cancelled
    /// before it started or its work stopped part-way.
    func run(_ job: Job) {
        var response: Response
        if job.cancellation.isCancelled {
            response = cancelled(job)
        } else {
            response = handler(job.request)
            if job.cancellation.workStopped { response = cancelled(job) }
        }
        pool.finished(job)
        answer(job, with: response)
    }

    /// Hands a job's response to its connection: libmicrohttpd calls the handler again once the
    /// connection is resumed, and the handler queues what is stored here.
    func answer(_ job: Job, with response: Response) {
        job.state.pending = response
        MHD_resume_connection(job.connection)
    }

    func cancelled(_ job: Job) -> Response {
        var response: Response
        if job.cancellation.reason == .shutdown {
            response = configuration.refusal(Refusal(status: 503, title: "Service Unavailable", detail: "the server is shutting down and could not finish this request; retry"))
        } else {
            response = configuration.refusal(Refusal(status: 503, title: "Service Unavailable", detail: "the request took longer than the \(Server.seconds(configuration.requestDeadlineSeconds)) s request deadline and its work was stopped; ask for less (fewer themes or checks, ?suggestions=none) or retry when the server is less busy"))
        }
        response.headers.append(Header(name: "Retry-After", value: job.cancellation.reason == .shutdown ? "1" : "5"))
        response.route = job.route
        return response
    }

    /// The reason phrase of the statuses the server writes itself.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Requests waiting for a worker, running on one, refused for a full queue, and cancelled.
    public var poolStatistics: (queued: Int, running: Int, rejected: Int, cancelled: Int) {
        let s = pool.statistics
        return (s.queued, s.running, s.rejected, s.cancelled)
    }

    /// Answers every pool request now: queued ones get 503 at once, running ones are asked to
    /// stop (and get 503 if they do). For the end of a shutdown's grace period.
    public func cancelPending() {
        for job in pool.cancelAll(stop: false) { answer(job, with: cancelled(job)) }
    }

    // MARK: Request deadline

    /// libmicrohttpd's own timeout measures idleness, so a client sending a byte every few
    /// seconds would hold a connection forever. A sweeper shuts down any connection whose
    /// current request (headers and body) has taken longer than the deadline.
    private func startSweeper() {
        let deadline = Duration.milliseconds(Int(configuration.requestDeadlineSeconds * 1000))
        let headerDeadline = Duration.milliseconds(Int(max(0.25, configuration.headerTimeoutSeconds) * 1000))
        let thread = DetachedThread { [weak self] in
            while let self, self.state.withLock({ $0.sweeping }) {
                usleep(250_000)
                let now = ContinuousClock.now
                let expired = self.state.withLock { s -> [Int32] in
                    // A body still arriving gets two more seconds: its next bytes are then
                    // answered 408 (in `handle`) rather than the connection being cut unanswered.
                    let old = s.clocks.filter { now - $0.value > (s.uploading.contains($0.key) ? deadline + .seconds(2) : deadline) }.map(\.key)
                    for fd in old { s.clocks[fd] = nil }
                    // Headers still arriving past the header timeout: closed unanswered. (An idle
                    // keep-alive connection with no new request line is left to the idle timeout.)
                    let slow = s.clocks.filter { fd, start in
                        now - start > headerDeadline && Server.isReadingHeaders(fd, s)
                    }.map(\.key)
                    // Under the lock: a socket still in the books is not closed (nor reused) yet.
                    for fd in slow {
                        s.clocks[fd] = nil
                        shutdown(fd, Int32(SHUT_RDWR))
                    }
                    return old
                }
                for fd in expired {
                    // A request on the pool lane is cancelled (and answered), not cut: its
                    // connection then gets a fresh deadline to send the answer.
                    let (found, dequeued) = self.pool.expire(socket: fd)
                    if found {
                        self.state.withLock { $0.clocks[fd] = now }
                        if let dequeued { self.answer(dequeued, with: self.cancelled(dequeued)) }
                        continue
                    }
                    // libmicrohttpd owns the sockets: shut them down and let it close them.
                    shutdown(fd, Int32(SHUT_RDWR))
                }
            }
        }
        thread.start()
    }

    /// Whether more connections are open than the configured limit.
    var isOverConnectionLimit: Bool {
        connectionsOpen.load(ordering: .relaxed) > configuration.connectionLimit
    }

    /// Whether a connection is reading a request's line or headers: a fresh one, or a kept-alive
    /// one whose next request line is in, whose headers are not.
    static func isReadingHeaders(_ fd: Int32, _ s: State) -> Bool {
        !s.headersIn.contains(fd) && (s.requestLine.contains(fd) || !s.served.contains(fd))
    }

    /// Past these, a new connection is answered 503 by the acceptor and closed: the limit and a
    /// margin of a quarter more (at least 64), within which connections are taken and answered
    /// 503 by the handler, so clients over the limit learn it promptly instead of waiting in the
    /// kernel's backlog.
    var hardConnectionLimit: Int {
        let limit = max(1, configuration.connectionLimit)
        return limit + max(64, limit / 4)
    }

    var hardAddressLimit: Int {
        let limit = max(0, configuration.perAddressConnectionLimit)
        return limit == 0 ? Int.max : limit + max(8, limit / 4)
    }

    /// The acceptor took a connection: it is counted and timed from here (also while its first
    /// head is still arriving), or refused at once when past the hard limits (not counted).
    func connectionAccepted(_ fd: Int32, address: String?) -> Refusal? {
        let limit = configuration.connectionLimit
        return state.withLock { s -> Refusal? in
            // A connection libmicrohttpd closed without reporting it (it refused it after taking
            // it) leaves its socket in the books: that number is a new connection now.
            if s.clocks[fd] != nil || s.addresses[fd] != nil || s.evicted.contains(fd) { forget(fd, &s) }
            for stale in [\State.headersIn, \State.requestLine, \State.served, \State.uploading, \State.lingerOnClose] {
                s[keyPath: stale].remove(fd)
            }
            if let address, (s.perAddress[address] ?? 0) >= hardAddressLimit {
                return Refusal(status: 503, title: "Service Unavailable", detail: "this client address has more than \(configuration.perAddressConnectionLimit) connections open; close some or retry shortly")
            }
            let open = connectionsOpen.load(ordering: .relaxed) + 1
            // At capacity the oldest connections without a request in progress (still reading
            // their headers, or idle between requests) give way to the new one, as many as it
            // takes to be back at the limit, so connections that trickle headers cannot lock
            // ordinary clients out. They are shut down here and uncounted at once; whoever holds
            // them (libmicrohttpd, or the acceptor) closes them when it next looks.
            // A connection younger than a second is not taken: in a burst of new clients its
            // request is likely on its way, and the newcomer gets the 503 (in `handle`) instead.
            var evicted = 0
            if open > limit {
                let settled = ContinuousClock.now - .seconds(1)
                let idle = s.clocks.filter { other, at in at < settled && !s.headersIn.contains(other) && !s.evicted.contains(other) }
                for (victim, _) in idle.sorted(by: { $0.value < $1.value }).prefix(open - limit) {
                    s.evicted.insert(victim)
                    s.clocks[victim] = nil
                    shutdown(victim, Int32(SHUT_RDWR))
                    evicted += 1
                }
            }
            guard open - evicted <= hardConnectionLimit else {
                return Refusal(status: 503, title: "Service Unavailable", detail: "the server has more than \(limit) connections open; retry shortly")
            }
            connectionsOpen.wrappingAdd(1 &- evicted, ordering: .relaxed)
            s.clocks[fd] = ContinuousClock.now
            if let address {
                s.addresses[fd] = address
                s.perAddress[address, default: 0] += 1
            }
            return nil
        }
    }

    /// libmicrohttpd took over a connection from the acceptor.
    func connectionStarted(_ fd: Int32) {
        guard fd >= 0 else { return }
        cmhd_set_send_buffer(fd, Int32(clamping: configuration.sendBufferBytes))
    }

    /// Whether a connection was shut down by the header timeout, the request deadline or an
    /// eviction (it is out of the clocks), so that whoever holds it closes it.
    func wasCut(_ fd: Int32) -> Bool {
        state.withLock { $0.clocks[fd] == nil }
    }

    /// A request line is in (libmicrohttpd logged its target).
    func requestLineRead(_ fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { _ = $0.requestLine.insert(fd) }
    }

    /// The access handler has the request's headers.
    func headersRead(_ fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { _ = $0.headersIn.insert(fd) }
    }

    func connectionClosed(_ fd: Int32) {
        guard fd >= 0 else { return }
        let linger = state.withLock { s -> Bool in
            forget(fd, &s)
            return s.lingerOnClose.remove(fd) != nil
        }
        // libmicrohttpd closes its descriptor right after this: a duplicate keeps the
        // connection open while the client finishes sending.
        if linger {
            let copy = dup(fd)
            if copy >= 0 { lingering.adopt(copy) }
        }
    }

    /// Takes a connection out of the books (the caller holds the lock).
    private func forget(_ fd: Int32, _ s: inout State) {
        if s.evicted.remove(fd) == nil { connectionsOpen.wrappingSubtract(1, ordering: .relaxed) }
        s.clocks[fd] = nil
        s.uploading.remove(fd)
        s.headersIn.remove(fd)
        s.requestLine.remove(fd)
        s.served.remove(fd)
        if let address = s.addresses.removeValue(forKey: fd) {
            let left = (s.perAddress[address] ?? 1) - 1
            s.perAddress[address] = left > 0 ? left : nil
        }
    }

    /// The connection is answered before its body was read: linger when it closes.
    func lingerOnClose(_ fd: Int32) {
        guard fd >= 0, configuration.lingerSeconds > 0 else { return }
        state.withLock { _ = $0.lingerOnClose.insert(fd) }
    }

    /// Whether the address has more connections open than the per-address limit.
    func isOverAddressLimit(_ address: String?) -> Bool {
        let limit = configuration.perAddressConnectionLimit
        guard limit > 0, let address else { return false }
        return state.withLock { ($0.perAddress[address] ?? 0) > limit }
    }

    /// A request finished: the connection's clock restarts for the next one.
    func connectionIdle(_ fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { s in
            s.uploading.remove(fd)
            s.headersIn.remove(fd)
            s.requestLine.remove(fd)
            if s.clocks[fd] != nil {
                s.clocks[fd] = ContinuousClock.now
                s.served.insert(fd)
            }
        }
    }

    /// The request's headers are in and it announced a body (true), or its body is complete.
    func setUploading(_ fd: Int32, _ uploading: Bool) {
        guard fd >= 0 else { return }
        state.withLock { s in
            if uploading { s.uploading.insert(fd) } else { s.uploading.remove(fd) }
        }
    }

    /// Stops accepting connections; requests already received are still answered, with
    /// `Connection: close`. Connections the kernel had already completed (waiting in the accept
    /// backlog) are taken and answered too, instead of being reset.
    public func beginDraining() {
        let acceptor = state.withLock { s -> Acceptor? in
            guard !s.draining, s.daemon != nil else { return nil }
            s.draining = true
            draining.store(true, ordering: .releasing)
            return s.acceptor
        }
        acceptor?.drain()
    }

    /// Open connections, including accepted ones whose request has not been read yet.
    public var openConnections: Int {
        state.withLock { s in s.daemon.map { Int(cmhd_current_connections($0.pointer)) + (s.acceptor?.held ?? 0) } ?? 0 }
    }

    /// Waits until no request is in flight and every connection is closed (responses sent while
    /// draining close their connection), or `seconds` pass. Returns whether it drained.
    public func waitUntilIdle(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while ContinuousClock.now < deadline {
            if inFlight == 0 && openConnections == 0 { return true }
            usleep(10_000)
        }
        return inFlight == 0 && openConnections == 0
    }

    /// Stops the daemon and its threads. Pool requests still queued are answered 503 and
    /// running ones are asked to stop first: libmicrohttpd cannot stop while a connection is
    /// suspended waiting for a worker.
    public func stop() {
        for job in pool.cancelAll(stop: true) { answer(job, with: cancelled(job)) }
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while pool.isBusy && ContinuousClock.now < deadline { usleep(5_000) }
        let (daemon, acceptor) = state.withLock { s -> (DaemonHandle?, Acceptor?) in
            let d = (s.daemon, s.acceptor)
            s.daemon = nil
            s.acceptor = nil
            s.sweeping = false
            return d
        }
        // No connection is handed to libmicrohttpd once it is stopping.
        acceptor?.stop()
        // A handler that never returned keeps its connection suspended; stopping then would
        // abort the process, so the daemon is left to the process's exit instead.
        if let daemon, !pool.isBusy { MHD_stop_daemon(daemon.pointer) }
    }

    deinit {
        stop()
        loggerTarget.deallocate()
    }

    // MARK: Callbacks

    func requestStarted() {
        requestsInFlight.wrappingAdd(1, ordering: .relaxed)
    }

    func requestFinished() {
        requestsInFlight.wrappingSubtract(1, ordering: .relaxed)
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

