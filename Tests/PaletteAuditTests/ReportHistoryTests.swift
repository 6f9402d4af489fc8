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
        #expect(second.starts(with: first))
        #expect(ReportHistory(bytes: second, file: "h.jsonl").entries.map(\.time) == ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"])
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
        #expect(appended.starts(with: text + [0x0A]))
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
}
