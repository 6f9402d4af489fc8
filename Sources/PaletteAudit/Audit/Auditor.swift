import ColorScience
public import TokenSources

/// Audits palettes: every theme × check (and badge), resolved, measured and judged.
public struct Auditor: Sendable {
    /// Only these themes (nil for all).
    public var themeFilter: [String]?
    /// Bounds on the work one audit may do.
    public var limits: Limits

    /// What one audit may cost. The CLI audits what its user points it at (no limits); the
    /// service bounds every request so one cannot starve the others.
    public struct Limits: Sendable {
        /// Checks in all (themes × checks × expanded rule pairs); more is refused before any work.
        public var maximumChecks: Int?
        /// Failing checks that get suggestions (the first ones); the others say they were omitted.
        public var maximumSuggestions: Int?
        /// Asked before each check: true stops the audit (its deadline passed, or the server is
        /// shutting down). A stopped audit reports a `limitExceeded` problem and no themes.
        public var shouldStop: (@Sendable () -> Bool)?
        /// The largest rendering of the audit the caller will send, and the fewest bytes its
        /// rendering spends per check (``Rendering/bytesPerCheck``): an audit whose rendering is
        /// bound to be larger is refused before any work.
        public var maximumOutputBytes: Int?
        public var rendering = Rendering.json
        /// Threads that compute the suggestions of failing checks (the costly part of a large
        /// audit). 1, the default, computes them in order on the calling thread, as the service's
        /// workers do; the CLI uses every core.
        public var suggestionThreads = 1
        /// The tokens every theme resolves, added up (a theme that extends another resolves the
        /// tokens it inherits again): a thousand themes extending a base of 4,000 tokens are 4
        /// million, from a 97 KB file, and 999 Figma modes of 1,000 variables a million, from
        /// 167 KB. Real systems stay far below (Designsystemet's 36 themes, about 40,000); more is
        /// refused before any theme is audited, whatever the caller.
        public var maximumThemeTokens = Palette.defaultMaximumThemeTokens

        /// How an audit will be rendered, for the size bound above.
        public enum Rendering: Sendable {
            case json, html, markdown

            /// A lower bound of the bytes each check adds to the rendering (measured, with
            /// margin, on checks with one-letter names: `AuditLimitTests`). Markdown lists
            /// passing checks in its counts only, so it has no bound per check.
            public var bytesPerCheck: Int {
                switch self {
                case .json: 300
                case .html: 600
                case .markdown: 0
                }
            }
        }

        public init(maximumChecks: Int? = nil, maximumSuggestions: Int? = nil, shouldStop: (@Sendable () -> Bool)? = nil) {
            self.maximumChecks = maximumChecks
            self.maximumSuggestions = maximumSuggestions
            self.shouldStop = shouldStop
        }

        public static let unlimited = Limits()
    }

    /// What contrast lost under a simulated color-vision deficiency does to a check that does
    /// not say (`"cvd"`): a warning by default; `.fail` (`--cvd fail`, `?cvd=fail`) fails it.
    public var cvdPolicy: CVDPolicy = .warn

    public init(themeFilter: [String]? = nil, limits: Limits = .unlimited, cvdPolicy: CVDPolicy = .warn) {
        self.themeFilter = themeFilter
        self.limits = limits
        self.cvdPolicy = cvdPolicy
    }

    /// A problem's place: the declaration it is about, in one theme.
    struct CopyKey: Hashable {
        var code: PaletteProblem.Code
        var file: String?
        var location: SourceLocation
        var theme: String?
    }

