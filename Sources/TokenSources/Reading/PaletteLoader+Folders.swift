import Foundation

/// Palettes made of several files: token files merged in path order, and a Tokens Studio folder.
extension PaletteLoader {
    /// Token files merged into one palette (one theme), in path order.
    /// `data`: JSON files of the folder that hold no token, which references inside values may
    /// name (Style Dictionary's sources include them).
    func loadMerged(files: [String], name: String, directory: String, parse: (String) -> Result<JSONValue, PaletteProblem>, data: [String] = []) -> LoadedPalette {
        var decoder = PaletteDecoder()
        var lists: [[Token]] = []
        var listed: [String] = []  // the file of each list
        var cache: [String: JSONValue?] = [:]
        var formats: Set<String> = []
        // A format that makes the themes of its merged files (Spectrum), when every file is of it.
        var mergedFormat: (any MergedTokenFormat)?
        var mergedFormats: Set<String> = []
        // `$ref`s of the merged files are read inside the directory the walk started from.
        let references = reader.forReferences(of: nil, root: referenceRoot ?? directory)
        for file in files {
            guard case .success(let document) = parse(file) else { continue }
            cache[file] = document
        }
        let lookups = (data + files).compactMap { file -> JSONValue? in if case .success(let d) = parse(file) { d } else { nil } }
        for file in files {
            switch parse(file) {
            case .failure(let problem):
                decoder.problems.append(problem)
            case .success(let parsed):
                let format = SourceRegistry.detect(SourceDocument(file: file, bytes: [], json: parsed))
                formats.insert(format?.displayName ?? "unknown")
                decoder.file = file
                let merged = format as? any MergedTokenFormat
                if let merged { mergedFormats.insert(merged.id) } else { mergedFormats.insert("") }
                mergedFormat = merged ?? mergedFormat
                let document = merged?.prepared(parsed) ?? Self.channelReferencesResolved(parsed, in: lookups)
                let resolved = decoder.resolveReferences(document, file: file, pointer: JSONPointer(), reader: references, cache: &cache, setFiles: files)
                let syntax = (format as? TokenFileFormat)?.syntax ?? .styleDictionary
                lists.append(decoder.flatten(TokenSource(file: file, root: resolved, pointer: JSONPointer()), dialect: syntax))
                listed.append(file)
            }
        }
        decoder.file = nil
        decoder.dialect = .dtcg
        var palette: Palette
        let themer = mergedFormats.count == 1 ? mergedFormat : nil
        if themer == nil, let themed = Self.fileThemes(listed, lists: lists, root: directory) {
            // Files (or folders) that define the same tokens are themes, not one merge.
            let themes = themed.themes.map { theme in
                Theme(name: theme.name, tokens: decoder.finishTokens(decoder.mergedTokens(theme.lists.map { lists[$0] }), theme: theme.name))
            }
            for (list, reason) in themed.fixedOut.sorted(by: { $0.key < $1.key }) {
                for token in lists[list] {
                    decoder.ledger.notColor(token.name, type: "\(token.type ?? "untyped") (\(reason))", file: token.file, location: token.location)
                }
            }
            // A value read once per theme is one problem, not one a theme.
            var seen = Set<PaletteProblem>()
            decoder.problems = decoder.problems.filter { seen.insert($0).inserted }
            palette = Palette(name: name, file: directory, themes: themes)
            palette.format = "\(formats.sorted().joined(separator: " + ")), \(files.count) files merged in path order; " + themed.note
            palette.files = files
            palette.ledger.merge(decoder.ledger)
            return LoadedPalette(file: directory, palette: palette, problems: decoder.problems)
        }
        let merged = decoder.mergedTokens(lists, warnCollisions: true)
        if let themer {
            // The format's own themes (Spectrum's sets).
            let (themes, note) = themer.themes(of: merged, decoder: &decoder)
            palette = Palette(name: name, file: directory, themes: themes)
            palette.format = "\(formats.sorted().joined(separator: " + ")), \(files.count) files merged in path order" + note
        } else {
            palette = Palette(name: name, file: directory, themes: [Theme(name: "default", tokens: decoder.finishTokens(merged))])
            palette.format = "\(formats.sorted().joined(separator: " + ")), \(files.count) files merged in path order"
        }
        palette.files = files
        palette.ledger.merge(decoder.ledger)
        return LoadedPalette(file: directory, palette: palette, problems: decoder.problems)
    }

