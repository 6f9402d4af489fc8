internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock in nanoseconds: a request's times and the connection books' clocks.
/// (`ContinuousClock.Instant` is a resilient type: kept in optionals, classes and dictionaries
/// it goes through value witnesses on every use; an `Int` does not.)
enum Monotonic {
    static func nanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) &* 1_000_000_000 &+ Int(now.tv_nsec)
    }

    static func seconds(from start: Int, to end: Int) -> Double {
        Double(end &- start) / 1e9
    }
}

/// Per-request state, kept in libmicrohttpd's `req_cls` from the request line until the
/// completion callback releases it.
///
/// A connection keeps one (``ConnectionContext``) and reuses it for its next request when
/// nothing else holds it any more, arrays and all (their storage is kept): a kept-alive
/// connection's requests then allocate no state, no header array, no query array.
///
/// The fields live in memory the object owns, reached through a pointer: as stored properties
/// of a class, each of the reads and writes a request makes would be checked for exclusive
/// access at run time (`swift_beginAccess`). The object is used by one
/// thread at a time, as before: the connection's I/O thread, or the worker its job went to,
/// which hands it back by resuming the connection.
@dynamicMemberLookup
final class RequestState {
    struct Fields {
        /// When the request line arrived (``Monotonic`` nanoseconds).
        var started: Int = Monotonic.nanoseconds()
        /// The access handler has seen the request's headers (the state exists before that: it
        /// is taken when the request line is read, to keep the target as sent).
        var begun: Bool = false
        /// The request target as sent, before percent-decoding.
        var target: String? = nil
        var rawTarget: [UInt8] = []
        var rawMethod: [UInt8] = []
        var body: [UInt8] = []
        var bodyBytes: Int = 0
        var status: Int = 0
        var responseBytes: Int = 0
        var route: String? = nil
        var method: String = ""
        var path: String = ""
        var remoteAddress: String? = nil
        /// When the response was queued (``Monotonic`` nanoseconds; 0: not yet).
        var queuedAt: Int = 0
        var headers: [Header] = []
        var query: [QueryItem] = []
        var segments: [String] = []
        /// The response a worker computed, queued when libmicrohttpd resumes the connection.
        var pending: Response? = nil
        /// The request announced a body (Content-Length above 0, or chunked).
        var announcedBody: Bool = false
    }

    private let fields: UnsafeMutablePointer<Fields>

    init() {
        fields = .allocate(capacity: 1)
        fields.initialize(to: Fields())
    }

    deinit {
        fields.deinitialize(count: 1)
        fields.deallocate()
    }

    /// Every field, read and written as if it were the object's own property
    /// (`state.headers`, `&state.query`): the key path is a literal at each use, so the optimized
    /// build reaches the field directly, as a hand-written accessor did.
    subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        @inline(__always) get { fields.pointee[keyPath: field] }
        @inline(__always) _modify { yield &fields.pointee[keyPath: field] }
    }

    /// Back to a new request's state, keeping the arrays' storage.
    func reset() {
        let f = fields
        f.pointee.started = Monotonic.nanoseconds()
        f.pointee.begun = false
        f.pointee.target = nil
        f.pointee.rawTarget.removeAll(keepingCapacity: true)
        f.pointee.rawMethod.removeAll(keepingCapacity: true)
        f.pointee.body = []
        f.pointee.bodyBytes = 0
        f.pointee.status = 0
        f.pointee.responseBytes = 0
        f.pointee.route = nil
        f.pointee.method = ""
        f.pointee.path = ""
        f.pointee.remoteAddress = nil
        f.pointee.queuedAt = 0
        f.pointee.headers.removeAll(keepingCapacity: true)
        f.pointee.query.removeAll(keepingCapacity: true)
        f.pointee.segments.removeAll(keepingCapacity: true)
        f.pointee.pending = nil
        f.pointee.announcedBody = false
    }

    /// Keeps the request target as sent (libmicrohttpd decodes it in place afterwards).
    func keepTarget(_ uri: UnsafePointer<CChar>?) {
        guard let uri else { return }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(uri).assumingMemoryBound(to: UInt8.self), count: strlen(uri))
        fields.pointee.rawTarget.append(contentsOf: bytes)
        fields.pointee.target = String(decoding: bytes, as: UTF8.self)
    }
}

/// What is known of a connection for as long as it is open, kept in libmicrohttpd's socket
/// context and used only on the connection's I/O thread: its client's address (formatted once
/// instead of once per request), that address's count of open connections (read without the
/// server's lock), and the request state its requests reuse.
final class ConnectionContext {
    let address: String?
    let addressCount: Server.AddressCount?
    private var reusable = RequestState()

    init(address: String?, addressCount: Server.AddressCount?) {
        self.address = address
        self.addressCount = addressCount
    }

    /// The state for the connection's next request: the one kept, reset, unless something
    /// still holds it (a worker's job that has not let go yet); then a new one, kept instead.
    func nextRequest() -> RequestState {
        if isKnownUniquelyReferenced(&reusable) {
            reusable.reset()
        } else {
            reusable = RequestState()
        }
        return reusable
    }
}
