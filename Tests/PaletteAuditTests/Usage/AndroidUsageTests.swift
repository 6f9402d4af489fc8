import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The Android usage reader (issue #48): layouts' text on what is behind it, styles, app themes
/// by Material's roles; names as the palette reader gives them.
@Suite struct AndroidUsageTests {
    static let colors = """
        <?xml version="1.0" encoding="utf-8"?>
        <resources>
            <color name="ink">#111111</color>
            <color name="paper">#fafafa</color>
            <color name="brand">#0b5394</color>
            <color name="on_brand">#ffffff</color>
            <color name="clear">#00000000</color>
            <color name="veil">#80000000</color>
            <color name="gray_disabled">#9e9e9e</color>
        </resources>
        """

    static let themes = """
        <?xml version="1.0" encoding="utf-8"?>
        <resources>
            <style name="AppTheme" parent="Theme.Material3.Light.NoActionBar">
                <item name="colorPrimary">@color/brand</item>
                <item name="colorOnPrimary">@color/on_brand</item>
                <item name="colorSurface">@color/paper</item>
                <item name="colorOnSurface">@color/ink</item>
                <item name="android:colorBackground">@color/paper</item>
            </style>
        </resources>
        """

    static let styles = """
        <?xml version="1.0" encoding="utf-8"?>
        <resources>
            <style name="Label">
                <item name="android:textColor">@color/ink</item>
            </style>
            <style name="Label.Big">
                <item name="android:textSize">20sp</item>
            </style>
            <style name="Banner">
                <item name="android:textColor">@color/on_brand</item>
                <item name="android:background">@color/brand</item>
            </style>
        </resources>
        """

    static let selector = """
        <?xml version="1.0" encoding="utf-8"?>
        <selector xmlns:android="http://schemas.android.com/apk/res/android">
            <item android:state_enabled="false" android:color="@color/gray_disabled"/>
            <item android:state_pressed="true" android:color="@color/paper"/>
            <item android:color="@color/on_brand"/>
        </selector>
        """

    static let layout = """
        <?xml version="1.0" encoding="utf-8"?>
        <LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
            xmlns:app="http://schemas.android.com/apk/res-auto"
            xmlns:tools="http://schemas.android.com/tools"
            android:id="@+id/root"
            android:background="?attr/colorSurface">

            <TextView
                android:id="@+id/title"
                android:textColor="?attr/colorOnSurface" />

            <FrameLayout
                android:background="@android:color/transparent">
                <TextView
                    android:id="@+id/nested"
                    style="@style/Label.Big" />
            </FrameLayout>

            <Button
                android:id="@+id/go"
                android:textColor="@color/button_text"
                app:backgroundTint="?attr/colorPrimary" />

            <TextView
                android:id="@+id/banner"
                style="@style/Banner" />

            <TextView
                android:id="@+id/designed"
                tools:background="@color/brand"
                android:textColor="@color/paper" />

            <ImageView
                android:id="@+id/picture"
                android:background="@drawable/frame"
                app:tint="@color/ink" />

            <TextView
                android:id="@+id/ghost"
                android:textColor="@android:color/transparent" />

            <TextView
                android:id="@+id/over_veil"
                android:background="@color/veil"
                android:textColor="@color/paper" />

            <TextView
                android:id="@+id/unknown"
                android:textColor="?attr/colorTertiary" />

            <TextView
                android:id="@+id/see_through"
                android:background="@color/clear"
                android:textColor="@color/brand" />
        </LinearLayout>
        """

    static let bare = """
        <?xml version="1.0" encoding="utf-8"?>
        <LinearLayout xmlns:android="http://schemas.android.com/apk/res/android">
            <TextView android:id="@+id/hint" android:textColorHint="@color/brand" />
        </LinearLayout>
        """

    static func fixture() throws -> String {
        try UsageRun.write([
            "app/src/main/res/values/colors.xml": colors,
            "app/src/main/res/values/themes.xml": themes,
            "app/src/main/res/values/styles.xml": styles,
            "app/src/main/res/color/button_text.xml": selector,
            "app/src/main/res/layout/main.xml": layout,
            "app/src/main/res/layout/bare.xml": bare,
        ], prefix: "android-usage")
    }

    static func pair(_ result: UsageRun.Result, _ fg: String, _ bg: String) -> UsagePair? {
        result.pairs.first { $0.foreground == fg && $0.background == bg }
    }

    @Test func aViewsTextOnTheNearestBackgroundUpItsLayout() throws {
        let result = UsageRun.read(try Self.fixture(), with: AndroidUsageReader())
        // Its parent's background, as the palette names the attributes.
        let title = try #require(Self.pair(result, "colorOnSurface", "colorSurface"))
        #expect(title.evidence.file.hasSuffix("layout/main.xml") && title.evidence.line == 8)
        #expect(title.evidence.what == "TextView @id/title: android:textColor ?attr/colorOnSurface on LinearLayout @id/root (line 2): android:background ?attr/colorSurface")
        #expect(title.confidence == .usage && title.usage == .text)
        // Through a transparent parent, with the text color from a dotted style's parent.
        let nested = try #require(result.pairs.first { $0.evidence.line == 14 })
        #expect(nested.foreground == "ink" && nested.background == "colorSurface")
        #expect(nested.evidence.what.contains("from @style/Label.Big, values/styles.xml:4"))
    }

    @Test func aStateListIsPairedByItsRestingStateAndNeverByItsDisabledOne() throws {
        let result = UsageRun.read(try Self.fixture(), with: AndroidUsageReader())
        let go = try #require(Self.pair(result, "on_brand", "colorPrimary"))
        #expect(go.evidence.line == 19 && go.evidence.what.contains("the resting state of @color/button_text (") && go.evidence.what.contains("button_text.xml:5)"))
        #expect(go.evidence.what.contains("on its own app:backgroundTint ?attr/colorPrimary"))
        #expect(!result.pairs.contains { $0.foreground == "gray_disabled" })
        let disabled = try #require(result.notRead.first { $0.file.hasSuffix("color/button_text.xml") && $0.line == 3 })
        #expect(disabled.what.contains("disabled state") && disabled.what.contains("never proposed"))
        #expect(result.notRead.contains { $0.file.hasSuffix("color/button_text.xml") && $0.line == 4 && $0.what.contains("state_pressed") })
    }

    @Test func whatIsNotPairedIsNotedWhereItIs() throws {
        let result = UsageRun.read(try Self.fixture(), with: AndroidUsageReader())
        func note(_ line: Int) -> String? { result.notRead.first { $0.file.hasSuffix("layout/main.xml") && $0.line == line }?.what }
        // A style's own text on its own background is a pair, at the view.
        #expect(Self.pair(result, "on_brand", "brand")?.evidence.line == 24)
        // tools:background is the layout editor's only: paper sits on the root's surface, one color.
        #expect(note(28)?.contains("not proposed, paper and colorSurface are the same color, #fafafa") == true, "\(note(28) ?? "none")")
        #expect(note(33)?.contains("@drawable/frame\" is a drawable") == true)
        #expect(note(38)?.contains("draws nothing (@android:color/transparent, fully transparent)") == true, "\(note(38) ?? "none")")
        // A background token that is fully transparent shows what is behind it.
        #expect(Self.pair(result, "brand", "colorSurface")?.evidence.line == 51)
        #expect(note(42)?.contains("veil is translucent") == true)
        #expect(note(47)?.contains("?attr/colorTertiary\" is not set by any app theme read") == true)
        // None proposed is a token on itself, a disabled token or a transparent color.
        for pair in result.pairs {
            #expect(pair.foreground != pair.background)
            #expect(!pair.foreground.contains("disabled") && !pair.background.contains("disabled"))
            #expect(!["clear", "veil"].contains(pair.background) && pair.foreground != "clear")
        }
    }

    @Test func aViewWithNothingBehindItSitsOnTheWindow() throws {
        let result = UsageRun.read(try Self.fixture(), with: AndroidUsageReader())
        let hint = try #require(Self.pair(result, "brand", "android:colorBackground"))
        #expect(hint.confidence == .convention && hint.evidence.file.hasSuffix("layout/bare.xml") && hint.evidence.line == 3)
        #expect(hint.evidence.what.contains("no background up its layout: on the window, the app theme's android:colorBackground"))
    }

    @Test func anAppThemeIsPairedByMaterialsRoles() throws {
        let result = UsageRun.read(try Self.fixture(), with: AndroidUsageReader())
        let onPrimary = try #require(Self.pair(result, "colorOnPrimary", "colorPrimary"))
        #expect(onPrimary.confidence == .convention && onPrimary.evidence.file.hasSuffix("values/themes.xml") && onPrimary.evidence.line == 5)
        #expect(onPrimary.evidence.what == "theme AppTheme sets colorOnPrimary (line 5) and colorPrimary (line 4): Material's on-primary on primary")
        #expect(result.pairs.first { $0.foreground == "colorOnSurface" && $0.background == "colorSurface" && $0.evidence.file.hasSuffix("themes.xml") }?.confidence == .convention)
        #expect(Self.pair(result, "colorOnSurface", "android:colorBackground") == nil, "not a Material pair")
        // colorSurface and android:colorBackground are both paper: never one on the other.
        #expect(!result.pairs.contains { $0.foreground == "colorSurface" })
    }

    @Test func brokenXMLIsNotedAtItsLine() throws {
        let root = try UsageRun.write([
            "res/values/colors.xml": Self.colors,
            "res/layout/broken.xml": "<?xml version=\"1.0\"?>\n<LinearLayout>\n  <TextView android:textColor=\"@color/ink\">\n</LinearLayout>\n",
        ], prefix: "android-broken")
        let result = UsageRun.read(root, with: AndroidUsageReader())
        #expect(result.pairs.isEmpty)
        let note = try #require(result.notRead.first)
        #expect(note.what.hasPrefix("the layout is not read: not well-formed XML") && note.line >= 3, "\(note)")
    }

    @Test func startTagsAreFoundWhereTheyBegin() {
        let text = "<a>\n<!-- <b> -->\n<c x=\"1>2\"\n   y='<'>\n<![CDATA[<d>]]><e/></c></a>"
        #expect(AndroidXMLElements.startTagLines(Array(text.utf8)) == [1, 3, 5])
    }

    /// n and 4n views, flat and nested: the pairs and notes grow 4 times, and the read stays
    /// within a budget of a few steps a byte (a walk up the layout for each view would not).
    @Test(arguments: [false, true]) func hostileLayoutsAreReadInLinearWork(nested: Bool) throws {
        func layout(_ n: Int) -> String {
            var text = "<?xml version=\"1.0\"?>\n<LinearLayout xmlns:android=\"http://schemas.android.com/apk/res/android\" android:background=\"?attr/colorSurface\">\n"
            for i in 0..<n {
                text += nested ? "<FrameLayout android:id=\"@+id/f\(i)\">\n" : ""
                text += "<TextView android:id=\"@+id/t\(i)\" android:textColor=\"\(i % 2 == 0 ? "?attr/colorOnSurface" : "?attr/colorMissing\(i)")\"/>\n"
            }
            if nested { text += String(repeating: "</FrameLayout>\n", count: n) }
            return text + "</LinearLayout>\n"
        }
        // libxml2 refuses XML nested more than 256 deep: the nested layouts stay under it.
        let sizes = nested ? [60, 240] : [500, 2000]
        var outputs: [Int] = []
        for n in sizes {
            let root = try UsageRun.write([
                "res/values/colors.xml": Self.colors, "res/values/themes.xml": Self.themes, "res/layout/big.xml": layout(n),
            ], prefix: "android-hostile")
            let bytes = try #require(FileManager.default.contents(atPath: root + "/res/layout/big.xml"))
            let budget = ReadBudget(maximumSteps: 8 * bytes.count)
            let result = UsageRun.read(root, with: AndroidUsageReader(), budget: budget)
            #expect(budget.problem == nil, "\(budget.problem?.message ?? "")")
            let layoutNotes = result.notRead.filter { $0.file.hasSuffix("big.xml") }
            // One pair (the first of its kind in the file) and a note for each missing attribute.
            #expect(result.pairs.filter { $0.evidence.file.hasSuffix("big.xml") }.count == 1)
            #expect(layoutNotes.count == n / 2)
            outputs.append(layoutNotes.reduce(0) { $0 + $1.what.utf8.count })
        }
        #expect(outputs[1] <= 4 * outputs[0] + 4 * sizes[1], "\(outputs)")
    }
}
