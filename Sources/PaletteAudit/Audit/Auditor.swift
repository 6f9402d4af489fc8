public import ColorScience
import Dispatch
import Synchronization

/// A bounded memory of computed suggestions, shared by every audit in the process.
final class SuggestionCache: Sendable {
    struct Key: Hashable, Sendable {
        var foreground: SRGB
        var background: SRGB
        var target: ContrastTarget
    }

    static let shared = SuggestionCache()
    static let capacity = 4096
    private let entries = Mutex<[Key: Suggestions]>([:])

    func value(for key: Key) -> Suggestions? {
        entries.withLock { $0[key] }
    }

    func store(_ value: Suggestions, for key: Key) {
        entries.withLock { table in
            if table.count >= SuggestionCache.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = value
        }
    }
}

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

    public init(themeFilter: [String]? = nil, limits: Limits = .unlimited) {
        self.themeFilter = themeFilter
        self.limits = limits
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
        var plan: [(theme: Theme, resolver: ThemeResolver, items: [Item])] = []
        var total = 0
        for theme in selected {
            let resolver = ThemeResolver(palette: palette, theme: theme)
            let items = Auditor.items(of: palette, theme: theme.name, tokens: resolver.tokenNames, problems: &problems, ruleMatches: &ruleMatches)
            total += items.count
            if let maximum = limits.maximumChecks, total > maximum {
                problems.append(PaletteProblem(.limitExceeded, "the audit would measure at least \(total) checks (themes × checks × expanded rules); the limit is \(maximum). Audit fewer themes (?theme=) or narrow the rules",
                                               file: palette.file))
                return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + warnings)
            }
            if let maximum = limits.maximumOutputBytes, total * limits.rendering.bytesPerCheck > maximum {
                let bytes = total * limits.rendering.bytesPerCheck
                problems.append(PaletteProblem(.limitExceeded, "the response would be at least \(Auditor.megabytes(bytes)) (\(total) checks × \(limits.rendering.bytesPerCheck) bytes in \(limits.rendering)); the limit is \(Auditor.megabytes(maximum)). Audit fewer themes (?theme=) or narrow the rules",
                                               file: palette.file))
                return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + warnings)
            }
            plan.append((theme, resolver, items))
        }
        var suggestionsLeft = limits.maximumSuggestions ?? Int.max
        // With several threads, suggestions are collected while checks are evaluated and computed
        // together afterwards; the report is the same as computing them in place.
        var deferred: [PendingSuggestion]? = limits.suggestionThreads > 1 ? [] : nil
        for (theme, planned, items) in plan {
            var resolver = planned
            var results: [CheckResult] = []
            var unresolved: [UnresolvedCheck] = []
            var themeSummary = AuditSummary()
            for item in items {
                if let shouldStop = limits.shouldStop, shouldStop() {
                    problems.append(PaletteProblem(.limitExceeded, "the audit was stopped before it finished (its time ran out); audit fewer themes or checks, or turn suggestions off",
                                                   file: palette.file))
                    return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + warnings)
                }
                switch evaluate(item, with: &resolver, suggestionsLeft: &suggestionsLeft, deferred: &deferred,
                                at: (themes.count, results.count)) {
                case .success(let result):
                    results.append(result)
                    themeSummary.add(result)
                case .failure(let problem):
                    if !problems.contains(problem) { problems.append(problem) }
                    unresolved.append(UnresolvedCheck(id: item.id, foreground: item.foreground, background: item.background, problem: problem.description))
                }
            }
            // Tokens no check uses must still be valid colors.
            for problem in resolver.validateAll() where !problems.contains(problem) {
                problems.append(problem)
            }
            themes.append(ThemeReport(name: theme.name, summary: themeSummary, results: results, unresolved: unresolved.isEmpty ? nil : unresolved))
            summary.add(themeSummary)
        }
        if let deferred, !deferred.isEmpty {
            guard let computed = Auditor.computeInParallel(deferred, threads: limits.suggestionThreads, shouldStop: limits.shouldStop) else {
                problems.append(PaletteProblem(.limitExceeded, "the audit was stopped before it finished (its time ran out); audit fewer themes or checks, or turn suggestions off",
                                               file: palette.file))
                return Auditor.unreadable(name: palette.name, file: palette.file, problems: problems + warnings)
            }
            for (pending, suggestions) in zip(deferred, computed) {
                Auditor.attach(suggestions, to: &themes[pending.theme].results[pending.result], theme: themes[pending.theme].name)
            }
        }
        for check in palette.checks where check.isRule && (ruleMatches[check.id] ?? 0) == 0 && !selected.isEmpty
        && selected.contains(where: { check.applies(to: $0.name) }) {
            // A rule whose own "except" removes every pair its globs match says so.
            let emptiedByExcept = !check.except.isEmpty && plan.contains { planned in
                let names = planned.resolver.tokenNames
                let backgrounds = CheckRule.side(check.background, tokens: names, except: [])
                return CheckRule.side(check.foreground, tokens: names, except: []).contains { fg in backgrounds.contains { $0 != fg } }
            }
            let reason = emptiedByExcept ? ": its globs match pairs, and its own \"except\" (\(check.except.joined(separator: ", "))) removes every one" : ""
            problems.append(PaletteProblem(.emptyRule, "rule \"\(check.id)\" (\(check.foreground) on \(check.background)) matches no pair of tokens in \(selected.count == 1 ? "theme '\(selected[0].name)'" : "any theme")\(reason)",
                                           file: check.file ?? palette.file, pointer: check.pointer, location: check.location))
        }
        let assumptions = Auditor.assumptions(of: palette)
        problems = Auditor.mergedAcrossThemes(problems)
        summary.problems = problems.count
        summary.assumptions = assumptions.count
        return PaletteReport(name: palette.name, file: palette.file, description: palette.description, source: palette.source,
                             summary: summary, problems: problems, assumptions: assumptions, themes: themes,
                             warnings: warnings.isEmpty ? nil : warnings, format: palette.format, files: palette.files.isEmpty ? nil : palette.files,
                             ledger: palette.ledger.completed(with: palette).summary)
    }

    /// `33554432` → "32 MiB", `100000` → "97.7 KiB", `512` → "512 bytes".
    public static func megabytes(_ bytes: Int) -> String {
        if bytes < 1 << 10 { return "\(bytes) bytes" }
        let (value, unit) = bytes < 1 << 20 ? (Double(bytes) / 1024, "KiB") : (Double(bytes) / Double(1 << 20), "MiB")
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) \(unit)" : "\(tenths) \(unit)"
    }

    /// A report for a file that could not be decoded at all.
    public static func unreadable(name: String, file: String?, problems allProblems: [PaletteProblem]) -> PaletteReport {
        var summary = AuditSummary()
        let problems = allProblems.filter { !$0.isWarning }, warnings = allProblems.filter(\.isWarning)
        summary.problems = problems.count
        return PaletteReport(name: name, file: file, summary: summary, problems: problems, assumptions: [], themes: [],
                             warnings: warnings.isEmpty ? nil : warnings)
    }

    // MARK: Items

    /// A check or a badge's implied check, in one shape.
    struct Item {
        var id: String
        var kind: CheckKind
        var description: String?
        var foreground: String
        var background: String
        var usage: ContrastUsage
        var level: WCAGLevel
        var apcaMinimum: Double?
        var fontSize: FontSize?
        var fontWeight: Int?
        var backdrop: String?
        var themes: [String]?
        var assumed: String?
        var claim: Claim?
        var pointer: JSONPointer
        var location: SourceLocation?
        var minimumRatio: Double?
        var file: String?

        func applies(to theme: String) -> Bool { themes.map { $0.contains(theme) } ?? true }
    }

    /// The checks and badges of a palette that apply to one theme, with rule checks expanded
    /// over that theme's tokens. `ruleMatches` counts each rule's pairs over every theme.
    static func items(of palette: Palette, theme: String, tokens: [String], problems: inout [PaletteProblem], ruleMatches: inout [String: Int]) -> [Item] {
        var items: [Item] = []
        for check in palette.checks where check.applies(to: theme) {
            let item = Item(id: check.id, kind: .check, description: check.description, foreground: check.foreground,
                            background: check.background, usage: check.effectiveUsage, level: check.level, apcaMinimum: check.apcaMinimum,
                            fontSize: check.fontSize, fontWeight: check.fontWeight, backdrop: check.backdrop, themes: check.themes,
                            assumed: check.assumed, claim: check.claim, pointer: check.pointer, location: check.location,
                            minimumRatio: check.minimumRatio, file: check.file)
            guard check.isRule else {
                items.append(item)
                continue
            }
            let foregrounds = CheckRule.side(check.foreground, tokens: tokens, except: check.except)
            let backgrounds = CheckRule.side(check.background, tokens: tokens, except: check.except)
            let count = foregrounds.count * backgrounds.count
            if count > CheckRule.maximumPairsPerRule {
                let problem = PaletteProblem(.limitExceeded, "rule \"\(check.id)\" would expand to \(count) pairs (\(foregrounds.count) foregrounds × \(backgrounds.count) backgrounds); the limit is \(CheckRule.maximumPairsPerRule) per rule. Narrow its globs or add \"except\"",
                                             file: check.file ?? palette.file, pointer: check.pointer, location: check.location)
                if !problems.contains(problem) { problems.append(problem) }
                continue
            }
            for fg in foregrounds {
                for bg in backgrounds where fg != bg {
                    var expanded = item
                    expanded.id = CheckRule.expandedID(check.id, foreground: fg, background: bg)
                    expanded.foreground = fg
                    expanded.background = bg
                    items.append(expanded)
                    ruleMatches[check.id, default: 0] += 1
                }
            }
        }
        for badge in palette.badges {
            guard badge.themes.map({ $0.contains(theme) }) ?? true else { continue }
            items.append(Item(id: "badge:\(badge.name)", kind: .badge, description: "Badge \"\(badge.name)\": its text on its background",
                              foreground: badge.text, background: badge.background, usage: .text, level: badge.level,
                              themes: badge.themes, claim: badge.claim, pointer: badge.pointer, location: badge.location))
            if let border = badge.border {
                items.append(Item(id: "badge:\(badge.name):border", kind: .badgeBorder,
                                  description: "Badge \"\(badge.name)\": its border against its background",
                                  foreground: border, background: badge.background,
                                  usage: palette.badgeBordersCarryMeaning ? .nonText : .decorative, level: .AA,
                                  themes: badge.themes, pointer: badge.pointer.appending("border"), location: badge.location))
            }
        }
        return items
    }

    static func assumptions(of palette: Palette) -> [Assumption] {
        var list: [Assumption] = []
        var byToken: [String: Int] = [:]
        for theme in palette.themes {
            for token in theme.tokens {
                let ignored = token.unappliedProperties.filter { palette.ignoredProperties.contains($0.name) }.map { "\"\($0.name)\"" }
                let declared = ignored.isEmpty ? nil : "its property \(ignored.joined(separator: ", ")) is not applied: declared harmless by ignoreProperties"
                guard let reason = [token.assumed, declared].compactMap({ $0 }).joined(separator: "; ").nilIfEmpty else { continue }
                let key = "\(token.name)|\(token.value)|\(reason)"
                if let index = byToken[key] {
                    list[index].themes?.append(theme.name)
                } else {
                    byToken[key] = list.count
                    list.append(Assumption(token: token.name, themes: [theme.name], value: token.value, reason: reason, pointer: token.pointer))
                }
            }
        }
        for check in palette.checks {
            if let reason = check.assumed {
                list.append(Assumption(check: check.id, reason: reason, pointer: check.pointer.appending("assumed")))
            }
        }
        return list
    }

    // MARK: Evaluation

    func evaluate(_ item: Item, with resolver: inout ThemeResolver) -> Result<CheckResult, PaletteProblem> {
        var unlimited = Int.max
        var inPlace: [PendingSuggestion]?
        return evaluate(item, with: &resolver, suggestionsLeft: &unlimited, deferred: &inPlace, at: (0, 0))
    }

    /// A failing check whose suggestions are computed after every check is evaluated.
    struct PendingSuggestion: Sendable {
        var theme: Int
        var result: Int
        var foreground: SRGB
        var background: SRGB
        var target: ContrastTarget
    }

    /// Evaluates one check. When `deferred` is not nil, a failing check's suggestions are not
    /// computed but appended there (with `position`, its theme and result index) for
    /// ``computeInParallel(_:threads:shouldStop:)``.
    func evaluate(_ item: Item, with resolver: inout ThemeResolver, suggestionsLeft: inout Int,
                  deferred: inout [PendingSuggestion]?, at position: (theme: Int, result: Int)) -> Result<CheckResult, PaletteProblem> {
        let fg: ResolvedColor, bg: ResolvedColor
        switch resolver.resolve(item.foreground, at: item.pointer.appending(item.kind.foregroundField), location: item.location, referenceFile: item.file) {
        case .success(let c): fg = c
        case .failure(let p): return .failure(p)
        }
        switch resolver.resolve(item.background, at: item.pointer.appending("background"), location: item.location, referenceFile: item.file) {
        case .success(let c): bg = c
        case .failure(let p): return .failure(p)
        }
        var backdrop: ResolvedColor?
        if let reference = item.backdrop ?? (bg.color.isOpaque ? nil : resolver.theme.backdrop) {
            switch resolver.resolve(reference, at: item.pointer.appending("backdrop"), location: item.location, referenceFile: item.file) {
            case .success(let c): backdrop = c
            case .failure(let p): return .failure(p)
            }
        }
        let measurement = ContrastMeasurement(foreground: fg.color, background: bg.color, backdrop: backdrop?.color)
        let limit = limits.maximumSuggestions
        var result = Auditor.result(item, fg: fg, bg: bg, backdrop: backdrop, theme: resolver.theme.name, measurement: measurement,
                                    suggest: suggestionsLeft > 0 && deferred == nil)
        if result.verdict == .fail && !(result.range != nil) {
            if suggestionsLeft > 0 {
                suggestionsLeft -= 1
                if deferred != nil, let inputs = Auditor.suggestionInputs(verdict: result.verdict, measurement: measurement, required: result.required, apca: item.apcaMinimum) {
                    deferred!.append(PendingSuggestion(theme: position.theme, result: position.result,
                                                       foreground: inputs.foreground, background: inputs.background, target: inputs.target))
                }
            } else if let limit {
                let note = limit == 0 ? "suggestions off for this request" : "suggestions omitted: limit \(limit) per request"
                result.suggestions = Suggestions(foreground: [], background: [], both: nil, notes: [note])
            }
        }
        return .success(result)
    }

    static func result(_ item: Item, fg: ResolvedColor, bg: ResolvedColor, backdrop: ResolvedColor?, theme: String,
                       measurement m: ContrastMeasurement, suggest: Bool = true) -> CheckResult {
        let requirement = ContrastRequirement(usage: item.usage, level: item.level)
        var reasons: [String] = []
        var verdict = Verdict.exempt
        var required = requirement.minimumRatio
        if let minimum = requirement.minimumRatio {
            verdict = .pass
            if m.ratio < minimum {
                verdict = .fail
                let worst = m.isRange ? " (worst case over unknown backdrops)" : ""
                reasons.append("\(RatioFormat.display(m.ratio))\(worst) is below the \(CSSNumber.format(minimum)):1 that SC \(requirement.successCriterion ?? "") \(item.level.name) requires for \(item.usage)")
            }
        }
        if let house = item.minimumRatio {
            if verdict == .exempt { verdict = .pass }
            required = max(required ?? 0, house)
            if m.ratio < house {
                verdict = .fail
                reasons.append("\(RatioFormat.display(m.ratio)) is below the check's minimumRatio of \(CSSNumber.format(house)):1")
            }
        }
        if requirement.minimumRatio != nil || item.minimumRatio != nil {
            if let lc = item.apcaMinimum, abs(m.apca) < lc {
                verdict = .fail
                reasons.append("APCA Lc \(formatLc(m.apca)) is below the required Lc \(CSSNumber.format(lc))")
            }
        }
        var assumed: [String] = []
        if let a = item.assumed { assumed.append(a) }
        for color in [fg, bg] + (backdrop.map { [$0] } ?? []) {
            if let a = color.assumed, !assumed.contains(a) { assumed.append(a) }
        }
        var composited: CompositedPair?
        if let f = m.effectiveForeground, let b = m.effectiveBackground, !(fg.color.isOpaque && bg.color.isOpaque) {
            composited = CompositedPair(foreground: f.hex, background: b.hex)
        }
        var suggestions: Suggestions?
        if suggest, let inputs = suggestionInputs(verdict: verdict, measurement: m, required: required, apca: item.apcaMinimum) {
            suggestions = Auditor.suggestions(foreground: inputs.foreground, background: inputs.background, target: inputs.target)
        }
        var range: RatioRange?
        if m.isRange, let worst = m.worstBackdrop, let best = m.bestBackdrop {
            range = RatioRange(worst: m.ratio, best: m.bestRatio, worstBackdrop: worst.hex, bestBackdrop: best.hex)
        }
        return CheckResult(
            id: item.id, kind: item.kind, description: item.description, usage: item.usage, level: item.level,
            criterion: requirement.successCriterion, required: required,
            fontSize: item.fontSize?.description, fontWeight: item.fontWeight,
            foreground: fg, background: bg, backdrop: backdrop, composited: composited,
            ratio: m.ratio, display: RatioFormat.display(m.ratio), range: range, apca: m.apca, apcaRequired: item.apcaMinimum,
            achieved: AchievedLevel(ratio: m.ratio), verdict: verdict, reasons: reasons.isEmpty ? nil : reasons,
            claim: item.claim.map { ClaimCheck.evaluate($0, ratio: m.ratio, usage: item.usage) },
            suggestions: suggestions,
            fixes: suggestions.flatMap { fixes($0, foreground: fg, background: bg, kind: item.kind, pointer: item.pointer, theme: theme) },
            assumed: assumed.isEmpty ? nil : assumed, pointer: item.pointer, line: item.location?.line)
    }

    /// The colors and target a failing check's suggestions are computed for; nil when it gets
    /// none (it passes, or its ratio is a range over an unknown backdrop).
    static func suggestionInputs(verdict: Verdict, measurement m: ContrastMeasurement, required: Double?, apca: Double?)
        -> (foreground: SRGB, background: SRGB, target: ContrastTarget)? {
        guard verdict == .fail, !m.isRange, let f = m.effectiveForeground, let b = m.effectiveBackground else { return nil }
        return (f, b, ContrastTarget(ratio: required, lc: apca))
    }

    static func fixes(_ suggestions: Suggestions, foreground: ResolvedColor, background: ResolvedColor, kind: CheckKind,
                      pointer: JSONPointer, theme: String) -> [SuggestedFix]? {
        let fixes = SuggestedFix.fixes(suggestions, foreground: foreground, background: background, kind: kind, pointer: pointer, theme: theme)
        return fixes.isEmpty ? nil : fixes
    }

    /// Puts computed suggestions (and the fixes they imply) into a result evaluated without them.
    static func attach(_ suggestions: Suggestions, to result: inout CheckResult, theme: String) {
        result.suggestions = suggestions
        result.fixes = fixes(suggestions, foreground: result.foreground, background: result.background, kind: result.kind,
                             pointer: result.pointer, theme: theme)
    }

    /// The suggestions of every pending check, on `threads` threads taking the next pending
    /// check as each finishes one; nil when `shouldStop` said to stop.
    static func computeInParallel(_ pending: [PendingSuggestion], threads: Int, shouldStop: (@Sendable () -> Bool)?) -> [Suggestions]? {
        let output = UnsafeMutableBufferPointer<Suggestions?>.allocate(capacity: pending.count)
        output.initialize(repeating: nil)
        defer { output.deinitialize(); output.deallocate() }
        let next = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        nonisolated(unsafe) let slots = output
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, pending.count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                if index >= pending.count || stopped.load(ordering: .relaxed) { return }
                if let shouldStop, shouldStop() {
                    stopped.store(true, ordering: .relaxed)
                    return
                }
                let p = pending[index]
                slots[index] = Auditor.suggestions(foreground: p.foreground, background: p.background, target: p.target)
            }
        }
        if stopped.load(ordering: .relaxed) { return nil }
        return output.map { $0! }
    }

    /// Nearest passing colors for each side, and for both at once. Results are remembered
    /// (they depend only on the two colors and the target), so re-auditing a palette is cheap.
    public static func suggestions(foreground: SRGB, background: SRGB, target: ContrastTarget) -> Suggestions {
        let key = SuggestionCache.Key(foreground: foreground, background: background, target: target)
        if let known = SuggestionCache.shared.value(for: key) { return known }
        let computed = computeSuggestions(foreground: foreground, background: background, target: target)
        SuggestionCache.shared.store(computed, for: key)
        return computed
    }

    /// The suggestions computed afresh, without the cache (for benchmarks).
    public static func computeSuggestions(foreground: SRGB, background: SRGB, target: ContrastTarget) -> Suggestions {
        let fg = NearestPassing.suggest(for: foreground, against: background, role: .foreground, target: target)
        let bg = NearestPassing.suggest(for: background, against: foreground, role: .background, target: target)
        var notes: [String] = []
        if fg.suggestions.isEmpty, let best = fg.bestReachableRatio {
            notes.append("no foreground of this hue reaches \(target) on \(background.hex); the best reachable is \(RatioFormat.display(best))")
        }
        if bg.suggestions.isEmpty, let best = bg.bestReachableRatio {
            notes.append("no background of this hue reaches \(target) under \(foreground.hex); the best reachable is \(RatioFormat.display(best))")
        }
        let both = NearestPassing.suggestBoth(foreground: foreground, background: background, target: target).map {
            SuggestedPair(foreground: SuggestedColor($0.foreground), background: SuggestedColor($0.background))
        }
        return Suggestions(foreground: fg.suggestions.map(SuggestedColor.init), background: bg.suggestions.map(SuggestedColor.init),
                           both: both, notes: notes.isEmpty ? nil : notes)
    }

    public static func formatLc(_ lc: Double) -> String {
        let tenths = (lc * 10).rounded(.towardZero) / 10
        return String(tenths)
    }
}

extension Auditor {
    /// One problem for one broken value, however many themes it breaks: problems that differ
    /// only by their theme become one that names every theme.
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
            let names = group.themes.map { "'\($0)'" }
            let list = names.count == 2 ? names.joined(separator: " and ") : names.dropLast().joined(separator: ", ") + " and " + names.last!
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
