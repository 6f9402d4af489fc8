import RealModule

/// calc(), min(), max(), clamp(), abs() and sign() over numbers, percentages and angles inside
/// a color function's arguments.
extension ColorParser {
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