    /// A Tokens Studio folder: `$themes.json`, `$metadata.json`, one file per set.
    func loadTokensStudioFolder(root: String, files: [String]) -> LoadedPalette {
        var decoder = PaletteDecoder()
        var sets: [(name: String, file: String, root: JSONValue, pointer: JSONPointer)] = []
        var themes: JSONValue?, metadata: JSONValue?
        var themesBroken = false
        let themesFile = root + "$themes.json"
        for file in files {
            let relative = String(file.dropFirst(root.count))
            let value: JSONValue
            switch reader.read(file) {
            case .failure(let problem):
                decoder.problems.append(problem)
                continue
            case .success(let bytes):
                do { value = try JSONParser.parseTokens(bytes, file: file, warnings: &decoder.problems) } catch {
                    decoder.problems.append(PaletteProblem(.invalidJSON, error.message, file: file, location: error.location))
                    if relative == "$themes.json" || relative == "$metadata.json" {
                        // Without its themes the folder's sets would merge into one theme, which
                        // is not what the system's build makes: the folder is not audited.
                        themesBroken = true
                    }
                    continue
                }
            }
            if relative == "$themes.json" { themes = value } else if relative == "$metadata.json" { metadata = value } else {
                sets.append((String(relative.dropLast(".json".count)), file, value, JSONPointer()))
            }
        }
        let name = String(root.dropLast().split(separator: "/").last ?? "tokens")
        if themesBroken { return LoadedPalette(file: root, palette: nil, problems: decoder.problems) }
        decoder.file = root
        var palette = decoder.tokensStudioPalette(sets: sets, themes: themes, themesFile: themesFile, metadata: metadata, name: name, reader: reader.forReferences(of: nil, root: referenceRoot ?? root))
        palette?.ledger.merge(decoder.ledger)
        return LoadedPalette(file: root, palette: palette, problems: decoder.problems)
    }

}

extension PaletteLoader {
    /// Themes of a folder of token files, when its files say so: files that define the same
    /// tokens (``PaletteDecoder/alternativeSets(_:tokens:)``: they share at least half of
    /// the smaller one's names and a quarter of the larger one's) are alternatives, so each is a theme rather than a replacement of the
    /// other. One group of alternatives is one axis: a theme per file (named by its folder
    /// when each is in a folder of its own, else by its name). Several groups make one axis
    /// when each group has one file in each of the same folders (Kong's `themes/NAME/` with a
    /// theme file and an alias file each): a theme per folder, holding every file under it.
    /// Groups over other folders are other axes; the themes are the product of the axes whose
    /// files hold colors, the others fixed to their first folder. Files in no group are in
    /// every theme. Groups that do not line up are not guessed: nil, and the files are merged
    /// as before. `lists` are indices into the tokens of `files`.
    static func fileThemes(_ files: [String], lists: [[Token]], root: String) -> (themes: [(name: String, lists: [Int])], note: String, fixedOut: [Int: String])? {
        guard files.count >= 2, files.count <= 200 else { return nil }
        if let modes = modeThemes(files, lists: lists, root: root) { return modes }
        return alternativeThemes(files, lists: lists, root: root)
    }

    /// Whether a file's tokens hold a color (typed so, or untyped and written as one).
    /// An untyped alias counts when it ends at a color of `known` (the tokens of every file of
    /// the folder, by name), followed at most 16 steps: a file of sizes whose one alias names
    /// a size (`{size.font.medium}`) holds no color.
    /// Without `known`, any untyped alias counts.
    static func holdsColor(_ tokens: [Token], known: [String: Token]? = nil) -> Bool {
        func isColor(_ token: Token, steps: Int = 0) -> Bool {
            if token.type == "color" || token.type == "gradient" { return true }
            guard token.type == nil else { return false }
            if let target = token.aliasTarget {
                guard let known else { return true }
                guard steps < 16, let next = known[target] else { return false }
                return isColor(next, steps: steps + 1)
            }
            return PaletteDecoder.couldBeColor(token.value)
        }
        return tokens.contains { isColor($0) }
    }

    /// The file's name without its token extension (`modes/dark.json` → `dark`).
    static func shortName(_ path: String) -> String {
        var base = String(path.split(separator: "/").last ?? Substring(path))
        for suffix in [".tokens.json5", ".tokens.json", ".tokens", ".json5", ".json"] where base.hasSuffix(suffix) {
            base.removeLast(suffix.count)
            break
        }
        return base
    }

