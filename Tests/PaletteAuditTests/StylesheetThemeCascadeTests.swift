import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Each theme of a stylesheet is the root element's computed values with that theme's
/// conditions true: the base and the theme's own rules in one cascade (importance, layer,
/// specificity, order), as a browser computes them. Found on public systems: a dark block that
/// a later `:root` overrides was read as the dark theme's value (a theme no browser renders),
/// `light-dark()` followed the `@media` block rather than `color-scheme`, and component scopes
/// (`.btn-dark`) were read as themes.
@Suite struct StylesheetThemeCascadeTests {
    /// The value each theme gives `name`, and the palette.
    static func read(_ css: String, file: String = "theme.css") throws -> (Palette, [PaletteProblem]) {
        let (palette, problems) = PaletteDecoder.decode(bytes: Array(css.utf8), file: file)
        #expect(!problems.contains { !$0.isWarning }, "\(problems.map(\.message))")
        return (try #require(palette), problems)
    }

    /// The color each theme gives `name`, as the audit resolves it (`light-dark()` in the
    /// theme's used color scheme).
    static func values(_ css: String, _ name: String = "fg") throws -> [String: String] {
        resolvedColors(try read(css).0).compactMapValues { $0[name] }
    }

    @Test func aLaterRootDeclarationOverridesTheDarkQuery() throws {
        let css = """
        :root { --fg: #111111; --bg: #ffffff; }
        @media (prefers-color-scheme: dark) { :root { --fg: #eeeeee; --bg: #000000; } }
        :root { --fg: #222222; }
        """
        let (palette, _) = try Self.read(css)
        let fg = Dictionary(uniqueKeysWithValues: palette.themes.map { ($0.name, $0.tokens.first { $0.name == "fg" }?.value) })
        let bg = Dictionary(uniqueKeysWithValues: palette.themes.map { ($0.name, $0.tokens.first { $0.name == "bg" }?.value) })
        #expect(fg == ["light": "#222222", "dark": "#222222"])
        #expect(bg == ["light": "#ffffff", "dark": "#000000"])
        // The dark declaration that lost is in the ledger, with what won and why.
        let unread = StylesheetRulesTests.unread(palette)
        #expect(unread.contains { $0.hasPrefix("fg 2:47 not-read: theme 'dark' declares --fg") && $0.contains("theme.css:3") && $0.contains("later") }, "\(unread)")
        // Another `:root` block is another block, though written alike.
        #expect(unread.contains { $0.hasPrefix("fg 1:9 not-read: theme 'light' declares --fg again at theme.css:3 (in ':root')") }, "\(unread)")
    }

    @Test func anUnlayeredOrMoreSpecificBaseOverridesTheDarkQuery() throws {
        // A layered dark block loses to the unlayered base, wherever the base is written.
        #expect(try Self.values("@layer theme { @media (prefers-color-scheme: dark) { :root { --fg: #eeeeee; } } }\n:root { --fg: #111111; --bg: #fff; }")
                == ["light": "#111111", "dark": "#111111"])
        // A more specific base wins over the dark `:root`.
        #expect(try Self.values("html:root { --fg: #111111; --bg: #fff; }\n@media (prefers-color-scheme: dark) { :root { --fg: #eeeeee; } }")
                == ["light": "#111111", "dark": "#111111"])
        // A class theme written before the base of equal specificity loses to it.
        #expect(try Self.values(".dark { --fg: #eeeeee; --bg: #000; }\n:root { --fg: #111111; --bg: #fff; }")
                == ["light": "#111111", "dark": "#111111"])
        // A light preference's block does not apply under a dark preference, wherever it is.
        #expect(try Self.values(":root { --bg: #fff; }\n@media (prefers-color-scheme: dark) { :root { --fg: #eeeeee; } }\n@media (prefers-color-scheme: light) { :root { --fg: #111111; } }")
                == ["light": "#111111", "dark": "#eeeeee"])
        // And as usual, a dark block after the base wins.
        #expect(try Self.values(":root { --fg: #111111; --bg: #fff; }\n@media (prefers-color-scheme: dark) { :root { --fg: #eeeeee; } }")
                == ["light": "#111111", "dark": "#eeeeee"])
    }

    @Test func anImportedDarkSheetLosesToTheImportersDefaults() throws {
        let directory = Scratch.directory("css-import-dark")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ":root { --fg: #eeeeee; --bg: #000000; }".write(to: directory.appendingPathComponent("dark.css"), atomically: true, encoding: .utf8)
        let main = directory.appendingPathComponent("theme.css").path
        try "@import \"dark.css\" (prefers-color-scheme: dark);\n:root { --fg: #111111; }".write(toFile: main, atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadFile(main)
        let palette = try #require(loaded.palette, "\(loaded.problems.map(\.message))")
        let dark = try #require(palette.themes.first { $0.name == "dark" })
        #expect(dark.tokens.first { $0.name == "fg" }?.value == "#111111")
        #expect(dark.tokens.first { $0.name == "bg" }?.value == "#000000")
    }

    @Test func lightDarkFollowsTheUsedColorScheme() throws {
        let values = ":root { --fg: light-dark(#111111, #eeeeee); --bg: light-dark(#ffffff, #000000); }"
        // No color-scheme: a browser in dark mode shows the light values, and says so.
        let (plain, problems) = try Self.read(values + "\n@media (prefers-color-scheme: dark) { :root { --x: #123456; } }")
        let dark = try #require(plain.themes.first { $0.name == "dark" })
        #expect(resolvedColors(plain)["dark"]?["fg"] == "#111111")
        #expect(dark.colorScheme == .light)
        #expect(problems.contains { $0.isWarning && $0.message.contains("light-dark()") && $0.message.contains("'dark'") && $0.message.contains("color-scheme") },
                "\(problems.map(\.message))")
        // `only light`: the light values in every theme.
        let only = try Self.values(values + "\n:root { color-scheme: only light; }\n.dark { --bg: light-dark(#fefefe, #010101); }")
        #expect(only == ["light": "#111111", "dark": "#111111"])
        // `light dark` on the root and a dark preference: the dark values.
        let both = try Self.values(":root { color-scheme: light dark; }\n" + values + "\n@media (prefers-color-scheme: dark) { :root { --x: #123456; } }")
        #expect(both == ["light": "#111111", "dark": "#eeeeee"])
        // A class theme that sets `color-scheme: dark`: the dark values.
        #expect(try Self.values(values + "\n.dark { color-scheme: dark; --bg: light-dark(#fefefe, #010101); }") == ["light": "#111111", "dark": "#eeeeee"])
        // A class theme named dark whose root says `light dark` but that chooses no scheme: the
        // preference is not the class's, so a browser shows the light values.
        #expect(try Self.values(":root { color-scheme: light dark; }\n" + values + "\n.dark { --bg: light-dark(#fefefe, #010101); }")["dark"] == "#111111")
    }

    @Test func aSelectorListThatIncludesTheRootDefinesTheBase() throws {
        let css = """
        :root, [data-color="accent"] { --fg: #111111; --bg: #ffffff; }
        [data-color="accent"] { --bg: #eeeeee; }
        """
        let (palette, _) = try Self.read(css)
        let light = try #require(palette.themes.first { $0.name == "light" })
        #expect(light.tokens.first { $0.name == "fg" }?.value == "#111111")
        #expect(light.tokens.first { $0.name == "bg" }?.value == "#ffffff")
        let accent = try #require(palette.themes.first { $0.name == "accent" })
        #expect(accent.tokens.first { $0.name == "bg" }?.value == "#eeeeee")
        #expect(accent.tokens.first { $0.name == "fg" }?.value == "#111111")
    }

    @Test func aBlockThatDeclaresOnlyItsOwnPropertiesIsAComponentScope() throws {
        let css = """
        :root { --bs-body-color: #212529; --bs-body-bg: #ffffff; }
        [data-bs-theme=dark] { --bs-body-color: #dee2e6; --bs-body-bg: #212529; }
        .btn-dark { --bs-btn-color: #ffffff; --bs-btn-bg: #212529; }
        .table-light { --bs-table-color: #000000; --bs-table-bg: #f8f9fa; }
        .text-bg-dark { --bs-x: #212529; }
        """
        let (palette, _) = try Self.read(css)
        #expect(palette.themes.map(\.name) == ["light", "dark"])
        // Each scope's properties are accounted for, once per rule's reason.
        let unread = StylesheetRulesTests.unread(palette)
        #expect(unread.contains { $0.hasPrefix("bs-btn-color 3:13 not-read:") && $0.contains("component scope") }, "\(unread)")
        #expect(unread.contains { $0.hasPrefix("bs-table-bg 4:43 not-read:") }, "\(unread)")
    }

    @Test func anUnclosedFunctionIsNotReadAtItsOwnDeclaration() throws {
        let css = ":root {\n  --bg: #ffffff;\n  --fg: rgb(1 2 3;\n  --border: #cccccc;\n}\n"
        let (palette, problems) = PaletteDecoder.decode(bytes: Array(css.utf8), file: "theme.css")
        let unread = StylesheetRulesTests.unread(try #require(palette, "\(problems.map(\.message))"))
        #expect(unread.contains { $0.hasPrefix("fg 3:3 not-read:") && $0.contains("rgb(") && $0.contains("never closes") }, "\(unread)")
        // What the open function swallows is said, not dropped.
        #expect(unread.contains { $0.hasPrefix("border 4:3 not-read:") }, "\(unread)")
        #expect(palette?.themes.first?.tokens.contains { $0.name == "bg" } == true)
    }

    @Test func aFolderOfOneThemeStylesheetsIsOnePalette() throws {
        let directory = Scratch.directory("css-theme-files")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "[data-theme=\"light\"] { --fg: #111111; --bg: #ffffff; --muted: #59636e; }".write(to: directory.appendingPathComponent("light.css"), atomically: true, encoding: .utf8)
        try "[data-theme=\"dark\"] { --fg: #eeeeee; --bg: #000000; --muted: #9198a1; }".write(to: directory.appendingPathComponent("dark.css"), atomically: true, encoding: .utf8)
        // Another stylesheet whose properties are others (Open Props' props.gray.css) stays apart.
        try ":root { --gray-0: #f8f9fa; --gray-9: #212529; }".write(to: directory.appendingPathComponent("props.css"), atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadSources(paths: [directory.path])
        let palettes = loaded.palettes.compactMap(\.palette)
        #expect(palettes.count == 2, "\(loaded.palettes.map { ($0.file, $0.problems.map(\.message)) })")
        let merged = try #require(palettes.first { $0.themes.count == 2 })
        #expect(merged.themes.map(\.name) == ["dark", "light"])
        // Each token still says which file it is written in.
        #expect(merged.themes[0].tokens.first { $0.name == "fg" }?.file?.hasSuffix("dark.css") == true)
        #expect(resolvedColors(merged)["dark"]?["fg"] == "#eeeeee")
        #expect(palettes.contains { $0.themes.map(\.name) == ["light"] && $0.themes[0].tokens.contains { $0.name == "gray-0" } })
    }

    /// Found by a review: a folder of `light.css` and `dark.css` that both write `:root` named
    /// the dark file's theme `light` (its selector's) and the light one `light-1`; and a file of
    /// one override (`brand.css`) beside a file of five was merged as a theme of its own.
    @Test func themeFilesAreNamedByTheirFilesWhenTheirSelectorsAgree() throws {
        let directory = Scratch.directory("css-theme-files-named")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ":root { --fg: #000000; --bg: #ffffff; --muted: #666666; }".write(to: directory.appendingPathComponent("light.css"), atomically: true, encoding: .utf8)
        try ":root { --fg: #ffffff; --bg: #000000; --muted: #999999; }".write(to: directory.appendingPathComponent("dark.css"), atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadSources(paths: [directory.path])
        let merged = try #require(loaded.palettes.compactMap(\.palette).first)
        #expect(merged.themes.map(\.name) == ["dark", "light"])
        #expect(resolvedColors(merged)["dark"]?["bg"] == "#000000" && resolvedColors(merged)["light"]?["bg"] == "#ffffff")

        let overrides = Scratch.directory("css-override-file")
        try? FileManager.default.removeItem(at: overrides)
        try FileManager.default.createDirectory(at: overrides, withIntermediateDirectories: true)
        try ":root { --accent: #ff0000; }".write(to: overrides.appendingPathComponent("brand.css"), atomically: true, encoding: .utf8)
        try ":root { --accent: #0000ff; --fg: #000; --bg: #fff; --muted: #666; --line: #ccc; }".write(to: overrides.appendingPathComponent("tokens.css"), atomically: true, encoding: .utf8)
        #expect(PaletteLoader.loadSources(paths: [overrides.path]).palettes.compactMap(\.palette).count == 2)
    }

    /// Found by a review: classes named as themes (`.high-contrast`, `.theme-blue`) that redefine
    /// a few of the root's properties were dropped as component scopes once `.dark` redefined
    /// thirty.
    @Test func aClassNamedAsAThemeIsNotAComponentScope() throws {
        let root = (0..<30).map { "--v\($0): #\(String(format: "%06x", $0 * 4099));" }.joined()
        let dark = (0..<30).map { "--v\($0): #\(String(format: "%06x", 0xffffff - $0 * 4099));" }.joined()
        let css = ":root { \(root) }\n.dark { \(dark) }\n.high-contrast { --v0: #000000; --v1: #ffffff; }\n.theme-blue { --v2: #0000ff; }\n.btn-dark { --v3: #111111; }"
        let (palette, _) = try Self.read(css)
        #expect(palette.themes.map(\.name) == ["light", "dark", "high-contrast", "theme-blue"])
        #expect(StylesheetReader.isThemeName("dark-dimmed") && StylesheetReader.isThemeName("theme-zinc") && !StylesheetReader.isThemeName("btn-dark") && !StylesheetReader.isThemeName("carousel-dark"))
    }

    /// Where the themes are axes (Designsystemet's `[data-color-scheme]` × `[data-color]`),
    /// `light-dark()` follows the used color scheme too: a dark theme whose blocks set no
    /// `color-scheme` shows the light values, as a browser does, and one that sets it the dark.
    @Test func lightDarkFollowsTheUsedSchemeAcrossAxes() throws {
        func css(_ darkScheme: String) -> String {
            """
            :root, [data-color-scheme="light"] { --fg: light-dark(#111111, #eeeeee); --bg: #ffffff; }
            [data-color-scheme="dark"] { --bg: #000000; \(darkScheme) }
            [data-color="brand"] { --accent: #0000ff; }
            [data-color="other"] { --accent: #ff0000; }
            """
        }
        let unset = try Self.values(css(""))
        #expect(unset.keys.contains("dark-brand") && unset["dark-brand"] == "#111111", "\(unset)")
        let set = try Self.values(css("color-scheme: dark;"))
        #expect(set["dark-brand"] == "#eeeeee" && set["light-brand"] == "#111111", "\(set)")
    }
}
