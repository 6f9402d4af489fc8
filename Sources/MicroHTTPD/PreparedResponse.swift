internal import CMicroHTTPD

/// A response made into libmicrohttpd's form once, body copied and headers added, and queued
/// on any number of connections: libmicrohttpd 0.9.75 counts a response's references under the
/// response's own lock (`MHD_queue_response` takes one, `MHD_destroy_response` drops one) and
/// only reads it while sending, so one response may be queued from every I/O thread at once.
///
/// libmicrohttpd copies each header into each response (three allocations apiece) and has no
/// way to share a set of headers between responses: a response whose body changes per request
/// builds its headers per request (``appendHeaders(of:to:)``).
final class PreparedResponse: @unchecked Sendable {
    // Immutable after init; libmicrohttpd synchronizes its own reference count.
    let pointer: OpaquePointer
    let status: UInt32
    /// What it was made from: a response still holding these very arrays compares equal at
    /// once (an array compares its storage first); a changed one (HEAD's emptied body, an added
    /// header) does not, and is built per request.
    private let headers: [Header]
    private let body: [UInt8]

    init?(_ response: Response) {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else { return nil }
        PreparedResponse.appendHeaders(of: response, to: made)
        pointer = made
        status = UInt32(response.status)
        headers = response.headers
        body = response.body
    }

    /// Whether `response` is still the one this was made from.
    func matches(_ response: Response) -> Bool {
        UInt32(truncatingIfNeeded: response.status) == status && response.body == body && response.headers == headers
    }

    deinit {
        MHD_destroy_response(pointer)
    }

    /// Adds a response's headers to libmicrohttpd's response. Each name and value is passed as
    /// the string's own bytes (`withCString`): the implicit String-to-pointer conversion made a
    /// NUL-terminated array of each, two allocations per header.
    static func appendHeaders(of response: Response, to made: OpaquePointer) {
        for header in response.headers {
            header.name.withCString { name in
                header.value.withCString { value in _ = MHD_add_response_header(made, name, value) }
            }
        }
    }
}
