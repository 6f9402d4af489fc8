internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Keys and values with their lengths, so a decoded `%00` stays in the value instead of
/// silently cutting it short (a name or color would otherwise be judged on a prefix). The
/// items go straight into the request state's array (`cls`), whose storage is kept from one
/// request of the connection to the next.
private let collectQueryItem: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key else { return .YES }
    let items = cls.assumingMemoryBound(to: [QueryItem].self)
    items.pointee.append(QueryItem(name: text(key, keySize), value: value.map { text($0, valueSize) } ?? ""))
    return .YES
}

/// Header fields with their names lowercased as they are read (ASCII names, the usual case,
/// without a second String), each also walked against libmicrohttpd's buffer (`ParsedHeadWalk`).
private struct HeaderCollection {
    var headers: [Header]
    var walk: ParsedHeadWalk?
    var summary = HeaderSummary()
}

/// What `earlyRejection` looks at, noted from the fields' bytes as they are collected: a
/// request with one Host, no Content-Length or Transfer-Encoding, and nothing odd in its
/// fields (the usual GET) has nothing for it to refuse, and skips it.
struct HeaderSummary {
    var hosts = 0
    /// A Content-Length or Transfer-Encoding field.
    var framing = false
    /// A field name that is not a token, or a value with a CR, LF or NUL.
    var odd = false

    /// Whether `earlyRejection` may refuse the request.
    var needsChecking: Bool { framing || odd || hosts != 1 }
}

private let collectHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key else { return .YES }
    let collection = cls.assumingMemoryBound(to: HeaderCollection.self)
    let name = key.withMemoryRebound(to: UInt8.self, capacity: keySize) { bytes -> String in
        let raw = UnsafeBufferPointer(start: bytes, count: keySize)
        guard raw.allSatisfy({ $0 < 0x80 }) else { return String(decoding: raw, as: UTF8.self).lowercased() }
        return String(unsafeUninitializedCapacity: keySize) { out in
            for i in 0..<keySize { out[i] = raw[i] &+ (raw[i] >= 0x41 && raw[i] <= 0x5A ? 0x20 : 0) }
            return keySize
        }
    }
    key.withMemoryRebound(to: UInt8.self, capacity: keySize) { bytes in
        let raw = UnsafeBufferPointer(start: bytes, count: keySize)
        if raw.isEmpty || !raw.allSatisfy(RequestHead.isTokenByte) { collection.pointee.summary.odd = true }
    }
    if let value, valueSize > 0 {
        value.withMemoryRebound(to: UInt8.self, capacity: valueSize) { bytes in
            if UnsafeBufferPointer(start: bytes, count: valueSize).contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
                collection.pointee.summary.odd = true
            }
        }
    }
    switch keySize {
    case 4 where name == "host": collection.pointee.summary.hosts += 1
    case 14 where name == "content-length", 17 where name == "transfer-encoding": collection.pointee.summary.framing = true
    default: break
    }
    collection.pointee.headers.append(Header(name: name, value: value.map { text($0, valueSize) } ?? ""))
    collection.pointee.walk?.field(name: key, nameSize: keySize, value: value, valueSize: valueSize)
    return .YES
}

private func text(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
    pointer.withMemoryRebound(to: UInt8.self, capacity: count) { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
}

/// The request's query parameters, into `items` (emptied first, its storage kept).
private func collectQuery(_ connection: OpaquePointer?, into items: inout [QueryItem]) {
    items.removeAll(keepingCapacity: true)
    _ = withUnsafeMutablePointer(to: &items) { MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, collectQueryItem, $0) }
}

/// The request's header fields, into `headers` (emptied first, its storage kept), what
/// libmicrohttpd hid of its head (nil: nothing), and what `earlyRejection` looks at.
private func collectHeaders(_ connection: OpaquePointer?, into headers: inout [Header], walk: ParsedHeadWalk?) -> (ParsedHeadWalk.Defect?, HeaderSummary) {
    var collection = HeaderCollection(headers: [], walk: walk)
    swap(&collection.headers, &headers)
    collection.headers.removeAll(keepingCapacity: true)
    collection.headers.reserveCapacity(12)  // room for a usual request's fields, so it does not grow
    _ = withUnsafeMutablePointer(to: &collection) { MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, $0) }
    swap(&collection.headers, &headers)
    return (collection.walk?.finish(), collection.summary)
}

