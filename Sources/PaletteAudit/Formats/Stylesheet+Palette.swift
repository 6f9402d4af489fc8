import ColorScience

/// The palette a stylesheet's declarations make: one theme per class or attribute value on the
/// base (or the product of axes, `Stylesheet+Axes.swift`), with the ledger of what was not read.
extension StylesheetReader {
    /// Reads the stylesheet and builds its palette (nil when it defines no theme at all).
    mutating func palette(name: String) -> Palette? {
        read()
        // A read stopped half-way is never measured.
        guard !stopped else { return nil }
        let baseScheme: ColorScheme = {
            guard let declared = colorSchemes[""] else { return .light }
            let words = declared.split(separator: " ")
            return words.contains("dark") && !words.contains("light") ? .dark : .light
        }()
        var themes: [Theme] = []
        var format = "CSS custom properties"
        switch axisThemes(baseScheme: baseScheme) {
        case .stopped:
            return nil
        case .themes(let built, let note):
            themes = built
            format += note
        case .notAxes:
            guard let built = singleAxisThemes(baseScheme: baseScheme) else { return nil }
            themes = built
        }
        // Two themes of one name would be one in every output (a baseline keeps one of them, and
        // `--theme` picks both): each later one takes a number, and a warning says so.
        var seenNames: [String: Int] = [:]
        for i in themes.indices {
            let name = themes[i].name
            seenNames[name, default: 0] += 1
            guard let count = seenNames[name], count > 1 else { continue }
            var renamed = "\(name)-\(count)"
            while themes.contains(where: { $0.name == renamed }) { renamed += "-\(count)" }
            problems.append(PaletteProblem(.duplicateName, "two themes of this stylesheet are named '\(name)' (their blocks are named alike by different selectors or queries); the later one is read as '\(renamed)'",
                                           file: file, severity: .warning))
            themes[i].name = renamed
            themes[i].pointer = JSONPointer([renamed])
        }
        // A declaration no theme takes (a later one of the same name in its block wins) was met
        // and not read.
        let taken = Set(themes.flatMap { $0.tokens.compactMap { token in token.location.map { "\(token.file ?? file ?? "")\u{0}\($0.offset)" } } })
        let accounted = Set(ledger.entries.compactMap { entry in entry.line.map { "\(entry.file ?? "")\u{0}\($0):\(entry.column ?? 0)" } })
        // The last @property of each name: an earlier one loses to it.
        var lastInitial: [String: Int] = [:]
        for initial in initialValues { lastInitial[initial.name] = initial.order }
        func isTaken(_ d: Declaration) -> Bool { taken.contains("\(d.file ?? "")\u{0}\(d.location.offset)") }
        // Each theme's declarations in its name's order, so the ledger's order is the same every run.
        let byTheme = declarations.sorted { $0.key < $1.key }
        for (theme, list) in [("", initialValues)] + byTheme {
            for declaration in list where !isTaken(declaration)
                && !accounted.contains("\(declaration.file ?? "")\u{0}\(declaration.location.line):\(declaration.location.column)") {
                var reason = !declaration.initial ? "another declaration of --\(declaration.name) in the same theme wins the cascade"
                    : (lastInitial[declaration.name] ?? 0) > declaration.order ? "a later @property --\(declaration.name) wins"
                    : "every theme sets --\(declaration.name), so its @property initial value applies to none"
                // Name the declaration that is read instead, and say whether it gives another value:
                // two blocks for one theme (Primer's `auto` mode under a color-scheme query) are
                // then seen to agree, or not.
                if !declaration.initial, let winner = list.last(where: { $0.name == declaration.name && isTaken($0) }) {
                    let place = "\((winner.file ?? file).map { String($0.split(separator: "/").last ?? "") + ":" } ?? "line ")\(winner.location.line)"
                    let block = winner.block != declaration.block ? "in '\(winner.block.prefix(120))'" : winner.order > declaration.order ? "later in the same block" : "in the same block"
                    let same = winner.value == declaration.value ? "with the same value" : "with another value, \(winner.value.prefix(60))"
                    // Why it wins, when not by coming later (the cascade's order: importance,
                    // layer, specificity, then order).
                    let why: String
                    if winner.element != declaration.element {
                        why = ": it wins by being body's, which the page's text inherits"
                    } else if winner.important != declaration.important {
                        why = ": it wins by !important"
                    } else if winner.layer != declaration.layer {
                        why = winner.layer == Declaration.unlayered ? ": it wins by being outside every layer"
                            : declaration.layer == Declaration.unlayered ? ": it wins by being !important in a layer" : ": it wins by its cascade layer"
                    } else if winner.specificity != declaration.specificity {
                        why = ": it wins by specificity"
                    } else {
                        why = ""
                    }
                    reason = "theme '\(theme.isEmpty ? baseScheme.rawValue : theme)' declares --\(declaration.name) again at \(place) (\(block)), \(same); that declaration is the one read\(why)"
                }
                ledger.notRead(declaration.name, reason: reason, file: declaration.file, location: declaration.location)
            }
        }
        if bareHSL > 0 {
            problems.append(PaletteProblem(.unsupportedProperty, "\(bareHSL) custom propert\(bareHSL == 1 ? "y holds" : "ies hold") bare HSL channels (like `0 0% 100%`), which are not colors on their own; they are read as hsl() colors, as hsl(var(--x)) uses them (shadcn/ui's older themes, Tailwind v3), and each is listed as an assumption",
                                           file: file, severity: .warning))
        }
        var palette = Palette(name: name, file: file, themes: themes)
        palette.files = files
        palette.format = format
        palette.ledger = ledger
        return palette
    }

