import RealModule

/// A color function's arguments: read up to its ")", their separators checked (legacy commas or
/// modern spaces and a slash), and each resolved to a channel value, a hue or an alpha.
extension ColorParser {
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
}
