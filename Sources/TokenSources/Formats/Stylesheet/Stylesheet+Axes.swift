import ColorScience

/// Themes as the product of independent axes (Designsystemet's `[data-color-scheme]` ×
/// `[data-color]`): see ``StylesheetReader/axisThemes(baseScheme:)``.
extension StylesheetReader {
    enum AxisOutcome {
        /// Fewer than two independent axes: themes are read one class or attribute value each.
        case notAxes
        case stopped
        /// The themes, and what the palette's format says of its axes.
        case themes([Theme], String)
    }

    /// The most themes the product of a stylesheet's axes may make.
    static let maximumAxisThemes = 1_000

    /// Themes as the product of independent axes: attributes of different names (and classes,
    /// one axis "class") on the root. An axis is independent when some selector pins it alone
    /// (`[data-color="brand1"]`); a stylesheet with fewer than two such axes is read one value a
    /// theme, as before (`.dark`, Primer's `[data-color-mode][data-dark-theme]`).
    ///
    /// Axes whose blocks hold no colors are fixed to their default (the base). A value whose
    /// blocks stand under color-scheme or contrast queries (`[data-color-scheme="auto"]` in
    /// `@media (prefers-color-scheme: light)` and `(… dark)`) is one theme per preference
    /// (`auto-light`, `auto-dark`). An axis whose value shares a block with `:root`
    /// (`:root, [data-color-scheme="light"]`) has that value as its default; any other axis has
    /// the base (no value) as one of its values. Each theme's declarations are, in source order,
    /// those of every block whose selector has an alternative whose constraints all hold.
    mutating func axisThemes(baseScheme: ColorScheme) -> AxisOutcome {
        // `[data-theme="dark"], .dark`: two spellings of one axis, not two axes.
        let specs = Self.mergingSynonymAxes(self.specs)
        let (axisOrder, values, independent, defaults) = Self.axisValues(specs)
        guard independent.count >= 2 else { return .notAxes }
        let all = declarations.values.flatMap { $0 }.sorted { $0.order < $1.order }
        guard let holdsColors = axesHoldingColors(specs, all) else { return .stopped }
        let axes = axisOrder.filter { holdsColors.contains($0) && values[$0] != nil }
        let fixed = axisOrder.filter { !holdsColors.contains($0) && values[$0] != nil }
        let (entries, constraints) = Self.axisEntries(specs, axes: axes, values: values, defaults: defaults)
        guard spend(constraints, on: "the stylesheet's axes", at: 0) else { return .stopped }
        // The combinations are counted (with overflow checks) before any theme is built.
        var count = 1, overflow = false, pastAt: String?
        for (axis, list) in zip(axes, entries) {
            let (product, overflowed) = count.multipliedReportingOverflow(by: list.count)
            overflow = overflow || overflowed
            count = overflowed ? Int.max : product
            if pastAt == nil, overflow || count > Self.maximumAxisThemes { pastAt = axis }
        }
        if let pastAt {
            let shown = zip(axes, entries).map { "\($0.0) (\($0.1.count))" }.joined(separator: " × ")
            // Located at the first block that pins the axis which took the count past the limit.
            let at = specs.first { $0.alternatives.contains { $0.contains { $0.axis == pastAt } } }
            halt(PaletteProblem(.limitExceeded, "the stylesheet's axes \(shown) make \(overflow ? "more than \(Int.max)" : String(count)) themes, more than \(Self.maximumAxisThemes); a stylesheet this varied is not read",
                                file: at?.file ?? file, location: at?.location ?? location(0)))
            return .stopped
        }
        let allSchemes = schemeDeclarations.values.flatMap { $0 }
        var bySpec: [Int: [Declaration]] = [:]
        for declaration in all { bySpec[declaration.spec, default: []].append(declaration) }
        var applied: Set<Int> = []
        var themes: [Theme] = []
        var digits = Array(repeating: 0, count: entries.count)
        for _ in 0..<count {
            var chosen: [String: String] = [:]
            var preferences: [String] = []
            var nameParts: [String] = []
            for (i, axis) in axes.enumerated() {
                let entry = entries[i][digits[i]]
                if !entry.value.isEmpty {
                    chosen[axis] = entry.value
                    nameParts.append(entry.preference.map { entry.value + "-" + $0 } ?? entry.value)
                }
                if let preference = entry.preference, !preferences.contains(preference) { preferences.append(preference) }
            }
            // The next combination (the last axis turns fastest).
            var i = entries.count - 1
            while i >= 0 {
                digits[i] += 1
                if digits[i] < entries[i].count { break }
                digits[i] = 0
                i -= 1
            }
            let preference = preferences.isEmpty ? nil : preferences.joined(separator: "-")
            let themeName = nameParts.isEmpty ? baseScheme.rawValue : nameParts.joined(separator: "-")
            // Matching every block's constraints against the theme is spent, once per theme.
            guard spend(constraints, on: "the theme '\(themeName)'", at: 0) else { return .stopped }
            var layers: [Int] = []
            for (index, spec) in specs.enumerated() {
                guard spec.preference == nil || spec.preference == preference else { continue }
                let holds = spec.alternatives.contains { alternative in
                    alternative.allSatisfy { constraint in
                        guard let value = chosen[constraint.axis] else { return false }
                        return constraint.value == "*" || constraint.value == value
                    }
                }
                if holds { layers.append(index) }
            }
            applied.formUnion(layers)
            let layered = initialValues + layers.flatMap { bySpec[$0] ?? [] }.sorted(by: Declaration.cascades)
            let first = specs[layers.first ?? 0]
            guard spend(layered.count, on: "the theme '\(themeName)'", file: first.file, location: first.location) else { return .stopped }
            var effective: [String: Declaration] = [:]
            for declaration in layered {
                if let existing = effective[declaration.name], existing.important && !declaration.important && existing.element >= declaration.element { continue }
                effective[declaration.name] = declaration
            }
            // The used color scheme, as with one axis: the cascaded `color-scheme` of the blocks
            // the theme takes, light where none is given, the preference where it allows both.
            let taken = Set(layers)
            let declared = Self.cascadedScheme([allSchemes.filter { taken.contains($0.spec) }])
            let scheme = Self.usedScheme(declared, prefersDark: preference?.split(separator: "-").contains("dark") ?? false)
            let tokens = withFiles(colorTokens(effective, theme: themeName, scheme: scheme), effective)
            guard !stopped else { return .stopped }
            var theme = Theme(name: themeName, tokens: tokens, pointer: JSONPointer([themeName]))
            theme.colorScheme = scheme
            themes.append(theme)
        }
        noteUntakenBlocks(specs, all, applied: applied, fixed: Set(fixed))
        var note = "; themes are the axes " + axes.joined(separator: " × ")
        for axis in fixed { note += "; \(axis) fixed to its default (no colors)" }
        return .themes(themes, note)
    }

