import ColorScience
import Foundation
import TokenSources

/// One line of the report history (JSON Lines): a run's summary, and enough per check to find
/// regressions since the previous run.
public struct HistoryEntry: Sendable, Codable {
    public var time: String
    public var summary: AuditSummary
    /// Failures per palette.
    public var failures: [String: Int]
    /// Palette → theme → that theme's failing checks and its regressions since the run before,
    /// for each theme's trend. Absent on lines written before it was recorded: such a line gives
    /// a theme no point (never its palette's number in its stead).
    public var themes: [String: [String: ThemePoint]]?
    /// `palette/theme/check` → the baseline entry of that run: on the history's last line only
    /// (what the next run compares with); earlier lines drop it (``ReportHistory/appending(_:keeping:)``).
    public var checks: [String: BaselineEntry]?

    /// One theme in one run.
    public struct ThemePoint: Sendable, Codable, Equatable {
        public var fail: Int
        /// Regressions since the previous run (absent on a first run: nothing to regress from).
        public var regressions: Int?

        public init(fail: Int, regressions: Int?) {
            self.fail = fail
            self.regressions = regressions
        }
    }

    public init(time: String, report: AuditReport) {
        self.time = time
        self.summary = report.summary
        self.failures = Dictionary(report.palettes.map { ($0.name, $0.summary.fail) }, uniquingKeysWith: +)
        var regressions: [String: [String: Int]] = [:]
        for change in report.comparison?.regressions ?? [] { regressions[change.after.palette, default: [:]][change.after.theme, default: 0] += 1 }
        var themes: [String: [String: ThemePoint]] = [:]
        for palette in report.palettes {
            for theme in palette.themes {
                themes[palette.name, default: [:]][theme.name] = ThemePoint(
                    fail: (themes[palette.name]?[theme.name]?.fail ?? 0) + theme.summary.fail,
                    regressions: report.comparison == nil ? nil : regressions[palette.name]?[theme.name] ?? 0)
            }
        }
        self.themes = themes
        self.checks = Baseline(report).entries
    }
}

/// The nightly report as one self-contained HTML page: no scripts, no fonts or images from
/// anywhere, so it opens from a mail attachment or a CI artifact. Every check is shown as a
/// swatch in its real colors and size; failures show their nearest passing colors.
public struct HTMLReport: Sendable {
    public var title: String
    public var generated: String
    /// Earlier runs, oldest first (for the trend and regressions since the last run).
    public var history: [HistoryEntry]
    /// A comparison to show instead of the one with the last run (a proposal against the
    /// served palette), and how to introduce it.
    public var comparison: (BaselineComparison, against: String)?

    public init(title: String, generated: String, history: [HistoryEntry] = [], comparison: (BaselineComparison, against: String)? = nil) {
        self.title = title
        self.generated = generated
        self.history = history
        self.comparison = comparison
    }

    /// Escapes text for HTML content and attribute values.
    public static func escape(_ text: String) -> String { HTML.escape(text) }

    /// The report's style sheet (the designers' page serves it too).
    public static var style: String { styleSheet.description }

    static let styleSheet: StaticString = """
        :root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #57606a; --line: #d0d7de; --pass: #116329; --fail: #b3261e; --exempt: #57606a; --card: #f6f8fa; --focus: #0969da; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3; --line: #3d444d; --pass: #4ac26b; --fail: #ff7b72; --exempt: #9da7b3; --card: #161b22; --focus: #4493f8; } }
        body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; padding: 24px; max-width: 1200px; }
        h1 { font-size: 1.8em; margin: 0 0 4px; } h2 { margin-top: 40px; border-bottom: 1px solid var(--line); } h3 { margin-top: 28px; }
        .muted { color: var(--muted); }
        table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
        th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: middle; }
        th { font-weight: 600; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        .verdict-pass { color: var(--pass); font-weight: 600; } .verdict-fail { color: var(--fail); font-weight: 600; } .verdict-exempt { color: var(--exempt); }
        .swatch { display: inline-block; min-width: 120px; padding: 8px 12px; border-radius: 6px; border: 1px solid var(--line); white-space: nowrap; }
        .bar { display: inline-block; width: 120px; height: 14px; border-radius: 7px; vertical-align: middle; }
        .chip.translucent { --checker: repeating-conic-gradient(var(--line) 0 25%, var(--bg) 0 50%) 0 0 / 8px 8px; }
        .chip { display: inline-block; width: 1.6em; height: 1.6em; border-radius: 4px; border: 1px solid var(--line); vertical-align: middle; margin-right: 4px; }
        .badge { display: inline-block; padding: 2px 10px; border-radius: 999px; font-size: 13px; font-weight: 600; }
        .fixes { margin-top: 6px; font-size: 13px; } .fixes .swatch { min-width: 0; padding: 2px 8px; margin-right: 6px; }
        .summary td.bad { color: var(--fail); font-weight: 600; }
        .grid td { text-align: center; font-size: 12px; padding: 4px; }
        table.compact td { padding: 2px 8px; font-size: 13px; }
        table.compact td:last-child, table.compact th:last-child { text-align: right; font-variant-numeric: tabular-nums; }
        details.passing > summary { cursor: pointer; margin: 8px 0; }
        .chunk { content-visibility: auto; contain-intrinsic-size: auto 16000px; } @media print { .chunk { content-visibility: visible; } }
        table.checks { table-layout: fixed; }
        table.checks th:nth-child(1) { width: 160px; } table.checks th:nth-child(2) { width: 15%; } table.checks th:nth-child(3) { width: 17%; }
        table.checks th:nth-child(4), table.checks th:nth-child(5), table.checks th:nth-child(6) { width: 72px; }
        table.checks td { overflow-wrap: anywhere; }
        .note { background: var(--card); border-left: 4px solid var(--line); padding: 8px 12px; margin: 8px 0; }
        .wide, .side-by-side { overflow-x: auto; max-width: 100%; }
        [data-sample]::before { content: attr(data-sample); white-space: pre; }
        header p, main > p, .note { overflow-wrap: anywhere; }
        .trend { white-space: nowrap; } .trend svg { vertical-align: middle; overflow: visible; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
        a { color: inherit; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        @media print { body { max-width: none; padding: 0; } h2 { break-before: page; } .swatch, .badge, .chip, .bar { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
        """

