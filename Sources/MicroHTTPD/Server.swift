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
    /// Worker threads (each runs its own poll loop).
    public var threads = 2
    /// Largest request body accepted; larger ones get 413.
    public var maximumBodyBytes = 1 << 20
    /// Open connections at most. Past it, new connections are still accepted (up to a margin of
    /// a quarter more, at least 64) and answered 503 at once, so clients over the limit learn it
    /// promptly instead of waiting in the kernel's backlog.
    public var connectionLimit = 1024
    /// Open connections per client address at most.
    public var perAddressConnectionLimit = 0
    /// An idle connection is closed after this many seconds.
    public var idleTimeoutSeconds = 15
    /// A request whose headers and body take longer than this in total is answered 408 and
    /// closed, however steadily it trickles (libmicrohttpd's own timeout measures idleness only).
    public var requestDeadlineSeconds = 30.0
    /// Memory libmicrohttpd may use per connection for headers.
    public var connectionMemoryBytes = 64 << 10
    /// PEM-encoded certificate and key: serve HTTPS.
    public var tlsCertificatePEM: String?
    public var tlsKeyPEM: String?
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

    struct State {
        var daemon: DaemonHandle?
        var port: UInt16 = 0
        var draining = false
        var inFlight = 0
        /// Open connections by socket: when their current request began (the connection's
        /// start, or the end of its previous request).
        var clocks: [Int32: ContinuousClock.Instant] = [:]
        var sweeping = false
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
    }

    /// The port listened on, once started.
    public var port: UInt16 { state.withLock { $0.port } }

    /// Requests received and not yet completed.
    public var inFlight: Int { state.withLock { $0.inFlight } }

    public var isDraining: Bool { state.withLock { $0.draining } }

    /// Binds and starts serving. The server must stay alive until ``stop()``.
    public func start() throws(ServerError) {
        var config = cmhd_config()
        config.flags = MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        config.port = configuration.port
        config.thread_pool_size = UInt32(max(1, configuration.threads))
        let limit = max(1, configuration.connectionLimit)
        config.connection_limit = UInt32(limit + max(64, limit / 4))
        config.per_ip_connection_limit = UInt32(max(0, configuration.perAddressConnectionLimit))
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
                    config.host = host
                    config.tls_key_pem = key
                    config.tls_cert_pem = cert
                    return cmhd_start_daemon(&config, accessHandler, context, completedHandler, context, connectionNotifier, context, uriLogger, context)
                }
            }
        }
        guard let daemon else {
            throw ServerError(description: "cannot listen on \(configuration.host):\(configuration.port) (address in use, not a local address, or bad TLS certificate/key)")
        }
        let bound = cmhd_bound_port(daemon)
        state.withLock {
            $0.daemon = DaemonHandle(pointer: daemon)
            $0.port = bound == 0 ? configuration.port : bound
            $0.sweeping = true
        }
        startSweeper()
    }

    // MARK: Request deadline

    /// libmicrohttpd's own timeout measures idleness, so a client sending a byte every few
    /// seconds would hold a connection forever. A sweeper shuts down any connection whose
    /// current request (headers and body) has taken longer than the deadline.
    private func startSweeper() {
        let deadline = Duration.milliseconds(Int(configuration.requestDeadlineSeconds * 1000))
        let thread = SweeperThread { [weak self] in
            while let self, self.state.withLock({ $0.sweeping }) {
                usleep(250_000)
                let now = ContinuousClock.now
                let expired = self.state.withLock { s -> [Int32] in
                    let old = s.clocks.filter { now - $0.value > deadline }.map(\.key)
                    for fd in old { s.clocks[fd] = nil }
                    return old
                }
                // libmicrohttpd owns the sockets: shut them down and let it close them.
                for fd in expired { shutdown(fd, Int32(SHUT_RDWR)) }
            }
        }
        thread.start()
    }

    /// Whether more connections are open than the configured limit.
    var isOverConnectionLimit: Bool {
        state.withLock { $0.clocks.count > configuration.connectionLimit }
    }

    func connectionStarted(_ fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { $0.clocks[fd] = ContinuousClock.now }
    }

    func connectionClosed(_ fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { $0.clocks[fd] = nil }
    }

    /// A request finished: the connection's clock restarts for the next one.
    func connectionIdle(_ fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { s in
            if s.clocks[fd] != nil { s.clocks[fd] = ContinuousClock.now }
        }
    }

    /// Stops accepting connections; requests already received are still answered, with
    /// `Connection: close`. Connections the kernel had already completed (waiting in the accept
    /// backlog) are taken and answered too, instead of being reset.
    public func beginDraining() {
        state.withLock { s in
            guard !s.draining, let daemon = s.daemon else { return }
            s.draining = true
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

    /// Stops the daemon and its threads.
    public func stop() {
        let daemon = state.withLock { s -> DaemonHandle? in
            let d = s.daemon
            s.daemon = nil
            s.sweeping = false
            return d
        }
        if let daemon { MHD_stop_daemon(daemon.pointer) }
    }

    deinit {
        stop()
        loggerTarget.deallocate()
    }

    // MARK: Callbacks

    func requestStarted() {
        state.withLock { $0.inFlight += 1 }
    }

    func requestFinished() {
        state.withLock { $0.inFlight -= 1 }
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// A plain thread for the deadline sweeper (no Foundation in this module).
private final class SweeperThread: @unchecked Sendable {
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
            let me = Unmanaged<SweeperThread>.fromOpaque(raw).takeRetainedValue()
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
            Unmanaged<SweeperThread>.fromOpaque(context).release()
        }
    }
}
