/// One class of a utility-class list read as Tailwind reads it: its variants (`dark:`,
/// `hover:`, `[a&]:`), the property it colors, and the color it names, when it is a color
/// utility at all. `text-sm`, `bg-clip-text`, `border-2` are no color utilities: Tailwind v4
/// makes `text-X` a color exactly when its theme has `--color-X` (see ``TailwindTheme``).
struct TailwindUtility {
    /// What a color utility paints.
    enum Role: String, Hashable {
        case background = "bg"
        case text = "text"
        case border = "border"
        case ring = "ring"
        case outline = "outline"
        case divide = "divide"
        /// Colors no pair is read of: `ring-offset-`, `fill-`, `stroke-`, `caret-`, `accent-`,
        /// `decoration-`, `shadow-`, `placeholder-` (v3), `from-`/`via-`/`to-`.
        case other = "other"
    }

    /// The color a utility names.
    enum Color: Equatable {
        /// A token of the palettes read, by the name the palette gives it.
        case token(String)
        /// A color written in the source or Tailwind's own (`white`): `#rrggbb`.
        case written(String)
        /// `transparent`: draws nothing, and shows what is behind.
        case transparent
        /// A color that cannot be paired, and why.
        case unknown(String)
    }

    var word: String
    var line: Int
    /// The variants before the utility, in order (`dark`, `hover`, `[a&]`).
    var variants: [String]
    var role: Role
    var color: Color
    /// The opacity modifier as written (`90` of `bg-primary/90`), when there is one.
    var opacity: String?

    /// Whether a variant makes the utility one of a disabled state, which WCAG exempts
    /// (`disabled:`, `aria-disabled:`, `group-disabled:`, `data-[disabled]:`).
    var disabledVariant: String? { variants.first { $0.lowercased().contains("disabled") } }

    /// Whether the utility applies in dark themes only.
    var dark: Bool { variants.contains("dark") }

    /// The state it applies in: its variants other than `dark`, as written (`hover`,
    /// `focus-visible`, `[a&]:hover`); empty for the resting state.
    var state: String { variants.filter { $0 != "dark" }.joined(separator: ":") }

    /// Reads one class; nil when it is no color utility.
    static func parse(_ word: Substring, line: Int, theme: TailwindTheme) -> TailwindUtility? {
        // Variants are separated by `:` outside brackets and parentheses (`data-[state=open]:`,
        // `has-[>svg]:`, `[&_svg:not(x)]:`).
        var variants: [String] = []
        var depth = 0
        var start = word.startIndex
        var i = word.startIndex
        while i < word.endIndex {
            switch word[i] {
            case "[", "(": depth += 1
            case "]", ")": depth = max(0, depth - 1)
            case ":" where depth == 0:
                variants.append(String(word[start..<i]))
                start = word.index(after: i)
            default: break
            }
            i = word.index(after: i)
        }
        var utility = word[start...]
        // `!bg-x` (v3) and `bg-x!` (v4) are important; `-` starts negative values (no color).
        if utility.hasPrefix("!") { utility = utility.dropFirst() }
        if utility.hasSuffix("!") { utility = utility.dropLast() }
        guard let (role, rest) = split(utility) else { return nil }
        guard !rest.isEmpty else { return nil }
        // The opacity modifier: a `/` outside brackets (`bg-primary/90`, `bg-[#fff]/50`).
        var name = rest
        var opacity: String?
        if let slash = lastTopLevelSlash(rest) {
            name = rest[..<slash]
            opacity = String(rest[rest.index(after: slash)...])
        }
        guard let color = theme.color(name, role: role) else { return nil }
        return TailwindUtility(word: String(word), line: line, variants: variants, role: role, color: color, opacity: opacity)
    }

