/// Reads the CSS gradient functions (CSS Images 3 §3, CSS Images 4 §3) with the color parser's
/// tokenizer, so every stop color is any color ``CSSColor`` reads.
enum GradientReader {
    static func read(_ text: String, scheme: ColorScheme?) throws(ColorParseError) -> Gradient {
        let byteCount = text.utf8.count
        if byteCount > Gradient.maximumLength {
            throw ColorParseError(code: .tooLong, message: "gradient text is \(byteCount) bytes; the limit is \(Gradient.maximumLength)",
                                  offset: Gradient.maximumLength, input: text)
        }
        let copy = Array(text.utf8)
        return try copy.withUnsafeBufferPointer { bytes throws(ColorParseError) -> Gradient in
            var parser = ColorParser(text: text, bytes: bytes, scheme: scheme)
            return try parser.parseGradient()
        }
    }

    /// Image functions: their colors come from files or the document, never from the text.
    static let imageFunctions: Set<String> = [
        "url", "image", "image-set", "-webkit-image-set", "cross-fade", "-webkit-cross-fade", "element", "-moz-element", "paint", "src",
        "linear-gradient", "radial-gradient", "conic-gradient",
        "repeating-linear-gradient", "repeating-radial-gradient", "repeating-conic-gradient",
    ]

    /// CSS Values 4 §6 (absolute and relative lengths, viewport and container units).
    static let lengthUnits: Set<String> = [
        "px", "cm", "mm", "q", "in", "pt", "pc",
        "em", "rem", "ex", "rex", "cap", "rcap", "ch", "rch", "ic", "ric", "lh", "rlh",
        "vw", "vh", "vi", "vb", "vmin", "vmax", "svw", "svh", "svi", "svb", "svmin", "svmax",
        "lvw", "lvh", "lvi", "lvb", "lvmin", "lvmax", "dvw", "dvh", "dvi", "dvb", "dvmin", "dvmax",
        "cqw", "cqh", "cqi", "cqb", "cqmin", "cqmax",
    ]

    static let expectedFunctions = "linear-gradient(), radial-gradient(), conic-gradient() or a repeating- form"
}

/// What the part before the stops says that matters to the colors.
struct Prelude {
    var method: InterpolationMethod?
    var extendsPastEnd = false
}

/// One value of a `<position>`.
enum PositionPart: String {
    case left, right, top, bottom, center
    case amount  // a length or percentage

    var isHorizontal: Bool { self == .left || self == .right }
    var isVertical: Bool { self == .top || self == .bottom }

    /// CSS Values 4 §9.1: one value; two keywords of different axes in either order, or a
    /// horizontal then a vertical value; or a side and an offset for each axis.
    static func isValid(_ parts: [PositionPart]) -> Bool {
        switch parts.count {
        case 1: return true
        case 2:
            let (a, b) = (parts[0], parts[1])
            if a != .amount && b != .amount { return !(a.isHorizontal && b.isHorizontal) && !(a.isVertical && b.isVertical) }
            return !a.isVertical && !b.isHorizontal
        case 4:
            return parts[1] == .amount && parts[3] == .amount
                && ((parts[0].isHorizontal && parts[2].isVertical) || (parts[0].isVertical && parts[2].isHorizontal))
        default: return false
        }
    }
}

/// One item of a color stop list as written.
enum StopItem {
    case stop(SpacedColor, isRelative: Bool, dependsOnScheme: Bool, positions: [StopFixup.Written])
    case hint(StopFixup.Written, offset: Int)
}

extension ColorParser {
    mutating func parseGradient() throws(ColorParseError) -> Gradient {
        skipWhitespace()
        let head = current
        guard head.kind == .function, let found = gradientFunction(head) else { throw notGradient(head) }
        let (kind, repeating) = found
        advance()
        let name = tokenizer.functionName(head) + "()"
        let prelude = try parsePrelude(kind, name: name)
        let items = try parseStops(kind, name: name)
        skipWhitespace()
        if current.kind != .end {
            throw error(.trailingInput, "expected the end of the gradient after its ')', found \(source(of: current))", at: current.offset)
        }

        // The entries of the fix-up, and which stop each one belongs to.
        var entries: [StopFixup.Entry] = []
        for item in items {
            switch item {
            case .stop(_, _, _, let positions):
                if positions.isEmpty { entries.append(StopFixup.Entry(isHint: false, written: nil)) }
                for p in positions { entries.append(StopFixup.Entry(isHint: false, written: p)) }
            case .hint(let p, _):
                entries.append(StopFixup.Entry(isHint: true, written: p))
            }
        }
        let placed = StopFixup.resolve(entries)
        var stops: [GradientStop] = []
        var index = 0
        for item in items {
            switch item {
            case .stop(let color, let isRelative, let dependsOnScheme, let positions):
                var shown = ColorParser.display(color)
                shown.dependsOnScheme = dependsOnScheme
                for _ in 0..<max(1, positions.count) {
                    let place = placed[index]
                    var stop = GradientStop(color: shown, position: place.isKnown ? place.position : nil)
                    stop.written = color
                    stop.isRelative = isRelative
                    stop.layoutPosition = place.position
                    stops.append(stop)
                    index += 1
                }
            case .hint(let written, _):
                stops[stops.count - 1].hintAfter = written == .length ? .length : .at(placed[index].position)
                index += 1
            }
        }
        let hasLengths = entries.contains { $0.written == .length }
        var gradient = Gradient(kind: kind, repeating: repeating, interpolation: "", stops: stops, hasLengthPositions: hasLengths)
        gradient.interpolation = (prelude.method ?? InterpolationMethod.defaultMethod(for: stops)).description
        gradient.extendsPastEnd = prelude.extendsPastEnd
        return gradient
    }

