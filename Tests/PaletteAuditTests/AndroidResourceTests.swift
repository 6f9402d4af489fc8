import ColorScience
import Foundation
@testable import PaletteAudit
import Testing

/// Android `res/` trees as Android Studio writes them.
@Suite struct AndroidResourceTests {
    static func tree(_ files: [String: String]) throws -> URL {
        let res = FileManager.default.temporaryDirectory.appendingPathComponent("android-\(UUID().uuidString)/app/src/main/res")
        for (path, text) in files {
            let file = res.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return res
    }

    static func colors(_ palette: Palette) -> [String: [String: String]] { resolvedColors(palette) }

    @Test func valuesNightQualifiersAndReferences() throws {
        let res = try Self.tree([
            "values/colors.xml": """
            <?xml version="1.0" encoding="utf-8"?>
            <resources>
                <!-- alpha comes first on Android -->
                <color name="rgb">#F60</color>
                <color name="argb">#8F60</color>
                <color name="rrggbb">#1F1F1F</color>
                <color name="aarrggbb">#991F1F1F</color>
                <color name="white">@android:color/white</color>
                <color name="holo">@android:color/holo_blue_dark</color>
                <color name="alias">@color/rrggbb</color>
                <color name="themed">?attr/colorPrimary</color>
                <string name="app_name">Not a color</string>
            </resources>
            """,
            "values/other.xml": #"<resources><color name="surface">#FFFFFF</color></resources>"#,
            "values-night/colors.xml": #"<resources><color name="rrggbb">#E3E3E3</color><color name="surface">#121212</color></resources>"#,
            "values-night-v31/colors.xml": #"<resources><color name="surface">#101010</color></resources>"#,
            "values-land/colors.xml": #"<resources><color name="rrggbb">#000000</color></resources>"#,
            "values-sw600dp/dimens.xml": #"<resources><dimen name="gap">8dp</dimen></resources>"#,
            "color/button_text.xml": ##"<selector xmlns:android="http://schemas.android.com/apk/res/android"><item android:color="#FF0000"/></selector>"##,
        ])
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [res.path])
        let palette = try #require(loaded.palettes.first?.palette)
        #expect(palette.name == "app" && palette.format == "Android color resources")
        #expect(palette.themes.map(\.name) == ["light", "dark"])
        let colors = Self.colors(palette)
        #expect(colors["light"] == ["rgb": "#ff6600", "argb": "#ff660088", "rrggbb": "#1f1f1f", "aarrggbb": "#1f1f1f99",
                                    "white": "#ffffff", "holo": "#0099cc", "alias": "#1f1f1f", "surface": "#ffffff"])
        // values-night overrides; -v31 wins within the night configuration; the rest is inherited.
        #expect(colors["dark"]?["rrggbb"] == "#e3e3e3" && colors["dark"]?["alias"] == "#e3e3e3" && colors["dark"]?["surface"] == "#101010")
        #expect(colors["dark"]?["aarrggbb"] == "#1f1f1f99")
        let messages = loaded.palettes[0].problems.map(\.message)
        #expect(messages.contains("color themed: ?attr/colorPrimary is a theme attribute: its color depends on the app's theme, which a resource file does not say"))
        #expect(messages.contains("values-land/ is not read: its qualifier land selects devices or languages, not a light or dark theme"))
        #expect(messages.contains("values-sw600dp/ is not read: its qualifier sw600dp selects devices or languages, not a light or dark theme"))
        #expect(messages.contains { $0.hasPrefix("color/ holds color state lists (button_text.xml), which pick a color by state; they are not read") })
        #expect(loaded.palettes[0].problems.filter { !$0.isWarning }.isEmpty)
        let attr = try #require(loaded.palettes[0].problems.first { $0.message.hasPrefix("color themed") })
        #expect(attr.location?.line == 11 && attr.file?.hasSuffix("values/colors.xml") == true)
    }

    @Test func brokenXMLAndBadValuesAreLocated() throws {
        let res = try Self.tree([
            "values/colors.xml": "<resources>\n  <color name=\"ok\">#000000</color>\n  <color name=\"bad\">#12345</color>\n  <color name=\"unknown\">@android:color/system_accent1_500</color>\n</resources>\n",
            "values/broken.xml": "<resources>\n  <color name=\"x\">#000</resources>\n",
        ])
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [res.path])
        let problems = loaded.palettes[0].problems
        // Bytes that are not UTF-8 (here in an element name, which Foundation's parser would trap
        // on) are a located problem, never a crash.
        var invalid = Data("<resources>\n  <c".utf8)
        invalid.append(contentsOf: [0xCF, 0xCF, 0xCF])
        invalid.append(contentsOf: Data("olor name=\"a\">#8F60</color>\n</resources>\n".utf8))
        var reader = AndroidResourceReader(root: "/tmp/res")
        reader.readData(invalid, path: "/tmp/res/values/bad.xml", theme: "light", apiLevel: 0)
        #expect(reader.problems.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }
            == ["2:5 not valid UTF-8 at byte 16 (1 byte that are not a character); Android resource files are UTF-8"])
        let broken = try #require(problems.first { $0.file?.hasSuffix("broken.xml") == true })
        #expect(broken.message.hasPrefix("not well-formed XML") && broken.location?.line == 2)
        #expect(problems.contains { $0.message == "color bad: \"#12345\" has 5 hex digits; Android colors have 3, 4, 6 or 8 (alpha first: #ARGB, #AARRGGBB)" && $0.location?.line == 3 })
        #expect(problems.contains { $0.message.hasPrefix("color unknown: @android:color/system_accent1_500 is not one of the framework's fixed colors") })
    }

    /// A color a higher API level replaces is listed, with what replaces it; two of one name in
    /// one configuration are a problem, as Android's build refuses them.
    @Test func replacedColorsAreAccountedFor() throws {
        let res = try Self.tree([
            "values/colors.xml": "<resources>\n  <color name=\"ink\">#111111</color>\n  <color name=\"paper\">#FFFFFF</color>\n</resources>\n",
            "values/more.xml": "<resources>\n  <color name=\"paper\">#FAFAFA</color>\n</resources>\n",
            "values-v31/colors.xml": "<resources>\n  <color name=\"ink\">#222222</color>\n</resources>\n",
        ])
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [res.path])
        let palette = try #require(loaded.palettes.first?.palette)
        #expect(Self.colors(palette)["light"] == ["ink": "#222222", "paper": "#fafafa"])
        let ledger = palette.ledger.completed(with: palette)
        #expect(ledger.notReadEntries.map { "\(Self.place($0)) \($0.name): \($0.reason ?? "")" } == [
            "values/colors.xml:2 ink: replaced on API 31 and up by values-v31/colors.xml:2, and the audit reads the highest API level",
            "values/colors.xml:3 paper: replaced by another <color name=\"paper\"> of the same configuration (values/more.xml:2)",
        ])
        #expect(ledger.headline == "read 2 of 4 color declarations; 2 not read")
        #expect(loaded.palettes[0].problems.map { "\(Self.place($0.file, $0.location?.line)) \($0.message)" } == [
            "values/more.xml:2 color paper is defined twice in one configuration (also at values/colors.xml:3); Android's build refuses that",
        ])
    }

    /// `folder/file.xml:line` of a ledger entry.
    static func place(_ entry: ReadLedger.Entry) -> String { place(entry.file, entry.line) }

    static func place(_ file: String?, _ line: Int?) -> String {
        (file ?? "").split(separator: "/").suffix(2).joined(separator: "/") + (line.map { ":\($0)" } ?? "")
    }

    /// The same palette as JSON and as colors.xml audits identically.
    @Test func sameAuditAsJSON() throws {
        let res = try Self.tree([
            "values/colors.xml": #"<resources><color name="ink">#59636E</color><color name="paper">#FFFFFF</color></resources>"#,
            "values-night/colors.xml": #"<resources><color name="ink">#9198A1</color><color name="paper">#0D1117</color></resources>"#,
        ])
        try #"{"checks": [{"id": "body", "foreground": "ink", "background": "paper"}]}"#
            .write(to: URL(fileURLWithPath: res.path + ".checks.json"), atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        let android = try #require(PaletteLoader.loadSources(paths: [res.path]).palettes.first?.palette)
        let json = ##"{"name": "app", "themes": {"light": {"tokens": {"ink": "#59636e", "paper": "#ffffff"}}, "dark": {"extends": "light", "tokens": {"ink": "#9198a1", "paper": "#0d1117"}}}, "checks": [{"id": "body", "foreground": "ink", "background": "paper"}]}"##
        let fromJSON = try #require(PaletteDecoder.decode(json, file: "app.json").palette)
        func rows(_ p: Palette) -> [String] {
            Auditor().audit(p).themes.flatMap { t in t.results.map { "\(t.name) \($0.id) \($0.ratio) \($0.verdict)" } }
        }
        #expect(rows(android) == rows(fromJSON))
        #expect(rows(android).count == 2)
    }
}
