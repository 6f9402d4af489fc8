/// Swift source as tokens: enough of Swift's lexical grammar to read modifier chains and
/// assignments without being fooled by what strings and comments hold, in one pass over the
/// bytes.
///
/// Why not swift-syntax (mirrored here, 600.0.1 to 603.0.1): it parses Swift exactly, but CI
/// builds from a fresh clone on 2 cores within a 20-minute target, and the package's debug
/// build already takes several minutes. A debug build of SwiftSyntax and SwiftParser 602.0.0
/// alone measured 152 s of CPU here (145 s user, 7 s system, 2.3 GB peak; `/usr/bin/time -v
/// swift build` of a one-file package that parses a string), so at best 76 s more on CI's two
/// cores, more with the test build relinking it, for every run. The usage reader needs only
/// tokens, brackets and a few statement shapes (modifier chains, assignments, calls), which
/// this file and ``SwiftStructure`` give in a few hundred lines. What this lexer knows: identifiers (and `` `escaped` `` ones, `$0`,
/// `#available`), numbers, string literals (`"…"` with escapes and `\(…)` interpolations that
/// nest, `"""` multi-line, raw `#"…"#`), line and nested block comments, brackets (matched, a
/// stray closer is ignored), and operators as runs. Regex literals (`/…/`) are read as
/// operators and what they hold as tokens: a quote inside one may mislead the rest of the line.
struct SwiftTokens {
    enum Kind: Equatable {
        case identifier, number, string, `operator`, punctuation
        case open, close
    }

    struct Token {
        var kind: Kind
        /// The text (an identifier's name without backticks; a string's value when it has no
        /// interpolation, else its text as written, truncated).
        var text: String
        var line: Int
        /// Whether a line break comes before it (a new statement may start there).
        var newlineBefore: Bool
        /// Whether white space (or a comment) comes right before it (`a ? b : c` against `a?.b`).
        var spaceBefore: Bool
        /// For a bracket, the index of the one that closes (or opens) it; nil when unmatched.
        var match: Int?
        /// For a string, whether it interpolates (then ``text`` is not its value).
        var interpolates = false
    }

    var tokens: [Token] = []

    /// The deepest string interpolation read as such; deeper ones are read as text.
    static let maximumInterpolationDepth = 16

    init(_ bytes: [UInt8]) {
        var lexer = Lexer(bytes: bytes)
        tokens = lexer.run()
        // Brackets matched with a stack: an opener left open has no match; a closer that closes
        // nothing, or the wrong kind, is left unmatched (the opener stays open).
        var stack: [Int] = []
        for i in tokens.indices {
            switch tokens[i].kind {
            case .open: stack.append(i)
            case .close:
                if let top = stack.last, Self.closes(tokens[top].text, tokens[i].text) {
                    stack.removeLast()
                    tokens[top].match = i
                    tokens[i].match = top
                }
            default: break
            }
        }
    }

    static func closes(_ open: String, _ close: String) -> Bool {
        (open == "(" && close == ")") || (open == "[" && close == "]") || (open == "{" && close == "}")
    }

    private struct Lexer {
        let bytes: [UInt8]
        var i = 0
        var line = 1
        var newline = true
        var space = true
        var out: [Token] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        func peek(_ offset: Int = 0) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

        mutating func run() -> [Token] {
            while let byte = peek() {
                switch byte {
                case 0x0A:
                    line += 1; newline = true; space = true; i += 1
                case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
                    space = true; i += 1
                case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                    while let b = peek(), b != 0x0A { i += 1; _ = b }
                    space = true
                case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                    blockComment()
                case UInt8(ascii: "\""):
                    string()
                case UInt8(ascii: "#") where startsString():
                    string()
                case UInt8(ascii: "`"):
                    let start = i + 1
                    i += 1
                    while let b = peek(), b != UInt8(ascii: "`"), b != 0x0A { i += 1 }
                    let name = String(decoding: bytes[start..<min(i, bytes.count)], as: UTF8.self)
                    if peek() == UInt8(ascii: "`") { i += 1 }
                    emit(.identifier, name)
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                    i += 1; emit(.open, String(UnicodeScalar(byte)))
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    i += 1; emit(.close, String(UnicodeScalar(byte)))
                case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "@"):
                    i += 1; emit(.punctuation, String(UnicodeScalar(byte)))
                case UInt8(ascii: "."):
                    // `.` alone is member access; `..<` and `...` are operators.
                    if peek(1) == UInt8(ascii: ".") { operatorRun() } else { i += 1; emit(.punctuation, ".") }
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let start = i
                    while let b = peek(), Self.isIdentifierByte(b) || (b == UInt8(ascii: ".") && peek(1).map { (0x30...0x39).contains($0) } == true) { i += 1 }
                    emit(.number, String(decoding: bytes[start..<i], as: UTF8.self))
                case let b where Self.isIdentifierStart(b) || b == UInt8(ascii: "$") || b == UInt8(ascii: "#"):
                    let start = i
                    i += 1
                    while let b = peek(), Self.isIdentifierByte(b) { i += 1 }
                    emit(.identifier, String(decoding: bytes[start..<i], as: UTF8.self))
                default:
                    operatorRun()
                }
            }
            return out
        }