    public func render(_ report: AuditReport) -> String {
        page(report).text
    }

    func page(_ report: AuditReport) -> HTML {
        let previous = history.last
        let comparison = self.comparison?.0 ?? previous.map { Baseline(entries: $0.checks ?? [:]).compare(with: report) }
        let against = self.comparison?.against ?? "Since the last run (\(previous?.time ?? ""))"
        let regressed = Set(comparison?.regressions.map(\.key) ?? [])
        // Keyed by the entries' own names: a key's segments are escaped (a theme named `a/b`).
        var regressionsByTheme: [String: [String: Int]] = [:]
        for change in comparison?.regressions ?? [] { regressionsByTheme[change.after.palette, default: [:]][change.after.theme, default: 0] += 1 }
        var out: HTML = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(title)</title>\n<style>\n\(trusted: Self.styleSheet)\n</style>\n</head>\n<body>\n"
        out += "<header><h1>\(title)</h1>\n<p class=\"muted\">Generated \(generated) · WCAG 2.2 ratios (floored, never rounded into a pass) and APCA Lc · <span id=\"summary-line\">\(report.summary.line)</span> · <span id=\"coverage-line\">coverage: \(report.coverage.line)</span></p></header>\n<main>\n"
        for file in report.checksFiles ?? [] where file.origin == ChecksFile.found { out += "<p class=\"muted\">\(file.line)</p>\n" }
        for reason in report.outcome?.reasons ?? [] where reason.code == .nothingMeasured || reason.code == .coverageBelow {
            out += "<p class=\"note\" role=\"alert\" data-reason=\"\(reason.code.rawValue)\"><strong>\(reason.code == .nothingMeasured ? "Nothing was measured" : "Coverage below the minimum"):</strong> \(reason.message)</p>\n"
        }
        if let comparison {
            out += "<p class=\"note\" id=\"since-last-run\">\(against): <strong>\(comparison.regressions.count) regression\(comparison.regressions.count == 1 ? "" : "s")</strong>, \(comparison.improvements.count) improvement\(comparison.improvements.count == 1 ? "" : "s"), \(comparison.added.count) added, \(comparison.removed.count) removed.</p>\n"
            if !comparison.regressions.isEmpty {
                out += "<ul>\n" + comparison.regressions.map { change -> HTML in "<li>Regressed: \(change.message)</li>\n" }.joined() + "</ul>\n"
            }
        }
        // Summary per palette and theme.
        out += "<section aria-labelledby=\"summary\"><h2 id=\"summary\">Summary</h2>\n<div class=\"wide\"><table class=\"summary\" id=\"summary-table\">\n<caption class=\"muted\">Checks per palette and theme</caption>\n<thead><tr><th scope=\"col\">Palette</th><th scope=\"col\">Theme</th><th scope=\"col\" class=\"num\">Checks</th><th scope=\"col\" class=\"num\">Pass</th><th scope=\"col\" class=\"num\">Fail</th><th scope=\"col\" class=\"num\">Exempt</th><th scope=\"col\" class=\"num\">False claims</th><th scope=\"col\" class=\"num\">Coverage</th><th scope=\"col\" class=\"num\">Regressions</th><th scope=\"col\">Trend</th></tr></thead>\n<tbody>\n"
        for palette in report.palettes {
            for theme in palette.themes {
                let s = theme.summary
                let themeRegressions = regressionsByTheme[palette.name]?[theme.name] ?? 0
                out += "<tr data-palette=\"\(palette.name)\" data-theme=\"\(theme.name)\"><th scope=\"row\"><a href=\"#\(Self.anchor(palette.name))\">\(palette.name)</a></th><td>\(theme.name)</td>"
                out += "<td class=\"num\">\(s.checks)</td><td class=\"num\">\(s.pass)</td><td class=\"num\(s.fail > 0 ? " bad" : "")\">\(s.fail)</td><td class=\"num\">\(s.exempt)</td><td class=\"num\(s.falseClaims > 0 ? " bad" : "")\">\(s.falseClaims)</td>\(coverageCell(theme.coverage ?? palette.coverage))<td class=\"num\(themeRegressions > 0 ? " bad" : "")\">\(themeRegressions)</td><td>\(trend(palette: palette.name, theme: theme.name, current: HistoryEntry.ThemePoint(fail: s.fail, regressions: comparison == nil ? nil : themeRegressions)))</td></tr>\n"
            }
            if palette.themes.isEmpty {
                out += "<tr><th scope=\"row\">\(palette.name)</th><td colspan=\"9\" class=\"verdict-fail\">\(palette.problems.count) problem(s): the palette could not be audited</td></tr>\n"
            }
        }
        out += "</tbody>\n</table></div>\n</section>\n"
        let triage = FailureTriage(report)
        out += triageSection(triage)
        let themes = max(1, report.palettes.reduce(0) { $0 + $1.themes.count })
        let budget = RowBudget(failing: max(Self.failingListedAtLeast, Self.failingListedInAll / themes),
                               passing: max(Self.passingListedInFull, Self.passingListedInAll / themes))
        for palette in report.palettes { out += section(palette, regressed: regressed, budget: budget) }
        out += "</main>\n<footer class=\"muted\"><p>Made by contrast. Text swatches show the sample at the check's font size; non-text checks show the element as a bar.</p></footer>\n</body>\n</html>\n"
        return out
    }

