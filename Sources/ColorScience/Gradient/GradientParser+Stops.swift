/// The stops of a gradient: each color with its positions, and the lengths and percentages they are.
extension ColorParser {

    mutating func parseStops(_ kind: Gradient.Kind, name: String) throws(ColorParseError) -> [StopItem] {
        var items: [StopItem] = []
        let angles = kind == .conic
        while true {
            skipWhitespace()
            let start = current
            switch start.kind {
            case .rightParen, .end:
                if items.isEmpty {
                    throw error(start.kind == .end ? .unexpectedEnd : .wrongArguments,
                                "\(name) needs at least one color stop (like \(name.dropLast())red, blue)), found \(source(of: start))", at: start.offset)
                }
                throw error(start.kind == .end ? .unexpectedEnd : .wrongArguments,
                            "expected a color stop after ',' in \(name), found \(source(of: start))", at: start.offset)
            default: break
            }
            if let hint = try parseLengthPercentage(angles: angles, name: name) {
                skipWhitespace()
                guard current.kind == .comma || current.kind == .rightParen else {
                    throw error(.invalidArgument, "a color stop starts with its color: expected a color before \(source(of: start)) in \(name)", at: start.offset)
                }
                guard case .stop = items.last else {
                    throw error(.wrongArguments,
                                items.isEmpty ? "a transition hint (a position alone) goes between two color stops; \(name) starts with one"
                                    : "two transition hints in a row in \(name); a color stop goes between them",
                                at: start.offset)
                }
                items.append(.hint(hint, offset: start.offset))
            } else {
                // An unquoted url(…) is one token, of its own kind.
                let image = start.kind == .url ? "url" : start.kind == .function ? tokenizer.functionName(start) : ""
                if GradientReader.imageFunctions.contains(image) {
                    throw error(.image, "\(image)() is an image, but the stops of \(name) are colors; expected a color like #1a2b3c or rebeccapurple",
                                at: start.offset)
                }
                let isRelative = startsRelativeColor()
                let schemeBefore = usedScheme
                usedScheme = false
                let color = try parseColorValue()
                let dependsOnScheme = usedScheme
                usedScheme = schemeBefore || dependsOnScheme
                var positions: [StopFixup.Written] = []
                while true {
                    skipWhitespace()
                    let at = current.offset
                    guard let p = try parseLengthPercentage(angles: angles, name: name) else { break }
                    if positions.count == 2 {
                        throw error(.wrongArguments, "a color stop of \(name) takes at most two positions, found a third", at: at)
                    }
                    positions.append(p)
                }
                items.append(.stop(color, isRelative: isRelative, dependsOnScheme: dependsOnScheme, positions: positions))
            }
            skipWhitespace()
            switch current.kind {
            case .comma:
                advance()
            case .rightParen:
                if case .hint(_, let offset) = items.last {
                    throw error(.wrongArguments, "a transition hint (a position alone) goes between two color stops; \(name) ends with one", at: offset)
                }
                advance()
                return items
            case .end:
                throw error(.unexpectedEnd, "\(name.dropLast()) is not closed: expected ',' or ')' after its last stop", at: current.offset)
            default:
                throw error(.wrongArguments, "expected ',' or ')' after a color stop of \(name), found \(source(of: current))", at: current.offset)
            }
        }
    }

    /// Whether the color at the cursor is a relative color (`rgb(from …)`), not a legacy one.
    mutating func startsRelativeColor() -> Bool {
        guard current.kind == .function else { return false }
        let saved = mark
        defer { reset(to: saved) }
        advance()
        skipWhitespace()
        return isKeyword("from")
    }

    func isKeyword(_ word: String) -> Bool {
        current.kind == .ident && CSSTokenizer.asciiLowercased(tokenizer.identifier(current)) == word
    }

    /// A stop or hint position, or a radial size or center coordinate: a percentage (as a
    /// fraction), a length, a unitless 0, an angle where `angles` (a conic gradient, as a
    /// fraction of a turn), or calc() and its relatives giving one. Nil, consuming nothing,
    /// when the cursor is at none of these.
    mutating func parseLengthPercentage(angles: Bool, name: String) throws(ColorParseError) -> StopFixup.Written? {
        let token = current
        let expected = angles ? "an angle or a percentage (like 90deg or 25%)" : "a percentage or a length (like 25% or 20px)"
        switch token.kind {
        case .percentage(let v):
            advance()
            return .fraction(v / 100)
        case .number(let v):
            guard v == 0 else {
                throw error(.invalidArgument, "a number alone cannot place anything in \(name); expected \(expected)", at: token.offset)
            }
            advance()
            return .fraction(0)
        case .dimension(let v):
            let unit = tokenizer.unit(token)
            if GradientReader.lengthUnits.contains(unit) && !angles {
                advance()
                return .length
            }
            if angles, let degrees = ColorParser.degrees(v, unit: unit) {
                advance()
                return .fraction(degrees / 360)
            }
            throw error(.invalidArgument, "'\(unit)' cannot place anything in \(name); expected \(expected)", at: token.offset)
        case .function:
            let function = tokenizer.functionName(token)
            guard CalcEvaluator.mathFunctions.contains(function) else { return nil }
            advance()
            // A length in the expression makes it a length: its value depends on the box.
            if try skipIfHoldsLength(name: name) {
                guard !angles else {
                    throw error(.invalidArgument, "\(function)() with a length cannot place anything in \(name); expected \(expected)", at: token.offset)
                }
                return .length
            }
            var calc = CalcEvaluator(parser: self)
            let value = try calc.evaluateFunction(function, at: token.offset, depth: 1)
            reset(to: calc.parser.mark)
            if case .percentage(let v) = value, !v.isFinite {
                throw error(.unsupported, "\(function)() gives \(v)%, which places nothing on the line of \(name)", at: token.offset)
            }
            if case .angle(let v) = value, !v.isFinite {
                throw error(.unsupported, "\(function)() gives an angle of \(v) degrees, which places nothing on the line of \(name)", at: token.offset)
            }
            switch value {
            case .percentage(let p): return .fraction(p / 100)
            case .angle(let d) where angles: return .fraction(d / 360)
            case .number(let n) where n == 0: return .fraction(0)
            default:
                throw error(.invalidArgument, "\(function)() gives \(value.typeName) here; \(name) expects \(expected)", at: token.offset)
            }
        default:
            return nil
        }
    }

    /// After a math function's "(": when the expression holds a length, skips to after its
    /// closing parenthesis and returns true; otherwise leaves the cursor where it was.
    mutating func skipIfHoldsLength(name: String) throws(ColorParseError) -> Bool {
        let saved = mark
        var depth = 1, holdsLength = false
        while depth > 0 {
            switch current.kind {
            case .end:
                throw error(.unexpectedEnd, "a calc() in \(name) is not closed: expected ')'", at: current.offset)
            case .function, .leftParen: depth += 1
            case .rightParen: depth -= 1
            case .dimension:
                if GradientReader.lengthUnits.contains(tokenizer.unit(current)) { holdsLength = true }
            default: break
            }
            advance()
        }
        if !holdsLength { reset(to: saved) }
        return holdsLength
    }
}