    /// Audits a decoded palette. `problems` are those found while decoding it; resolution
    /// problems found here are added to them.
    public func audit(_ palette: Palette, problems decodeProblems: [PaletteProblem] = []) -> PaletteReport {
        var problems = decodeProblems.filter { !$0.isWarning }
        let warnings = decodeProblems.filter(\.isWarning)
        var themes: [ThemeReport] = []
        var summary = AuditSummary()
        let selected = palette.themes.filter { themeFilter?.contains($0.name) ?? true }
        var ruleMatches: [String: Int] = [:]
        // Every theme's checks first (rules expanded), so a request over the limit is refused
        // before a single pair is measured.
        // A resolver holds its theme's tokens with inheritance applied: kept for the first
        // themes, built again for the rest when their turn comes, so that a thousand themes
        // extending one large base never hold a thousand copies of it at once (7.8 GB).
        var plan: [(theme: Theme, resolver: ThemeResolver?, items: [Item])] = []
        var total = 0, themeTokens = 0, unlisted = 0
        // The request's budget, when the audit runs under one (the service's): the checks
        // planned and the results measured are charged to it as they are built, and an audit
        // that would build past it stops with its problem.
        let budget = ReadBudget.current
        let allowance = ThemeResolver.Allowance()
        let badgeGroups = BadgeGroups()
        for theme in selected {
            if let shouldStop = limits.shouldStop, shouldStop() { return stopped(palette, problems + warnings) }
            let resolver = plan.count < Auditor.resolversKept ? ThemeResolver(palette: palette, theme: theme, suggestions: allowance) : nil
            let names = resolver?.tokenNames ?? ThemeResolver.tokenNames(palette: palette, theme: theme)
            themeTokens += names.count
            if themeTokens > limits.maximumThemeTokens {
                problems.append(PaletteProblem(.limitExceeded, "the audit would resolve more than \(limits.maximumThemeTokens) tokens across its themes (each theme resolves the tokens it inherits again; \(plan.count + 1) of \(selected.count) themes reach \(themeTokens)); audit fewer themes (--theme, ?theme=)",
                                               file: palette.file))
                return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + warnings)
            }
            let items: [Item]
            do {
                items = try Auditor.items(of: palette, theme: theme.name, tokens: names, problems: &problems, ruleMatches: &ruleMatches,
                                          room: limits.maximumChecks.map { $0 - total } ?? .max, badgeGroups: badgeGroups)
            } catch {
                total += error.atLeast
                items = []
            }
            total += items.count
            if let maximum = limits.maximumChecks, total > maximum {
                problems.append(PaletteProblem(.limitExceeded, "the audit would measure at least \(total) checks (themes × checks × expanded rules); the limit is \(maximum) (--max-pairs). Audit fewer themes (--theme, ?theme=) or narrow the rules",
                                               file: palette.file))
                return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + warnings)
            }
            if let maximum = limits.maximumOutputBytes, total * limits.rendering.bytesPerCheck > maximum {
                let bytes = total * limits.rendering.bytesPerCheck
                problems.append(PaletteProblem(.limitExceeded, "the response would be at least \(ByteCount.megabytes(bytes)) (\(total) checks × \(limits.rendering.bytesPerCheck) bytes in \(limits.rendering)); the limit is \(ByteCount.megabytes(maximum)). Audit fewer themes (?theme=) or narrow the rules",
                                               file: palette.file))
                return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + warnings)
            }
            if let budget, !budget.charge(items.reduce(0) { $0 + Auditor.estimatedBytes(of: $1) },
                                          for: "the audit's checks (\(total) planned by theme '\(theme.name.excerpt(40))', themes × checks × expanded rules)", file: palette.file) {
                return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + [budget.problem].compactMap { $0 } + warnings)
            }
            plan.append((theme, resolver, items))
        }
        // The problems so far, to say each once: a problem is looked up here, not in the list
        // (100,000 tokens that copy one broken value made the list's search quadratic).
        var said = Set(problems)
        // The token values that could not be read, by place and theme: the ledger counts a
        // declaration that no theme could read as not read, with the reason.
        var unreadValues: [String: String] = [:]
        var suggestionsLeft = limits.maximumSuggestions ?? Int.max
        // With several threads, suggestions are collected while checks are evaluated and computed
        // together afterwards; the report is the same as computing them in place.
        var deferred: [PendingSuggestion]? = limits.suggestionThreads > 1 ? [] : nil
        var surfaces: [SRGB?] = []
        var coverage = Coverage.Tally()
        for (theme, planned, items) in plan {
            var resolver = planned ?? ThemeResolver(palette: palette, theme: theme, suggestions: allowance)
            var results: [CheckResult] = []
            results.reserveCapacity(items.count)  // a result is large: growing the list would copy them
            var unresolved: [UnresolvedCheck] = []
            var themeSummary = AuditSummary()
            for item in items {
                if let shouldStop = limits.shouldStop, shouldStop() { return stopped(palette, problems + warnings) }
                let built: Int
                if let problem = evaluate(item, with: &resolver, suggestionsLeft: &suggestionsLeft, deferred: &deferred,
                                          at: (themes.count, results.count), into: &results) {
                    if said.insert(problem).inserted { problems.append(problem) }
                    // Quoted short: a rule's every pair with the token says it, and the whole
                    // problem is in the report's problems, once (10,795 pairs of a 20 KB file
                    // carried 3.9 MB of it; found by `fuzz-tokens`).
                    let quoted = problem.description.excerpt(400)
                    unresolved.append(UnresolvedCheck(id: item.id, foreground: item.foreground, background: item.background, problem: quoted))
                    built = MemoryLayout<UnresolvedCheck>.stride + item.id.utf8.count + quoted.utf8.count + 128
                } else {
                    themeSummary.add(results[results.count - 1])
                    built = Auditor.estimatedBytes(of: results[results.count - 1])
                }
                if let budget, !budget.charge(built, for: "the audit's results (\(summary.checks + themeSummary.checks) measured of \(total))", file: palette.file) {
                    return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + [budget.problem].compactMap { $0 } + warnings)
                }
            }
            // Tokens no check uses must still be valid colors. A value many tokens copy (a
            // group `$extends`, a `$ref` named many times) is one declaration: its problem is
            // said once, for the first token, with how many more carry it.
            var copies: [CopyKey: (index: Int, more: Int)] = [:]
            let (checkedAll, failedAliases) = resolver.validateAllTokens(shouldStop: limits.shouldStop)
            if let shouldStop = limits.shouldStop, shouldStop() { return stopped(palette, problems + warnings) }
            for problem in checkedAll where !problem.isWarning {
                if let key = ReadLedger.failureKey(file: problem.file ?? palette.file, location: problem.location, theme: theme.name) {
                    unreadValues[key] = problem.message
                }
            }
            // The other members of a cycle, and aliases of what cannot be read: not read either.
            for (token, reason) in failedAliases {
                if let key = ReadLedger.failureKey(file: token.file ?? palette.file, location: token.location, theme: theme.name), unreadValues[key] == nil {
                    unreadValues[key] = reason
                }
            }
            for problem in checkedAll where said.insert(problem).inserted {
                if let location = problem.location {
                    let key = CopyKey(code: problem.code, file: problem.file, location: location, theme: problem.theme)
                    if let first = copies[key] {
                        copies[key] = (first.index, first.more + 1)
                        continue
                    }
                    copies[key] = (problems.count, 0)
                }
                // Past this many, problems are counted, not listed: 500 broken aliases in each of
                // 999 Figma modes were half a million, and merging them took most of a minute.
                guard problems.count < Auditor.maximumListedProblems else {
                    unlisted += 1
                    continue
                }
                problems.append(problem)
            }
            for (index, more) in copies.values where more > 0 {
                problems[index].message += " (and \(more) more token\(more == 1 ? "" : "s") that copy this value)"
            }
            // What this theme's translucent `distinct` members were seen over, for the
            // suggestions weighed against them below.
            surfaces.append(results.contains { $0.kind == .distinct && $0.composited != nil } ? Auditor.distinctSurface(&resolver) : nil)
            // What the theme's checks measured, of its color tokens.
            var measured: Set<String> = []
            for result in results { Coverage.measuredTokens(of: result, into: &measured) }
            let colorTokens = resolver.tokenNames.filter { name in resolver.tokens[name].map { $0.isColorTyped && $0.unreadable == nil } ?? false }
            let themeCoverage = coverage.add(theme: colorTokens, measured: measured)
            themes.append(ThemeReport(name: theme.name, summary: themeSummary, results: results, unresolved: unresolved.isEmpty ? nil : unresolved,
                                      coverage: themeCoverage))
            summary.add(themeSummary)
        }
        if let deferred, !deferred.isEmpty {
            guard let computed = Auditor.computeInParallel(deferred, threads: limits.suggestionThreads, shouldStop: limits.shouldStop) else {
                return stopped(palette, problems + warnings)
            }
            for (pending, suggestions) in zip(deferred, computed) {
                Auditor.attach(suggestions, to: &themes[pending.theme].results[pending.result], theme: themes[pending.theme].name)
            }
        }
        Auditor.keepGroupsDistinct(&themes, surfaces: surfaces)
        for check in palette.checks where check.isRule && (ruleMatches[check.id] ?? 0) == 0 && !selected.isEmpty
        && selected.contains(where: { check.applies(to: $0.name) }) {
            // A rule whose own "except" removes every pair its globs match says so.
            let emptiedByExcept = !check.except.isEmpty && plan.contains { planned in
                let names = planned.resolver?.tokenNames ?? ThemeResolver.tokenNames(palette: palette, theme: planned.theme)
                let backgrounds = CheckRule.side(check.background, tokens: names, except: [])
                return CheckRule.side(check.foreground, tokens: names, except: []).contains { fg in backgrounds.contains { $0 != fg } }
            }
            let reason = emptiedByExcept ? ": its globs match pairs, and its own \"except\" (\(check.except.joined(separator: ", "))) removes every one" : ""
            problems.append(PaletteProblem(.emptyRule, "rule \"\(check.id)\" (\(Auditor.ruleDescription(check))) matches no pair of tokens in \(selected.count == 1 ? "theme '\(selected[0].name)'" : "any theme")\(reason)",
                                           file: check.file ?? palette.file, pointer: check.pointer, location: check.location))
        }
        // A theme shows its own coverage only where it differs from the palette's.
        let paletteCoverage = coverage.palette()
        for index in themes.indices where themes[index].coverage == paletteCoverage { themes[index].coverage = nil }
        let assumptions = Auditor.assumptions(of: palette)
        problems = Auditor.mergedAcrossThemes(problems)
        if unlisted > 0 {
            problems.append(PaletteProblem(.limitExceeded, "\(unlisted) more problems of the palette's tokens (in the themes above and others) are not listed: past \(Auditor.maximumListedProblems), problems are counted, not listed; the themes named above may miss some",
                                           file: palette.file))
        }
        summary.problems = problems.count
        summary.assumptions = assumptions.count
        return PaletteReport(name: palette.name, file: palette.file, description: palette.description, source: palette.source,
                             summary: summary, problems: problems, assumptions: assumptions, themes: themes,
                             warnings: warnings.isEmpty ? nil : warnings, format: palette.format, files: palette.files.isEmpty ? nil : palette.files,
                             ledger: palette.ledger.completed(with: palette, unreadValues: unreadValues).summary, coverage: paletteCoverage)
    }

    /// An upper bound of the memory a planned check holds: the item and its strings (an
    /// expanded rule's id is a string of its own for each pair).
    static func estimatedBytes(of item: Item) -> Int {
        MemoryLayout<Item>.stride + item.id.utf8.count + item.foreground.utf8.count + item.background.utf8.count + 4 * 32
    }

    /// An upper bound of the memory a check's result holds: the result, its strings and lists,
    /// and its suggestions (a few colors, each with its text).
    static func estimatedBytes(of result: CheckResult) -> Int {
        var bytes = MemoryLayout<CheckResult>.stride + 16 * 32
        bytes += result.id.utf8.count + (result.description?.utf8.count ?? 0) + result.display.utf8.count
        for color in [result.foreground, result.background] {
            bytes += color.reference.utf8.count + color.css.utf8.count + color.hex.utf8.count + (color.token?.utf8.count ?? 0)
                + (color.deprecated?.utf8.count ?? 0) + (color.assumed?.utf8.count ?? 0) + (color.operations?.count ?? 0) * 64
            bytes += (color.aliases?.reduce(0) { $0 + $1.utf8.count + 32 } ?? 0)
        }
        bytes += result.reasons?.reduce(0) { $0 + $1.utf8.count + 32 } ?? 0
        bytes += (result.fixes?.count ?? 0) * (MemoryLayout<SuggestedFix>.stride + 256)
        if let suggestions = result.suggestions {
            bytes += (suggestions.foreground.count + suggestions.background.count + 2) * (MemoryLayout<SuggestedColor>.stride + 256)
            bytes += suggestions.notes?.reduce(0) { $0 + $1.utf8.count + 32 } ?? 0
        }
        return bytes
    }

    /// `33554432` → "32 MiB", `100000` → "97.7 KiB", `512` → "512 bytes".
    /// Themes whose resolver the plan keeps (see ``audit(_:problems:)``).
    static let resolversKept = 32
    /// The most token problems an audit lists (see ``audit(_:problems:)``).
    static let maximumListedProblems = 10_000

    /// The report of an audit stopped because its time ran out.
    func stopped(_ palette: Palette, _ problems: [PaletteProblem]) -> PaletteReport {
        Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + [
            PaletteProblem(.limitExceeded, "the audit was stopped before it finished (its time ran out); audit fewer themes or checks, or turn suggestions off", file: palette.file)])
    }

    /// A report for a file that could not be decoded at all.
    public static func unreadable(name: String, file: String?, problems allProblems: [PaletteProblem]) -> PaletteReport {
        var summary = AuditSummary()
        let problems = allProblems.filter { !$0.isWarning }, warnings = allProblems.filter(\.isWarning)
        summary.problems = problems.count
        return PaletteReport(name: name, file: file, summary: summary, problems: problems, assumptions: [], themes: [],
                             warnings: warnings.isEmpty ? nil : warnings)
    }
}

