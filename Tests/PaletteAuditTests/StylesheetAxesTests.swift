import ColorScience
@testable import PaletteAudit
import Testing

/// Themes are axes: attributes of different names (and classes) on the root vary independently,
/// as Designsystemet's `[data-color-scheme]` × `[data-color]` do; each theme is what the browser
/// computes when the root carries one value of each axis.
@Suite struct StylesheetAxesTests {
    static func decode(_ css: String) -> (palette: Palette?, problems: [PaletteProblem]) {
        PaletteDecoder.decode(bytes: Array(css.utf8), file: "theme.css")
    }

    /// Two color axes, written as Designsystemet writes them: `:root` shares a block with the
    /// light scheme and with the accent color, so those are the defaults.
    static let twoAxes = """
    :root, [data-color-scheme="light"] {
      --accent-bg: #ffffff; --brand-bg: #fff0f0; --fg: #111111;
      color-scheme: light;
    }
    [data-color-scheme="dark"] {
      --accent-bg: #000000; --brand-bg: #200000; --fg: #eeeeee;
      color-scheme: dark;
    }
    :root, [data-color-scheme], [data-color="accent"] { --bg: var(--accent-bg); }
    [data-color="brand"], [data-color-scheme][data-color="brand"] { --bg: var(--brand-bg); }
    """

    @Test func twoAxesAreTheirProduct() throws {
        let (palette, problems) = Self.decode(Self.twoAxes)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light-accent", "light-brand", "dark-accent", "dark-brand"])
        #expect(p.themes.map(\.colorScheme) == [.light, .light, .dark, .dark])
        let colors = resolvedColors(p)
        #expect(colors["light-accent"]?["bg"] == "#ffffff")
        #expect(colors["light-brand"]?["bg"] == "#fff0f0")
        #expect(colors["dark-accent"]?["bg"] == "#000000")
        #expect(colors["dark-brand"]?["bg"] == "#200000")
        #expect(colors["dark-brand"]?["fg"] == "#eeeeee")
        #expect(p.format == "CSS custom properties; themes are the axes data-color-scheme × data-color")
    }