    /// A theme named both by a color-scheme query alone (`@media (prefers-color-scheme: dark)
    /// { :root:not([data-theme]) { … } }`) and by a selector (`[data-theme=dark]`) is two states
    /// of the page, which never apply together: the query's blocks become `auto-dark` (what a
    /// dark system preference shows), the selector's stay `dark`. They were one theme, the later
    /// block replacing the other's values, and the state users with a dark system saw was never
    /// measured.
    mutating func separatingPreferenceThemes() {
        guard !preferenceNamedSpecs.isEmpty else { return }
        for key in declarations.keys.sorted() where !key.isEmpty {
            guard let list = declarations[key] else { continue }
            let preferred = list.filter { preferenceNamedSpecs.contains($0.spec) }
            guard !preferred.isEmpty, preferred.count < list.count else { continue }
            let renamed = "auto-" + key
            declarations[key] = list.filter { !preferenceNamedSpecs.contains($0.spec) }
            declarations[renamed, default: []] += preferred
            declarations[renamed]?.sort(by: Declaration.cascades)
            if colorSchemes[renamed] == nil, let scheme = colorSchemes[key] { colorSchemes[renamed] = scheme }
        }
    }

    /// Themes that only a `color-scheme` makes different: a block that sets `color-scheme: dark`
    /// and no custom property (`[data-color-scheme="dark"] { color-scheme: dark }`), or a base
    /// whose `color-scheme: light dark` follows the system's preference. Their `light-dark()`
    /// values are the dark ones, so each is a theme: the base (and the theme it stands on) read
    /// in that scheme. Without a `light-dark()` value nothing differs, and no theme is added.
    mutating func addingColorSchemeThemes(baseScheme: ColorScheme) {
        let usesLightDark = (declarations.values.joined() + initialValues).contains { $0.value.lowercased().contains("light-dark(") }
        guard usesLightDark else { return }
        func scheme(_ value: String) -> ColorScheme {
            let words = value.split(separator: " ")
            return words.contains("dark") && !words.contains("light") ? .dark : .light
        }
        for (key, value) in colorSchemes.sorted(by: { $0.key < $1.key }) where !key.isEmpty && key != baseScheme.rawValue && declarations[key] == nil {
            if scheme(value) != baseScheme { declarations[key] = [] }
        }
        if let base = colorSchemes[""]?.split(separator: " "), base.contains("light"), base.contains("dark") {
            // The system's preference picks the scheme: the dark one is a theme of its own.
            let name = declarations["dark"] == nil && colorSchemes["dark"] == nil ? "dark" : "auto-dark"
            if declarations[name] == nil {
                declarations[name] = []
                colorSchemes[name] = "dark"
            }
        }
    }

