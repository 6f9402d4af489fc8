import Foundation

/// A directory walk: which files make which palettes (folder formats first, then resolvers and
/// their sets, stylesheets, palettes, and the token files merged), and the names they get.
extension PaletteLoader {
    /// Every file below `directory` (sorted, hidden entries and node_modules left out), and the
    /// entries the walk refused.
    func files(below directory: String) -> (files: [String], refused: [SkippedFile]) {
        var fileSystem = self.fileSystem
        fileSystem.maximumEntries = min(fileSystem.maximumEntries, PaletteDecoder.maximumFilesPerSet * 4)
        return fileSystem.walk(directory) { $0 == "node_modules" }
    }

    func loadDirectory(_ directory: String, into result: inout LoadResult) {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let (walked, refused) = files(below: base)
        var all = walked
        // What the walk refused inside a catalog is reported by the catalog's reader.
        for entry in refused where !entry.file.contains(".xcassets/") {
            result.skipped.append(entry)
            result.refused.append(PaletteProblem(.unreadableFile, entry.reason, file: entry.file))
        }
        loadFolders(&all, into: &result)
        var candidates = all.filter { file in SourceRegistry.fileSuffixes.contains { file.hasSuffix($0) } }
        for file in all where !candidates.contains(file) {
            result.skipped.append(SkippedFile(file: file, reason: "not a JSON, JSON5, .tokens or CSS file"))
        }
        if candidates.count > PaletteDecoder.maximumFilesPerSet {
            result.palettes.append(LoadedPalette(file: base, palette: nil, problems: [PaletteProblem(.limitExceeded, "the directory holds \(candidates.count) token files; the limit is \(PaletteDecoder.maximumFilesPerSet)", file: base)]))
            return
        }
        var consumed: Set<String> = []
        // Resolvers, and the files they name.
        var parsed: [String: Result<JSONValue, PaletteProblem>] = [:]
        // Each file's repeated keys: a file read on its own says them itself; the files merged
        // into one palette are read only here, so the merged palette says them.
        var repeatedKeys: [String: [PaletteProblem]] = [:]
        func parse(_ file: String) -> Result<JSONValue, PaletteProblem> {
            if let known = parsed[file] { return known }
            let value: Result<JSONValue, PaletteProblem> = reader.read(file).flatMap { bytes in
                var warnings: [PaletteProblem] = []
                defer { if !warnings.isEmpty { repeatedKeys[file] = warnings } }
                do throws(JSONParser.SyntaxError) { return .success(try JSONParser.parseTokens(bytes, file: file, warnings: &warnings)) } catch {
                    return .failure(PaletteProblem(.invalidJSON, error.message, file: file, location: error.location))
                }
            }
            parsed[file] = value
            return value
        }
        func format(_ file: String, _ document: JSONValue) -> (any SourceFormat)? {
            SourceRegistry.detect(SourceDocument(file: file, bytes: [], json: document))
        }
        for file in candidates where !consumed.contains(file) {
            guard case .success(let document) = parse(file), format(file, document)?.role == .set else { continue }
            let loaded = loadFile(file)
            consumed.insert(file)
            for named in loaded.palette?.files ?? [] { consumed.insert(named) }
            result.palettes.append(loaded)
        }
        candidates = candidates.filter { !consumed.contains($0) }
        // Palettes, sidecar token files, and the token files to merge.
        var merge: [String] = []
        var data: [String] = []  // JSON that holds no token: what references inside values may name
        var stylesheets: [Int] = []
        var noProperties: Set<String> = []
        for file in candidates {
            if SourceRegistry.textFormat(file: file) != nil {
                // A stylesheet is a palette of its own; its @imports are followed inside the
                // directory walked.
                let loaded = loadFile(file, importRoot: base)
                if loaded.palette == nil, loaded.problems.count == 1, loaded.problems[0].code == .unknownFormat { noProperties.insert(file) }
                stylesheets.append(result.palettes.count)
                result.palettes.append(loaded)
                continue
            }
            if file.hasSuffix(".checks.json") {
                if let skipped = Self.lonelyChecksDocument(file, among: candidates) { result.skipped.append(skipped) }
                continue
            }
            switch parse(file) {
            case .failure:
                result.palettes.append(loadFile(file))
            case .success(let document):
                guard let found = format(file, document) else {
                    result.skipped.append(SkippedFile(file: file, reason: "not a palette or token file: \(SourceRegistry.describe(document))"))
                    data.append(file)
                    continue
                }
                place(file, as: found, merge: &merge, into: &result)
            }
        }
        PaletteLoader.dropImportedStylesheets(stylesheets, from: &result)
        PaletteLoader.mergingThemeFiles(in: &result)
        PaletteLoader.noteDefinitionsAcrossStylesheets(in: &result)
        PaletteLoader.skipStylesheetsWithoutProperties(noProperties, in: &result)
        // One token file is read as a file, unless its color channels name data beside it.
        let channelData = merge.count == 1 && !data.isEmpty && {
            if case .success(let document) = parse(merge[0]) { return PaletteLoader.hasChannelReferences(document) }
            return false
        }()
        if merge.count == 1 && !channelData {
            result.palettes.append(loadFile(merge[0]))
        } else if !merge.isEmpty {
            var merged = loadMerged(files: merge, name: String(base.split(separator: "/").last ?? Substring(base)), directory: base, parse: parse, data: data)
            merged.problems = merge.flatMap { repeatedKeys[$0] ?? [] } + merged.problems
            result.palettes.append(merged)
        }
        if result.palettes.isEmpty { Self.noteNothingFound(in: base, into: &result) }
    }