    /// The gradient a function token opens, by its name.
    func gradientFunction(_ token: CSSToken) -> (Gradient.Kind, Bool)? {
        var name = Substring(tokenizer.functionName(token))
        let repeating = name.hasPrefix("repeating-")
        if repeating { name = name.dropFirst("repeating-".count) }
        guard name.hasSuffix("-gradient"), let kind = Gradient.Kind(rawValue: String(name.dropLast("-gradient".count))) else { return nil }
        return (kind, repeating)
    }

    /// The error for text that does not start with a gradient function.
    func notGradient(_ token: CSSToken) -> ColorParseError {
        switch token.kind {
        case .end:
            return error(.empty, "expected a gradient like linear-gradient(red, blue), found nothing", at: token.offset)
        case .url:  // an unquoted url(…) is one token
            return error(.image, "url() is an image whose colors are not in the text; expected \(GradientReader.expectedFunctions)", at: token.offset)
        case .function:
            let name = tokenizer.functionName(token)
            if GradientReader.imageFunctions.contains(name) {
                return error(.image, "\(name)() is an image whose colors are not in the text; expected \(GradientReader.expectedFunctions)", at: token.offset)
            }
            if name.hasPrefix("-") && name.hasSuffix("-gradient") {
                return error(.notGradient, "\(name)() is a prefixed gradient with an older syntax; write it without the prefix", at: token.offset)
            }
            if ColorFunction(token, in: tokenizer) != nil {
                return error(.notGradient, "\(name)() is a color, not a gradient; expected \(GradientReader.expectedFunctions)", at: token.offset)
            }
            return error(.notGradient, "'\(name)()' is not a gradient; expected \(GradientReader.expectedFunctions)", at: token.offset)
        case .hash:
            return error(.notGradient, "\(source(of: token)) is a color, not a gradient; expected \(GradientReader.expectedFunctions)", at: token.offset)
        default:
            return error(.notGradient, "expected \(GradientReader.expectedFunctions), found \(source(of: token))", at: token.offset)
        }
    }

    // MARK: Before the stops

    /// The direction, shape, size, center and `in …` before the first stop, up to its comma;
    /// empty when the list starts with a color.
    mutating func parsePrelude(_ kind: Gradient.Kind, name: String) throws(ColorParseError) -> Prelude {
        var prelude = Prelude()
        var sawGeometry = false, sawAny = false
        var what = ""  // what the prelude was, for the message about its comma
        while true {
            skipWhitespace()
            if isKeyword("in") {
                let at = current.offset
                guard prelude.method == nil else {
                    throw error(.wrongArguments, "\(name) takes one color interpolation method ('in …')", at: at)
                }
                advance()
                let (space, hue) = try parseInterpolationMethod(purpose: "\(name) interpolates")
                prelude.method = InterpolationMethod(space: space, hue: hue)
                sawAny = true
                what = what.isEmpty ? "color interpolation method" : what
                continue
            }
            if !sawGeometry, let geometry = try parseGeometry(kind, name: name, into: &prelude) {
                sawGeometry = true
                sawAny = true
                what = geometry
                continue
            }
            break
        }
        guard sawAny else { return prelude }
        skipWhitespace()
        guard current.kind == .comma else {
            throw error(current.kind == .end ? .unexpectedEnd : .wrongArguments,
                        "expected ',' after the \(what) of \(name), found \(source(of: current))", at: current.offset)
        }
        advance()
        return prelude
    }

