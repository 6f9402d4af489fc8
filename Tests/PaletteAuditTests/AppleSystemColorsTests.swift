import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import XCTest

/// The iOS system colors come from one record, docs/data/apple-system-colors.json, embedded at
/// build time: every entry of the record is in the table, complete and readable.
final class AppleSystemColorsTests: XCTestCase {
    func recordColors() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/data/apple-system-colors.json")
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return try XCTUnwrap(record?["colors"] as? [String: Any])
    }

    func testEveryRecordedColorIsInTheTableWithItsFourAppearances() throws {
        let colors = try recordColors()
        XCTAssertEqual(Set(AppleSystemColors.table.keys), Set(colors.keys))
        for (name, entry) in AppleSystemColors.table {
            XCTAssertEqual(entry.values.count, 4, name)
            for value in entry.values {
                XCTAssertNoThrow(try CSSColor.parse(value), "\(name): \(value)")
            }
            let recorded = try XCTUnwrap(colors[name] as? [String: Any])
            XCTAssertEqual(entry.applePublished, recorded["apple_published"] as? Bool, name)
            for (index, appearance) in AppleSystemColors.appearances.enumerated() {
                let hex = try XCTUnwrap(recorded[appearance] as? String)
                // The table keeps the published alpha exactly; the record's 8-bit hex rounds it.
                let parsed = try CSSColor.parse(entry.values[index]).color
                let rounded = try CSSColor.parse(hex).color
                XCTAssertEqual(parsed.red, rounded.red, accuracy: 1e-12, "\(name) \(appearance)")
                XCTAssertEqual(parsed.alpha, rounded.alpha, accuracy: 0.5 / 255 + 1e-12, "\(name) \(appearance)")
            }
        }
    }

    func testKnownValuesAndXcodeNames() {
        XCTAssertEqual(AppleSystemColors.value("systemBlue", dark: false, highContrast: false), "#0088ff")
        XCTAssertEqual(AppleSystemColors.value("systemBlueColor", dark: true, highContrast: true), "#5cb8ff")
        XCTAssertEqual(AppleSystemColors.value("secondaryLabel", dark: false, highContrast: false), "rgb(60 60 67 / 0.6)")
        XCTAssertNil(AppleSystemColors.value("systemUnicornColor", dark: false, highContrast: false))
    }

    func testARecordMissingAnAppearanceLeavesThatColorOut() {
        let record = ##"{"colors": {"a": {"light": "#000000", "dark": "#ffffff", "lightHighContrast": "#000000", "darkHighContrast": "#ffffff"}, "b": {"light": "#000000"}}}"##
        XCTAssertEqual(Set(AppleSystemColors.read(Array(record.utf8)).keys), ["a"])
    }
}
