import Foundation
import Testing
@testable import PaletteAudit
@testable import TokenSources

/// Adobe Spectrum's tokens: `$schema` token types, values by theme in `sets`.
@Suite struct SpectrumTokensTests {
    static let schema = "https://opensource.adobe.com/spectrum-design-data/schemas/token-types/"
    static let palette = ##"""
    {
      "white": {"$schema": "\##(schema)color.json", "value": "rgb(255, 255, 255)", "uuid": "1", "private": true},
      "blue-900": {"$schema": "\##(schema)color-set.json", "uuid": "2", "private": true,
        "sets": {"light": {"$schema": "\##(schema)color.json", "value": "rgb(59, 99, 251)", "uuid": "3"},
                 "dark": {"$schema": "\##(schema)color.json", "value": "rgb(86, 129, 255)", "uuid": "4"}}},
      "accent-color-900": {"$schema": "\##(schema)alias.json", "value": "{blue-900}", "uuid": "5"}
    }
    """##
    static let aliases = ##"""
    {
      "accent-background": {"$schema": "\##(schema)color-set.json", "uuid": "6", "deprecated": true, "deprecated_comment": "use accent-fill",
        "sets": {"light": {"$schema": "\##(schema)alias.json", "value": "{accent-color-900}", "uuid": "7"},
                 "dark": {"$schema": "\##(schema)alias.json", "value": "{blue-900}", "uuid": "8"}}},
      "field-height": {"$schema": "\##(schema)scale-set.json", "component": "field", "uuid": "9",
        "sets": {"desktop": {"$schema": "\##(schema)dimension.json", "value": "32px", "uuid": "10"},
                 "mobile": {"$schema": "\##(schema)dimension.json", "value": "40px", "uuid": "11"}}}
    }
    """##

    @Test func setsAreThemesAndAliasesResolveInTheirTheme() throws {
        let document = SourceDocument(file: "color-palette.json", bytes: Array(Self.palette.utf8), json: try JSONParser.parse(Array(Self.palette.utf8)))
        #expect(SourceRegistry.detect(document)?.id == "spectrum-tokens")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spectrum-\(UUID().uuidString)")
        let checks = FileManager.default.temporaryDirectory.appendingPathComponent("spectrum-\(UUID().uuidString).checks.json")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory); try? FileManager.default.removeItem(at: checks) }
        try Self.palette.write(to: directory.appendingPathComponent("color-palette.json"), atomically: true, encoding: .utf8)
        try Self.aliases.write(to: directory.appendingPathComponent("color-aliases.json"), atomically: true, encoding: .utf8)
        try #"{"checks": [{"id": "on-accent", "foreground": "white", "background": "accent-background"}]}"#.write(to: checks, atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadSources(paths: [directory.path], checks: checks.path).palettes
        let palette = try #require(loaded.first?.palette, "\(loaded.map(\.problems))")
        #expect(loaded[0].problems.isEmpty, "\(loaded[0].problems)")
        #expect(palette.themes.map(\.name) == ["light", "dark"])
        #expect(palette.format?.contains("fixed: desktop (of desktop, mobile; no color)") == true, "\(palette.format ?? "")")
        let colors = resolvedColors(palette)
        #expect(colors["light"]?["accent-background"] == "#3b63fb")
        #expect(colors["dark"]?["accent-background"] == "#5681ff")
        // Spectrum's metadata never reaches the reader as unknown properties; the deprecation does.
        let background = try #require(palette.themes[0].tokens.first { $0.name == "accent-background" })
        #expect(background.deprecated == "use accent-fill")
        #expect(background.unappliedProperties.isEmpty)
        let ledger = palette.ledger.completed(with: palette).summary
        #expect(ledger.notRead.isEmpty)
    }
}
