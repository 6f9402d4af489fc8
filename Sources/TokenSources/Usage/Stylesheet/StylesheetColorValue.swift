import ColorScience

/// What a color declaration of a component rule draws with, as the stylesheet reader reads it.
enum StylesheetColor: Equatable {
    /// A token of the run's palettes, named as the palette names it.
    case token(String)
    /// A color written in the stylesheet, as its exact `#rrggbb` (the checks format reads CSS
    /// colors as a check's foreground or background, so a literal is a color one can check).
    case literal(String)
    /// Fully transparent: no fill, what is behind it shows (as written).
    case clear(String)
    /// `currentColor`, `inherit` and the other keywords whose color is another property's.
    case keyword(String)
    /// No color at all (`none`, a width, a style): a shorthand's other parts.
    case notColor
    /// A color not known, and why.
    case unresolved(String)

    var name: String? {
        switch self {
        case .token(let name), .literal(let name): name
        default: nil
        }
    }
}

/// Reads a declaration's value as colors: `var(--x, fallback)` naming a palette token is that
/// token (spelled as the palette spells it, through ``cssNames(_:)``), a custom property a
/// component rule sets (`--bs-btn-bg`) is what the rule the element takes sets it to (the
/// scopes, nearest first), a literal is its exact hex, and `rgb(var(--x-rgb), a)` (channels in a
/// variable) is the color the channels make, which is the token `x` when `x` is a palette token
/// of exactly that color. Substitutions nest at most ``maximumDepth`` deep.
struct StylesheetColorResolver {
    let tokens: UsageTokens
    let names: [String: String]

    static let maximumDepth = 16

    /// The palette tokens by the custom property that names them in CSS (without `--`): the
    /// token's name itself, and with `.`, `/` and spaces as `-` (a JSON palette's
    /// `fgColor.default` is `--fgColor-default` in CSS). Built once per run.
    static func cssNames(_ context: UsageContext) -> [String: String] {
        context.memo.value("usage.stylesheet.css-names") {
            let tokens = UsageTokens.of(context)
            var names: [String: String] = [:]
            for name in tokens.themesOf.keys.sorted() {
                let dashed = String(name.map { $0 == "." || $0 == "/" || $0 == " " ? "-" : $0 })
                if names[dashed] == nil || dashed == name { names[dashed] = name }
            }
            for name in tokens.themesOf.keys { names[name] = name }
            return names
        }
    }

    /// The properties whose whole value is one color (`border-color` may be up to four).
    static let singleColor: Set<String> = ["color", "background-color", "border-color", "border-top-color", "border-right-color", "border-bottom-color",
                                           "border-left-color", "border-block-color", "border-inline-color", "border-block-start-color",
                                           "border-block-end-color", "border-inline-start-color", "border-inline-end-color", "outline-color", "fill", "stroke"]
    /// Shorthands of which one part may be a color.
    static let shorthands: Set<String> = ["background", "border", "border-top", "border-right", "border-bottom", "border-left", "border-block",
                                          "border-inline", "border-block-start", "border-block-end", "border-inline-start", "border-inline-end", "outline"]

    /// The colors a declaration of `property` with `value` draws with (one, or a few for
    /// `border-color: a b`): every part of the value that is or may be a color.
    func colors(of value: String, property: String, scopes: [[String: String]]) -> [StylesheetColor] {
        let parts = Self.components(value)
        if Self.shorthands.contains(property) || property.hasSuffix("-color") && parts.count > 1 {
            var found: [StylesheetColor] = []
            var firstUnknown: StylesheetColor?
            for part in parts {
                let lowered = part.lowercased()
                if property == "background" || property == "background-image",
                   lowered.hasPrefix("url(") || Gradient.isGradient(part) || lowered.contains("gradient(") {
                    return [.unresolved("'\(part.excerpt(40))' is an image or gradient, not one color: what is drawn on it is not known")]
                }
                let color = resolve(part, scopes: scopes, depth: 0)
                switch color {
                case .notColor: continue
                case .unresolved where lowered.hasPrefix("var("):
                    // A variable of a shorthand may be its width or style: only when no part is a
                    // color is it why nothing was read.
                    if firstUnknown == nil { firstUnknown = color }
                default: found.append(color)
                }
            }
            if found.isEmpty, let firstUnknown { return [firstUnknown] }
            return found
        }
        let color = resolve(value, scopes: scopes, depth: 0)
        if color == .notColor { return [.unresolved("'\(value.excerpt(40))' is not a color")] }
        return [color]
    }