    /// Folders of a format of their own (asset catalogs, res/, Tokens Studio folders), in the
    /// registry's order: each takes the files it owns out of `all`.
    func loadFolders(_ all: inout [String], into result: inout LoadResult) {
        for format in SourceRegistry.folderFormats {
            for root in format.roots(among: all, fileSystem: fileSystem) {
                let owned = all.filter { format.owns($0, root: root) }
                let loaded = format.read(folder: root, files: owned, loader: self)
                // A folder found by the walk that holds nothing of its format (an asset catalog
                // of icons, a res/ of drawables) is skipped with that reason, as a file that is
                // not a token file is; named on its own, it is still an error.
                if loaded.palette == nil, loaded.problems.count == 1, let only = loaded.problems.first,
                   only.code == .unknownFormat, only.file == root {
                    result.skipped.append(SkippedFile(file: root, reason: only.message))
                } else {
                    result.palettes.append(loaded)
                }
                all.removeAll { format.owns($0, root: root) }
            }
        }
    }

    /// A checks document of the walk with no token file beside it, skipped with the reason (one
    /// beside its tokens is read with them).
    static func lonelyChecksDocument(_ file: String, among candidates: [String]) -> SkippedFile? {
        let tokens = String(file.dropLast(".checks.json".count))
        if !candidates.contains(where: { $0.hasPrefix(tokens + ".") && !$0.hasSuffix(".checks.json") }) {
            return SkippedFile(file: file, reason: "a checks document with no token file beside it (give it with --checks)")
        }
        return nil
    }

    /// Where a JSON token file of the walk goes by its format's role: a palette of its own, a
    /// token file to merge (into `merge`), or skipped with the reason.
    func place(_ file: String, as found: any SourceFormat, merge: inout [String], into result: inout LoadResult) {
        switch found.role {
        case .palette:
            result.palettes.append(loadFile(file))
        case .tokens:
            if fileSystem.exists(Self.sidecar(of: file)) {
                result.palettes.append(loadFile(file))
            } else {
                merge.append(file)
            }
        case .companion(let reason):
            result.skipped.append(SkippedFile(file: file, reason: reason))
        case .set:
            result.skipped.append(SkippedFile(file: file, reason: "\(found.displayName) outside a token folder"))
        }
    }

    /// A walk that found nothing to audit: an error, not a pass (a CI job pointed at the wrong
    /// folder must fail), saying how many files were skipped.
    static func noteNothingFound(in base: String, into result: inout LoadResult) {
        let skipped = result.skipped.filter { $0.file.hasPrefix(base) }.count
        let found = skipped == 0 ? "" : "; \(skipped) file\(skipped == 1 ? " was" : "s were") skipped, each listed with its reason"
        result.palettes.append(LoadedPalette(file: base, palette: nil, problems: [PaletteProblem(.unreadableFile, "the directory holds no palette or token files (\(SourceRegistry.fileSuffixes.map { "*" + $0 }.joined(separator: ", ")))\(found)", file: base)]))
    }

    /// A stylesheet no other imports and that declares no custom property at all (typography
    /// classes, a reset) holds no token: listed as skipped, as other files that are not.
    static func skipStylesheetsWithoutProperties(_ noProperties: Set<String>, in result: inout LoadResult) {
        for file in noProperties where result.palettes.contains(where: { $0.file == file }) {
            result.palettes.removeAll { $0.file == file }
            result.skipped.append(SkippedFile(file: file, reason: "a stylesheet that declares no custom properties"))
        }
    }

