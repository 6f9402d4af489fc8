/// The subset of CSS Syntax Level 3 tokenization that color values need, over UTF-8 bytes.
struct CSSToken: Sendable {
    enum Kind: Sendable, Equatable {
        case ident(String)
        case function(String)  // name, lowercased; the "(" is consumed
        case hash(String)
        case number(Double)
        case percentage(Double)
        case dimension(Double, unit: String)  // unit lowercased
        case comma
        case slash
        case leftParen
        case rightParen
        case delim(UInt8)
        case whitespace
        case end
    }

    var kind: Kind
    /// UTF-8 byte offset of the token's first byte.
    var offset: Int
    /// Byte length of the token in the input.
    var length: Int
}

struct CSSTokenizer {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads all tokens; comments are dropped (they separate tokens like whitespace).
    static func tokenize(_ bytes: [UInt8]) -> [CSSToken] {
        var tokenizer = CSSTokenizer(bytes)
        var tokens: [CSSToken] = []
        while true {
            let token = tokenizer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private static func isDigit(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return b >= 0x30 && b <= 0x39
    }

    private static func isNameStart(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b >= 0x80
    }

    private static func isName(_ b: UInt8?) -> Bool {
        isNameStart(b) || isDigit(b) || b == 0x2D
    }

    private static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }

    private func startsIdentifier(at index: Int) -> Bool {
        let first = byte(at: index)
        if first == 0x2D {  // "-"
            let second = byte(at: index + 1)
            return CSSTokenizer.isNameStart(second) || second == 0x2D
        }
        return CSSTokenizer.isNameStart(first)
    }

    private func startsNumber(at index: Int) -> Bool {
        let first = byte(at: index)
        if first == 0x2B || first == 0x2D {  // + -
            let second = byte(at: index + 1)
            if CSSTokenizer.isDigit(second) { return true }
            return second == 0x2E && CSSTokenizer.isDigit(byte(at: index + 2))
        }
        if first == 0x2E { return CSSTokenizer.isDigit(byte(at: index + 1)) }
        return CSSTokenizer.isDigit(first)
    }

    private mutating func consumeName() -> String {
        let start = position
        while CSSTokenizer.isName(byte(at: position)) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func consumeNumber() -> Double {
        let start = position
        if bytes[position] == 0x2B || bytes[position] == 0x2D { position += 1 }
        while CSSTokenizer.isDigit(byte(at: position)) { position += 1 }
        if byte(at: position) == 0x2E && CSSTokenizer.isDigit(byte(at: position + 1)) {
            position += 1
            while CSSTokenizer.isDigit(byte(at: position)) { position += 1 }
        }
        if byte(at: position) == 0x65 || byte(at: position) == 0x45 {  // e E
            let sign = byte(at: position + 1)
            if CSSTokenizer.isDigit(sign) {
                position += 1
            } else if (sign == 0x2B || sign == 0x2D) && CSSTokenizer.isDigit(byte(at: position + 2)) {
                position += 2
            }
            if position > start && CSSTokenizer.isDigit(byte(at: position)) {
                while CSSTokenizer.isDigit(byte(at: position)) { position += 1 }
            }
        }
        var text = String(decoding: bytes[start..<position], as: UTF8.self)
        if text.hasPrefix("+") { text.removeFirst() }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        return Double(text) ?? .nan
    }

    mutating func next() -> CSSToken {
        let start = position
        func token(_ kind: CSSToken.Kind) -> CSSToken {
            CSSToken(kind: kind, offset: start, length: position - start)
        }
        guard let first = byte(at: position) else { return token(.end) }

        // Whitespace and comments collapse into one whitespace token.
        if CSSTokenizer.isWhitespace(first) || (first == 0x2F && byte(at: position + 1) == 0x2A) {
            while let b = byte(at: position) {
                if CSSTokenizer.isWhitespace(b) {
                    position += 1
                } else if b == 0x2F && byte(at: position + 1) == 0x2A {
                    position += 2
                    while position < bytes.count && !(bytes[position] == 0x2A && byte(at: position + 1) == 0x2F) {
                        position += 1
                    }
                    position = min(bytes.count, position + 2)
                } else {
                    break
                }
            }
            return token(.whitespace)
        }
        if startsNumber(at: position) {
            let value = consumeNumber()
            if byte(at: position) == 0x25 {
                position += 1
                return token(.percentage(value))
            }
            if startsIdentifier(at: position) {
                return token(.dimension(value, unit: consumeName().lowercased()))
            }
            return token(.number(value))
        }
        if startsIdentifier(at: position) {
            let name = consumeName()
            if byte(at: position) == 0x28 {
                position += 1
                return token(.function(name.lowercased()))
            }
            return token(.ident(name))
        }
        position += 1
        switch first {
        case 0x23:  // #
            return token(.hash(consumeName()))
        case 0x2C: return token(.comma)
        case 0x2F: return token(.slash)
        case 0x28: return token(.leftParen)
        case 0x29: return token(.rightParen)
        default:
            // Keep multi-byte UTF-8 characters whole, so offsets point at their first byte.
            while let b = byte(at: position), b & 0xC0 == 0x80 { position += 1 }
            return token(.delim(first))
        }
    }
}
