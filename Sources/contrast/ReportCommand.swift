import ArgumentParser
import Foundation
import PaletteAudit
import TokenSources

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the audit report of every theme of every palette: HTML for people, JSON for machines.",
        discussion: """
            Writes DIR/index.html (one self-contained page: no scripts, fonts or images from anywhere), DIR/audit.json (the audit model) and DIR/summary.md (for chat or a pull request). With --history, each run appends its summary to a JSON Lines file (atomically: an interrupted run never corrupts it; the last --history-runs runs are kept, 400 by default), and the report shows the regressions since the previous run and a trend per theme.

            Exit status as audit: with a history, 1 on regressions since the previous run; without, 1 on failures; 1 below --min-coverage; 2 for bad input, or for a palette with color tokens and no checks (unless --allow-empty). Without --checks, contrast.checks.json beside the tokens is used, as audit does.

            Examples:
              contrast report palettes/ --out report/ --history report-history.jsonl
              0 3 * * * cd /srv/design && contrast report palettes/ --out /var/www/contrast --history /var/lib/contrast/history.jsonl
            """
    )

    @OptionGroup var sources: SourceOptions
    @Option(help: "The directory to write the report into (created when missing).") var out: String
    @Option(help: "A JSON Lines file of earlier runs, appended to.") var history: String?
    @Option(help: ArgumentHelp("Runs the history keeps: appending past it drops the oldest, so the file stays bounded.", valueName: "N")) var historyRuns: Int = ReportHistory.defaultRuns
    @Option(help: "The report's title.") var title: String = "Contrast audit"
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var limit: DeadlineOption

    func validate() throws {
        guard historyRuns >= 1 else { throw ValidationError("--history-runs must be at least 1 (got \(historyRuns))") }
    }

    func run() throws {
        try limit.run("reading and auditing \(sources.paths.joined(separator: ", "))") { deadline in try produce(deadline) }
    }

    func produce(_ deadline: RunDeadline?) throws {
        var report = AuditRun.audit(paths: sources.paths, themes: sources.themeFilter, checks: sources.checks,
                                    threads: ProcessInfo.processInfo.activeProcessorCount, idiom: sources.idiom,
                                    ignoredProperties: sources.ignoredProperties, cvdPolicy: sources.cvdPolicy,
                                    maximumChecks: max(1, sources.maxPairs), referenceRoot: sources.root)
        try deadline?.check()
        var history = ReportHistory()
        if let path = self.history {
            switch ReportHistory.read(path: path) {
            case .success(let read): history = read
            case .failure(let problem): throw InputError(.unreadableFile, "\(problem)")
            }
            for warning in history.warnings { Terminal.writeError("warning: \(warning)") }
        }
        report.comparison = history.comparison(with: report)
        // With a history, the run fails on regressions since the previous one; its first run has
        // nothing to regress from.
        let outcome = policy.policy(failOn: self.history == nil ? nil : .regressions, comparesWithBaseline: self.history != nil,
                                    paths: sources.paths).judge(report)
        report.outcome = outcome
        try deadline?.check()
        deadline?.now("writing the report into \(out)")
        let now = ISO8601DateFormatter().string(from: Date())
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw InputError(.unwritableFile, "cannot create \(out): \(error.localizedDescription)")
        }
        let directory = URL(fileURLWithPath: out)
        let html = HTMLReport(title: title, generated: now, history: history.entries).render(report)
        try Terminal.emit(html, to: directory.appendingPathComponent("index.html").path)
        try Terminal.emitPieces(to: directory.appendingPathComponent("audit.json").path, report.writeTablesJSON)
        try Terminal.emit(MarkdownRenderer.render(report, title: title), to: directory.appendingPathComponent("summary.md").path)
        if let path = self.history {
            // The whole file is written beside the old one and renamed over it: atomic.
            try Terminal.emit(Data(try history.appending(HistoryEntry(time: now, report: report), keeping: historyRuns)), to: path)
        }
        print("wrote \(out)/index.html, \(out)/audit.json, \(out)/summary.md: \(report.summary.line)")
        for file in report.checksFiles ?? [] where file.origin == ChecksFile.found { print(file.line) }
        if !report.palettes.isEmpty { print("coverage: \(report.coverage.line)" + (report.coverage.gapLine.map { "; \($0)" } ?? "")) }
        if let path = self.history, report.comparison == nil {
            print("no earlier run in \(path): this run is the first, and the next compares with it (\(report.summary.fail) failing now)")
        }
        if let comparison = report.comparison {
            print("since the previous run: \(comparison.regressions.count) regression(s), \(comparison.improvements.count) improvement(s)")
            for change in comparison.regressions { print("  regressed  \(change.message)") }
        }
        for problem in report.problems { Terminal.writeErrorLine("\(problem)") }
        try outcome.exit()
    }
}