/// The client's address as text, read into a buffer on the stack.
func clientAddress(_ connection: OpaquePointer?) -> String? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        cmhd_client_address(connection, buffer.baseAddress, buffer.count).map { String(cString: $0) }
    }
}

/// libmicrohttpd's access handler: a C function that captures nothing; the server comes in
/// through `cls` and the request's state through `req_cls`.
let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, requestContext in
    guard let cls, let requestContext, let uploadDataSize else { return .NO }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(connection: connection, url: url, method: method, version: version,
                         uploadData: uploadData, uploadDataSize: uploadDataSize, requestContext: requestContext)
}

/// The context of a request's connection (nil only if libmicrohttpd did not report it started).
func connectionContext(_ connection: OpaquePointer?) -> ConnectionContext? {
    cmhd_socket_context(connection).map { Unmanaged<ConnectionContext>.fromOpaque($0).takeUnretainedValue() }
}

/// Connections opening and closing: the deadline sweeper's bookkeeping, and each connection's
/// context (released when it closes).
let connectionNotifier: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls else { return }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    let fd = cmhd_connection_fd(connection)
    if code == .CONNECTION_NOTIFY_STARTED {
        let context = ConnectionContext(address: clientAddress(connection), addressCount: server.addressCount(of: fd))
        socketContext?.pointee = Unmanaged.passRetained(context).toOpaque()
        server.connectionStarted(fd)
    } else {
        if let raw = socketContext?.pointee {
            socketContext?.pointee = nil
            Unmanaged<ConnectionContext>.fromOpaque(raw).release()
        }
        server.connectionClosed(fd)
    }
}

/// The request line is read: keep its target as sent. What this returns is the request's
/// `req_cls`, released by the completion callback (libmicrohttpd calls it for every request
/// this saw, even one refused before the access handler runs).
let uriLogger: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, connection in
    if let cls { Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().requestLineRead(cmhd_connection_fd(connection)) }
    let state = connectionContext(connection)?.nextRequest() ?? RequestState()
    state.keepTarget(uri)
    return Unmanaged.passRetained(state).toOpaque()
}

let completedHandler: MHD_RequestCompletedCallback = { cls, connection, requestContext, termination in
    guard let cls, let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    let fd = cmhd_connection_fd(connection)
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    // The sweeper answered 408 and the client then went quiet until the connection was cut.
    if state.begun, state.status == 0, state.announcedBody, server.wasAnsweredMidUpload(fd, ending: false) {
        server.record(server.deadlineRefusal(), in: state)
    }
    server.connectionIdle(fd)
    guard state.begun else { return }
    server.requestFinished()
    guard let onComplete = server.onComplete else { return }
    let seconds = Monotonic.seconds(from: state.started, to: state.queuedAt != 0 ? state.queuedAt : Monotonic.nanoseconds())
    var completed = CompletedRequest(method: state.method, path: state.path, route: state.route, status: state.status,
                                     requestBytes: state.bodyBytes, responseBytes: state.responseBytes, duration: seconds,
                                     remoteAddress: state.remoteAddress,
                                     completed: termination == .REQUEST_TERMINATED_COMPLETED_OK)
    completed.rawMethod = state.rawMethod
    completed.rawTarget = state.rawTarget
    onComplete(completed)
}