    /// The summary table's coverage cell: the share, with its count in the title.
    func coverageCell(_ coverage: Coverage?) -> HTML {
        guard let coverage else { return "<td class=\"num\"></td>" }
        guard let percent = coverage.percent else { return "<td class=\"num muted\">no colors</td>" }
        return "<td class=\"num\(coverage.measured == 0 ? " bad" : "")\" title=\"\(coverage.line)\">\(Coverage.format(percent))%</td>"
    }

    /// "Coverage: 12 of 40 color tokens measured (30%)", and the text-like and surface-like
    /// tokens no check measures, folded.
    func coverageNote(_ coverage: Coverage) -> HTML {
        var out: HTML = "<p class=\"muted coverage\">Coverage: \(coverage.line)</p>\n"
        guard let gaps = coverage.gapLine else { return out }
        out += "<details class=\"note coverage\"><summary>\(gaps)</summary><ul>\n"
        for (label, list) in [("Text", coverage.unmeasuredText), ("Surfaces", coverage.unmeasuredSurfaces)] where list.count > 0 {
            let more = list.count - (list.names?.count ?? 0)
            out += "<li>\(label) (\(list.count)): " + (list.names ?? []).map { name -> HTML in "<code>\(name)</code>" }.joined(separator: ", ")
            if more > 0 { out += ", … and \(more) more" }
            out += "</li>\n"
        }
        return out + "</ul></details>\n"
    }

