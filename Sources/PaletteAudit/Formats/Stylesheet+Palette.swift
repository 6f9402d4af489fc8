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
                var reason = !declaration.initial ? "a later declaration of --\(declaration.name) in the same theme wins"
                    : (lastInitial[declaration.name] ?? 0) > declaration.order ? "a later @property --\(declaration.name) wins"
                    : "every theme sets --\(declaration.name), so its @property initial value applies to none"
                // Name the declaration that is read instead, and say whether it gives another value:
                // two blocks for one theme (Primer's `auto` mode under a color-scheme query) are
                // then seen to agree, or not.
                if !declaration.initial, let winner = list.last(where: { $0.name == declaration.name && isTaken($0) }) {
                    let place = "\((winner.file ?? file).map { String($0.split(separator: "/").last ?? "") + ":" } ?? "line ")\(winner.location.line)"
                    let block = winner.block == declaration.block ? "later in the same block" : "in '\(winner.block.prefix(120))'"
                    let same = winner.value == declaration.value ? "with the same value" : "with another value, \(winner.value.prefix(60))"
                    reason = "theme '\(theme.isEmpty ? baseScheme.rawValue : theme)' declares --\(declaration.name) again at \(place) (\(block)), \(same); that declaration is the one read"
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

    /// Themes as read before axes: each class or attribute value a theme standing on the base
    /// (nil when the read stopped or there is no theme at all).
    mutating func singleAxisThemes(baseScheme: ColorScheme) -> [Theme]? {
        let baseName = baseScheme.rawValue
        // A theme named like the base ("light", ".light") adds to it.
        if let same = declarations[baseName] {
            declarations[""] = ((declarations[""] ?? []) + same).sorted { $0.order < $1.order }
            declarations[baseName] = nil
            if let scheme = colorSchemes[baseName], colorSchemes[""] == nil { colorSchemes[""] = scheme }
        }
        guard !declarations.isEmpty || !initialValues.isEmpty else { return nil }
        var themes: [Theme] = []
        let others = declarations.filter { !$0.key.isEmpty }.map { ($0.key, $0.value.first?.order ?? 0) }.sorted { $0.1 < $1.1 }.map(\.0)
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
            let first = declarations[key]?.first ?? initialValues.first
            guard spend(layers.reduce(0) { $0 + $1.count }, on: "the theme '\(themeName)'", file: first?.file ?? file,
                        location: first?.location ?? location(0)) else { return nil }
            var effective: [String: Declaration] = [:]
            for layer in layers {
                for declaration in layer {
                    if let existing = effective[declaration.name], existing.important && !declaration.important { continue }
                    effective[declaration.name] = declaration
                }
            }
            let scheme: ColorScheme = {
                if let declared = colorSchemes[key]?.split(separator: " "), !declared.isEmpty {
                    return declared.contains("dark") && !declared.contains("light") ? .dark : .light
                }
                if key.isEmpty { return baseScheme }
                return key.lowercased().contains("dark") ? .dark : baseScheme
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
