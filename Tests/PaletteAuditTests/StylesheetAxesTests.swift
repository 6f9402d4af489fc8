import ColorScience
@testable import PaletteAudit
@testable import TokenSources
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
            for value in 0..<10 { css += "[\(axis)=\"v\(value)\"] { --bg: #00000\(value); }\n" }
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
        // No block sets color-scheme: the used scheme is light, as in a browser.
        #expect(p.themes.first { $0.name == "theme-zinc-dark" }?.colorScheme == .light)
        // A component inside a dark root, and a sibling, stay scoped: not read, each with its line.
        let ledger = p.ledger.completed(with: p)
        let notRead = ledger.notReadEntries.map { "\($0.name):\($0.line ?? 0)" }
        #expect(notRead == ["bg:6", "bg:7"], "\(notRead)")
    }

    /// A space or a `>` inside brackets or parentheses is not a combinator: the compound is read
    /// whole (the splitting applied its depth test to `>` and `~` only).
    @Test func aSpaceInsideAnAttributeValueIsNotACombinator() throws {
        let css = """
        .theme-zinc { --bg: #ffffff; }
        [data-mode="night sky"] .theme-zinc { --bg: #000000; }
        [data-mode="a > b"] .theme-zinc { --bg: #111111; }
        """
        let (palette, _) = Self.decode(css)
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["theme-zinc", "theme-zinc-night sky", "theme-zinc-a > b"], "\(p.themes.map(\.name))")
        #expect(resolvedColors(p)["theme-zinc-night sky"]?["bg"] == "#000000")
    }

    /// Found by a new user on Equinor's color-scheme.css: a dark block that sets only
    /// `color-scheme: dark` made no theme, so every light-dark() value was measured light only
    /// (a dark pair at 2.81:1 never seen, exit 0). So did `:root { color-scheme: light dark }`.
    @Test func aColorSchemeAloneMakesTheDarkThemeOfLightDarkValues() throws {
        let values = ":root { --fg: light-dark(#111111, #555555); --bg: light-dark(#ffffff, #000000); }"
        for css in [":root, [data-color-scheme=\"light\"] { color-scheme: light; }\n[data-color-scheme=\"dark\"] { color-scheme: dark; }\n" + values,
                    ":root { color-scheme: light dark; }\n" + values] {
            let (palette, problems) = Self.decode(css)
            #expect(problems.isEmpty, "\(problems)")
            let p = try #require(palette)
            #expect(p.themes.map(\.name) == ["light", "dark"], "\(css)")
            #expect(resolvedColors(p)["dark"] == ["fg": "#555555", "bg": "#000000"])
            #expect(p.themes.last?.colorScheme == .dark)
        }
        // Without a light-dark() value a color-scheme changes nothing measured: no theme is added.
        let plain = Self.decode(":root { color-scheme: light dark; --fg: #111111; }").palette
        #expect(plain?.themes.map(\.name) == ["light"])
    }

    /// Pico's structure: the automatic dark theme (`@media (prefers-color-scheme: dark)
    /// { :root:not([data-theme]) }`) and the chosen one (`[data-theme=dark]`) were one theme,
    /// the second block's values replacing the first's with a false "declares again" reason.
    @Test func aDarkPreferenceAndAChosenDarkThemeAreTwoThemes() throws {
        let css = """
        :root:not([data-theme=dark]), [data-theme=light] { --fg: #111111; --bg: #ffffff; }
        @media only screen and (prefers-color-scheme: dark) { :root:not([data-theme]) { --fg: #555555; --bg: #000000; } }
        [data-theme=dark] { --fg: #eeeeee; --bg: #000000; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "auto-dark", "dark"])
        let colors = resolvedColors(p)
        #expect(colors["auto-dark"]?["fg"] == "#555555")
        #expect(colors["dark"]?["fg"] == "#eeeeee")
        #expect(p.ledger.completed(with: p).notReadEntries.isEmpty)
        // Alone, a dark preference block is the dark theme, as before.
        let alone = Self.decode(":root { --fg: #111111; }\n@media (prefers-color-scheme: dark) { :root { --fg: #eeeeee; } }").palette
        #expect(alone?.themes.map(\.name) == ["light", "dark"])
    }

    /// Element and state attributes (`[type=checkbox]`, `[role=search]`, `[aria-invalid]`) and
    /// component classes with a modifier (`.navbar.is-light`) are scoped, not theme axes: Pico's
    /// main stylesheet made 1,080 themes and was refused, and Bulma's `.navbar.is-light` was a theme.
    @Test func elementAttributesAndComponentClassesAreNotThemes() throws {
        let css = """
        :root { --fg: #111111; --bg: #ffffff; }
        [data-theme=dark] { --fg: #eeeeee; --bg: #000000; }
        [type=checkbox] { --bg: #777777; }
        [role=search] { --bg: #cccccc; }
        [aria-invalid=true] { --bg: #ff0000; }
        .navbar.is-light { --bg: #fafafa; }
        .high-contrast { --fg: #000000; }
        """
        let (palette, _) = Self.decode(css)
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "high-contrast", "dark", "dark-high-contrast"])
        let notRead = p.ledger.completed(with: p).notReadEntries.map { $0.line ?? 0 }
        #expect(notRead == [3, 4, 5, 6])
    }

    /// Two themes that come out with one name (two data attributes with the same value) are
    /// told apart, with a warning, instead of sharing a name in every output and baseline.
    @Test func themesNamedAlikeGetDistinctNames() throws {
        let css = """
        :root { --fg: #111111; --bg: #ffffff; }
        [data-brand=x] { --fg: #222222; }
        [data-mode=x] { --bg: #eeeeee; }
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        let names = p.themes.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(problems.contains { $0.isWarning && $0.message.contains("two themes of this stylesheet are named 'x'") }, "\(problems)")
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
