/// A token of CSS Syntax Level 3 (§4), over UTF-8 bytes: the one tokenizer of the package, for a
/// color value (``CSSColor``, ``Gradient``) and for a whole stylesheet (PaletteAudit's stylesheet
/// reader), so both split text where a browser does.
package struct CSSToken: Sendable {
    /// What the token is. Names are not copied out of the text: tokens stay small plain values,
    /// and ``CSSTokenizer/identifier(_:)`` and its siblings read a name when one is needed.
    package enum Kind: Sendable, Equatable {
        case ident
        case function  // the name is the token without its "(", which is consumed
        case atKeyword  // `@media`: the name is the token without its "@"
        case hash  // the digits are the token without its "#"
        case string  // quotes included; a string a newline cuts short (a bad string) too
        case url  // an unquoted `url(…)`, up to and including its ")"
        case number(Double)
        case percentage(Double)
        case dimension(Double)  // a number and a unit (``CSSTokenizer/unit(_:)`` reads it)
        case comma
        case slash
        case colon
        case semicolon
        case leftParen
        case rightParen
        case leftBracket
        case rightBracket
        case leftBrace
        case rightBrace
        case cdo  // `<!--`
        case cdc  // `-->`
        case delim(UInt8)
        case whitespace
        case end
    }

    package var kind: Kind
    // (Kind holds at most one Double, so a token is four machine words and comes back from
    // `next()` in registers; a second payload made every token go through memory.)

    /// UTF-8 byte offset of the token's first byte.
    package var offset: Int
    /// Byte length of the token in the input.
    package var length: Int

    /// The byte offset just past the token.
    package var end: Int { offset + length }
}

