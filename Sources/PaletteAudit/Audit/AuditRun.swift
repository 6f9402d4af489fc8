import ColorScience
public import TokenSources

/// An audit over paths, as `contrast audit` and `contrast report` run it: every palette the
/// paths hold (see ``PaletteLoader/loadSources(paths:checks:)``), audited, with the files passed
/// over.
public enum AuditRun {
    /// `threads` compute failing checks' suggestions in parallel (the report is the same).
    /// `ignoredProperties` are token properties declared harmless (`--ignore-property`);
    /// `cvdPolicy` is `--cvd`.
    /// The checks one run of the CLI measures at most (`--max-pairs`): about a minute of work
    /// at the rate `make bench` records (20,000 checks with suggestions in about a second).
    public static let defaultMaximumChecks = 1_000_000

    /// `checks` applies to every palette; without it, each path is audited with the checks
    /// document found beside it (``PaletteLoader/checksFile(beside:)``) unless `findChecks` is
    /// false. The report names the documents used (``AuditReport/checksFiles``).
    public static func audit(paths: [String], themes: [String]? = nil, checks: String? = nil, findChecks: Bool = true, threads: Int = 1,
                             idiom: String = "universal", ignoredProperties: [String] = [], cvdPolicy: CVDPolicy = .warn,
                             maximumChecks: Int? = defaultMaximumChecks, referenceRoot: String? = nil) -> AuditReport {
        var limits = Auditor.Limits.unlimited
        limits.maximumChecks = maximumChecks
        limits.suggestionThreads = threads
        // The run's --deadline stops the audit at its next check, as it stops every read.
        if let deadline = ReadBudget.deadline { limits.shouldStop = { deadline.hasPassed } }
        let auditor = Auditor(themeFilter: themes, limits: limits, cvdPolicy: cvdPolicy)
        var loader = PaletteLoader(catalogIdiom: idiom)
        loader.referenceRoot = referenceRoot
        let (loaded, checksFiles) = load(paths: paths, checks: checks, findChecks: findChecks, with: loader)
        let reports = loaded.palettes.map { loaded in
            if var palette = loaded.palette {
                palette.ignoredProperties.formUnion(ignoredProperties)
                return auditor.audit(palette, problems: loaded.problems)
            }
            return Auditor.unreadable(name: loaded.file, file: loaded.file, problems: loaded.problems)
        }
        var report = AuditReport(palettes: reports, skipped: loaded.skipped)
        report.checksFiles = checksFiles.isEmpty ? nil : checksFiles
        return report
    }

    /// The paths read, each with its checks: `checks` for all of them, or the document found
    /// beside each (paths that find the same document, or none, are read together, in order).
    static func load(paths: [String], checks: String?, findChecks: Bool, with loader: PaletteLoader) -> (LoadResult, [ChecksFile]) {
        if let checks { return (loader.loadSources(paths: paths, checks: checks), [ChecksFile(file: checks, origin: ChecksFile.given)]) }
        guard findChecks else { return (loader.loadSources(paths: paths), []) }
        var groups: [(checks: String?, paths: [String])] = []
        for path in paths {
            let found = loader.checksFile(beside: path)
            if let index = groups.firstIndex(where: { $0.checks == found }) {
                groups[index].paths.append(path)
            } else {
                groups.append((found, [path]))
            }
        }
        if groups.count == 1, groups[0].checks == nil { return (loader.loadSources(paths: paths), []) }
        var result = LoadResult(palettes: [], skipped: [])
        var files: [ChecksFile] = []
        for group in groups {
            let read = loader.loadSources(paths: group.paths, checks: group.checks)
            result.palettes += read.palettes
            result.skipped += read.skipped
            result.refused += read.refused
            if let found = group.checks { files.append(ChecksFile(file: found, origin: ChecksFile.found, paths: group.paths)) }
        }
        // Each group's checks were matched to its palettes' names; across groups, names that
        // meet are told apart as one read of all the paths would.
        if groups.count > 1 { PaletteLoader.giveDistinctNames(&result.palettes) }
        return (result, files)
    }

    /// The requested themes that no palette of the report has.
    public static func unknownThemes(_ requested: [String], in report: AuditReport) -> [String] {
        requested.filter { name in !report.palettes.contains { $0.themes.contains { $0.name == name } } }
    }
}

extension ContrastMatrix {
    /// The matrix of one theme of a palette (its first theme when `theme` is nil): every token
    /// resolved, over the theme's backdrop. A gradient token is not one color, so it is left
    /// out (listed in ``skipped``), as a translucent token without a backdrop is. Throws the
    /// problems that keep tokens from resolving.
    public init(palette: Palette, theme name: String?) throws(MatrixError) {
        guard let theme = name.map({ palette.theme(named: $0) }) ?? palette.themes.first else {
            throw MatrixError(code: .unknownTheme, message: palette.unknownThemes([name ?? ""]) ?? "the palette has no theme", problems: [])
        }
        var resolver = ThemeResolver(palette: palette, theme: theme)
        var entries: [Entry] = []
        var gradients: [String] = []
        var problems: [PaletteProblem] = []
        for token in resolver.tokenNames {
            switch resolver.resolveBackground(token) {
            case .success(let color) where color.gradient != nil: gradients.append(token)
            case .success(let color): entries.append(Entry(name: token, color: color.color))
            case .failure(let problem): problems.append(problem)
            }
        }
        guard problems.isEmpty else { throw MatrixError(code: .unresolvedTokens, message: "\(problems.count) token(s) do not resolve", problems: problems) }
        var backdrop: SRGB?
        if let reference = theme.backdrop, case .success(let color) = resolver.resolve(reference) { backdrop = color.color }
        self.init(entries: entries, backdrop: backdrop)
        self.theme = theme.name
        if !gradients.isEmpty {
            // In the tokens' order, with the translucent ones.
            let order = Dictionary(resolver.tokenNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            let reason = "a gradient, not one color (an audit check judges text on it at its worst point)"
            skipped = (skipped + gradients.map { ($0, reason) }).sorted { (order[$0.token] ?? 0) < (order[$1.token] ?? 0) }
        }
    }

    public struct MatrixError: Error, Sendable {
        /// What is wrong, for programs: stable across releases.
        public var code: Code
        public var message: String
        public var problems: [PaletteProblem]

        /// The kind of error, an extensible set written as a string.
        public struct Code: ErrorCode {
            public let rawValue: String
            public init(_ rawValue: String) { self.rawValue = rawValue }

            /// The theme asked for is not in the palette (or the palette has none).
            public static let unknownTheme = Code("unknown-theme")
            /// Tokens of the theme do not resolve; `problems` says which and why.
            public static let unresolvedTokens = Code("unresolved-tokens")
        }
    }
}
