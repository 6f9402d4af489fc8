public import TokenSources

/// What a suggested fix does to every check, before anyone applies it: the palette audited
/// again with the fix's changes made, its verdicts compared with the audit's (the same
/// comparison a baseline makes, ``Baseline/compare(with:)``). A fix for one check that repaints
/// a surface used by ten others says so: "fixes this; breaks body-text (15.96 → 4.34)".
public struct FixEffect: Hashable, Sendable, Codable {
    /// Why the effect was not measured (the fix's place is not in the palette as read, or the
    /// audit's budget of re-audits was spent); nil when it was.
    public var unmeasured: String?
    /// Whether the check the fix is suggested for passes with it.
    public var fixes: Bool
    /// Other checks (in any theme) that pass now and fail with the fix.
    public var breaks: [BaselineChange]
    /// Other checks that still pass with the fix but at a lower WCAG level (AAA → AA).
    public var lowers: [BaselineChange]
    /// Other checks that fail now and pass with the fix, or reach a higher level.
    public var improves: [BaselineChange]

    public init(unmeasured: String? = nil, fixes: Bool = false, breaks: [BaselineChange] = [], lowers: [BaselineChange] = [],
                improves: [BaselineChange] = []) {
        self.unmeasured = unmeasured
        self.fixes = fixes
        self.breaks = breaks
        self.lowers = lowers
        self.improves = improves
    }

    /// The effect a fix's re-audit could not be made for, and why.
    public static func unmeasured(_ reason: String) -> FixEffect { FixEffect(unmeasured: reason) }
}

extension Auditor {
    /// Re-audits a fix may cost, at most, per audit: each is an audit of the whole palette
    /// (without suggestions), so the work is this many audits, never fixes × checks unbounded.
    /// Fixes past it say so (``FixEffect/unmeasured``).
    public static let maximumFixAudits = 48
    /// Results, added up over the re-audits, past which the fixes left say they were not
    /// measured: Peptide Fox re-audits 9 distinct fixes of 73 results each (657).
    public static let maximumFixResults = 50_000

    /// `report` (this auditor's audit of `palette`) with every fix's ``SuggestedFix/effect``:
    /// the palette audited again with that fix applied, compared with `report`. Fixes that
    /// make the same changes are audited once.
    public func withFixEffects(_ report: PaletteReport, palette: Palette) -> PaletteReport {
        var report = report
        let before = Baseline(AuditReport(palettes: [report]))
        var again = self
        again.limits.maximumSuggestions = 0
        again.limits.maximumOutputBytes = nil
        // Each distinct set of changes once: its effect, and the verdicts with it by key.
        var memo: [[SuggestedFix.Change]: (effect: FixEffect, after: [String: BaselineEntry])] = [:]
        var audits = 0, results = 0
        let resultsBefore = report.themes.reduce(0) { $0 + $1.results.count }
        for t in report.themes.indices {
            for r in report.themes[t].results.indices {
                guard let fixes = report.themes[t].results[r].fixes else { continue }
                let key = BaselineEntry(report.name, report.themes[t].name, report.themes[t].results[r]).key
                for f in fixes.indices {
                    let changes = fixes[f].changes
                    var effect: FixEffect, verdicts: [String: BaselineEntry] = [:]
                    if let known = memo[changes] {
                        (effect, verdicts) = known
                    } else if let stop = limits.shouldStop, stop() {
                        effect = .unmeasured("the request stopped before this fix was tried")
                    } else if audits >= Auditor.maximumFixAudits || results >= Auditor.maximumFixResults {
                        effect = .unmeasured("not tried: the audit tries at most \(Auditor.maximumFixAudits) distinct fixes (\(Auditor.maximumFixResults) results in all) for what else they change")
                    } else if let changed = palette.applying(changes) {
                        // Under a budget of its own (when the audit ran under one), the size of
                        // the first audit's: a re-audit that grows past it is a fix not
                        // measured, never the request's budget spent.
                        let budget = ReadBudget.current.map { _ in ReadBudget(inputBytes: resultsBefore * 2_048, shouldStop: limits.shouldStop) }
                        let after = ReadBudget.$current.withValue(budget) { again.audit(changed) }
                        audits += 1
                        results += after.themes.reduce(0) { $0 + $1.results.count }
                        verdicts = Baseline(AuditReport(palettes: [after])).entries
                        effect = after.problems.isEmpty
                            ? FixEffect(comparing: before, with: after)
                            : .unmeasured("with this fix the palette has \(after.problems.count) problem\(after.problems.count == 1 ? "" : "s"): \(after.problems[0].message)")
                    } else {
                        effect = .unmeasured("the fix's place (\(changes.map(\.pointer.description).joined(separator: ", "))) is not a value of the palette as read")
                    }
                    memo[changes] = (effect, verdicts)
                    // This fix's own check is what it fixes, not one it breaks or improves.
                    var own = effect
                    if own.unmeasured == nil {
                        own.fixes = verdicts[key]?.verdict == .pass
                        own.breaks.removeAll { $0.key == key }
                        own.lowers.removeAll { $0.key == key }
                        own.improves.removeAll { $0.key == key }
                    }
                    report.themes[t].results[r].fixes?[f].effect = own
                }
            }
        }
        return report
    }
}

extension FixEffect {
    /// The comparison of `after` (the palette with the fix) with the audit `before`.
    init(comparing before: Baseline, with after: PaletteReport) {
        let comparison = before.compare(with: AuditReport(palettes: [after]))
        self.init()
        for change in comparison.regressions {
            if change.before.verdict == .pass && change.after.verdict == .fail { breaks.append(change) } else { lowers.append(change) }
        }
        improves = comparison.improvements
    }
}

extension Palette {
    /// The palette with `changes` made to its values (what a fix writes in its document):
    /// a token's value, an override of an inherited token in one theme, a check's or a badge's
    /// own color. Nil when a change's place is not a value of the palette.
    public func applying(_ changes: [SuggestedFix.Change]) -> Palette? {
        var palette = self
        for change in changes {
            var done = false
            for t in palette.themes.indices {
                for i in palette.themes[t].tokens.indices where palette.themes[t].tokens[i].pointer == change.pointer
                    && (change.token == nil || palette.themes[t].tokens[i].name == change.token) {
                    palette.themes[t].tokens[i].value = change.value
                    palette.themes[t].tokens[i].unreadable = nil
                    done = true
                }
            }
            if done { continue }
            let segments = change.pointer.segments
            if change.override == true, let name = change.token, segments.count > 2, segments[0] == "themes",
               let t = palette.themes.firstIndex(where: { $0.name == segments[1] }) {
                var token = Token(name: name, value: change.value, pointer: change.pointer)
                token.type = "color"
                palette.themes[t].tokens.append(token)
                continue
            }
            guard let field = segments.last else { return nil }
            let owner = JSONPointer(Array(segments.dropLast()))
            if let c = palette.checks.firstIndex(where: { $0.pointer == owner && $0.file == nil }), case .pair = palette.checks[c].relation {
                switch field {
                case "foreground": palette.checks[c].foreground = change.value
                case "background": palette.checks[c].background = change.value
                default: return nil
                }
                continue
            }
            if let b = palette.badges.firstIndex(where: { $0.pointer == owner }) {
                switch field {
                case "text": palette.badges[b].text = change.value
                case "background": palette.badges[b].background = change.value
                case "border": palette.badges[b].border = change.value
                default: return nil
                }
                continue
            }
            return nil
        }
        return palette
    }
}
