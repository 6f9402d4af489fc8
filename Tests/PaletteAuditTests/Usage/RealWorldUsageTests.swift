import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The usage readers over real apps in ../shared (skipped when it is absent): concrete pairs,
/// checked by hand against the files at the lines they name, and none of the "never" list.
@Suite struct RealWorldUsageTests {
    /// No pair is a token on itself or a disabled one, and some theme of the run draws both,
    /// neither fully transparent: resolved here with the audit's own resolver.
    static func expectNoNonsense(_ result: UsageRun.Result) {
        var resolvers = result.context.palettes.flatMap { palette in palette.themes.map { ThemeResolver(palette: palette, theme: $0) } }
        for pair in result.pairs {
            #expect(pair.foreground != pair.background, "\(pair.evidence.text)")
            #expect(!TokenNameRole(name: pair.foreground).disabled && !TokenNameRole(name: pair.background).disabled, "\(pair.evidence.text)")
            let drawn = resolvers.indices.contains { i in
                guard case .success(let fg) = resolvers[i].resolve(pair.foreground), case .success(let bg) = resolvers[i].resolve(pair.background) else { return false }
                return fg.color.alpha > 0 && bg.color.alpha > 0 && fg.hex != bg.hex
            }
            #expect(drawn, "no theme draws \(pair.foreground) on \(pair.background): \(pair.evidence.text)")
            #expect(!pair.evidence.what.isEmpty && pair.evidence.line >= 1)
        }
    }

    static func find(_ result: UsageRun.Result, _ fg: String, _ bg: String, file: String, line: Int) -> UsagePair? {
        result.pairs.first { $0.foreground == fg && $0.background == bg && $0.evidence.file.hasSuffix(file) && $0.evidence.line == line }
    }

    @Test func thunderbirdsLayoutsStylesAndThemes() throws {
        guard let root = UsageRun.shared("realworld4/thunderbird") else { return }
        let result = UsageRun.read(root, with: AndroidUsageReader())
        Self.expectNoNonsense(result)
        let layouts = "legacy/ui/legacy/src/main/res/layout/"
        // A style's text color (ComposeTextLabel, values/styles.xml:6) on the layout root's
        // background (message_compose_recipients.xml:8), at the view (line 21).
        let from = try #require(Self.find(result, "colorOnSurfaceVariant", "colorSurfaceContainerLow", file: layouts + "message_compose_recipients.xml", line: 21))
        #expect(from.confidence == .usage)
        #expect(from.evidence.what == "MaterialTextView: android:textColor ?attr/colorOnSurfaceVariant (from @style/ComposeTextLabel, values/styles.xml:6) on LinearLayout (line 2): android:background ?attr/colorSurfaceContainerLow")
        // `?android:attr/windowBackground`, which no theme read sets: the window's color.
        let divider = try #require(Self.find(result, "colorSecondary", "android:colorBackground", file: layouts + "text_divider_list_item.xml", line: 2))
        #expect(divider.confidence == .usage && divider.evidence.what.contains("on its own android:background ?android:attr/windowBackground, the window's background"))
        // Nothing behind it up its layout (accounts_item.xml:43): on the window, a convention.
        let email = try #require(Self.find(result, "colorSecondary", "android:colorBackground", file: layouts + "accounts_item.xml", line: 43))
        #expect(email.confidence == .convention && email.evidence.what.hasPrefix("MaterialTextView @id/email: android:textColor ?attr/colorSecondary with no background up its layout: on the window"))
        // A widget style of theme2/common that sets both (styles.xml:12-13).
        let popup = try #require(Self.find(result, "colorOnSurface", "colorSurfaceContainer", file: "theme2/common/src/main/res/values/styles.xml", line: 12))
        #expect(popup.evidence.what == "style Widget.App.ActionMode.PopupMenu: android:textColor ?attr/colorOnSurface on android:background ?attr/colorSurfaceContainer")
        // Material's roles in the Thunderbird theme (themes.xml:5-6).
        let onPrimary = try #require(Self.find(result, "colorOnPrimary", "colorPrimary", file: "theme2/thunderbird/src/main/res/values/themes.xml", line: 6))
        #expect(onPrimary.confidence == .convention && onPrimary.evidence.what == "theme Theme2.Thunderbird.Light sets colorOnPrimary (line 6) and colorPrimary (line 5): Material's on-primary on primary")
        // What is not paired says why, where.
        func note(_ file: String, _ line: Int) -> String? { result.notRead.first { $0.file.hasSuffix(layouts + file) && $0.line == line }?.what }
        #expect(note("message_list_toolbar.xml", 23)?.contains("its style ?attr/toolbarStyle comes from the app theme") == true)
        #expect(note("recipient_names.xml", 9)?.contains("a <merge> layout's views sit on the layout that includes it") == true)
        #expect(note("recipient_dropdown_item.xml", 28)?.contains("\"?attr/textColorPrimaryRecipientDropdown\" is not set by any app theme read") == true)
        let fromLayouts = result.pairs.filter { $0.evidence.file.contains("/layout/") }
        #expect(fromLayouts.count >= 15 && result.pairs.count >= 100, "\(fromLayouts.count) of \(result.pairs.count)")
    }

