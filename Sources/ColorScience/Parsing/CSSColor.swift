import RealModule

/// Reads CSS Color Level 4 text into sRGB.
///
/// Accepted: `#rgb #rgba #rrggbb #rrggbbaa`; the 148 named colors and `transparent`;
/// `rgb()`/`rgba()` and `hsl()`/`hsla()` in legacy comma syntax and modern space syntax with
/// `/ alpha` and `none`; `hwb()`; `lab() lch() oklab() oklch()`; `color()` in `srgb`,
/// `srgb-linear`, `display-p3`, `a98-rgb`, `prophoto-rgb`, `rec2020`, `xyz`, `xyz-d50` and
/// `xyz-d65`; and `calc()`, `min()`, `max()`, `clamp()`, `abs()` and `sign()` over numbers,
/// percentages and angles inside them. Values are clamped as browsers clamp them; colors outside
/// sRGB are gamut-mapped and flagged, never clipped silently.
///
/// Rejected, with a ``ColorParseError`` that says what was expected and at which byte: anything
/// else, including `currentColor` and system colors (their value depends on a document).
public enum CSSColor {
    /// The longest text accepted, in UTF-8 bytes. Real colors are far shorter; the limit keeps
    /// hostile input (a 100 KB string) cheap to reject.
    public static let maximumLength = 1024

    /// How deeply `calc()` expressions may nest.
    static let maximumNesting = 32

    /// Parses `text` as a CSS color.
    public static func parse(_ text: String) throws(ColorParseError) -> ParsedColor {
        let byteCount = text.utf8.count
        if byteCount > maximumLength {
            throw ColorParseError(code: .tooLong,
                                  message: "color text is \(byteCount) bytes; the limit is \(maximumLength)",
                                  offset: maximumLength, input: text)
        }
        if let fast = fastHex(text) { return fast }
        var parser = ColorParser(text: text)
        return try parser.parseColor()
    }

