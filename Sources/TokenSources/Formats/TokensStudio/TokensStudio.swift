/// Tokens Studio for Figma: token sets in one file (top-level keys) or a folder (one file per
/// set, `theme/light` in `theme/light.json`), with `$themes` and `$metadata`.
///
/// As the plugin applies them: sets are merged in `$metadata.tokenSetOrder` order (sets it does
/// not list come after, by name); a theme uses its `enabled` and `source` sets, and a later set's
/// token replaces an earlier one. Themes with a `group` combine across groups (one theme per
/// group at a time), named by their names joined with `-` in group order, as Tokens Studio's
/// Style Dictionary transforms name them. Without `$themes`, every set is merged into one theme,
/// and tokens that two sets define are reported.
extension PaletteDecoder {
    mutating func tokensStudioPalette(sets: [(name: String, file: String, root: JSONValue, pointer: JSONPointer)],
                                      themes themesValue: JSONValue?, themesFile: String?, metadata: JSONValue?,
                                      name: String, reader: DocumentReader) -> Palette? {
        dialect = .tokensStudio
        // Set order.
        var order: [String] = []
        if let listed = metadata?["tokenSetOrder"], case .array(let items, _) = listed {
            order = items.compactMap(\.stringValue)
        }
        // Through sets, not scans of the lists: 50,000 sets made the order cost seconds.
        let listed = Set(order), setNames = Set(sets.map(\.name))
        let unlisted = Array(setNames.subtracting(listed)).sorted()
        var placed: Set<String> = []
        order = order.filter { setNames.contains($0) && placed.insert($0).inserted } + unlisted
        var position: [String: Int] = [:]
        for (index, name) in order.enumerated() { position[name] = index }

        var cache: [String: JSONValue?] = [:]
        for set in sets { cache[set.file] = set.root }
        let setFiles = Array(Set(sets.map(\.file))).sorted()
        var flattened: [String: [Token]] = [:]
        for set in sets {
            let saved = file
            file = set.file
            let resolved = resolveReferences(set.root, file: set.file, pointer: set.pointer, reader: reader, cache: &cache, setFiles: setFiles)
            file = saved
            let dialect: TokenDialect = PaletteDecoder.usesDollarValue(set.root) ? .dtcg : .tokensStudio
            var tokens = flatten(TokenSource(file: set.file, root: resolved, pointer: set.pointer), dialect: dialect)
            for i in tokens.indices { tokens[i].value = PaletteDecoder.normalizeStudioReferences(tokens[i].value) }
            flattened[set.name] = tokens
        }

        struct StudioTheme { var name: String; var group: String?; var sets: [String: String]; var pointer: JSONPointer }
        var studioThemes: [StudioTheme] = []
        // Hints for sets that are not there compare the name with every set: the first 64 get
        // one, as an audit's "did you mean" searches are held to 64.
        var hintsLeft = 64
        if let themesValue {
            let saved = file
            file = themesFile ?? file
            if case .array(let items, _) = themesValue {
                for (index, item) in items.enumerated() {
                    let pointer = (themesFile == nil ? JSONPointer(["$themes"]) : JSONPointer()).appending(index)
                    guard let themeName = item["name"]?.stringValue, let selected = item["selectedTokenSets"]?.members else {
                        problem(.missingField, "a Tokens Studio theme needs \"name\" and \"selectedTokenSets\"", at: pointer, item)
                        continue
                    }
                    var statuses: [String: String] = [:]
                    for member in selected {
                        guard let status = member.value.stringValue, ["enabled", "source", "disabled"].contains(status) else {
                            problem(.invalidValue, "theme \"\(themeName.excerpt(40))\": set \"\(member.key.excerpt(40))\" has status \(member.value.stringValue.map { "\"\($0)\"" } ?? member.value.typeName); expected \"enabled\", \"source\" or \"disabled\"", at: pointer.appending("selectedTokenSets").appending(member.key), member.value)
                            continue
                        }
                        if status != "disabled" && flattened[member.key] == nil {
                            hintsLeft -= 1
                            let hint = hintsLeft >= 0 ? "; " + Self.tokensStudioMissingSetHint(member.key, sets: order) : ""
                            problem(.unknownToken, "theme \"\(themeName.excerpt(40))\" uses the token set \"\(member.key.excerpt(40))\", which is not in this Tokens Studio set\(hint)", at: pointer.appending("selectedTokenSets").appending(member.key), member.value)
                        }
                        statuses[member.key] = status
                    }
                    studioThemes.append(StudioTheme(name: themeName, group: item["group"]?.stringValue, sets: statuses, pointer: pointer))
                }
            } else {
                problem(.wrongType, "\"$themes\" must be an array of themes, found \(themesValue.typeName)", at: JSONPointer(), themesValue)
            }
            file = saved
        }

        var themes: [Theme] = []
        var formatNote = ""
        // No themes given: no $themes, or the empty one Tokens Studio writes before any theme is
        // made (not a $themes whose entries were all refused: those are problems).
        let noThemes: Bool = { if case .array(let items, _)? = themesValue { return items.isEmpty }; return themesValue == nil }()
        let alternatives = studioThemes.isEmpty && noThemes ? PaletteDecoder.alternativeSets(order, tokens: flattened) : []
        if studioThemes.isEmpty && !alternatives.isEmpty {
            // No $themes, but sets that define the same tokens (light and dark): enabled
            // together, the later would hide the earlier, so each is a theme, with the other sets
            // (global, sizes…) in every theme, in set order.
            let shared = order.filter { set in !alternatives.contains { $0.contains(set) } }
            guard let combinations = PaletteDecoder.combinations(of: alternatives) else {
                problem(.limitExceeded, "the sets that define the same tokens make \(PaletteDecoder.describeProduct(alternatives.map(\.count))) themes; the limit is \(PaletteDecoder.maximumThemeCombinations)", at: JSONPointer(), nil)
                return nil
            }
            let tokenCount = flattened.values.reduce(0) { $0 + $1.count }
            for combination in combinations {
                guard ReadBudget.spend(1 + tokenCount, on: "the themes of the token sets", file: file, location: nil) else { return nil }
                let used = Set(shared + combination)
                let themeName = combination.joined(separator: "-")
                themes.append(Theme(name: themeName, tokens: finishTokens(mergedTokens(used.compactMap { position[$0] }.sorted().map { flattened[order[$0]] ?? [] }), theme: themeName),
                                    pointer: JSONPointer()))
            }
            formatNote = "; no $themes: " + alternatives.map { group in
                "the sets \(group.joined(separator: ", ")) define the same tokens, so each is a theme"
            }.joined(separator: "; ") + (shared.isEmpty ? "" : " (with \(shared.joined(separator: ", ")) in every theme)") + "; give $themes to choose otherwise"
        } else if studioThemes.isEmpty {
            let tokens = finishTokens(mergedTokens(order.map { flattened[$0] ?? [] }, warnCollisions: true))
            themes.append(Theme(name: "default", tokens: tokens, pointer: JSONPointer()))
        } else {
            // Combine one theme per group; themes without a group stand alone. A group none of
            // whose themes uses a set holding a color (sizes, typography) is not an axis of
            // color themes: it is fixed to its first theme, as a resolver fixes such modifiers.
            var groups: [String] = [], groupSet: Set<String> = []
            for theme in studioThemes { if let g = theme.group, groupSet.insert(g).inserted { groups.append(g) } }
            // Whether a set holds a color, found once per set (themes share sets).
            var colorSets: [String: Bool] = [:]
            func holdsColor(_ set: String) -> Bool {
                if let known = colorSets[set] { return known }
                let holds = (flattened[set] ?? []).contains { token in
                    if let type = token.type { return type == "color" }
                    return token.aliasTarget == nil && PaletteDecoder.couldBeColor(token.value)
                }
                colorSets[set] = holds
                return holds
            }
            var fixedGroups: [String] = []
            if groups.count > 1 && !studioThemes.contains(where: { $0.group == nil }) {
                var inGroups: [String: [StudioTheme]] = [:]
                for theme in studioThemes { if let g = theme.group { inGroups[g, default: []].append(theme) } }
                var fixedTo: [String: String] = [:]
                for group in groups {
                    let inGroup = inGroups[group] ?? []
                    guard inGroup.count > 1 else { continue }
                    let colored = inGroup.contains { theme in theme.sets.contains { $0.value != "disabled" && holdsColor($0.key) } }
                    if !colored, let first = inGroup.first {
                        fixedTo[group] = first.name
                        fixedGroups.append("\(group) = \(first.name) (no set of its themes holds a color)")
                    }
                }
                if !fixedTo.isEmpty { studioThemes.removeAll { theme in theme.group.flatMap { fixedTo[$0] }.map { theme.name != $0 } ?? false } }
            }
            // Themes in no group that use no set holding a color (Element's Global, Android,
            // iOS and Web beside Light and Dark) are platform or size themes, not color themes:
            // not audited on their own, and the format line says so.
            if groups.count <= 1 || studioThemes.contains(where: { $0.group == nil }) {
                let colorless = studioThemes.filter { theme in !theme.sets.contains { $0.value != "disabled" && holdsColor($0.key) } }
                if !colorless.isEmpty && colorless.count < studioThemes.count {
                    let names = colorless.map(\.name), nameSet = Set(names)
                    studioThemes.removeAll { theme in nameSet.contains(theme.name) }
                    fixedGroups.append(names.count == 1 ? "the theme \(names[0]) uses no set holding a color, so it is not a color theme and is not audited"
                                       : "the themes \(names.joined(separator: ", ")) use no set holding a color, so they are not color themes and are not audited")
                }
            }
            // Sets no theme uses are not audited: said in the ledger.
            let usedSets = Set(studioThemes.flatMap { theme in theme.sets.filter { $0.value != "disabled" }.map(\.key) })
            for (index, set) in order.enumerated() where !usedSets.contains(set) {
                for token in flattened[set] ?? [] {
                    // The set's name abridged: quoted for each of its tokens.
                    if let type = token.type, type != "color" {
                        ledger.notColor(token.name, type: "\(type.excerpt(40)), in set \(set.excerpt(40)), which no theme uses", file: token.file ?? file, location: token.location)
                    } else {
                        ledger.notRead(token.name, reason: "it is in the token set \(set.excerpt(40)), which no $themes entry uses, so no theme audits it", file: token.file ?? file, location: token.location,
                                       rule: index)
                    }
                }
            }
            formatNote = fixedGroups.isEmpty ? "" : "; " + fixedGroups.joined(separator: "; ")
            var combinations: [[StudioTheme]]
            if groups.count <= 1 || studioThemes.contains(where: { $0.group == nil }) {
                combinations = studioThemes.map { [$0] }
            } else {
                // Counted before they are built (with overflow checks): 20 groups of 2 themes
                // are a million combinations.
                var members: [String: [StudioTheme]] = [:]
                for theme in studioThemes { if let g = theme.group { members[g, default: []].append(theme) } }
                let sizes = groups.map { members[$0]?.count ?? 0 }
                guard PaletteDecoder.combinationCount(sizes) != nil else {
                    problem(.limitExceeded, "the theme groups \(groups.prefix(16).joined(separator: " × "))\(groups.count > 16 ? " × …" : "") make \(PaletteDecoder.describeProduct(sizes)) themes; the limit is \(PaletteDecoder.maximumThemeCombinations)", at: JSONPointer(), themesValue)
                    return nil
                }
                combinations = [[]]
                for group in groups {
                    let inGroup = members[group] ?? []
                    combinations = combinations.flatMap { prefix in inGroup.map { prefix + [$0] } }
                }
            }
            if combinations.count > PaletteDecoder.maximumThemeCombinations {
                problem(.limitExceeded, "the theme groups \(groups.joined(separator: " × ")) make \(combinations.count) themes; the limit is \(PaletteDecoder.maximumThemeCombinations)", at: JSONPointer(), themesValue)
                return nil
            }
            var names: Set<String> = []
            let tokenCount = flattened.values.reduce(0) { $0 + $1.count }
            for combination in combinations {
                guard ReadBudget.spend(1 + tokenCount, on: "the themes of \"$themes\"", file: themesFile ?? file, location: themesValue?.location) else { return nil }
                var used: Set<String> = []
                for theme in combination { for (set, status) in theme.sets where status != "disabled" { used.insert(set) } }
                // In set order, by each set's place (not a walk of every set for every theme).
                let lists = used.compactMap { position[$0] }.sorted().map { flattened[order[$0]] ?? [] }
                var themeName = combination.map(\.name).joined(separator: "-")
                if names.contains(themeName) { themeName += "-\(names.count)" }
                names.insert(themeName)
                themes.append(Theme(name: themeName, tokens: finishTokens(mergedTokens(lists), theme: themeName), pointer: combination.first?.pointer ?? JSONPointer()))
            }
        }
        var palette = Palette(name: name, file: file, themes: themes)
        palette.format = "Tokens Studio; \(sets.count) set\(sets.count == 1 ? "" : "s") in order \(order.joined(separator: ", "))" + (studioThemes.isEmpty ? (alternatives.isEmpty ? "; no $themes: every set merged into one theme" : formatNote) : "; themes from $themes" + formatNote)
        palette.files = setFiles.count > 1 ? setFiles : []
        return palette
    }

    static func usesDollarValue(_ value: JSONValue) -> Bool {
        var stack = [value]
        var visited = 0
        while let next = stack.popLast(), visited < 100_000 {
            visited += 1
            for member in next.members ?? [] {
                if member.key == "$value" { return true }
                stack.append(member.value)
            }
        }
        return false
    }

    /// Tokens Studio's legacy `$a.b` references (a whole value) written as `{a.b}`.
    static func normalizeStudioReferences(_ value: String) -> String {
        let trimmed = value.trimmingSpaces
        guard trimmed.hasPrefix("$"), trimmed.count > 1, !trimmed.contains(" "), !trimmed.contains("("), !trimmed.contains(",") else { return value }
        return "{\(trimmed.dropFirst())}"
    }

    /// The number of combinations of dimensions of these sizes, or nil when it is more than
    /// ``maximumThemeCombinations`` (multiplied with overflow checks, before anything is built).
    static func combinationCount(_ sizes: [Int]) -> Int? {
        var count = 1
        for size in sizes {
            let (product, overflow) = count.multipliedReportingOverflow(by: max(0, size))
            if overflow || product > maximumThemeCombinations { return nil }
            count = product
        }
        return count
    }

    /// A product too large to build, said exactly when an Int holds it ("more than 2^63" when not).
    static func describeProduct(_ sizes: [Int]) -> String {
        var count = 1
        for size in sizes {
            let (product, overflow) = count.multipliedReportingOverflow(by: max(0, size))
            if overflow { return "more than \(Int.max)" }
            count = product
        }
        return "\(count)"
    }
}

