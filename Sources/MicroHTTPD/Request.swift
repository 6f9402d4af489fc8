/// An HTTP request as the handler sees it: method, decoded path, query, headers and the whole body.
public struct Request: Sendable {
    public var method: String
    /// The URL path, percent-decoded (`/v1/palettes/peptide-fox`).
    public var path: String { didSet { pathSegments = Request.segments(path: path, target: target) } }
    /// The request target as sent, before percent-decoding (`/v1/palettes/a%2Fb?x=1`), when
    /// known: the path's segments are split on it, so an encoded "/" stays inside its segment.
    public var target: String? { didSet { pathSegments = Request.segments(path: path, target: target) } }
    /// The path's segments, each percent-decoded (`/v1/palettes/a%2Fb` gives `["v1", "palettes",
    /// "a/b"]`). Without the target as sent, the decoded path is split. Made once per request
    /// (the lane choice, the router and the log all read them).
    public private(set) var pathSegments: [String]
    /// Query parameters in order, decoded (`?fg=%23fff` gives `("fg", "#fff")`).
    public var query: [QueryItem]
    /// Header fields in order; names are lowercased.
    public var headers: [Header]
    public var body: [UInt8]
    /// `HTTP/1.1`, `HTTP/1.0`.
    public var version: String
    public var remoteAddress: String?
    /// Set for requests on the pool lane: work that can stop part-way asks
    /// ``Cancellation/shouldStop()`` (the deadline passed, or the server is shutting down).
    public var cancellation: Cancellation?

    public init(method: String, path: String, target: String? = nil, query: [QueryItem] = [], headers: [Header] = [], body: [UInt8] = [],
                version: String = "HTTP/1.1", remoteAddress: String? = nil) {
        self.method = method
        self.path = path
        self.target = target
        pathSegments = Request.segments(path: path, target: target)
        self.query = query
        self.headers = headers.allSatisfy { $0.name.utf8.allSatisfy { $0 < 0x41 || $0 > 0x5A } } ? headers
            : headers.map { Header(name: $0.name.lowercased(), value: $0.value) }
        self.body = body
        self.version = version
        self.remoteAddress = remoteAddress
    }

    /// A request as the server builds it: segments already split (into the connection's
    /// reused array, ``appendSegments(path:target:to:)``) and header names already lowercased.
    init(method: String, path: String, target: String?, segments: [String], query: [QueryItem], lowercasedHeaders: [Header],
         body: [UInt8], version: String, remoteAddress: String?) {
        self.method = method
        self.path = path
        self.target = target
        pathSegments = segments
        self.query = query
        headers = lowercasedHeaders
        self.body = body
        self.version = version
        self.remoteAddress = remoteAddress
    }

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    static func segments(path: String, target: String?) -> [String] {
        var out: [String] = []
        appendSegments(path: path, target: target, to: &out)
        return out
    }

    /// The path's segments (``pathSegments``), appended to `out` after emptying it (its
    /// storage kept: the server reuses one array per connection).
    static func appendSegments(path: String, target: String?, to out: inout [String]) {
        out.removeAll(keepingCapacity: true)
        if let target, target.utf8.first == UInt8(ascii: "/") {
            appendPieces(of: target, upToQuery: true, decoding: true, to: &out)
        } else {
            appendPieces(of: path, upToQuery: false, decoding: false, to: &out)
        }
    }

    /// The pieces between "/" after the first (the one before the leading "/"), read from the
    /// string's bytes ("/", "?" and "#" are ASCII): Character-wise splitting cost more than the
    /// rest of routing a request, and Substring indices were still a tenth of a `/healthz`.
    private static func appendPieces(of text: String, upToQuery: Bool, decoding: Bool, to out: inout [String]) {
        var text = text
        text.withUTF8 { bytes in
            var end = bytes.count
            if upToQuery, let mark = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { end = mark }
            var start = 0
            var first = true
            for index in 0...end where index == end || bytes[index] == UInt8(ascii: "/") {
                if !first {
                    let piece = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    out.append(decoding ? Request.percentDecoded(piece) : String(decoding: piece, as: UTF8.self))
                }
                first = false
                start = index + 1
            }
        }
    }

    /// `%XX` escapes decoded (a malformed one is kept as it is, as libmicrohttpd does); bytes
    /// that are not UTF-8 become U+FFFD.
    static func percentDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if !bytes.contains(UInt8(ascii: "%")) { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first value of a query parameter.
    public func query(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}

/// A name and its value, in the order the message carried them: a header field or a query
/// parameter (one shape, two names).
public struct NameValue: Hashable, Sendable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A query parameter, decoded.
public typealias QueryItem = NameValue
/// A header field (a request's names are lowercased).
public typealias Header = NameValue

/// An HTTP response: status, headers and body.
public struct Response: Sendable {
    public var status: Int
    public var headers: [Header]
    public var body: [UInt8]
    /// A low-cardinality name of the route that answered (`/v1/palettes/{name}`), for metrics.
    public var route: String?
    /// libmicrohttpd's own copy of this response, made once (``preparedForReuse()``) and queued
    /// as it is for every request it answers, as long as the status, headers and body are still
    /// the ones it was made from (``PreparedResponse/matches(_:)``). (Not observers on those
    /// properties: with one, every append to the body or headers copied the whole array.)
    var prepared: PreparedResponse?

    public init(status: Int, headers: [Header] = [], body: [UInt8] = [], route: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.route = route
    }

    public init(status: Int, contentType: String, body: String, route: String? = nil) {
        // Room for the two headers every service response gets besides its type.
        var headers: [Header] = []
        headers.reserveCapacity(3)
        headers.append(Header(name: "Content-Type", value: contentType))
        self.init(status: status, headers: headers, body: Array(body.utf8), route: route)
    }

    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// This response with libmicrohttpd's copy of it made now, once: for a response that is
    /// always the same (a health check, a static file), kept in a `static let` and returned as
    /// it is. Queueing it then costs no copy of its body and no header per request.
    public func preparedForReuse() -> Response {
        var copy = self
        copy.prepared = PreparedResponse(self)
        return copy
    }

    /// Whether this response is queued from a copy made once (``preparedForReuse()``): it was
    /// prepared, and its status, headers and body have not changed since.
    public var isPrepared: Bool { prepared?.matches(self) == true }
}

/// Handles a request; called on libmicrohttpd's I/O threads (inline lane) or on the worker
/// pool, so it must be `Sendable`.
public typealias Handler = @Sendable (Request) -> Response

/// What the server reports about each finished request (for access logs and metrics).
public struct CompletedRequest: Sendable {
    public var method: String
    public var path: String
    /// The method and the request target exactly as the client sent them, bytes and all (for
    /// logs, which must show what arrived without letting it forge a line).
    public var rawMethod: [UInt8] = []
    public var rawTarget: [UInt8] = []
    public var route: String?
    public var status: Int
    public var requestBytes: Int
    public var responseBytes: Int
    /// Seconds from the first byte handled to the response queued.
    public var duration: Double
    public var remoteAddress: String?
    /// False when the client went away or the connection failed before the response was sent.
    public var completed: Bool

    public init(method: String, path: String, route: String?, status: Int, requestBytes: Int, responseBytes: Int,
                duration: Double, remoteAddress: String?, completed: Bool) {
        self.method = method
        self.path = path
        self.route = route
        self.status = status
        self.requestBytes = requestBytes
        self.responseBytes = responseBytes
        self.duration = duration
        self.remoteAddress = remoteAddress
        self.completed = completed
    }
}
