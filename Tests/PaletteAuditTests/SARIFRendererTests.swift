import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// SARIF is written by `JSONWriter`, the one writer of hand-made JSON: members sorted at every
/// level, JSONEncoder's pretty layout, and each finding where a code-scanning view reads it.
@Suite struct SARIFRendererTests {
    static func report() throws -> AuditReport {
        let text = ##"""
        {"name": "p", "themes": {"light": {"tokens": {"fg": "#777777", "bg": "#ffffff", "ink": "#111111"}}},
         "checks": [{"id": "body", "foreground": "fg", "background": "bg"},
                    {"id": "ok", "foreground": "ink", "background": "bg"},
                    {"id": "gone", "foreground": "missing", "background": "bg"}]}
        """##
        let (palette, _) = PaletteDecoder.decode(text, file: "tokens/p.json")
        return AuditReport(palettes: [Auditor().audit(try #require(palette))])
    }

    /// Every object's members in sorted order, as the renderer promises.
    func expectSorted(_ value: JSONValue, at path: String = "") {
        switch value {
        case .object(let members, _):
            let keys = members.map(\.key)
            #expect(keys == keys.sorted(), "\(path): \(keys)")
            for member in members { expectSorted(member.value, at: path + "/" + member.key) }
        case .array(let items, _):
            for (index, item) in items.enumerated() { expectSorted(item, at: "\(path)/\(index)") }
        default: break
        }
    }

    @Test func findingsAreWrittenSortedWithTheirPlaces() throws {
        let bytes = Array(try SARIFRenderer.render(try Self.report(), toolVersion: "9.9"))
        #expect(bytes.last == 0x0A)
        let document = try JSONParser.parse(bytes)
        expectSorted(document)
        #expect(document["version"]?.stringValue == "2.1.0")
        let run = try #require(document["runs"]?.arrayValue?.first)
        #expect(run["tool"]?["driver"]?["semanticVersion"]?.stringValue == "9.9")
        let results = try #require(run["results"]?.arrayValue)
        let failing = try #require(results.first { $0["ruleId"]?.stringValue == "contrast/insufficient" })
        #expect(failing["properties"]?["check"]?.stringValue == "body")
        #expect(((failing["properties"]?["ratio"]?.numberValue ?? 0) * 100).rounded() == 448)  // 4.478…:1, unrounded
        #expect(failing["properties"]?["required"]?.numberValue == 4.5)
        let place = try #require(failing["locations"]?.arrayValue?.first)
        #expect(place["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue == "tokens/p.json")
        #expect((place["physicalLocation"]?["region"]?["startLine"]?.numberValue ?? 0) >= 1)
        #expect(place["logicalLocations"]?.arrayValue?.first?["kind"]?.stringValue == "member")
        #expect(results.contains { $0["ruleId"]?.stringValue == "contrast/palette-problem" && $0["level"]?.stringValue == "error" })
        // The layout is JSONEncoder's pretty one: two spaces a level, `"key" : value`.
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("{\n  \"$schema\" : \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"runs\" : [\n"))
    }
}

private extension JSONValue {
    var arrayValue: [JSONValue]? {
        if case .array(let items, _) = self { return items }
        return nil
    }

    var numberValue: Double? {
        if case .number(let number, _) = self { return number }
        return nil
    }
}