        static func isIdentifierStart(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") || b >= 0x80
        }

        static func isIdentifierByte(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) }

        static func isOperatorByte(_ b: UInt8) -> Bool {
            "=-+!*%<>&|^~?/.".utf8.contains(b)
        }

        mutating func operatorRun() {
            let start = i
            i += 1
            while let b = peek(), Self.isOperatorByte(b) {
                // A comment starts a new run.
                if b == UInt8(ascii: "/"), let next = peek(1), next == UInt8(ascii: "/") || next == UInt8(ascii: "*") { break }
                i += 1
            }
            emit(.operator, String(decoding: bytes[start..<i], as: UTF8.self))
        }

        mutating func emit(_ kind: Kind, _ text: String, interpolates: Bool = false, line tokenLine: Int? = nil) {
            out.append(Token(kind: kind, text: text, line: tokenLine ?? line, newlineBefore: newline, spaceBefore: space, match: nil, interpolates: interpolates))
            newline = false
            space = false
        }

        mutating func blockComment() {
            var depth = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") { depth += 1; i += 2; continue }
                if bytes[i] == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                    depth -= 1; i += 2
                    if depth == 0 { break }
                    continue
                }
                if bytes[i] == 0x0A { line += 1; newline = true }
                i += 1
            }
            space = true
        }

        /// Whether `#…"` starts a raw string here.
        func startsString() -> Bool {
            var j = i
            while j < bytes.count, bytes[j] == UInt8(ascii: "#") { j += 1 }
            return j < bytes.count && bytes[j] == UInt8(ascii: "\"")
        }

        /// A string literal from here: its value (when it does not interpolate) as the token.
        mutating func string() {
            let startLine = line
            var value: [UInt8] = []
            let interpolates = scanString(into: &value, depth: 0)
            emit(.string, interpolates ? String(decoding: value.prefix(200), as: UTF8.self) : String(decoding: value, as: UTF8.self),
                 interpolates: interpolates, line: startLine)
        }

        /// Reads one string literal (raw, multi-line or not), collecting its value; returns whether
        /// it interpolates. Interpolations are skipped with their brackets and nested strings.
        mutating func scanString(into value: inout [UInt8], depth: Int) -> Bool {
            var hashes = 0
            while peek() == UInt8(ascii: "#") { hashes += 1; i += 1 }
            let multiline = peek() == UInt8(ascii: "\"") && peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
            i += multiline ? 3 : 1
            var interpolates = false
            func closesHere(_ lexer: Lexer) -> Bool {
                let quotes = multiline ? 3 : 1
                for k in 0..<quotes where lexer.peek(k) != UInt8(ascii: "\"") { return false }
                for k in 0..<hashes where lexer.peek(quotes + k) != UInt8(ascii: "#") { return false }
                return true
            }
            while let b = peek() {
                if b == UInt8(ascii: "\""), closesHere(self) {
                    i += (multiline ? 3 : 1) + hashes
                    return interpolates
                }
                if b == 0x0A {
                    line += 1
                    if !multiline { return interpolates }  // an unterminated literal ends at the line
                }
                if b == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ peek(1 + $0) == UInt8(ascii: "#") }) {
                    let after = 1 + hashes
                    if peek(after) == UInt8(ascii: "(") {
                        interpolates = true
                        i += after + 1
                        skipInterpolation(depth: depth + 1)
                        continue
                    }
                    if let escaped = peek(after) {
                        value.append(escaped == UInt8(ascii: "n") ? 0x0A : escaped == UInt8(ascii: "t") ? 0x09 : escaped)
                        if escaped == 0x0A { line += 1 }
                        i += after + 1
                        continue
                    }
                }
                value.append(b)
                i += 1
            }
            return interpolates
        }

        /// Past the `)` that closes an interpolation, minding nested brackets, strings and
        /// comments; deeper than ``SwiftTokens/maximumInterpolationDepth`` the text is skipped
        /// by its parentheses alone.
        mutating func skipInterpolation(depth: Int) {
            var parens = 1
            while let b = peek() {
                if b == 0x0A { line += 1 }
                if b == UInt8(ascii: "\""), depth < SwiftTokens.maximumInterpolationDepth {
                    var ignored: [UInt8] = []
                    _ = scanString(into: &ignored, depth: depth)
                    continue
                }
                if b == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                    let saved = newline
                    blockComment()
                    newline = saved
                    continue
                }
                if b == UInt8(ascii: "(") { parens += 1 }
                if b == UInt8(ascii: ")") {
                    parens -= 1
                    if parens == 0 { i += 1; return }
                }
                i += 1
            }
        }
    }
}
