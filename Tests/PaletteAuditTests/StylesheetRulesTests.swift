import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Every declaration of a stylesheet accounted for (issue #29): the rules design systems wrap
/// their tokens in (`:where(html)`, `@custom-media`, `@property`, `@container`, `@import`) are
/// read as a browser reads them, or listed as not read with the reason, at their file and line.
@Suite struct StylesheetRulesTests {
    static func decode(_ css: String, file: String = "theme.css") -> (palette: Palette?, problems: [PaletteProblem]) {
        PaletteDecoder.decode(bytes: Array(css.utf8), file: file)
    }

    /// Problems as `line:column message`.
    static func located(_ problems: [PaletteProblem]) -> [String] {
        problems.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
    }

    /// The ledger's entries that are not color tokens, as `name line:column disposition: why`.
    static func unread(_ palette: Palette) -> [String] {
        palette.ledger.entries.map { entry in
            "\(entry.name) \(entry.line ?? 0):\(entry.column ?? 0) \(entry.disposition.rawValue): \(entry.reason ?? entry.type ?? "")"
        }
    }

    static let scopedReason = "are scoped to those elements; not read as tokens (themes come from :root, html, body and their classes and attributes)"

    // MARK: Tokens

    /// The stylesheet goes through ColorScience's CSS tokenizer: a `}` or `;` inside a string,
    /// an unquoted `url()` or an escape is text, never structure; a comment is nothing
    /// (`html/**/.dark` is the compound selector `html.dark`, as browsers read it).
    @Test func tokensInsideValuesAreNotStructure() throws {
        let css = """
        :root {
          --font: "a}b;c";
          --icon: url(x;y}.svg);
          --bg: #ffffff;
        }
        html/**/.dark { --bg: #000000; }
        .md\\:dark { --bg: #111111; }
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "dark"])
        #expect(resolvedColors(p) == ["light": ["bg": "#ffffff"], "dark": ["bg": "#000000"]])
        #expect(Self.located(problems) == ["7:13 custom properties of '.md\\:dark' \(Self.scopedReason)"])
        #expect(Self.unread(p).count == 3)
    }

    // MARK: :where() and :is()

    /// Open Props writes `:where(html) { --surface-1: … }`: the root, read exactly as `html`; a
    /// selector list inside is each of its selectors; anything else stays scoped.
    @Test func whereAndIsAroundTheRootAreTheRoot() throws {
        let css = """
        :where(html) {
          color-scheme: light;
          --surface-1: #ffffff;
          --text-1: #111111;
        }
        :where(html) :where(button,.btn) { --btn-bg: #eeeeee; }
        :is(html.dark, html.night) { --surface-1: #000000; }
        html:where(.dim) { --surface-1: #333333; }
        :is(html .card) { --card: #cccccc; }
        :where(:is(html)) { --text-1: #222222; }
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "dark", "dim"])
        // Document order decides: the later `:where(:is(html))` sets --text-1 in every theme.
        #expect(resolvedColors(p) == ["light": ["surface-1": "#ffffff", "text-1": "#222222"],
                                      "dark": ["surface-1": "#000000", "text-1": "#222222"],
                                      "dim": ["surface-1": "#333333", "text-1": "#222222"]])
        #expect(p.themes[0].tokens.first { $0.name == "surface-1" }?.pointer.description == "/:where(html)/--surface-1")
        #expect(Self.located(problems) == [
            "6:36 custom properties of ':where(html) :where(button,.btn)' \(Self.scopedReason)",
            "9:19 custom properties of ':is(html .card)' \(Self.scopedReason)",
        ])
        #expect(Self.unread(p) == [
            "btn-bg 6:36 not-read: custom properties of ':where(html) :where(button,.btn)' \(Self.scopedReason)",
            "card 9:19 not-read: custom properties of ':is(html .card)' \(Self.scopedReason)",
            "text-1 4:3 not-read: theme 'light' declares --text-1 again at theme.css:10 (in ':where(:is(html))'), with another value, #222222; that declaration is the one read: it wins by coming later, with the same importance, layer and specificity",
        ])
    }

    /// `:is()` with a selector list of attributes on the root is each attribute: one axis.
    @Test func isWithAListOfThemesOnTheRoot() throws {
        let css = """
        :root { --bg: #ffffff; }
        :root:is([data-theme="dark"], [data-theme="dim"]) { --bg: #111111; }
        """
        let (palette, problems) = Self.decode(css)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        // Read as `:root[data-theme="dark"], :root[data-theme="dim"]` is: one theme named by the
        // first alternative that names one.
        #expect(resolvedColors(p) == ["light": ["bg": "#ffffff"], "dark": ["bg": "#111111"]])
    }

    /// A selector that would open into more alternatives than the limit is kept as written.
    @Test func openingIsBounded() throws {
        let many = String(repeating: ":is(.a,.b)", count: 9)  // 512 alternatives
        var reader = StylesheetReader(bytes: [], file: "x.css")
        #expect(reader.selectorAlternatives("html" + many, at: 0) == ["html" + many])
        #expect(reader.selectorAlternatives(":where(html), :is(.x, .y) p", at: 0) == ["html", ".x p", ".y p"])
    }

    // MARK: @custom-media

    /// `@media (--OSdark)` is `@media (prefers-color-scheme: dark)` when the stylesheet defines
    /// `--OSdark`, before or after its use; a query that is not a preference stays unread with
    /// what it stands for; one defined nowhere here says so.
    @Test func customMediaQueriesAreTheQueriesTheyName() throws {
        let css = """
        @custom-media --OSdark (prefers-color-scheme: dark);
        @custom-media --highContrast (prefers-contrast: more);
        @custom-media --darkAndMore (--OSdark) and (--highContrast);
        @custom-media --HDcolor (dynamic-range: high) or (color-gamut: p3);
        :root { --bg: #ffffff; --fg: #111111; }
        @media (--OSdark) { :root { --bg: #000000; } }
        @media (--darkAndMore) { :root { --fg: #ffffff; } }
        @media (--HDcolor) { :root { --fg: color(display-p3 0 0 0); } }
        @media (--later) { :root { --bg: #222222; } }
        @media (--nowhere) { :root { --bg: #333333; } }
        @custom-media --later (prefers-color-scheme: dark);
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        #expect(p.themes.map(\.name) == ["light", "dark", "dark-high-contrast"])
        #expect(resolvedColors(p) == ["light": ["bg": "#ffffff", "fg": "#111111"],
                                      "dark": ["bg": "#222222", "fg": "#111111"],
                                      "dark-high-contrast": ["bg": "#222222", "fg": "#ffffff"]])
        let hd = "custom properties under @media (--HDcolor), that is @media (dynamic-range: high) or (color-gamut: p3), apply to some devices only; not read as a theme"
        let nowhere = "@media (--nowhere) uses a custom media query defined elsewhere (not found in this stylesheet or those it imports); not read as a theme"
        #expect(Self.located(problems) == ["8:30 \(hd)", "10:30 \(nowhere)"])
        #expect(Self.unread(p) == ["fg 8:30 not-read: \(hd)", "bg 10:30 not-read: \(nowhere)",
                                   "bg 6:29 not-read: theme 'dark' declares --bg again at theme.css:9 (in '@media (--later) :root'), with another value, #222222; that declaration is the one read: it wins by coming later, with the same importance, layer and specificity"])
        // The block keeps the query as written.
        #expect(p.themes[1].tokens.first { $0.name == "bg" }?.pointer.description == "/@media (--later) :root/--bg")
    }

    /// Cycles, `false`, a name used but not defined through another, and a malformed definition:
    /// each block not read, with the reason, and the cycle reported once at its definition.
    @Test func customMediaThatCannotBeReplacedSaysWhy() throws {
        let css = """
        @custom-media --a (--b);
        @custom-media --b (--a);
        @custom-media --never false;
        @custom-media --always true;
        @custom-media --phone (--portrait) and (--always);
        :root { --bg: #ffffff; }
        @media (--a) { :root { --bg: #000001; } }
        @media (--never) { :root { --bg: #000002; } }
        @media (--always) and (prefers-color-scheme: dark) { :root { --bg: #000003; } }
        @media (--phone) { :root { --bg: #000004; } }
        @media (--b) { :root { --bg: #000005; } }
        @custom-media broken;
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        #expect(resolvedColors(p) == ["light": ["bg": "#ffffff"], "dark": ["bg": "#000003"]])
        #expect(Self.located(problems) == [
            "12:1 @custom-media broken is not a definition like @custom-media --name (query); not read",
            "1:15 @custom-media --a is defined in terms of itself (--a → --b → --a); the blocks that use it are not read",
            "7:24 @media (--a) uses --a, a custom media query defined in terms of itself (--a → --b → --a); not read as a theme",
            "8:28 @media (--never) never applies (--never is defined as false); not read as a theme",
            "10:28 @media (--phone) uses --portrait, a custom media query defined elsewhere (not found in this stylesheet or those it imports); not read as a theme",
            "11:24 @media (--b) uses --a, a custom media query defined in terms of itself (--a → --b → --a); not read as a theme",
        ])
        #expect(p.ledger.notReadEntries.map { "\($0.name) \($0.line ?? 0)" } == ["bg 7", "bg 8", "bg 10", "bg 11"])
    }

    /// Custom media naming custom media, deeper than the limit: the block is not read.
    @Test func customMediaNestedTooDeep() throws {
        var css = ""
        for i in 0..<40 { css += "@custom-media --m\(i) (--m\(i + 1));\n" }
        css += "@custom-media --m40 (prefers-color-scheme: dark);\n:root { --bg: #ffffff; }\n@media (--m0) { :root { --bg: #000000; } }\n@media (--m20) { :root { --fg: #111111; } }\n"
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        // --m20 is 21 queries from a preference: within the limit, read as dark.
        #expect(resolvedColors(p) == ["light": ["bg": "#ffffff"], "dark": ["bg": "#ffffff", "fg": "#111111"]])
        #expect(problems.map(\.message) == ["@media (--m0) goes through more than 32 custom media queries, nested (at --m32); not read as a theme"])
    }

    // MARK: @property

    /// `@property --x { …; initial-value: … }` is the value --x has where no rule sets it: the
    /// lowest layer of every theme. An initial value browsers ignore is listed as not read.
    @Test func propertyInitialValuesAreTheBaseValue() throws {
        let css = """
        @property --accent { syntax: '<color>'; inherits: true; initial-value: #0055ff; }
        @property --ring { syntax: "<color>"; inherits: false; initial-value: rebeccapurple }
        @property --gap { syntax: '<length>'; inherits: false; initial-value: 4px; }
        @property --broken { syntax: '<color>'; initial-value: #ff0000; }
        @property --uses-var { syntax: '*'; inherits: true; initial-value: var(--accent); }
        :root { --bg: #ffffff; --ring: #00aa00; }
        .dark { --bg: #000000; --accent: #88aaff; }
        @media print { @property --printed { syntax: '<color>'; inherits: true; initial-value: #000000; } }
        @property --accent { syntax: '<color>'; inherits: true; initial-value: #0044ee; }
        @container (width > 1px) { @property --boxed { syntax: '<color>'; inherits: true; initial-value: #000000; } }
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        // The print block declares no custom property of its own: nothing to warn about.
        #expect(problems.isEmpty, "\(problems)")
        #expect(p.themes.map(\.name) == ["light", "dark"])
        // The later @property --accent wins; rules win over both, whatever their order.
        #expect(resolvedColors(p) == ["light": ["accent": "#0044ee", "ring": "#00aa00", "bg": "#ffffff"],
                                      "dark": ["accent": "#88aaff", "ring": "#00aa00", "bg": "#000000"]])
        let accent = try #require(p.themes[0].tokens.first { $0.name == "accent" })
        #expect(accent.pointer.description == "/@property --accent/--accent")
        #expect(accent.location.map { "\($0.line):\($0.column)" } == "9:57")
        #expect(Self.unread(p) == [
            "broken 4:41 not-read: @property --broken has no inherits descriptor, without which browsers ignore the rule",
            "uses-var 5:53 not-read: the initial-value of @property --uses-var uses var(), which it may not (it must not depend on other properties), so browsers ignore the rule",
            "printed 8:73 not-read: @property --printed is inside @media print; its initial value is read only from a rule at the top level",
            "boxed 10:83 not-read: @property --boxed is inside @container (width > 1px); its initial value is read only from a rule at the top level",
            "gap 3:56 not-a-color: \"4px\"",
            "accent 1:57 not-read: a later @property --accent wins",
            "ring 2:56 not-read: every theme sets --ring, so its @property initial value applies to none",
        ])
    }

    /// A stylesheet of @property rules alone is a palette: their initial values are the base.
    @Test func propertyRulesAloneAreTheBaseTheme() throws {
        let (palette, problems) = Self.decode("@property --ink { syntax: '<color>'; inherits: true; initial-value: #123456; }\n")
        #expect(problems.isEmpty, "\(problems)")
        #expect(resolvedColors(try #require(palette)) == ["light": ["ink": "#123456"]])
    }

    // MARK: @container

    /// A container query applies to the elements in a matching container: its custom properties
    /// are not a theme's, and each block says so once, at its line.
    @Test func containerQueriesAreNotThemes() throws {
        let css = """
        :root { --bg: #ffffff; }
        @container sidebar (min-width: 400px) { :root { --bg: #eeeeee; } .card { --fg: #111111; } }
        :root { @container (width > 40em) { --fg: #222222; --pad: 1rem; } }
        """
        let (palette, problems) = Self.decode(css)
        let p = try #require(palette)
        #expect(resolvedColors(p) == ["light": ["bg": "#ffffff"]])
        let sidebar = "custom properties under @container sidebar (min-width: 400px) apply to some elements only (those in a matching container); not read as a theme"
        let wide = "custom properties under @container (width > 40em) apply to some elements only (those in a matching container); not read as a theme"
        #expect(Self.located(problems) == ["2:49 \(sidebar)", "2:74 \(sidebar)", "3:37 \(wide)"])
        #expect(Self.unread(p) == ["bg 2:49 not-read: \(sidebar)", "fg 2:74 not-read: \(sidebar)", "fg 3:37 not-read: \(wide)",
                                   "pad 3:52 not-a-color: \"1rem\" (\(wide))"])
    }

    // MARK: Unclosed blocks

    /// `:root { --a: red;` and the end of the file: read as browsers read it (the block closed
    /// there), with one warning at the line where the block opened.
    @Test func aBlockOpenAtTheEndOfTheFileIsReadAndSaid() throws {
        let (palette, problems) = Self.decode(":root { --a: #ff0000;")
        #expect(resolvedColors(try #require(palette)) == ["light": ["a": "#ff0000"]])
        #expect(Self.located(problems) == ["1:7 the rule ':root' opened at line 1 is not closed by the end of the file; what it holds is read as if it were closed there, as browsers do"])
    }

    @Test func nestedBlocksOpenAtTheEndOfTheFile() throws {
        let css = """
        :root { --bg: #ffffff; }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #000000;
            @supports (color: lab(0 0 0)) {
              --fg: #eeeeee;
        """
        let (palette, problems) = Self.decode(css)
        #expect(resolvedColors(try #require(palette)) == ["light": ["bg": "#ffffff"], "dark": ["bg": "#000000", "fg": "#eeeeee"]])
        #expect(Self.located(problems) == ["2:37 @media (prefers-color-scheme: dark) opened at line 2 is not closed by the end of the file, nor are the 2 blocks opened inside it (at lines 3, 5); what it holds is read as if it were closed there, as browsers do"])
        // An at-rule that is not read, open to the end: said too.
        let keyframes = Self.decode(":root { --a: #000000; }\n@keyframes pulse { from { --glow: #ff0000; }")
        #expect(Self.located(keyframes.problems) == ["2:18 @keyframes pulse opened at line 2 is not closed by the end of the file; what it holds is read as if it were closed there, as browsers do"])
        #expect(try #require(keyframes.palette).ledger.notReadEntries.map(\.name) == ["glow"])
    }

    // MARK: @import

    /// Writes `files` (path → text) into a new directory; returns its path.
    static func folder(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("css-imports-\(UUID().uuidString)")
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory.path
    }

    /// The imported stylesheets are read before the importing one, as if their rules stood
    /// where the @import is; each file once; the import's media query applies to its rules; a
    /// custom media query one defines is known to all; the imported files are part of the
    /// importing stylesheet's palette, and are not audited again on their own.
    /// Found trying Open Props as a new user: each theme file read 0 of its colors, saying the
    /// `--gray-*` it names were defined "nowhere in the stylesheets read", though the same run
    /// read the file that defines them. The stylesheet is still read as a browser reads it alone;
    /// the reason now names the other file and how to read both.
    @Test func aPropertyAnotherStylesheetOfTheRunDefinesIsNamedWithIt() throws {
        let dir = try Self.folder([
            "props.gray.css": ":where(html) { --gray-0: #f8f9fa; --gray-9: #212529; }\n",
            "theme.css": ":where(html) { --surface-1: var(--gray-0); --text-1: var(--gray-9); --own: #ffffff; --lost: var(--nowhere); }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loaded = PaletteLoader.loadSources(paths: [dir])
        let theme = try #require(loaded.palettes.first { $0.file.hasSuffix("/theme.css") }?.palette)
        let reasons = Dictionary(uniqueKeysWithValues: theme.ledger.notReadEntries.map { ($0.name, $0.reason ?? "") })
        #expect(reasons["surface-1"] == "--gray-0 is not defined in theme 'light' nor in any stylesheet this one reads or imports (a stylesheet loaded beside this one must define it), and var(--gray-0) has no fallback; \(dir)/props.gray.css, read in the same run, defines --gray-0: a page that loads it with this stylesheet gives the property its value (audit them together from one stylesheet that @imports both)")
        #expect(reasons["lost"]?.hasSuffix("and var(--nowhere) has no fallback") == true, "\(reasons)")
        // Only the reason changes: nothing is measured that a browser reading theme.css alone would not.
        #expect(resolvedColors(theme) == ["light": ["own": "#ffffff"]])
    }

    /// Declarations in a block that is not read are "not read" when the block would make them
    /// colors (bare HSL channels and color names too), never "not a color".
    @Test func aScopedBlocksColorsAreNotReadNotNonColors() throws {
        let css = """
        .theme-a { --bg: 0 0% 100%; --radius: 0.5rem; }
        .dark .card { --bg: 0 0% 0%; --fg: white; --gap: 4px; }
        """
        let (palette, _) = Self.decode(css)
        let p = try #require(palette)
        let entries = p.ledger.entries.filter { $0.line == 2 }.map { "\($0.name) \($0.disposition.rawValue)" }
        #expect(entries == ["bg not-read", "fg not-read", "gap not-a-color"])
    }

    @Test func importsAreReadFirstInCascadeOrder() throws {
        let dir = try Self.folder([
            "theme.css": """
            @charset "utf-8";
            @import "tokens/base.css" layer(base);
            @import url("dark.css") (prefers-color-scheme: dark);
            @import url(media.css);
            @import "tokens/base.css";
            :root { --fg: var(--gray-9); --bg: #fafafa; }
            @media (--OSdark) { :root { --fg: var(--gray-1); } }
            @import "late.css";
            """,
            "tokens/base.css": ":root { --gray-9: #111111; --gray-1: #eeeeee; --bg: #ffffff; --space: 4px; }\n",
            "dark.css": ":root { --accent: #88aaff; }\n",
            "media.css": "@custom-media --OSdark (prefers-color-scheme: dark);\n",
            "late.css": ":root { --late: #ff0000; }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loaded = PaletteLoader.loadSources(paths: [dir])
        #expect(loaded.palettes.map(\.file) == ["\(dir)/late.css", "\(dir)/theme.css"])
        #expect(loaded.skipped.map { "\($0.file): \($0.reason)" } == [
            "\(dir)/dark.css: imported by \(dir)/theme.css, whose palette it is part of",
            "\(dir)/media.css: imported by \(dir)/theme.css, whose palette it is part of",
            "\(dir)/tokens/base.css: imported by \(dir)/theme.css, whose palette it is part of",
        ])
        let theme = try #require(loaded.palettes.last)
        let p = try #require(theme.palette)
        #expect(p.files == ["\(dir)/theme.css", "\(dir)/tokens/base.css", "\(dir)/dark.css", "\(dir)/media.css"])
        // The importing stylesheet's --bg comes later than the imported one's: it wins.
        #expect(resolvedColors(p) == ["light": ["gray-9": "#111111", "gray-1": "#eeeeee", "bg": "#fafafa", "fg": "#111111"],
                                      "dark": ["gray-9": "#111111", "gray-1": "#eeeeee", "bg": "#fafafa", "fg": "#eeeeee", "accent": "#88aaff"]])
        let gray = try #require(p.themes[0].tokens.first { $0.name == "gray-9" })
        #expect(gray.file == "\(dir)/tokens/base.css" && gray.location.map { "\($0.line):\($0.column)" } == "1:9")
        #expect(p.themes[0].tokens.first { $0.name == "fg" }?.file == nil)
        #expect(theme.problems.map { "\($0.file ?? "-"):\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" } == [
            "\(dir)/theme.css:8:1 @import \"late.css\" is not read: it comes after other rules, and browsers ignore an @import that does not come first",
        ])
        // Every declaration, in whichever file, is in the ledger at its own file and line.
        let ledger = p.ledger.completed(with: p)
        #expect(ledger.entries.map { "\($0.file.map { String($0.dropFirst(dir.count + 1)) } ?? "-"):\($0.line ?? 0) \($0.name) \($0.disposition.rawValue)" } == [
            "tokens/base.css:1 space not-a-color",
            "tokens/base.css:1 bg not-read",
            "tokens/base.css:1 gray-9 color", "tokens/base.css:1 gray-1 color", "theme.css:6 fg color", "theme.css:6 bg color",
            "dark.css:1 accent color", "theme.css:7 fg color",
        ])
    }

    /// Imports that are not followed: each a warning at its @import, saying why.
    @Test func importsNotFollowedSayWhy() throws {
        let dir = try Self.folder([
            "a.css": """
            @import "https://example.com/x.css";
            @import "/site/x.css";
            @import "../outside.css";
            @import "tailwindcss";
            @import "./missing.css";
            @import "b.css";
            :root { --a: #111111; }
            """,
            "b.css": "@import \"a.css\";\n:root { --b: #222222; }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loaded = PaletteLoader.loadSources(paths: [dir])
        // a.css and b.css import each other: the first in path order keeps its palette.
        #expect(loaded.palettes.map(\.file) == ["\(dir)/a.css"])
        #expect(loaded.skipped.map(\.reason) == ["imported by \(dir)/a.css, whose palette it is part of"])
        let a = try #require(loaded.palettes.first)
        #expect(resolvedColors(try #require(a.palette)) == ["light": ["b": "#222222", "a": "#111111"]])
        #expect(a.problems.map { "\($0.file.map { String($0.dropFirst(dir.count + 1)) } ?? "-"):\($0.location?.line ?? 0) \($0.code) \($0.message)" } == [
            "a.css:1 unreadable-file @import \"https://example.com/x.css\" is not read: a URL with a scheme (https:) is not fetched; only files in the directory the stylesheet was read from are read",
            "a.css:2 unreadable-file @import \"/site/x.css\" is not read: a path from a site's root (/site/x.css) names no file beside the stylesheet",
            "a.css:3 unreadable-file @import \"../outside.css\" is not read: it leads outside \(dir), the directory the stylesheet was read from (audit a directory that holds both to follow it)",
            "a.css:4 unreadable-file @import \"tailwindcss\" is not read: no such file or directory (\(dir)/tailwindcss); if it names a package, a build tool resolves that, not this tool",
            "a.css:5 unreadable-file @import \"./missing.css\" is not read: no such file or directory (\(dir)/missing.css)",
            "b.css:1 ref-cycle @import \"a.css\" is not read: it closes a cycle of imports (a.css → b.css → a.css); each stylesheet is read once",
        ])
    }

    /// Imports nested deeper than the limit stop there, with a warning at the last one followed.
    @Test func importsNestedTooDeep() throws {
        var files: [String: String] = [:]
        for i in 0..<20 { files["f\(i).css"] = "@import \"f\(i + 1).css\";\n:root { --c\(i): #00000\(i % 10); }\n" }
        files["f20.css"] = ":root { --c20: #000000; }\n"
        let dir = try Self.folder(files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loaded = PaletteLoader.loadFile("\(dir)/f0.css")
        let p = try #require(loaded.palette)
        #expect(p.files.count == 17)
        #expect(p.themes[0].tokens.count == 17)
        #expect(loaded.problems.map { "\($0.file.map { String($0.dropFirst(dir.count + 1)) } ?? "-"):\($0.location?.line ?? 0) \($0.message)" } == [
            "f16.css:1 @import \"f17.css\" is not read: imports nest more than 16 deep here",
        ])
    }

    /// A stylesheet sent on its own (an HTTP body) has no folder to import from.
    @Test func aStylesheetWithoutAFileImportsNothing() throws {
        let (palette, problems) = PaletteDecoder.decode(bytes: Array("@import \"tokens.css\";\n:root { --a: #111111; }\n".utf8), mediaType: "text/css", defaultName: "posted")
        #expect(resolvedColors(try #require(palette)) == ["light": ["a": "#111111"]])
        #expect(Self.located(problems) == ["1:1 @import \"tokens.css\" is not read: a stylesheet sent on its own cannot import other files; audit the folder with the CLI, or put the imported rules in the stylesheet"])
    }

    /// A link beside the stylesheet that leads out of the directory is refused on the file
    /// opened, as every read of a confined directory is.
    @Test func anImportThroughALinkOutOfTheDirectoryIsRefused() throws {
        let outside = try Self.folder(["secret.css": ":root { --secret: #123456; }\n"])
        let dir = try Self.folder(["theme.css": "@import \"link.css\";\n:root { --a: #111111; }\n"])
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/link.css", withDestinationPath: "\(outside)/secret.css")
        let loaded = PaletteLoader.loadFile("\(dir)/theme.css")
        #expect(resolvedColors(try #require(loaded.palette)) == ["light": ["a": "#111111"]])
        #expect(Self.located(loaded.problems) == [
            "1:1 @import \"link.css\" is not read: it is outside the palettes directory (a symbolic link or a reference leading out): not read (\(dir)/link.css)",
        ])
    }
}
