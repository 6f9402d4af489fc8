import RealModule

/// Reads CSS Color Level 4 and 5 text into sRGB.
///
/// Accepted: `#rgb #rgba #rrggbb #rrggbbaa`; the 148 named colors and `transparent`;
/// `rgb()`/`rgba()` and `hsl()`/`hsla()` in legacy comma syntax and modern space syntax with
/// `/ alpha` and `none`; `hwb()`; `lab() lch() oklab() oklch()`; `color()` in `srgb`,
/// `srgb-linear`, `display-p3`, `display-p3-linear`, `a98-rgb`, `prophoto-rgb`, `rec2020`,
/// `xyz`, `xyz-d50` and `xyz-d65`; and `calc()`, `min()`, `max()`, `clamp()`, `abs()` and
/// `sign()` over numbers, percentages and angles inside them. CSS Color 5: `color-mix()` of one
/// or two colors in any of those spaces (and `hsl`, `hwb`, `lab`, `lch`, `oklab`, `oklch`) with
/// `shorter|longer|increasing|decreasing hue`; relative colors (`rgb(from C r g b / alpha)` for
/// every function, with `calc()` over the channel keywords); and `light-dark(A, B)`, which needs
/// a color scheme (``parse(_:scheme:)``). Colors nest in each other. Values are clamped as
/// browsers clamp them; colors outside sRGB are gamut-mapped and flagged, never clipped silently.
///
/// Rejected, with a ``ColorParseError`` that says what was expected and at which byte: anything
/// else, including `currentColor`, system colors and `var()` (their value depends on a document).
public enum CSSColor {
    /// The longest text accepted, in UTF-8 bytes. Real colors are far shorter; the limit keeps
    /// hostile input (a 100 KB string) cheap to reject.
    public static let maximumLength = 1024

    /// How deeply `calc()` expressions may nest.
    static let maximumNesting = 32

    /// Parses `text` as a CSS color. A `light-dark()` value is refused here (its color depends
    /// on the color scheme): use ``parse(_:scheme:)``.
    @inlinable
    public static func parse(_ text: String) throws(ColorParseError) -> ParsedColor {
        if let fast = fastHex(text) { return fast }
        return try parseInFull(text, scheme: nil)
    }

    /// Parses `text` as a CSS color in a color scheme: `light-dark(A, B)` is A in `.light` and B
    /// in `.dark` (``ParsedColor/dependsOnScheme`` says whether the text had one); with `nil`,
    /// a `light-dark()` is an error that says so.
    public static func parse(_ text: String, scheme: ColorScheme?) throws(ColorParseError) -> ParsedColor {
        if let fast = fastHex(text) { return fast }
        return try parseInFull(text, scheme: scheme)
    }