    /// The role a utility's name starts with and the rest (`bg-primary` → bg, `primary`;
    /// `border-t-input` → border, `input`); nil for a utility of no color property.
    static func split(_ utility: Substring) -> (Role, Substring)? {
        guard let dash = utility.firstIndex(of: "-") else { return nil }
        let head = utility[..<dash]
        var rest = utility[utility.index(after: dash)...]
        switch head {
        case "bg": return (.background, rest)
        case "text": return (.text, rest)
        case "ring":
            if rest.hasPrefix("offset-") { return (.other, rest.dropFirst("offset-".count)) }
            return (.ring, rest)
        case "outline": return (.outline, rest)
        case "divide": return (.divide, rest)
        case "border":
            // A side: `border-t-`, `border-x-`, `border-bs-` (v4's logical sides).
            for side in ["bs-", "be-", "t-", "r-", "b-", "l-", "x-", "y-", "s-", "e-"] where rest.hasPrefix(side) {
                rest = rest.dropFirst(side.count)
                break
            }
            return (.border, rest)
        case "fill", "stroke", "caret", "accent", "decoration", "shadow", "placeholder", "from", "via", "to":
            return (.other, rest)
        case "inset":
            // `inset-shadow-X`, `inset-ring-X`: colors drawn inside the element.
            if rest.hasPrefix("shadow-") { return (.other, rest.dropFirst("shadow-".count)) }
            if rest.hasPrefix("ring-") { return (.other, rest.dropFirst("ring-".count)) }
            return nil
        default: return nil
        }
    }

    static func lastTopLevelSlash(_ text: Substring) -> Substring.Index? {
        var depth = 0
        var found: Substring.Index?
        var i = text.startIndex
        while i < text.endIndex {
            switch text[i] {
            case "[", "(": depth += 1
            case "]", ")": depth = max(0, depth - 1)
            case "/" where depth == 0: found = i
            default: break
            }
            i = text.index(after: i)
        }
        return found
    }
}

/// The colors Tailwind's utilities can name in a run: the `--color-*` custom properties of the
/// palettes read (Tailwind v4's `@theme`, which the stylesheet reader reads as the base theme and
/// names without `--`: `color-primary`), and Tailwind's own `white` and `black`.
struct TailwindTheme {
    let tokens: UsageTokens

    /// Tailwind v4's default theme names these palettes of steps 50…950; their values are not
    /// read unless a stylesheet read defines them.
    static let defaultPalettes: Set<Substring> = ["slate", "gray", "zinc", "neutral", "stone", "red", "orange", "amber", "yellow", "lime", "green",
                                                 "emerald", "teal", "cyan", "sky", "blue", "indigo", "violet", "purple", "fuchsia", "pink", "rose"]
    static let defaultSteps: Set<Substring> = ["50", "100", "200", "300", "400", "500", "600", "700", "800", "900", "950"]

    /// Whether any palette read has a Tailwind theme color (`color-…`): without one, no
    /// utility's color can be told from its name.
    let hasTheme: Bool

    init(tokens: UsageTokens) {
        self.tokens = tokens
        hasTheme = tokens.themesOf.keys.contains { $0.hasPrefix("color-") }
    }

    /// The color `name` is for a utility of `role` (`primary`, `red-500`, `[#fff]`,
    /// `(--brand)`), or nil when the utility is no color utility.
    func color(_ name: Substring, role: TailwindUtility.Role) -> TailwindUtility.Color? {
        if name.hasPrefix("[") && name.hasSuffix("]") { return arbitrary(name.dropFirst().dropLast(), role: role) }
        // v4's `bg-(--brand)` is `bg-[var(--brand)]`.
        if name.hasPrefix("(") && name.hasSuffix(")") { return arbitrary("var(\(name.dropFirst().dropLast()))", role: role) }
        let themeName = "color-" + name
        if tokens.isToken(themeName) { return .token(paletteName(themeName)) }
        switch name {
        case "transparent": return .transparent
        case "current", "inherit": return .unknown("it paints with the text color it inherits (\(name == "current" ? "currentColor" : "inherit")), which this class list does not name")
        case "white": return .written("#ffffff")
        case "black": return .written("#000000")
        default: break
        }
        let parts = name.split(separator: "-")
        if parts.count == 2, Self.defaultPalettes.contains(parts[0]), Self.defaultSteps.contains(parts[1]) {
            return .unknown("Tailwind's default color \(name) is not defined by the stylesheets read (its --color-\(name) is in Tailwind's own theme.css)")
        }
        // Without a theme read, a name that is no keyword of the property may be a color of a
        // stylesheet that was not read: say so rather than pass over it.
        if !hasTheme && !Self.isKeyword(name, role: role) {
            return .unknown("no stylesheet read has a Tailwind @theme, so whether --color-\(name) is a color is not known")
        }
        return nil
    }