    @Test func netNewsWiresViewsAndCatalog() throws {
        guard let root = UsageRun.shared("realworld4/netnewswire") else { return }
        let swift = UsageRun.read(root, with: SwiftUsageReader())
        Self.expectNoNonsense(swift)
        // SwiftUI's accent color is the widget catalog's AccentColor; nothing behind it is
        // known, so it is on systemBackground, as a convention (UnreadWidget.swift:62).
        let accent = try #require(Self.find(swift, "AccentColor", "ios.systemBackground", file: "Widget/Widget Views/UnreadWidget.swift", line: 62))
        #expect(accent.confidence == .convention && accent.evidence.what.hasPrefix(".foregroundColor(.accentColor) (the catalog's AccentColor), with no background known"))
        // `Assets.Colors.vibrantText` is color set vibrantTextColor, by Xcode's symbol for it.
        let vibrant = try #require(Self.find(swift, "vibrantTextColor", "ios.systemBackground", file: "iOS/UIKit Extensions/VibrantButton.swift", line: 25))
        #expect(vibrant.usage == .text && vibrant.evidence.what.contains("color set vibrantTextColor, by the symbol Xcode generates for it"))
        func note(_ file: String, _ line: Int) -> String? { swift.notRead.first { $0.file.hasSuffix(file) && $0.line == line }?.what }
        // A case's text on the cell's background configuration (line 97), a translucent fill.
        #expect(note("MainFeed/Collection View Cells/MainFeedCollectionViewCell.swift", 98)?.contains("on backgroundConfig.backgroundColor = .tertiarySystemFill (on its superview, self) (line 97)") == true)
        #expect(note("MainFeed/Collection View Cells/MainFeedCollectionViewCell.swift", 98)?.contains("ios.tertiarySystemFill is translucent") == true)
        // Apple's colors on Apple's colors: nothing of the palette's to check (AboutView.swift:24, :66).
        #expect(note("iOS/Settings/AboutView.swift", 24)?.contains("on the enclosing view's .background(Color(uiColor: .systemBackground)) (line 66)") == true)
        #expect(swift.pairs.count >= 9 && swift.pairs.allSatisfy { $0.confidence == .convention })

        let catalog = UsageRun.read(root, with: CatalogLabelConventions())
        Self.expectNoNonsense(catalog)
        #expect(catalog.pairs.map(\.foreground) == Array(repeating: "vibrantTextColor", count: 4))
        #expect(catalog.pairs.first?.evidence.file.hasSuffix("iOS/Resources/Assets.xcassets/vibrantTextColor.colorset/Contents.json") == true)
    }

    @Test func mastodonsLabelsSitOnTheSystemBackgrounds() throws {
        guard let root = UsageRun.shared("realworld2/mastodon") else { return }
        let result = UsageRun.read(root, with: CatalogLabelConventions())
        Self.expectNoNonsense(result)
        #expect(Set(result.pairs.map(\.foreground)) == ["Colors.Label.primary", "Colors.Label.secondary", "Colors.Label.tertiary", "Colors.TextColor"])
        #expect(result.pairs.count == 16 && result.pairs.allSatisfy { $0.confidence == .convention })
        let primary = try #require(Self.find(result, "Colors.Label.primary", "ios.systemGroupedBackground", file: "MastodonAsset/Assets.xcassets/Colors/Label/primary.colorset/Contents.json", line: 1))
        #expect(primary.evidence.what.contains("iOS draws labels on the system backgrounds, here systemGroupedBackground"))
        func note(_ set: String) -> String? { result.notRead.first { $0.file.hasSuffix(set + ".colorset/Contents.json") }?.what }
        #expect(note("Label/primary.reverse")?.contains("named for another background than the system's (reverse)") == true)
        #expect(note("TextField/invalid")?.contains("names a component here") == true)
    }
}