    /// A stylesheet named on its own that declares no custom property, beside sources that give
    /// a palette (`contrast init tokens.css components.css`: the components' rules draw the
    /// tokens' pairs, and are read for them by the usage scan), holds no token: skipped with
    /// the reason, as in a folder, not an error. Named alone, nothing else read, it stays an
    /// error: there is nothing to audit.
    static func skipNamedStylesheetsWithoutProperties(in result: inout LoadResult) {
        guard result.palettes.contains(where: { $0.palette != nil }) else { return }
        let none = result.palettes.filter {
            $0.palette == nil && $0.problems.count == 1 && $0.problems[0].code == .unknownFormat && SourceRegistry.textFormat(file: $0.file) != nil
        }
        for loaded in none {
            result.palettes.removeAll { $0.file == loaded.file }
            result.skipped.append(SkippedFile(file: loaded.file, reason: "a stylesheet that declares no custom properties: no tokens read from it (`contrast init` reads its rules for the pairs they draw)"))
        }
    }

    /// A stylesheet another stylesheet of the walk imports is part of that one's palette, as a
    /// resolver's sets are part of the resolver's: it is passed over on its own, with the reason.
    /// `indices` are the stylesheets' palettes in `result`, in path order. A stylesheet no other
    /// imports keeps its palette; of stylesheets that only import each other (a cycle), the
    /// first in path order does.
    static func dropImportedStylesheets(_ indices: [Int], from result: inout LoadResult) {
        var imports: [String: [String]] = [:]
        var imported: Set<String> = []
        for i in indices {
            let file = result.palettes[i].file
            let named = (result.palettes[i].palette?.files ?? []).filter { $0 != file }
            imports[file] = named
            imported.formUnion(named)
        }
        var importer: [String: String] = [:]
        func keep(_ file: String) {
            for named in imports[file] ?? [] where importer[named] == nil { importer[named] = file }
        }
        let files = indices.map { result.palettes[$0].file }
        for file in files where !imported.contains(file) { keep(file) }
        for file in files where importer[file] == nil && imported.contains(file) { keep(file) }
        var dropped: [Int] = []
        for i in indices {
            let file = result.palettes[i].file
            guard let by = importer[file], by != file else { continue }
            dropped.append(i)
            result.skipped.append(SkippedFile(file: file, reason: "imported by \(by), whose palette it is part of"))
        }
        for i in dropped.reversed() { result.palettes.remove(at: i) }
    }