    /// The name a pair uses for a theme color: `@theme inline { --color-primary: var(--primary) }`
    /// makes the utility read `--primary` itself, so the pair names `primary`, as the palette and
    /// its stylesheet's rules do; a theme color that is no such alias keeps its own name.
    func paletteName(_ themeName: String) -> String {
        guard let indices = tokens.themesOf[themeName] else { return themeName }
        var alias: String?
        for index in indices {
            guard let first = tokens.themes[index].colors[themeName]?.alias else { return themeName }
            if alias == nil { alias = first } else if alias != first { return themeName }
        }
        return alias ?? themeName
    }

    /// An arbitrary value: a token when it names one (`[var(--x)]`, `[color:var(--x)]`), no
    /// color when it is a length or another type, else a color that is no token.
    func arbitrary(_ value: Substring, role: TailwindUtility.Role) -> TailwindUtility.Color? {
        var value = value
        var typed = false
        if let colon = value.firstIndex(of: ":"), !value[..<colon].contains("(") {
            let type = value[..<colon]
            guard type == "color" else { return nil }  // `[length:…]`, `[image:…]`, `[url:…]`
            typed = true
            value = value[value.index(after: colon)...]
        }
        let shown = "[\(value.excerpt(40))]"
        if value.hasPrefix("var(--") && value.hasSuffix(")") {
            var inner = value.dropFirst("var(--".count).dropLast()
            if let comma = inner.firstIndex(of: ",") { inner = inner[..<comma] }
            let name = String(inner)
            if tokens.isToken(name) { return .token(name.hasPrefix("color-") ? paletteName(name) : name) }
            if tokens.isToken("color-" + name) { return .token(paletteName("color-" + name)) }
            return .unknown("\(shown) names --\(name.excerpt(40)), which is no color token of the palettes read")
        }
        let lowered = value.lowercased()
        let looksLikeColor = typed || lowered.hasPrefix("#") || ["rgb", "hsl", "hwb", "lab", "lch", "oklab", "oklch", "color(", "color-mix"].contains { lowered.hasPrefix($0) }
        if looksLikeColor { return .unknown("\(shown) is a color written in the class, not a token of the palette") }
        // A length (`[3px]`), an image (`[url(…)]`), a calc(): no color. An image background
        // hides what is behind, so it is read by the element as an unknown background.
        if role == .background && (lowered.hasPrefix("url(") || lowered.contains("gradient(")) { return .unknown("\(shown) is an image, not a color") }
        return nil
    }

    /// Words of each color property that Tailwind reads as no color (sizes, styles, widths):
    /// used only when no theme is read, to tell a color's name from them.
    static func isKeyword(_ name: Substring, role: TailwindUtility.Role) -> Bool {
        if name.first.map({ $0.isNumber }) == true || name == "px" { return true }
        switch role {
        case .text:
            return ["xs", "sm", "base", "lg", "xl", "left", "center", "right", "justify", "start", "end", "wrap", "nowrap", "balance", "pretty", "ellipsis", "clip"].contains(name)
                || name.hasSuffix("xl") || name.hasPrefix("shadow")
        case .background:
            return ["fixed", "local", "scroll", "auto", "cover", "contain", "none", "top", "bottom", "left", "right", "center", "repeat", "no-repeat"].contains(name)
                || ["clip-", "origin-", "repeat-", "size-", "position-", "blend-", "linear", "gradient", "radial", "conic", "left-", "right-"].contains { name.hasPrefix($0) }
        case .border, .outline, .divide, .ring:
            return ["solid", "dashed", "dotted", "double", "hidden", "none", "collapse", "separate", "inset", "x", "y", "reverse", "x-reverse", "y-reverse",
                    "t", "r", "b", "l", "s", "e", "bs", "be"].contains(name)
                || name.hasPrefix("spacing-") || name.hasPrefix("offset-")
        case .other:
            return true
        }
    }
}
