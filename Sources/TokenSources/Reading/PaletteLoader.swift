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
    public private(set) var reader: DocumentReader
    /// The Xcode idiom asset catalogs are read for (`universal`, `iphone`, `ipad`, `mac`…).
    public var catalogIdiom = "universal"
    /// The directory the files a token file names (`$ref`s, resolver sources, Tokens Studio
    /// sets, `@import`s) may be read from (`--root`); nil: the directory named, or the named
    /// file's own folder.
    public var referenceRoot: String?
    /// The checks of `--checks`, known before the sources are read (asset catalogs warn about
    /// the light-only color sets these use).
    var operatorChecks: [Check] = []
    /// The reader before ``walking(_:)`` confined this one to a directory named: the checks
    /// sidecar beside that directory (`Assets.checks.json` beside `Assets.xcassets`,
    /// `res.checks.json` beside `res/`) is the operator's, read with it.
    var besideReader: DocumentReader?

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
                let walker = walking(path)
                if let format = SourceRegistry.folderFormat(of: path, fileSystem: walker.fileSystem) {
                    result.palettes.append(format.read(folder: FileSystem.trimmed(path), files: [], loader: walker))
                } else {
                    walker.loadDirectory(path, into: &result)
                }
            } else {
                result.palettes.append(loadFile(path))
            }
        }
        PaletteLoader.skipNamedStylesheetsWithoutProperties(in: &result)
        PaletteLoader.giveDistinctNames(&result.palettes)
        if let checks {
            // The checks document given with --checks is in use, not passed over, even where
            // the walk met it (`contrast init` writes contrast.checks.json into the folder).
            func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
            let given = absolute(checks)
            result.skipped.removeAll { absolute($0.file) == given }
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
                    result.palettes[i].problems += result.palettes[i].palette?.addChecks(decoded.checks.filter { $0.applies(toPalette: name) }, from: checks) ?? []
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

    /// The loader a directory named on the command line is read with: inside that directory
    /// (or `--root`, when it holds the directory), so a symbolic link in it that leads out, which
    /// a pull request can commit, is listed as not read instead of read and quoted. A loader
    /// already confined (the service's) reads as it is.
    func walking(_ directory: String) -> PaletteLoader {
        guard let files = reader.fileSystem, files.root == nil else { return self }
        let base = FileSystem.trimmed(directory)
        var root = base
        if let referenceRoot, let wide = FileSystem.resolve(referenceRoot), let named = FileSystem.resolve(base), FileSystem.isInside(named, wide) {
            root = referenceRoot
        }
        let confined = files.narrowed(to: root, rootName: root == referenceRoot ? "\(root), the --root directory" : "\(root), the directory audited",
                                      advice: root == referenceRoot ? "" : "; audit a directory that holds both, or give --root, to follow it")
        var copy = self
        copy.besideReader = reader
        copy.reader = DocumentReader(confined)
        return copy
    }

    /// `Assets.checks.json` beside `Assets.xcassets`.
    static func sidecar(ofCatalog catalog: String) -> String {
        let trimmed = catalog.hasSuffix("/") ? String(catalog.dropLast()) : catalog
        return String(trimmed.dropLast(".xcassets".count)) + ".checks.json"
    }

    /// Takes the checks, badges and theme names of a `NAME.checks.json` beside a source, when
    /// there is one (a palette that has checks of its own keeps them).
    func adoptSidecar(_ sidecar: String, into palette: inout Palette, problems: inout [PaletteProblem]) {
        // A sidecar beside the directory named (outside the walk) is the operator's; one inside
        // it is read as the walk reads.
        var reader = self.reader
        if let besideReader, let root = reader.fileSystem?.root, let folder = FileSystem.resolve(SourcePath.folder(of: sidecar)), !FileSystem.isInside(folder, root) {
            reader = besideReader
        }
        guard (reader.fileSystem ?? .unconfined).exists(sidecar) else { return }
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
        SourceRegistry.stem(of: file) + ".checks.json"
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
        var (palette, problems) = PaletteDecoder.decode(bytes: bytes, file: path, reader: reader, importRoot: referenceRoot ?? importRoot)
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
        var warnings: [PaletteProblem] = []
        do {
            document = try JSONParser.parseTokens(bytes, file: file, warnings: &warnings)
        } catch {
            return (([], []), [], [PaletteProblem(.invalidJSON, error.message, file: file, location: error.location)], [])
        }
        var decoder = PaletteDecoder()
        decoder.setFile(file)
        let result = decoder.checksAndBadges(document)
        return (result, decoder.themeRenames, warnings + decoder.problemsSoFar, decoder.ignoredProperties)
    }
}
