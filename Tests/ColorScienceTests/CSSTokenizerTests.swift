@testable import ColorScience
import Testing

/// The one CSS tokenizer, as color values and stylesheets both use it (CSS Syntax Level 3, §4).
@Suite struct CSSTokenizerTests {
    /// Each token as `kind:text`, the way a test reads it.
    static func tokens(_ css: String, comments: CSSTokenizer.Comments = .whitespace) -> [String] {
        let bytes = Array(css.utf8)
        return CSSTokenizer.tokenize(bytes, comments: comments).map { token in
            let text = String(decoding: bytes[token.offset..<token.end], as: UTF8.self)
            let kind: String
            switch token.kind {
            case .number: kind = "number"
            case .percentage: kind = "percentage"
            case .dimension: kind = "dimension"
            case .delim: kind = "delim"
            default: kind = "\(token.kind)"
            }
            return "\(kind):\(text)"
        }
    }

    @Test func aRuleIsItsBlockTokens() {
        #expect(Self.tokens(":root{--a:#fff;}") == [
            "colon::", "ident:root", "leftBrace:{", "ident:--a", "colon::", "hash:#fff", "semicolon:;", "rightBrace:}",
        ])
        #expect(Self.tokens("@media (x){[data-a=b]{}}") == [
            "atKeyword:@media", "whitespace: ", "leftParen:(", "ident:x", "rightParen:)", "leftBrace:{",
            "leftBracket:[", "ident:data-a", "delim:=", "ident:b", "rightBracket:]", "leftBrace:{", "rightBrace:}", "rightBrace:}",
        ])
        // "@" without a name after it is a delim; so is "<" that does not open "<!--".
        #expect(Self.tokens("@ <!-- -->") == ["delim:@", "whitespace: ", "cdo:<!--", "whitespace: ", "cdc:-->"])
    }

    /// A string runs to its quote; an escaped quote or newline does not end it, a bare newline
    /// does (and stays the next token), so a `;` or `}` inside a string is never structure.
    @Test func stringsHoldWhatLooksLikeStructure() {
        #expect(Self.tokens(#"--x:"a;}\"b";"#) == [#"ident:--x"#, "colon::", #"string:"a;}\"b""#, "semicolon:;"])
        #expect(Self.tokens("'a\\\nb'") == ["string:'a\\\nb'"])
        #expect(Self.tokens("'ab\n}") == ["string:'ab", "whitespace:\n", "rightBrace:}"])
        #expect(Self.tokens("'open") == ["string:'open"])
    }

    /// `url(x)` unquoted is one token to its ")", whatever it holds; quoted, it is a function.
    @Test func unquotedURLsAreOneToken() {
        #expect(Self.tokens("url(a;b{c}.png) x") == ["url:url(a;b{c}.png)", "whitespace: ", "ident:x"])
        #expect(Self.tokens("URL( 'a;b' )") == ["function:URL(", "whitespace: ", "string:'a;b'", "whitespace: ", "rightParen:)"])
        #expect(Self.tokens("url(a\\)b)") == ["url:url(a\\)b)"])
    }

    /// Escapes are part of the name they are in (`\:` does not end `.md\:flex`); a `\` before a
    /// newline escapes nothing and is a delim of its own.
    @Test func escapesStayInNames() {
        #expect(Self.tokens(".md\\:flex{") == ["delim:.", "ident:md\\:flex", "leftBrace:{"])
        #expect(Self.tokens("\\31 0px") == ["ident:\\31 0px"])
        #expect(Self.tokens("10\\70 x") == ["dimension:10\\70 x"])
        #expect(Self.tokens("a\\\nb") == ["ident:a", "delim:\\", "whitespace:\n", "ident:b"])
    }

    /// A comment is whitespace in a color value (`rgb(1/**/2/**/3)` has three channels); in a
    /// stylesheet one that no whitespace comes before is gone (`html/**/.dark` is one compound
    /// selector), and one after whitespace is part of that whitespace.
    @Test func commentsAreWhitespaceOrNothing() {
        #expect(Self.tokens("a/**/b") == ["ident:a", "whitespace:/**/", "ident:b"])
        #expect(Self.tokens("a/**/b", comments: .dropped) == ["ident:a", "ident:b"])
        #expect(Self.tokens("a/**//* x */.b /* c */c", comments: .dropped) == ["ident:a", "delim:.", "ident:b", "whitespace: /* c */", "ident:c"])
        #expect(Self.tokens("/* only", comments: .dropped) == [])
        #expect(Self.tokens("a/* open", comments: .whitespace) == ["ident:a", "whitespace:/* open"])
    }

    /// The color parser sees the same tokens: `rgb(1/**/2/**/3)` reads, a string is refused as
    /// a whole token.
    @Test func colorValuesReadThroughTheSameTokens() throws {
        #expect(try SRGB(css: "rgb(1/**/2/**/3)") == SRGB(red8: 1, green8: 2, blue8: 3))
        #expect(throws: ColorParseError.self) { try CSSColor.parse("rgb(\"1\" 2 3)") }
        do {
            _ = try CSSColor.parse("\"red\"")
            Issue.record("a string is not a color")
        } catch {
            #expect(error.message == "expected a color (like #1a2b3c, rebeccapurple or rgb(0 0 0)), found '\"red\"'")
        }
    }
}