    /// The shape of the gradient: what it was ("direction", "shape", "center"…), or nil when
    /// the cursor is not at one (nothing is consumed then).
    mutating func parseGeometry(_ kind: Gradient.Kind, name: String, into prelude: inout Prelude) throws(ColorParseError) -> String? {
        switch kind {
        case .linear:
            if case .dimension(_) = current.kind, ColorParser.degrees(0, unit: tokenizer.unit(current)) != nil {
                advance()
                return "angle"
            }
            if case .number(let v) = current.kind, v == 0 {
                // A unitless zero is an angle only where a stop cannot follow it.
                let saved = mark
                advance()
                skipWhitespace()
                if current.kind == .comma || isKeyword("in") { return "angle" }
                reset(to: saved)
                return nil
            }
            guard isKeyword("to") else { return nil }
            advance()
            var horizontal: String?, vertical: String?
            while true {
                skipWhitespace()
                guard current.kind == .ident else { break }
                let word = CSSTokenizer.asciiLowercased(tokenizer.identifier(current))
                if (word == "left" || word == "right") && horizontal == nil {
                    horizontal = word
                } else if (word == "top" || word == "bottom") && vertical == nil {
                    vertical = word
                } else {
                    break
                }
                advance()
            }
            if horizontal == nil && vertical == nil {
                throw error(.invalidArgument, "expected left, right, top or bottom after 'to' in \(name), found \(source(of: current))", at: current.offset)
            }
            return "direction"
        case .conic:
            var found: String?
            if isKeyword("from") {
                advance()
                skipWhitespace()
                switch current.kind {
                case .dimension(_) where ColorParser.degrees(0, unit: tokenizer.unit(current)) != nil: advance()
                case .number(let v) where v == 0: advance()
                default:
                    throw error(.invalidArgument, "expected an angle after 'from' in \(name) (like 'from 90deg'), found \(source(of: current))", at: current.offset)
                }
                found = "starting angle"
            }
            return try parseCenter(name: name, orElse: found)
        case .radial:
            var shape: String?, extent: String?
            var sizes: [(value: StopFixup.Written, isPercentage: Bool, offset: Int)] = []
            while true {
                skipWhitespace()
                if current.kind == .ident {
                    let word = CSSTokenizer.asciiLowercased(tokenizer.identifier(current))
                    if (word == "circle" || word == "ellipse") && shape == nil {
                        shape = word
                        advance()
                        continue
                    }
                    if ["closest-side", "closest-corner", "farthest-side", "farthest-corner"].contains(word) && extent == nil && sizes.isEmpty {
                        extent = word
                        advance()
                        continue
                    }
                    break
                }
                guard extent == nil && sizes.count < 2 else { break }
                let offset = current.offset
                let isPercentage: Bool
                if case .percentage = current.kind { isPercentage = true } else { isPercentage = false }
                guard let size = try parseLengthPercentage(angles: false, name: name) else { break }
                if case .fraction(let f) = size, f < 0 {
                    throw error(.invalidArgument, "the size of \(name) cannot be negative", at: offset)
                }
                sizes.append((size, isPercentage, offset))
            }
            if !sizes.isEmpty {
                let isCircle = shape == "circle" || (shape == nil && sizes.count == 1)
                if isCircle && (sizes.count != 1 || sizes[0].isPercentage) {
                    throw error(.invalidArgument,
                                "a circle's size in \(name) is one length (like 40px) or closest-side, closest-corner, farthest-side or farthest-corner",
                                at: sizes[sizes.count == 1 ? 0 : 1].offset)
                }
                if !isCircle && sizes.count != 2 {
                    throw error(.invalidArgument,
                                "an ellipse's size in \(name) is two lengths or percentages (like 40px 20%) or closest-side, closest-corner, farthest-side or farthest-corner",
                                at: sizes[0].offset)
                }
            }
            // Beyond the ending shape the box shows the colors past 100 % (farthest-corner,
            // the default, reaches every corner).
            prelude.extendsPastEnd = !sizes.isEmpty || (extent != nil && extent != "farthest-corner")
            return try parseCenter(name: name, orElse: shape != nil || extent != nil || !sizes.isEmpty ? "shape" : nil)
        }
    }

    /// The `at <position>` that may end a conic or radial gradient's geometry: "center" when
    /// it is there, else `found` (what the geometry had before it).
    mutating func parseCenter(name: String, orElse found: String?) throws(ColorParseError) -> String? {
        skipWhitespace()
        guard isKeyword("at") else { return found }
        advance()
        try parsePosition(name: name)
        return "center"
    }

    /// A `<position>` (CSS Values 4 §9.1): one or two keywords or lengths, or four values
    /// `left|right <length-percentage> top|bottom <length-percentage>` in either order.
    mutating func parsePosition(name: String) throws(ColorParseError) {
        var parts: [(part: PositionPart, offset: Int)] = []
        skipWhitespace()
        while parts.count < 5 {
            let offset = current.offset
            if current.kind == .ident {
                guard let part = PositionPart(rawValue: CSSTokenizer.asciiLowercased(tokenizer.identifier(current))) else { break }
                parts.append((part, offset))
                advance()
            } else if try parseLengthPercentage(angles: false, name: name) != nil {
                parts.append((.amount, offset))
            } else {
                break
            }
            skipWhitespace()
        }
        guard let first = parts.first else {
            throw error(.invalidArgument, "expected a position after 'at' in \(name) (like 'at center' or 'at 30% 70%'), found \(source(of: current))", at: current.offset)
        }
        if !PositionPart.isValid(parts.map(\.part)) {
            throw error(.invalidArgument,
                        "'at' in \(name) takes a position of 1, 2 or 4 values (like 'at center', 'at left 30%' or 'at right 10px bottom 20%')",
                        at: first.offset)
        }
    }
}
