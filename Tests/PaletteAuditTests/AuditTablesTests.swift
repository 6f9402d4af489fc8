import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// `contrast report`'s `audit.json` (issue #51 §2): each token, check id, rule, color and file
/// written once in tables, results referring to them by index, streamed in bounded pieces.
@Suite struct AuditTablesTests {
    func tables(_ report: AuditReport) -> (text: String, pieces: [Int]) {
        var bytes: [UInt8] = [], pieces: [Int] = []
        report.writeTablesJSON { piece in
            pieces.append(piece.count)
            bytes += piece
        }
        return (String(decoding: bytes, as: UTF8.self), pieces)
    }

    @Test func resultsReferToTablesThatHoldEachNameOnce() throws {
        let report = try MarkdownLimitTests.audit(30)
        let (text, _) = tables(report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["layout"] as? String == "tables" && document["layoutVersion"] as? Int == 1)
        let checks = try #require(document["checks"] as? [String]), tokens = try #require(document["tokens"] as? [String])
        let colors = try #require(document["colors"] as? [[String: Any]]), rules = try #require(document["rules"] as? [[String: Any]])
        // 900 expansions and one check, the same ids in both themes: each id once.
        #expect(checks.count == 901 && Set(checks).count == 901)
        // One rule for the glob rule's expansions, one for the check of its own.
        #expect(rules.count == 2)
        // Each token name once in the whole text, where the tables hold it.
        #expect(text.components(separatedBy: "\"fg-7\"").count - 1 == 1)
        #expect(text.components(separatedBy: "every-fg-on-every-bg[").count - 1 == 900)
        // Every result resolves to exactly what the full model says.
        let palettes = try #require(document["palettes"] as? [[String: Any]])
        let themes = try #require(palettes.first?["themes"] as? [[String: Any]])
        for (t, theme) in themes.enumerated() {
            let results = try #require(theme["results"] as? [[String: Any]])
            #expect(results.count == report.palettes[0].themes[t].results.count)
            for (r, result) in results.enumerated() {
                let model = report.palettes[0].themes[t].results[r]
                #expect(checks[try #require(result["check"] as? Int)] == model.id)
                #expect(result["id"] == nil && result["pointer"] == nil)
                let foreground = colors[try #require(result["foreground"] as? Int)]
                #expect(tokens[try #require(foreground["token"] as? Int)] == model.foreground.token)
                #expect(foreground["hex"] as? String == model.foreground.hex)
                let rule = rules[try #require(result["rule"] as? Int)]
                #expect(rule["pointer"] as? String == model.pointer.description)
            }
        }
        // Each pointer once too (a color's and a fix's), and the whole smaller than the model.
        #expect(text.components(separatedBy: "\"/themes/light/tokens/fg-7\"").count - 1 == 1)
        #expect(text.utf8.count < report.prettyJSON().utf8.count)
    }

    @Test func aLargeDocumentIsWrittenInBoundedPieces() throws {
        let report = try MarkdownLimitTests.audit(60)
        let (text, pieces) = tables(report)
        #expect(pieces.count > 1 && pieces.max()! < 2 << 20, "\(pieces)")
        #expect(pieces.reduce(0, +) == text.utf8.count)
    }
}