extension Server {
    func handle(connection: OpaquePointer?, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
                uploadDataSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        // First call: headers are in. Set up the request's state and refuse what is refused early.
        let existing = requestContext.pointee.map { Unmanaged<RequestState>.fromOpaque($0).takeUnretainedValue() }
        guard let state = existing, state.begun else {
            return begin(existing, connection: connection, url: url, method: method, version: version, requestContext: requestContext)
        }
        // A worker finished: libmicrohttpd resumed the connection and calls again.
        if let pending = state.pending {
            state.pending = nil
            return queue(pending, state: state, on: connection)
        }
        let size = uploadDataSize.pointee
        if state.announcedBody, wasAnsweredMidUpload(cmhd_connection_fd(connection), ending: size == 0) {
            record(deadlineRefusal(), in: state)
            uploadDataSize.pointee = 0
            return .NO
        }
        if size > 0 {
            return receive(uploadData, size: size, uploadDataSize: uploadDataSize, state: state, on: connection)
        }
        // Last call: the whole request is in (no longer uploading: see above).
        return dispatch(state, version: version, on: connection)
    }

    /// The first call for a request, its head read: its state set up (a kept-alive
    /// connection's `existing` one reused), its headers collected, and what is refused before
    /// the body refused.
    private func begin(_ existing: RequestState?, connection: OpaquePointer?, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                       version: UnsafePointer<CChar>?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let state = existing ?? RequestState()
        state.begun = true
        if let method {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(method).assumingMemoryBound(to: UInt8.self), count: strlen(method))
            state.rawMethod.append(contentsOf: bytes)
            state.method = String(decoding: bytes, as: UTF8.self)
        }
        state.path = url.map { String(cString: $0) } ?? ""
        let context = connectionContext(connection)
        // Chosen first, then stored: a store under a branch kept its key path (RequestState's
        // fields are reached through one) as a run-time object instead of a field's offset.
        let remoteAddress = context == nil ? clientAddress(connection) : context?.address
        state.remoteAddress = remoteAddress
        if existing == nil { requestContext.pointee = Unmanaged.passRetained(state).toOpaque() }
        requestStarted()
        headersRead(cmhd_connection_fd(connection))
        var walk: ParsedHeadWalk?
        if let method, let version {
            walk = ParsedHeadWalk(method: method, url: url, targetLength: existing == nil ? nil : state.rawTarget.count,
                                  version: version, headerSize: cmhd_request_header_size(connection))
        }
        let (defect, summary) = collectHeaders(connection, into: &state.headers, walk: walk)
        state.announcedBody = summary.framing && state.headers.contains { ($0.name == "content-length" && $0.value.trimmingCharacters(in: " \t") != "0") || $0.name == "transfer-encoding" }
        // Answering before the body makes libmicrohttpd close the connection: right for
        // every refusal here. The client may still be sending: the close lingers.
        if isOverConnectionLimit {
            var busy = configuration.refusal(Refusal(status: 503, title: "Service Unavailable", detail: "the server has more than \(connectionLimit) connections open; retry shortly"))
            busy.headers.append(Header(name: "Retry-After", value: "1"))
            return refuseEarly(busy, state: state, on: connection)
        }
        if context?.addressCount.map(isOverAddressLimit) ?? isOverAddressLimit(state.remoteAddress) {
            var busy = configuration.refusal(Refusal(status: 503, title: "Service Unavailable", detail: "this client address has more than \(configuration.perAddressConnectionLimit) connections open; close some or retry shortly"))
            busy.headers.append(Header(name: "Retry-After", value: "1"))
            return refuseEarly(busy, state: state, on: connection)
        }
        if let defect {
            return refuseEarly(configuration.refusal(Server.refusal(for: defect)), state: state, on: connection)
        }
        if let detail = RequestHead.requestLineDefect(method: state.rawMethod, target: state.rawTarget) {
            return refuseEarly(configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: detail)), state: state, on: connection)
        }
        if summary.needsChecking, let rejection = earlyRejection(headers: state.headers, isHTTP11: version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false) {
            return refuseEarly(rejection, state: state, on: connection)
        }
        if state.announcedBody { startUploading(cmhd_connection_fd(connection)) }
        return .YES
    }

    /// A piece of the body, `size` bytes at `uploadData`: kept, unless it takes the body over
    /// its limit or the request past its deadline.
    private func receive(_ uploadData: UnsafePointer<CChar>?, size: Int, uploadDataSize: UnsafeMutablePointer<Int>,
                         state: RequestState, on connection: OpaquePointer?) -> MHD_Result {
        state.bodyBytes += size
        if state.body.count + size > configuration.maximumBodyBytes {
            // Answer now: a chunked body (whose length nobody announced) is not read to its
            // end first. The refusal closes the connection, so no call follows.
            state.body = []
            uploadDataSize.pointee = 0
            return refuseMidUpload(configuration.refusal(Refusal(status: 413, title: "Content Too Large", detail: "the body is larger than the limit of \(configuration.maximumBodyBytes) bytes")), state: state, on: connection)
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { pointer in
                state.body.append(contentsOf: UnsafeBufferPointer(start: pointer, count: size))
            }
        }
        uploadDataSize.pointee = 0
        if exceededDeadline(state) {
            return refuseMidUpload(deadlineRefusal(), state: state, on: connection)
        }
        return .YES
    }

    /// The whole request is in: answered on the I/O thread (the inline lane) or handed to the
    /// pool, the connection suspended until a worker has the response.
    private func dispatch(_ state: RequestState, version: UnsafePointer<CChar>?, on connection: OpaquePointer?) -> MHD_Result {
        collectQuery(connection, into: &state.query)
        Request.appendSegments(path: state.path, target: state.target, to: &state.segments)
        var request = Request(method: state.method, path: state.path, target: state.target, segments: state.segments,
                              query: state.query, lowercasedHeaders: state.headers, body: state.body,
                              version: version.map { strcmp($0, "HTTP/1.1") == 0 ? "HTTP/1.1" : String(cString: $0) } ?? "HTTP/1.1",
                              remoteAddress: state.remoteAddress)
        state.body = []
        let placement = configuration.lane(request)
        guard placement.lane == .pool, let connection else {
            return queue(handler(request), state: state, on: connection)
        }
        // The pool lane: the connection is suspended (libmicrohttpd stops polling it) until a
        // worker has the response; the I/O thread goes on serving other connections.
        let cancellation = Cancellation()
        request.cancellation = cancellation
        let job = Job(request: request, state: state, connection: connection, socket: cmhd_connection_fd(connection), cancellation: cancellation, route: placement.route)
        if pool.submit(job, accepted: { MHD_suspend_connection(connection) }) { return .YES }
        var busy = configuration.refusal(Refusal(status: 503, title: "Service Unavailable", detail: "the server is busy: \(pool.workers) worker\(pool.workers == 1 ? " is" : "s are") computing and \(pool.queueLimit) request\(pool.queueLimit == 1 ? " is" : "s are") waiting; retry shortly"))
        busy.headers.append(Header(name: "Retry-After", value: "1"))
        busy.route = placement.route
        return queue(busy, state: state, on: connection)
    }

    func exceededDeadline(_ state: RequestState) -> Bool {
        Monotonic.seconds(from: state.started, to: Monotonic.nanoseconds()) > configuration.requestDeadlineSeconds
    }

    func queue(_ response: Response, state: RequestState, on connection: OpaquePointer?) -> MHD_Result {
        state.status = response.status
        state.responseBytes = response.body.count
        state.route = response.route
        state.queuedAt = Monotonic.nanoseconds()
        // After a 400 nothing more on the connection is read as a request: the framing is in
        // doubt, and what follows could be a request smuggled past a proxy.
        let closes = isDraining || response.status == 400
        if let prepared = response.prepared, !closes, prepared.matches(response) {
            return MHD_queue_response(connection, prepared.status, prepared.pointer)
        }
        return response.body.withUnsafeBytes { bytes -> MHD_Result in
            let pointer = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
            guard let mhdResponse = MHD_create_response_from_buffer(bytes.count, pointer, .RESPMEM_MUST_COPY) else { return .NO }
            defer { MHD_destroy_response(mhdResponse) }
            PreparedResponse.appendHeaders(of: response, to: mhdResponse)
            if closes { _ = MHD_add_response_header(mhdResponse, "Connection", "close") }
            return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        }
    }
}