extension PaletteDecoder {
    /// What a user can do about a set name `$themes.json` uses and no file defines: the sets of
    /// the folder it names, when it names one (a `$themes.json` written before the set was split
    /// into a folder), else the nearest names, else a few of the sets there are.
    static func tokensStudioMissingSetHint(_ name: String, sets: [String]) -> String {
        func list(_ names: [String]) -> String {
            names.count <= 6 ? names.map { $0.excerpt(40) }.joined(separator: ", ") : names.prefix(6).map { $0.excerpt(40) }.joined(separator: ", ") + " and \(names.count - 6) more"
        }
        let inFolder = sets.filter { $0.hasPrefix(name + "/") }
        if !inFolder.isEmpty {
            return "\(name.excerpt(40))/ is a folder of \(inFolder.count) sets (\(list(inFolder))), and Tokens Studio selects sets, not folders: the $themes.json may predate the set's split into files; select the sets themselves"
        }
        let near = sets.filter { PaletteDecoder.editDistance($0, name, atMost: 2) != nil }
        if !near.isEmpty { return "did you mean \(list(near))?" }
        return "the \(sets.count) sets are \(list(sets))"
    }
}

extension PaletteDecoder {
    /// Without `$themes`: the groups of sets that are alternatives to one another, each group
    /// in set order. Two sets are alternatives when they define the same tokens: they share at
    /// least half of the smaller one's names and a quarter of the larger one's (light and dark,
    /// or brand-a and brand-b). Groups are the connected sets of that relation; a set in none is shared.
    /// (Past 200 sets, none: they are merged in order, with the tokens two sets define reported.)
    static func alternativeSets(_ order: [String], tokens: [String: [Token]]) -> [[String]] {
        // Pairs are compared: past 200 sets, the sets are merged in order as before.
        guard order.count <= 200 else { return [] }
        let names = order.map { Set((tokens[$0] ?? []).map(\.name)) }
        var group = Array(order.indices)
        func root(_ i: Int) -> Int { var i = i; while group[i] != i { i = group[i] }; return i }
        for i in order.indices where !names[i].isEmpty {
            for j in order.indices where j > i && !names[j].isEmpty {
                // Each comparison costs the smaller set's size: spent, so that 200 large sets
                // cannot make the comparisons outgrow the input.
                guard ReadBudget.spend(1 + min(names[i].count, names[j].count), on: "comparing token sets", file: nil, location: nil) else { return [] }
                // Half of the smaller and a quarter of the larger: a high-contrast theme may
                // define more than the others, but an override layer (a few tokens over a large
                // base) is not an alternative to its base, and is merged over it in order.
                let shared = names[i].intersection(names[j]).count
                guard shared * 2 >= min(names[i].count, names[j].count), shared * 4 >= max(names[i].count, names[j].count) else { continue }
                group[root(j)] = root(i)
            }
        }
        var members: [Int: [String]] = [:]
        for i in order.indices { members[root(i), default: []].append(order[i]) }
        return members.values.filter { $0.count > 1 }.sorted { order.firstIndex(of: $0[0])! < order.firstIndex(of: $1[0])! }
    }

    /// Every choice of one member from each group, or nil when there would be more than
    /// ``maximumThemeCombinations`` (counted before any is built).
    static func combinations(of groups: [[String]]) -> [[String]]? {
        guard combinationCount(groups.map(\.count)) != nil else { return nil }
        var result: [[String]] = [[]]
        for group in groups { result = result.flatMap { prefix in group.map { prefix + [$0] } } }
        return result
    }
}
