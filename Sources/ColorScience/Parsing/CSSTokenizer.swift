/// The subset of CSS Syntax Level 3 tokenization that color values need, over UTF-8 bytes.
struct CSSToken: Sendable {
    /// What the token is. Names are not copied out of the text: tokens stay small plain values,
    /// and ``CSSTokenizer/identifier(_:)`` and its siblings read a name when one is needed.
    enum Kind: Sendable, Equatable {
        case ident
        case function  // the name is the token without its "(", which is consumed
        case hash  // the digits are the token without its "#"
        case number(Double)
        case percentage(Double)
        case dimension(Double)  // a number and a unit (``CSSTokenizer/unit(_:)`` reads it)
        case comma
        case slash
        case leftParen
        case rightParen
        case delim(UInt8)
        case whitespace
        case end
    }

    var kind: Kind
    // (Kind holds at most one Double, so a token is four machine words and comes back from
    // `next()` in registers; a second payload made every token go through memory.)

    /// UTF-8 byte offset of the token's first byte.
    var offset: Int
    /// Byte length of the token in the input.
    var length: Int
}

struct CSSTokenizer {
    /// The text, borrowed from its string for the duration of one parse.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The byte the next token starts at; a parser that looks ahead saves and restores it.
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads all tokens; comments are dropped (they separate tokens like whitespace).
    static func tokenize(_ bytes: [UInt8]) -> [CSSToken] {
        bytes.withUnsafeBufferPointer { buffer in
            var tokenizer = CSSTokenizer(buffer)
            var tokens: [CSSToken] = []
            while true {
                let token = tokenizer.next()
                tokens.append(token)
                if token.kind == .end { return tokens }
            }
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

    /// `name.lowercased()`, without its cost when there is nothing to lower (the usual case).
    static func asciiLowercased(_ name: String) -> String {
        name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 } ? name.lowercased() : name
    }

    private mutating func skipName() {
        while CSSTokenizer.isName(byte(at: position)) { position += 1 }
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// An identifier's name, as written.
    func identifier(_ token: CSSToken) -> String { text(token.offset..<token.offset + token.length) }

    /// A function's name, lowercased (CSS function names are ASCII case-insensitive).
    func functionName(_ token: CSSToken) -> String {
        CSSTokenizer.asciiLowercased(text(token.offset..<token.offset + token.length - 1))
    }

    /// Whether a function token's name (without its "(") is `name`, ignoring ASCII case, read in
    /// place; `name` is lowercase ASCII.
    func isFunction(_ token: CSSToken, named name: StaticString) -> Bool {
        guard token.kind == .function else { return false }
        return equalsIgnoringASCIICase(token.offset..<token.offset + token.length - 1, name)
    }

    /// Whether an identifier token is `name`, ignoring ASCII case, read in place; `name` is
    /// lowercase ASCII.
    func isIdentifier(_ token: CSSToken, named name: StaticString) -> Bool {
        guard token.kind == .ident else { return false }
        return equalsIgnoringASCIICase(token.offset..<token.offset + token.length, name)
    }

    private func equalsIgnoringASCIICase(_ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for i in 0..<range.count {
            var b = bytes[range.lowerBound + i]
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            if b != expected[i] { return false }
        }
        return true
    }

    /// A hash token's name (the digits of a hex color), without the "#".
    func hashName(_ token: CSSToken) -> String { text(token.offset + 1..<token.offset + token.length) }

    /// A dimension's unit, lowercased.
    func unit(_ token: CSSToken) -> String {
        guard case .dimension = token.kind else { return "" }
        // The unit starts where the number ends: read the number again to find it.
        var reader = CSSTokenizer(bytes)
        reader.position = token.offset
        _ = reader.consumeNumber()
        return CSSTokenizer.asciiLowercased(text(reader.position..<token.offset + token.length))
    }

    private mutating func consumeNumber() -> Double {
        let start = position
        var negative = false
        if bytes[position] == 0x2B || bytes[position] == 0x2D {
            negative = bytes[position] == 0x2D
            position += 1
        }
        // The decimal digits as an integer, and the power of ten to scale it by.
        var mantissa: UInt64 = 0
        var significant = 0
        var scale = 0
        let count = bytes.count
        while position < count {
            let digit = bytes[position] &- 0x30
            guard digit < 10 else { break }
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if mantissa != 0 { significant += 1 }
            } else {
                scale += 1
            }
            position += 1
        }
        if byte(at: position) == 0x2E && CSSTokenizer.isDigit(byte(at: position + 1)) {
            position += 1
            while position < count {
                let digit = bytes[position] &- 0x30
                guard digit < 10 else { break }
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if mantissa != 0 { significant += 1 }
                    scale -= 1
                }
                position += 1
            }
        }
        var exponent = 0
        var exponentOverflow = false
        if byte(at: position) == 0x65 || byte(at: position) == 0x45 {  // e E
            let sign = byte(at: position + 1)
            var exponentStart = -1
            if CSSTokenizer.isDigit(sign) {
                exponentStart = position + 1
            } else if (sign == 0x2B || sign == 0x2D) && CSSTokenizer.isDigit(byte(at: position + 2)) {
                exponentStart = position + 2
            }
            if exponentStart > 0 {
                position = exponentStart
                while let b = byte(at: position), CSSTokenizer.isDigit(b) {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(b &- 0x30) } else { exponentOverflow = true }
                    position += 1
                }
                if sign == 0x2D { exponent = -exponent }
            }
        }
        // Exact when the digits fit in a double's 53 bits and the power of ten is itself exact:
        // one correctly rounded multiplication or division then gives the nearest double.
        let power = scale + exponent
        if !exponentOverflow && significant <= 15 && power >= -22 && power <= 22 {
            var value = Double(mantissa)
            value = power < 0 ? value / CSSTokenizer.powersOfTen[-power] : value * CSSTokenizer.powersOfTen[power]
            return negative ? -value : value
        }
        // Longer or extreme numbers: the standard library's correctly rounded conversion.
        var text = String(decoding: bytes[start..<position], as: UTF8.self)
        if text.hasPrefix("+") { text.removeFirst() }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        return Double(text) ?? .nan
    }

    /// 10⁰ … 10²², every power of ten a double holds exactly.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

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
                skipName()
                return token(.dimension(value))
            }
            return token(.number(value))
        }
        if startsIdentifier(at: position) {
            skipName()
            if byte(at: position) == 0x28 {
                position += 1
                return token(.function)
            }
            return token(.ident)
        }
        position += 1
        switch first {
        case 0x23:  // #
            skipName()
            return token(.hash)
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
