import RealModule

/// One argument of a color function. A plain value, so argument lists copy without reference
/// counting: a keyword is its length in bytes from its slot's offset.
enum Argument {
    case number(Double)
    case percentage(Double)
    case angle(Double)  // degrees
    case none
    case keyword(length: Int)

    /// What the argument is, for messages; a keyword's word comes from ``ColorParser/describe(_:)``.
    var typeName: String {
        switch self {
        case .number: "a number"
        case .percentage: "a percentage"
        case .angle: "an angle"
        case .none: "'none'"
        case .keyword: "a keyword"
        }
    }
}

/// The color functions, by their lowercased names.
enum ColorFunction: String {
    case rgb, rgba, hsl, hsla, hwb, lab, lch, oklab, oklch, color
    case colorMix = "color-mix"
    case lightDark = "light-dark"

    /// The function a token opens, its name compared in place (by length first, so at most a
    /// few names are compared).
    init?(_ token: CSSToken, in tokenizer: CSSTokenizer) {
        func named(_ name: StaticString, _ function: ColorFunction) -> ColorFunction? {
            tokenizer.isFunction(token, named: name) ? function : nil
        }
        let found: ColorFunction?
        switch token.length - 1 {
        case 3: found = named("rgb", .rgb) ?? named("hsl", .hsl) ?? named("hwb", .hwb) ?? named("lab", .lab) ?? named("lch", .lch)
        case 4: found = named("rgba", .rgba) ?? named("hsla", .hsla)
        case 5: found = named("oklch", .oklch) ?? named("oklab", .oklab) ?? named("color", .color)
        case 9: found = named("color-mix", .colorMix)
        case 10: found = named("light-dark", .lightDark)
        default: found = nil
        }
        guard let found else { return nil }
        self = found
    }
}

struct Slot {
    var argument: Argument
    var offset: Int

    static var unset: Slot { Slot(argument: .none, offset: 0) }
}

/// The parser behind ``CSSColor``: reads one color from ``CSSTokenizer``'s tokens, one at a time.
/// Here its state, token helpers, the top level, hex colors and names; by concept in its
/// extensions: `+Functions` (CSS Color 4), `+Color5` (relative colors, color-mix(),
/// light-dark()), `+Arguments` and `+Calc`.
struct ColorParser {
    let text: String
    /// The text's UTF-8, valid for the duration of the parse (the parser never outlives it).
    let bytes: UnsafeBufferPointer<UInt8>
    /// Tokens are read one at a time as the parser asks for them (no token array).
    var tokenizer: CSSTokenizer
    /// The token under the cursor.
    var current: CSSToken

    /// The color scheme `light-dark()` picks its color by; nil refuses it.
    let scheme: ColorScheme?
    /// Whether a `light-dark()` was read.
    var usedScheme = false
    /// Inside a relative color (`rgb(from C …)`): the values its channel keywords stand for.
    var channelValues: [String: Double]?
    /// How deeply colors nest inside color-mix(), light-dark() and relative colors.
    var colorDepth = 0

    /// Whether an unknown name's error suggests the nearest color name. Off for callers that
    /// only ask whether a text is a color (``CSSColor/isColor(_:scheme:)``): the search measures
    /// the word against every name, for a message they never read.
    let suggestsNames: Bool

    init(text: String, bytes: UnsafeBufferPointer<UInt8>, scheme: ColorScheme?, suggestsNames: Bool = true) {
        self.text = text
        self.scheme = scheme
        self.suggestsNames = suggestsNames
        self.bytes = bytes
        self.tokenizer = CSSTokenizer(bytes)
        self.current = tokenizer.next()
    }

    // MARK: Token helpers

    mutating func advance() { if current.kind != .end { current = tokenizer.next() } }

    /// Where the parser stands, to come back to after looking ahead.
    struct Mark { var position: Int; var current: CSSToken }

    var mark: Mark { Mark(position: tokenizer.position, current: current) }

    mutating func reset(to mark: Mark) {
        tokenizer.position = mark.position
        current = mark.current
    }

    mutating func skipWhitespace() {
        while current.kind == .whitespace { advance() }
    }

    func source(of token: CSSToken) -> String {
        let end = min(bytes.count, token.offset + max(token.length, 1))
        if token.offset >= bytes.count { return "the end of the text" }
        let piece = String(decoding: bytes[token.offset..<end], as: UTF8.self)
        return "'" + (piece.count > 24 ? String(piece.prefix(21)) + "..." : piece) + "'"
    }

    func error(_ code: ColorParseError.Code, _ message: String, at offset: Int) -> ColorParseError {
        ColorParseError(code: code, message: message, offset: offset, input: text)
    }

    // MARK: Top level

    mutating func parseColor() throws(ColorParseError) -> ParsedColor {
        let value = try parseColorValue()
        skipWhitespace()
        if current.kind != .end {
            throw error(.trailingInput, "expected the end of the color, found \(source(of: current))", at: current.offset)
        }
        var parsed = ColorParser.display(value)
        // Components so large that converting them overflows (lab(50 1e110 0), color(srgb 1e130
        // 0 0)) leave no color to map: gamut mapping an infinity gave black, a color nobody wrote.
        if parsed.wasOutOfGamut, let unmapped = parsed.unmappedComponents,
           !(unmapped.x.isFinite && unmapped.y.isFinite && unmapped.z.isFinite) {
            throw error(.unsupported, "its components are too large to convert (the conversion overflows); no sRGB color corresponds to it", at: 0)
        }
        parsed.dependsOnScheme = usedScheme
        return parsed
    }

