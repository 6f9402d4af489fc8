internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

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
    let state = Mutex(State())
    /// Read or changed by every request: atomics, so requests on different I/O threads do not
    /// meet at the state's lock for them.
    let draining = Atomic<Bool>(false)
    let requestsInFlight = Atomic<Int>(0)
    let connectionsOpen = Atomic<Int>(0)
    /// The pool lane's workers.
    let pool: WorkerPool
    let lingering: LingeringClose
    /// The connection limit the process's descriptors hold, and the descriptors it runs with.
    let descriptorPlan: DescriptorPlan

    struct State {
        var daemon: DaemonHandle?
        var acceptor: Acceptor?
        var port: UInt16 = 0
        var draining = false
        /// Open connections by socket: when their current request began (the connection's
        /// start, or the end of its previous request), in ``Monotonic`` nanoseconds.
        var clocks: [Int32: Int] = [:]
        var sweeping = false
        /// Open connections' client addresses, and how many each address has open.
        var addresses: [Int32: String] = [:]
        var perAddress: [String: AddressCount] = [:]
        /// Connections answered before their body was read: they linger when closed.
        var lingerOnClose: Set<Int32> = []
        /// Where each connection's current request is (one entry per connection, where there
        /// were four sets: a request touched each of them two or three times).
        var phases: [Int32: Phase] = [:]
        /// Connections shut down to make room for a new one, already uncounted.
        var evicted: Set<Int32> = []
    }

    /// Where a connection's current request is, for the header timeout and eviction.
    struct Phase: OptionSet {
        let rawValue: UInt8
        /// The request line is in (libmicrohttpd logged its target).
        static let requestLine = Phase(rawValue: 1)
        /// The headers are in (the access handler saw them).
        static let headersIn = Phase(rawValue: 2)
        /// The request body is arriving.
        static let uploading = Phase(rawValue: 4)
        /// The connection has completed at least one request.
        static let served = Phase(rawValue: 8)
        /// The server answered the request itself while its body was arriving (413, or 408 from
        /// the handler or the sweeper): nothing more of it is read or answered.
        static let answered = Phase(rawValue: 16)
    }

    /// How many connections one client address has open: changed under the state's lock,
    /// read without it by the connection's requests (``ConnectionContext``).
    final class AddressCount: Sendable {
        let open = Atomic<Int>(0)
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
        let (soft, hard) = DescriptorPlan.current()
        let plan = DescriptorPlan.plan(connectionLimit: max(1, configuration.connectionLimit), threads: configuration.threads, soft: soft, hard: hard)
        self.descriptorPlan = plan
        self.lingering = LingeringClose(seconds: configuration.lingerSeconds, maximumBytes: configuration.lingerBytes,
                                        maximumSockets: plan.lingeringSockets)
        self.pool = WorkerPool(workers: configuration.workers, queueLimit: configuration.queueLimit)
    }

    /// The port listened on, once started.
    public var port: UInt16 { state.withLock { $0.port } }

    /// Requests received and not yet completed.
    public var inFlight: Int { requestsInFlight.load(ordering: .acquiring) }

    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Open connections at most: ``ServerConfiguration/connectionLimit``, or fewer when the
    /// process's descriptor limit (`RLIMIT_NOFILE`, raised at start as far as its hard limit
    /// allows) cannot hold that many and their margin (``DescriptorPlan``).
    public var connectionLimit: Int { descriptorPlan.connectionLimit }

    /// The descriptor limit the server runs with once started.
    public var descriptorLimit: Int { descriptorPlan.descriptors }

    /// Binds and starts serving. The server must stay alive until ``stop()``.
    public func start() throws(ServerError) {
        // Before any connection: eviction at capacity needs a descriptor to accept the newcomer.
        descriptorPlan.apply()
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
    /// draining close their connection, and while draining a kept-alive connection idle between
    /// requests is closed), or `seconds` pass. Returns whether it drained.
    public func waitUntilIdle(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while ContinuousClock.now < deadline {
            if inFlight == 0 && openConnections == 0 { return true }
            if draining.load(ordering: .acquiring) { closeIdleConnections() }
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