    /// Files of mode overrides: a file that holds colors and defines no token of its own, only
    /// new values for tokens of the other files (at most half as many as those files define),
    /// is a mode over them, as Style Dictionary builds it when the file is a source over the
    /// others (Wikimedia Codex's `modes/dark.json` over its `application.json`): the other
    /// files are the `default` theme (or their own themes), and each mode is a theme named
    /// after its file, holding them with its values over theirs. nil when there is no such file.
    static func modeThemes(_ files: [String], lists: [[Token]], root: String) -> (themes: [(name: String, lists: [Int])], note: String, fixedOut: [Int: String])? {
        let names = lists.map { Set($0.map(\.name)) }
        var known: [String: Token] = [:]
        for list in lists { for token in list where known[token.name] == nil { known[token.name] = token } }
        func isMode(_ i: Int, over others: [Int]) -> Bool {
            // One token is an example or a patch, not a mode (the DTCG spec's one-token examples
            // beside the files they redefine).
            guard names[i].count >= 2, holdsColor(lists[i], known: known) else { return false }
            var base: Set<String> = []
            for j in others where j != i {
                // Each comparison costs the files' sizes: spent, as comparing sets is.
                guard ReadBudget.spend(1 + names[i].count + names[j].count, on: "comparing token files", file: nil, location: nil) else { return false }
                if !names[j].isDisjoint(with: names[i]) { base.formUnion(names[j]) }
            }
            let covered = names[i].filter(base.contains).count
            return covered == names[i].count && names[i].count * 2 <= base.count
        }
        let candidates = files.indices.filter { isMode($0, over: Array(files.indices)) }
        // A mode overrides the base files, not another mode alone.
        let modes = candidates.filter { isMode($0, over: files.indices.filter { !candidates.contains($0) }) }
        guard !modes.isEmpty else { return nil }
        // Several "modes" that redefine different tokens each (Primer's component and
        // functional sources beside the flattened build-light-values.json they make) are the
        // pieces a built file was made from, not modes of it: alternatives of one choice
        // redefine the same tokens.
        if modes.count > 1 {
            for (x, a) in modes.enumerated() {
                for b in modes[(x + 1)...] {
                    guard ReadBudget.spend(1 + names[a].count + names[b].count, on: "comparing token files", file: nil, location: nil) else { return nil }
                    if names[a].intersection(names[b]).count * 2 < min(names[a].count, names[b].count) { return nil }
                }
            }
        }
        let baseIndices = files.indices.filter { !modes.contains($0) }
        guard !baseIndices.isEmpty else { return nil }
        var baseThemes: [(name: String, lists: [Int])] = [(name: "default", lists: baseIndices)]
        var note = ""
        var fixedOut: [Int: String] = [:]
        if let themed = alternativeThemes(baseIndices.map { files[$0] }, lists: baseIndices.map { lists[$0] }, root: root) {
            baseThemes = themed.themes.map { (name: $0.name, lists: $0.lists.map { baseIndices[$0] }) }
            note = themed.note + "; "
            for (list, reason) in themed.fixedOut { fixedOut[baseIndices[list]] = reason }
        }
        func relative(_ file: String) -> String { String(file.dropFirst(root.count).drop { $0 == "/" }) }
        var themes = baseThemes
        var taken = Set(baseThemes.map(\.name))
        for mode in modes {
            for base in baseThemes {
                var name = baseThemes.count == 1 ? shortName(files[mode]) : base.name + "-" + shortName(files[mode])
                if taken.contains(name) { name = relative(files[mode]) + (baseThemes.count == 1 ? "" : " over " + base.name) }
                guard taken.insert(name).inserted else { return nil }
                // The mode's file last, so that its values replace the base's.
                themes.append((name: name, lists: base.lists + [mode]))
            }
        }
        let described = modes.map { "\(relative(files[$0])) (\(names[$0].count) tokens)" }.joined(separator: ", ")
        note += "\(modes.count == 1 ? "a mode" : "modes") from \(described): \(modes.count == 1 ? "it defines" : "each defines") no token of its own, only new values for tokens of the other files, so \(modes.count == 1 ? "it is a theme" : "each is a theme") named after its file with its values over theirs (the other files without \(modes.count == 1 ? "it" : "them") are \(baseThemes.count == 1 ? "theme default" : "their own themes")); give a resolver document to choose otherwise"
        return (themes, note, fixedOut)
    }