    @Test func anAxisWithoutColorsIsFixedToItsDefault() throws {
        let css = Self.twoAxes + """
        :root, [data-size] { --size: 1rem; }
        [data-size="sm"] { --size: 0.875rem; }
        [data-size="lg"] { --size: 1.25rem; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light-accent", "light-brand", "dark-accent", "dark-brand"])
        #expect(p.format == "CSS custom properties; themes are the axes data-color-scheme × data-color; data-size fixed to its default (no colors)")
        // The sizes of the fixed axis are accounted for, not dropped.
        let notColors = p.ledger.entries.filter { $0.name == "size" && $0.disposition == .notColor }
        #expect(notColors.count == 3, "\(p.ledger.entries.filter { $0.name == "size" })")
    }

    @Test func autoUnderTwoColorSchemeQueriesIsTwoThemes() throws {
        let css = """
        :root, [data-color-scheme="light"] { --bg: #ffffff; --fg: #111111; }
        @media (prefers-color-scheme: light) {
          [data-color-scheme="auto"] { --bg: #ffffff; --fg: #111111; }
        }
        [data-color-scheme="dark"] { --bg: #000000; --fg: #eeeeee; }
        @media (prefers-color-scheme: dark) {
          [data-color-scheme="auto"] { --bg: #000000; --fg: #eeeeee; color-scheme: dark; }
        }
        :root, [data-color="accent"] { --link: #0000ee; }
        [data-color="danger"] { --link: #cc0000; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light-accent", "light-danger", "auto-light-accent", "auto-light-danger",
                                         "auto-dark-accent", "auto-dark-danger", "dark-accent", "dark-danger"])
        let colors = resolvedColors(p)
        #expect(colors["auto-light-danger"] == ["bg": "#ffffff", "fg": "#111111", "link": "#cc0000"])
        #expect(colors["auto-dark-accent"] == ["bg": "#000000", "fg": "#eeeeee", "link": "#0000ee"])
        #expect(p.themes.first { $0.name == "auto-dark-accent" }?.colorScheme == .dark)
    }

    @Test func aClassAndAnAttributeAreTwoAxes() throws {
        let css = """
        :root { --bg: #ffffff; --fg: #111111; }
        .dark { --bg: #000000; --fg: #eeeeee; }
        [data-contrast="more"] { --fg: #000000; }
        .dark[data-contrast="more"] { --fg: #ffffff; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "more", "dark", "dark-more"])
        let colors = resolvedColors(p)
        #expect(colors["more"] == ["bg": "#ffffff", "fg": "#000000"])
        #expect(colors["dark-more"] == ["bg": "#000000", "fg": "#ffffff"])
    }

    @Test func twoSpellingsOfOneChoiceAreOneAxis() throws {
        // MetaMask's stylesheet: `[data-theme]` and a class name the same choice in the same blocks.
        let css = """
        :root, [data-theme='light'], .light { --bg: #ffffff; --fg: #222222; }
        [data-theme='dark'], .dark { --bg: #000000; --fg: #dddddd; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "dark"])
        #expect(resolvedColors(p)["dark"] == ["bg": "#000000", "fg": "#dddddd"])
    }

    @Test func aPartialAttributeMatchBesideTheRootIsNoTheme() throws {
        // Element's built CSS: `:root, [class*="cpd-theme-"]` applies to the root in every theme.
        let css = """
        :root, [class*="cpd-theme-"] { --fg: var(--gray-1400); }
        :root { --gray-1400: #1b1d22; --bg: #ffffff; }
        .cpd-theme-dark.cpd-theme-dark { --gray-1400: #ebeef2; --bg: #101317; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "cpd-theme-dark"])
        #expect(resolvedColors(p)["cpd-theme-dark"]?["fg"] == "#ebeef2")
    }

    @Test func moreThanAThousandThemesAreRefused() throws {
        // Three color axes of ten values and the base each: 11 × 11 × 11 = 1,331 themes.
        var css = ":root { --bg: #ffffff; }\n"
        for axis in ["data-a", "data-b", "data-c"] {
            for value in 0..<10 { css += "[\(axis)=\"v\(value)\"] { --\(axis)-\(value): #00000\(value); }\n" }
        }
        let (palette, problems) = Self.decode(css)
        #expect(palette == nil)
        let limit = try #require(problems.first { $0.code == .limitExceeded }, "\(problems)")
        // At the first block of the axis that took the count past the limit (data-c).
        #expect(limit.location?.line == 22, "\(limit)")
        #expect(limit.message.contains("1331"), "\(limit.message)")
    }

    @Test func singleAxisStylesheetsKeepTheirNames() throws {
        let css = """
        :root { --bg: #ffffff; }
        :root[data-theme="dim"] { --bg: #333333; }
        [data-color-mode="dark"][data-dark-theme="dark_dimmed"] { --bg: #222222; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        #expect(palette?.themes.map(\.name) == ["light", "dim", "dark_dimmed"])
        #expect(palette?.format == "CSS custom properties")
    }

    /// shadcn/ui's theme registry: `.theme-zinc` on a wrapper, and `.dark .theme-zinc` for the
    /// same wrapper inside a dark root. Each dark variant is a theme standing on the root's dark
    /// block and the wrapper's own; they were "scoped, not read" (227 of 455 declarations).
    @Test func aThemeClassInsideADarkRootIsTheDarkVariantOfThatTheme() throws {
        let css = """
        :root { --ring: #0000ff; --muted: #eeeeee; }
        .dark { --ring: #ff0000; }
        .theme-zinc { --bg: #ffffff; --fg: #111111; }
        .dark .theme-zinc { --bg: #000000; }
        [data-mode="dark"] > .theme-blue { --bg: #000033; }
        .dark .btn { --bg: #123456; }
        .dark + .theme-zinc { --bg: #654321; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.map(\.message) == ["custom properties of '.dark .btn' are scoped to those elements; not read as tokens (themes come from :root, html, body and their classes and attributes)",
                                             "custom properties of '.dark + .theme-zinc' are scoped to those elements; not read as tokens (themes come from :root, html, body and their classes and attributes)"])
        #expect(problems.allSatisfy { $0.isWarning })
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "dark", "theme-zinc", "theme-zinc-dark", "theme-blue-dark"])
        let colors = resolvedColors(p)
        // The dark wrapper: its own block, the light wrapper's fg, the dark root's ring, the base's muted.
        #expect(colors["theme-zinc-dark"] == ["bg": "#000000", "fg": "#111111", "ring": "#ff0000", "muted": "#eeeeee"])
        #expect(colors["theme-zinc"]?["bg"] == "#ffffff" && colors["theme-zinc"]?["ring"] == "#0000ff")
        #expect(p.themes.first { $0.name == "theme-zinc-dark" }?.colorScheme == .dark)
        // A component inside a dark root, and a sibling, stay scoped: not read, each with its line.
        let ledger = p.ledger.completed(with: p)
        let notRead = ledger.notReadEntries.map { "\($0.name):\($0.line ?? 0)" }
        #expect(notRead == ["bg:6", "bg:7"], "\(notRead)")
    }

    /// Designsystemet nests `@supports` in `:root, [data-size]` and comments its selectors
    /// (`:root /* small */`): both are read as the browser reads them, and every property is in
    /// the ledger.
    @Test func nestedGroupRulesAndCommentedSelectorsAreRead() throws {
        let css = """
        :root /* small */ { --fg: #111111; }
        :root {
          --bg: #ffffff;
          @supports (color: lab(0 0 0)) { --bg: #fefefe; --gap: 1px; }
        }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(resolvedColors(p) == ["light": ["fg": "#111111", "bg": "#fefefe"]])
        let ledger = p.ledger.completed(with: p)
        #expect(ledger.colorDeclarations + ledger.notColors == 4, "\(ledger.entries)")
    }
}
