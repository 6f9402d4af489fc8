import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Android `res/` trees as Android Studio writes them.
@Suite struct AndroidResourceTests {
    static func tree(_ files: [String: String]) throws -> URL {
        let res = Scratch.directory("android").appendingPathComponent("app/src/main/res")
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
            "values/other.xml": #"<resources><color name="surface">#FFFFFF</color><item name="legacy" type="color">#123456</item></resources>"#,
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
                                    "white": "#ffffff", "holo": "#0099cc", "alias": "#1f1f1f", "surface": "#ffffff", "legacy": "#123456"])
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
    @Test func aFileThatDeclaresEntitiesIsNotReadWhereItsTextWouldBeLost() {
        // Foundation's parser drops an entity reference's text: "#ff&x;ff" came out as "#ffff",
        // another color, measured with exit 0. Character references are still read.
        var reader = AndroidResourceReader(root: "/tmp/res")
        let declared = "<?xml version=\"1.0\"?>\n<!DOCTYPE resources [\n  <!ENTITY x \"00\">]>\n<resources><color name=\"a\">#ff&x;ff</color></resources>\n"
        reader.readData(Data(declared.utf8), path: "/tmp/res/values/colors.xml", theme: "light", apiLevel: 0)
        #expect(reader.problems.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message.prefix(48))" }
            == ["3:3 the DOCTYPE declares an XML entity (<!ENTITY …>)"])
        #expect(reader.colors.isEmpty)
        var plain = AndroidResourceReader(root: "/tmp/res")
        plain.readData(Data("<resources><color name=\"a\">&#35;ff&#x30;0&amp;</color></resources>".utf8), path: "/tmp/res/values/colors.xml", theme: "light", apiLevel: 0)
        #expect(plain.colors["light"]?.map(\.value) == ["#ff00&"])
    }

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

    /// An app's themes as styles: each style that is a theme and sets a color is a theme of the
    /// palette, its tokens its color attributes, with inheritance (explicit and dotted), `?attr/`
    /// references resolved in the theme, and `@color/` in the theme's configuration.
    static let appThemes: [String: String] = [
        "values/colors.xml": """
        <resources>
            <color name="ink">#1F1F1F</color>
            <color name="paper">#FFFFFF</color>
            <color name="brand">#3366CC</color>
        </resources>
        """,
        "values-night/colors.xml": """
        <resources>
            <color name="ink">#E3E3E3</color>
            <color name="paper">#121212</color>
        </resources>
        """,
        "values/attrs.xml": """
        <resources>
            <attr name="paper_color" format="color"/>
            <attr name="ink_color" format="color"/>
            <attr name="gap" format="dimension"/>
            <declare-styleable name="Card"><attr name="cardTint" format="color"/></declare-styleable>
        </resources>
        """,
        "values/themes.xml": """
        <resources xmlns:tools="http://schemas.android.com/tools">
            <style name="Theme.App" parent="Theme.MaterialComponents.DayNight.NoActionBar">
                <item name="colorPrimary">@color/brand</item>
                <item name="colorOnPrimary">@android:color/white</item>
                <item name="paper_color">@color/paper</item>
                <item name="ink_color">@color/ink</item>
                <item name="android:textColorPrimary">?android:attr/colorForeground</item>
                <item name="android:colorForeground">?attr/ink_color</item>
                <item name="colorSurface">?paper_color</item>
                <item name="scrim">#80000000</item>
                <item name="colorError">?attr/colorErrorContainer</item>
                <item name="android:windowBackground">@drawable/bg</item>
                <item name="android:windowLightStatusBar" tools:targetApi="m">true</item>
                <item name="android:textSize">14sp</item>
                <item name="toolbarStyle">@style/Toolbar</item>
                <item name="android:statusBarColor">@null</item>
                <item name="loop_a">?attr/loop_b</item>
                <item name="loop_b">?attr/loop_a</item>
                <item name="spacing">?attr/gap</item>
            </style>
            <style name="Theme.App.Brand">
                <item name="paper_color">#F0F0F0</item>
            </style>
            <style name="Theme.App.Fullscreen">
                <item name="android:windowFullscreen">true</item>
            </style>
            <style name="ThemeSepia">
                <item name="paper_color">#F8F1E3</item>
                <item name="ink_color">@color/ink</item>
            </style>
            <style name="Warm" parent="@style/ThemeSepia">
                <item name="ink_color">#FF3B2F2F</item>
                <item name="colorAccent">#8F60</item>
            </style>
            <style name="Widget.Button" parent="Widget.MaterialComponents.Button">
                <item name="android:textColor">?attr/ink_color</item>
                <item name="cornerRadius">8dp</item>
            </style>
            <style name="ThemeOverlay.App.Dialog" parent="ThemeOverlay.MaterialComponents.Dialog">
                <item name="colorSurface">?attr/paper_color</item>
            </style>
        </resources>
        """,
    ]

    @Test func appThemesFromStyles() throws {
        let res = try Self.tree(Self.appThemes)
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        // Checks name attributes and colors as Android writes them.
        try #"""
        {"checks": [
          {"id": "body", "foreground": "?attr/ink_color", "background": "?paper_color", "themes": ["Theme.App", "Theme.App-night", "Warm"]},
          {"id": "primary", "foreground": "?android:attr/textColorPrimary", "background": "colorSurface", "themes": ["Theme.App.Brand"]},
          {"id": "brand", "foreground": "@color/brand", "background": "@color/paper", "themes": ["light"]},
          {"id": "ink", "foreground": "@color/ink", "background": "@color/paper"}
        ]}
        """#.write(to: URL(fileURLWithPath: res.path + ".checks.json"), atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadSources(paths: [res.path])
        let palette = try #require(loaded.palettes.first?.palette)
        // The colors.xml themes stay; a theme whose colors differ at night has a -night variant;
        // Theme.App.Fullscreen sets no color, so it is Theme.App's colors, not a theme of its own.
        #expect(palette.themes.map(\.name) == ["light", "dark", "Theme.App", "Theme.App-night", "Theme.App.Brand", "Theme.App.Brand-night",
                                               "ThemeSepia", "ThemeSepia-night", "Warm"])
        #expect(palette.themes.map { $0.colorScheme?.rawValue ?? "-" } == ["light", "dark", "light", "dark", "light", "dark", "-", "-", "-"])
        let colors = Self.colors(palette)
        // An app theme sees its configuration's color resources beside its attributes, so a
        // check may name @color/ in any theme.
        let day = ["ink": "#1f1f1f", "paper": "#ffffff", "brand": "#3366cc"], night = ["ink": "#e3e3e3", "paper": "#121212", "brand": "#3366cc"]
        #expect(colors["Theme.App"] == day.merging(["colorPrimary": "#3366cc", "colorOnPrimary": "#ffffff", "paper_color": "#ffffff", "ink_color": "#1f1f1f",
                                                    "android:textColorPrimary": "#1f1f1f", "android:colorForeground": "#1f1f1f", "colorSurface": "#ffffff",
                                                    "scrim": "#00000080"]) { $1 })
        #expect(colors["Theme.App-night"]?.filter { day.keys.contains($0.key) } == night)
        // values-night's colors, through @color/ and ?attr/.
        #expect(colors["Theme.App-night"]?["paper_color"] == "#121212" && colors["Theme.App-night"]?["android:textColorPrimary"] == "#e3e3e3")
        #expect(colors["Theme.App-night"]?["colorPrimary"] == "#3366cc")
        // The dotted parent: Theme.App.Brand is Theme.App with its own paper, which ?paper_color
        // now names.
        #expect(colors["Theme.App.Brand"]?["colorSurface"] == "#f0f0f0" && colors["Theme.App.Brand"]?["colorPrimary"] == "#3366cc")
        #expect(colors["Theme.App.Brand-night"]?["colorSurface"] == "#f0f0f0" && colors["Theme.App.Brand-night"]?["ink_color"] == "#e3e3e3")
        // The explicit parent, and ARGB literals (alpha first).
        #expect(colors["Warm"] == day.merging(["paper_color": "#f8f1e3", "ink_color": "#3b2f2f", "colorAccent": "#ff660088"]) { $1 })
        // A ?attr/ reference is an alias, shown as written.
        let surface = try #require(palette.theme(named: "Theme.App")?.tokens.first { $0.name == "colorSurface" })
        #expect(surface.value == "{paper_color}" && surface.writtenReference == "?paper_color" && surface.location?.line == 9)

        let rows = Auditor().audit(palette).themes.flatMap { theme in
            theme.results.map { "\(theme.name) \($0.id) \($0.foreground.token ?? "-") \($0.foreground.hex) on \($0.background.token ?? "-") \($0.background.hex)" }
        }
        #expect(rows == ["light brand brand #3366cc on paper #ffffff", "light ink ink #1f1f1f on paper #ffffff",
                         "dark ink ink #e3e3e3 on paper #121212",
                         "Theme.App body ink_color #1f1f1f on paper_color #ffffff", "Theme.App ink ink #1f1f1f on paper #ffffff",
                         "Theme.App-night body ink_color #e3e3e3 on paper_color #121212", "Theme.App-night ink ink #e3e3e3 on paper #121212",
                         "Theme.App.Brand primary android:textColorPrimary #1f1f1f on colorSurface #f0f0f0", "Theme.App.Brand ink ink #1f1f1f on paper #ffffff",
                         "Theme.App.Brand-night ink ink #e3e3e3 on paper #121212",
                         "ThemeSepia ink ink #1f1f1f on paper #ffffff", "ThemeSepia-night ink ink #e3e3e3 on paper #121212",
                         "Warm body ink_color #3b2f2f on paper_color #f8f1e3", "Warm ink ink #1f1f1f on paper #ffffff"])
        let ledger = palette.ledger.completed(with: palette)
        #expect(ledger.notReadEntries.map { "\(Self.place($0)) \($0.name): \($0.reason ?? "")" } == [
            "values/themes.xml:11 colorError: ?attr/colorErrorContainer is not set by theme Theme.App or the app's styles it inherits (what its parent Theme.MaterialComponents.DayNight.NoActionBar sets is not known: it is not in this tree)",
            "values/themes.xml:17 loop_a: ?attr/ references make a cycle in theme Theme.App: loop_a → loop_b → loop_a",
            "values/themes.xml:18 loop_b: ?attr/ references make a cycle in theme Theme.App: loop_b → loop_a → loop_b",
            "values/themes.xml:36 android:textColor: in style Widget.Button, a widget or text style rather than an app theme: its colors apply where a layout uses it, which resource files do not say",
            "values/themes.xml:40 colorSurface: in style ThemeOverlay.App.Dialog, a theme overlay: it applies over whichever app theme is current, which resource files do not say",
        ])
        #expect(ledger.entries.filter { $0.disposition == .notColor }.map { "\($0.line ?? 0) \($0.name): \($0.type ?? "")" } == [
            "12 android:windowBackground: drawable", "13 android:windowLightStatusBar: boolean", "14 android:textSize: dimension",
            "15 toolbarStyle: style", "16 android:statusBarColor: null", "19 spacing: dimension", "25 android:windowFullscreen: boolean",
            "37 cornerRadius: dimension",
        ])
        // Every color and item is one declaration: 5 colors, 26 items, of which 13 are tokens.
        #expect(ledger.headline == "read 18 of 23 color declarations; 5 not read (and 8 declarations that are not colors)")
        #expect(loaded.palettes[0].problems.map { "\(Self.place($0.file, $0.location?.line)) \($0.message)" } == [
            "values/themes.xml:17 item loop_a of theme Theme.App: ?attr/ references make a cycle: loop_a → loop_b → loop_a",
            "values/themes.xml:18 item loop_b of theme Theme.App: ?attr/ references make a cycle: loop_b → loop_a → loop_b",
            "values/themes.xml:2 style Theme.App's parent Theme.MaterialComponents.DayNight.NoActionBar is not in this tree (a library's or the framework's theme): the attributes it sets are not known, so they are not tokens of the themes that inherit it, and ?attr/ references to them are not read",
        ])
        #expect(loaded.palettes[0].problems.allSatisfy { $0.isWarning })
    }

    /// Configurations: a theme values-night redefines, a style an API level replaces, styles in
    /// folders that are not read; references that cannot be read; parents that make a cycle or
    /// that say there is none.
    /// An app theme is an app theme by what it sets: Thunderbird's `Theme2.K9.Light` has no
    /// `Theme` part in its name and its parent `Theme2.Main.Light` is in another Gradle module,
    /// but it sets Material's color roles, so it is a theme (its colors were "a widget or text
    /// style" and not read). A widget style that sets a view's colors stays a widget style.
    @Test func aStyleThatSetsThemeAttributesIsAnAppTheme() throws {
        let res = try Self.tree([
            "values/colors.xml": #"<resources><color name="blue">#1a56db</color><color name="paper">#ffffff</color></resources>"#,
            "values/themes.xml": """
            <resources>
                <style name="Theme2.K9.Light" parent="Theme2.Main.Light">
                    <item name="colorPrimary">@color/blue</item>
                    <item name="colorOnSurface">#1b1b1f</item>
                    <item name="android:colorBackground">@color/paper</item>
                </style>
                <style name="Widget.App.Chip" parent="Widget.Material3.Chip">
                    <item name="android:textColor">#1b1b1f</item>
                    <item name="android:background">@color/paper</item>
                </style>
                <style name="PassCodeStyle">
                    <item name="android:layout_width">50dp</item>
                    <item name="colorPrimary">@color/blue</item>
                </style>
                <style name="TextInputLayoutLogin" parent="Widget.Material3.TextInputLayout.OutlinedBox">
                    <item name="android:colorPrimary">@color/paper</item>
                </style>
            </resources>
            """,
        ])
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [res.path])
        let palette = try #require(loaded.palettes.first?.palette)
        #expect(palette.themes.map(\.name) == ["light", "Theme2.K9.Light"])
        #expect(Self.colors(palette)["Theme2.K9.Light"]?["colorPrimary"] == "#1a56db")
        let unread = palette.ledger.entries.filter { $0.disposition == .notRead }
        // Widget styles that set a theme attribute beside a view's own, or that inherit a widget.
        #expect(unread.map(\.name).sorted() == ["android:background", "android:colorPrimary", "android:textColor", "colorPrimary"])
        #expect(unread.allSatisfy { $0.reason?.contains(", a widget or text style") == true })
        // Which parent is not in the tree is said, once.
        #expect(loaded.palettes[0].problems.filter { $0.message.hasPrefix("style Theme2.K9.Light's parent Theme2.Main.Light is not in this tree") }.count == 1)
    }

    /// A color that names a library's resource (Nextcloud's `@color/high_emphasis_text`, from a
    /// dependency) is valid: it is not read, a warning says so, and only the checks that use it
    /// are unresolved; the rest of the audit stands (it was a problem that failed the audit).
    @Test func aColorFromALibraryLeavesOnlyItsChecksUnresolved() throws {
        let res = try Self.tree([
            "values/colors.xml": """
            <resources>
                <color name="text">#222222</color>
                <color name="paper">#ffffff</color>
                <color name="offline">@color/high_emphasis_text</color>
                <color name="away">@color/offline</color>
            </resources>
            """,
        ])
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [res.path])
        var palette = try #require(loaded.palettes.first?.palette)
        let problems = loaded.palettes[0].problems
        #expect(!problems.contains { $0.severity == .error }, "\(problems)")
        #expect(problems.filter { $0.message.hasPrefix("color offline: @color/high_emphasis_text is not in this tree") && $0.severity == .warning }.count == 1)
        let unread = Dictionary(uniqueKeysWithValues: palette.ledger.entries.filter { $0.disposition == .notRead }.map { ($0.name, $0.reason ?? "") })
        #expect(unread["offline"]?.hasPrefix("@color/high_emphasis_text names no <color>") == true)
        #expect(unread["away"]?.hasPrefix("@color/high_emphasis_text (through @color/offline) names no <color>") == true)
        palette.checks = [Check(id: "text", foreground: "text", background: "paper"), Check(id: "away", foreground: "away", background: "paper")]
        let report = Auditor().audit(palette, problems: problems)
        let light = try #require(report.themes.first)
        #expect(light.results.map(\.id) == ["text"])
        #expect(light.unresolved?.map(\.id) == ["away"])
    }

    @Test func appThemeConfigurationsAndUnreadValues() throws {
        let res = try Self.tree([
            "values/colors.xml": #"<resources><color name="brand">#3366CC</color></resources>"#,
            "values-night/colors.xml": #"<resources><color name="brand">#99BBFF</color></resources>"#,
            "color/button_text.xml": ##"<selector xmlns:android="http://schemas.android.com/apk/res/android"><item android:color="#FF0000"/></selector>"##,
            "values/themes.xml": """
            <resources>
                <style name="AppTheme" parent="Theme.AppCompat.Light">
                    <item name="colorPrimary">@color/brand</item>
                    <item name="colorAccent">@color/button_text</item>
                    <item name="colorControlNormal">@color/mtrl_on_surface</item>
                    <item name="colorError">#12345</item>
                    <item name="colorSecondary">@android:color/system_accent1_500</item>
                </style>
                <style name="AppTheme.Splash">
                    <item name="android:windowBackground">@color/brand</item>
                </style>
                <style name="CycleA" parent="CycleB">
                    <item name="isLightTheme">false</item>
                    <item name="colorPrimary">#000000</item>
                </style>
                <style name="CycleB" parent="CycleA"/>
                <style name="Standalone.Theme" parent="">
                    <item name="colorPrimary">#FF0000</item>
                </style>
            </resources>
            """,
            "values-v31/themes.xml": """
            <resources>
                <style name="AppTheme.Splash">
                    <item name="android:windowSplashScreenBackground">@color/brand</item>
                </style>
            </resources>
            """,
            "values-night/themes.xml": """
            <resources>
                <style name="AppTheme" parent="Theme.AppCompat">
                    <item name="colorPrimary">@color/brand</item>
                </style>
            </resources>
            """,
            "values-land/themes.xml": #"<resources><style name="AppTheme"><item name="colorPrimary">#000</item><item name="android:padding">4dp</item></style></resources>"#,
        ])
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        let loaded = PaletteLoader.loadSources(paths: [res.path])
        let palette = try #require(loaded.palettes.first?.palette)
        #expect(palette.themes.map(\.name) == ["light", "dark", "AppTheme", "AppTheme-night", "AppTheme.Splash", "AppTheme.Splash-night", "CycleA", "Standalone.Theme"])
        // android:isLightTheme says which scheme a theme is; a parent's name may.
        #expect(palette.themes.map { $0.colorScheme?.rawValue ?? "-" } == ["light", "dark", "light", "-", "light", "-", "dark", "-"])
        #expect(Self.colors(palette) == [
            "light": ["brand": "#3366cc"], "dark": ["brand": "#99bbff"],
            // values-night's AppTheme replaces values' at night, and its children inherit it there.
            // Each app theme also sees its configuration's colors (brand).
            "AppTheme": ["colorPrimary": "#3366cc", "brand": "#3366cc"], "AppTheme-night": ["colorPrimary": "#99bbff", "brand": "#99bbff"],
            // values-v31's AppTheme.Splash is read (the highest API level).
            "AppTheme.Splash": ["colorPrimary": "#3366cc", "android:windowSplashScreenBackground": "#3366cc", "brand": "#3366cc"],
            "AppTheme.Splash-night": ["colorPrimary": "#99bbff", "android:windowSplashScreenBackground": "#99bbff", "brand": "#99bbff"],
            "CycleA": ["colorPrimary": "#000000", "brand": "#3366cc"], "Standalone.Theme": ["colorPrimary": "#ff0000", "brand": "#3366cc"],
        ])
        let ledger = palette.ledger.completed(with: palette)
        #expect(ledger.notReadEntries.map { "\(Self.place($0)) \($0.name): \($0.reason ?? "")" } == [
            "color/button_text.xml button_text: a color state list (color/button_text.xml): it picks a color by state, so there is no one color to measure",
            "values-land/themes.xml:1 colorPrimary: in values-land/, whose qualifier land selects devices or languages, not a light or dark theme",
            "values/themes.xml:4 colorAccent: @color/button_text is a color state list (color/button_text.xml): it picks a color by state, so there is no one color to measure",
            "values/themes.xml:5 colorControlNormal: @color/mtrl_on_surface names no <color> in values*/ and no color state list in color/ (a library's color, or one this tree does not hold)",
            "values/themes.xml:6 colorError: \"#12345\" has 5 hex digits; Android colors have 3, 4, 6 or 8 (alpha first: #ARGB, #AARRGGBB)",
            "values/themes.xml:7 colorSecondary: @android:color/system_accent1_500 is not one of the framework's fixed colors (\(AndroidResourceReader.framework.keys.sorted().joined(separator: ", "))); it may depend on the theme",
            "values/themes.xml:10 android:windowBackground: in style AppTheme.Splash, which values-v31/themes.xml:2 replaces on API 31 and up, and the audit reads the highest API level",
        ])
        #expect(ledger.entries.filter { $0.disposition == .notColor }.map { "\(Self.place($0)) \($0.name): \($0.type ?? "")" }
            == ["values-land/themes.xml:1 android:padding: dimension", "values/themes.xml:13 isLightTheme: boolean"])
        #expect(ledger.headline == "read 7 of 14 color declarations; 7 not read (and 2 declarations that are not colors)")
        #expect(loaded.palettes[0].problems.map { "\($0.isWarning ? "warning" : "error") \(Self.place($0.file, $0.location?.line)) \($0.message)" } == [
            "warning res/color color/ holds color state lists (button_text.xml), which pick a color by state; they are not read, and a @color/ reference to one is reported where it is used",
            "warning res/values-land values-land/ is not read: its qualifier land selects devices or languages, not a light or dark theme",
            "error values/themes.xml:6 item colorError of theme AppTheme: \"#12345\" has 5 hex digits; Android colors have 3, 4, 6 or 8 (alpha first: #ARGB, #AARRGGBB)",
            "error values/themes.xml:7 item colorSecondary of theme AppTheme: @android:color/system_accent1_500 is not one of the framework's fixed colors (\(AndroidResourceReader.framework.keys.sorted().joined(separator: ", "))); it may depend on the theme",
            "error values/themes.xml:12 style CycleA's parents make a cycle: CycleA → CycleB → CycleA; Android's build refuses that",
            "error values/themes.xml:16 style CycleB's parents make a cycle: CycleB → CycleA → CycleB; Android's build refuses that",
            "warning values/themes.xml:2 style AppTheme's parent Theme.AppCompat.Light is not in this tree (a library's or the framework's theme): the attributes it sets are not known, so they are not tokens of the themes that inherit it, and ?attr/ references to them are not read",
            "warning values-night/themes.xml:2 style AppTheme's parent Theme.AppCompat is not in this tree (a library's or the framework's theme): the attributes it sets are not known, so they are not tokens of the themes that inherit it, and ?attr/ references to them are not read",
        ])
    }

    /// `?attr/` chains are followed 256 deep, and every step spends from the read's budget.
    @Test func themeReferencesAreBounded() throws {
        let items = (0..<300).map { "<item name=\"a\($0)\">?attr/a\($0 + 1)</item>" }.joined() + "<item name=\"a300\">#000000</item>"
        let xml = Data("<resources><style name=\"Theme.Deep\">\(items)</style></resources>".utf8)
        var reader = AndroidResourceReader(root: "/tmp/res")
        reader.readData(xml, path: "/tmp/res/values/themes.xml", theme: "light", apiLevel: 0)
        let built = reader.build(name: "app")
        let palette = try #require(built)
        // a45 is 255 references from a300's color; a44 one more than is followed.
        #expect(palette.themes.map(\.name) == ["Theme.Deep"] && palette.themes[0].tokens.count == 256)
        #expect(Self.colors(palette)["Theme.Deep"]?["a45"] == "#000000")
        let deep = try #require(palette.ledger.notReadEntries.first { $0.name == "a44" })
        #expect(deep.reason == "?attr/ references from ?attr/a45 go more than 256 deep")

        var stopped = AndroidResourceReader(root: "/tmp/res")
        stopped.readData(xml, path: "/tmp/res/values/themes.xml", theme: "light", apiLevel: 0)
        let budget = ReadBudget(maximumSteps: 1_000)
        _ = ReadBudget.withBudget(budget) { stopped.build(name: "app") }
        #expect(budget.problem?.message.hasPrefix("reading the ?attr/ references of theme Theme.Deep would take more than 1000 steps") == true)
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
