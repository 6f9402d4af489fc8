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
    /// The server raises the process's descriptor limit to what this needs, or serves fewer when
    /// the hard limit cannot hold them (``Server/connectionLimit``).
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
    /// for every request, so its size is paid per request: kept small for that. 32 KiB is
    /// libmicrohttpd's own default.
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
