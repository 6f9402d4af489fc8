import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Stylesheets as palettes: one stylesheet per pattern the issue names, each read as a user's
/// repository holds it.
@Suite struct StylesheetTests {
    static func decode(_ css: String, file: String = "theme.css") -> (palette: Palette?, problems: [PaletteProblem]) {
        PaletteDecoder.decode(bytes: Array(css.utf8), file: file)
    }

    static func colors(_ palette: Palette) -> [String: [String: String]] { resolvedColors(palette) }

    @Test func rootAndDarkClassAndMediaQuery() throws {
        let css = """
        /* globals.css, as Next.js and shadcn/ui write it */
        :root {
          --background: #ffffff;
          --foreground: #171717;
          --radius: 0.625rem;          /* not a color: ignored */
          --font-sans: "Inter", sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root { --background: #0a0a0a; }
        }
        .dark {
          --foreground: #ededed;
        }
        body { color: var(--foreground); background: var(--background); }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        // Two states of the page: a dark system preference without the class (the query's
        // block), and the class chosen (its block). They were one theme, each block filling in
        // what the other left out, and neither state was measured as a browser shows it.
        #expect(p.themes.map(\.name) == ["light", "auto-dark", "dark"])
        // No block sets color-scheme, so every theme's used color scheme is light (what
        // light-dark() would resolve by in a browser).
        #expect(p.themes.map(\.colorScheme) == [.light, .light, .light])
        #expect(Self.colors(p) == ["light": ["background": "#ffffff", "foreground": "#171717"],
                                   "auto-dark": ["background": "#0a0a0a", "foreground": "#171717"],
                                   "dark": ["background": "#ffffff", "foreground": "#ededed"]])
        #expect(p.format == "CSS custom properties")
        let token = try #require(p.themes[2].tokens.first { $0.name == "foreground" })
        #expect(token.location?.line == 12 && token.location?.column == 3)
        #expect(token.pointer.description == "/.dark/--foreground")
    }

    @Test func tailwindThemeBlock() throws {
        let css = """
        @import "tailwindcss";
        @theme {
          --color-brand-500: oklch(0.63 0.24 25);
          --color-ink: #0f172a;
          --spacing: 0.25rem;
          --breakpoint-sm: 40rem;
          --color-*: initial;
        }
        @layer components { .btn { --btn-bg: var(--color-brand-500); } }
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light"])
        let brand = try CSSColor.parse("oklch(0.63 0.24 25)").color.hex
        #expect(Self.colors(p)["light"] == ["color-brand-500": brand, "color-ink": "#0f172a"])
        // The component's property is scoped to .btn: reported once, as a warning with its line.
        // The import is another file, which a document read on its own cannot name.
        #expect(problems.count == 2 && problems.allSatisfy(\.isWarning))
        #expect(problems[0].location?.line == 1 && problems[0].message == "@import \"tailwindcss\" is not read: it is another file, and a document sent on its own cannot refer to other files; audit the folder with the CLI, or inline the set (tailwindcss)")
        #expect(problems[1].location?.line == 9 && problems[1].message.contains("custom properties of '.btn' are scoped to those elements"))
    }