    /// The value of each byte as a hex digit, 0xFF for the bytes that are not one.
    @usableFromInline
    static let hexDigitValues: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]

    /// The value before it is shown in sRGB: its space, components (with missing ones) and
    /// alpha, for comparing with other implementations' serializations.
    static func spaced(_ text: String, scheme: ColorScheme? = nil) throws(ColorParseError) -> SpacedColor {
        var copy = Array(text.utf8)
        return try copy.withUnsafeMutableBufferPointer { buffer throws(ColorParseError) -> SpacedColor in
            var parser = ColorParser(text: text, bytes: UnsafeBufferPointer(buffer), scheme: scheme)
            let value = try parser.parseColorValue()
            parser.skipWhitespace()
            if parser.current.kind != .end {
                throw parser.error(.trailingInput, "expected the end of the color", at: parser.current.offset)
            }
            return value
        }
    }

    /// Everything but the short hex forms: the full CSS parser.
    @usableFromInline
    static func parseInFull(_ text: String, scheme: ColorScheme?) throws(ColorParseError) -> ParsedColor {
        let byteCount = text.utf8.count
        if byteCount > maximumLength {
            throw ColorParseError(code: .tooLong,
                                  message: "color text is \(byteCount) bytes; the limit is \(maximumLength)",
                                  offset: maximumLength, input: text)
        }
        // The parser reads the string's own bytes; only a bridged string is copied first.
        let direct = text.utf8.withContiguousStorageIfAvailable { bytes -> Result<ParsedColor, ColorParseError> in
            var parser = ColorParser(text: text, bytes: bytes, scheme: scheme)
            return Result { () throws(ColorParseError) in try parser.parseColor() }
        }
        if let direct { return try direct.get() }
        let copy = Array(text.utf8)
        return try copy.withUnsafeBufferPointer { bytes throws(ColorParseError) -> ParsedColor in
            var parser = ColorParser(text: text, bytes: bytes, scheme: scheme)
            return try parser.parseColor()
        }
    }

    /// `#rgb`, `#rgba`, `#rrggbb` and `#rrggbbaa` without whitespace, read straight from the
    /// bytes (the common case in palettes). Anything else, including every malformed hex color,
    /// goes through the full parser, which says what is wrong.
    @inlinable
    static func fastHex(_ text: String) -> ParsedColor? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> ParsedColor? in
            let count = bytes.count
            guard count == 7 || count == 9 || count == 4 || count == 5, bytes[0] == UInt8(ascii: "#") else { return nil }
            // Branch-free: random hex digits mix letters and numbers too often for a branch per digit.
            var value: UInt32 = 0
            var invalid: UInt8 = 0
            for index in 1..<count {
                let digit = hexDigitValues[Int(bytes[index])]
                invalid |= digit
                value = value << 4 | UInt32(digit & 0xF)
            }
            if invalid & 0xF0 != 0 { return nil }
            switch count {
            case 7: return ParsedColor(color: SRGB(rgb24: value), notation: "hex")
            case 9: return ParsedColor(color: SRGB(rgb24: value >> 8, alpha: Double(value & 0xFF) / 255), notation: "hex")
            default:
                // Short forms repeat each digit: #abc is #aabbcc.
                var digits = count == 5 ? value >> 4 : value
                var wide: UInt32 = 0
                for shift in stride(from: 8, through: 0, by: -4) {
                    let d = digits >> UInt32(shift) & 0xF
                    wide = wide << 8 | d << 4 | d
                }
                digits = value & 0xF
                let alpha = count == 5 ? Double(digits << 4 | digits) / 255 : 1
                return ParsedColor(color: SRGB(rgb24: wide, alpha: alpha), notation: "hex")
            }
        } ?? nil
    }
}

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

    init(text: String, bytes: UnsafeBufferPointer<UInt8>, scheme: ColorScheme?) {
        self.text = text
        self.scheme = scheme
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
        if let suggestion = NamedColors.closest(to: lower) { message += " (did you mean '\(suggestion)'?)" }
        throw error(.unknownName, message, at: offset)
    }

    // MARK: Functions

    /// The color function `token` opens; its name is matched in place, and only an unknown
    /// name becomes a string (for the message).
    mutating func parseFunction(_ token: CSSToken) throws(ColorParseError) -> SpacedColor {
        let offset = token.offset
        if let function = ColorFunction(token, in: tokenizer) {
            let name = function.rawValue
            switch function {
            case .rgb, .rgba: return try parseRGB(name, at: offset)
            case .hsl, .hsla: return try parseHSL(name, at: offset)
            case .hwb: return try parseHWB(at: offset)
            case .lab, .lch, .oklab, .oklch: return try parseLab(function, at: offset)
            case .color: return try parseColorFunction(at: offset)
            case .colorMix: return try parseColorMix(at: offset)
            case .lightDark: return try parseLightDark(at: offset)
            }
        }
        let name = tokenizer.functionName(token)
        switch name {
        case "var", "env", "attr":
            throw error(.contextDependent,
                        "\(name)() takes its value from a document (\(name == "var" ? "a custom property a stylesheet defines" : name == "env" ? "the browser's environment" : "an element's attribute")), so it has no color of its own here; give a concrete color\(name == "var" ? ", or audit the stylesheet that defines it" : "")",
                        at: offset)
        default:
            throw error(.unknownFunction,
                        "'\(name)()' is not a color function; expected rgb(), rgba(), hsl(), hsla(), hwb(), lab(), lch(), oklab(), oklch(), color(), color-mix() or light-dark()",
                        at: offset)
        }
    }

    // MARK: Relative colors (CSS Color 5 §4)

    /// `from <color>` at the start of a color function: the origin color converted into the
    /// function's space, or nil when the function is written absolutely.
    mutating func parseOrigin(into space: CSSSpace) throws(ColorParseError) -> SpacedColor? {
        skipWhitespace()
        guard current.kind == .ident, CSSTokenizer.asciiLowercased(tokenizer.identifier(current)) == "from" else { return nil }
        advance()
        return try parseColorValue().converted(to: space)
    }

    /// The channel keywords of a relative color and their values: the origin's components in
    /// the units the function's numbers use (rgb() channels 0-255, hsl()/hwb() 0-100), and alpha.
    static func channelValues(of origin: SpacedColor, rgbScale: Double = 1) -> [String: Double] {
        var values: [String: Double] = ["alpha": origin.resolvedAlpha]
        let c = origin.resolved
        for (i, name) in origin.space.channelNames.enumerated() {
            values[name] = origin.space.hueIndex == i ? HSL.normalizedHue(c[i]) : c[i] * rgbScale
        }
        return values
    }

    // MARK: color-mix() (CSS Color 5 §3)

    mutating func parseColorMix(at offset: Int) throws(ColorParseError) -> SpacedColor {
        skipWhitespace()
        var space = CSSSpace.oklab, method = HueInterpolation.shorter
        if current.kind == .ident, CSSTokenizer.asciiLowercased(tokenizer.identifier(current)) == "in" {
            advance()
            (space, method) = try parseInterpolationMethod(purpose: "color-mix() mixes")
            guard current.kind == .comma else {
                throw error(.wrongArguments, "expected ',' after the color space of color-mix(), found \(source(of: current))", at: current.offset)
            }
            advance()
        }
        var colors: [(color: SpacedColor, percentage: Double?)] = []
        while true {
            skipWhitespace()
            let itemOffset = current.offset
            var percentage = try mixPercentage()
            let color = try parseColorValue()
            skipWhitespace()
            if percentage == nil { percentage = try mixPercentage() }
            if let p = percentage, !(0...100).contains(p) {
                throw error(.invalidArgument, "a color-mix() percentage is between 0% and 100%, found \(p == p.rounded() && abs(p) < 1e15 ? String(Int(p)) : String(p))%", at: itemOffset)
            }
            colors.append((color, percentage))
            skipWhitespace()
            if current.kind == .comma {
                advance()
                continue
            }
            guard current.kind == .rightParen else {
                throw error(current.kind == .end ? .unexpectedEnd : .unexpectedCharacter,
                            "expected ',' or ')' in color-mix(), found \(source(of: current))", at: current.offset)
            }
            advance()
            break
        }
        var result: SpacedColor
        switch colors.count {
        case 1:
            // A single color is that color in the mixing space, with its percentage as alpha.
            guard colors[0].percentage != 0 else {
                throw error(.invalidArgument, "the percentages of color-mix() add up to 0%; at least one color must take part", at: offset)
            }
            result = colors[0].color.converted(to: space)
            result.alpha *= (colors[0].percentage ?? 100) / 100
        case 2:
            var p1 = colors[0].percentage, p2 = colors[1].percentage
            if p1 == nil && p2 == nil { (p1, p2) = (50, 50) }
            let first = p1 ?? 100 - p2!, second = p2 ?? 100 - p1!
            let sum = first + second
            guard sum > 0 else {
                throw error(.invalidArgument, "the percentages of color-mix() add up to 0%; at least one color must take part", at: offset)
            }
            result = SpacedColor.mix(colors[0].color, colors[1].color, t: second / sum, in: space, hue: method,
                                     alphaMultiplier: sum < 100 ? sum / 100 : 1)
        default:
            throw error(.wrongArguments, "color-mix() mixes one or two colors, found \(colors.count)", at: offset)
        }
        result.notation = "color-mix"
        return result
    }

    /// The rest of a `<color-interpolation-method>` after its `in` (CSS Color 4 §12.1): a color
    /// space and, for a space with a hue, an optional `shorter|longer|increasing|decreasing hue`
    /// (shorter when absent). `purpose` starts the message for a missing space ("color-mix()
    /// mixes"). Leaves the cursor after the method and any whitespace.
    mutating func parseInterpolationMethod(purpose: String) throws(ColorParseError) -> (CSSSpace, HueInterpolation) {
        skipWhitespace()
        let spaceToken = current
        guard spaceToken.kind == .ident, let space = CSSSpace(name: CSSTokenizer.asciiLowercased(tokenizer.identifier(spaceToken))) else {
            throw error(.invalidArgument, "\(purpose) in a color space: expected \(CSSSpace.mixSpaceNames), found \(source(of: spaceToken))", at: spaceToken.offset)
        }
        var method = HueInterpolation.shorter
        advance()
        skipWhitespace()
        if current.kind == .ident, let hue = HueInterpolation(rawValue: CSSTokenizer.asciiLowercased(tokenizer.identifier(current))) {
            let methodToken = current
            guard space.hueIndex != nil else {
                throw error(.invalidArgument, "'\(hue.rawValue) hue' applies to a space with a hue (hsl, hwb, lch, oklch), not \(space.name)", at: methodToken.offset)
            }
            advance()
            skipWhitespace()
            guard current.kind == .ident, CSSTokenizer.asciiLowercased(tokenizer.identifier(current)) == "hue" else {
                throw error(.invalidArgument, "expected 'hue' after '\(hue.rawValue)' (like 'in oklch longer hue'), found \(source(of: current))", at: current.offset)
            }
            method = hue
            advance()
            skipWhitespace()
        }
        return (space, method)
    }

    /// A color-mix() percentage where one may stand (a percentage or calc() giving one).
    mutating func mixPercentage() throws(ColorParseError) -> Double? {
        skipWhitespace()
        let token = current
        switch token.kind {
        case .percentage(let v):
            advance()
            return v
        case .function where CalcEvaluator.mathFunctions.contains(tokenizer.functionName(token)):
            advance()
            var calc = CalcEvaluator(parser: self)
            let value = try calc.evaluateFunction(tokenizer.functionName(token), at: token.offset, depth: 1)
            reset(to: calc.parser.mark)
            guard case .percentage(let p) = value else {
                throw error(.invalidArgument, "a color-mix() weight must be a percentage, found \(value.typeName)", at: token.offset)
            }
            return p
        default:
            return nil
        }
    }

    // MARK: light-dark() (CSS Color 5 §5)

    mutating func parseLightDark(at offset: Int) throws(ColorParseError) -> SpacedColor {
        let light = try parseColorValue()
        skipWhitespace()
        guard current.kind == .comma else {
            throw error(.wrongArguments, "light-dark() takes two colors separated by ',' (the light one first), found \(source(of: current))", at: current.offset)
        }
        advance()
        let dark = try parseColorValue()
        skipWhitespace()
        guard current.kind == .rightParen else {
            throw error(current.kind == .end ? .unexpectedEnd : .wrongArguments,
                        "expected ')' to close light-dark( after its two colors, found \(source(of: current))", at: current.offset)
        }
        advance()
        guard let scheme else {
            throw error(.schemeDependent,
                        "light-dark() is one color in a light color scheme and another in a dark one, and no color scheme was given",
                        at: offset)
        }
        usedScheme = true
        return scheme == .light ? light : dark
    }

    /// The arguments of a color function up to its closing parenthesis: the values in order,
    /// and what the syntax checks need to know about the commas and slashes between them. A
    /// plain value with no heap storage for the usual four values or fewer.
    struct Arguments {
        /// The first four values (a color function takes at most four); `more` holds the rest.
        private var head = (Slot.unset, Slot.unset, Slot.unset, Slot.unset)
        private var more: [Slot] = []
        private(set) var valueCount = 0
        private(set) var commaCount = 0
        private(set) var slashCount = 0
        /// The offset of the closing parenthesis.
        var close = 0

        private(set) var firstComma: Int?
        private(set) var lastComma: Int?
        private(set) var firstSlash: Int?
        private(set) var secondSlash: Int?
        /// How many values come before the first slash.
        private(set) var valuesBeforeSlash = 0
        /// The first `none` among the values.
        private(set) var firstNone: Int?
        /// A separator written before any value.
        private(set) var leadingSeparator: (offset: Int, isComma: Bool)?
        /// The first separator that follows another.
        private(set) var doubledSeparator: Int?
        /// The last item, when it is a separator.
        private(set) var trailingSeparator: (offset: Int, isComma: Bool)?

        mutating func append(_ slot: Slot) {
            switch valueCount {
            case 0: head.0 = slot
            case 1: head.1 = slot
            case 2: head.2 = slot
            case 3: head.3 = slot
            default: more.append(slot)
            }
            valueCount += 1
            if firstSlash == nil { valuesBeforeSlash += 1 }
            if case .none = slot.argument, firstNone == nil { firstNone = slot.offset }
            trailingSeparator = nil
        }

        mutating func appendSeparator(isComma: Bool, at offset: Int) {
            if valueCount == 0 && leadingSeparator == nil {
                leadingSeparator = (offset, isComma)
            }
            if trailingSeparator != nil && doubledSeparator == nil { doubledSeparator = offset }
            if isComma {
                commaCount += 1
                if firstComma == nil { firstComma = offset }
                lastComma = offset
            } else {
                slashCount += 1
                if firstSlash == nil { firstSlash = offset } else if secondSlash == nil { secondSlash = offset }
            }
            trailingSeparator = (offset, isComma)
        }

        /// The `n`th value, counting from 0.
        func value(_ n: Int) -> Slot {
            switch n {
            case 0: head.0
            case 1: head.1
            case 2: head.2
            case 3: head.3
            default: more[n - 4]
            }
        }
    }

    /// Three channels and the optional alpha of a color function.
    struct Channels {
        var first: Slot, second: Slot, third: Slot
        var alpha: Slot?
        var legacy: Bool

        subscript(_ i: Int) -> Slot { i == 0 ? first : i == 1 ? second : third }
    }

    /// The arguments up to the closing parenthesis: values, and the commas and slashes between them.
    /// (Filled in place: a returned `Arguments` is copied several times over.)
    mutating func parseArguments(_ name: String, at offset: Int, into arguments: inout Arguments) throws(ColorParseError) {
        while true {
            skipWhitespace()
            let token = current
            let argument: Argument
            switch token.kind {
            case .rightParen:
                advance()
                arguments.close = token.offset
                try checkSeparators(arguments, name: name, at: offset)
                return
            case .end:
                throw error(.unexpectedEnd, "expected ')' to close \(name)(", at: token.offset)
            case .comma, .slash:
                arguments.appendSeparator(isComma: token.kind == .comma, at: token.offset)
                advance()
                continue
            case .number(let v):
                argument = .number(v)
                advance()
            case .percentage(let v):
                argument = .percentage(v)
                advance()
            case .dimension(let v):
                let unit = tokenizer.unit(token)
                guard let degrees = ColorParser.degrees(v, unit: unit) else {
                    throw error(.invalidArgument, "'\(unit)' is not a unit a color takes; expected a number, a percentage or an angle (deg, rad, grad, turn)", at: token.offset)
                }
                argument = .angle(degrees)
                advance()
            case .ident:
                if tokenizer.isIdentifier(token, named: "none") {
                    argument = .none
                } else if let channels = channelValues {
                    let word = tokenizer.identifier(token)
                    guard let value = channels[CSSTokenizer.asciiLowercased(word)] else {
                        throw error(.invalidArgument, "'\(word)' is not a channel of \(name)(from …); expected \(ColorParser.list(channels.keys.sorted())), a number or none", at: token.offset)
                    }
                    argument = .number(value)
                } else {
                    argument = .keyword(length: token.length)
                }
                advance()
            case .function:
                let inner = tokenizer.functionName(token)
                advance()
                var calc = CalcEvaluator(parser: self)
                argument = try calc.evaluateFunction(inner, at: token.offset, depth: 1)
                reset(to: calc.parser.mark)
            default:
                throw error(.unexpectedCharacter, "unexpected \(source(of: token)) in \(name)()", at: token.offset)
            }
            arguments.append(Slot(argument: argument, offset: token.offset))
        }
    }

    @inline(__always)  // a call would copy the whole parser
    func checkSeparators(_ arguments: Arguments, name: String, at offset: Int) throws(ColorParseError) {
        func symbol(_ isComma: Bool) -> String { isComma ? "," : "/" }
        if let first = arguments.leadingSeparator {
            throw error(.wrongArguments, "\(name)() cannot start with '\(symbol(first.isComma))'; expected a value first", at: first.offset)
        }
        if let doubled = arguments.doubledSeparator {
            throw error(.wrongArguments, "two separators in a row in \(name)(); expected a value between them", at: doubled)
        }
        if let last = arguments.trailingSeparator {
            throw error(.wrongArguments, "\(name)() cannot end with '\(symbol(last.isComma))'; expected a value after it", at: last.offset)
        }
        if let second = arguments.secondSlash {
            throw error(.wrongArguments, "\(name)() takes at most one '/' (before the alpha)", at: second)
        }
        if arguments.commaCount > 0 && arguments.slashCount > 0 {
            throw error(.wrongArguments,
                        "\(name)() mixes the legacy comma syntax with the modern '/ alpha' syntax; use 'rgb(1 2 3 / 0.5)' or 'rgb(1, 2, 3, 0.5)'",
                        at: arguments.firstSlash ?? offset)
        }
    }

    /// "a, b or c".
    static func list(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    static func degrees(_ value: Double, unit: String) -> Double? {
        switch unit {
        case "deg": value
        case "rad": value * 180 / .pi
        case "grad": value * 0.9
        case "turn": value * 360
        default: nil
        }
    }

    /// Splits arguments into the three channels and the optional alpha, checking the syntax.
    @inline(__always)  // a call would copy the whole parser
    func channels(_ name: String, _ args: Arguments, legacyAllowed: Bool, at offset: Int) throws(ColorParseError) -> Channels {
        let count = args.valueCount
        if args.commaCount > 0 {
            guard legacyAllowed else {
                throw error(.wrongArguments, "\(name)() takes space-separated values, not commas (like \(name)(120 30% 50% / 0.5))", at: args.firstComma ?? offset)
            }
            guard count == 3 || count == 4 else {
                throw error(.wrongArguments, "\(name)() takes 3 values and an optional alpha, found \(count)", at: args.close)
            }
            guard args.commaCount == count - 1 else {
                throw error(.wrongArguments,
                            "\(name)() with commas needs a comma between every value; don't mix commas and spaces",
                            at: args.commaCount < count - 1 ? args.value(args.commaCount + 1).offset : args.lastComma ?? offset)
            }
            if let none = args.firstNone {
                throw error(.invalidArgument, "'none' is not allowed in the legacy comma syntax of \(name)(); use the space syntax", at: none)
            }
            return Channels(first: args.value(0), second: args.value(1), third: args.value(2), alpha: count == 4 ? args.value(3) : nil, legacy: true)
        }
        if let slash = args.firstSlash {
            // Commas and slashes do not mix (checkSeparators), so only values come before it.
            let before = args.valuesBeforeSlash
            let after = count - before
            guard before == 3 else {
                throw error(.wrongArguments, "\(name)() takes 3 values before '/', found \(before)", at: slash)
            }
            guard after == 1 else {
                throw error(.wrongArguments, "\(name)() takes one alpha value after '/', found \(after)", at: after > 1 ? args.value(before + 1).offset : slash)
            }
            return Channels(first: args.value(0), second: args.value(1), third: args.value(2), alpha: args.value(3), legacy: false)
        }
        guard count == 3 else {
            let at = count > 3 ? args.value(3).offset : args.close
            throw error(.wrongArguments,
                        "\(name)() takes 3 values and an optional '/ alpha', found \(count) value\(count == 1 ? "" : "s")",
                        at: at)
        }
        return Channels(first: args.value(0), second: args.value(1), third: args.value(2), alpha: nil, legacy: false)
    }

    // MARK: Argument resolution

    /// What an argument is, for messages: "a number", "the keyword 'red'".
    func describe(_ slot: Slot) -> String {
        guard case .keyword(let length) = slot.argument else { return slot.argument.typeName }
        let word = String(decoding: bytes[slot.offset..<slot.offset + length], as: UTF8.self)
        return "the keyword '\(word)'"
    }

    /// A number or percentage scaled so that 100% = `percentScale`; `none` is 0.
    @inline(__always)  // a call would copy the whole parser
    func value(_ slot: Slot, _ what: String, in name: String, percentScale: Double,
               allowNumber: Bool = true, allowPercentage: Bool = true) throws(ColorParseError) -> Double {
        switch slot.argument {
        case .number(let v) where allowNumber: return v
        case .percentage(let v) where allowPercentage: return v / 100 * percentScale
        case .none: return 0
        default:
            let expected = allowNumber && allowPercentage ? "a number or a percentage"
                : allowNumber ? "a number" : "a percentage"
            throw error(.invalidArgument, "\(what) of \(name)() must be \(expected), found \(describe(slot))", at: slot.offset)
        }
    }

    @inline(__always)  // a call would copy the whole parser
    func hue(_ slot: Slot, in name: String) throws(ColorParseError) -> Double {
        switch slot.argument {
        case .number(let v), .angle(let v): return HSL.normalizedHue(v)
        case .none: return 0
        default:
            throw error(.invalidArgument, "the hue of \(name)() must be a number or an angle (deg, rad, grad, turn), found \(describe(slot))", at: slot.offset)
        }
    }

    @inline(__always)  // a call would copy the whole parser
    func alpha(_ slot: Slot?, in name: String) throws(ColorParseError) -> Double {
        guard let slot else { return 1 }
        let v = try value(slot, "the alpha", in: name, percentScale: 1)
        return v.isNaN ? 0 : min(1, max(0, v))
    }

    // MARK: sRGB functions

    @inline(__always)  // a call would copy the whole parser
    func isNone(_ slot: Slot?) -> Bool {
        if let slot, case .none = slot.argument { return true }
        return false
    }

    @inline(__always)  // a call would copy the whole parser
    func missing(_ slots: Channels) -> ComponentFlags {
        ComponentFlags(isNone(slots[0]), isNone(slots[1]), isNone(slots[2]))
    }

    /// The arguments of a color function, read with the channel keywords of `origin` (a
    /// relative color) in scope; a relative color takes no legacy commas.
    mutating func relativeArguments(_ name: String, origin: SpacedColor?, rgbScale: Double = 1, legacyAllowed: Bool,
                                    at offset: Int) throws(ColorParseError) -> Channels {
        let outer = channelValues
        channelValues = origin.map { ColorParser.channelValues(of: $0, rgbScale: rgbScale) }
        defer { channelValues = outer }
        var args = Arguments()
        try parseArguments(name, at: offset, into: &args)
        return try channels(name, args, legacyAllowed: legacyAllowed && origin == nil, at: offset)
    }

    /// The alpha of a color function: written, else the origin's (relative colors), else 1.
    @inline(__always)  // a call would copy the whole parser
    func alpha(_ slots: Channels, origin: SpacedColor?, in name: String) throws(ColorParseError) -> (value: Double, missing: Bool) {
        if slots.alpha == nil, let origin { return (origin.resolvedAlpha, false) }
        return (try alpha(slots.alpha, in: name), isNone(slots.alpha))
    }

    mutating func parseRGB(_ name: String, at offset: Int) throws(ColorParseError) -> SpacedColor {
        let origin = try parseOrigin(into: .srgb)
        let slots = try relativeArguments(name, origin: origin, rgbScale: 255, legacyAllowed: true, at: offset)
        if slots.legacy {
            var percentages = 0
            for i in 0..<3 { if case .percentage = slots[i].argument { percentages += 1 } }
            if percentages != 0 && percentages != 3 {
                let odd = (0..<3).lazy.map { slots[$0] }.first { if case .percentage = $0.argument { percentages == 1 } else { percentages == 2 } } ?? slots[0]
                throw error(.invalidArgument, "legacy \(name)() needs all numbers or all percentages for red, green and blue", at: odd.offset)
            }
        }
        // Absolute rgb() clamps at parse time; a relative one keeps what it computes (CSS Color
        // 5 §4.2), so an origin outside sRGB survives the round trip.
        func channel(_ i: Int, _ what: String) throws(ColorParseError) -> Double {
            let v = try value(slots[i], what, in: name, percentScale: 255)
            if v.isNaN { return 0 }
            return origin == nil ? min(255, max(0, v)) / 255 : v / 255
        }
        let red = try channel(0, "the red channel"), green = try channel(1, "the green channel"), blue = try channel(2, "the blue channel")
        let a = try alpha(slots, origin: origin, in: name)
        return SpacedColor(space: .srgb, SIMD3(red, green, blue), missing: missing(slots), alpha: a.value, alphaMissing: a.missing, notation: "rgb")
    }

    mutating func parseHSL(_ name: String, at offset: Int) throws(ColorParseError) -> SpacedColor {
        let origin = try parseOrigin(into: .hsl)
        let slots = try relativeArguments(name, origin: origin, legacyAllowed: true, at: offset)
        let legacy = slots.legacy
        let h = try hue(slots[0], in: name)
        // Legacy syntax takes percentages only; the modern one also numbers (0-100).
        var s = try value(slots[1], "the saturation", in: name, percentScale: 100, allowNumber: !legacy)
        var l = try value(slots[2], "the lightness", in: name, percentScale: 100, allowNumber: !legacy)
        s = s.isNaN ? 0 : origin == nil ? max(0, min(100, s)) : s
        l = l.isNaN ? 0 : origin == nil ? max(0, min(100, l)) : l
        let a = try alpha(slots, origin: origin, in: name)
        return SpacedColor(space: .hsl, SIMD3(h, s, l), missing: missing(slots), alpha: a.value, alphaMissing: a.missing, notation: "hsl")
    }

    mutating func parseHWB(at offset: Int) throws(ColorParseError) -> SpacedColor {
        let origin = try parseOrigin(into: .hwb)
        let slots = try relativeArguments("hwb", origin: origin, legacyAllowed: false, at: offset)
        let h = try hue(slots[0], in: "hwb")
        var w = try value(slots[1], "the whiteness", in: "hwb", percentScale: 100)
        var b = try value(slots[2], "the blackness", in: "hwb", percentScale: 100)
        w = w.isNaN ? 0 : origin == nil ? max(0, min(100, w)) : w
        b = b.isNaN ? 0 : origin == nil ? max(0, min(100, b)) : b
        let a = try alpha(slots, origin: origin, in: "hwb")
        return SpacedColor(space: .hwb, SIMD3(h, w, b), missing: missing(slots), alpha: a.value, alphaMissing: a.missing, notation: "hwb")
    }

    // MARK: Lab-like and color()

    @inline(__always)  // a call would copy the whole parser
    func finite(_ v: Double, _ what: String, in name: String, at offset: Int) throws(ColorParseError) -> Double {
        if v.isNaN { return 0 }
        if v.isInfinite {
            throw error(.unsupported, "\(what) of \(name)() is infinite; no sRGB color corresponds to it", at: offset)
        }
        return v
    }

    mutating func parseLab(_ function: ColorFunction, at offset: Int) throws(ColorParseError) -> SpacedColor {
        let name = function.rawValue
        let space: CSSSpace = function == .lab ? .lab : function == .lch ? .lch : function == .oklab ? .oklab : .oklch
        let origin = try parseOrigin(into: space)
        let slots = try relativeArguments(name, origin: origin, legacyAllowed: false, at: offset)
        let isOK = function == .oklab || function == .oklch
        let isPolar = function == .lch || function == .oklch
        let lightnessScale = isOK ? 1.0 : 100.0
        var l = try value(slots[0], "the lightness", in: name, percentScale: lightnessScale)
        l = l.isNaN ? 0 : max(0, min(lightnessScale, l))
        let a = try alpha(slots, origin: origin, in: name)
        let components: SIMD3<Double>
        if isPolar {
            var c = try value(slots[1], "the chroma", in: name, percentScale: isOK ? 0.4 : 150)
            c = try finite(max(0, c.isNaN ? 0 : c), "the chroma", in: name, at: slots[1].offset)
            components = SIMD3(l, c, try hue(slots[2], in: name))
        } else {
            let scale = isOK ? 0.4 : 125
            let aAxis = try finite(try value(slots[1], "the a axis", in: name, percentScale: scale), "the a axis", in: name, at: slots[1].offset)
            let bAxis = try finite(try value(slots[2], "the b axis", in: name, percentScale: scale), "the b axis", in: name, at: slots[2].offset)
            components = SIMD3(l, aAxis, bAxis)
        }
        return SpacedColor(space: space, components, missing: missing(slots), alpha: a.value, alphaMissing: a.missing, notation: name)
    }

    static func mapped(_ xyz: XYZ, alpha: Double, notation: String, oklch: OKLCH? = nil) -> ParsedColor {
        // OKLab input is mapped from its own coordinates, so lightness 0 and 1 stay exactly
        // black and white instead of going through a rounding XYZ round trip.
        // (The mapping runs once, from whichever origin applies.)
        let encoded = xyz.unclampedSRGB
        if GamutMapping.isInGamut(encoded) {
            return ParsedColor(color: SRGB(red: encoded.x, green: encoded.y, blue: encoded.z, alpha: alpha), notation: notation)
        }
        let color = GamutMapping.srgb(from: oklch ?? OKLCH(OKLab(xyz)), alpha: alpha)
        return ParsedColor(color: color, notation: notation, wasOutOfGamut: true, unmappedComponents: encoded)
    }

    mutating func parseColorFunction(at offset: Int) throws(ColorParseError) -> SpacedColor {
        // color(from <color> <space> …): the space follows the origin, which is converted into it.
        skipWhitespace()
        var originColor: SpacedColor?
        if current.kind == .ident, CSSTokenizer.asciiLowercased(tokenizer.identifier(current)) == "from" {
            advance()
            originColor = try parseColorValue()
        }
        skipWhitespace()
        let spaceToken = current
        guard case .ident = spaceToken.kind else {
            throw error(.invalidArgument,
                        "color() starts with a color space (srgb, srgb-linear, display-p3, display-p3-linear, a98-rgb, prophoto-rgb, rec2020, xyz, xyz-d50, xyz-d65), found \(source(of: spaceToken))",
                        at: spaceToken.offset)
        }
        let rawSpace = tokenizer.identifier(spaceToken)
        advance()
        let spaceName = rawSpace.lowercased()
        guard let space = CSSSpace(name: spaceName), space.rgbSpace != nil || space == .xyzD50 || space == .xyzD65 else {
            throw error(.invalidArgument,
                        "'\(rawSpace)' is not a color space of color(); expected srgb, srgb-linear, display-p3, display-p3-linear, a98-rgb, prophoto-rgb, rec2020, xyz, xyz-d50 or xyz-d65",
                        at: spaceToken.offset)
        }
        let origin = originColor?.converted(to: space)
        let name = "color(\(space.name))"
        let slots = try relativeArguments("color", origin: origin, legacyAllowed: false, at: offset)
        var c = SIMD3<Double>()
        for i in 0..<3 {
            let v = try value(slots[i], i == 0 ? "the first component" : i == 1 ? "the second component" : "the third component", in: "color", percentScale: 1)
            c[i] = try finite(v, "a component", in: "color", at: slots[i].offset)
        }
        let a = try alpha(slots, origin: origin, in: "color")
        return SpacedColor(space: space, c, missing: missing(slots), alpha: a.value, alphaMissing: a.missing, notation: name)
    }

    // MARK: calc()

    /// Evaluates calc() and its relatives over numbers, percentages and angles.
    struct CalcEvaluator {
        var parser: ColorParser

        enum Value {
            case number(Double), percentage(Double), angle(Double)

            var argument: Argument {
                switch self {
                case .number(let v): .number(v)
                case .percentage(let v): .percentage(v)
                case .angle(let v): .angle(v)
                }
            }

            var magnitude: Double {
                switch self {
                case .number(let v), .percentage(let v), .angle(let v): v
                }
            }

            func with(_ v: Double) -> Value {
                switch self {
                case .number: .number(v)
                case .percentage: .percentage(v)
                case .angle: .angle(v)
                }
            }

            func sameKind(_ other: Value) -> Bool {
                switch (self, other) {
                case (.number, .number), (.percentage, .percentage), (.angle, .angle): true
                default: false
                }
            }

            var kindName: String {
                switch self {
                case .number: "a number"
                case .percentage: "a percentage"
                case .angle: "an angle"
                }
            }
        }

        static let mathFunctions: Set<String> = ["calc", "min", "max", "clamp", "abs", "sign"]

        mutating func evaluateFunction(_ name: String, at offset: Int, depth: Int) throws(ColorParseError) -> Argument {
            try evaluate(name, at: offset, depth: depth).argument
        }

        func error(_ code: ColorParseError.Code, _ message: String, at offset: Int) -> ColorParseError {
            parser.error(code, message, at: offset)
        }

        mutating func evaluate(_ name: String, at offset: Int, depth: Int) throws(ColorParseError) -> Value {
            guard CalcEvaluator.mathFunctions.contains(name) else {
                throw error(.unknownFunction, "'\(name)()' cannot stand inside a color; expected a number, percentage, angle, 'none' or calc()", at: offset)
            }
            guard depth <= CSSColor.maximumNesting else {
                throw error(.unsupported, "calc() nests deeper than \(CSSColor.maximumNesting) levels", at: offset)
            }
            var arguments: [Value] = []
            while true {
                arguments.append(try sum(depth: depth))
                parser.skipWhitespace()
                if parser.current.kind == .comma, name != "calc", name != "abs", name != "sign" {
                    parser.advance()
                    continue
                }
                break
            }
            parser.skipWhitespace()
            guard parser.current.kind == .rightParen else {
                throw error(parser.current.kind == .end ? .unexpectedEnd : .unexpectedCharacter,
                            "expected ')' to close \(name)(, found \(parser.source(of: parser.current))", at: parser.current.offset)
            }
            parser.advance()
            let first = arguments[0]
            for other in arguments.dropFirst() where !other.sameKind(first) {
                throw error(.invalidArgument, "\(name)() mixes \(first.kindName) and \(other.kindName)", at: offset)
            }
            switch name {
            case "min":
                return first.with(arguments.map(\.magnitude).reduce(.infinity) { $0.isNaN || $1.isNaN ? .nan : Swift.min($0, $1) })
            case "max":
                return first.with(arguments.map(\.magnitude).reduce(-.infinity) { $0.isNaN || $1.isNaN ? .nan : Swift.max($0, $1) })
            case "clamp":
                guard arguments.count == 3 else {
                    throw error(.wrongArguments, "clamp() takes 3 values (minimum, value, maximum), found \(arguments.count)", at: offset)
                }
                let low = arguments[0].magnitude, value = arguments[1].magnitude, high = arguments[2].magnitude
                return first.with(Swift.max(low, Swift.min(value, high)))
            case "abs":
                return first.with(Swift.abs(first.magnitude))
            case "sign":
                let v = first.magnitude
                return .number(v.isNaN ? .nan : v > 0 ? 1 : v < 0 ? -1 : 0)
            default:
                return first
            }
        }

        mutating func sum(depth: Int) throws(ColorParseError) -> Value {
            var result = try product(depth: depth)
            while true {
                let save = parser.mark
                let hadSpace = parser.current.kind == .whitespace
                parser.skipWhitespace()
                guard case .delim(let op) = parser.current.kind, op == 0x2B || op == 0x2D else {
                    parser.reset(to: save)
                    return result
                }
                let opOffset = parser.current.offset
                parser.advance()
                guard hadSpace, parser.current.kind == .whitespace else {
                    throw error(.invalidArgument, "'\(op == 0x2B ? "+" : "-")' in calc() needs a space on both sides", at: opOffset)
                }
                let rhs = try product(depth: depth)
                guard rhs.sameKind(result) else {
                    throw error(.invalidArgument, "calc() cannot add \(result.kindName) and \(rhs.kindName)", at: opOffset)
                }
                result = result.with(op == 0x2B ? result.magnitude + rhs.magnitude : result.magnitude - rhs.magnitude)
            }
        }

        mutating func product(depth: Int) throws(ColorParseError) -> Value {
            var result = try unit(depth: depth)
            while true {
                let save = parser.mark
                parser.skipWhitespace()
                let isMultiply: Bool
                switch parser.current.kind {
                case .delim(0x2A): isMultiply = true
                case .slash: isMultiply = false
                default:
                    parser.reset(to: save)
                    return result
                }
                let opOffset = parser.current.offset
                parser.advance()
                let rhs = try unit(depth: depth)
                if isMultiply {
                    if case .number(let factor) = rhs {
                        result = result.with(result.magnitude * factor)
                    } else if case .number(let factor) = result {
                        result = rhs.with(factor * rhs.magnitude)
                    } else {
                        throw error(.invalidArgument, "calc() can only multiply by a number, not \(rhs.kindName) by \(result.kindName)", at: opOffset)
                    }
                } else {
                    guard case .number(let divisor) = rhs else {
                        throw error(.invalidArgument, "calc() can only divide by a number, found \(rhs.kindName)", at: opOffset)
                    }
                    result = result.with(result.magnitude / divisor)
                }
            }
        }

        mutating func unit(depth: Int) throws(ColorParseError) -> Value {
            parser.skipWhitespace()
            let token = parser.current
            parser.advance()
            switch token.kind {
            case .number(let v): return .number(v)
            case .percentage(let v): return .percentage(v)
            case .dimension(let v):
                let unit = parser.tokenizer.unit(token)
                if let degrees = ColorParser.degrees(v, unit: unit) { return .angle(degrees) }
                throw error(.unsupported,
                            "calc() with '\(unit)' depends on the page (font size, viewport); a color must be computable on its own",
                            at: token.offset)
            case .leftParen:
                let inner = try sum(depth: depth + 1)
                parser.skipWhitespace()
                guard parser.current.kind == .rightParen else {
                    throw error(.unexpectedCharacter, "expected ')' in calc(), found \(parser.source(of: parser.current))", at: parser.current.offset)
                }
                parser.advance()
                return inner
            case .function:
                return try evaluate(parser.tokenizer.functionName(token), at: token.offset, depth: depth + 1)
            case .ident:
                let word = parser.tokenizer.identifier(token)
                if let value = parser.channelValues?[word.lowercased()] { return .number(value) }
                switch word.lowercased() {
                case "e": return .number(Double.exp(1))
                case "pi": return .number(.pi)
                case "infinity": return .number(.infinity)
                case "-infinity": return .number(-.infinity)
                case "nan": return .number(.nan)
                default:
                    throw error(.invalidArgument, "'\(word)' is not a value calc() knows; expected a number, percentage, angle, e, pi, infinity or NaN", at: token.offset)
                }
            case .end:
                throw error(.unexpectedEnd, "calc() ended early; expected a value", at: token.offset)
            default:
                throw error(.unexpectedCharacter, "expected a value in calc(), found \(parser.source(of: token))", at: token.offset)
            }
        }
    }
}
