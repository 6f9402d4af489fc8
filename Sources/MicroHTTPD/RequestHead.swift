/// The syntax of a request's head as it arrived on the wire (RFC 9112 §2.2, §3, §5), checked
/// before libmicrohttpd reads it.
///
/// libmicrohttpd 0.9.75 closes a connection whose request line has no space without a status
/// line, reads a line that starts with a NUL as an empty line (so NUL-led garbage is ignored
/// until a timeout), and hides NULs and obs-fold lines from the application. Checking the bytes
/// before it reads them answers each of these 400. What the syntax does not settle (two `Host`
/// fields, conflicting lengths, an unsupported version) is left to libmicrohttpd and to
/// `earlyRejection`, which see every request.
enum RequestHead {
    enum Verdict: Equatable {
        /// A whole head, well-formed, of this many bytes (leading empty lines included).
        case complete(Int)
        /// Well-formed so far; more bytes are needed.
        case incomplete
        /// Not a request head; the detail says why, for the 400.
        case invalid(String)
    }

    /// Checks `bytes` from the start of a connection.
    static func check(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        var i = 0
        let n = bytes.count
        // Empty lines before the request line are ignored (RFC 9112 §2.2), as libmicrohttpd does.
        while i < n {
            if bytes[i] == lf {
                i += 1
            } else if bytes[i] == cr {
                guard i + 1 < n else { return .incomplete }
                guard bytes[i + 1] == lf else { return .invalid(bareCR) }
                i += 2
            } else {
                break
            }
        }
        // request-line = method SP request-target SP HTTP-version (libmicrohttpd, like RFC 9112
        // §3 allows, takes several spaces after the method; the version must follow one space).
        let methodStart = i
        while i < n && isTokenByte(bytes[i]) { i += 1 }
        guard i < n else { return .incomplete }
        guard i > methodStart, bytes[i] == sp else { return .invalid(bytes[i] == 0 ? nulInRequestLine : notARequestLine) }
        while i < n && bytes[i] == sp { i += 1 }
        // The target: what libmicrohttpd and the handler take (other controls and bytes that are
        // not ASCII reach the handler, and the access log escapes them), but no NUL or CR.
        let targetStart = i
        while i < n && bytes[i] != sp && bytes[i] != cr && bytes[i] != lf && bytes[i] != 0 { i += 1 }
        guard i < n else { return .incomplete }
        guard i > targetStart, bytes[i] == sp else {
            switch bytes[i] {
            case 0: return .invalid(nulInRequestLine)
            case cr where i + 1 < n && bytes[i + 1] != lf: return .invalid("the request line contains a CR")
            default: return .invalid(notARequestLine)
            }
        }
        i += 1
        for expected in versionPattern {
            guard i < n else { return .incomplete }
            if expected == digit ? !(0x30...0x39).contains(bytes[i]) : bytes[i] != expected { return .invalid(notARequestLine) }
            i += 1
        }
        switch lineEnd(bytes, i) {
        case .incomplete: return .incomplete
        case .invalid: return .invalid(notARequestLine)
        case .end(let next): i = next
        }
        // field-line = field-name ":" OWS field-value OWS, each ended by CRLF (or a bare LF);
        // an empty line ends the head.
        var first = true
        while true {
            guard i < n else { return .incomplete }
            switch lineEnd(bytes, i) {
            case .incomplete: return .incomplete
            case .end(let next): return .complete(next)
            case .invalid: break
            }
            if bytes[i] == sp || bytes[i] == ht {
                return .invalid(first
                    ? "white space before the first header line is not accepted (RFC 9112 §2.2)"
                    : "a header line starts with white space: folding a field over several lines (obs-fold) is not accepted (RFC 9112 §5.2)")
            }
            first = false
            let nameStart = i
            while i < n && isTokenByte(bytes[i]) { i += 1 }
            guard i < n else { return .incomplete }
            let nameEnd = min(i, nameStart + 60)
            // Made only for a refusal's detail.
            var name: String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self) }
            switch bytes[i] {
            case colon where i > nameStart: break
            case colon: return .invalid("a header line has an empty name")
            case sp, ht: return .invalid("the header name \"\(name)\" is not a token: no white space is allowed in a field name or before its colon (RFC 9112 §5.1)")
            case cr, lf: return .invalid("the header line \"\(name)\" has no colon")
            case 0: return .invalid("a header line contains a NUL (RFC 9110 §5.5)")
            default: return .invalid("the header name \"\(name)\" is not a token (RFC 9110 §5.6.2)")
            }
            i += 1
            // The value: any byte but NUL, and CR only before LF (RFC 9110 §5.5).
            while i < n && bytes[i] != lf && bytes[i] != cr && bytes[i] != 0 { i += 1 }
            guard i < n else { return .incomplete }
            if bytes[i] == 0 { return .invalid("the value of header \"\(name)\" contains a NUL (RFC 9110 §5.5)") }
            switch lineEnd(bytes, i) {
            case .incomplete: return .incomplete
            case .invalid: return .invalid("the value of header \"\(name)\" contains a CR, LF or NUL (RFC 9112 §5.5)")
            case .end(let next): i = next
            }
        }
    }

    /// What the request line breaks of `check`'s rules that libmicrohttpd lets through, for
    /// every request of a connection (the first is checked whole before libmicrohttpd reads it;
    /// a NUL is found by `ParsedHeadWalk`): a method that is not a token, a CR in the target.
    static func requestLineDefect(method: [UInt8], target: [UInt8]) -> String? {
        if !method.allSatisfy(isTokenByte) { return notARequestLine }
        if target.contains(cr) { return "the request line contains a CR" }
        return nil
    }

    private enum LineEnd { case end(Int), incomplete, invalid }

    /// A line's end at `i`: CRLF or a bare LF (RFC 9112 §2.2 lets a recipient take LF alone).
    private static func lineEnd(_ bytes: UnsafeRawBufferPointer, _ i: Int) -> LineEnd {
        guard i < bytes.count else { return .incomplete }
        if bytes[i] == lf { return .end(i + 1) }
        guard bytes[i] == cr else { return .invalid }
        guard i + 1 < bytes.count else { return .incomplete }
        return bytes[i + 1] == lf ? .end(i + 2) : .invalid
    }

    /// tchar (RFC 9110 §5.6.2): letters, digits and !#$%&'*+-.^_`|~.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    private static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A, sp: UInt8 = 0x20, ht: UInt8 = 0x09
    private static let colon: UInt8 = 0x3A, dot: UInt8 = 0x2E
    /// HTTP-version = "HTTP/" DIGIT "." DIGIT, with 0xFF standing for any digit.
    private static let digit: UInt8 = 0xFF
    private static let versionPattern: [UInt8] = Array("HTTP/".utf8) + [digit, dot, digit]
    private static let bareCR = "a CR not followed by LF ends no line (RFC 9112 §2.2)"
    private static let nulInRequestLine = "the request line contains a NUL"
    private static let notARequestLine = "the request does not start with a request line: METHOD TARGET HTTP/1.1 (RFC 9112 §3)"
}
