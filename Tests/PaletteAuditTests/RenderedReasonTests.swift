import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Every rendering says why a check fails in the terms it is judged by: an APCA target with its
/// Lc figures, a `distinct` pair with its color difference, never a contrast ratio it meets.
@Suite struct RenderedReasonTests {
    /// A pair that meets 4.5:1 by far (12.63:1) and fails its APCA target (Lc 98.6 of 100).
    static func apcaReport() throws -> AuditReport {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"fg": "#333333", "bg": "#ffffff"}}}, "checks": [{"id": "apca", "foreground": "fg", "background": "bg", "apca": 100}]}"##
        let (palette, problems) = PaletteDecoder.decode(text, file: "apca.json")
        #expect(problems.isEmpty, "\(problems.map(\.message))")
        return AuditReport(palettes: [Auditor().audit(try #require(palette))])
    }

    /// The github and SARIF lines said "12.63:1 is below 4.5:1 (text AA, SC 1.4.3)"; the text
    /// table and Markdown said it needs 4.5:1 only.
    @Test func anAPCAFailureIsToldWithItsLcFigures() throws {
        let report = try Self.apcaReport()
        let result = try #require(report.palettes.first?.themes.first?.results.first)
        #expect(result.verdict == .fail)
        #expect(result.failureSummary == "APCA Lc 98.6 is below the required Lc 100 (12.63:1 meets 4.5:1, text AA, SC 1.4.3)")
        let renderings = [
            ("text", TextRenderer(color: false).render(report)),
            ("markdown", MarkdownRenderer.render(report)),
            ("github", GitHubRenderer.render(report, workingDirectory: "/work")),
            ("junit", JUnitRenderer.render(report)),
            ("sarif", String(decoding: try SARIFRenderer.render(report, toolVersion: "test"), as: UTF8.self)),
            ("html", HTMLReport(title: "t", generated: "now").render(report)),
        ]
        for (name, text) in renderings {
            #expect(!text.contains("12.63:1 is below"), "\(name): \(text)")
            #expect(text.contains("Lc 98.6"), "\(name)")
        }
        let byName = Dictionary(uniqueKeysWithValues: renderings)
        #expect(byName["text"]?.contains("needs 4.5:1 and Lc 100 (text AA)") == true)
        #expect(byName["markdown"]?.contains("| 12.63:1, Lc 98.6 | 4.5:1 and Lc 100 |") == true)
        #expect(byName["html"]?.contains("needs 4.5:1 and Lc 100") == true)
        // Said once on a line, not twice.
        #expect(byName["github"]?.components(separatedBy: "APCA Lc 98.6 is below").count == 2)
        // A fix for an APCA target shows the Lc it reaches.
        #expect(byName["text"]?.contains(", Lc 100.1)") == true, "\(byName["text"] ?? "")")
    }

    /// The HTML report showed a distinct pair by its contrast ratio ("1.14:1 FAIL") in the
    /// themes side by side and in the samples' labels.
    @Test func aDistinctPairIsShownWithItsColorDifference() throws {
        let report = SeedPaletteAuditTests().report()
        let html = HTMLReport(title: "t", generated: "now").render(report)
        let light = try #require(report.palettes.first { $0.name == "peptide-fox" }?.themes.first { $0.name == "light" })
        let pair = try #require(light.results.first { $0.id == "badges[blue vs purple]" })
        #expect(pair.measuredShort == "CIEDE2000 4.1 under deuteranopia")
        #expect(pair.needsShort == "CIEDE2000 ≥ 9")
        #expect(html.contains("CIEDE2000 4.1 under deuteranopia FAIL"))
        #expect(html.contains("aria-label=\"#dbeafe vs #e9d5ff, CIEDE2000 4.1 under deuteranopia\""))
        #expect(!html.contains("\(pair.display) FAIL"), "the ratio \(pair.display) of a distinct pair")
        let markdown = MarkdownRenderer.render(report)
        #expect(markdown.contains("CIEDE2000 ≥ 9"))
    }
}
