import ColorScience
import Foundation
@testable import PaletteAudit
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
            "text-1 4:3 not-read: a later declaration of --text-1 in the same theme wins",
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
}
