import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The Markdown summary holds at any scale: at most its limit (GitHub's 1 MiB for a job
/// summary), what matters first, what is left out counted; the same failure in several themes
/// is one row; the triage names the rules and tokens that fail most.
@Suite struct MarkdownLimitTests {
    /// `n` foregrounds and `n` backgrounds, all mid-grays (every pair fails 4.5:1), the same in
    /// light and dark, and one rule of every foreground on every background, plus one check of
    /// its own that passes.
    static func audit(_ n: Int) throws -> AuditReport {
        var tokens: [String: String] = ["ink": "#000000", "paper": "#ffffff"]
        for i in 0..<n {
            tokens["fg-\(i)"] = String(format: "#%02x%02x%02x", 0x70 + i % 16, 0x70, 0x70)
            tokens["bg-\(i)"] = String(format: "#%02x%02x%02x", 0x90, 0x90 + i % 16, 0x90)
        }
        let theme: [String: Any] = ["tokens": tokens]
        let palette: [String: Any] = [
            "name": "grays",
            "themes": ["light": theme, "dark": theme],
            "checks": [
                ["id": "every-fg-on-every-bg", "foreground": "fg-*", "background": "bg-*"],
                ["id": "body", "foreground": "ink", "background": "paper"],
            ],
        ]
        let directory = Scratch.directory("markdown-limit")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("grays.json")
        try JSONSerialization.data(withJSONObject: palette).write(to: file)
        return AuditRun.audit(paths: [file.path])
    }

    @Test func aLargeAuditStaysUnderTheLimitAndCountsWhatItLeavesOut() throws {
        let report = try Self.audit(120)
        #expect(report.summary.fail == 2 * 120 * 120)
        let both = report.palettes[0].themes.map(\.name).joined(separator: ", ")
        #expect(Set(report.palettes[0].themes.map(\.name)) == ["light", "dark"])
        let markdown = MarkdownRenderer.render(report)
        #expect(markdown.utf8.count <= MarkdownRenderer.defaultLimit)
        // The rule's expansions are one triage row, with both themes.
        #expect(markdown.contains("### Where the 28800 failures come from"))
        #expect(markdown.contains("| `every-fg-on-every-bg` | 28800 | 28800 | \(both) |"), "\(markdown.prefix(3000))")
        #expect(markdown.contains("… and 230 more tokens"))
        // The same failure in both themes is one row naming both.
        #expect(!markdown.contains("| light | every-fg-on-every-bg") && !markdown.contains("| dark | every-fg-on-every-bg"))
        // What did not fit is counted, and the end says why it stops.
        let more = try #require(markdown.firstMatch(of: /… and (\d+) more failing checks/))
        let listed = markdown.split(separator: "\n").filter { $0.hasPrefix("| \(both) | every-fg-on-every-bg\\[") }.count
        #expect(listed > 1_000 && Int(more.1)! + listed == 120 * 120)
        #expect(markdown.contains("This summary stops at 1024 KiB"))
    }

    @Test func aSmallLimitKeepsTheHeadAndTheTriage() throws {
        let report = try Self.audit(30)
        let markdown = MarkdownRenderer.render(report, limit: 16 * 1024)
        #expect(markdown.utf8.count <= 16 * 1024)
        #expect(markdown.hasPrefix("## Contrast audit\n\n**"))
        #expect(markdown.contains("### Where the 1800 failures come from"))
        #expect(markdown.contains("more failing checks"))
    }

    @Test func aSmallAuditIsWholeAndUnchangedInShape() throws {
        let report = try Self.audit(2)
        let both = report.palettes[0].themes.map(\.name).joined(separator: ", ")
        let markdown = MarkdownRenderer.render(report)
        #expect(!markdown.contains("more failing checks") && !markdown.contains("This summary stops"))
        #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("| \(both) | every-fg-on-every-bg\\[") }.count == 4)
    }

    @Test func theTriageCountsRulesTokensAndThemes() throws {
        let report = try Self.audit(3)
        let themes = report.palettes[0].themes.map(\.name)
        let triage = FailureTriage(report)
        #expect(triage.failing == 18)
        #expect(triage.rules.map(\.name) == ["every-fg-on-every-bg"])
        #expect(triage.rules.first?.checks == 18)
        // Each foreground fails on three backgrounds in two themes.
        #expect(triage.tokens.count == 6 && triage.tokens.allSatisfy { $0.failing == 6 && $0.themes == themes })
        #expect(triage.themes.map(\.failing) == [9, 9])
        #expect(triage.failures.count == 9 && triage.failures.allSatisfy { $0.themes == themes })
    }
}

/// The HTML report holds at any scale too: the triage first, each theme's share of the failing
/// rows in full and the rest counted, passing checks counted past their share.
@Suite struct HTMLReportLimitTests {
    @Test func aLargeAuditIsBoundedAndCountsWhatItLeavesOut() throws {
        let report = try MarkdownLimitTests.audit(120)
        let html = HTMLReport(title: "Grays", generated: "2026-12-02").render(report)
        #expect(html.utf8.count < 5_000_000, "\(html.utf8.count) bytes")
        #expect(html.contains("<h2 id=\"triage\">Where the 28800 failures come from</h2>"))
        #expect(html.contains("<code>every-fg-on-every-bg</code></th><td class=\"num\">28800</td><td class=\"num\">28800</td>"))
        // Two themes share 1,000 full rows: 500 each, and 13,900 counted in each.
        #expect(html.components(separatedBy: "data-more-failing=\"13900\"").count - 1 == 2)
        let sideBySide = try #require(html.firstMatch(of: /the first (\d+) of (\d+), the rest in audit.json/))
        #expect(Int(sideBySide.1) == HTMLReport.sideBySideInFull && Int(sideBySide.2) == 14_400)
    }

    @Test func aSmallAuditListsEverything() throws {
        let report = try MarkdownLimitTests.audit(2)
        let html = HTMLReport(title: "Grays", generated: "2026-12-02").render(report)
        #expect(!html.contains("data-more-failing") && !html.contains("the rest in audit.json"))
        #expect(html.contains("Where the 8 failures come from"))
    }
}
