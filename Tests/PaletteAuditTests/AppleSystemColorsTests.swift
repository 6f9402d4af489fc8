import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The iOS system colors come from one record, docs/data/apple-system-colors.json, embedded at
/// build time: every entry of the record is in the table, complete and readable.
@Suite struct AppleSystemColorsTests {
    func recordColors() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/data/apple-system-colors.json")
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return try #require(record?["colors"] as? [String: Any])
    }

    @Test func everyRecordedColorIsInTheTableWithItsFourAppearances() throws {
        let colors = try recordColors()
        #expect(Set(AppleSystemColors.table.keys) == Set(colors.keys))
        for (name, entry) in AppleSystemColors.table {
            #expect(entry.values.count == 4, "\(name)")
            for value in entry.values {
                #expect(throws: Never.self, "\(name): \(value)") { _ = try CSSColor.parse(value) }
            }
            let recorded = try #require(colors[name] as? [String: Any])
            #expect(entry.applePublished == recorded["apple_published"] as? Bool, "\(name)")
            for (index, appearance) in AppleSystemColors.appearances.enumerated() {
                let hex = try #require(recorded[appearance] as? String)
                // The table keeps the published alpha exactly; the record's 8-bit hex rounds it.
                let parsed = try CSSColor.parse(entry.values[index]).color
                let rounded = try CSSColor.parse(hex).color
                #expect(abs(parsed.red - rounded.red) <= 1e-12, "\(name) \(appearance)")
                #expect(abs(parsed.alpha - rounded.alpha) <= 0.5 / 255 + 1e-12, "\(name) \(appearance)")
            }
        }
    }

    @Test func knownValuesAndXcodeNames() {
        #expect(AppleSystemColors.value("systemBlue", dark: false, highContrast: false) == "#0088ff")
        #expect(AppleSystemColors.value("systemBlueColor", dark: true, highContrast: true) == "#5cb8ff")
        #expect(AppleSystemColors.value("secondaryLabel", dark: false, highContrast: false) == "rgb(60 60 67 / 0.6)")
        #expect(AppleSystemColors.value("systemUnicornColor", dark: false, highContrast: false) == nil)
    }

    @Test func aRecordMissingAnAppearanceLeavesThatColorOut() {
        let record = ##"{"colors": {"a": {"light": "#000000", "dark": "#ffffff", "lightHighContrast": "#000000", "darkHighContrast": "#ffffff"}, "b": {"light": "#000000"}}}"##
        #expect(Set(AppleSystemColors.read(Array(record.utf8)).keys) == ["a"])
    }
}