    /// `#rrggbb` and `#rrggbbaa` without whitespace, read straight from the bytes (the common
    /// case in palettes); anything else goes through the full parser.
    static func fastHex(_ text: String) -> ParsedColor? {
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { bytes -> ParsedColor? in
            guard bytes.count == 7 || bytes.count == 9, bytes[0] == UInt8(ascii: "#") else { return nil }
            var value: UInt32 = 0
            for index in 1..<bytes.count {
                let b = bytes[index]
                let digit: UInt8
                switch b {
                case 0x30...0x39: digit = b - 0x30
                case 0x61...0x66: digit = b - 0x61 + 10
                case 0x41...0x46: digit = b - 0x41 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            if bytes.count == 7 { return ParsedColor(color: SRGB(rgb24: value), notation: "hex") }
            return ParsedColor(color: SRGB(rgb24: value >> 8, alpha: Double(value & 0xFF) / 255), notation: "hex")
        } ?? nil
    }
}

/// One argument of a color function.
private enum Argument {
    case number(Double)
    case percentage(Double)
    case angle(Double)  // degrees
    case none
    case keyword(String)

    var typeName: String {
        switch self {
        case .number: "a number"
        case .percentage: "a percentage"
        case .angle: "an angle"
        case .none: "'none'"
        case .keyword(let word): "the keyword '\(word)'"
        }
    }
}

private struct Slot {
    var argument: Argument
    var offset: Int
}

private struct ColorParser {
    let text: String
    let bytes: [UInt8]
    let tokens: [CSSToken]
    var index = 0

    init(text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
        self.tokens = CSSTokenizer.tokenize(bytes)
    }

    // MARK: Token helpers

    var current: CSSToken { tokens[index] }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

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
        skipWhitespace()
        let token = current
        let parsed: ParsedColor
        switch token.kind {
        case .end:
            throw error(.empty, "expected a color (like #1a2b3c, rebeccapurple or rgb(0 0 0)), found nothing", at: token.offset)
        case .hash(let digits):
            advance()
            let next = current
            if next.kind != .end && next.kind != .whitespace && next.offset == token.offset + token.length {
                throw error(.invalidHex, "expected a hex digit (0-9, a-f), found \(source(of: next))", at: next.offset)
            }
            parsed = try parseHex(digits, at: token.offset)
        case .ident(let name):
            advance()
            parsed = try parseName(name, at: token.offset)
        case .function(let name):
            advance()
            parsed = try parseFunction(name, at: token.offset)
        default:
            throw error(.unexpectedCharacter,
                        "expected a color (like #1a2b3c, rebeccapurple or rgb(0 0 0)), found \(source(of: token))",
                        at: token.offset)
        }
        skipWhitespace()
        if current.kind != .end {
            throw error(.trailingInput, "expected the end of the color, found \(source(of: current))", at: current.offset)
        }
        return parsed
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

    mutating func parseFunction(_ name: String, at offset: Int) throws(ColorParseError) -> ParsedColor {
        switch name {
        case "rgb", "rgba": return try parseRGB(name, at: offset)
        case "hsl", "hsla": return try parseHSL(name, at: offset)
        case "hwb": return try parseHWB(at: offset)
        case "lab", "lch", "oklab", "oklch": return try parseLab(name, at: offset)
        case "color": return try parseColorFunction(at: offset)
        default:
            throw error(.unknownFunction,
                        "'\(name)()' is not a color function; expected rgb(), rgba(), hsl(), hsla(), hwb(), lab(), lch(), oklab(), oklch() or color()",
                        at: offset)
        }
    }

    /// The arguments up to the closing parenthesis: values, and whether commas separated them.
    mutating func parseArguments(_ name: String, at offset: Int) throws(ColorParseError) -> (slots: [Slot], commas: [Int], slashes: [Int], close: Int) {
        var slots: [Slot] = [], commas: [Int] = [], slashes: [Int] = []
        // The order of values, commas and slashes, to check where the separators stand.
        var sequence: [Character] = []
        while true {
            skipWhitespace()
            let token = current
            switch token.kind {
            case .rightParen:
                advance()
                try checkSeparators(sequence, slots: slots, commas: commas, slashes: slashes, name: name, at: offset)
                return (slots, commas, slashes, token.offset)
            case .end:
                throw error(.unexpectedEnd, "expected ')' to close \(name)(", at: token.offset)
            case .comma:
                commas.append(token.offset)
                sequence.append(",")
                advance()
            case .slash:
                slashes.append(token.offset)
                sequence.append("/")
                advance()
            case .number(let v):
                slots.append(Slot(argument: .number(v), offset: token.offset)); sequence.append("v"); advance()
            case .percentage(let v):
                slots.append(Slot(argument: .percentage(v), offset: token.offset)); sequence.append("v"); advance()
            case .dimension(let v, let unit):
                guard let degrees = ColorParser.degrees(v, unit: unit) else {
                    throw error(.invalidArgument, "'\(unit)' is not a unit a color takes; expected a number, a percentage or an angle (deg, rad, grad, turn)", at: token.offset)
                }
                slots.append(Slot(argument: .angle(degrees), offset: token.offset)); sequence.append("v"); advance()
            case .ident(let word):
                let argument: Argument = word.lowercased() == "none" ? .none : .keyword(word)
                slots.append(Slot(argument: argument, offset: token.offset)); sequence.append("v"); advance()
            case .function(let inner):
                advance()
                var calc = CalcEvaluator(parser: self)
                let value = try calc.evaluateFunction(inner, at: token.offset, depth: 1)
                index = calc.parser.index
                slots.append(Slot(argument: value, offset: token.offset)); sequence.append("v")
            default:
                throw error(.unexpectedCharacter, "unexpected \(source(of: token)) in \(name)()", at: token.offset)
            }
        }
    }

    func checkSeparators(_ sequence: [Character], slots: [Slot], commas: [Int], slashes: [Int], name: String, at offset: Int) throws(ColorParseError) {
        if let first = sequence.first, first != "v" {
            let at = first == "," ? commas[0] : slashes[0]
            throw error(.wrongArguments, "\(name)() cannot start with '\(first)'; expected a value first", at: at)
        }
        for i in sequence.indices.dropFirst() where sequence[i] != "v" && sequence[i - 1] != "v" {
            let at = sequence[i] == "," ? commas.first(where: { $0 > (slots.last?.offset ?? 0) }) ?? commas.last ?? offset : slashes.last ?? offset
            throw error(.wrongArguments, "two separators in a row in \(name)(); expected a value between them", at: at)
        }
        if let last = sequence.last, last != "v" {
            let at = last == "," ? (commas.last ?? offset) : (slashes.last ?? offset)
            throw error(.wrongArguments, "\(name)() cannot end with '\(last)'; expected a value after it", at: at)
        }
        if slashes.count > 1 {
            throw error(.wrongArguments, "\(name)() takes at most one '/' (before the alpha)", at: slashes[1])
        }
        if !commas.isEmpty && !slashes.isEmpty {
            throw error(.wrongArguments,
                        "\(name)() mixes the legacy comma syntax with the modern '/ alpha' syntax; use 'rgb(1 2 3 / 0.5)' or 'rgb(1, 2, 3, 0.5)'",
                        at: slashes[0])
        }
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
    func channels(_ name: String, _ args: (slots: [Slot], commas: [Int], slashes: [Int], close: Int),
                  legacyAllowed: Bool, at offset: Int) throws(ColorParseError) -> (channels: [Slot], alpha: Slot?, legacy: Bool) {
        let slots = args.slots
        let legacy = !args.commas.isEmpty
        if legacy {
            guard legacyAllowed else {
                throw error(.wrongArguments, "\(name)() takes space-separated values, not commas (like \(name)(120 30% 50% / 0.5))", at: args.commas[0])
            }
            guard slots.count == 3 || slots.count == 4 else {
                throw error(.wrongArguments, "\(name)() takes 3 values and an optional alpha, found \(slots.count)", at: args.close)
            }
            guard args.commas.count == slots.count - 1 else {
                throw error(.wrongArguments,
                            "\(name)() with commas needs a comma between every value; don't mix commas and spaces",
                            at: args.commas.count < slots.count - 1 ? slots[args.commas.count + 1].offset : args.commas.last ?? offset)
            }
            for slot in slots {
                if case .none = slot.argument {
                    throw error(.invalidArgument, "'none' is not allowed in the legacy comma syntax of \(name)(); use the space syntax", at: slot.offset)
                }
            }
            return (Array(slots.prefix(3)), slots.count == 4 ? slots[3] : nil, true)
        }
        if let slash = args.slashes.first {
            let before = slots.filter { $0.offset < slash }
            let after = slots.filter { $0.offset > slash }
            guard before.count == 3 else {
                throw error(.wrongArguments, "\(name)() takes 3 values before '/', found \(before.count)", at: slash)
            }
            guard after.count == 1 else {
                throw error(.wrongArguments, "\(name)() takes one alpha value after '/', found \(after.count)", at: after.count > 1 ? after[1].offset : slash)
            }
            return (before, after[0], false)
        }
        guard slots.count == 3 else {
            let at = slots.count > 3 ? slots[3].offset : args.close
            throw error(.wrongArguments,
                        "\(name)() takes 3 values and an optional '/ alpha', found \(slots.count) value\(slots.count == 1 ? "" : "s")",
                        at: at)
        }
        return (slots, nil, false)
    }

    // MARK: Argument resolution

    func rejectKeyword(_ slot: Slot, _ what: String, in name: String) throws(ColorParseError) -> Never {
        throw error(.invalidArgument, "\(what) of \(name)() cannot be \(slot.argument.typeName)", at: slot.offset)
    }

    /// A number or percentage scaled so that 100% = `percentScale`; `none` is 0.
    func value(_ slot: Slot, _ what: String, in name: String, percentScale: Double,
               allowNumber: Bool = true, allowPercentage: Bool = true) throws(ColorParseError) -> Double {
        switch slot.argument {
        case .number(let v) where allowNumber: return v
        case .percentage(let v) where allowPercentage: return v / 100 * percentScale
        case .none: return 0
        default:
            let expected = allowNumber && allowPercentage ? "a number or a percentage"
                : allowNumber ? "a number" : "a percentage"
            throw error(.invalidArgument, "\(what) of \(name)() must be \(expected), found \(slot.argument.typeName)", at: slot.offset)
        }
    }

    func hue(_ slot: Slot, in name: String) throws(ColorParseError) -> Double {
        switch slot.argument {
        case .number(let v), .angle(let v): return HSL.normalizedHue(v)
        case .none: return 0
        default:
            throw error(.invalidArgument, "the hue of \(name)() must be a number or an angle (deg, rad, grad, turn), found \(slot.argument.typeName)", at: slot.offset)
        }
    }

    func alpha(_ slot: Slot?, in name: String) throws(ColorParseError) -> Double {
        guard let slot else { return 1 }
        let v = try value(slot, "the alpha", in: name, percentScale: 1)
        return v.isNaN ? 0 : min(1, max(0, v))
    }

    // MARK: sRGB functions

    mutating func parseRGB(_ name: String, at offset: Int) throws(ColorParseError) -> ParsedColor {
        let args = try parseArguments(name, at: offset)
        let (slots, alphaSlot, legacy) = try channels(name, args, legacyAllowed: true, at: offset)
        let names = ["the red channel", "the green channel", "the blue channel"]
        if legacy {
            let percentages = slots.filter { if case .percentage = $0.argument { true } else { false } }.count
            if percentages != 0 && percentages != 3 {
                let odd = slots.first { if case .percentage = $0.argument { percentages == 1 } else { percentages == 2 } } ?? slots[0]
                throw error(.invalidArgument, "legacy \(name)() needs all numbers or all percentages for red, green and blue", at: odd.offset)
            }
        }
        var rgb: [Double] = []
        for (i, slot) in slots.enumerated() {
            let v = try value(slot, names[i], in: name, percentScale: 255)
            rgb.append(v.isNaN ? 0 : min(255, max(0, v)) / 255)
        }
        let a = try alpha(alphaSlot, in: name)
        return ParsedColor(color: SRGB(red: rgb[0], green: rgb[1], blue: rgb[2], alpha: a), notation: "rgb")
    }

    mutating func parseHSL(_ name: String, at offset: Int) throws(ColorParseError) -> ParsedColor {
        let args = try parseArguments(name, at: offset)
        let (slots, alphaSlot, legacy) = try channels(name, args, legacyAllowed: true, at: offset)
        let h = try hue(slots[0], in: name)
        // Legacy syntax takes percentages only; the modern one also numbers (0-100).
        var s = try value(slots[1], "the saturation", in: name, percentScale: 100, allowNumber: !legacy)
        var l = try value(slots[2], "the lightness", in: name, percentScale: 100, allowNumber: !legacy)
        s = s.isNaN ? 0 : max(0, min(100, s))
        l = l.isNaN ? 0 : max(0, min(100, l))
        let a = try alpha(alphaSlot, in: name)
        var color = HSL(hue: h, saturation: s / 100, lightness: l / 100).srgb
        color.alpha = a
        return ParsedColor(color: color, notation: "hsl")
    }

    mutating func parseHWB(at offset: Int) throws(ColorParseError) -> ParsedColor {
        let args = try parseArguments("hwb", at: offset)
        let (slots, alphaSlot, _) = try channels("hwb", args, legacyAllowed: false, at: offset)
        let h = try hue(slots[0], in: "hwb")
        var w = try value(slots[1], "the whiteness", in: "hwb", percentScale: 100)
        var b = try value(slots[2], "the blackness", in: "hwb", percentScale: 100)
        w = w.isNaN ? 0 : max(0, min(100, w))
        b = b.isNaN ? 0 : max(0, min(100, b))
        let a = try alpha(alphaSlot, in: "hwb")
        var color = HWB(hue: h, whiteness: w / 100, blackness: b / 100).srgb
        color.alpha = a
        return ParsedColor(color: color, notation: "hwb")
    }

    // MARK: Lab-like and color()

    func finite(_ v: Double, _ what: String, in name: String, at offset: Int) throws(ColorParseError) -> Double {
        if v.isNaN { return 0 }
        if v.isInfinite {
            throw error(.unsupported, "\(what) of \(name)() is infinite; no sRGB color corresponds to it", at: offset)
        }
        return v
    }

    mutating func parseLab(_ name: String, at offset: Int) throws(ColorParseError) -> ParsedColor {
        let args = try parseArguments(name, at: offset)
        let (slots, alphaSlot, _) = try channels(name, args, legacyAllowed: false, at: offset)
        let isOK = name.hasPrefix("ok")
        let isPolar = name.hasSuffix("ch")
        let lightnessScale = isOK ? 1.0 : 100.0
        var l = try value(slots[0], "the lightness", in: name, percentScale: lightnessScale)
        l = l.isNaN ? 0 : max(0, min(lightnessScale, l))
        let a = try alpha(alphaSlot, in: name)
        if isPolar {
            var c = try value(slots[1], "the chroma", in: name, percentScale: isOK ? 0.4 : 150)
            c = try finite(max(0, c.isNaN ? 0 : c), "the chroma", in: name, at: slots[1].offset)
            let h = try hue(slots[2], in: name)
            if isOK {
                let origin = OKLCH(l: l, c: c, h: h)
                return mapped(origin.oklab.xyz, alpha: a, notation: name, oklch: origin)
            }
            return mapped(CIELCH(l: l, c: c, h: h).lab.xyz, alpha: a, notation: name)
        }
        let scale = isOK ? 0.4 : 125
        let aAxis = try finite(try value(slots[1], "the a axis", in: name, percentScale: scale), "the a axis", in: name, at: slots[1].offset)
        let bAxis = try finite(try value(slots[2], "the b axis", in: name, percentScale: scale), "the b axis", in: name, at: slots[2].offset)
        if isOK {
            let origin = OKLab(l: l, a: aAxis, b: bAxis)
            return mapped(origin.xyz, alpha: a, notation: name, oklch: OKLCH(origin))
        }
        return mapped(CIELab(l: l, a: aAxis, b: bAxis).xyz, alpha: a, notation: name)
    }

    func mapped(_ xyz: XYZ, alpha: Double, notation: String, oklch: OKLCH? = nil) -> ParsedColor {
        // OKLab input is mapped from its own coordinates, so lightness 0 and 1 stay exactly
        // black and white instead of going through a rounding XYZ round trip.
        var (color, outside) = GamutMapping.srgb(from: xyz, alpha: alpha)
        if outside, let oklch { color = GamutMapping.srgb(from: oklch, alpha: alpha) }
        return ParsedColor(color: color, notation: notation, wasOutOfGamut: outside,
                           unmappedComponents: outside ? xyz.unclampedSRGB : nil)
    }

    mutating func parseColorFunction(at offset: Int) throws(ColorParseError) -> ParsedColor {
        skipWhitespace()
        let spaceToken = current
        guard case .ident(let rawSpace) = spaceToken.kind else {
            throw error(.invalidArgument,
                        "color() starts with a color space (srgb, srgb-linear, display-p3, a98-rgb, prophoto-rgb, rec2020, xyz, xyz-d50, xyz-d65), found \(source(of: spaceToken))",
                        at: spaceToken.offset)
        }
        advance()
        let spaceName = rawSpace.lowercased()
        let rgbSpace = RGBSpace.all.first { $0.name == spaceName }
        let isXYZ = ["xyz", "xyz-d50", "xyz-d65"].contains(spaceName)
        guard rgbSpace != nil || isXYZ else {
            throw error(.invalidArgument,
                        "'\(rawSpace)' is not a color space of color(); expected srgb, srgb-linear, display-p3, a98-rgb, prophoto-rgb, rec2020, xyz, xyz-d50 or xyz-d65",
                        at: spaceToken.offset)
        }
        let name = "color(\(spaceName == "xyz" ? "xyz-d65" : spaceName))"
        let args = try parseArguments("color", at: offset)
        let (slots, alphaSlot, _) = try channels("color", args, legacyAllowed: false, at: offset)
        var c = SIMD3<Double>()
        for i in 0..<3 {
            let v = try value(slots[i], ["the first component", "the second component", "the third component"][i], in: "color", percentScale: 1)
            c[i] = try finite(v, "a component", in: "color", at: slots[i].offset)
        }
        let a = try alpha(alphaSlot, in: "color")
        if let rgbSpace {
            if rgbSpace == .srgb && GamutMapping.isInGamut(c) {
                return ParsedColor(color: SRGB(red: c.x, green: c.y, blue: c.z, alpha: a), notation: name)
            }
            return mapped(rgbSpace.xyz(c), alpha: a, notation: name)
        }
        let xyz = spaceName == "xyz-d50" ? XYZ(adaptingD50: c) : XYZ(x: c.x, y: c.y, z: c.z)
        return mapped(xyz, alpha: a, notation: name)
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
                let save = parser.index
                let hadSpace = parser.current.kind == .whitespace
                parser.skipWhitespace()
                guard case .delim(let op) = parser.current.kind, op == 0x2B || op == 0x2D else {
                    parser.index = save
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
                let save = parser.index
                parser.skipWhitespace()
                let isMultiply: Bool
                switch parser.current.kind {
                case .delim(0x2A): isMultiply = true
                case .slash: isMultiply = false
                default:
                    parser.index = save
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
            case .dimension(let v, let unit):
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
            case .function(let name):
                return try evaluate(name, at: token.offset, depth: depth + 1)
            case .ident(let word):
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