    /// One color, at the top level or inside color-mix(), light-dark() or a relative color.
    mutating func parseColorValue() throws(ColorParseError) -> SpacedColor {
        skipWhitespace()
        let token = current
        switch token.kind {
        case .end:
            throw error(.empty, "expected a color (like #1a2b3c, rebeccapurple or rgb(0 0 0)), found nothing", at: token.offset)
        case .hash:
            let digits = tokenizer.hashName(token)
            advance()
            let next = current
            switch next.kind {
            case .end, .whitespace, .comma, .rightParen, .slash: break
            default:
                if next.offset == token.offset + token.length {
                    throw error(.invalidHex, "expected a hex digit (0-9, a-f), found \(source(of: next))", at: next.offset)
                }
            }
            return try SpacedColor(parseHex(digits, at: token.offset), notation: "hex")
        case .ident:
            let name = tokenizer.identifier(token)
            advance()
            return try SpacedColor(parseName(name, at: token.offset), notation: "named")
        case .function:
            advance()
            colorDepth += 1
            defer { colorDepth -= 1 }
            guard colorDepth <= CSSColor.maximumNesting else {
                throw error(.unsupported, "colors nest deeper than \(CSSColor.maximumNesting) levels", at: token.offset)
            }
            return try parseFunction(token)
        default:
            throw error(.unexpectedCharacter,
                        "expected a color (like #1a2b3c, rebeccapurple or rgb(0 0 0)), found \(source(of: token))",
                        at: token.offset)
        }
    }

    /// The sRGB color shown for a parsed value: in gamut as it is, outside gamut-mapped and
    /// flagged (CSS Color 4 §13.2). Missing components count as 0.
    static func display(_ value: SpacedColor) -> ParsedColor {
        let c = value.resolved, alpha = value.resolvedAlpha, notation = value.notation
        func direct(_ rgb: SIMD3<Double>) -> ParsedColor {
            if GamutMapping.isInGamut(rgb) {
                return ParsedColor(color: SRGB(red: rgb.x, green: rgb.y, blue: rgb.z, alpha: alpha), notation: notation)
            }
            return mapped(RGBSpace.srgb.xyz(rgb), alpha: alpha, notation: notation)
        }
        switch value.space {
        case .srgb: return direct(c)
        case .hsl: return direct(SpacedColor.hslToRGB(c))
        case .hwb: return direct(SpacedColor.hwbToRGB(c))
        case .lab: return mapped(CIELab(l: c.x, a: c.y, b: c.z).xyz, alpha: alpha, notation: notation)
        case .lch: return mapped(CIELCH(l: c.x, c: c.y, h: c.z).lab.xyz, alpha: alpha, notation: notation)
        case .oklab:
            let origin = OKLab(l: c.x, a: c.y, b: c.z)
            return mapped(origin.xyz, alpha: alpha, notation: notation, oklch: OKLCH(origin))
        case .oklch:
            let origin = OKLCH(l: c.x, c: c.y, h: c.z)
            return mapped(origin.oklab.xyz, alpha: alpha, notation: notation, oklch: origin)
        case .srgbLinear, .displayP3, .displayP3Linear, .a98RGB, .prophotoRGB, .rec2020, .xyzD50, .xyzD65:
            return mapped(value.xyz, alpha: alpha, notation: notation)
        }
    }

    func parseHex(_ digits: String, at offset: Int) throws(ColorParseError) -> ParsedColor {
        var values: [UInt8] = []
        for (position, byte) in digits.utf8.enumerated() {
            let value: UInt8
            switch byte {
            case 0x30...0x39: value = byte - 0x30
            case 0x61...0x66: value = byte - 0x61 + 10
            case 0x41...0x46: value = byte - 0x41 + 10
            default:
                let character = String(decoding: [byte], as: UTF8.self)
                throw error(.invalidHex,
                            "expected a hex digit (0-9, a-f), found '\(byte < 0x80 ? character : "non-ASCII")'",
                            at: offset + 1 + position)
            }
            values.append(value)
        }
        func pair(_ i: Int) -> UInt8 { values[i] << 4 | values[i + 1] }
        func double(_ i: Int) -> UInt8 { values[i] << 4 | values[i] }
        switch values.count {
        case 3, 4:
            let alpha = values.count == 4 ? Double(double(3)) / 255 : 1
            return ParsedColor(color: SRGB(red8: double(0), green8: double(1), blue8: double(2), alpha: alpha), notation: "hex")
        case 6, 8:
            let alpha = values.count == 8 ? Double(pair(6)) / 255 : 1
            return ParsedColor(color: SRGB(red8: pair(0), green8: pair(2), blue8: pair(4), alpha: alpha), notation: "hex")
        default:
            throw error(.invalidHex,
                        "a hex color has 3, 4, 6 or 8 digits (#rgb, #rgba, #rrggbb, #rrggbbaa), found \(values.count)",
                        at: offset)
        }
    }

    func parseName(_ name: String, at offset: Int) throws(ColorParseError) -> ParsedColor {
        let lower = name.lowercased()
        if lower == "transparent" { return ParsedColor(color: .transparent, notation: "named") }
        if let value = NamedColors.table[lower] {
            return ParsedColor(color: SRGB(rgb24: value), notation: "named")
        }
        if lower == "currentcolor" {
            throw error(.contextDependent,
                        "'currentColor' takes the value of an element's color property, so it has no color of its own here; give a concrete color",
                        at: offset)
        }
        if NamedColors.systemColors.contains(lower) {
            throw error(.contextDependent,
                        "'\(name)' is a system color whose value depends on the browser and theme; give a concrete color",
                        at: offset)
        }
        var message = "'\(name)' is not a CSS color name"
        if suggestsNames, let suggestion = NamedColors.closest(to: lower) { message += " (did you mean '\(suggestion)'?)" }
        throw error(.unknownName, message, at: offset)
    }
}