extension Auditor {
    /// Themes a merged problem names; the others are counted (``mergedAcrossThemes(_:)``).
    static let themesNamedPerProblem = 8

    /// One problem for one broken value, however many themes it breaks: problems that differ
    /// only by their theme become one that names the themes, the first
    /// ``themesNamedPerProblem`` of them and how many more: a stylesheet's axes make hundreds of
    /// themes from a few lines, and each broken declaration listed every one (805 bytes of
    /// stylesheet made 30 KB of problems; found by `fuzz-stylesheet`).
    static func mergedAcrossThemes(_ problems: [PaletteProblem]) -> [PaletteProblem] {
        struct Key: Hashable {
            var code: String, file: String?, pointer: String, line: Int?, column: Int?, message: String
        }
        var order: [Key] = []
        var groups: [Key: (first: PaletteProblem, themes: [String])] = [:]
        var out: [(Key?, PaletteProblem)] = []
        for problem in problems {
            guard let theme = problem.theme else {
                out.append((nil, problem))
                continue
            }
            let key = Key(code: problem.code.rawValue, file: problem.file, pointer: problem.pointer.description, line: problem.location?.line,
                          column: problem.location?.column, message: problem.message.replacing("theme '\(theme)'", with: "theme '\u{0}'"))
            if groups[key] == nil {
                order.append(key)
                groups[key] = (problem, [theme])
                out.append((key, problem))
            } else if groups[key]?.themes.contains(theme) == false {
                groups[key]?.themes.append(theme)
            }
        }
        return out.map { key, problem in
            guard let key, let group = groups[key], group.themes.count > 1 else { return problem }
            var merged = group.first
            let names = group.themes.prefix(Self.themesNamedPerProblem).map { "'\($0.excerpt(60))'" }
            let more = group.themes.count - names.count
            let list = more > 0 ? names.joined(separator: ", ") + " and \(more) more"
                : names.count == 2 ? names.joined(separator: " and ") : names.dropLast().joined(separator: ", ") + " and " + names.last!
            merged.message = key.message.replacing("theme '\u{0}'", with: "themes \(list)")
            merged.theme = nil
            merged.message += merged.message.contains("themes \(list)") ? "" : " (themes \(list))"
            return merged
        }
    }
}

extension String {
    /// nil for the empty string.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