    /// Stylesheets of one folder that each make one theme and declare the same custom properties
    /// (Primer's `themes/light.css`, `dark.css`, … `dark-dimmed.css`; Radix's `gray.css` and
    /// `gray-dark.css`) are one palette with a theme per file, so that their themes line up side
    /// by side in every output. Two files declare the same properties when at least four in five
    /// of the smaller one's are the other's. A stylesheet with checks of its own (a sidecar), or
    /// with an error, stays a palette of its own. Each file is compared with the first file of at
    /// most 64 groups, so a folder of many unrelated stylesheets costs a bounded number of
    /// comparisons a file.
    static func mergingThemeFiles(in result: inout LoadResult) {
        var byFolder: [String: [Int]] = [:]
        var folders: [String] = []
        for i in result.palettes.indices {
            let loaded = result.palettes[i]
            guard SourceRegistry.textFormat(file: loaded.file) != nil, let palette = loaded.palette, palette.themes.count == 1,
                  palette.checks.isEmpty, palette.badges.isEmpty, !loaded.problems.contains(where: { !$0.isWarning }) else { continue }
            let folder = SourcePath.folder(of: loaded.file)
            if byFolder[folder] == nil { folders.append(folder) }
            byFolder[folder, default: []].append(i)
        }
        var removed: Set<Int> = []
        var replacements: [Int: LoadedPalette] = [:]
        for folder in folders {
            guard let indices = byFolder[folder], indices.count > 1 else { continue }
            let names = indices.map { Set(result.palettes[$0].palette?.themes.first?.tokens.map(\.name) ?? []) }
            var groups: [[Int]] = []  // positions in `indices`
            for k in indices.indices where !names[k].isEmpty {
                let joined = groups.prefix(64).firstIndex { group in
                    let first = names[group[0]]
                    let shared = first.intersection(names[k]).count
                    // Of both: a file of a few overrides (`brand.css` setting one of the five
                    // properties of `tokens.css`) is loaded over the other, not a theme of its own.
                    return shared * 5 >= max(first.count, names[k].count) * 4
                }
                if let joined { groups[joined].append(k) } else { groups.append([k]) }
            }
            for group in groups where group.count > 1 {
                var themes: [Theme] = []
                var ledger = ReadLedger()
                var files: [String] = []
                var problems: [PaletteProblem] = []
                // Files whose selectors name their themes alike (two `:root`s, both `light`) are
                // each named after their file, all of them: `light.css` and `dark.css`.
                let selectorNames = group.compactMap { result.palettes[indices[$0]].palette?.themes.first?.name }
                let byFile = Set(selectorNames).count < selectorNames.count
                for k in group {
                    let loaded = result.palettes[indices[k]]
                    guard let palette = loaded.palette, var theme = palette.themes.first else { continue }
                    if byFile {
                        var renamed = PaletteDecoder.baseName(loaded.file)
                        while themes.contains(where: { $0.name == renamed }) { renamed += "-\(themes.count)" }
                        theme.name = renamed
                        theme.pointer = JSONPointer([renamed])
                    }
                    theme.tokens = theme.tokens.map { token in
                        var token = token
                        if token.file == nil { token.file = loaded.file }
                        return token
                    }
                    themes.append(theme)
                    ledger.merge(palette.ledger)
                    files += palette.files.isEmpty ? [loaded.file] : palette.files
                    problems += loaded.problems
                    removed.insert(indices[k])
                }
                let folderName = String(folder.split(separator: "/").last ?? Substring(folder))
                var palette = Palette(name: folderName.isEmpty ? "stylesheets" : folderName, file: folder, themes: themes)
                palette.files = files
                palette.format = "CSS custom properties, \(group.count) stylesheets of one folder that declare the same properties, a theme each"
                palette.ledger = ledger
                replacements[indices[group[0]]] = LoadedPalette(file: folder, palette: palette, problems: problems)
            }
        }
        guard !removed.isEmpty else { return }
        var kept: [LoadedPalette] = []
        for i in result.palettes.indices {
            if let merged = replacements[i] { kept.append(merged) } else if !removed.contains(i) { kept.append(result.palettes[i]) }
        }
        result.palettes = kept
    }

    /// A stylesheet's declaration not read because it names a property that none of its own
    /// files defines says which other stylesheet of the walk defines it (Open Props' theme files
    /// use the `--gray-*` of `props.gray.css`, which a page loads beside them): the reader reads
    /// each stylesheet as a browser reads it alone, and the user learns how to read them together.
    static func noteDefinitionsAcrossStylesheets(in result: inout LoadResult) {
        let stylesheets = result.palettes.indices.filter { SourceRegistry.textFormat(file: result.palettes[$0].file) != nil && result.palettes[$0].palette != nil }
        guard stylesheets.count > 1 else { return }
        var definer: [String: String] = [:]
        for i in stylesheets {
            guard let palette = result.palettes[i].palette else { continue }
            let file = result.palettes[i].file
            for name in palette.ledger.names where definer[name] == nil { definer[name] = file }
            for theme in palette.themes {
                for token in theme.tokens where definer[token.name] == nil { definer[token.name] = token.file ?? file }
            }
        }
        for i in stylesheets {
            let own = Set(result.palettes[i].palette?.files ?? []).union([result.palettes[i].file])
            result.palettes[i].palette?.ledger.noteDefinitions { name in definer[name].flatMap { own.contains($0) ? nil : $0 } }
        }
    }

    /// Palettes that would share a name (two `Assets.xcassets`, two `tokens.json`) are told
    /// apart by the folders their files are in, `Assets (WidgetExtension)`, so that outputs,
    /// baselines, history and the service never take one for the other.
    package static func giveDistinctNames(_ palettes: inout [LoadedPalette]) {
        var byName: [String: [Int]] = [:]
        for (i, loaded) in palettes.enumerated() {
            if let name = loaded.palette?.name { byName[name, default: []].append(i) }
        }
        for (name, indices) in byName where indices.count > 1 {
            let folders = indices.map { i in palettes[i].file.split(separator: "/").dropLast().map(String.init) }
            // The fewest trailing folders that tell every file apart.
            var depth = 1
            while depth < 64 {
                let labels = folders.map { $0.suffix(depth).joined(separator: "/") }
                if Set(labels).count == labels.count { break }
                depth += 1
            }
            for (k, i) in indices.enumerated() {
                let label = folders[k].suffix(depth).joined(separator: "/")
                let file = palettes[i].file
                palettes[i].palette?.name = "\(name) (\(label.isEmpty ? file : label))"
            }
        }
    }

}
