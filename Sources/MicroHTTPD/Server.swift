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
    /// Open connections at most. Past it, new connections are still accepted (up to a margin of
    /// a quarter more, at least 64) and answered 503 at once, so clients over the limit learn it
    /// promptly instead of waiting in the kernel's backlog.
    public var connectionLimit = 1024
    /// Open connections per client address at most (0: no limit). Past it, connections are
    /// still accepted (up to a quarter more, at least 8) and answered 503 at once.
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

    /// The daemon pointer. libmicrohttpd allows quiesce and stop from any thread; every access
    /// goes through the mutex above.
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
        config.port = configuration.port
        config.thread_pool_size = UInt32(max(1, configuration.threads))
        let limit = max(1, configuration.connectionLimit)
        config.connection_limit = UInt32(limit + max(64, limit / 4))
        // Past the per-address limit, connections are answered 503 (in `handle`) up to a margin;
        // past the margin, libmicrohttpd closes them unanswered.
        let perAddress = max(0, configuration.perAddressConnectionLimit)
        config.per_ip_connection_limit = perAddress == 0 ? 0 : UInt32(perAddress + max(8, perAddress / 4))
        config.connection_timeout_seconds = UInt32(max(1, configuration.idleTimeoutSeconds))
        config.connection_memory_limit = max(16 << 10, configuration.connectionMemoryBytes)
        config.listen_backlog = 512
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
        let daemon: OpaquePointer? = configuration.host.withCString { host in
            withOptionalCString(configuration.tlsKeyPEM) { key in
                withOptionalCString(configuration.tlsCertificatePEM) { cert in
                    configuration.tlsPriorities.withCString { priorities in
                        config.host = host
                        config.tls_key_pem = key
                        config.tls_cert_pem = cert
                        config.tls_priorities = priorities
                        return cmhd_start_daemon(&config, accessHandler, context, completedHandler, context, connectionNotifier, context, uriLogger, context)
                    }
                }
            }
        }
        guard let daemon else {
            throw ServerError(description: "cannot listen on \(configuration.host):\(configuration.port) (address in use, not a local address, or a bad TLS certificate, key or priority string)")
        }
        let bound = cmhd_bound_port(daemon)
        state.withLock {
            $0.daemon = DaemonHandle(pointer: daemon)
            $0.port = bound == 0 ? configuration.port : bound
            $0.sweeping = true
        }
        pool.start { [unowned self] job in self.run(job) }
        startSweeper()
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
        case 408: "Request Timeout"
        case 413: "Content Too Large"
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

    func connectionStarted(_ fd: Int32, address: String?) {
        guard fd >= 0 else { return }
        cmhd_set_send_buffer(fd, Int32(clamping: configuration.sendBufferBytes))
        let open = connectionsOpen.wrappingAdd(1, ordering: .relaxed).newValue
        let limit = configuration.connectionLimit
        state.withLock { s in
            s.clocks[fd] = ContinuousClock.now
            for stale in [\State.headersIn, \State.requestLine, \State.served, \State.evicted, \State.uploading] {
                s[keyPath: stale].remove(fd)
            }
            if let address {
                s.addresses[fd] = address
                s.perAddress[address, default: 0] += 1
            }
            // At capacity the oldest connection without a request in progress (still reading
            // its headers, or idle between requests) gives way to the new one, so connections
            // that trickle headers cannot lock ordinary clients out. It is shut down here and
            // uncounted at once; libmicrohttpd closes it when it next polls it.
            // A connection younger than a second is not taken: in a burst of new clients its
            // request is likely on its way, and the newcomer gets the 503 (in `handle`) instead.
            guard open > limit else { return }
            let settled = ContinuousClock.now - .seconds(1)
            var oldest: (fd: Int32, at: ContinuousClock.Instant)?
            for (other, at) in s.clocks where at < settled && other != fd && !s.headersIn.contains(other) && !s.evicted.contains(other) {
                if oldest == nil || at < oldest!.at { oldest = (other, at) }
            }
            guard let victim = oldest?.fd else { return }
            s.evicted.insert(victim)
            s.clocks[victim] = nil
            connectionsOpen.wrappingSubtract(1, ordering: .relaxed)
            shutdown(victim, Int32(SHUT_RDWR))
        }
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
            return s.lingerOnClose.remove(fd) != nil
        }
        // libmicrohttpd closes its descriptor right after this: a duplicate keeps the
        // connection open while the client finishes sending.
        if linger {
            let copy = dup(fd)
            if copy >= 0 { lingering.adopt(copy) }
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
        state.withLock { s in
            guard !s.draining, let daemon = s.daemon else { return }
            s.draining = true
            draining.store(true, ordering: .releasing)
            _ = cmhd_quiesce_and_adopt(daemon.pointer)
        }
    }

    /// Open connections, including accepted ones whose request has not been read yet.
    public var openConnections: Int {
        state.withLock { s in s.daemon.map { Int(cmhd_current_connections($0.pointer)) } ?? 0 }
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
        let daemon = state.withLock { s -> DaemonHandle? in
            let d = s.daemon
            s.daemon = nil
            s.sweeping = false
            return d
        }
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

