import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Xcode asset catalogs written as Xcode writes them: folders with Contents.json, color sets
/// with appearances, idioms and every component form.
@Suite struct AssetCatalogTests {
    /// A catalog on disk from `{relative path: Contents.json text}`.
    static func catalog(_ files: [String: String]) throws -> URL {
        let root = Scratch.directory("catalog")
        let catalog = root.appendingPathComponent("Assets.xcassets")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        try #"{"info": {"author": "xcode", "version": 1}}"#.write(to: catalog.appendingPathComponent("Contents.json"), atomically: true, encoding: .utf8)
        for (path, text) in files {
            let file = catalog.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return catalog
    }

    static func colorSet(_ entries: [String]) -> String {
        #"{"colors": ["# + entries.joined(separator: ", ") + #"], "info": {"author": "xcode", "version": 1}}"#
    }

    static func entry(_ components: String, space: String = "srgb", appearances: String = "", idiom: String = "universal") -> String {
        let a = appearances.isEmpty ? "" : #", "appearances": [\#(appearances)]"#
        return #"{"color": {"color-space": "\#(space)", "components": {\#(components)}}, "idiom": "\#(idiom)"\#(a)}"#
    }

    static let dark = #"{"appearance": "luminosity", "value": "dark"}"#
    static let light = #"{"appearance": "luminosity", "value": "light"}"#
    static let high = #"{"appearance": "contrast", "value": "high"}"#

    static func colors(_ palette: Palette) -> [String: [String: String]] { resolvedColors(palette) }

    @Test func componentFormsAppearancesAndFallbacks() throws {
        let url = try Self.catalog([
            // Floats, 8-bit integers and hex bytes: the same color.
            "Ink.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "0.145", "green": "0.388", "blue": "0.922", "alpha": "1.000""#),
                Self.entry(#""red": "37", "green": "99", "blue": "235", "alpha": "1.000""#, appearances: Self.dark),
                Self.entry(#""red": "0x25", "green": "0x63", "blue": "0xEB", "alpha": "0.500""#, appearances: Self.dark + ", " + Self.high),
            ]),
            // Light only: iOS shows it in dark mode too (a warning).
            "Paper.colorset/Contents.json": Self.colorSet([Self.entry(#""white": "1.000", "alpha": "1.000""#, space: "gray-gamma-22")]),
            // Organizing folders do not name; a namespace folder does.
            "Brand/Contents.json": #"{"properties": {"provides-namespace": true}}"#,
            "Brand/Primary.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000""#, space: "display-p3"),
                Self.entry(#""red": "0.200", "green": "0.200", "blue": "0.200", "alpha": "1.000""#, appearances: Self.dark),
            ]),
            "Plain/Muted.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "0.500", "green": "0.500", "blue": "0.500", "alpha": "1.000""#, appearances: Self.light),
                Self.entry(#""red": "0.400", "green": "0.400", "blue": "0.400", "alpha": "1.000""#, appearances: Self.light + ", " + Self.high),
                Self.entry(#""red": "0.600", "green": "0.600", "blue": "0.600", "alpha": "1.000""#, appearances: Self.dark),
            ]),
            "AppIcon.appiconset/Contents.json": #"{"images": []}"#,
            "Unused.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "0.9", "green": "0.9", "blue": "0.9""#)]),
        ])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try #"{"checks": [{"id": "ink-on-paper", "foreground": "Ink", "background": "Paper"}]}"#
            .write(to: url.deletingLastPathComponent().appendingPathComponent("Assets.checks.json"), atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadSources(paths: [url.path])
        let palette = try #require(loaded.palettes.first?.palette)
        #expect(palette.name == "Assets")
        #expect(palette.themes.map(\.name) == ["light", "dark", "light-high-contrast", "dark-high-contrast"])
        let colors = Self.colors(palette)
        #expect(colors["light"]?["Ink"] == "#2563eb" && colors["dark"]?["Ink"] == "#2563eb")
        #expect(colors["dark-high-contrast"]?["Ink"] == "#2563eb80")
        // Light high contrast falls back to the light color; Paper's only color is everywhere.
        #expect(colors["light-high-contrast"]?["Ink"] == "#2563eb")
        #expect(colors["dark"]?["Paper"] == "#ffffff")
        // P3 red maps into sRGB as CSS Color 4 maps it (chroma reduced, not clipped): #ff0b0c.
        #expect(colors["light"]?["Brand.Primary"] == "#ff0b0c" && colors["dark"]?["Brand.Primary"] == "#333333")
        #expect(colors["light-high-contrast"]?["Muted"] == "#666666" && colors["dark-high-contrast"]?["Muted"] == "#999999")
        // P3 red is outside sRGB: gamut-mapped, and flagged.
        var resolver = ThemeResolver(palette: palette, theme: palette.themes[0])
        #expect(try resolver.resolve("Brand.Primary").get().outOfGamut == true)
        let warnings = loaded.palettes[0].problems.filter(\.isWarning).map(\.message)
        // Light-only sets a check uses are a warning; one no check uses is not.
        #expect(warnings.contains("color set Paper has no dark appearance while the catalog has them: iOS shows its light color in dark mode"))
        #expect(!warnings.contains { $0.contains("Unused") })
        #expect(warnings.contains("color set Ink defines high contrast for dark only: with Increase Contrast on, light mode shows its ordinary color"))
        #expect(warnings.contains("color set Muted defines high contrast for light only: with Increase Contrast on, dark mode shows its ordinary color"))
    }

    @Test func grayAndExtendedSpacesAndBrokenComponents() throws {
        let url = try Self.catalog([
            // Gamma 2.2 gray 0.5: linear 0.5^2.2 = 0.2176, which sRGB encodes as 0.5029 (#808080).
            "Gray.colorset/Contents.json": Self.colorSet([Self.entry(#""white": "0.500", "alpha": "1.000""#, space: "gray-gamma-22")]),
            "Linear.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "0.2158", "green": "0.2158", "blue": "0.2158", "alpha": "1.000""#, space: "extended-linear-srgb")]),
            "Bright.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "1.100", "green": "0.500", "blue": "0.000", "alpha": "1.000""#, space: "extended-srgb")]),
            "Broken.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "lots", "green": "0", "blue": "0""#)]),
            "Odd.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "0", "green": "0", "blue": "0""#, space: "cmyk")]),
            // Swift's number parser takes these; none is a component (they were read as an
            // infinite, a NaN and a 511 red, and reported later, if at all, as a CSS problem).
            "Infinite.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "1e400", "green": "0", "blue": "0""#)]),
            "NotANumber.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "0", "green": "NaN", "blue": "0""#)]),
            "WideHex.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "0x00", "green": "0x00", "blue": "0x1FF""#)]),
            "BadJSON.colorset/Contents.json": #"{"colors": [ "#,
        ])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [url.deletingLastPathComponent().path])
        let catalog = try #require(loaded.palettes.first { $0.file.hasSuffix("Assets.xcassets") })
        let palette = try #require(catalog.palette)
        let colors = Self.colors(palette)
        #expect(colors["light"]?["Gray"] == "#808080" && colors["light"]?["Linear"] == "#808080")
        var resolver = ThemeResolver(palette: palette, theme: palette.themes[0])
        #expect(try resolver.resolve("Bright").get().outOfGamut == true)
        let messages = catalog.problems.map { "\($0.file.map { String($0.split(separator: "/").suffix(2).joined(separator: "/")) } ?? "-") \($0.message)" }
        #expect(messages.contains("Broken.colorset/Contents.json component \"red\" of Broken is lots; expected a number like \"0.145\", \"37\" or \"0x25\""), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("Odd.colorset/Contents.json color space \"cmyk\" of Odd is not one Xcode writes") }, "\(messages)")
        for (set, key, value) in [("Infinite", "red", "1e400"), ("NotANumber", "green", "NaN"), ("WideHex", "blue", "0x1FF")] {
            #expect(messages.contains("\(set).colorset/Contents.json component \"\(key)\" of \(set) is \(value); expected a number like \"0.145\", \"37\" or \"0x25\""), "\(messages)")
            #expect(palette.ledger.notReadEntries.contains { $0.name == set })
        }
        #expect(catalog.problems.contains { $0.code == .invalidJSON && $0.file?.hasSuffix("BadJSON.colorset/Contents.json") == true })
        // The catalog's files are not also read as token files of the directory.
        #expect(!loaded.skipped.contains { $0.file.contains(".xcassets/") })
    }

    /// Found trying it as a new user: a dark appearance in a color space Xcode does not write
    /// was reported, and the dark theme then measured the light color in its place.
    @Test func aBrokenAppearanceLeavesItsThemesUnresolvedNotMeasuredWithAnother() throws {
        let url = try Self.catalog([
            "Page.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "1.000", "green": "1.000", "blue": "1.000", "alpha": "1.000""#),
                Self.entry(#""red": "0.11", "green": "0.11", "blue": "0.12", "alpha": "1.000""#, space: "lab", appearances: Self.dark),
            ]),
            "Text.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "0.376", "green": "0.376", "blue": "0.376", "alpha": "1.000""#),
                Self.entry(#""red": "0.600", "green": "0.600", "blue": "0.600", "alpha": "1.000""#, appearances: Self.dark),
            ]),
        ])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [url.path])
        let catalog = try #require(loaded.palettes.first)
        let palette = try #require(catalog.palette)
        #expect(catalog.problems.contains { $0.message.contains("color space \"lab\" of Page") })
        let colors = Self.colors(palette)
        #expect(colors["light"]?["Page"] == "#ffffff")
        #expect(colors["dark"]?["Page"] == nil, "the dark Page must not fall back to the light one: \(colors)")
        #expect(colors["dark"]?["Text"] == "#999999")
        let dark = try #require(palette.themes.first { $0.name == "dark" })
        var resolver = ThemeResolver(palette: palette, theme: dark)
        guard case .failure(let problem) = resolver.resolve("Page") else {
            Issue.record("Page resolved in the dark theme")
            return
        }
        #expect(problem.message.contains("has no color in theme 'dark' that could be read"), "\(problem.message)")
        // The token listing (POST /v1/tokens) agrees.
        let listed = TokenListing.resolveAll(Dictionary(uniqueKeysWithValues: dark.tokens.map { ($0.name, $0) }), order: dark.tokens.map(\.name))
        if case .color? = listed["Page"] { Issue.record("the listing measured the broken dark Page") }
        // The ledger counts the unreadable appearance as not read, at its line, beside the
        // sets that were read.
        let ledger = palette.ledger.completed(with: palette)
        #expect(ledger.colors == 2)
        let notRead = ledger.notReadEntries
        #expect(notRead.count == 1 && notRead.first?.name == "Page" && notRead.first?.line != nil, "\(notRead)")
        #expect(notRead.first?.reason?.contains("color space \"lab\"") == true)
    }

    /// Two colors for one appearance: Xcode does not say which one the app gets, and the last
    /// one was measured without a word. Neither is measured now, and the problem names both.
    @Test func twoColorsForOneAppearanceAreAProblemAndNeitherIsMeasured() throws {
        let url = try Self.catalog([
            "Page.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "1.000", "green": "1.000", "blue": "1.000", "alpha": "1.000""#),
                Self.entry(#""red": "0.1", "green": "0.1", "blue": "0.1", "alpha": "1.000""#, appearances: Self.dark),
                Self.entry(#""red": "0.9", "green": "0.9", "blue": "0.9", "alpha": "1.000""#, appearances: Self.dark),
            ]),
        ])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [url.path])
        let catalog = try #require(loaded.palettes.first)
        let palette = try #require(catalog.palette)
        let problem = try #require(catalog.problems.first { $0.code == .duplicateName })
        #expect(problem.message.contains("two colors for the dark appearance (/colors/1 and /colors/2)"), "\(problem.message)")
        let colors = Self.colors(palette)
        #expect(colors["light"]?["Page"] == "#ffffff")
        #expect(colors["dark"]?["Page"] == nil, "a duplicated dark appearance was measured: \(colors)")
    }

    /// Found by the second red team: a component written as a JSON number (37, not "37") was
    /// read as 37.0 and clipped to white (21:1 on black, exit 0); 1.5 in plain sRGB was clipped.
    @Test func numberComponentsAreReadAsXcodeWritesThemAndOutOfRangeIsAProblem() throws {
        let url = try Self.catalog([
            "Number.colorset/Contents.json": #"{"colors": [{"color": {"color-space": "srgb", "components": {"red": 37, "green": 37, "blue": 37, "alpha": 1}}, "idiom": "universal"}]}"#,
            "Over.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "1.500", "green": "0", "blue": "0", "alpha": "1.000""#)]),
            "Extended.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "1.100", "green": "0.5", "blue": "0", "alpha": "1.000""#, space: "extended-srgb")]),
        ])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let catalog = try #require(PaletteLoader.loadSources(paths: [url.path]).palettes.first)
        let palette = try #require(catalog.palette)
        let colors = Self.colors(palette)
        #expect(colors["light"]?["Number"] == "#252525")
        #expect(colors["light"]?["Over"] == nil)
        #expect(colors["light"]?["Extended"] != nil)
        #expect(catalog.problems.contains { $0.message.hasPrefix("component \"red\" of Over is 1.500, outside 0 to 1") }, "\(catalog.problems.map(\.message))")
    }

    @Test func idiomsAndSidecarChecks() throws {
        let url = try Self.catalog([
            "Accent.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "0", "green": "0", "blue": "1.000""#),
                Self.entry(#""red": "1.000", "green": "0", "blue": "0""#, idiom: "ipad"),
            ]),
            "Phone.colorset/Contents.json": Self.colorSet([Self.entry(#""red": "0", "green": "0.5", "blue": "0""#, idiom: "iphone")]),
        ])
        let sidecar = url.deletingLastPathComponent().appendingPathComponent("Assets.checks.json")
        try ##"{"checks": [{"id": "accent-on-white", "foreground": "Accent", "background": "#ffffff"}]}"##.write(to: sidecar, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let universal = try #require(PaletteLoader().loadSources(paths: [url.path]).palettes.first?.palette)
        #expect(Self.colors(universal)["light"] == ["Accent": "#0000ff", "Phone": "#008000"])
        #expect(universal.checks.map(\.id) == ["accent-on-white"])
        let ipad = try #require(PaletteLoader(catalogIdiom: "ipad").loadSources(paths: [url.path]).palettes.first?.palette)
        #expect(Self.colors(ipad)["light"]?["Accent"] == "#ff0000")
        #expect(ipad.format?.contains("ipad idiom") == true)
    }

    /// A color set naming a system color takes Apple's value in each appearance; one not in the
    /// table is a problem; palettes refer to the same table as {ios.…}.
    @Test func systemColors() throws {
        let reference = { (name: String) in #"{"colors": [{"color": {"platform": "ios", "reference": "\#(name)"}, "idiom": "universal"}], "info": {"author": "xcode", "version": 1}}"# }
        let url = try Self.catalog([
            "Label.colorset/Contents.json": reference("secondaryLabelColor"),
            "Tint.colorset/Contents.json": reference("systemBlueColor"),
            "Nope.colorset/Contents.json": reference("systemPlaidColor"),
            "Page.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "1.000", "green": "1.000", "blue": "1.000""#),
                Self.entry(#""red": "0", "green": "0", "blue": "0""#, appearances: Self.dark),
            ]),
        ])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [url.path])
        let palette = try #require(loaded.palettes.first?.palette)
        let colors = Self.colors(palette)
        #expect(colors["light"]?["Tint"] == "#0088ff" && colors["dark"]?["Tint"] == "#0091ff")
        #expect(colors["light"]?["Label"] == "#3c3c4399" && colors["dark"]?["Label"] == "#ebebf599")
        #expect(loaded.palettes[0].problems.contains { $0.message.hasPrefix("color set Nope refers to the system color systemPlaidColor, which is not in the table") })
        // A set that only names a system color is dynamic already: no "no dark appearance" warning.
        #expect(!loaded.palettes[0].problems.contains { $0.message.contains("Tint has no dark appearance") })

        let json = ##"""
        {"name": "app", "themes": {"light": {"tokens": {"page": "{ios.systemBackground}", "muted": "{ios.secondaryLabel}"}},
                                   "dark": {"extends": "light", "tokens": {}},
                                   "dark-high-contrast": {"extends": "light", "tokens": {}}},
         "checks": [{"id": "muted", "foreground": "muted", "background": "page"}, {"id": "tint", "foreground": "{ios.systemBlue}", "background": "page"}]}
        """##
        let (decoded, problems) = PaletteDecoder.decode(json, file: "app.json")
        #expect(problems.isEmpty)
        let report = Auditor().audit(try #require(decoded))
        #expect(report.problems.isEmpty, "\(report.problems)")
        let rows = report.themes.map { theme in "\(theme.name): " + theme.results.map { "\($0.foreground.hex)/\($0.background.hex)" }.joined(separator: " ") }
        #expect(rows == ["light: #3c3c4399/#ffffff #0088ff/#ffffff", "dark: #ebebf599/#000000 #0091ff/#000000",
                         "dark-high-contrast: #ebebf5ad/#000000 #5cb8ff/#000000"])
        // Values Apple does not publish say where they come from.
        #expect(report.themes[0].results[0].assumed?.first?.contains("community transcriptions") == true)
    }

    /// The same palette as JSON, as an asset catalog and as Android resources audits identically.
    @Test func sameAuditAsJSONAndAndroid() throws {
        let url = try Self.catalog([
            "ink.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "0x59", "green": "0x63", "blue": "0x6E""#),
                Self.entry(#""red": "145", "green": "152", "blue": "161""#, appearances: Self.dark),
            ]),
            "paper.colorset/Contents.json": Self.colorSet([
                Self.entry(#""red": "1.000", "green": "1.000", "blue": "1.000""#),
                Self.entry(#""red": "0x0D", "green": "0x11", "blue": "0x17""#, appearances: Self.dark),
            ]),
        ])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try #"{"checks": [{"id": "body", "foreground": "ink", "background": "paper"}]}"#
            .write(to: url.deletingLastPathComponent().appendingPathComponent("Assets.checks.json"), atomically: true, encoding: .utf8)
        let res = url.deletingLastPathComponent().appendingPathComponent("res")
        for (folder, xml) in [("values", #"<resources><color name="ink">#59636E</color><color name="paper">#FFFFFF</color></resources>"#),
                              ("values-night", #"<resources><color name="ink">#FF9198A1</color><color name="paper">#0D1117</color></resources>"#)] {
            try FileManager.default.createDirectory(at: res.appendingPathComponent(folder), withIntermediateDirectories: true)
            try xml.write(to: res.appendingPathComponent(folder).appendingPathComponent("colors.xml"), atomically: true, encoding: .utf8)
        }
        try #"{"checks": [{"id": "body", "foreground": "ink", "background": "paper"}]}"#
            .write(to: URL(fileURLWithPath: res.path + ".checks.json"), atomically: true, encoding: .utf8)
        let json = ##"{"name": "app", "themes": {"light": {"tokens": {"ink": "#59636e", "paper": "#ffffff"}}, "dark": {"extends": "light", "tokens": {"ink": "#9198a1", "paper": "#0d1117"}}}, "checks": [{"id": "body", "foreground": "ink", "background": "paper"}]}"##
        func rows(_ p: Palette) -> [String] {
            Auditor().audit(p).themes.flatMap { t in t.results.map { "\(t.name) \($0.id) \($0.foreground.hex) \($0.background.hex) \($0.ratio) \($0.verdict)" } }
        }
        let expected = rows(try #require(PaletteDecoder.decode(json, file: "app.json").palette))
        #expect(expected.count == 2)
        #expect(rows(try #require(PaletteLoader.loadSources(paths: [url.path]).palettes.first?.palette)) == expected)
        #expect(rows(try #require(PaletteLoader.loadSources(paths: [res.path]).palettes.first?.palette)) == expected)
    }
}

/// Xcode's template AccentColor, and catalogs that share a name.
@Suite struct CatalogIdentityTests {
    @Test func theTemplateAccentColorIsTheSystemAccentWithAnAssumption() throws {
        let catalog = try AssetCatalogTests.catalog([
            "AccentColor.colorset/Contents.json": #"{"colors": [{"idiom": "universal"}], "info": {"author": "xcode", "version": 1}}"#,
            "WidgetBackground.colorset/Contents.json": #"{"colors": [{"idiom": "universal"}], "info": {"author": "xcode", "version": 1}}"#,
        ])
        let loaded = PaletteLoader().loadSources(paths: [catalog.path]).palettes[0]
        let palette = try #require(loaded.palette)
        let accent = try #require(palette.themes[0].tokens.first { $0.name == "AccentColor" })
        #expect(resolvedColors(palette)["light"]?["AccentColor"] == "#0088ff")
        #expect(accent.assumed?.contains("system accent color") == true)
        // Only AccentColor means the accent: another empty set is listed as not read.
        let ledger = palette.ledger.completed(with: palette).summary
        #expect(ledger.notRead.map(\.name) == ["WidgetBackground"])
        #expect(ledger.read == 1)
        // An empty set is a valid catalog: a warning at the set, not a problem that stops the audit.
        #expect(loaded.problems.filter { $0.severity == .error }.isEmpty, "\(loaded.problems.map(\.message))")
        #expect(loaded.problems.contains { $0.severity == .warning && $0.message.contains("WidgetBackground has no color assigned") })
    }

    @Test func aCatalogOfIconsInAWalkedFolderIsSkippedAndNamedAloneIsAnError() throws {
        // Element's repository holds Colors.xcassets beside Icons.xcassets (image sets only):
        // auditing the repository exited 2 on the icons.
        let colors = try AssetCatalogTests.catalog(["a.colorset/Contents.json": AssetCatalogTests.colorSet([AssetCatalogTests.entry(#""red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000""#)])])
        let base = colors.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: base) }
        let icons = base.appendingPathComponent("Icons.xcassets")
        try FileManager.default.createDirectory(at: icons.appendingPathComponent("admin.imageset"), withIntermediateDirectories: true)
        try #"{"info": {"author": "xcode", "version": 1}}"#.write(to: icons.appendingPathComponent("Contents.json"), atomically: true, encoding: .utf8)
        try #"{"images": [{"filename": "admin.svg", "idiom": "universal"}], "info": {"author": "xcode", "version": 1}}"#.write(to: icons.appendingPathComponent("admin.imageset/Contents.json"), atomically: true, encoding: .utf8)
        let walked = PaletteLoader().loadSources(paths: [base.path])
        #expect(walked.palettes.map { $0.palette?.name } == ["Assets"])
        #expect(walked.palettes.allSatisfy { $0.problems.isEmpty }, "\(walked.palettes.map { $0.problems })")
        #expect(walked.skipped.contains { $0.file.hasSuffix("Icons.xcassets") && $0.reason == "the asset catalog holds no color sets" })
        let named = PaletteLoader().loadSources(paths: [icons.path])
        #expect(named.palettes.count == 1 && named.palettes[0].palette == nil)
        #expect(named.palettes[0].problems.map { $0.message } == ["the asset catalog holds no color sets"])
    }

    @Test func twoCatalogsOfOneNameGetDistinctNames() throws {
        let one = try AssetCatalogTests.catalog(["a.colorset/Contents.json": AssetCatalogTests.colorSet([AssetCatalogTests.entry(#""red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000""#)])])
        let two = try AssetCatalogTests.catalog(["b.colorset/Contents.json": AssetCatalogTests.colorSet([AssetCatalogTests.entry(#""red": "0.000", "green": "0.000", "blue": "1.000", "alpha": "1.000""#)])])
        let names = PaletteLoader().loadSources(paths: [one.path, two.path]).palettes.compactMap(\.palette?.name)
        #expect(names.count == 2 && Set(names).count == 2, "\(names)")
        #expect(names.allSatisfy { $0.hasPrefix("Assets (catalog-") }, "\(names)")
    }
}
