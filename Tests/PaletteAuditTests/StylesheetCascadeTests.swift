import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Declarations of one custom property on one element are ordered as the cascade orders them
/// (CSS Cascade 5, 6.1): `!important`, then the cascade layer, then specificity, then document
/// order. Found by a hostile probe: the reader took the last declaration in document order, so
/// `:root { --fg: #999 }` followed by `html { --fg: #000 }` or by `@layer base { :root { --fg:
/// #000 } }` was measured as #000 (21:1, a pass with exit 0) where a browser shows #999.
@Suite struct StylesheetCascadeTests {
    /// The value each theme gives `name`.
    static func values(_ css: String, _ name: String = "fg") throws -> [String: String] {
        let (palette, problems) = PaletteDecoder.decode(bytes: Array(css.utf8), file: "theme.css")
        #expect(!problems.contains { !$0.isWarning }, "\(problems.map(\.message))")
        var result: [String: String] = [:]
        for theme in try #require(palette).themes {
            result[theme.name] = theme.tokens.first { $0.name == name }?.value
        }
        return result
    }

    @Test func specificityOrdersDeclarationsOnTheRoot() throws {
        #expect(try Self.values(":root { --fg: #999999; --bg: #fff; }\nhtml { --fg: #000000; }") == ["light": "#999999"])
        #expect(try Self.values("html { --fg: #000000; --bg: #fff; }\n:root { --fg: #999999; }") == ["light": "#999999"])
        // `:where()` counts nothing (Open Props), so a later `html` still wins over it, and an
        // earlier `:root` too.
        #expect(try Self.values(":root { --fg: #999999; --bg: #fff; }\n:where(html) { --fg: #000000; }") == ["light": "#999999"])
        #expect(try Self.values(":where(html) { --fg: #000000; --bg: #fff; }\nhtml { --fg: #999999; }") == ["light": "#999999"])
        // Within a theme: `:root.dark` (0,2,0) over a later `.dark` (0,1,0).
        let themed = try Self.values(":root { --fg: #111; --bg: #fff; }\n:root.dark { --fg: #eeeeee; }\n.dark { --fg: #999999; }")
        #expect(themed["dark"] == "#eeeeee", "\(themed)")
    }

    @Test func layersOrderDeclarationsBeforeSpecificity() throws {
        // Outside every layer beats inside one, wherever it is written.
        #expect(try Self.values(":root { --fg: #999999; --bg: #fff; }\n@layer base { :root { --fg: #000000; } }") == ["light": "#999999"])
        // Layers in the order they are named: `@layer base, overrides;` puts overrides above.
        #expect(try Self.values("@layer base, overrides;\n@layer overrides { :root { --fg: #999999; --bg: #fff; } }\n@layer base { :root { --fg: #000000; } }")
                == ["light": "#999999"])
        // A layer's specificity does not lift it over a later layer.
        #expect(try Self.values("@layer a { html:root { --fg: #000000; --bg: #fff; } }\n@layer b { :where(html) { --fg: #999999; } }") == ["light": "#999999"])
        // An `@import … layer(x)` puts the imported declarations in layer x, below unlayered.
        let directory = Scratch.directory("css-layer")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ":root { --fg: #000000; }".write(to: directory.appendingPathComponent("base.css"), atomically: true, encoding: .utf8)
        let main = directory.appendingPathComponent("theme.css").path
        try "@import url(\"base.css\") layer(base);\n:root { --bg: #fff; }\n:root { --fg: #999999; }".write(toFile: main, atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadFile(main)
        #expect(loaded.palette?.themes.first?.tokens.first { $0.name == "fg" }?.value == "#999999", "\(loaded.problems.map(\.message))")
        try "@import url(\"base.css\") layer(base);\n:root { --bg: #fff; }".write(toFile: main, atomically: true, encoding: .utf8)
        #expect(PaletteLoader.loadFile(main).palette?.themes.first?.tokens.first { $0.name == "fg" }?.value == "#000000")
    }

    /// Found by a review: `body`'s own declaration is what the page's text inherits; it is not
    /// compared with the root's by specificity (`:root` is more specific than `body`).
    @Test func bodyWinsOverTheRootWhateverItsSpecificity() throws {
        #expect(try Self.values(":root { --fg: #999999; --bg: #fff; }\nbody { --fg: #000000; }") == ["light": "#000000"])
        #expect(try Self.values("body { --fg: #000000; }\n:root { --fg: #999999 !important; --bg: #fff; }") == ["light": "#000000"])
        #expect(StylesheetReader.setsBody("html > body") && StylesheetReader.setsBody(":root, body.dark") && !StylesheetReader.setsBody("body .card") && !StylesheetReader.setsBody("bodyx"))
    }

    /// Layers form a tree: a layer's own rules come after its sublayers, and a sublayer named
    /// late stays inside its parent's place. `@layer` statements before the imports order the
    /// imported layers.
    @Test func layersAreOrderedAsATree() throws {
        #expect(try Self.values("@layer base { :root { --fg: #999999; --bg: #fff; } }\n@layer base { @layer reset { :root { --fg: #000000; } } }") == ["light": "#999999"])
        #expect(try Self.values("@layer a { :root { --bg: #fff; } }\n@layer b { :root { --fg: #999999; } }\n@layer a { @layer sub { :root { --fg: #000000; } } }") == ["light": "#999999"])
        let directory = Scratch.directory("css-layer-order")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ":root { --fg: #999999; }".write(to: directory.appendingPathComponent("u.css"), atomically: true, encoding: .utf8)
        try ":root { --fg: #000000; --bg: #fff; }".write(to: directory.appendingPathComponent("b.css"), atomically: true, encoding: .utf8)
        let main = directory.appendingPathComponent("theme.css").path
        // The statement names utilities first, base last: base (u.css, #999999) wins, although
        // utilities is imported after it.
        try "@layer utilities, base;\n@import \"u.css\" layer(base);\n@import \"b.css\" layer(utilities);\n".write(toFile: main, atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadFile(main)
        #expect(loaded.palette?.themes.first?.tokens.first { $0.name == "fg" }?.value == "#999999", "\(loaded.problems.map(\.message))")
    }

    @Test func importantReversesTheLayersAndWinsOverNormal() throws {
        #expect(try Self.values(":root { --fg: #999999 !important; --bg: #fff; }\n:root { --fg: #000000; }") == ["light": "#999999"])
        // Among important declarations, an earlier layer wins, and any layer beats unlayered.
        #expect(try Self.values("@layer a, b;\n@layer a { :root { --fg: #999999 !important; --bg: #fff; } }\n@layer b { :root { --fg: #000000 !important; } }")
                == ["light": "#999999"])
        #expect(try Self.values(":root { --fg: #000000 !important; --bg: #fff; }\n@layer a { :root { --fg: #999999 !important; } }") == ["light": "#999999"])
    }

    @Test func theLedgerSaysWhichDeclarationWinsAndWhy() throws {
        let (palette, _) = PaletteDecoder.decode(bytes: Array(":root { --fg: #999999; --bg: #fff; }\nhtml { --fg: #000000; }".utf8), file: "theme.css")
        let unread = StylesheetRulesTests.unread(try #require(palette))
        #expect(unread.count == 1)
        #expect(unread.first?.hasPrefix("fg 2:8 not-read: theme 'light' declares --fg again at theme.css:1 (in ':root'), with another value, #999999; that declaration is the one read: it wins by specificity") == true,
                "\(unread)")
    }

    @Test func specificityOfSelectors() {
        let cases: [(String, Int)] = [(":root", 1_000), ("html", 1), (":where(html)", 0), ("html.dark", 1_001), ("#app .x", 1_001_000),
                                      (":root[data-theme=\"dark\"]", 2_000), (":is(.a, #b) p", 1_000_001), ("html::before", 2),
                                      (":not(.a.b)", 2_000), ("*", 0), (":root, html.dark.x", 2_001)]
        for (selector, expected) in cases {
            #expect(StylesheetReader.specificity(ofList: selector) == expected, "\(selector)")
        }
        // Nested past the depth followed, an argument counts as one pseudo-class: bounded stack.
        let deep = String(repeating: ":is(", count: 100_000) + "#a" + String(repeating: ")", count: 100_000)
        #expect(StylesheetReader.specificity(ofList: deep) == 1_000)
    }
}