    /// Each axis's values, the base first where the axis has no default; a value under
    /// preference queries splits into one per preference. And the number of constraints the
    /// blocks hold (what matching them against one theme costs).
    static func axisEntries(_ specs: [BlockSpec], axes: [String], values: [String: [String]], defaults: [String: String])
        -> (entries: [[(value: String, preference: String?)]], constraints: Int) {
        var preferencesOf: [String: [String]] = [:]
        var constraints = specs.count
        for spec in specs {
            for alternative in spec.alternatives {
                constraints += alternative.count
                guard let preference = spec.preference else { continue }
                for (axis, value) in alternative where value != "*" && !(preferencesOf[axis + "\u{0}" + value] ?? []).contains(preference) {
                    preferencesOf[axis + "\u{0}" + value, default: []].append(preference)
                }
            }
        }
        var entries: [[(value: String, preference: String?)]] = []
        for axis in axes {
            var list: [(value: String, preference: String?)] = defaults[axis] == nil ? [("", nil)] : []
            for value in values[axis] ?? [] {
                let preferences = preferencesOf[axis + "\u{0}" + value] ?? []
                if preferences.isEmpty { list.append((value, nil)) } else { list += preferences.map { (value, $0) } }
            }
            entries.append(list)
        }
        return (entries, constraints)
    }

    /// The axes the blocks pin, in first-seen order; each axis's values, in first-seen order;
    /// the axes some block pins alone (an axis of its own); and each axis's default, the value
    /// a block shares with `:root`.
    static func axisValues(_ specs: [BlockSpec]) -> (order: [String], values: [String: [String]], independent: Set<String>, defaults: [String: String]) {
        var axisOrder: [String] = []
        var values: [String: [String]] = [:]
        var independent: Set<String> = []
        var defaults: [String: String] = [:]
        var seenAxes: Set<String> = [], seenValues: Set<String> = []
        for spec in specs {
            let hasRoot = spec.alternatives.contains { $0.isEmpty }
            for alternative in spec.alternatives {
                for (axis, value) in alternative {
                    if seenAxes.insert(axis).inserted { axisOrder.append(axis) }
                    if value != "*", seenValues.insert(axis + "\u{0}" + value).inserted { values[axis, default: []].append(value) }
                }
                if alternative.count == 1, let only = alternative.first, only.value != "*" {
                    independent.insert(only.axis)
                    if hasRoot, defaults[only.axis] == nil { defaults[only.axis] = only.value }
                }
            }
        }
        return (axisOrder, values, independent, defaults)
    }