    /// A value's parts at the top level (split at white space and commas outside functions).
    static func components(_ value: String) -> [String] {
        var parts: [String] = [], part = "", depth = 0
        for c in value {
            if c == "(" { depth += 1 } else if c == ")" { depth = max(0, depth - 1) }
            if depth == 0 && (c == " " || c == "\n" || c == "\t" || c == ",") {
                if !part.isEmpty { parts.append(part); part = "" }
                continue
            }
            part.append(c)
        }
        if !part.isEmpty { parts.append(part) }
        return parts
    }

    /// `var(--name, fallback)` as its name (unescaped, without `--`) and fallback, when the
    /// whole text is that one function.
    static func variable(_ text: String) -> (name: String, fallback: String?)? {
        guard text.lowercased().hasPrefix("var("), text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst(4).dropLast()
        var depth = 0, comma: String.Index?
        for i in inner.indices {
            let c = inner[i]
            if c == "(" { depth += 1 } else if c == ")" {
                depth -= 1
                if depth < 0 { return nil }  // `var(--a) var(--b)`: not one function
            } else if c == ",", depth == 0, comma == nil { comma = i }
        }
        let name = (comma.map { inner[..<$0] } ?? inner).cssTrimmed
        guard name.hasPrefix("--") else { return nil }
        let fallback = comma.map { String(inner[inner.index(after: $0)...]).cssTrimmed }
        return (String(CSSTokenizer.unescapedName(name).dropFirst(2)), fallback)
    }

