public import ColorScience

/// A change a source format applies to a token's resolved color: a Tokens Studio color
/// modifier (`$extensions["studio.tokens"].modify`), or Primer's `alpha` token property.
///
/// The math follows Tokens Studio's implementation (colorjs.io underneath): lighten and darken
/// move each channel toward white or black by `amount` in the named space (in LCH chroma is
/// reduced by `amount` too), mix interpolates toward `color` by `amount` (not premultiplied, hue
/// by the shorter arc), and alpha sets the alpha. A space Tokens Studio does not handle leaves
/// the color unchanged, as Tokens Studio does.
public struct ColorOperation: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case lighten, darken, mix, alpha
    }

    public var kind: Kind
    /// The amount, once known (a reference in the source is resolved when the set is complete).
    public var amount: Double?
    /// The amount as written (`"0.2"`, `"{opacity.muted}"`).
    public var amountText: String
    /// `srgb`, `hsl`, `lch` or `p3`.
    public var space: String
    /// For mix: the other color (CSS or a reference).
    public var color: String?
    /// What the source wrote, for messages and reports.
    public var origin: String
    public var pointer: JSONPointer
    public var location: SourceLocation?

    public static func setAlpha(_ alpha: Double, origin: String, pointer: JSONPointer = JSONPointer(), location: SourceLocation? = nil) -> ColorOperation {
        ColorOperation(kind: .alpha, amount: alpha, amountText: CSSNumber.format(alpha), space: "srgb", color: nil, origin: origin, pointer: pointer, location: location)
    }

    /// Applies the operation. `mixColor` is the resolved `color` for mix.
    public func apply(to color: SRGB, mixColor: SRGB?) -> SRGB {
        let a = min(max(amount ?? 0, 0), 1)
        switch kind {
        case .alpha:
            var c = color
            c.alpha = a
            return c
        case .lighten, .darken:
            let lighten = kind == .lighten
            switch space {
            case "srgb":
                return SRGB(red: step(color.red, a, lighten), green: step(color.green, a, lighten), blue: step(color.blue, a, lighten), alpha: color.alpha)
            case "p3":
                let p3 = ColorOperation.displayP3(color)
                let moved = SIMD3(step(p3.x, a, lighten), step(p3.y, a, lighten), step(p3.z, a, lighten))
                return GamutMapping.srgb(from: RGBSpace.displayP3.xyz(moved), alpha: color.alpha).color
            case "hsl":
                var hsl = HSL(color)
                // HSL here is 0…1; colorjs's is 0…100: the same proportions.
                hsl.lightness = lighten ? min(1, hsl.lightness + (1 - hsl.lightness) * a) : max(0, hsl.lightness - hsl.lightness * a)
                var out = hsl.srgb
                out.alpha = color.alpha
                return out
            case "lch":
                var lch = CIELCH(CIELab(color))
                lch.l = lighten ? min(100, lch.l + (100 - lch.l) * a) : max(0, lch.l - lch.l * a)
                lch.c = max(0, lch.c - a * lch.c)
                return GamutMapping.srgb(from: lch.lab.xyz, alpha: color.alpha).color
            default:
                return color
            }
        case .mix:
            guard let other = mixColor else { return color }
            return ColorOperation.mix(color, other, weight: a, space: space)
        }
    }

    private func step(_ x: Double, _ a: Double, _ lighten: Bool) -> Double {
        lighten ? min(1, x + a * (1 - x)) : max(0, x - a * x)
    }

    /// colorjs.io's `mix`: both colors in `space`, coordinates and alpha interpolated linearly
    /// (not premultiplied), hue by the shorter arc.
    static func mix(_ a: SRGB, _ b: SRGB, weight p: Double, space: String) -> SRGB {
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * p }
        let alpha = lerp(a.alpha, b.alpha)
        switch space {
        case "srgb":
            return SRGB(red: lerp(a.red, b.red), green: lerp(a.green, b.green), blue: lerp(a.blue, b.blue), alpha: alpha)
        case "p3":
            let x = ColorOperation.displayP3(a), y = ColorOperation.displayP3(b)
            return GamutMapping.srgb(from: RGBSpace.displayP3.xyz(SIMD3(lerp(x.x, y.x), lerp(x.y, y.y), lerp(x.z, y.z))), alpha: alpha).color
        case "hsl":
            let x = HSL(a), y = HSL(b)
            let (h1, h2) = shorterArc(x.saturation == 0 ? nil : x.hue, y.saturation == 0 ? nil : y.hue)
            var out = HSL(hue: lerp(h1, h2).truncatingRemainder(dividingBy: 360), saturation: lerp(x.saturation, y.saturation), lightness: lerp(x.lightness, y.lightness)).srgb
            out.alpha = alpha
            return out
        case "lch":
            let x = CIELCH(CIELab(a)), y = CIELCH(CIELab(b))
            let (h1, h2) = shorterArc(x.c < 1e-9 ? nil : x.h, y.c < 1e-9 ? nil : y.h)
            let lch = CIELCH(l: lerp(x.l, y.l), c: lerp(x.c, y.c), h: lerp(h1, h2).truncatingRemainder(dividingBy: 360))
            return GamutMapping.srgb(from: lch.lab.xyz, alpha: alpha).color
        default:
            return a
        }
    }

    /// Gamma-encoded Display P3 components of an sRGB color. The XYZ-to-linear-P3 matrix is
    /// the one CSS Color 4 gives (section 18, sample code).
    static func displayP3(_ color: SRGB) -> SIMD3<Double> {
        let v = color.xyz
        let r = 2.493496911941425 * v.x - 0.9313836179191239 * v.y - 0.40271078445071684 * v.z
        let g = -0.8294889695615747 * v.x + 1.7626640603183463 * v.y + 0.023624685841943577 * v.z
        let b = 0.03584583024378447 * v.x - 0.07617238926804182 * v.y + 0.9568845240076872 * v.z
        func encode(_ x: Double) -> Double { x < 0 ? -SRGBTransfer.encode(-x) : SRGBTransfer.encode(x) }
        return SIMD3(encode(r), encode(g), encode(b))
    }

    /// Hues for interpolation by the shorter arc; a missing (achromatic) hue takes the other's.
    static func shorterArc(_ a: Double?, _ b: Double?) -> (Double, Double) {
        var h1 = a ?? b ?? 0, h2 = b ?? a ?? 0
        h1 = (h1.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        h2 = (h2.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        if h2 - h1 > 180 { h1 += 360 } else if h2 - h1 < -180 { h2 += 360 }
        return (h1, h2)
    }
}

extension PaletteDecoder {
    /// `{"type": "darken", "value": "0.2", "space": "lch", "color": "…"}`, Tokens Studio's modifier.
    mutating func studioModifier(_ value: JSONValue, at pointer: JSONPointer, token: String) -> ColorOperation? {
        guard let members = value.members else {
            problem(.wrongType, "token \"\(token)\": \"modify\" must be an object like {\"type\": \"darken\", \"value\": \"0.2\", \"space\": \"lch\"}, found \(value.typeName)", at: pointer, value)
            return nil
        }
        var fields = Fields(members, pointer)
        guard let typeText = string(&fields, "type", required: true, what: "a Tokens Studio modifier") else { return nil }
        guard let kind = ColorOperation.Kind(rawValue: typeText) else {
            problem(.invalidValue, "token \"\(token)\": \"\(typeText)\" is not a Tokens Studio color modifier; expected lighten, darken, mix or alpha", at: pointer.appending("type"), fields.value("type"))
            return nil
        }
        var amountText = ""
        switch fields.value("value") {
        case .number(let v, _)?: amountText = CSSNumber.format(v)
        case .string(let s, _)?: amountText = s
        case let other?:
            problem(.wrongType, "token \"\(token)\": the modifier's \"value\" must be a number or a reference, found \(other.typeName)", at: pointer.appending("value"), other)
            return nil
        case nil:
            problem(.missingField, "token \"\(token)\": a Tokens Studio modifier needs a \"value\" (the amount, 0 to 1)", at: pointer, value)
            return nil
        }
        let space = string(&fields, "space", what: "a Tokens Studio modifier") ?? ""
        if kind != .alpha && !["srgb", "hsl", "lch", "p3"].contains(space) {
            warn(.unsupportedProperty, "token \"\(token)\": the \(typeText) modifier has space \"\(space)\"; Tokens Studio handles srgb, hsl, lch and p3 and leaves the color unchanged otherwise, and so does this audit", at: pointer.appending("space"), fields.value("space")?.location ?? value.location)
        }
        let color = string(&fields, "color", required: kind == .mix, what: "a Tokens Studio mix modifier")
        if kind == .mix && color == nil { return nil }
        _ = fields.value("format")  // output notation only: no effect on the color
        finish(fields, allowed: ["type", "value", "space", "color", "format"], what: "a Tokens Studio modifier")
        let amount = Double(amountText.trimmingSpaces)
        return ColorOperation(kind: kind, amount: amount, amountText: amountText, space: space, color: color,
                              origin: "Tokens Studio \(typeText) \(amountText)\(space.isEmpty ? "" : " in \(space)")\(color.map { " with \($0)" } ?? "")",
                              pointer: pointer, location: value.location)
    }
}

/// Tokens Studio's color expressions that CSS does not have.
enum StudioExpression {
    /// `rgba(#ff0000, 0.5)` (and `rgba(red, 50%)`): the color with that alpha, as Tokens Studio
    /// reads it (the alpha of an 8-digit hex inside is replaced). Anything else is returned as is.
    static func rewriteRGBAWithColor(_ text: String) -> String {
        let trimmed = text.trimmingSpaces
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("rgba(") || lower.hasPrefix("rgb("), trimmed.hasSuffix(")"),
              let open = trimmed.firstIndex(of: "(") else { return text }
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard let comma = inner.lastIndex(of: ",") else { return text }
        let colorPart = inner[..<comma].trimmingCharacters(), alphaPart = inner[inner.index(after: comma)...].trimmingCharacters()
        guard !colorPart.contains(","), let base = try? CSSColor.parse(String(colorPart)) else { return text }
        var alpha: Double
        if alphaPart.hasSuffix("%"), let p = Double(alphaPart.dropLast()) { alpha = p / 100 } else if let a = Double(alphaPart) { alpha = a } else { return text }
        alpha = min(max(alpha, 0), 1)
        let c = base.color
        return "rgb(\(c.red * 255) \(c.green * 255) \(c.blue * 255) / \(alpha))"
    }
}

extension Substring {
    func trimmingCharacters() -> Substring {
        var s = self
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return s
    }
}
