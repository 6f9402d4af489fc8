import RealModule

/// CSS Color 5: relative colors' origins and channel keywords, color-mix() and light-dark().
extension ColorParser {
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
}