/// Reads ``CSSToken``s one at a time from borrowed bytes.
///
/// Escapes (`\72 gb`, `\:`) stay inside the names they are part of, as written: a reader compares
/// names as written, so an escaped name is never mistaken for a plain one.
package struct CSSTokenizer {
    /// What a comment is. CSS Syntax drops comments; a color value reads one as whitespace
    /// (`rgb(1/**/2/**/3)` has three channels), a stylesheet drops it (`html/**/.dark` is one
    /// compound selector, as in a browser).
    package enum Comments: Sendable {
        case whitespace
        case dropped
    }

    /// The text, borrowed from its string for the duration of one parse.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// The byte the next token starts at; a parser that looks ahead saves and restores it.
    package var position = 0
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads all tokens up to the end of the bytes (the array ends where the text does: no
    /// ``CSSToken/Kind/end`` token).
    package static func tokenize(_ bytes: [UInt8], comments: Comments = .whitespace) -> [CSSToken] {
        bytes.withUnsafeBufferPointer { buffer in
            var tokenizer = CSSTokenizer(buffer)
            var tokens: [CSSToken] = []
            while true {
                let token = tokenizer.next()
                if token.kind == .end { return tokens }
                // Dropped, a comment with no whitespace around it leaves nothing; with some, the
                // whitespace token stays. (Decided here, not in next(), which color values use.)
                if comments == .dropped, token.kind == .whitespace, !tokenizer.hasWhitespaceOutsideComments(token) { continue }
                tokens.append(token)
            }
        }
    }

    func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    static func isDigit(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return b >= 0x30 && b <= 0x39
    }

    static func isNameStart(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b >= 0x80
    }

    static func isName(_ b: UInt8?) -> Bool {
        isNameStart(b) || isDigit(b) || b == 0x2D
    }

    /// Whether a byte may be part of a name (a letter, digit, `-`, `_` or any non-ASCII byte).
    package static func isNameByte(_ b: UInt8) -> Bool { isName(b) }

    /// Where an escape whose `\` is at `backslash` ends: past the escaped character, or past up
    /// to six hex digits and one whitespace after them (in a name, a `\` at the end stands alone).
    package static func endOfEscape(_ bytes: [UInt8], at backslash: Int) -> Int {
        var i = backslash + 1
        guard i < bytes.count else { return i }
        guard isHexDigit(bytes[i]) else { return i + 1 }
        var digits = 0
        while i < bytes.count, digits < 6, isHexDigit(bytes[i]) { i += 1; digits += 1 }
        if i < bytes.count, isWhitespace(bytes[i]) {
            i += bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
        }
        return i
    }

    /// A name with its escapes replaced by what they stand for, as CSS Syntax consumes an ident:
    /// `--c\6f lor` and `--c\olor` are `--color` (up to six hex digits and one whitespace after
    /// them, or one escaped character; zero, a surrogate or past U+10FFFF is U+FFFD). Names
    /// that a browser compares as equal (custom properties) compare equal after this.
    package static func unescapedName(_ name: some StringProtocol) -> String {
        guard name.utf8.contains(0x5C) else { return String(name) }
        let bytes = Array(name.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x5C, i + 1 < bytes.count, !isNewline(bytes[i + 1]) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            i += 1
            guard isHexDigit(bytes[i]) else {
                out.append(bytes[i])  // an escaped character (its continuation bytes follow as they are)
                i += 1
                continue
            }
            var value: UInt32 = 0, digits = 0
            while i < bytes.count, digits < 6, isHexDigit(bytes[i]) {
                let b = bytes[i] | 0x20
                value = value * 16 + UInt32(b <= 0x39 ? b - 0x30 : b - 0x61 + 10)
                i += 1
                digits += 1
            }
            if i < bytes.count, isWhitespace(bytes[i]) {
                i += bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
            }
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            out.append(contentsOf: String(Character(scalar ?? "\u{FFFD}")).utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }

    static func isNewline(_ b: UInt8?) -> Bool {
        b == 0x0A || b == 0x0D || b == 0x0C
    }

    /// Whether a valid escape starts at `index`: a `\` not followed by a newline or the end.
    func startsEscape(at index: Int) -> Bool {
        byte(at: index) == 0x5C && index + 1 < bytes.count && !CSSTokenizer.isNewline(bytes[index + 1])
    }

    func startsIdentifier(at index: Int) -> Bool {
        let first = byte(at: index)
        if first == 0x2D {  // "-"
            let second = byte(at: index + 1)
            return CSSTokenizer.isNameStart(second) || second == 0x2D || startsEscape(at: index + 1)
        }
        return CSSTokenizer.isNameStart(first) || (first == 0x5C && startsEscape(at: index))
    }

    func startsNumber(at index: Int) -> Bool {
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
    package static func asciiLowercased(_ name: String) -> String {
        name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 } ? name.lowercased() : name
    }

    /// Past a name: name bytes and escapes (CSS Syntax §4.3.11).
    mutating func skipName() {
        while true {
            if CSSTokenizer.isName(byte(at: position)) {
                position += 1
            } else if startsEscape(at: position) {
                skipEscape()
            } else {
                return
            }
        }
    }

    /// Past an escape whose `\` is at ``position``: the escaped character, or up to six hex
    /// digits and one whitespace after them.
    @inline(never)
    mutating func skipEscape() {
        position += 2
        guard CSSTokenizer.isHexDigit(bytes[position - 1]) else {
            // Keep a multi-byte character whole.
            while let b = byte(at: position), b & 0xC0 == 0x80 { position += 1 }
            return
        }
        var digits = 1
        while digits < 6, let b = byte(at: position), CSSTokenizer.isHexDigit(b) {
            position += 1
            digits += 1
        }
        if let b = byte(at: position), CSSTokenizer.isWhitespace(b) {
            // "\r\n" after a hex escape is one whitespace.
            position += b == 0x0D && byte(at: position + 1) == 0x0A ? 2 : 1
        }
    }

    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x66)
    }

    /// Past one comment whose `/*` is at ``position`` (to the end of the text when it is not
    /// closed).
    mutating func skipComment() {
        position += 2
        while position < bytes.count && !(bytes[position] == 0x2A && byte(at: position + 1) == 0x2F) {
            position += 1
        }
        position = min(bytes.count, position + 2)
    }

    package mutating func next() -> CSSToken {
        let start = position
        guard let first = byte(at: position) else { return CSSToken(kind: .end, offset: start, length: 0) }
        // The tokens that color values are made of are checked first; the rest of CSS Syntax
        // (strings, at-keywords, blocks) is sorted out among the single bytes at the end, and
        // what is rare in a color value is kept out of line, so this stays small.

        // Whitespace and comments collapse into one whitespace token.
        if CSSTokenizer.isWhitespace(first) || (first == 0x2F && byte(at: position + 1) == 0x2A) {
            while let b = byte(at: position) {
                if CSSTokenizer.isWhitespace(b) {
                    position += 1
                } else if b == 0x2F && byte(at: position + 1) == 0x2A {
                    skipComment()
                } else {
                    break
                }
            }
            return CSSToken(kind: .whitespace, offset: start, length: position - start)
        }
        if startsNumber(at: position) {
            let value = consumeNumber()
            if byte(at: position) == 0x25 {
                position += 1
                return CSSToken(kind: .percentage(value), offset: start, length: position - start)
            }
            if startsIdentifier(at: position) {
                skipName()
                return CSSToken(kind: .dimension(value), offset: start, length: position - start)
            }
            return CSSToken(kind: .number(value), offset: start, length: position - start)
        }
        if startsIdentifier(at: position) {
            skipName()
            if byte(at: position) == 0x28 {
                position += 1
                if position - start == 4 && (bytes[start] | 0x20) == 0x75 && (bytes[start + 1] | 0x20) == 0x72 && (bytes[start + 2] | 0x20) == 0x6C {
                    return urlToken(from: start)
                }
                return CSSToken(kind: .function, offset: start, length: position - start)
            }
            if position - start == 2 && bytes[start + 1] == 0x2D && byte(at: position) == 0x3E {  // -->
                position += 1
                return CSSToken(kind: .cdc, offset: start, length: 3)
            }
            return CSSToken(kind: .ident, offset: start, length: position - start)
        }
        position += 1
        switch first {
        case 0x23:  // #
            skipName()
            return CSSToken(kind: .hash, offset: start, length: position - start)
        case 0x2C: return CSSToken(kind: .comma, offset: start, length: 1)
        case 0x2F: return CSSToken(kind: .slash, offset: start, length: 1)
        case 0x28: return CSSToken(kind: .leftParen, offset: start, length: 1)
        case 0x29: return CSSToken(kind: .rightParen, offset: start, length: 1)
        default: return nextSingle(first, from: start)
        }
    }

    /// The tokens a color value does not use, whose first byte `first` (at `start`) was just
    /// read: a stylesheet's structure, strings and at-keywords, and delims.
    @inline(never)
    mutating func nextSingle(_ first: UInt8, from start: Int) -> CSSToken {
        let kind: CSSToken.Kind
        switch first {
        case 0x3A: kind = .colon
        case 0x3B: kind = .semicolon
        case 0x5B: kind = .leftBracket
        case 0x5D: kind = .rightBracket
        case 0x7B: kind = .leftBrace
        case 0x7D: kind = .rightBrace
        case 0x22, 0x27:  // " '
            skipString(closedBy: first)
            kind = .string
        case 0x40 where startsIdentifier(at: position):  // @
            skipName()
            kind = .atKeyword
        case 0x3C where byte(at: position) == 0x21 && byte(at: position + 1) == 0x2D && byte(at: position + 2) == 0x2D:  // <!--
            position += 3
            kind = .cdo
        default:
            // Keep multi-byte UTF-8 characters whole, so offsets point at their first byte.
            while let b = byte(at: position), b & 0xC0 == 0x80 { position += 1 }
            kind = .delim(first)
        }
        return CSSToken(kind: kind, offset: start, length: position - start)
    }

    /// Whether a whitespace token holds whitespace besides its comments.
    func hasWhitespaceOutsideComments(_ token: CSSToken) -> Bool {
        var i = token.offset
        while i < token.end {
            if bytes[i] == 0x2F && i + 1 < token.end && bytes[i + 1] == 0x2A {
                i += 2
                while i < token.end && !(bytes[i] == 0x2A && i + 1 < token.end && bytes[i + 1] == 0x2F) { i += 1 }
                i += 2
            } else if CSSTokenizer.isWhitespace(bytes[i]) {
                return true
            } else {
                i += 1
            }
        }
        return false
    }

    /// Past a string's text and its closing quote. A newline the string does not escape ends it
    /// (a bad string, §4.3.5) and is left for the next token; so is the end of the text.
    @inline(never)
    mutating func skipString(closedBy quote: UInt8) {
        while let b = byte(at: position) {
            if b == quote {
                position += 1
                return
            }
            if CSSTokenizer.isNewline(b) { return }
            if b == 0x5C {
                // An escaped newline continues the string; "\r\n" is one newline.
                position += byte(at: position + 1) == 0x0D && byte(at: position + 2) == 0x0A ? 3 : 2
                position = min(position, bytes.count)
            } else {
                position += 1
            }
        }
    }

    /// A `url(` just read (its "(" included): a function token when a quoted string follows (the
    /// URL is that string), otherwise one url token up to its ")" (§4.3.6), escapes included.
    @inline(never)
    mutating func urlToken(from start: Int) -> CSSToken {
        var look = position
        while let b = byte(at: look), CSSTokenizer.isWhitespace(b) { look += 1 }
        if let b = byte(at: look), b == 0x22 || b == 0x27 {
            return CSSToken(kind: .function, offset: start, length: position - start)
        }
        while let b = byte(at: position), b != 0x29 {
            if startsEscape(at: position) { skipEscape() } else { position += 1 }
        }
        position = min(bytes.count, position + 1)
        return CSSToken(kind: .url, offset: start, length: position - start)
    }
}
