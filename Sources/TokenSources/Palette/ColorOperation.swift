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
                let p3 = RGBSpace.displayP3.encoded(color.xyz)
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

    /// A modifier's amount as written: a plain decimal number from 0 to 1 (`0.2`, `.5`, `1`),
    /// nil for anything else. Swift's own parser would also take `nan`, `inf`, `1e999` and hex
    /// floats, which measured a color no build makes; an amount past 0…1 is refused rather than
    /// clamped to a guess.
    static func amount(_ text: String) -> Double? {
        let bytes = Array(text.trimmingSpaces.utf8)
        var i = 0, digits = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1; digits += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1; digits += 1 }
        }
        guard digits > 0, i == bytes.count, digits <= 40, let value = Double(String(decoding: bytes, as: UTF8.self)),
              value.isFinite, value >= 0, value <= 1 else { return nil }
        return value
    }

    private func step(_ x: Double, _ a: Double, _ lighten: Bool) -> Double {
        lighten ? min(1, x + a * (1 - x)) : max(0, x - a * x)
    }

    /// colorjs.io's `mix`: both colors in `space`, coordinates and alpha interpolated apart (not
    /// premultiplied), hue by the shorter arc; ColorScience's one interpolation does the work.
    /// Tokens Studio handles srgb, hsl, lch and p3, and leaves the color unchanged in any other.
    static func mix(_ a: SRGB, _ b: SRGB, weight p: Double, space: String) -> SRGB {
        let cssSpaces = ["srgb": "srgb", "hsl": "hsl", "lch": "lch", "p3": "display-p3"]
        guard let cssSpace = cssSpaces[space] else { return a }
        return ColorMixing.mix(a, b, weight: p, inSpaceNamed: cssSpace, premultiplied: false) ?? a
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
        let amount = ColorOperation.amount(amountText)
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
