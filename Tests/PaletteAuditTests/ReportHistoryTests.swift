import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// ``ReportHistory``: `contrast report --history`'s read, comparison and append.
@Suite struct ReportHistoryTests {
    func report(_ palette: String) throws -> AuditReport {
        let (decoded, problems) = PaletteDecoder.decode(palette, file: "p.json")
        return AuditReport(palettes: [Auditor().audit(try #require(decoded), problems: problems)])
    }

    static let passing = ##"{"name": "p", "themes": {"light": {"tokens": {"fg": "#000000", "bg": "#ffffff"}}}, "checks": [{"id": "body", "foreground": "fg", "background": "bg"}]}"##
    static let failing = ##"{"name": "p", "themes": {"light": {"tokens": {"fg": "#999999", "bg": "#ffffff"}}}, "checks": [{"id": "body", "foreground": "fg", "background": "bg"}]}"##

    @Test func appendedRunsReadBackAndTheLastIsComparedWith() throws {
        var history = ReportHistory()
        #expect(history.comparison(with: try report(Self.passing)) == nil)
        let first = try history.appending(HistoryEntry(time: "2026-01-01T00:00:00Z", report: try report(Self.passing)))
        #expect(first.last == 0x0A && first.filter { $0 == 0x0A }.count == 1)
        history = ReportHistory(bytes: first, file: "h.jsonl")
        #expect(history.entries.map(\.time) == ["2026-01-01T00:00:00Z"] && history.warnings.isEmpty)
        let comparison = try #require(history.comparison(with: try report(Self.failing)))
        #expect(comparison.regressions.map(\.key) == ["p/light/body"])
        let second = try history.appending(HistoryEntry(time: "2026-01-02T00:00:00Z", report: try report(Self.failing)))
        let read = ReportHistory(bytes: second, file: "h.jsonl")
        #expect(read.entries.map(\.time) == ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"] && read.warnings.isEmpty)
        // Only the last line keeps the checks; the run before keeps its summary and its themes.
        #expect(read.entries[0].checks == nil && read.entries[1].checks?.keys.sorted() == ["p/light/body"])
        #expect(read.entries[0].summary.fail == 0 && read.entries[0].themes?["p"]?["light"]?.fail == 0)
        // The next run is compared with the last: fixed since, nothing regressed.
        let third = try #require(read.comparison(with: try report(Self.passing)))
        #expect(third.regressions.isEmpty && third.improvements.map(\.key) == ["p/light/body"])
    }

    /// Issue #51: every earlier line is its summary and per-theme counts, so a history of many
    /// runs of many checks grows by a few hundred bytes a run, not by the checks.
    @Test func earlierRunsDropTheirChecks() throws {
        let checks = (0..<300).map { "{\"id\": \"c\($0)\", \"foreground\": \"fg\", \"background\": \"bg\"}" }.joined(separator: ", ")
        let large = try report("{\"name\": \"p\", \"themes\": {\"light\": {\"tokens\": {\"fg\": \"#999999\", \"bg\": \"#ffffff\"}}}, \"checks\": [\(checks)]}")
        var history = ReportHistory()
        var lastLine = 0
        for night in 1...20 {
            let entry = HistoryEntry(time: "t\(night)", report: large)
            lastLine = try ReportHistory().appending(entry).count
            history = ReportHistory(bytes: try history.appending(entry), file: "h.jsonl")
        }
        #expect(history.entries.count == 20 && history.entries.dropLast().allSatisfy { $0.checks == nil })
        #expect(history.entries.last?.checks?.count == 300)
        let earlier = history.bytes.count - lastLine
        #expect(lastLine > 300 * 40 && earlier < 19 * 1_000, "19 earlier runs: \(earlier) bytes; the last: \(lastLine)")
    }

    /// A line that is not an entry is skipped with a warning naming its real line number
    /// (blank lines count); a file without a final newline gets one before the next run.
    @Test func badLinesAreSkippedWithTheirLineNumbers() throws {
        let entry = try ReportHistory().appending(HistoryEntry(time: "t1", report: try report(Self.passing)))
        let text = Array("\n".utf8) + entry + Array("{\"time\": 3}\n\nnot json".utf8)
        let history = ReportHistory(bytes: text, file: "h.jsonl")
        #expect(history.entries.map(\.time) == ["t1"])
        #expect(history.warnings.count == 2)
        #expect(history.warnings[0].hasPrefix("h.jsonl:3: not a history entry, skipped"))
        #expect(history.warnings[1].hasPrefix("h.jsonl:5: not a history entry, skipped"))
        let appended = try history.appending(HistoryEntry(time: "t2", report: try report(Self.passing)))
        // The lines that are not entries are kept as they were, the blank line before included;
        // the run that was last is written again without its checks.
        var stripped = history.entries[0]
        stripped.checks = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(appended.starts(with: Array("\n".utf8) + (try encoder.encode(stripped)) + Array("\n{\"time\": 3}\n\nnot json\n".utf8)))
        #expect(ReportHistory(bytes: appended, file: "h.jsonl").entries.map(\.time) == ["t1", "t2"])
    }

    @Test func aMissingFileIsAnEmptyHistoryAndADirectoryIsAProblem() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-history-\(getpid()).jsonl").path
        #expect(try ReportHistory.read(path: missing).get().entries.isEmpty)
        guard case .failure(let problem) = ReportHistory.read(path: FileManager.default.temporaryDirectory.path) else {
            Issue.record("a directory read as a history")
            return
        }
        #expect(problem.code == .unreadableFile)
    }

    /// A palette of three checks in two themes; the first `light` checks fail in light and the
    /// first `dark` in dark.
    static func themes(light: Int, dark: Int) -> String {
        func tokens(_ failing: Int) -> String {
            (0..<3).map { "\"fg\($0)\": \"\($0 < failing ? "#999999" : "#000000")\"" }.joined(separator: ", ") + ", \"bg\": \"#ffffff\""
        }
        let checks = (0..<3).map { "{\"id\": \"c\($0)\", \"foreground\": \"fg\($0)\", \"background\": \"bg\"}" }.joined(separator: ", ")
        return "{\"name\": \"p\", \"themes\": {\"light\": {\"tokens\": {\(tokens(light))}}, \"dark\": {\"tokens\": {\(tokens(dark))}}}, \"checks\": [\(checks)]}"
    }

    /// The row of `theme` in the page's summary table.
    static func row(_ html: String, _ theme: String) throws -> String {
        let start = try #require(html.range(of: "<tr data-palette=\"p\" data-theme=\"\(theme)\">"))
        return String(html[start.lowerBound...].prefix { $0 != "\n" })
    }

    /// Issue #51 §3: each theme's row shows its own trend, not its palette's: its own numbers
    /// in text, each run's date and counts on hover and for screen readers.
    @Test func eachThemeRowShowsItsOwnTrend() throws {
        var history = ReportHistory()
        for (time, light, dark) in [("2026-01-01T03:00:00Z", 3, 0), ("2026-01-02T03:00:00Z", 2, 2)] {
            var night = try report(Self.themes(light: light, dark: dark))
            night.comparison = history.comparison(with: night)
            history = ReportHistory(bytes: try history.appending(HistoryEntry(time: time, report: night)), file: "h.jsonl")
        }
        #expect(history.entries.last?.themes?["p"]?["dark"] == HistoryEntry.ThemePoint(fail: 2, regressions: 2))
        #expect(history.entries.first?.themes?["p"]?["light"] == HistoryEntry.ThemePoint(fail: 3, regressions: nil))
        var now = try report(Self.themes(light: 1, dark: 1))
        now.comparison = history.comparison(with: now)
        let html = HTMLReport(title: "t", generated: "2026-01-03T03:00:00Z", history: history.entries).render(now)
        let light = try Self.row(html, "light"), dark = try Self.row(html, "dark")
        #expect(light.contains("3 → 1 failing") && dark.contains("0 → 1 failing"), "\(light)\n\(dark)")
        #expect(light.contains("<title>2026-01-01T03:00:00Z: 3 failing</title>"))
        #expect(light.contains("<title>2026-01-02T03:00:00Z: 2 failing, 0 regressions</title>"))
        #expect(dark.contains("<title>2026-01-02T03:00:00Z: 2 failing, 2 regressions</title>"))
        #expect(dark.contains("<title>2026-01-03T03:00:00Z: 1 failing, 0 regressions</title>"))
        #expect(dark.contains("<span class=\"visually-hidden\"> over 3 runs, 0 to 2: 2026-01-01T03:00:00Z: 0 failing; 2026-01-02T03:00:00Z: 2 failing, 2 regressions; 2026-01-03T03:00:00Z: 1 failing, 0 regressions</span>"))
        #expect(dark.contains("<svg aria-hidden=\"true\""))
    }

    /// The line is scaled to the row's own range (39 → 43 is not drawn flat against 0), and a
    /// line written before themes were recorded gives the theme no point, not its palette's.
    @Test func aTrendIsScaledToItsOwnRangeAndOldLinesGiveNoPoint() throws {
        func entry(_ time: String, _ light: Int?) throws -> HistoryEntry {
            var entry = HistoryEntry(time: time, report: try report(Self.passing))
            entry.failures = ["p": 50]
            entry.themes = light.map { ["p": ["light": HistoryEntry.ThemePoint(fail: $0, regressions: 0)]] }
            return entry
        }
        let page = HTMLReport(title: "t", generated: "t3", history: [try entry("t0", nil), try entry("t1", 39), try entry("t2", 41)])
        let trend = page.trend(palette: "p", theme: "light", current: HistoryEntry.ThemePoint(fail: 43, regressions: 1)).text
        #expect(trend.contains("39 → 43 failing") && !trend.contains("50") && !trend.contains("t0"), "\(trend)")
        #expect(trend.contains("points=\"3.0,21.0 60.0,12.0 117.0,3.0\""), "\(trend)")
        #expect(trend.contains("<title>t3: 43 failing, 1 regression</title>"))
        // Only old lines: nothing to draw, and no number made up.
        let old = HTMLReport(title: "t", generated: "t3", history: [try entry("t0", nil)])
        #expect(old.trend(palette: "p", theme: "light", current: HistoryEntry.ThemePoint(fail: 43, regressions: nil)).text.contains("first run"))
    }

    /// Issue #51: the history is bounded, the last `runs` runs kept (the oldest lines dropped).
    @Test func theHistoryKeepsTheLastRuns() throws {
        var history = ReportHistory()
        for night in 1...5 {
            let entry = HistoryEntry(time: "t\(night)", report: try report(Self.passing))
            history = ReportHistory(bytes: try history.appending(entry, keeping: 3), file: "h.jsonl")
            #expect(history.entries.count == min(night, 3))
        }
        #expect(history.entries.map(\.time) == ["t3", "t4", "t5"] && history.warnings.isEmpty)
        let one = try history.appending(HistoryEntry(time: "t6", report: try report(Self.passing)), keeping: 1)
        #expect(ReportHistory(bytes: one, file: "h.jsonl").entries.map(\.time) == ["t6"])
        // Below the bound nothing is dropped, a line that is no entry included.
        let text = Array("not json\n".utf8) + (try history.appending(HistoryEntry(time: "t6", report: try report(Self.passing))))
        #expect(ReportHistory(bytes: text, file: "h.jsonl").entries.count == 4 && ReportHistory.defaultRuns == 400)
    }
}