    @Test func primerAttributeThemesAndSchemes() throws {
        let css = """
        [data-color-mode="light"][data-light-theme="light"],
        [data-color-mode="light"][data-light-theme="light"] ::backdrop {
          --fgColor-default: #1f2328;
          --bgColor-default: #ffffff;
        }
        [data-color-mode="dark"][data-dark-theme="dark_dimmed"],
        [data-color-mode="auto"][data-light-theme="dark_dimmed"] ::backdrop {
          --fgColor-default: #d1d7e0;
          --bgColor-default: #212830;
        }
        @media (prefers-color-scheme: dark) {
          [data-color-mode="auto"][data-dark-theme="dark_dimmed"] { --fgColor-muted: #9198a1; }
        }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "dark_dimmed"])
        // No color-scheme is set: the used scheme is light in both.
        #expect(p.themes.map(\.colorScheme) == [.light, .light])
        #expect(Self.colors(p)["dark_dimmed"] == ["fgColor-default": "#d1d7e0", "bgColor-default": "#212830", "fgColor-muted": "#9198a1"])
    }

    @Test func varChainsFallbacksAndMixes() throws {
        let css = """
        :root {
          --gray-9: #1f2328;
          --gray-1: #f6f8fa;
          --fg: var(--gray-9);
          --fg-alias: var(--fg);
          --muted: color-mix(in srgb, var(--fg) 60%, var(--gray-1));
          --accent: var(--not-defined, #0969da);
          --accent-soft: rgb(from var(--accent) r g b / 15%);
          --page: light-dark(var(--gray-1), #0d1117);
        }
        [data-theme="dark"] { --gray-9: #f0f6fc; color-scheme: dark; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        let colors = Self.colors(p)
        // Substituted per theme: the dark theme's --gray-9 flows through every chain.
        #expect(colors["light"]?["fg-alias"] == "#1f2328" && colors["dark"]?["fg-alias"] == "#f0f6fc")
        let lightMuted = try CSSColor.parse("color-mix(in srgb, #1f2328 60%, #f6f8fa)").color.hex
        let darkMuted = try CSSColor.parse("color-mix(in srgb, #f0f6fc 60%, #f6f8fa)").color.hex
        #expect(colors["light"]?["muted"] == lightMuted)
        #expect(colors["dark"]?["muted"] == darkMuted)
        #expect(colors["light"]?["accent"] == "#0969da" && colors["light"]?["accent-soft"] == "#0969da26")
        #expect(colors["light"]?["page"] == "#f6f8fa" && colors["dark"]?["page"] == "#0d1117")
        // var(--x) alone stays an alias: a fix for --fg-alias changes --gray-9.
        #expect(p.themes[0].tokens.first { $0.name == "fg-alias" }?.value == "{fg}")
    }

    @Test func escapedCustomPropertyNamesAreTheNamesTheyStandFor() throws {
        // A browser reads `--c\6f lor` as `--color`: the dark block overrides it, and var()
        // finds it however either is written. Compared as written, dark's --color stayed
        // #000000 and was measured so, with exit 0.
        let css = #"""
        :root { --color: #000000; --bg: #ffffff; }
        .dark { --c\6f lor: #ffffff; --b\g: #000000; --fg: var(--c\6F lor); --ink: color-mix(in srgb, var(--\62 g) 50%, var(--color)); }
        """#
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let colors = Self.colors(try #require(palette))
        #expect(colors["dark"]?["color"] == "#ffffff" && colors["dark"]?["bg"] == "#000000" && colors["dark"]?["fg"] == "#ffffff")
        #expect(colors["dark"]?["ink"] == (try CSSColor.parse("color-mix(in srgb, #000000 50%, #ffffff)").color.hex))
        #expect(colors["light"]?["color"] == "#000000" && colors["light"]?["fg"] == nil)
        #expect(CSSTokenizer.unescapedName(#"--a\31 23\000000x\1F600"#) == "--a123\u{FFFD}x😀")
    }

    @Test func brokenValuesAreLocatedProblems() throws {
        let css = """
        :root {
          --a: var(--b);
          --b: rgb(from var(--a) r g b);
          --hole: color-mix(in srgb, var(--missing) 50%, white);
          --typo: #12;
          --gap: var(--space-4);
          --shadow: 0 1px 2px rgb(0 0 0 / 20%);
        }
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        let audit = Auditor().audit(p, problems: problems)
        let messages = (problems + audit.problems).map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("3:3 --b: rgb(from var(--a) r g b): var() cycle: --") && $0.contains("--a → --b") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("4:3 --hole:") && $0.contains("--missing is not defined in theme 'light' nor in any stylesheet this one reads or imports (a stylesheet loaded beside this one must define it), and var(--missing) has no fallback") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("5:3") && $0.contains("#12") }, "\(messages)")
        // --gap might be a length from another stylesheet: a warning, not an error; --shadow is
        // not a color at all and is not mentioned.
        #expect(problems.contains { $0.isWarning && $0.message.hasPrefix("--gap: var(--space-4)") })
        #expect(!messages.contains { $0.contains("shadow") })
    }

    /// Comments, strings, escapes, url(), !important, nested at-rules and unrelated rules do not
    /// confuse the reader.
    @Test func aRealTokenizerNotPatterns() throws {
        let css = #"""
        @charset "utf-8";
        @import url(https://example.com/a.css?x=1;y=2);
        /* :root { --fake: #000000; } */
        @font-face { font-family: "X}"; src: url(data:font/woff2;base64,AAA=}) format("woff2"); }
        @keyframes pulse { from { --glow: #ff0000; } to { opacity: 0; } }
        :root {
          --quote: "a;b}c";
          --\31 00: #111111;
          --pinned: #222222 !important;
          --ink: #555555;
          content: "}"; --after-string: #333333;
        }
        @supports (color: oklch(0 0 0)) { @layer base { :root { --pinned: #444444; --wide: oklch(0.7 0.1 200); } } }
        html.dark { --ink: #eeeeee; }
        @media print { :root { --ink: #000000; } }
        @media (prefers-contrast: more) { :root { --ink: #000000; } }
        @media (prefers-color-scheme: dark) and (prefers-contrast: more) { :root { --ink: #ffffff; } }
        """#
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "dark", "high-contrast", "dark-high-contrast"])
        let colors = Self.colors(p)
        // !important wins over the later @supports declaration.
        let wide = try CSSColor.parse("oklch(0.7 0.1 200)").color.hex
        #expect(colors["light"] == ["100": "#111111", "pinned": "#222222", "ink": "#555555", "after-string": "#333333", "wide": wide])
        #expect(colors["dark"]?["ink"] == "#eeeeee" && colors["high-contrast"]?["ink"] == "#000000")
        #expect(colors["dark-high-contrast"]?["ink"] == "#ffffff")
        #expect(p.themes.first { $0.name == "dark-high-contrast" }?.colorScheme == .light)
        // Only the print block (and the import of a URL) is reported; @keyframes and @font-face
        // are not themes at all.
        #expect(problems.map(\.message) == ["@import \"https://example.com/a.css?x=1;y=2\" is not read: a URL with a scheme (https:) is not fetched; only files in the directory the stylesheet was read from are read",
                                            "custom properties under @media print apply to some devices only; not read as a theme"])
        #expect(problems.map { $0.location?.line } == [2, 15])
    }

    @Test func nestingAndColorSchemeDeclarations() throws {
        let css = """
        :root {
          color-scheme: dark;
          --page: light-dark(#ffffff, #0d1117);
          &.light { color-scheme: light; --ink: #1f2328; }
        }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["dark", "light"])
        #expect(Self.colors(p)["dark"] == ["page": "#0d1117"])
        #expect(Self.colors(p)["light"] == ["page": "#ffffff", "ink": "#1f2328"])
    }

    @Test func noThemeAtAllSaysWhy() {
        let (palette, problems) = Self.decode(".btn { color: red; }")
        #expect(palette == nil)
        #expect(problems.map(\.code) == [.unknownFormat])
    }

    /// The same palette written as JSON and as a stylesheet audits identically.
    @Test func sameAuditAsJSON() throws {
        let json = ##"""
        {"name": "theme", "themes": {
          "light": {"tokens": {"fgColor-default": "#1f2328", "fgColor-muted": "#59636e", "bgColor-default": "#ffffff", "bgColor-muted": "#f6f8fa"}},
          "dark": {"extends": "light", "tokens": {"fgColor-default": "#f0f6fc", "fgColor-muted": "#9198a1", "bgColor-default": "#0d1117", "bgColor-muted": "#151b23"}}},
         "checks": [{"id": "text", "foreground": "fgColor-*", "background": "bgColor-*"}]}
        """##
        let css = """
        :root { --fgColor-default: #1f2328; --fgColor-muted: #59636e; --bgColor-default: #ffffff; --bgColor-muted: #f6f8fa; }
        [data-theme="dark"] { --fgColor-default: #f0f6fc; --fgColor-muted: #9198a1; --bgColor-default: #0d1117; --bgColor-muted: #151b23; }
        """
        let (fromJSON, p1) = PaletteDecoder.decode(json, file: "theme.json")
        var (fromCSS, p2) = Self.decode(css)
        #expect(p1.isEmpty && p2.isEmpty)
        // Checks may name the custom properties with their "--".
        fromCSS?.checks = [Check(id: "text", foreground: "--fgColor-*", background: "bgColor-*")]
        fromCSS?.normalizeCheckNames()
        func rows(_ palette: Palette?) throws -> [String] {
            let report = Auditor().audit(try #require(palette))
            return report.themes.flatMap { theme in theme.results.map { "\(theme.name) \($0.id) \($0.foreground.hex) \($0.background.hex) \($0.ratio) \($0.verdict)" } }.sorted()
        }
        let expected = try rows(fromJSON)
        #expect(expected.count == 8)
        #expect(try rows(fromCSS) == expected)
    }

    /// A stylesheet with its sidecar `NAME.checks.json`, which may also rename the themes the
    /// selectors named; a rename of a theme that does not exist is a located problem.
    @Test func sidecarChecksAndThemeNames() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("css-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ":root { --fg: #59636e; --bg: #ffffff; }\n[data-dark-theme=\"dark_dimmed\"] { --fg: #9198a1; --bg: #212830; }\n"
            .write(to: directory.appendingPathComponent("theme.css"), atomically: true, encoding: .utf8)
        try ##"{"checks": [{"id": "body", "foreground": "--fg", "background": "--bg", "themes": ["dimmed"]}], "themeNames": {"dark_dimmed": "dimmed", "sepia": "warm"}}"##
            .write(to: directory.appendingPathComponent("theme.checks.json"), atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadSources(paths: [directory.path])
        #expect(loaded.palettes.count == 1)
        let palette = try #require(loaded.palettes[0].palette)
        #expect(palette.themes.map(\.name) == ["light", "dimmed"])
        #expect(palette.themes[1].scheme == .light)  // no color-scheme: light-dark() would resolve light
        #expect(loaded.palettes[0].problems.map(\.message) == ["themeNames renames \"sepia\", which is not a theme of theme (themes: light, dimmed)"])
        #expect(loaded.palettes[0].problems.first?.location?.line == 1)
        let report = Auditor().audit(palette)
        #expect(report.themes.map { $0.results.count } == [0, 1])
        #expect(report.themes[1].results.first?.display == "5.11:1")
    }
}
