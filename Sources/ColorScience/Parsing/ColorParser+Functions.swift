import RealModule

/// The color functions of CSS Color 4: rgb()/rgba(), hsl()/hsla(), hwb(), lab(), lch(),
/// oklab(), oklch() and color(), each with its relative form (`rgb(from C r g b)`).
extension ColorParser {
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
}
