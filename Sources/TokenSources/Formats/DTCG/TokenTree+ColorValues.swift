import ColorScience

/// A token's value written as a JSON structure (a DTCG color object, a gradient's stops, Style
/// Dictionary's channel objects) turned into the CSS text the theme resolves, as a string value
/// is.
extension PaletteDecoder {
    /// A DTCG `gradient` value (an array of stops `{"color": …, "position": 0–1}`) written as the
    /// CSS gradient it draws: `linear-gradient(C1 P1%, C2 P2%, …)`, each color a CSS color or a
    /// `{reference}` the theme resolves. A position given by reference is not read (the value
    /// is reported and left out).
    mutating func cssFromDesignTokenGradient(_ raw: JSONValue, pointer: JSONPointer, token: String) -> String? {
        guard case .array(let stops, _) = raw, !stops.isEmpty else {
            problem(.wrongType, "the $value of gradient token \"\(token)\" must be a non-empty array of stops {\"color\": …, \"position\": 0–1}, found \(raw.typeName)", at: pointer, raw)
            return nil
        }
        var parts: [String] = []
        for (index, stop) in stops.enumerated() {
            let stopPointer = pointer.appending(index)
            guard let members = stop.members else {
                problem(.wrongType, "stop \(index) of gradient token \"\(token)\" must be an object {\"color\": …, \"position\": 0–1}, found \(stop.typeName)", at: stopPointer, stop)
                return nil
            }
            let object = JSONValue.object(members, stop.location)
            let color: String
            switch object["color"] {
            case .string(let text, _)?: color = text
            case .object(let inner, _)?:
                guard let css = cssFromDesignTokenColor(inner, pointer: stopPointer.appending("color"), object["color"]!, token: token) else { return nil }
                color = css
            case let other?:
                problem(.wrongType, "the \"color\" of stop \(index) of gradient token \"\(token)\" must be a color, a DTCG color object or a {reference}, found \(other.typeName)", at: stopPointer.appending("color"), other)
                return nil
            case nil:
                problem(.missingField, "stop \(index) of gradient token \"\(token)\" needs a \"color\"", at: stopPointer, stop)
                return nil
            }
            switch object["position"] {
            case .number(let v, _)? where v >= 0 && v <= 1:
                parts.append("\(color) \(CSSNumber.format((v * 100_000).rounded() / 1000))%")
            case let other?:
                problem(.invalidValue, "the \"position\" of stop \(index) of gradient token \"\(token)\" must be a number from 0 to 1\(other.stringValue.map { Token.aliasTarget(of: $0) != nil ? " (a reference to a number is not read)" : "" } ?? ""), found \(other.stringValue.map { "\"\($0)\"" } ?? other.typeName)", at: stopPointer.appending("position"), other)
                return nil
            case nil:
                problem(.missingField, "stop \(index) of gradient token \"\(token)\" needs a \"position\" from 0 to 1", at: stopPointer, stop)
                return nil
            }
            for member in members where !["color", "position"].contains(member.key) {
                warn(.unsupportedProperty, "stop \(index) of gradient token \"\(token)\" has a member \"\(member.key)\" that the DTCG gradient type does not define; it was ignored", at: stopPointer.appending(member.key), member.keyLocation)
            }
        }
        return "linear-gradient(\(parts.joined(separator: ", ")))"
    }

    /// A `{h, s, l}`, `{h, s, v}` or `{r, g, b}` object (with an optional `a`) of literal
    /// numbers (or percent strings) as tinycolor2 reads it: the CSS color it means, or nil.
    /// tinycolor2 takes s, l and v at most 1 as fractions and larger ones as percentages, clamps
    /// every channel into its range, takes r, g and b in 0–255, and an alpha outside 0…1 as 1.
    static func tinycolorObject(_ members: [JSONMember]) -> String? {
        var values: [String: Double] = [:]
        var percent: Set<String> = []
        for member in members {
            switch member.value {
            case .number(let v, _) where v.isFinite: values[member.key] = v
            case .string(let text, _):
                let trimmed = text.trimmingSpaces
                guard trimmed.hasSuffix("%"), let v = Double(trimmed.dropLast()), v.isFinite else { return nil }
                values[member.key] = v
                percent.insert(member.key)
            default: return nil
            }
        }
        func clamp(_ v: Double, _ high: Double) -> Double { min(max(v, 0), high) }
        /// s, l, v: a fraction when at most 1 (and not written as a percentage), else a percentage.
        func unit(_ key: String) -> Double? {
            guard let v = values[key] else { return nil }
            return percent.contains(key) || v > 1 ? clamp(v, 100) / 100 : clamp(v, 1)
        }
        // tinycolor2's boundAlpha: a number outside 0…1 (a percentage's number included) is 1.
        var alpha = 1.0
        if let a = values["a"], a >= 0, a <= 1 { alpha = a }
        let keys = Set(values.keys).subtracting(["a"])
        let suffix = alpha == 1 ? "" : " / \(CSSNumber.format(alpha))"
        if keys == ["r", "g", "b"], let r = values["r"], let g = values["g"], let b = values["b"] {
            let channel = { (key: String, v: Double) in percent.contains(key) ? clamp(v, 100) / 100 * 255 : clamp(v, 255) }
            return "rgb(\(CSSNumber.format(channel("r", r))) \(CSSNumber.format(channel("g", g))) \(CSSNumber.format(channel("b", b)))\(suffix))"
        }
        guard let h = values["h"] else { return nil }
        let hue = (percent.contains("h") ? clamp(h, 100) * 3.6 : clamp(h, 360)).truncatingRemainder(dividingBy: 360)
        if keys == ["h", "s", "l"], let s = unit("s"), let l = unit("l") {
            return "hsl(\(CSSNumber.format(hue)) \(CSSNumber.format(s * 100))% \(CSSNumber.format(l * 100))%\(suffix))"
        }
        if keys == ["h", "s", "v"], let s = unit("s"), let v = unit("v") {
            // HSV as HWB: whiteness (1 − s)·v, blackness 1 − v.
            return "hwb(\(CSSNumber.format(hue)) \(CSSNumber.format((1 - s) * v * 100))% \(CSSNumber.format((1 - v) * 100))%\(suffix))"
        }
        return nil
    }

    /// How a channel written in 0…1 is outside it ("is 255, outside 0…1 (8-bit levels …)"), nil
    /// when it is inside (within a millionth). `channel`: whether 8-bit levels may be meant
    /// (not for an alpha).
    static func outsideUnit(_ value: Double, channel: Bool = true) -> String? {
        guard !(-1e-6...(1 + 1e-6)).contains(value) else { return nil }
        return "is \(CSSNumber.format(value)), outside 0…1" + (channel ? eightBitHint(value) : "")
    }

    /// The hint for a value that looks like an 8-bit level written where 0…1 is meant.
    static func eightBitHint(_ value: Double) -> String {
        value >= 2 && value <= 255 ? " (8-bit levels are divided by 255: 255 is 1)" : ""
    }

    /// Why `value`, component `index` of a color in `space`, is outside the range the DTCG Color
    /// module gives it (nil: inside, or a space this does not know, which is reported apart).
    /// Hues are angles: any finite hue names a color, as in CSS, and is read.
    static func componentOutOfRange(space: String, index: Int, value: Double) -> String? {
        let rgbNames = ["red", "green", "blue"]
        let (names, ranges): ([String], [ClosedRange<Double>?])
        switch space {
        case "srgb", "srgb-linear", "display-p3", "a98-rgb", "prophoto-rgb", "rec2020":
            (names, ranges) = (rgbNames, [0...1, 0...1, 0...1])
        // XYZ: the DTCG table says 0–1, but D65 white is [0.9505, 1, 1.089] and CSS Color 4
        // leaves XYZ unbounded; nothing is clipped there, so nothing is refused.
        case "xyz-d65", "xyz-d50": return value.isFinite ? nil : "component \(index) is \(CSSNumber.format(value)), not a finite number; the token is not read"
        case "hsl": (names, ranges) = (["hue", "saturation", "lightness"], [nil, 0...100, 0...100])
        case "hwb": (names, ranges) = (["hue", "whiteness", "blackness"], [nil, 0...100, 0...100])
        case "lab": (names, ranges) = (["lightness", "a", "b"], [0...100, nil, nil])
        case "lch": (names, ranges) = (["lightness", "chroma", "hue"], [0...100, 0...Double.greatestFiniteMagnitude, nil])
        case "oklab": (names, ranges) = (["lightness", "a", "b"], [0...1, nil, nil])
        case "oklch": (names, ranges) = (["lightness", "chroma", "hue"], [0...1, 0...Double.greatestFiniteMagnitude, nil])
        default: return nil
        }
        guard names.indices.contains(index) else { return nil }
        let found = CSSNumber.format(value)
        guard value.isFinite else { return "component \(index) (\(names[index])) is \(found), not a finite number; the token is not read" }
        // A millionth of the range over (a float's overshoot, 1.0000000000000002) is within it.
        guard let range = ranges[index] else { return nil }
        let slack = 1e-6 * (range.upperBound == .greatestFiniteMagnitude ? 1 : range.upperBound - range.lowerBound)
        guard !(range.lowerBound - slack ... range.upperBound + slack).contains(value) else { return nil }
        let expected = range.upperBound == .greatestFiniteMagnitude ? "at least \(CSSNumber.format(range.lowerBound))" : "\(CSSNumber.format(range.lowerBound)) to \(CSSNumber.format(range.upperBound))"
        let hint = range.upperBound == 1 && names == rgbNames ? eightBitHint(value) : ""
        return "component \(index) (\(names[index])) is \(found), outside \(space)'s range (\(expected))\(hint); the token is not read (a clipped color would be measured in its place)"
    }

    /// The DTCG color object (`{"colorSpace": "srgb", "components": [1, 0.5, 0], "alpha": 1}`)
    /// written as the equivalent CSS color. A `hex` that disagrees with the components is
    /// reported; the components win, as the DTCG Color module says.
    mutating func cssFromDesignTokenColor(_ members: [JSONMember], pointer: JSONPointer, _ raw: JSONValue, token: String? = nil) -> String? {
        let object = JSONValue.object(members, raw.location)
        guard let space = object["colorSpace"]?.stringValue else {
            let keys = members.map(\.key)
            if !keys.isEmpty, keys.allSatisfy({ !["components", "alpha", "hex"].contains($0) }),
               members.allSatisfy({ $0.value.stringValue != nil }) {
                // Telekom's `{"light": "{core.color.black}", "dark": "{core.color.white}"}`: a value
                // per mode, which a transform of the system's own build picks from.
                problem(.unsupportedProperty, "the value is an object of one value per key (\(keys.prefix(6).joined(separator: ", "))), which only the system's own build turns into a color per mode; it is not read (write the modes as themes: a resolver document with a file per mode, or a value that is a color)", at: pointer, raw)
                return nil
            }
            problem(.missingField, "a DTCG color object needs \"colorSpace\" (srgb, display-p3, oklch…)", at: pointer, raw)
            return nil
        }
        guard case .array(let items, _)? = object["components"], items.count == 3 else {
            problem(.invalidValue, "a DTCG color object needs \"components\": an array of 3 numbers (or \"none\")", at: pointer.appending("components"), object["components"] ?? raw)
            return nil
        }
        var parts: [String] = []
        for (index, item) in items.enumerated() {
            switch item {
            case .number(let v, _):
                // A component outside its range would be clipped by the conversion, and the
                // clipped color measured as if it were the token's (`[255, 128, 0]` in srgb is
                // white): the token is not read, and the problem says which component.
                if let range = Self.componentOutOfRange(space: object["colorSpace"]?.stringValue ?? "", index: index, value: v) {
                    problem(.invalidValue, range, at: pointer.appending("components").appending(index), item)
                    return nil
                }
                parts.append(CSSNumber.format(v))
            case .string("none", _): parts.append("none")
            default:
                problem(.wrongType, "component \(index) must be a number or \"none\", found \(item.typeName)", at: pointer.appending("components").appending(index), item)
                return nil
            }
        }
        var alpha = ""
        if let a = object["alpha"] {
            guard case .number(let v, _) = a, v >= 0, v <= 1 else {
                problem(.wrongType, "\"alpha\" must be a number from 0 to 1, found \({ if case .number(let v, _) = a { return CSSNumber.format(v) } else { return a.typeName } }())", at: pointer.appending("alpha"), a)
                return nil
            }
            if v != 1 { alpha = " / " + CSSNumber.format(v) }
        }
        for member in members where !["colorSpace", "components", "alpha", "hex"].contains(member.key) {
            warn(.unsupportedProperty, "the color object has a member \"\(member.key)\" that the DTCG Color module does not define; it was ignored", at: pointer.appending(member.key), member.keyLocation)
        }
        let joined = parts.joined(separator: " ")
        let css: String
        switch space {
        case "srgb", "srgb-linear", "display-p3", "a98-rgb", "prophoto-rgb", "rec2020", "xyz-d65", "xyz-d50":
            css = "color(\(space) \(joined)\(alpha))"
        case "hsl", "hwb":
            css = "\(space)(\(parts[0]) \(parts[1])% \(parts[2])%\(alpha))"
        case "lab", "lch", "oklab", "oklch":
            css = "\(space)(\(joined)\(alpha))"
        default:
            problem(.invalidValue, "\"\(space)\" is not a DTCG color space; expected srgb, srgb-linear, hsl, hwb, lab, lch, oklab, oklch, display-p3, a98-rgb, prophoto-rgb, rec2020, xyz-d65 or xyz-d50", at: pointer.appending("colorSpace"), object["colorSpace"])
            return nil
        }
        if let hexValue = object["hex"] {
            if let hex = hexValue.stringValue, let given = try? CSSColor.parse(hex), hex.hasPrefix("#") {
                if let computed = try? CSSColor.parse(css), computed.color.opaque.hex != given.color.opaque.hex {
                    warn(.hexMismatch, "\(token.map { "token \"\($0)\": " } ?? "")the color object's \"hex\" \(hex) disagrees with its components, which give \(computed.color.opaque.hex) (\(css)); the components are used, as the DTCG Color module says", at: pointer.appending("hex"), hexValue.location)
                }
            } else {
                problem(.invalidValue, "\"hex\" must be a 6-digit hex color like \"#1a2b3c\"", at: pointer.appending("hex"), hexValue)
            }
        }
        return css
    }
}
