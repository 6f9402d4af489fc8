import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// User text written with every result of a rule is quoted short (`String.excerpt`), and the
/// whole of it is said once: found by the structure-aware fuzzer (`fuzz-tokens`), whose
/// bound is 64 times the input and a fixed share per result.
@Suite struct TextPerResultTests {
    static let note = "why " + String(repeating: "x", count: 20_000)

    /// A palette whose rule pairs `fg` with 300 backgrounds; `fg` carries `extra` members.
    static func palette(fgExtra: String, check: String = "") -> String {
        let backgrounds = (0..<300).map { "\"bg\($0)\": {\"$value\": \"#\(String(format: "%06x", 0xf0f0f0 - $0))\"}" }.joined(separator: ", ")
        return ##"{"name": "p", "themes": {"light": {"tokens": {"fg": {"$type": "color", "$value": "#000000""## + fgExtra + "}, " + backgrounds
            + ##"}}}, "checks": [{"id": "text", "foreground": "fg", "background": "bg*""## + check + "}]}"
    }

    static func audit(_ text: String) throws -> PaletteReport {
        let (palette, problems) = PaletteDecoder.decode(text, file: "p.json")
        return Auditor().audit(try #require(palette), problems: problems)
    }

    /// A token's assumption was copied whole into each result that uses it, three times (the
    /// result's `assumed` and its color's): 20 KB × 300 pairs. It is quoted at 280 characters
    /// with its size there, and whole once in the report's assumptions.
    @Test func aTokensAssumptionIsQuotedShortInEveryResult() throws {
        let report = try Self.audit(Self.palette(fgExtra: ##", "$extensions": {"org.contrast": {"assumed": "\##(Self.note)"}}"##))
        let results = report.themes[0].results
        #expect(results.count == 300)
        for result in results {
            #expect(result.foreground.assumed?.utf8.count ?? 0 < 320 && result.foreground.assumed?.hasSuffix("…(20004 bytes)") == true)
            #expect(result.assumed?.allSatisfy { $0.utf8.count < 320 } == true)
        }
        #expect(report.assumptions.contains { $0.reason == Self.note })
        #expect(AuditReport(palettes: [report]).compactJSON().count < 1_000_000)
    }

    /// A rule's own assumption likewise, for each pair it expands to.
    @Test func aRulesAssumptionIsQuotedShortInEveryPair() throws {
        let report = try Self.audit(Self.palette(fgExtra: "", check: ##", "assumed": "\##(Self.note)""##))
        #expect(report.themes[0].results.count == 300)
        #expect(report.themes[0].results.allSatisfy { $0.assumed?.allSatisfy { $0.utf8.count < 320 } == true })
        #expect(report.assumptions.contains { $0.reason == Self.note })
    }

    /// A pair left unresolved by its token's problem quotes the problem at 400 characters: a
    /// property named with 3,000 characters made every unresolved pair carry 1.1 KB of it.
    @Test func anUnresolvedPairQuotesItsProblemShort() throws {
        let property = String(repeating: "p", count: 3_000)
        let report = try Self.audit(Self.palette(fgExtra: ##", "\##(property)": 1"##))
        let unresolved = try #require(report.themes[0].unresolved)
        #expect(unresolved.count == 300)
        #expect(unresolved.allSatisfy { $0.problem.utf8.count < 450 && $0.problem.contains("bytes)") }, "\(unresolved[0].problem)")
        // The problem itself, said once, is longer than what each pair quotes of it.
        #expect(report.problems.contains { $0.description.utf8.count > 1_000 && $0.message.contains("has the property") })
    }
}