    /// ``fileThemes(_:lists:root:)`` from files that define the same tokens.
    static func alternativeThemes(_ files: [String], lists: [[Token]], root: String) -> (themes: [(name: String, lists: [Int])], note: String, fixedOut: [Int: String])? {
        guard files.count >= 2, files.count <= 200 else { return nil }
        var tokens: [String: [Token]] = [:]
        for (index, file) in files.enumerated() { tokens[file] = lists[index] }
        var groups = PaletteDecoder.alternativeSets(files, tokens: tokens)
        if groups.count == 1 {
            // One group: its files are color themes only where they define the same colors. Files
            // that share only other tokens (Theo's `global.type` and `global.category` in every
            // file: `opacity.json`, `time.json`, `motion.json`) are not themes of a color audit.
            var known: [String: Token] = [:]
            for list in lists { for token in list where known[token.name] == nil { known[token.name] = token } }
            let colors = tokens.mapValues { $0.filter { holdsColor([$0], known: known) } }
            groups = PaletteDecoder.alternativeSets(files, tokens: colors)
        }
        guard !groups.isEmpty else { return nil }
        func folder(_ file: String) -> String { SourcePath.directory(of: file) }
        let index = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, $0) })
        let grouped = Set(groups.joined())
        if groups.count == 1 {
            let members = groups[0]
            let folders = members.map(folder)
            let byFolder = Set(folders).count == members.count && Set(folders.map(shortName)).count == members.count
            let shared = files.filter { !grouped.contains($0) }.compactMap { index[$0] }
            let themes = members.map { member in
                (name: byFolder ? shortName(folder(member)) : shortName(member), lists: (shared + [index[member]!]).sorted())
            }
            guard Set(themes.map(\.name)).count == themes.count else { return nil }
            let relative = members.map { String($0.dropFirst(root.count).drop { $0 == "/" }) }
            return (themes, "themes from the files \(relative.joined(separator: ", ")), which define the same tokens (the other files are in every theme); give a resolver document to choose otherwise", [:])
        }
        // Several groups: the groups that have one file in each of the same folders are one
        // axis, a value per folder (Kong's `themes/NAME/`, a theme file and an alias file each).
        // Groups over other folders are other axes: Style Dictionary's multi-brand example has
        // `brands/NAME/` and `platforms/NAME/`, and its build makes every brand × platform.
        var axes: [(folders: [String], names: [String])] = []
        for group in groups {
            let folders = group.map(folder)
            guard Set(folders).count == folders.count else { return nil }  // two alternatives in one folder: not guessed
            if axes.contains(where: { Set($0.folders) == Set(folders) }) { continue }
            let names = folders.map(shortName)
            guard Set(names).count == names.count else { return nil }
            axes.append((folders, names))
        }
        // The axes' folders are apart: no folder holds another's.
        let allFolders = axes.flatMap(\.folders)
        for (i, a) in allFolders.enumerated() {
            for b in allFolders[(i + 1)...] where a.hasPrefix(b) || b.hasPrefix(a) { return nil }
        }
        func under(_ file: String, _ folder: String) -> Bool { file.hasPrefix(folder) }
        // An axis whose files hold no color is fixed to its first value, as a resolver fixes a
        // modifier that defines no color (a platform's sizes do not change a contrast).
        func holdsColors(_ axis: (folders: [String], names: [String])) -> Bool {
            files.indices.contains { i in
                axis.folders.contains { under(files[i], $0) } && lists[i].contains { token in
                    token.type == "color" || token.type == "gradient" || (token.type == nil && (token.aliasTarget != nil || PaletteDecoder.couldBeColor(token.value)))
                }
            }
        }
        let colorAxes = axes.filter(holdsColors)
        let fixedAxes = axes.filter { !holdsColors($0) }
        guard let count = PaletteDecoder.combinationCount(colorAxes.map(\.folders.count)), count <= PaletteDecoder.maximumThemeCombinations else { return nil }
        var combinations: [[Int]] = [[]]
        for axis in colorAxes { combinations = combinations.flatMap { prefix in axis.folders.indices.map { prefix + [$0] } } }
        let themes = combinations.map { choice in
            let chosen = zip(colorAxes, choice).map { $0.folders[$1] } + fixedAxes.map { $0.folders[0] }
            let name = zip(colorAxes, choice).map { $0.names[$1] }.joined(separator: "-")
            return (name: name.isEmpty ? "default" : name, lists: files.enumerated().filter { _, file in
                // The files under the chosen folders, and those under no axis's folder.
                chosen.contains { under(file, $0) } || !allFolders.contains { under(file, $0) }
            }.map(\.offset))
        }
        func relative(_ folder: String) -> String { String(folder.dropFirst(root.count).drop { $0 == "/" }) }
        var note = colorAxes.map { "themes from the folders \($0.folders.map(relative).joined(separator: ", "))" }.joined(separator: " × ")
        if note.isEmpty { note = "one theme" }
        note += ", whose files define the same tokens (the files outside them are in every theme)"
        // The files of a fixed axis's other folders are in no theme: the ledger says why.
        var fixedOut: [Int: String] = [:]
        for axis in fixedAxes {
            note += "; \(axis.folders.map(relative).joined(separator: ", ")) fixed to \(axis.names[0]) (their files hold no colors)"
            for (folder, name) in zip(axis.folders, axis.names).dropFirst() {
                for (i, file) in files.enumerated() where under(file, folder) {
                    fixedOut[i] = "in \(relative(folder)): the folders \(axis.names.joined(separator: ", ")) hold no colors, so they are fixed to \(axis.names[0]) and \(name) is in no theme"
                }
            }
        }
        return (themes, note + "; give a resolver document to choose otherwise", fixedOut)
    }
}