    /// Themes as read before axes: each class or attribute value a theme standing on the base
    /// (nil when the read stopped or there is no theme at all).
    mutating func singleAxisThemes(baseScheme: ColorScheme) -> [Theme]? {
        let baseName = baseScheme.rawValue
        separatingPreferenceThemes()
        addingColorSchemeThemes(baseScheme: baseScheme)
        // A theme named like the base ("light", ".light") adds to it.
        if let same = declarations[baseName] {
            declarations[""] = ((declarations[""] ?? []) + same).sorted(by: Declaration.cascades)
            declarations[baseName] = nil
            if let scheme = colorSchemes[baseName], colorSchemes[""] == nil { colorSchemes[""] = scheme }
        }
        guard !declarations.isEmpty || !initialValues.isEmpty else { return nil }
        var themes: [Theme] = []
        // In the order the stylesheet first writes each theme; a theme only a color-scheme makes
        // comes after those with declarations of their own.
        var firstOrders: [(key: String, order: Int)] = []
        for (key, list) in declarations where !key.isEmpty { firstOrders.append((key, list.lazy.map(\.order).min() ?? Int.max)) }
        firstOrders.sort { (a: (key: String, order: Int), b: (key: String, order: Int)) -> Bool in a.order != b.order ? a.order < b.order : a.key < b.key }
        let others: [String] = firstOrders.map { $0.key }
        for key in (declarations[""] != nil || !initialValues.isEmpty ? [""] : []) + others {
            let themeName = key.isEmpty ? baseName : key
            // The layers a theme stands on: the @property initial values, the base, the theme a
            // "-high-contrast" variant varies, then its own.
            var layers: [[Declaration]] = [initialValues, declarations[""] ?? []]
            if let nested = descendantThemes[key] {
                // `.dark .theme-zinc`: what the dark root sets, inherited, then the element's
                // own theme, then the block for the two together.
                layers.append(declarations[nested.ancestor] ?? [])
                layers.append(declarations[nested.element] ?? [])
                layers.append(declarations[key] ?? [])
            } else if !key.isEmpty {
                if key.hasSuffix("-high-contrast"), let parent = declarations[String(key.dropLast("-high-contrast".count))] { layers.append(parent) }
                // `@variant dark` inside `.theme-x` varies `.theme-x`, which it stands on.
                if key.hasSuffix("-dark"), let parent = declarations[String(key.dropLast("-dark".count))] { layers.append(parent) }
                layers.append(declarations[key] ?? [])
            }
            // Each theme repeats the base's declarations: that work is spent.
            let first = declarations[key]?.min { $0.order < $1.order } ?? initialValues.first
            guard spend(layers.reduce(0) { $0 + $1.count }, on: "the theme '\(themeName)'", file: first?.file ?? file,
                        location: first?.location ?? location(0)) else { return nil }
            var effective: [String: Declaration] = [:]
            for layer in layers {
                for declaration in layer {
                    if let existing = effective[declaration.name], existing.important && !declaration.important && existing.element >= declaration.element { continue }
                    effective[declaration.name] = declaration
                }
            }
            let scheme: ColorScheme = {
                if let declared = colorSchemes[key]?.split(separator: " "), !declared.isEmpty {
                    return declared.contains("dark") && !declared.contains("light") ? .dark : .light
                }
                if key.isEmpty { return baseScheme }
                return key.lowercasedContains("dark") ? .dark : baseScheme
            }()
            let tokens = withFiles(colorTokens(effective, theme: themeName, scheme: scheme), effective)
            guard !stopped else { return nil }
            var theme = Theme(name: themeName, tokens: tokens, pointer: JSONPointer([themeName]))
            theme.colorScheme = scheme
            themes.append(theme)
        }
        return themes
    }
}