    func resolve(_ written: String, scopes: [[String: String]], depth: Int) -> StylesheetColor {
        let text = written.cssTrimmed
        guard depth < Self.maximumDepth else { return .unresolved("'\(text.excerpt(40))' substitutes variables more than \(Self.maximumDepth) deep") }
        let lowered = text.lowercased()
        switch lowered {
        case "": return .notColor
        case "transparent": return .clear(text)
        case "currentcolor", "inherit", "initial", "unset", "revert", "revert-layer":
            return .keyword(text)
        case "none": return .notColor
        default: break
        }
        if let (name, fallback) = Self.variable(text) {
            if let token = names[name] { return .token(token) }
            for scope in scopes {
                if let value = scope[name] { return resolve(value, scopes: scopes, depth: depth + 1) }
            }
            if let fallback { return resolve(fallback, scopes: scopes, depth: depth + 1) }
            return .unresolved("--\(name.excerpt(60)) is neither a color token of the palettes read nor set by a rule of this stylesheet that the element takes")
        }
        if lowered.contains("var(") { return substituted(text, scopes: scopes, depth: depth) }
        if lowered.hasPrefix("url(") || Gradient.isGradient(text) || lowered.contains("gradient(") {
            return .unresolved("'\(text.excerpt(40))' is an image or gradient, not one color")
        }
        if lowered.hasPrefix("color-mix(") || lowered.hasPrefix("light-dark(") || lowered.hasPrefix("calc(") || lowered.hasPrefix("env(") || lowered.hasPrefix("attr(") {
            return .unresolved("'\(text.excerpt(40))' is computed by the browser (\(lowered.prefix { $0 != "(" })()), not a token or one written color")
        }
        return literal(text)
    }

    /// A color written in the stylesheet: its exact hex, or why it is none.
    func literal(_ text: String) -> StylesheetColor {
        guard let parsed = try? CSSColor.parse(text) else {
            let first = text.unicodeScalars.first
            if let first, first.properties.isAlphabetic, !text.contains("("), CSSSystemColors.names.contains(text.lowercased()) {
                return .unresolved("'\(text.excerpt(40))' is a system color: the browser's or the user's, not the palette's")
            }
            return .notColor
        }
        if parsed.color.alpha <= 0 { return .clear(text) }
        let hex = parsed.color.hex
        // Named by its hex only when the hex is the same color: a color the 8-bit hex would
        // round (`oklch(…)`, `rgb(10.4 …)`) is not renamed to a nearby one.
        guard let again = try? CSSColor.parse(hex), again.color == parsed.color else {
            return .unresolved("'\(text.excerpt(40))' is a color written in the stylesheet that no #rrggbb or #rrggbbaa spells exactly, and it is no token")
        }
        return .literal(hex)
    }

    /// A color function with variables inside (`rgba(var(--bs-link-color-rgb), var(--bs-link-opacity, 1))`):
    /// each `var()` replaced by the value the scopes give it (or its fallback), then read as a
    /// color. Channels from `--x-rgb` whose color is exactly that of the palette token `x` (in a
    /// theme of the run) are that token.
    func substituted(_ text: String, scopes: [[String: String]], depth: Int) -> StylesheetColor {
        var output = "", rest = Substring(text), channelsOf: [String] = []
        var steps = 0
        while let start = rest.firstRange(of: "var(") {
            steps += 1
            guard steps <= 16 else { return .unresolved("'\(text.excerpt(40))' holds more than 16 variables") }
            output += rest[..<start.lowerBound]
            var depthInside = 1, end = start.upperBound
            while end < rest.endIndex, depthInside > 0 {
                if rest[end] == "(" { depthInside += 1 } else if rest[end] == ")" { depthInside -= 1 }
                end = rest.index(after: end)
            }
            guard depthInside == 0, let (name, fallback) = Self.variable(String(rest[start.lowerBound..<end])) else {
                return .unresolved("'\(text.excerpt(40))' holds a var() that is not closed")
            }
            var value: String?
            for scope in scopes { if let v = scope[name] { value = v; break } }
            if value == nil { value = fallback }
            guard var found = value else {
                return .unresolved("'\(text.excerpt(40))' uses --\(name.excerpt(60)), which no rule of this stylesheet that the element takes sets")
            }
            if found.lowercased().contains("var(") {
                // One more level, as text (its own variables from the same scopes).
                var innerSteps = 0
                while found.lowercased().contains("var("), innerSteps < 4 {
                    innerSteps += 1
                    guard let (innerName, innerFallback) = Self.variable(found.cssTrimmed) else { break }
                    var next: String?
                    for scope in scopes { if let v = scope[innerName] { next = v; break } }
                    guard let resolved = next ?? innerFallback else { break }
                    found = resolved
                }
                if found.lowercased().contains("var(") {
                    return .unresolved("'\(text.excerpt(40))' uses --\(name.excerpt(60)), whose value '\(found.excerpt(40))' is not known here")
                }
            }
            if name.hasSuffix("-rgb") { channelsOf.append(String(name.dropLast(4))) }
            output += found
            rest = rest[end...]
        }
        output += rest
        let color = literal(output)
        guard case .literal(let hex) = color else {
            if case .notColor = color { return .unresolved("'\(text.excerpt(40))' is '\(output.excerpt(40))' once its variables are replaced, which is not a color") }
            return color
        }
        // `--x-rgb` holding exactly the channels of the token `x`: the token.
        if channelsOf.count == 1, let token = names[channelsOf[0]],
           let indices = tokens.themesOf[token], indices.contains(where: { tokens.themes[$0].colors[token]?.hex == hex }) {
            return .token(token)
        }
        return .literal(hex)
    }
}

/// CSS Color 4's system colors: a browser's or a user's choice, never a palette's.
enum CSSSystemColors {
    static let names: Set<String> = ["accentcolor", "accentcolortext", "activetext", "buttonborder", "buttonface", "buttontext", "canvas", "canvastext",
                                     "field", "fieldtext", "graytext", "highlight", "highlighttext", "linktext", "mark", "marktext", "selecteditem",
                                     "selecteditemtext", "visitedtext"]
}
