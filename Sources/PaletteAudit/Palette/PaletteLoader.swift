import Foundation

/// A palette read and decoded (or not), from one file or a set of them.
public struct LoadedPalette: Sendable {
    public var file: String
    public var palette: Palette?
    /// Problems and warnings (``PaletteProblem/severity``) found while reading it.
    public var problems: [PaletteProblem]
    /// The bytes the palette was read from, when it is one file (the service serves these, and
    /// never reads the file a second time).
    public var document: [UInt8]? = nil

    public init(file: String, palette: Palette?, problems: [PaletteProblem], document: [UInt8]? = nil) {
        self.file = file
        self.palette = palette
        self.problems = problems
        self.document = document
    }
}

/// A file a directory search passed over, and why.
public struct SkippedFile: Hashable, Sendable, Codable {
    public var file: String
    public var reason: String
}

/// What a set of paths held: the palettes, and the files passed over.
public struct LoadResult: Sendable {
    public var palettes: [LoadedPalette]
    public var skipped: [SkippedFile]
    /// The entries among `skipped` that the file system refused (a FIFO, a device, a link out of
    /// the root or back into a directory already read, past a walk's bounds), as problems: the
    /// service reports these, where a README beside the palettes is merely passed over.
    public var refused: [PaletteProblem] = []

    public init(palettes: [LoadedPalette], skipped: [SkippedFile]) {
        self.palettes = palettes
        self.skipped = skipped
    }
}

/// Reads palettes from disk: the one place in PaletteAudit that touches files. Every file goes
/// through `reader`: the CLI reads anywhere (``disk``); the service reads only inside its
/// palettes directory (``confined(to:)``).
public struct PaletteLoader: Sendable {
    public let reader: DocumentReader
    /// The Xcode idiom asset catalogs are read for (`universal`, `iphone`, `ipad`, `mac`…).
    public var catalogIdiom = "universal"
    /// The checks of `--checks`, known before the sources are read (asset catalogs warn about
    /// the light-only color sets these use).
    var operatorChecks: [Check] = []

    public init(reader: DocumentReader = PaletteLoader.disk, catalogIdiom: String = "universal") {
        self.reader = reader
        self.catalogIdiom = catalogIdiom
    }

    /// The largest palette file read, in bytes.
    public static let maximumFileSize = FileSystem.unconfined.maximumFileSize

    /// Reads each path (see ``loadSources(paths:checks:)``).
    public static func load(paths: [String]) -> [LoadedPalette] {
        PaletteLoader().loadSources(paths: paths).palettes
    }

    public static func loadSources(paths: [String], checks: String? = nil) -> LoadResult {
        PaletteLoader().loadSources(paths: paths, checks: checks)
    }

    public static func loadFile(_ path: String) -> LoadedPalette {
        PaletteLoader().loadFile(path)
    }

    /// A reader that reads only regular files inside `root` (``FileSystem/confined(to:)``): a
    /// link, a `$ref` or a resolver source that leads outside is refused, so a served directory
    /// cannot expose other files through the API or its problems.
    public static func confined(to root: String) -> DocumentReader {
        DocumentReader(FileSystem.confined(to: root))
    }

    /// Reads the paths the operator names, wherever they are (``FileSystem/unconfined``).
    public static let disk = DocumentReader(FileSystem.unconfined)

    /// The file system every read of this loader goes through.
    public var fileSystem: FileSystem { reader.fileSystem ?? .unconfined }