    static func anchor(_ name: String) -> String {
        "palette-" + String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    /// Runs a trend shows: the last ones recorded, and this one.
    static let trendRuns = 30

    /// One theme's trend over the last runs that recorded it, and this run: its own numbers in
    /// text ("20 → 24 failing"), a line scaled to its own range (not from 0, so 39 → 43 is not
    /// drawn flat), each point's date and counts on hover (`<title>`) and, for screen readers,
    /// in a visually hidden list. A history line without the theme's counts gives no point.
    func trend(palette: String, theme: String, current: HistoryEntry.ThemePoint) -> HTML {
        var points: [(time: String, point: HistoryEntry.ThemePoint)] = []
        for entry in history.reversed() where points.count < Self.trendRuns - 1 {
            if let point = entry.themes?[palette]?[theme] { points.append((entry.time, point)) }
        }
        points.reverse()
        points.append((generated, current))
        guard points.count > 1, let first = points.first?.point.fail else { return "<span class=\"muted trend\">first run</span>" }
        func counts(_ p: HistoryEntry.ThemePoint) -> String {
            "\(p.fail) failing" + (p.regressions.map { ", \($0) regression\($0 == 1 ? "" : "s")" } ?? "")
        }
        let width = 120.0, height = 24.0
        let low = Double(points.map(\.point.fail).min() ?? 0), high = Double(points.map(\.point.fail).max() ?? 0)
        func y(_ value: Int) -> Double { high == low ? height / 2 : height - 3 - (Double(value) - low) / (high - low) * (height - 6) }
        func x(_ index: Int) -> Double { 3 + Double(index) / Double(points.count - 1) * (width - 6) }
        let line = points.indices.map { String(format: "%.1f,%.1f", x($0), y(points[$0].point.fail)) }.joined(separator: " ")
        var out: HTML = "<span class=\"trend\"><span class=\"trend-numbers\">\(first) → \(current.fail) failing</span> "
        out += "<svg aria-hidden=\"true\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\"><polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" points=\"\(line)\"/>"
        for (index, p) in points.enumerated() {
            out += "<circle cx=\"\(String(format: "%.1f", x(index)))\" cy=\"\(String(format: "%.1f", y(p.point.fail)))\" r=\"3\" fill=\"currentColor\"><title>\(p.time): \(counts(p.point))</title></circle>"
        }
        out += "</svg>"
        out += "<span class=\"visually-hidden\"> over \(points.count) runs, \(Int(low)) to \(Int(high)): " + points.map { p -> HTML in "\(p.time): \(counts(p.point))" }.joined(separator: "; ") + "</span></span>"
        return out
    }

    /// How many full rows of failing checks, and compact lines of passing ones, each theme
    /// lists: the report's totals shared among its themes, so the page is bounded at any scale
    /// (the rest is counted, and every check is in `audit.json`).
    struct RowBudget {
        var failing: Int
        var passing: Int
    }

    /// Failing checks listed in full over the whole page, shared among the themes.
    static let failingListedInAll = 1_000
    /// …but at least this many per theme.
    static let failingListedAtLeast = 25
    /// Passing checks listed (one line each, folded) over the whole page, shared among the themes.
    static let passingListedInAll = 2_000
    /// Rules and tokens the triage lists.
    static let triageRows = 10
    /// Entries of a palette's read ledger the page lists (the rest are counted).
    static let ledgerEntriesListed = 200

    /// Where the failures come from: the rules (a glob rule's expansions together) and the
    /// tokens that fail most, with their counts and themes.
    func triageSection(_ triage: FailureTriage) -> HTML {
        guard triage.failing > 0 else { return "" }
        func themeList(_ themes: [String], _ palette: String) -> HTML {
            let total = triage.themeCounts[palette] ?? 0
            if themes.count == total, total > 2 { return "all \(total) themes" }
            let shown = themes.prefix(5).joined(separator: ", ")
            return themes.count > 5 ? "\(shown) and \(themes.count - 5) more" : "\(shown)"
        }
        let many = Set(triage.rules.map(\.palette)).count > 1
        func named(_ palette: String, _ name: String) -> HTML { many ? "\(palette) › <code>\(name)</code>" : "<code>\(name)</code>" }
        var out: HTML = "<section aria-labelledby=\"triage\"><h2 id=\"triage\">Where the \(triage.failing) failures come from</h2>\n"
        out += "<div class=\"wide\"><table id=\"triage-rules\">\n<caption class=\"muted\">The rules and checks failing most (a rule's pairs together)</caption>\n<thead><tr><th scope=\"col\">Rule or check</th><th scope=\"col\" class=\"num\">Failing</th><th scope=\"col\" class=\"num\">Of</th><th scope=\"col\">Themes</th></tr></thead>\n<tbody>\n"
        for rule in triage.rules.prefix(Self.triageRows) {
            out += "<tr><th scope=\"row\">\(named(rule.palette, rule.name))</th><td class=\"num\">\(rule.failing)</td><td class=\"num\">\(rule.checks)</td><td>\(themeList(rule.themes, rule.palette))</td></tr>\n"
        }
        if triage.rules.count > Self.triageRows { out += "<tr><td colspan=\"4\" class=\"muted\">… and \(triage.rules.count - Self.triageRows) more rules</td></tr>\n" }
        out += "</tbody>\n</table></div>\n"
        out += "<div class=\"wide\"><table id=\"triage-tokens\">\n<caption class=\"muted\">The tokens failing most, as foreground or background, over every theme</caption>\n<thead><tr><th scope=\"col\">Token</th><th scope=\"col\" class=\"num\">Failing checks using it</th><th scope=\"col\">Themes</th></tr></thead>\n<tbody>\n"
        for token in triage.tokens.prefix(Self.triageRows) {
            out += "<tr><th scope=\"row\">\(named(token.palette, token.name))</th><td class=\"num\">\(token.failing)</td><td>\(themeList(token.themes, token.palette))</td></tr>\n"
        }
        if triage.tokens.count > Self.triageRows { out += "<tr><td colspan=\"3\" class=\"muted\">… and \(triage.tokens.count - Self.triageRows) more tokens</td></tr>\n" }
        return out + "</tbody>\n</table></div>\n</section>\n"
    }

    func section(_ palette: PaletteReport, regressed: Set<String>, budget: RowBudget = RowBudget(failing: .max, passing: .max)) -> HTML {
        var out: HTML = "<section aria-labelledby=\"\(Self.anchor(palette.name))\">\n<h2 id=\"\(Self.anchor(palette.name))\">\(palette.name)</h2>\n"
        if let description = palette.description { out += "<p>\(description)</p>\n" }
        if let source = palette.source { out += "<p class=\"muted\">Source: \(source)</p>\n" }
        if let ledger = palette.ledger {
            if ledger.notRead.isEmpty {
                out += "<p class=\"muted\">\(ledger.headline)</p>\n"
            } else {
                // The first entries; a theme file read many times over (Primer's 14, 12,000
                // entries) would otherwise be most of the page. audit.json holds every one.
                let shown = ledger.notRead.prefix(Self.ledgerEntriesListed)
                out += "<details class=\"note\"><summary><strong>\(ledger.headline)</strong></summary><ul>\n" + shown.map { entry -> HTML in
                    let place = [entry.file, entry.line.map(String.init), entry.column.map(String.init)].compactMap { $0 }.joined(separator: ":")
                    return "<li><code>\(place.isEmpty ? "" : place + ": ")\(entry.subject)</code>: \(entry.reason ?? "")</li>\n"
                }.joined() + "</ul>"
                if shown.count < ledger.notRead.count {
                    out += "<p class=\"muted\">… and \(ledger.notRead.count - shown.count) more entries, in <code>audit.json</code> (<code>ledger.notRead</code>).</p>"
                }
                out += "</details>\n"
            }
        }
        if let coverage = palette.coverage { out += coverageNote(coverage) }
        if !palette.problems.isEmpty {
            out += "<div class=\"note\" role=\"alert\"><strong>Problems</strong><ul>\n" + palette.problems.map { problem -> HTML in "<li><code>\(problem.description)</code></li>\n" }.joined() + "</ul></div>\n"
        }
        if let warnings = palette.warnings, !warnings.isEmpty {
            out += "<details class=\"note\"><summary><strong>Warnings</strong> (\(warnings.count): read, but worth a look)</summary><ul>\n" + warnings.map { warning -> HTML in "<li><code>\(warning.description)</code></li>\n" }.joined() + "</ul></details>\n"
        }
        if !palette.assumptions.isEmpty {
            out += "<div class=\"note\"><strong>Assumptions</strong> (values the source does not give)<ul>\n"
            for a in palette.assumptions {
                let subject: HTML = a.token.map { token -> HTML in "token <code>\(token)</code>" } ?? a.check.map { check -> HTML in "check <code>\(check)</code>" } ?? "value"
                let value: HTML = a.value.map { value -> HTML in " = <code>\(value)</code>" } ?? ""
                out += "<li>\(subject)\(value): \(a.reason)</li>\n"
            }
            out += "</ul></div>\n"
        }
        out += sideBySide(palette)
        for theme in palette.themes {
            out += "<h3 id=\"\(Self.anchor(palette.name))-\(theme.name)\">Theme \(theme.name) <span class=\"muted\">· \(theme.summary.line)</span></h3>\n"
            if let coverage = theme.coverage { out += coverageNote(coverage) }
            let failing = theme.results.filter { $0.verdict == .fail }
            let rest = theme.results.filter { $0.verdict != .fail }
            let header: HTML = "<thead><tr><th scope=\"col\">Sample</th><th scope=\"col\">Check</th><th scope=\"col\">Colors</th><th scope=\"col\" class=\"num\">Ratio</th><th scope=\"col\" class=\"num\">APCA Lc</th><th scope=\"col\">Level reached</th><th scope=\"col\">Verdict</th></tr></thead>\n<tbody>\n"
            func fullRows(_ results: [CheckResult]) -> HTML {
                results.map { r -> HTML in row(r, theme: theme.name, regressed: regressed.contains("\(palette.name)/\(theme.name)/\(r.id)")) }.joined()
            }
            /// A table of full rows, that the browser lays out only when scrolled near
            /// (``lazyBlock(height:)``); a long one in blocks of ``chunkRows`` rows, each its own
            /// table.
            func table(_ caption: String, _ results: [CheckResult]) -> HTML {
                guard results.count > Self.chunkRows else {
                    return Self.lazyBlock(height: results.count * Self.rowHeight + 80) + "<div class=\"wide\"><table>\n<caption class=\"muted\">\(caption)</caption>\n" + header + fullRows(results) + "</tbody>\n</table></div></div>\n"
                }
                var out: HTML = ""
                for start in stride(from: 0, to: results.count, by: Self.chunkRows) {
                    let end = min(results.count, start + Self.chunkRows)
                    out += "<div class=\"chunk\"><div class=\"wide\"><table class=\"checks\">\n<caption class=\"muted\">\(caption), \(start + 1)–\(end) of \(results.count)</caption>\n"
                    out += header + fullRows(Array(results[start..<end])) + "</tbody>\n</table></div></div>\n"
                }
                return out
            }
            // Regressions first among the failures, then the document's order; past the
            // theme's share of the page the rest are counted.
            let failingListed = Array((failing.filter { regressed.contains("\(palette.name)/\(theme.name)/\($0.id)") } + failing.filter { !regressed.contains("\(palette.name)/\(theme.name)/\($0.id)") }).prefix(budget.failing))
            let failingLeft = failing.count - failingListed.count
            if rest.count <= Self.passingListedInFull && failingLeft == 0 {
                out += table("Checks of \(palette.name) in \(theme.name), failures first", failing + rest)
            } else {
                // At scale the page grows with failures, not with passing checks: those are one
                // line each, folded (the audit JSON keeps every detail).
                if !failingListed.isEmpty {
                    out += table("Failing checks of \(palette.name) in \(theme.name)", failingListed)
                }
                if failingLeft > 0 {
                    out += "<p class=\"note more\" data-more-failing=\"\(failingLeft)\">… and \(failingLeft) more failing checks in \(theme.name), not listed here to keep the page light: every one is in <code>audit.json</code>, and the triage above says where they come from.</p>\n"
                }
                let passingListed = rest.prefix(budget.passing)
                out += "<details class=\"passing\"><summary>\(rest.count) checks that pass or are exempt in \(theme.name)\(passingListed.count < rest.count ? " (the first \(passingListed.count) listed)" : "")</summary>\n<div class=\"wide\"><table class=\"compact\">\n<thead><tr><th scope=\"col\">Check</th><th scope=\"col\">Colors</th><th scope=\"col\">Ratio</th></tr></thead>\n<tbody>\n"
                for r in passingListed { out += compactRow(r) }
                out += "</tbody>\n</table></div>\n"
                if passingListed.count < rest.count { out += "<p class=\"muted\">… and \(rest.count - passingListed.count) more, in <code>audit.json</code>.</p>\n" }
                out += "</details>\n"
            }
            out += grid(theme)
            out += groupSwatches(theme, palette: palette.name)
        }
        return out + "</section>\n"
    }

    /// Each group that must stay distinguishable (a `distinct` check, the badges), its members'
    /// swatches in normal vision and as each deficiency simulates them.
    func groupSwatches(_ theme: ThemeReport, palette: String) -> HTML {
        var order: [String] = []
        var members: [String: [(name: String, color: SRGB)]] = [:]
        for r in theme.results where r.kind == .distinct {
            let group = String(r.id.prefix { $0 != "[" })
            if members[group] == nil { order.append(group) }
            for c in [r.foreground, r.background] where !(members[group] ?? []).contains(where: { $0.name == c.reference }) {
                let color = c.color.isOpaque ? c.color : c.color.composited(over: .white)
                members[group, default: []].append((c.reference, color))
            }
        }
        guard !order.isEmpty else { return "" }
        let visions: [(String, ColorVisionDeficiency?)] = [("normal vision", nil)] + (ColorVisionDeficiency.audited + [.achromatopsia]).map { ($0.name, $0) }
        var out: HTML = ""
        for group in order {
            let list = members[group] ?? []
            out += "<div class=\"wide\"><table class=\"groups\">\n<caption class=\"muted\">Group \(group) of \(palette) in \(theme.name), as each vision sees it</caption>\n<thead><tr><th scope=\"col\">Vision</th>"
            for m in list { out += "<th scope=\"col\"><code>\(m.name)</code></th>" }
            out += "</tr></thead>\n<tbody>\n"
            for (name, deficiency) in visions {
                out += "<tr><th scope=\"row\">\(name)</th>"
                for m in list {
                    let seen = deficiency.map { $0.simulate(m.color) } ?? m.color
                    out += "<td><span class=\"chip\" style=\"background:\(seen.hex)\" role=\"img\" aria-label=\"\(m.name) as \(seen.hex)\"></span> \(seen.hex)</td>"
                }
                out += "</tr>\n"
            }
            out += "</tbody>\n</table></div>\n"
        }
        return out
    }

    /// Rows per block of a long table of full rows. Laying out 3,000 full rows took headless
    /// Chromium ~1.5 s; in blocks that are laid out when scrolled near, the page loads in a
    /// fraction of that (bench/report_scale.py).
    static let chunkRows = 100
    /// About the height of a full row (a swatch, the check's lines, its fixes; 170–190 px in a
    /// window 1,280 px wide at Primer's scale), in CSS pixels:
    /// what a block of rows reserves before it is laid out.
    static let rowHeight = 160
    /// A theme with more passing (or exempt) checks than this lists them folded, one line each.
    static let passingListedInFull = 150
    /// More checks than this in a palette: the side-by-side table shows only those failing in
    /// some theme.
    static let sideBySideInFull = 300
    /// A text × surface grid with more cells than this is left out (the tables list each pair).
    static let gridCells = 2_500

    /// A passing or exempt check in one line: its id, colors and ratio. The optional end tags
    /// of cells and rows are left out (HTML allows it), a third of the bytes at this scale.
    func compactRow(_ r: CheckResult) -> HTML {
        let (fg, bg) = colors(r)
        let exempt: HTML = r.verdict == .pass ? "" : " <span class=\"muted\">\(r.verdict.rawValue)</span>"
        return "<tr><td>\(r.id)<td>\(fg) \(r.distinction == nil ? "on" : "vs") \(bg)<td>\(r.measuredShort)\(exempt)\n"
    }

    func colors(_ r: CheckResult) -> (String, String) {
        (r.composited?.foreground ?? String(r.foreground.hex.prefix(7)), r.composited?.background ?? String(r.background.hex.prefix(7)))
    }

    /// How a specimen paints the pair so that it shows what is measured: a translucent
    /// foreground with its own alpha over the background it is measured on (the background
    /// composited over its backdrop; over an unknown backdrop, the translucent background over
    /// the worst backdrop, the case the ratio is of), which the browser composites as the audit
    /// does (source-over on sRGB channels). Opaque pairs are painted as they are.
    func painted(_ r: CheckResult) -> (String, String) {
        let (fg, bg) = colors(r)
        let ownForeground = r.foreground.hex.count == 9 ? r.foreground.hex : fg
        if r.composited == nil, let range = r.range, r.background.hex.count == 9 {
            return (ownForeground, "linear-gradient(\(r.background.hex),\(r.background.hex)),\(range.worstBackdrop)")
        }
        return (ownForeground, bg)
    }

    func sample(_ r: CheckResult, foreground measuredForeground: String, background measuredBackground: String) -> HTML {
        var label = "\(measuredForeground) \(r.distinction == nil ? "on" : "vs") \(measuredBackground), \(r.measuredShort)"
        if r.composited != nil {
            label = "\(r.foreground.hex) on \(r.background.hex), drawn as \(label)"
        } else if let range = r.range, r.background.hex.count == 9 {
            label = "\(r.foreground.hex) on \(r.background.hex) over \(range.worstBackdrop), the worst backdrop, \(r.measuredShort)"
        }
        let (foreground, background) = painted(r)
        if r.usage == .nonText || r.kind == .badgeBorder {
            return "<span class=\"swatch\" style=\"background:\(background)\" role=\"img\" aria-label=\"\(label)\"><span class=\"bar\" style=\"background:\(foreground)\"></span></span>"
        }
        if r.kind == .badge {
            return "<span class=\"badge\" style=\"color:\(foreground);background:\(background)\" role=\"img\" aria-label=\"\(label)\" data-sample=\"\(String(r.id.dropFirst("badge:".count)))\"></span>"
        }
        let size = r.fontSize.flatMap { FontSize(parsing: $0) }.map { String(format: "%.0fpx", min($0.pixels, 48)) } ?? (r.usage == .largeText ? "24px" : "16px")
        let weight = r.fontWeight.map { ";font-weight:\($0)" } ?? ""
        return "<span class=\"swatch\" style=\"color:\(foreground);background:\(background);font-size:\(size)\(weight)\" role=\"img\" aria-label=\"\(label)\" data-sample=\"Sample text\"></span>"
    }

    func row(_ r: CheckResult, theme: String, regressed: Bool) -> HTML {
        let (fg, bg) = colors(r)
        let regressedAttribute: HTML = regressed ? " data-regressed=\"true\"" : ""
        var out: HTML = "<tr data-check=\"\(r.id)\" data-theme=\"\(theme)\" data-verdict=\"\(r.verdict.rawValue)\"\(regressedAttribute)>"
        if let d = r.distinction {
            out += "<td><span class=\"chip\" style=\"background:\(fg)\" role=\"img\" aria-label=\"\(fg)\"></span><span class=\"chip\" style=\"background:\(bg)\" role=\"img\" aria-label=\"\(bg)\"></span>"
            if let simulated = d.simulated, let deficiency = d.deficiency {
                out += "<br><span class=\"chip\" style=\"background:\(simulated.foreground)\" role=\"img\" aria-label=\"\(simulated.foreground) under \(deficiency)\"></span><span class=\"chip\" style=\"background:\(simulated.background)\" role=\"img\" aria-label=\"\(simulated.background) under \(deficiency)\"></span> <span class=\"muted\">\(deficiency)</span>"
            }
            out += "</td>"
        } else {
            out += "<td>\(sample(r, foreground: fg, background: bg))</td>"
        }
        let need: HTML = r.distinction == nil && r.required == nil ? " · exempt" : " · needs \(r.needsShort)"
        let basis: HTML = r.distinction != nil ? "distinguishable" : r.technique.map { t -> HTML in "\(t) · \(r.level.name)" } ?? "\(r.usage.name) \(r.level.name)"
        var what: HTML = "<strong>\(r.id)</strong><br><span class=\"muted\">\(basis)\(r.criterion.map { " · SC \($0)" } ?? "")\(need)</span>"
        if let d = r.description { what += "<br><span class=\"muted\">\(d)</span>" }
        out += "<td>\(what)</td>"
        out += "<td>\(colorEntry(r.foreground, chip: fg, measured: r.composited?.foreground))<br>\(colorEntry(r.background, chip: bg, measured: r.composited?.background))</td>"
        let range: HTML = r.range.map { range -> HTML in "<br><span class=\"muted\">to \(RatioFormat.display(range.best)) by backdrop</span>" } ?? ""
        let gradient: HTML = r.gradient.map { g -> HTML in "<br><span class=\"muted\">gradient (\(g.interpolation)): worst at \(Auditor.percent(g.worst.position)), best \(g.best.display) at \(Auditor.percent(g.best.position))</span>" } ?? ""
        if let d = r.distinction {
            let simulated: HTML = d.simulatedDifference.map { v -> HTML in "<br><span class=\"muted\">\(Auditor.format1(v)) under \(d.deficiency ?? "")</span>" } ?? ""
            out += "<td class=\"num\">\(d.metric) \(Auditor.format1(d.difference))\(simulated)</td>"
        } else {
            let lc: HTML = r.apcaRequired.map { required -> HTML in "<br><span class=\"muted\">Lc \(Auditor.formatLc(r.apca)) (needs Lc \(CSSNumber.format(required)))</span>" } ?? ""
            out += "<td class=\"num\">\(r.display)\(lc)\(range)\(gradient)</td>"
        }
        out += "<td class=\"num\">\(Auditor.formatLc(r.apca))</td><td>\(r.achieved.name)</td>"
        var verdict: HTML = "<span class=\"verdict-\(r.verdict.rawValue)\">\(r.verdict.rawValue.uppercased())</span>"
        if regressed { verdict += " <strong class=\"verdict-fail\">regressed</strong>" }
        for reason in r.reasons ?? [] { verdict += "<br><span class=\"muted\">\(reason)</span>" }
        if let claim = r.claim, !claim.supported { verdict += "<br><strong>False claim:</strong> \(claim.message)" }
        for a in r.assumed ?? [] { verdict += "<br><span class=\"muted\">Assumed: \(a)</span>" }
        for note in r.deprecations { verdict += "<br><strong>Deprecated:</strong> \(note)" }
        if let warning = r.colorVisionWarning { verdict += "<br><strong>Color vision:</strong> \(warning)" }
        if let s = r.suggestions { verdict += fixes(s, fg: fg, bg: bg, in: r, theme: theme) }
        out += "<td>\(verdict)</td></tr>\n"
        return out
    }

    /// One color of a row's Colors column: a chip (`chip`, its color), its token and its value.
    /// A translucent color's chip shows its own alpha over a checkerboard, followed by the opaque
    /// color it is measured as when the audit composited it over what is behind it (`measured`;
    /// over an unknown backdrop the Ratio column gives the range), so the chip neither hides the
    /// alpha nor passes the composite off as the token's value.
    func colorEntry(_ c: ResolvedColor, chip: String, measured: String?) -> HTML {
        let named: HTML = c.reference.lowercased() == c.hex ? "<code>\(c.hex)</code>" : "<code>\(c.reference)</code> \(c.hex)"
        guard c.hex.count == 9 else {
            return "<span class=\"chip\" style=\"background:\(chip)\" aria-hidden=\"true\"></span>\(named)"
        }
        let drawn: HTML = measured.map { " <span class=\"muted\">measured as \($0)</span>" } ?? ""
        return "<span class=\"chip translucent\" style=\"background:linear-gradient(\(c.hex),\(c.hex)),var(--checker)\" aria-hidden=\"true\"></span>\(named)\(drawn)"
    }

    func fixes(_ s: Suggestions, fg: String, bg: String, in r: CheckResult, theme: String) -> HTML {
        var parts: [HTML] = []
        // Each swatch names its fix (`data-fix`): inert in the report; on the designers' page, a
        // one-click fix, applied from the result's `fixes` in the audit JSON.
        func swatch(_ f: String, _ b: String, _ text: String, kind: String) -> HTML {
            let applicable: HTML = r.fixes?.contains { $0.kind == kind } == true ? " data-fix=\"\(kind)\"" : ""
            // Specimens are drawn as generated content (`data-sample`): a checker of the page's
            // own text contrast (axe-core) does not take a failing pair's sample for page text.
            return "<span class=\"swatch fix\" style=\"color:\(f);background:\(b)\"\(applicable) data-sample=\"\(text)\"></span>"
        }
        if let f = s.foreground.first {
            parts.append("text \(swatch(f.hex, bg, "\(f.hex) \(f.display)", kind: "foreground"))")
        }
        if let b = s.background.first {
            parts.append("background \(swatch(fg, b.hex, "\(b.hex) \(b.display)", kind: "background"))")
        }
        if let both = s.both {
            parts.append("both \(swatch(both.foreground.hex, both.background.hex, "\(both.foreground.hex) on \(both.background.hex)", kind: "both"))")
        }
        var out: HTML = "<div class=\"fixes\">Nearest passing: " + (parts.isEmpty ? "none of these hues" : parts.joined(separator: " ")) + "</div>"
        for note in s.notes ?? [] { out += "<div class=\"fixes muted\">\(note)</div>" }
        return out
    }

    /// Every check in every theme, one column per theme, so light and dark can be compared at a
    /// glance (only for palettes with more than one theme).
    func sideBySide(_ palette: PaletteReport) -> HTML {
        guard palette.themes.count > 1 else { return "" }
        var ids: [String] = []
        var seen: Set<String> = []
        for theme in palette.themes { for r in theme.results where seen.insert(r.id).inserted { ids.append(r.id) } }
        let anchor = Self.anchor(palette.name)
        var caption: HTML = "Themes side by side: each check as it looks in each theme"
        let atScale = ids.count > Self.sideBySideInFull
        if atScale {
            let failingSomewhere = Set(palette.themes.flatMap { $0.results.filter { $0.verdict == .fail }.map(\.id) })
            let left = ids.count - ids.filter(failingSomewhere.contains).count
            ids = ids.filter(failingSomewhere.contains)
            caption = "Themes side by side: each check that fails in some theme (\(left) that pass in every theme are counted under each theme)"
            if ids.count > Self.sideBySideInFull {
                caption += "; the first \(Self.sideBySideInFull) of \(ids.count), the rest in audit.json"
                ids = Array(ids.prefix(Self.sideBySideInFull))
            }
        }
        var out: HTML = Self.lazyBlock(height: ids.count * 64 + 120) + "<div class=\"side-by-side\" id=\"\(anchor)-side-by-side\">\n<table>\n<caption class=\"muted\">\(caption)</caption>\n<thead><tr><th scope=\"col\">Check</th>"
        for theme in palette.themes { out += "<th scope=\"col\">\(theme.name)</th>" }
        out += "</tr></thead>\n<tbody>\n"
        let byTheme = palette.themes.map { theme in Dictionary(theme.results.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) }
        for id in ids {
            out += "<tr data-check=\"\(id)\"><th scope=\"row\">\(id)</th>"
            for results in byTheme {
                guard let r = results[id] else { out += "<td class=\"muted\">not checked</td>"; continue }
                let (fg, bg) = colors(r)
                let swatch: HTML = atScale ? "" : sample(r, foreground: fg, background: bg) + " "
                out += "<td>\(swatch)<span class=\"verdict-\(r.verdict.rawValue)\">\(r.measuredShort) \(r.verdict.rawValue.uppercased())</span></td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table>\n</div></div>\n"
    }

    /// Text tokens × surface tokens of a theme as a colored grid of the level each pair reaches.
    func grid(_ theme: ThemeReport) -> HTML {
        var texts: [(String, String)] = [], surfaces: [(String, String)] = []
        var seenTexts: Set<String> = [], seenSurfaces: Set<String> = []
        for r in theme.results where r.usage == .text || r.usage == .largeText {
            if let t = r.foreground.token, r.foreground.color.isOpaque, seenTexts.insert(t).inserted { texts.append((t, r.foreground.hex)) }
            if let t = r.background.token, r.background.color.isOpaque, seenSurfaces.insert(t).inserted { surfaces.append((t, r.background.hex)) }
        }
        guard !texts.isEmpty, !surfaces.isEmpty else { return "" }
        guard texts.count * surfaces.count <= Self.gridCells else {
            return "<p class=\"muted\">No text × surface grid: \(texts.count) text tokens × \(surfaces.count) surface tokens is more than \(Self.gridCells) cells; the tables above list every checked pair.</p>\n"
        }
        var out: HTML = Self.lazyBlock(height: texts.count * 36 + 160) + "<div class=\"wide\"><table class=\"grid\">\n<caption class=\"muted\">Text tokens (rows) on surface tokens (columns): the level each pair reaches</caption>\n<thead><tr><th scope=\"col\">Text \\ Surface</th>"
        for (name, _) in surfaces { out += "<th scope=\"col\"><code>\(name)</code></th>" }
        out += "</tr></thead>\n<tbody>\n"
        for (name, hex) in texts {
            out += "<tr><th scope=\"row\"><code>\(name)</code></th>"
            for (_, surfaceHex) in surfaces {
                let f = (try? SRGB(css: hex)) ?? .black, b = (try? SRGB(css: surfaceHex)) ?? .white
                let ratio = f.contrastRatio(with: b)
                out += "<td style=\"color:\(hex);background:\(surfaceHex)\" aria-label=\"\("\(name) on \(surfaceHex): \(RatioFormat.display(ratio)), \(AchievedLevel(ratio: ratio).name)")\" data-sample=\"\(AchievedLevel(ratio: ratio).name)&#10;\(RatioFormat.floored(ratio))\"></td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table></div></div>\n"
    }

    /// The opening of a block (closed by `</div>`) that the browser lays out only when it is
    /// scrolled near, holding about `height` CSS pixels until then (CSS `content-visibility`,
    /// no script): at Primer's 14 themes, laying out every theme's tables and grid as the page
    /// loaded took the load from ~0.5 s to ~1.3 s (bench/primer_report.py).
    static func lazyBlock(height: Int) -> HTML {
        "<div class=\"chunk\" style=\"contain-intrinsic-size: auto \(height)px\">"
    }
}

extension Baseline {
    /// A baseline from remembered entries (a history line).
    public init(entries: [String: BaselineEntry]) {
        self.init(AuditReport(palettes: []))
        self.entries = entries
    }
}