extension PaletteLoader {
    /// Style Dictionary resolves a reference anywhere in a value, to data that is not a token
    /// too: its transitive-transforms example writes `{"h": "{hue.red}", "s": "{saturation.7}",
    /// "l": "{lightness.7}"}` over `hue.json5` (`red: 0`) and `saturation.json5` (an array). Such
    /// a color object's channels that are whole references to a number (a plain number, an array
    /// item by index, or a token whose value is a number) are replaced by that number, looked up
    /// in the merged files (the last file that has it, as a merge would give it); the object is
    /// then read as any `{h, s, l}` object, with its assumption. A reference that leads to no
    /// number is left as written, and the color is not read, as before.
    static func channelReferencesResolved(_ value: JSONValue, in documents: [JSONValue], depth: Int = 0) -> JSONValue {
        guard depth < ReadBudget.maximumDepth, case .object(let members, let location) = value else { return value }
        let channels: Set<String> = ["h", "s", "l", "v", "r", "g", "b", "a"]
        if !members.isEmpty, Set(members.map(\.key)).isSubset(of: channels),
           members.contains(where: { member in member.value.stringValue.map { $0.hasPrefix("{") } ?? false }) {
            return .object(members.map { member in
                // A lookup reads every document once at most: spent, so that many channels
                // over many files stay within the read's budget.
                guard let text = member.value.stringValue?.trimmingSpaces, text.hasPrefix("{"), text.hasSuffix("}"),
                      ReadBudget.spend(1 + documents.count, on: "the references inside color objects", file: nil, location: member.value.location),
                      let number = number(at: String(Substring(text.dropFirst().dropLast()).trimmingSpaces), in: documents) else { return member }
                var replaced = member
                replaced.value = .number(number, member.value.location)
                return replaced
            }, location)
        }
        return .object(members.map { member in
            var kept = member
            kept.value = channelReferencesResolved(member.value, in: documents, depth: depth + 1)
            return kept
        }, location)
    }

    /// Whether a document holds a color object whose channels are references (what
    /// ``channelReferencesResolved(_:in:depth:)`` looks up).
    static func hasChannelReferences(_ value: JSONValue) -> Bool {
        let channels: Set<String> = ["h", "s", "l", "v", "r", "g", "b", "a"]
        var stack = [value]
        var visited = 0
        while let next = stack.popLast(), visited < 200_000 {
            visited += 1
            guard let members = next.members else { continue }
            if !members.isEmpty, Set(members.map(\.key)).isSubset(of: channels),
               members.contains(where: { $0.value.stringValue?.hasPrefix("{") == true }) { return true }
            stack.append(contentsOf: members.map(\.value))
        }
        return false
    }

    /// The number a dotted path names in the last document that has one there.
    static func number(at path: String, in documents: [JSONValue]) -> Double? {
        let segments = path.split(separator: ".", omittingEmptySubsequences: false)
        guard !segments.isEmpty, segments.count <= 32 else { return nil }
        for document in documents.reversed() {
            var node: JSONValue? = document
            for segment in segments {
                guard let current = node else { break }
                if case .array(let items, _) = current {
                    node = Int(segment).flatMap { $0 >= 0 && $0 < items.count ? items[$0] : nil }
                } else {
                    node = current[String(segment)]
                }
            }
            if let token = node?["value"] { node = token }
            switch node {
            case .number(let n, _)? where n.isFinite: return n
            case .string(let text, _)?: if let n = Double(text.trimmingSpaces), n.isFinite { return n }
            default: continue
            }
        }
        return nil
    }
}