    /// Reads each path: a file of any format this tool reads, or a directory searched
    /// recursively. In a directory:
    /// - a resolver document (`*.resolver.json`) is one palette, and the files it names are not
    ///   read again on their own;
    /// - a folder with Tokens Studio's `$themes.json` or `$metadata.json` is one palette;
    /// - a palette file (`{"themes": …}`) and a token file with a `NAME.checks.json` sidecar are
    ///   each a palette;
    /// - the other token files (`*.json`, `*.json5`, `*.tokens`, `*.tokens.json`) are merged, in
    ///   path order, into one palette named after the directory (aliases cross files; a token
    ///   two files define is reported);
    /// - anything else is skipped, with its reason.
    /// `checks`, a checks document, adds its checks to every palette read.
    public func loadSources(paths: [String], checks: String? = nil) -> LoadResult {
        if let checks, operatorChecks.isEmpty, case .success(let bytes) = PaletteLoader.read(checks) {
            var loader = self
            loader.operatorChecks = PaletteDecoder.decodeChecksDocument(bytes: bytes, file: checks).checks.checks
            if !loader.operatorChecks.isEmpty { return loader.loadSources(paths: paths, checks: checks) }
        }
        var result = LoadResult(palettes: [], skipped: [])
        for path in paths {
            let kind: FileSystem.Kind
            switch fileSystem.kind(of: path) {
            case .failure(let problem):
                result.palettes.append(LoadedPalette(file: path, palette: nil, problems: [problem]))
                continue
            case .success(let k): kind = k
            }
            if kind == .directory {
                if let format = SourceRegistry.folderFormat(of: path, fileSystem: fileSystem) {
                    result.palettes.append(format.read(folder: FileSystem.trimmed(path), files: [], loader: self))
                } else {
                    loadDirectory(path, into: &result)
                }
            } else {
                result.palettes.append(loadFile(path))
            }
        }
        PaletteLoader.giveDistinctNames(&result.palettes)
        if let checks {
            switch PaletteLoader.read(checks) {  // the operator's own file, wherever it is
            case .failure(let problem):
                for i in result.palettes.indices { result.palettes[i].problems.append(problem) }
                if result.palettes.isEmpty { result.palettes.append(LoadedPalette(file: checks, palette: nil, problems: [problem])) }
            case .success(let bytes):
                let (decoded, renames, problems, ignored) = PaletteDecoder.decodeChecksDocumentWithRenames(bytes: bytes, file: checks)
                for i in result.palettes.indices {
                    result.palettes[i].palette?.ignoredProperties.formUnion(ignored)
                    result.palettes[i].problems += problems
                    result.palettes[i].problems += result.palettes[i].palette?.renameThemes(renames, file: checks) ?? []
                    let name = result.palettes[i].palette?.name ?? ""
                    result.palettes[i].palette?.checks += decoded.checks.filter { $0.applies(toPalette: name) }
                    result.palettes[i].palette?.badges += decoded.badges
                    result.palettes[i].palette?.normalizeCheckNames()
                }
                // A check scoped to palettes none of which was read applies to nothing: say so.
                let read = Set(result.palettes.compactMap { $0.palette?.name })
                for check in decoded.checks {
                    guard let named = check.palettes, !named.contains(where: read.contains) else { continue }
                    let warning = PaletteProblem(.invalidValue, "check \"\(check.id)\" applies to \(named.map { "'\($0)'" }.joined(separator: ", ")), which no palette read is called (palettes: \(read.sorted().joined(separator: ", ")))",
                                                 file: checks, pointer: check.pointer, location: check.location, severity: .warning)
                    if !result.palettes.isEmpty { result.palettes[0].problems.append(warning) }
                }
            }
        }
        return result
    }

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
        // Folders of a format of their own (asset catalogs, res/, Tokens Studio folders), in the
        // registry's order: each takes the files it owns.
        for format in SourceRegistry.folderFormats {
            for root in format.roots(among: all, fileSystem: fileSystem) {
                let owned = all.filter { format.owns($0, root: root) }
                result.palettes.append(format.read(folder: root, files: owned, loader: self))
                all.removeAll { format.owns($0, root: root) }
            }
        }
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
        func parse(_ file: String) -> Result<JSONValue, PaletteProblem> {
            if let known = parsed[file] { return known }
            let value: Result<JSONValue, PaletteProblem> = reader.read(file).flatMap { bytes in
                do throws(JSONParser.SyntaxError) { return .success(try JSONParser.parse(bytes)) } catch {
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
        var stylesheets: [Int] = []
        for file in candidates {
            if SourceRegistry.textFormat(file: file) != nil {
                // A stylesheet is a palette of its own; its @imports are followed inside the
                // directory walked.
                stylesheets.append(result.palettes.count)
                result.palettes.append(loadFile(file, importRoot: base))
                continue
            }
            if file.hasSuffix(".checks.json") {
                let tokens = String(file.dropLast(".checks.json".count))
                if !candidates.contains(where: { $0.hasPrefix(tokens + ".") && !$0.hasSuffix(".checks.json") }) {
                    result.skipped.append(SkippedFile(file: file, reason: "a checks document with no token file beside it (give it with --checks)"))
                }
                continue
            }
            switch parse(file) {
            case .failure:
                result.palettes.append(loadFile(file))
            case .success(let document):
                guard let found = format(file, document) else {
                    result.skipped.append(SkippedFile(file: file, reason: "not a palette or token file: \(SourceRegistry.describe(document))"))
                    continue
                }
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
        }
        PaletteLoader.dropImportedStylesheets(stylesheets, from: &result)
        if merge.count == 1 {
            result.palettes.append(loadFile(merge[0]))
        } else if merge.count > 1 {
            result.palettes.append(loadMerged(files: merge, name: String(base.split(separator: "/").last ?? Substring(base)), directory: base, parse: parse))
        }
        if result.palettes.isEmpty && result.skipped.allSatisfy({ $0.file.hasPrefix(base) }) && all.isEmpty {
            result.palettes.append(LoadedPalette(file: base, palette: nil, problems: [PaletteProblem(.unreadableFile, "the directory holds no palette or token files (\(SourceRegistry.fileSuffixes.map { "*" + $0 }.joined(separator: ", ")))", file: base)]))
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

    /// Palettes that would share a name (two `Assets.xcassets`, two `tokens.json`) are told
    /// apart by the folders their files are in, `Assets (WidgetExtension)`, so that outputs,
    /// baselines, history and the service never take one for the other.
    static func giveDistinctNames(_ palettes: inout [LoadedPalette]) {
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

    /// `Assets.checks.json` beside `Assets.xcassets`.
    static func sidecar(ofCatalog catalog: String) -> String {
        let trimmed = catalog.hasSuffix("/") ? String(catalog.dropLast()) : catalog
        return String(trimmed.dropLast(".xcassets".count)) + ".checks.json"
    }

    /// Takes the checks, badges and theme names of a `NAME.checks.json` beside a source, when
    /// there is one (a palette that has checks of its own keeps them).
    func adoptSidecar(_ sidecar: String, into palette: inout Palette, problems: inout [PaletteProblem]) {
        guard fileSystem.exists(sidecar) else { return }
        switch reader.read(sidecar) {
        case .success(let data):
            let (checks, renames, more, ignored) = PaletteDecoder.decodeChecksDocumentWithRenames(bytes: data, file: sidecar)
            palette.adoptChecks(from: Palette(name: palette.name, themes: [], checks: checks.checks.filter { $0.applies(toPalette: palette.name) }, badges: checks.badges))
            palette.ignoredProperties.formUnion(ignored)
            problems += more
            problems += palette.renameThemes(renames, file: sidecar)
        case .failure(let problem):
            problems.append(problem)
        }
    }

    /// An Android `res/` directory, with the checks of `res.checks.json` beside it.
    func loadAndroid(_ path: String) -> LoadedPalette {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        var reader = AndroidResourceReader(root: trimmed, fileSystem: fileSystem)
        let parts = trimmed.split(separator: "/")
        // app/src/main/res is the "app" module's; otherwise the folder's own name.
        let name = parts.count >= 4 && parts.suffix(3).elementsEqual(["src", "main", "res"]) ? String(parts[parts.count - 4]) : String(parts.last ?? "res")
        guard var palette = reader.palette(name: name) else {
            return LoadedPalette(file: trimmed, palette: nil, problems: reader.problems + [PaletteProblem(.unknownFormat, "the resource directory holds no <color> resources and no app themes in values*/*.xml", file: trimmed)])
        }
        var problems = reader.problems
        adoptSidecar(trimmed + ".checks.json", into: &palette, problems: &problems)
        palette.normalizeCheckNames()
        return LoadedPalette(file: trimmed, palette: palette, problems: problems)
    }

    /// An Xcode asset catalog, with the checks of `NAME.checks.json` beside it.
    func loadCatalog(_ path: String, idiom: String? = nil, extraChecks: [Check] = []) -> LoadedPalette {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        var reader = AssetCatalogReader(root: trimmed, idiom: idiom ?? catalogIdiom, fileSystem: fileSystem)
        let name = String(trimmed.split(separator: "/").last ?? "Assets").replacing(".xcassets", with: "")
        guard var palette = reader.palette(name: name) else {
            return LoadedPalette(file: trimmed, palette: nil, problems: reader.problems + [PaletteProblem(.unknownFormat, "the asset catalog holds no color sets", file: trimmed)])
        }
        var problems = reader.problems
        adoptSidecar(Self.sidecar(ofCatalog: trimmed), into: &palette, problems: &problems)
        problems += reader.warnLightOnly(checks: palette.checks + extraChecks + operatorChecks)
        return LoadedPalette(file: trimmed, palette: palette, problems: problems)
    }

    static func sidecar(of file: String) -> String {
        for suffix in [".resolver.json", ".tokens.json5", ".tokens.json", ".tokens", ".json5", ".json", ".css"] where file.hasSuffix(suffix) {
            return String(file.dropLast(suffix.count)) + ".checks.json"
        }
        return file + ".checks.json"
    }

    /// Token files merged into one palette (one theme), in path order.
    func loadMerged(files: [String], name: String, directory: String, parse: (String) -> Result<JSONValue, PaletteProblem>) -> LoadedPalette {
        var decoder = PaletteDecoder()
        var lists: [[Token]] = []
        var cache: [String: JSONValue?] = [:]
        var formats: Set<String> = []
        for file in files {
            guard case .success(let document) = parse(file) else { continue }
            cache[file] = document
        }
        for file in files {
            switch parse(file) {
            case .failure(let problem):
                decoder.problems.append(problem)
            case .success(let document):
                let format = SourceRegistry.detect(SourceDocument(file: file, bytes: [], json: document))
                formats.insert(format?.displayName ?? "unknown")
                decoder.file = file
                let resolved = decoder.resolveReferences(document, file: file, pointer: JSONPointer(), reader: reader, cache: &cache, setFiles: files)
                let syntax = (format as? TokenFileFormat)?.syntax ?? .styleDictionary
                lists.append(decoder.flatten(TokenSource(file: file, root: resolved, pointer: JSONPointer()), dialect: syntax))
            }
        }
        decoder.file = nil
        decoder.dialect = .dtcg
        let tokens = decoder.finishTokens(decoder.mergedTokens(lists, warnCollisions: true))
        var palette = Palette(name: name, file: directory, themes: [Theme(name: "default", tokens: tokens)])
        palette.format = "\(formats.sorted().joined(separator: " + ")), \(files.count) files merged in path order"
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
                do { value = try JSONParser.parse(bytes) } catch {
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
        var palette = decoder.tokensStudioPalette(sets: sets, themes: themes, themesFile: themesFile, metadata: metadata, name: name, reader: reader)
        palette?.ledger.merge(decoder.ledger)
        return LoadedPalette(file: root, palette: palette, problems: decoder.problems)
    }

    /// Reads and decodes one file of any format; a `NAME.tokens.json` picks up checks from
    /// `NAME.checks.json` beside it.
    public func loadFile(_ path: String) -> LoadedPalette {
        loadFile(path, importRoot: nil)
    }

    /// Reads and decodes one file; a stylesheet's `@import`s are followed inside `importRoot`
    /// (nil: the file's own directory).
    func loadFile(_ path: String, importRoot: String?) -> LoadedPalette {
        let bytes: [UInt8]
        switch reader.read(path) {
        case .success(let b): bytes = b
        case .failure(let problem): return LoadedPalette(file: path, palette: nil, problems: [problem])
        }
        var (palette, problems) = PaletteDecoder.decode(bytes: bytes, file: path, reader: reader, importRoot: importRoot)
        if var tokens = palette, tokens.checks.isEmpty, !path.hasSuffix(".checks.json") {
            adoptSidecar(Self.sidecar(of: path), into: &tokens, problems: &problems)
            palette = tokens
        }
        palette?.normalizeCheckNames()
        return LoadedPalette(file: path, palette: palette, problems: problems, document: bytes)
    }

    /// Reads a file the operator named (a checks document), wherever it is, through
    /// ``FileSystem/unconfined``.
    static func read(_ path: String) -> Result<[UInt8], PaletteProblem> {
        FileSystem.unconfined.read(path)
    }
}

extension PaletteDecoder {
    /// A checks document (`{"checks": [...], "badges": [...], "themeNames": {...}}`) for a
    /// standalone token file or stylesheet.
    public static func decodeChecksDocument(bytes: [UInt8], file: String?) -> (checks: (checks: [Check], badges: [Badge]), problems: [PaletteProblem]) {
        let (checks, _, problems, _) = decodeChecksDocumentWithRenames(bytes: bytes, file: file)
        return (checks, problems)
    }

    static func decodeChecksDocumentWithRenames(bytes: [UInt8], file: String?)
        -> (checks: (checks: [Check], badges: [Badge]), renames: [(from: String, to: String, pointer: JSONPointer, location: SourceLocation?)], problems: [PaletteProblem], ignored: [String]) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            return (([], []), [], [PaletteProblem(.invalidJSON, error.message, file: file, location: error.location)], [])
        }
        var decoder = PaletteDecoder()
        decoder.setFile(file)
        let result = decoder.checksAndBadges(document)
        return (result, decoder.themeRenames, decoder.problemsSoFar, decoder.ignoredProperties)
    }
}
