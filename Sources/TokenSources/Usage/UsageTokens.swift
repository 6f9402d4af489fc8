import ColorScience

/// The colors of a run's palettes as usage readers need them: which names are tokens (and in
/// which themes), what each one finally is, and whether a pair of them is one `contrast init`
/// may propose. Built once per run (``of(_:)``, through the context's ``UsageMemo``), by
/// resolving every token of every theme once, as the audit does: its work is the palettes' size,
/// and every question after it is a dictionary look-up, so a reader's work stays linear in its
/// file however many palettes the run holds.
package struct UsageTokens: Sendable {
    /// One token as resolved in one theme.
    package struct Color: Sendable {
        package var alpha: Double
        /// The color drawn (`#rrggbb`, `#rrggbbaa`), to tell two names of one color.
        var hex: String
        /// The token the alias chain ends at (`lightSurface` for `colorSurface` →
        /// `@color/lightSurface`), or the name itself when it is no alias.
        package var final: String
        /// The token its alias names first (`primary` for `color-primary` → `var(--primary)`),
        /// nil when it is no alias.
        var alias: String? = nil
    }

    package struct ThemeColors: Sendable {
        var palette: String
        package var theme: String
        var scheme: ColorScheme?
        /// The theme names a backdrop for translucent colors.
        package var hasBackdrop: Bool
        package var colors: [String: Color]
    }

    package var themes: [ThemeColors] = []
    /// For each token name, the themes (indices into ``themes``) where it resolves to a color.
    var themesOf: [String: [Int]] = [:]
    /// The names of the Xcode asset catalogs' color sets.
    var catalogNames: Set<String> = []
    /// Catalog color set names by the symbol Xcode generates for them (``assetSymbol(_:)``).
    var catalogSymbols: [String: [String]] = [:]
    /// The names of the Android palettes' tokens: color resources and app-theme attributes.
    var androidNames: Set<String> = []
    /// The Android palettes' `res/` directories, as the loader read them.
    var androidRoots: [String] = []

    /// The index of `context`'s palettes, built the first time a reader of the run asks.
    static func of(_ context: UsageContext) -> UsageTokens {
        context.memo.value("usage.tokens") { UsageTokens(palettes: context.palettes) }
    }

    package init(palettes: [Palette]) {
        for palette in palettes {
            let format = palette.format ?? ""
            let isCatalog = format.hasPrefix("Xcode asset catalog"), isAndroid = format == "Android color resources"
            if isAndroid, let root = palette.file { androidRoots.append(root) }
            for theme in palette.themes {
                var resolver = ThemeResolver(palette: palette, theme: theme)
                var colors: [String: Color] = [:]
                for name in resolver.tokenNames {
                    guard case .success(let resolved) = resolver.resolve(name) else { continue }
                    colors[name] = Color(alpha: resolved.color.alpha, hex: resolved.hex, final: resolved.aliases?.last ?? resolved.token ?? name,
                                         alias: resolved.aliases?.first)
                    if isCatalog { catalogNames.insert(name) }
                    if isAndroid { androidNames.insert(name) }
                }
                let index = themes.count
                for name in colors.keys { themesOf[name, default: []].append(index) }
                themes.append(ThemeColors(palette: palette.name, theme: theme.name, scheme: resolver.scheme,
                                          hasBackdrop: theme.backdrop != nil, colors: colors))
            }
        }
        for name in catalogNames.sorted() { catalogSymbols[Self.assetSymbol(name), default: []].append(name) }
    }

    /// Whether `name` is a color token of some theme.
    package func isToken(_ name: String) -> Bool { themesOf[name] != nil }

    /// Whether `name` is a token that is fully transparent in every theme that has it (a
    /// background of it shows what is behind).
    func isTransparentEverywhere(_ name: String) -> Bool {
        guard let indices = themesOf[name] else { return false }
        return indices.allSatisfy { (themes[$0].colors[name]?.alpha ?? 1) <= 0 }
    }

    /// The Swift symbol Xcode generates for a color set (Xcode 15's asset symbols): the last part
    /// of its name in lower camel case, without a trailing `Color` (`primaryAccentColor` →
    /// `primaryAccent`, `Label.primary` → `primary`, `tab.bar.item` → `tabBarItem`).
    static func assetSymbol(_ name: String) -> String {
        let last = name.split(separator: ".").last.map(String.init) ?? name
        var words: [String] = []
        var word = ""
        for character in last {
            if character.isLetter || character.isNumber { word.append(character) } else if !word.isEmpty { words.append(word); word = "" }
        }
        if !word.isEmpty { words.append(word) }
        var symbol = words.enumerated().map { index, word in
            index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if symbol.hasSuffix("Color") && symbol.count > "Color".count { symbol.removeLast("Color".count) }
        return symbol
    }

    // MARK: Judging a pair

    /// Why `foreground` on `background` is not a pair to propose, or nil when it is one: at least
    /// one theme holds both, and there neither is fully transparent, the background is not
    /// translucent over nothing known, and the two are not one color (by their aliases, or drawn
    /// the same). Never a
    /// token on itself, a disabled token, or two colors that are neither a token of a palette
    /// (Apple's system colors, CSS colors written in a source).
    ///
    /// Names that are not tokens may be Apple's system colors (`ios.label`, whose value is built
    /// in) or CSS colors (`#ffffff`): those are in every theme.
    func reasonNotToPropose(foreground: String, background: String) -> String? {
        if foreground == background { return "\(foreground) on itself" }
        for name in [foreground, background] where TokenNameRole(name: name).disabled {
            return "\(name) is a disabled color: WCAG exempts the text of inactive components (SC 1.4.3), so it is never proposed"
        }
        let fgThemes = themesOf[foreground], bgThemes = themesOf[background]
        if fgThemes == nil && bgThemes == nil {
            for name in [foreground, background] where !Self.isBuiltIn(name) {
                return "\(name) is not a color token of the palettes read"
            }
            return "\(foreground) and \(background) are both Apple's system colors or colors written in the source, not tokens of a palette: there is nothing of the palette to check"
        }
        for name in [foreground, background] where themesOf[name] == nil && !Self.isBuiltIn(name) {
            return "\(name) is not a color token of the palettes read"
        }
        let candidates: [Int]
        switch (fgThemes, bgThemes) {
        case let (f?, b?): let other = Set(b); candidates = f.filter { other.contains($0) }
        case let (f?, nil): candidates = f
        case let (nil, b?): candidates = b
        case (nil, nil): candidates = []
        }
        guard !candidates.isEmpty else { return "no theme of the palettes read has both \(foreground) and \(background)" }
        var firstReason: String?
        for index in candidates {
            let theme = themes[index]
            guard let fg = color(foreground, in: theme), let bg = color(background, in: theme) else { continue }
            let reason: String?
            if fg.alpha <= 0 {
                reason = "\(foreground) is fully transparent (theme \(theme.theme))"
            } else if bg.alpha <= 0 {
                reason = "\(background) is fully transparent (theme \(theme.theme)): what shows through is not known"
            } else if bg.alpha < 1 && !theme.hasBackdrop {
                reason = "\(background) is translucent (alpha \(CSSNumber.format(bg.alpha)), theme \(theme.theme)) and nothing known is behind it"
            } else if fg.final == bg.final {
                reason = "\(foreground) and \(background) are both \(fg.final) (theme \(theme.theme)): one color on itself"
            } else if fg.hex == bg.hex {
                reason = "\(foreground) and \(background) are the same color, \(fg.hex) (theme \(theme.theme)): one color on itself"
            } else {
                reason = nil
            }
            guard let reason else { return nil }
            if firstReason == nil { firstReason = reason }
        }
        return firstReason ?? "no theme of the palettes read resolves both \(foreground) and \(background)"
    }

    /// A name's color in a theme: its token, else a built-in system color or a CSS color.
    package func color(_ name: String, in theme: ThemeColors) -> Color? {
        if let token = theme.colors[name] { return token }
        if name.hasPrefix("ios."),
           let css = AppleSystemColors.value(String(name.dropFirst(4)), dark: theme.scheme == .dark, highContrast: theme.theme.lowercasedContains("contrast")),
           let parsed = try? CSSColor.parse(css) {
            return Color(alpha: parsed.color.alpha, hex: parsed.color.hex, final: name)
        }
        if name.hasPrefix("#"), let parsed = try? CSSColor.parse(name) { return Color(alpha: parsed.color.alpha, hex: parsed.color.hex, final: name.lowercased()) }
        return nil
    }

    /// Whether a name is one of Apple's system colors (`ios.label`) or a CSS hex color.
    package static func isBuiltIn(_ name: String) -> Bool {
        if name.hasPrefix("ios.") { return AppleSystemColors.table[String(name.dropFirst(4))] != nil }
        return name.hasPrefix("#") && (try? CSSColor.parse(name)) != nil
    }
}
