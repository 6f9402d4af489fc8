@testable import MicroHTTPD
import Testing

/// The first request's head as the acceptor checks it before libmicrohttpd reads it (RFC 9112).
@Suite struct RequestHeadTests {
    static func verdict(_ bytes: [UInt8]) -> RequestHead.Verdict {
        bytes.withUnsafeBytes { RequestHead.check($0) }
    }

    static func verdict(_ text: String) -> RequestHead.Verdict {
        verdict(Array(text.utf8))
    }

    @Test(arguments: [
        "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /healthz HTTP/1.1\nHost: x\n\n",                       // bare LF ends a line (RFC 9112 §2.2)
        "\r\n\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",                   // empty lines before the request line
        "GET  /x HTTP/1.1\r\nHost: x\r\n\r\n",                       // libmicrohttpd takes spaces after the method
        "GET / HTTP/1.0\r\n\r\n",
        "GET / HTTP/2.0\r\nHost: x\r\n\r\n",                         // the version is libmicrohttpd's to answer (505)
        "GET /?q=\u{1b}[2J\u{7} HTTP/1.1\r\nHost: x\r\n\r\n",          // controls in the target reach the escaping log
        "GET /ü HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /v1/contrast HTTP/1.1\r\nHost: x\r\nX-E:\r\nX-T:\tb\t\r\nContent-Length: 2\r\n\r\n{}",
    ])
    func wellFormedHeadsAreComplete(head: String) {
        guard case .complete(let length) = Self.verdict(head) else {
            Issue.record("\(head.debugDescription): \(Self.verdict(head))")
            return
        }
        #expect(length == head.utf8.count - (head.hasSuffix("{}") ? 2 : 0))
    }

    @Test(arguments: ["", "\r", "G", "GET", "GET /x", "GET /x HTTP/1.", "GET /x HTTP/1.1\r", "GET /x HTTP/1.1\r\nHost: x",
                      "GET /x HTTP/1.1\r\nHost: x\r\n", "GET /x HTTP/1.1\r\nHost: x\r\n\r"])
    func partHeadsAreIncomplete(head: String) {
        #expect(Self.verdict(head) == .incomplete)
    }

    @Test(arguments: [
        ("HELLO\r\n\r\n", "the request does not start with a request line: METHOD TARGET HTTP/1.1 (RFC 9112 §3)"),
        ("\u{0}\u{1}garbage\r\n\r\n", "the request line contains a NUL"),
        ("GET /x\u{0}y HTTP/1.1\r\nHost: x\r\n\r\n", "the request line contains a NUL"),
        ("GET /x\ry HTTP/1.1\r\nHost: x\r\n\r\n", "the request line contains a CR"),
        ("GET /x  HTTP/1.1\r\n\r\n", "the request does not start with a request line: METHOD TARGET HTTP/1.1 (RFC 9112 §3)"),
        ("GET /x HTTP/1.1 \r\n\r\n", "the request does not start with a request line: METHOD TARGET HTTP/1.1 (RFC 9112 §3)"),
        ("GET /x\r\n\r\n", "the request does not start with a request line: METHOD TARGET HTTP/1.1 (RFC 9112 §3)"),
        ("\rGET / HTTP/1.1\r\n\r\n", "a CR not followed by LF ends no line (RFC 9112 §2.2)"),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", "a header line starts with white space: folding a field over several lines (obs-fold) is not accepted (RFC 9112 §5.2)"),
        ("GET / HTTP/1.1\r\n\tHost: x\r\n\r\n", "white space before the first header line is not accepted (RFC 9112 §2.2)"),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", "the value of header \"X-A\" contains a NUL (RFC 9110 §5.5)"),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}\n\r\n", "the value of header \"X-A\" contains a NUL (RFC 9110 §5.5)"),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", "the value of header \"X-A\" contains a CR, LF or NUL (RFC 9112 §5.5)"),
        ("GET / HTTP/1.1\r\nHost: x\r\n\u{0}\r\n\r\n", "a header line contains a NUL (RFC 9110 §5.5)"),
        ("GET / HTTP/1.1\r\nTransfer-Encoding : chunked\r\n\r\n", "the header name \"Transfer-Encoding\" is not a token: no white space is allowed in a field name or before its colon (RFC 9112 §5.1)"),
        ("GET / HTTP/1.1\r\nX(A): b\r\n\r\n", "the header name \"X\" is not a token (RFC 9110 §5.6.2)"),
        ("GET / HTTP/1.1\r\n: b\r\n\r\n", "a header line has an empty name"),
        ("GET / HTTP/1.1\r\nHost x\r\n\r\n", "the header name \"Host\" is not a token: no white space is allowed in a field name or before its colon (RFC 9112 §5.1)"),
        ("GET / HTTP/1.1\r\nHost\r\n\r\n", "the header line \"Host\" has no colon"),
    ])
    func malformedHeadsAreRefusedWithTheReason(head: String, detail: String) {
        #expect(Self.verdict(head) == .invalid(detail))
    }

    /// What is wrong is refused as soon as it arrives, before the rest of the head.
    @Test func garbageIsRefusedBeforeItsLineEnds() {
        #expect(Self.verdict([0, 1]) == .invalid("the request line contains a NUL"))
        #expect(Self.verdict("GET / HTTP/1.1\r\nX-A: a\u{0}") == .invalid("the value of header \"X-A\" contains a NUL (RFC 9110 §5.5)"))
        #expect(Self.verdict("GET / HTTP/1.1\r\nX-A: a\r\n ") == .invalid("a header line starts with white space: folding a field over several lines (obs-fold) is not accepted (RFC 9112 §5.2)"))
    }

    /// Every prefix of a well-formed head is incomplete, never refused (the acceptor looks again
    /// at each arrival of more bytes).
    @Test func everyPrefixOfAGoodHeadWaits() {
        let head = Array("\r\nPOST /v1/contrast?x=1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-E:\r\n\r\n".utf8)
        for end in 0..<head.count {
            #expect(Self.verdict(Array(head[..<end])) == .incomplete, "prefix of \(end) bytes")
        }
        #expect(Self.verdict(head) == .complete(head.count))
    }
}
