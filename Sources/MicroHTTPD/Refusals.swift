internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Requests the server refuses itself: before the handler (`earlyRejection`, a head
/// libmicrohttpd parsed by hiding part of it), mid-upload (413, 408), or written to the socket
/// directly when libmicrohttpd cannot queue a response.
extension Server {
    /// Refuses a request whose body is still arriving (413 past the limit, 408 past the
    /// deadline). libmicrohttpd 0.9.75 queues a response only before the body or after all of
    /// it (`MHD_queue_response` says no in between), so on plain HTTP the server writes this
    /// small response to the socket itself, then has libmicrohttpd close the connection (which
    /// lingers, so the client reads it). Over TLS the connection is closed without it. When the
    /// sweeper has answered the request already (408), nothing more is written.
    func refuseMidUpload(_ response: Response, state: RequestState, on connection: OpaquePointer?) -> MHD_Result {
        let fd = cmhd_connection_fd(connection)
        guard fd >= 0, configuration.tlsCertificatePEM == nil else {
            record(response, in: state)
            return .NO
        }
        let answeredBefore = self.state.withLock { s -> Bool in
            guard s.phases[fd]?.contains(.answered) != true else { return true }
            _ = answerMidUpload(response, on: fd, locked: &s)
            return false
        }
        record(answeredBefore ? deadlineRefusal() : response, in: state)
        return .NO
    }

    /// The 408 of a request whose headers and body took longer than the deadline to arrive.
    func deadlineRefusal() -> Response {
        configuration.refusal(Refusal(status: 408, title: "Request Timeout", detail: "the request took longer than \(configuration.requestDeadlineSeconds) s to arrive"))
    }

    /// Writes a refusal to a plain-HTTP socket whose body is still arriving, marks the request
    /// `.answered` if all of it went, and has the connection linger when libmicrohttpd closes
    /// it (the caller holds the lock). Whether it was written whole.
    func answerMidUpload(_ response: Response, on fd: Int32, locked s: inout State) -> Bool {
        let whole = Server.writeDirectly(response, to: fd)
        if whole { s.phases[fd, default: []].insert(.answered) }
        if configuration.lingerSeconds > 0 { s.lingerOnClose.insert(fd) }
        return whole
    }

    /// Whether the server answered this request itself while its body arrived (the sweeper's
    /// 408, or a refusal before): then the rest of it is neither read nor answered. `ending`:
    /// the body is complete, and the connection stops counting as uploading, in the same step
    /// as the check so that the sweeper cannot answer a request the handler goes on to serve.
    func wasAnsweredMidUpload(_ fd: Int32, ending: Bool) -> Bool {
        guard fd >= 0 else { return false }
        return self.state.withLock { s in
            if ending { s.phases[fd]?.remove(.uploading) }
            return s.phases[fd]?.contains(.answered) == true
        }
    }

    /// What the access log and the metrics report of a request refused mid-upload.
    func record(_ response: Response, in state: RequestState) {
        state.status = response.status
        state.responseBytes = response.body.count
        state.queuedAt = Monotonic.nanoseconds()
    }

    /// A response as written to the socket by the server itself (not by libmicrohttpd), closing
    /// the connection.
    static func wireBytes(of response: Response) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(Server.reason(response.status))\r\nDate: \(httpDate())\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + response.body
    }

    /// Writes `response` (``wireBytes(of:)``) to the socket without blocking, as much of it as
    /// the socket takes now: these are small answers on connections about to close. Whether
    /// all of it went.
    @discardableResult
    static func writeDirectly(_ response: Response, to fd: Int32) -> Bool {
        let bytes = wireBytes(of: response)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent <= 0 { break }
            offset += sent
        }
        return offset == bytes.count
    }

    /// Now as an HTTP-date (RFC 9110 §5.6.7), as libmicrohttpd writes it.
    static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let count = strftime(buffer.baseAddress!, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
    }

    /// Tells the access log and the metrics of a request the acceptor refused: its first line
    /// as it arrived (method, and the rest as the target; the log escapes both).
    func reportRefusal(of head: UnsafeRawBufferPointer, _ response: Response, remoteAddress: String?, since accepted: ContinuousClock.Instant) {
        guard let onComplete else { return }
        var line = head.drop { $0 == 0x0D || $0 == 0x0A }.prefix { $0 != 0x0D && $0 != 0x0A }.prefix(4096)
        let method = line.prefix { $0 != 0x20 }.prefix(64)
        line = line.dropFirst(method.count).drop { $0 == 0x20 }
        let elapsed = accepted.duration(to: .now)
        var completed = CompletedRequest(method: String(decoding: method, as: UTF8.self), path: "", route: nil, status: response.status,
                                         requestBytes: 0, responseBytes: response.body.count,
                                         duration: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                                         remoteAddress: remoteAddress, completed: true)
        completed.rawMethod = Array(method)
        completed.rawTarget = Array(line)
        onComplete(completed)
    }

    /// Answers as soon as the headers are read; the connection closes after the response, and
    /// lingers first if the client announced a body it may still be sending.
    func refuseEarly(_ response: Response, state: RequestState, on connection: OpaquePointer?) -> MHD_Result {
        if state.announcedBody { lingerOnClose(cmhd_connection_fd(connection)) }
        return queue(response, state: state, on: connection)
    }

    /// A head that libmicrohttpd parsed only by hiding part of it.
    static func refusal(for defect: ParsedHeadWalk.Defect) -> Refusal {
        switch defect {
        case .obsFold:
            Refusal(status: 400, title: "Bad Request", detail: "a header line starts with white space: folding a field over several lines (obs-fold) is not accepted (RFC 9112 §5.2)")
        case .nul(field: nil):
            Refusal(status: 400, title: "Bad Request", detail: "the request line contains a NUL")
        case .nul(field: let name?):
            Refusal(status: 400, title: "Bad Request", detail: "the value of header \"\(name.prefix(60))\" contains a NUL (RFC 9110 §5.5)")
        }
    }

    /// Requests refused as soon as their headers are read.
    func earlyRejection(headers: [Header], isHTTP11: Bool) -> Response? {
        // One pass gathers what the checks below need (names are lowercased already).
        var lengths: [String] = [], encodings: [String] = [], hosts = 0
        var badName: Header?, badValue: Header?
        for field in headers {
            switch field.name {
            case "content-length": lengths.append(field.value)
            case "transfer-encoding": encodings.append(field.value)
            case "host": hosts += 1
            default: break
            }
            if badName == nil && (field.name.isEmpty || !field.name.utf8.allSatisfy(RequestHead.isTokenByte)) { badName = field }
            if badValue == nil && field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) { badValue = field }
        }
        if !lengths.isEmpty && !encodings.isEmpty {
            // RFC 9112 §6.1: a request with both is a smuggling risk behind a proxy.
            return configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: "the request has both Content-Length and Transfer-Encoding; send one"))
        }
        if lengths.count > 1 && Set(lengths).count > 1 {
            return configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: "the request has conflicting Content-Length headers"))
        }
        // RFC 9112 §5: a field name is a token (no white space before the colon, which would
        // otherwise slip "Transfer-Encoding : chunked" past the check above) and a value holds
        // no CR, LF or NUL.
        if let field = badName {
            let detail = field.name.utf8.contains { $0 == 0x20 || $0 == 0x09 } || field.name.isEmpty
                ? "the header name \"\(field.name.prefix(60))\" is not a token: no white space is allowed in a field name or before its colon (RFC 9112 §5.1)"
                : "the header name \"\(field.name.prefix(60))\" is not a token (RFC 9110 §5.6.2)"
            return configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: detail))
        }
        if let field = badValue {
            return configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: "the value of header \"\(field.name.prefix(60))\" contains a CR, LF or NUL (RFC 9112 §5.5)"))
        }
        if hosts > 1 {
            return configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: "the request has \(hosts) Host headers; send one (RFC 9112 §3.2)"))
        }
        if !encodings.isEmpty {
            // Only chunked is implemented, and it must be the one, final coding (RFC 9112 §6.1).
            let codings = encodings.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { String($0).trimmingCharacters(in: " \t").lowercased() }
            if let unknown = codings.first(where: { $0 != "chunked" }) {
                return configuration.refusal(Refusal(status: 501, title: "Not Implemented", detail: "the transfer coding \"\(unknown.prefix(40))\" is not implemented; send the body with Content-Length or as chunked"))
            }
            if codings.count != 1 {
                return configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: "chunked must be applied once, as the only transfer coding (RFC 9112 §6.1)"))
            }
        }
        if isHTTP11 && hosts == 0 {
            return configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: "an HTTP/1.1 request needs a Host header (RFC 9112 §3.2)"))
        }
        if let text = lengths.first {
            guard let length = Int(text.trimmingCharacters(in: " \t")), length >= 0 else {
                return configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: "Content-Length '\(text)' is not a number of bytes"))
            }
            if length > configuration.maximumBodyBytes {
                return configuration.refusal(Refusal(status: 413, title: "Content Too Large", detail: "the body is \(length) bytes; the limit is \(configuration.maximumBodyBytes)"))
            }
        }
        return nil
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
