import ColorScience

/// The palette a stylesheet's declarations make: one theme per class or attribute value on the
/// base (or the product of axes, `Stylesheet+Axes.swift`), with the ledger of what was not read.
extension StylesheetReader {
    /// Reads the stylesheet and builds its palette (nil when it defines no theme at all).
    mutating func palette(name: String) -> Palette? {
        read()
        // A read stopped half-way is never measured.
        guard !stopped else { return nil }
        let baseScheme = Self.usedScheme(Self.cascadedScheme([schemeDeclarations[""] ?? []]), prefersDark: false)
        settingAsideComponentScopes()
        var themes: [Theme] = []
        var format = "CSS custom properties"
        switch axisThemes(baseScheme: baseScheme) {
        case .stopped:
            return nil
        case .themes(let built, let note):
            themes = built
            format += note
        case .notAxes:
            if let built = singleAxisThemes(baseScheme: baseScheme) {
                themes = built
            } else {
                // No theme, but declarations met (scoped to components): a palette of no theme
                // keeps the ledger that says where each is and why it is not read.
                guard !stopped, !ledger.entries.isEmpty else { return nil }
            }
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
                if !declaration.initial, let winner = cascadeWinners[Self.key(declaration)] ?? list.last(where: { $0.name == declaration.name && isTaken($0) }) {
                    let place = "\((winner.file ?? file).map { String($0.split(separator: "/").last ?? "") + ":" } ?? "line ")\(winner.location.line)"
                    let block = winner.block != declaration.block || winner.spec != declaration.spec ? "in '\(winner.block.excerpt())'" : winner.order > declaration.order ? "later in the same block" : "in the same block"
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
                    } else if winner.block != declaration.block && winner.order > declaration.order {
                        why = ": it wins by coming later, with the same importance, layer and specificity"
                    } else {
                        why = ""
                    }
                    reason = "theme '\((theme.isEmpty ? baseScheme.rawValue : theme).excerpt(60))' declares --\(declaration.name) again at \(place) (\(block)), \(same); that declaration is the one read\(why)"
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

    /// The key of the rule a declaration is in, for the ledger (``BlockSpec/opening``).
    func rule(of declaration: Declaration) -> Int? {
        declaration.spec >= 0 && declaration.spec < specs.count ? specs[declaration.spec].opening : nil
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
            if let schemes = schemeDeclarations[key] {
                schemeDeclarations[key] = schemes.filter { !preferenceNamedSpecs.contains($0.spec) }
                schemeDeclarations[renamed, default: []] += schemes.filter { preferenceNamedSpecs.contains($0.spec) }
            }
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
        if let base = colorSchemes[""]?.split(separator: " "), base.contains("light"), base.contains("dark"),
           !declarations.keys.contains(where: prefersDark) {
            // The system's preference picks the scheme: the dark one is a theme of its own,
            // unless a block for a dark preference already makes it.
            let name = declarations["dark"] == nil && colorSchemes["dark"] == nil ? "dark" : "auto-dark"
            if declarations[name] == nil {
                declarations[name] = []
                darkPreferenceThemes.insert(name)
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
            schemeDeclarations[""] = (schemeDeclarations[""] ?? []) + (schemeDeclarations[baseName] ?? [])
            schemeDeclarations[baseName] = nil
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
            // What a theme's root computes: the @property initial values under one cascade of
            // the base, the theme a "-high-contrast" variant varies, and the theme's own blocks
            // (importance, layer, specificity, order), as a browser computes the root's values
            // with the theme's conditions true. An element inside the root (`.dark
            // .theme-zinc`) inherits what the root computes and cascades its own blocks over it.
            var onRoot: [Declaration] = []
            var onElement: [Declaration] = []
            var schemeOnRoot: [Declaration] = []
            // The base and the themes this one stands on, each block as it applies to the root
            // in this theme (a block whose selector cannot match here is left out).
            var state: [(axis: String, value: String)] = []
            var stateKey = key
            if let nested = descendantThemes[key] { stateKey = nested.ancestor }
            if !stateKey.isEmpty, let own = declarations[stateKey]?.first(where: { $0.spec >= 0 && $0.spec < specs.count }) {
                state = specs[own.spec].alternatives.first { !$0.isEmpty } ?? []
            }
            var applying: [Int: Int?] = [:]
            // A base block under a light preference (`@media (prefers-color-scheme: light)`)
            // does not apply where the system prefers dark.
            let dark = prefersDark(key)
            func standing(_ list: [Declaration]) -> [Declaration] {
                guard !state.isEmpty || dark else { return list }
                return list.compactMap { declaration in
                    guard declaration.spec >= 0, declaration.spec < specs.count else { return declaration }
                    if dark, specs[declaration.spec].preference?.split(separator: "-").contains("light") == true { return nil }
                    guard !state.isEmpty else { return declaration }
                    if applying[declaration.spec] == nil {
                        // Matching a block's selectors against the theme's root is spent, once per
                        // block and theme.
                        let cost = specs[declaration.spec].selectors.reduce(1) { $0 + $1.utf8.count }
                        guard spend(cost, on: "the theme '\(themeName.excerpt(40))'", file: declaration.file, location: declaration.location) else { return nil }
                        applying[declaration.spec] = specificity(ofSpec: declaration.spec, in: state)
                    }
                    guard let specificity = applying[declaration.spec] ?? nil else { return nil }
                    var adjusted = declaration
                    adjusted.specificity = specificity
                    return adjusted
                }
            }
            onRoot = standing(declarations[""] ?? [])
            schemeOnRoot = standing(schemeDeclarations[""] ?? [])
            let preferenceOnly = !key.isEmpty && (declarations[key] ?? []).allSatisfy { preferenceNamedSpecs.contains($0.spec) }
            if let nested = descendantThemes[key] {
                onRoot += declarations[nested.ancestor] ?? []
                schemeOnRoot += schemeDeclarations[nested.ancestor] ?? []
                onElement = (declarations[nested.element] ?? []) + (declarations[key] ?? [])
            } else if !key.isEmpty {
                // A variant stands on the theme it varies: "-high-contrast" on its scheme's theme
                // (and a contrast preference's blocks), `@variant dark` inside `.theme-x` on
                // `.theme-x`. A variant that only a preference names stands on that theme's
                // preference blocks: a class its conditions do not set does not apply.
                var parents: [String] = []
                if key.hasSuffix("-high-contrast") { parents += [String(key.dropLast("-high-contrast".count)), "high-contrast"] }
                if key.hasSuffix("-dark") { parents.append(String(key.dropLast("-dark".count))) }
                for parent in parents where parent != key {
                    let fromPreference: (Declaration) -> Bool = { !preferenceOnly && parent != "high-contrast" || preferenceNamedSpecs.contains($0.spec) }
                    onRoot += (declarations[parent] ?? []).filter(fromPreference)
                    schemeOnRoot += (schemeDeclarations[parent] ?? []).filter(fromPreference)
                }
                onRoot += declarations[key] ?? []
                schemeOnRoot += schemeDeclarations[key] ?? []
            }
            // Each theme repeats the base's declarations: that work is spent.
            let first = declarations[key]?.min { $0.order < $1.order } ?? initialValues.first
            guard spend(initialValues.count + onRoot.count + onElement.count, on: "the theme '\(themeName)'", file: first?.file ?? file,
                        location: first?.location ?? location(0)) else { return nil }
            let effective = Self.cascaded([initialValues, onRoot.sorted(by: Declaration.cascades), onElement.sorted(by: Declaration.cascades)])
            // What lost in the theme it was written for, and to what: the ledger says so.
            for declaration in declarations[key] ?? [] {
                guard let winner = effective[declaration.name], Self.key(winner) != Self.key(declaration) else { continue }
                if cascadeWinners[Self.key(declaration)] == nil { cascadeWinners[Self.key(declaration)] = winner }
            }
            // `light-dark()` follows the root's used color scheme in the theme: its cascaded
            // `color-scheme` (light where none is given), and where it allows both, the system
            // preference the theme stands for.
            let declaredScheme = Self.cascadedScheme([schemeOnRoot])
            let scheme = Self.usedScheme(declaredScheme, prefersDark: dark)
            if scheme == .light, dark || key.lowercasedContains("dark"),
               let uses = effective.values.filter({ $0.value.lowercasedContains("light-dark(") }).min(by: { $0.order < $1.order }) {
                let declaredWords = (declaredScheme ?? "").split(separator: " ")
                let why = declaredWords.contains("light") && declaredWords.contains("dark")
                    ? "the root's color-scheme there is '\(declaredScheme ?? "")', which follows the system preference, and the theme stands for none: read as a light preference shows it (a dark preference shows the dark colors)"
                    : "the root's color-scheme there is \(declaredScheme.map { "'\($0)'" } ?? "not set"), so a browser uses the light scheme"
                problems.append(PaletteProblem(.unsupportedProperty, "theme '\(themeName.excerpt(60))' resolves light-dark() to its light colors (--\(uses.name.excerpt(60)) among them): \(why); give the theme `color-scheme: dark` for its dark colors",
                                               file: uses.file ?? file, location: uses.location, severity: .warning))
            }
            let tokens = withFiles(colorTokens(effective, theme: themeName, scheme: scheme), effective)
            guard !stopped else { return nil }
            var theme = Theme(name: themeName, tokens: tokens, pointer: JSONPointer([themeName]))
            theme.colorScheme = scheme
            themes.append(theme)
        }
        return themes
    }

    /// Whether a class's name is made only of words that name themes (`dark`, `high-contrast`,
    /// `theme-blue`, `dark_dimmed`): a theme's wrapper, not a component's variant (`btn-dark`,
    /// `carousel-dark`).
    static func isThemeName(_ name: String) -> Bool {
        let words = name.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = words.first else { return false }
        if first == "theme" || words.last == "theme" { return true }
        let themeWords: Set<Substring> = ["dark", "light", "dim", "dimmed", "high", "contrast", "low", "more", "less", "mode", "scheme",
                                          "colorblind", "tritanopia", "protanopia", "deuteranopia", "night", "day", "auto", "system"]
        return words.allSatisfy { themeWords.contains($0) }
    }

    /// A declaration's place: its file and byte offset.
    static func key(_ declaration: Declaration) -> String { "\(declaration.file ?? "")\u{0}\(declaration.location.offset)" }

    /// The values an element computes from groups of declarations, each group sorted in cascade
    /// order and applied over the one before (the last of a name wins).
    static func cascaded(_ groups: [[Declaration]]) -> [String: Declaration] {
        var effective: [String: Declaration] = [:]
        for group in groups {
            for declaration in group { effective[declaration.name] = declaration }
        }
        return effective
    }

    /// The `color-scheme` the cascade gives the root from these declarations, nil when none.
    static func cascadedScheme(_ groups: [[Declaration]]) -> String? {
        groups.last { !$0.isEmpty }.map { $0.sorted(by: Declaration.cascades) }?.last?.value
    }

    /// The color scheme an element uses (CSS Color Adjust 1): `dark` alone is dark, `light`
    /// alone light, both the system's preference, and `normal` (or none) the browser's
    /// default, which is light. `only` changes nothing here.
    static func usedScheme(_ declared: String?, prefersDark: Bool) -> ColorScheme {
        let words = (declared ?? "normal").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        let light = words.contains("light"), dark = words.contains("dark")
        if dark && !light { return .dark }
        if dark && light { return prefersDark ? .dark : .light }
        return .light
    }

    /// Whether a theme's own blocks stand for a dark system preference (`@media
    /// (prefers-color-scheme: dark)`), or it was added for one.
    func prefersDark(_ key: String) -> Bool {
        if darkPreferenceThemes.contains(key) { return true }
        return ((declarations[key] ?? []) + (schemeDeclarations[key] ?? [])).contains { declaration in
            declaration.spec >= 0 && declaration.spec < specs.count
                && (specs[declaration.spec].preference?.split(separator: "-").contains("dark") ?? false)
        }
    }

    /// Blocks on a class that declare none of the root's own custom properties (Bootstrap's
    /// `.btn-dark`, `.table-light`) are component scopes, not states of the root:
    /// they cannot change a token the page draws with, so they are not themes. Each of their
    /// properties is listed as not read, with its block (quoted short). Only where the base
    /// declares colors: a stylesheet whose themes hold every color has no base to compare with.
    mutating func settingAsideComponentScopes() {
        let base = (declarations[""] ?? []) + initialValues
        guard base.contains(where: { Self.looksLikeColor($0.value) || Self.isBareHSL($0.value) || $0.value.lowercasedContains("var(") }) else { return }
        let rootNames = Set(base.map(\.name))
        // A class a descendant theme names is a theme wrapper (`.dark .theme-zinc`), whatever it declares.
        let wrappers = Set(descendantThemes.values.map(\.element))
        var redefined: [String: Int] = [:]
        var classesOnly: Set<String> = []
        for (key, list) in declarations where !key.isEmpty && !list.isEmpty && descendantThemes[key] == nil && schemeDeclarations[key] == nil && !wrappers.contains(key) {
            let fromSelectors = list.allSatisfy { declaration in
                !preferenceNamedSpecs.contains(declaration.spec) && declaration.spec >= 0 && declaration.spec < specs.count && specs[declaration.spec].preference == nil
            }
            guard fromSelectors else { continue }
            redefined[key] = Set(list.lazy.map(\.name).filter(rootNames.contains)).count
            // Classes only: an attribute on the root (`[data-theme]`, `[data-size]`) is how a
            // page sets its state; a class is how it styles a component.
            if list.allSatisfy({ declaration in
                let alternatives = specs[declaration.spec].alternatives
                return !alternatives.isEmpty && alternatives.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.axis == "class" } }
            }) { classesOnly.insert(key) }
        }
        // A block that redefines a few of the root's properties where a theme of the same
        // stylesheet redefines ten times as many (Bootstrap's `.carousel-dark` sets three of the
        // carousel's, `[data-bs-theme=dark]` fifty) is a component's variant too.
        // A class named only with theme words (`.high-contrast`, `.theme-blue`, `.dark-dimmed`)
        // says it is a theme: only one that redefines nothing of the root's is a scope.
        let most = redefined.values.max() ?? 0
        let scopes = redefined.filter { entry in
            classesOnly.contains(entry.key) && (entry.value == 0 || (entry.value * 10 < most && !Self.isThemeName(entry.key)))
        }.map(\.key)
        for key in scopes.sorted() {
            for declaration in declarations[key] ?? [] {
                let block = declaration.block.excerpt(60)
                let count = redefined[key] ?? 0
                let reason = count == 0 ? "its block '\(block)' is a component scope: it declares none of the root's own custom properties, so it is no theme of the page"
                    : "its block '\(block)' is a component scope: it redefines \(count) of the root's custom properties where a theme of the stylesheet redefines \(most), so it is no theme of the page"
                if Self.looksLikeColor(declaration.value) || declaration.value.lowercasedContains("var(") || Self.isBareHSL(declaration.value) {
                    ledger.notRead(declaration.name, reason: reason, file: declaration.file, location: declaration.location, rule: rule(of: declaration))
                } else {
                    ledger.notColor(declaration.name, type: "\"\(declaration.value.prefix(40))\" (\(reason))", file: declaration.file, location: declaration.location)
                }
                if declaration.spec >= 0 && declaration.spec < specs.count { specs[declaration.spec].alternatives = [] }
            }
            declarations[key] = nil
            colorSchemes[key] = nil
        }
    }
}
