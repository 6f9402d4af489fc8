import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

@Suite struct DeriveTests {
    static let text = ##"{"name": "d", "themes": {"light": {"tokens": {"surface": "#ffffff", "card": "#f1f5f9", "text": "#0f172a", "muted": "#64748b", "link": "#2563eb", "border": "#e2e8f0", "alias": "{link}"}}}, "checks": [{"id": "body", "foreground": "text", "background": "surface"}, {"id": "muted", "foreground": "muted", "background": "surface"}, {"id": "muted-card", "foreground": "muted", "background": "card"}, {"id": "link", "foreground": "alias", "background": "surface", "level": "AAA"}, {"id": "divider", "foreground": "border", "background": "surface", "usage": "decorative"}]}"##

    @Test func darkThemePassesEveryCheckAndKeepsHues() throws {
        let (palette, problems) = PaletteDecoder.decode(Self.text)
        #expect(problems.isEmpty)
        let derivation = try ThemeDeriver.derive(try #require(palette), from: "light", to: "dark", surface: try SRGB(css: "#0f172a"))
        #expect(derivation.unresolved.isEmpty, "\(derivation.unresolved)")
        #expect(derivation.report.summary.fail == 0)
        #expect(derivation.report.summary.checks == 5)
        let byName = Dictionary(uniqueKeysWithValues: derivation.tokens.map { ($0.token, $0) })
        #expect(byName["surface"]?.to == "#0f172a" && byName["surface"]?.change == "surface")
        #expect(byName["card"]?.change == "mirrored")  // a lighter card on white is a lighter card on the dark surface
        #expect(try OKLCH(SRGB(css: try #require(byName["card"]).to)).l > OKLCH(try SRGB(css: "#0f172a")).l)
        for name in ["text", "muted", "alias"] {
            let token = try #require(byName[name])
            #expect(token.change == "adjusted", "\(name)")
            let before = OKLCH(try SRGB(css: token.from)), after = OKLCH(try SRGB(css: token.to))
            if before.c > 0.05 {
                var dh = abs(before.h - after.h)
                if dh > 180 { dh = 360 - dh }
                #expect(dh < 5, "\(name) keeps its hue: \(before.h) → \(after.h)")
            }
        }
        // The check names the alias, so the alias gets its own color; its target, unchecked, stays.
        #expect(byName["alias"]?.value.hasPrefix("#") == true)
        #expect(byName["link"]?.change == "unchanged")
        // Nothing of the source theme changes.
        #expect(derivation.palette.theme(named: "light")?.tokens.first { $0.name == "text" }?.value == "#0f172a")
    }

    /// A translucent member of a `distinct` group is weighed as the derived theme's check weighs
    /// it (over white: the derived theme names no backdrop). Weighed as its opaque color,
    /// #a01010cc let `a` move to #c35255, and the derived theme's `reds` check failed (CIEDE2000
    /// 6.4 against #a01010cc over white, #b34040) while derive said every check passes.
    @Test func aTranslucentGroupMemberIsWeighedAsTheCheckSeesIt() throws {
        let text = ##"{"name": "s", "themes": {"light": {"tokens": {"bg": "#ffffff", "a": "#ff8787", "b": "#a01010cc"}}}, "checks": [{"id": "a-on-bg", "foreground": "a", "background": "bg"}, {"id": "reds", "distinct": ["a", "b"]}]}"##
        let (palette, _) = PaletteDecoder.decode(text)
        let derivation = try ThemeDeriver.derive(try #require(palette), from: "light", to: "x", surface: .white)
        #expect(derivation.unresolved.isEmpty, "\(derivation.unresolved)")
        #expect(derivation.report.summary.fail == 0)
        let a = try #require(derivation.tokens.first { $0.token == "a" })
        #expect(a.to != "#c35255")
        let reds = try #require(derivation.report.themes.first?.results.first { $0.id == "reds[a vs b]" })
        #expect(reds.verdict == .pass && reds.composited?.background == "#b34040")
        // A group's pair that still fails says so in color difference, not as a contrast ratio.
        let (same, _) = PaletteDecoder.decode(##"{"name": "s", "themes": {"light": {"tokens": {"bg": "#ffffff", "a": "#e03131", "b": "#e03132"}}}, "checks": [{"id": "a-on-bg", "foreground": "a", "background": "bg"}, {"id": "reds", "distinct": ["a", "b"]}]}"##)
        let stuck = try ThemeDeriver.derive(try #require(same), from: "light", to: "x", surface: .black)
        #expect(stuck.unresolved == ["reds[a vs b] still fails: #e03131 and #e03132 differ by CIEDE2000 0.2, below the 9 that tells them apart, even in normal vision"])
    }

    @Test func highContrastAtAAA() throws {
        let (palette, _) = PaletteDecoder.decode(Self.text)
        let derivation = try ThemeDeriver.derive(try #require(palette), from: "light", to: "high-contrast", surface: .black, minimumLevel: .AAA)
        #expect(derivation.unresolved.isEmpty)
        for theme in derivation.report.themes {
            for result in theme.results where result.verdict != .exempt {
                #expect(result.ratio >= 7, "\(result.id) \(result.display)")
            }
        }
    }

    @Test func errors() throws {
        let (palette, _) = PaletteDecoder.decode(Self.text)
        #expect(throws: DeriveError.self) { try ThemeDeriver.derive(try #require(palette), from: "sepia", to: "dark", surface: .black) }
        #expect(throws: DeriveError.self) { try ThemeDeriver.derive(try #require(palette), from: "light", to: "dark", surface: try SRGB(css: "#0008")) }
    }
}