    /// The axes whose blocks hold colors: a property written as a color or naming one through
    /// `var()`, or `color-scheme` when some value uses `light-dark()`; nil when the read stops.
    mutating func axesHoldingColors(_ specs: [BlockSpec], _ all: [Declaration]) -> Set<String>? {
        // The properties that hold colors: written as one, or naming one through var().
        var referrers: [String: [String]] = [:]
        var colorNames: Set<String> = []
        var queue: [String] = []
        for declaration in initialValues + all {
            if Self.looksLikeColor(declaration.value) || Self.isBareHSL(declaration.value) || CSSColor.isColor(declaration.value, scheme: .light) {
                if colorNames.insert(declaration.name).inserted { queue.append(declaration.name) }
            }
            for name in Self.varNames(declaration.value) { referrers[name, default: []].append(declaration.name) }
        }
        guard spend(all.count, on: "the stylesheet's axes", at: 0) else { return nil }
        while let name = queue.popLast() {
            for referrer in referrers[name] ?? [] where colorNames.insert(referrer).inserted { queue.append(referrer) }
        }
        var holdsColors: Set<String> = []
        for declaration in all where declaration.spec >= 0 && colorNames.contains(declaration.name) {
            for alternative in specs[declaration.spec].alternatives {
                for (axis, value) in alternative where value != "*" { holdsColors.insert(axis) }
            }
        }
        // A block that sets only `color-scheme` changes every `light-dark()` value: its axes hold
        // colors when any value uses one.
        if all.contains(where: { $0.value.lowercased().contains("light-dark(") }) {
            for index in Set(schemeDeclarations.values.joined().map(\.spec)) where index >= 0 && index < specs.count {
                for alternative in specs[index].alternatives {
                    for (axis, value) in alternative where value != "*" { holdsColors.insert(axis) }
                }
            }
        }
        return holdsColors
    }

    /// Says why each declaration of a block no theme takes is not read: a block of a fixed axis,
    /// a block inside the root, or one whose constraints no theme meets.
    mutating func noteUntakenBlocks(_ specs: [BlockSpec], _ all: [Declaration], applied: Set<Int>, fixed fixedAxes: Set<String>) {
        // Blocks no theme takes: those of fixed axes, and any other block whose constraints no
        // theme meets.
        for declaration in all where !applied.contains(declaration.spec) {
            let pinned = declaration.spec >= 0 ? specs[declaration.spec].alternatives.flatMap { $0.map(\.axis) } : []
            let nested = declaration.spec >= 0 && specs[declaration.spec].alternatives.isEmpty
            let reason = nested ? "its block (\(declaration.block.excerpt(60))) sets properties on an element inside the root; where the stylesheet's themes are axes, such a block is not read"
                : pinned.first { fixedAxes.contains($0) }.map { "\($0) is fixed to its default (its blocks hold no colors)" }
                ?? "its block (\(declaration.block.excerpt(60))) applies to no theme of the stylesheet's axes"
            if Self.looksLikeColor(declaration.value) || declaration.value.lowercased().contains("var(") {
                ledger.notRead(declaration.name, reason: reason, file: declaration.file, location: declaration.location, rule: rule(of: declaration))
            } else {
                ledger.notColor(declaration.name, type: "\"\(declaration.value.prefix(40))\" (\(reason))", file: declaration.file, location: declaration.location)
            }
        }
    }

    /// The blocks with synonym axes made one: two axes named in exactly the same blocks, with one
    /// value each there and the values matching one to one (`:root, [data-theme="light"], .light`
    /// and `[data-theme="dark"], .dark` spell one choice twice, as sites that support both
    /// write it). The later axis (by name) is written as the earlier, with the matching value.
    static func mergingSynonymAxes(_ specs: [BlockSpec]) -> [BlockSpec] {
        var appearances: [String: [Int: Set<String>]] = [:]
        var together: Set<String> = []  // pairs of axes pinned in one alternative
        for (index, spec) in specs.enumerated() {
            for alternative in spec.alternatives {
                for (axis, value) in alternative { appearances[axis, default: [:]][index, default: []].insert(value) }
                let named = alternative.map(\.axis).sorted()
                for (i, a) in named.enumerated() { for b in named[(i + 1)...] { together.insert(a + "\u{0}" + b) } }
            }
        }
        guard appearances.count >= 2, appearances.count <= 64 else { return specs }
        let axes = appearances.keys.sorted()
        var rename: [String: (to: String, values: [String: String])] = [:]
        for (i, a) in axes.enumerated() where rename[a] == nil {
            for b in axes[(i + 1)...] where rename[b] == nil && !together.contains(a + "\u{0}" + b) {
                guard let inA = appearances[a], let inB = appearances[b], Set(inA.keys) == Set(inB.keys) else { continue }
                var forward: [String: String] = [:], backward: [String: String] = [:]
                let matches = inA.allSatisfy { spec, values in
                    guard values.count == 1, let x = values.first, x != "*", let others = inB[spec], others.count == 1,
                          let y = others.first, y != "*", forward[y] ?? x == x, backward[x] ?? y == y else { return false }
                    forward[y] = x
                    backward[x] = y
                    return true
                }
                if matches { rename[b] = (a, forward) }
            }
        }
        guard !rename.isEmpty else { return specs }
        return specs.map { spec in
            var spec = spec
            var seen: Set<String> = []
            spec.alternatives = spec.alternatives.compactMap { alternative in
                let rewritten = alternative.map { constraint in
                    rename[constraint.axis].map { (axis: $0.to, value: $0.values[constraint.value] ?? constraint.value) } ?? constraint
                }
                let key = rewritten.map { $0.axis + "=" + $0.value }.sorted().joined(separator: "\u{0}")
                return seen.insert(key).inserted ? rewritten : nil
            }
            return spec
        }
    }
}
