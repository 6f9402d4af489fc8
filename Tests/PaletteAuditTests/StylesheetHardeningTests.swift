import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Hostile stylesheets (issue #30): every one is read in work proportional to its size, or
/// refused with a located `limit-exceeded` problem; none crashes, none is audited half-read.
@Suite struct StylesheetHardeningTests {
    /// Reads `css` under a budget of its own (as `decodeStylesheet` does) and returns the budget
    /// too, so a test can see what it spent. `stepsPerByte` gives a tighter budget than a
    /// service's, for tests that show the work is linear.
    static func read(_ css: String, stepsPerByte: Int? = nil) -> (palette: Palette?, problems: [PaletteProblem], budget: ReadBudget) {
        let bytes = Array(css.utf8)
        let budget = stepsPerByte.map { ReadBudget(maximumSteps: $0 * bytes.count) } ?? ReadBudget(inputBytes: bytes.count)
        let (palette, problems) = ReadBudget.withBudget(budget) {
            PaletteDecoder.decodeStylesheet(bytes: bytes, file: "bomb.css", name: "bomb")
        }
        return (palette, problems, budget)
    }

    /// The one problem that stopped the read: `limit-exceeded`, located, saying `words`.
    static func expectStopped(_ result: (palette: Palette?, problems: [PaletteProblem], budget: ReadBudget),
                              saying words: String, line: Int? = nil) {
        #expect(result.palette == nil)
        let stop = result.budget.problem
        #expect(stop?.code == .limitExceeded, "\(result.problems)")
        #expect(stop?.message.contains(words) == true, "\(stop?.message ?? "no problem")")
        #expect(stop?.location != nil, "the problem says where")
        if let line { #expect(stop?.location?.line == line) }
        #expect(result.problems.contains { $0.code == .limitExceeded && $0.location != nil })
        // Nothing else is claimed about a stylesheet that was not read.
        #expect(!result.problems.contains { $0.code == .unknownFormat }, "\(result.problems)")
    }

    /// Nested rules whose selector lists multiply (3 alternatives at each of 7 levels: the
    /// block's selector is 31 KB from a 1.3 KB input, fuzz/crashes/stylesheet-crash-aa75a3…):
    /// each token's pointer quotes the block at most ``StylesheetReader/pointerBlockLimit``
    /// characters, so the token listing does not copy the expansion into every token.
    @Test func nestedSelectorListsAreQuotedNotCopiedIntoEveryPointer() throws {
        let open = String(repeating: ".c0 .d0, .c1 .d1, [data-theme=dark] {", count: 6)
        let css = ":root, [data-theme=dark] {" + open + "--fg2: hsl(136deg 80% 61%); --fg1: red; --bg: #ffffff;" + String(repeating: "}", count: 7)
        let result = Self.read(css)
        let palette = try #require(result.palette, "\(result.problems)")
        let pointers = palette.themes.flatMap(\.tokens).map(\.pointer.description)
        #expect(!pointers.isEmpty)
        for pointer in pointers {
            #expect(pointer.utf8.count < StylesheetReader.pointerBlockLimit + 64, "\(pointer.utf8.count) bytes")
            #expect(pointer.contains("…(") && pointer.contains(" bytes)"), "says how long the quoted block is")
        }
        let listing = TokenListing(palette, problems: result.problems)
        let entries = listing.themes.reduce(0) { $0 + $1.tokens.count + $1.inherited.count }
        #expect(listing.compactJSON().count <= max(64 * css.utf8.count, 2_048 * entries))
    }

    @Test func thirtyKilobytesOfOpeningBraces() {
        let result = Self.read(String(repeating: "{", count: 30_000))
        Self.expectStopped(result, saying: "nests more than \(ReadBudget.maximumDepth) blocks deep", line: 1)
        #expect(result.budget.problem?.location?.column == ReadBudget.maximumDepth + 1)
    }

    @Test func fortyThousandNestedRules() {
        let result = Self.read(String(repeating: "a{", count: 40_000))
        Self.expectStopped(result, saying: "nests more than \(ReadBudget.maximumDepth) blocks deep", line: 1)
    }

    @Test func twentyThousandNestedMediaQueries() {
        let result = Self.read(String(repeating: "@media{", count: 20_000))
        Self.expectStopped(result, saying: "@media nests more than", line: 1)
    }

    @Test func nestingOneLinePerLevelIsLocatedOnItsLine() {
        let css = ":root {\n" + String(repeating: "@media screen {\n", count: 300) + "--x: red;\n" + String(repeating: "}\n", count: 301)
        let result = Self.read(css)
        Self.expectStopped(result, saying: "nests more than", line: ReadBudget.maximumDepth + 1)
    }

    @Test func nestingWithinTheLimitIsRead() throws {
        let depth = ReadBudget.maximumDepth - 2
        let css = String(repeating: "@media screen {\n", count: depth) + ":root { --fg: #000; --bg: #fff; }\n" + String(repeating: "}\n", count: depth)
        let result = Self.read(css)
        let palette = try #require(result.palette, "\(result.problems)")
        #expect(resolvedColors(palette) == ["light": ["fg": "#000000", "bg": "#ffffff"]])
    }

    /// `--p0: var(--p1); … --p19999: red`: a chain far deeper than any real one.
    @Test func twentyThousandPropertyVarChain() {
        var css = ":root {\n"
        for i in 0..<19_999 { css += "  --p\(i): var(--p\(i + 1));\n" }
        css += "  --p19999: red;\n}\n"
        let result = Self.read(css)
        Self.expectStopped(result, saying: "var() chain from --p0 nests more than \(ReadBudget.maximumDepth)")
        // Located at the property where the chain went too deep.
        #expect(result.budget.problem?.location?.line == ReadBudget.maximumDepth + 3)
    }

    @Test func varChainsWithinTheLimitAreRead() throws {
        var css = ":root {\n"
        for i in 0..<200 { css += "  --p\(i): var(--p\(i + 1));\n" }
        css += "  --p200: #123456;\n}\n"
        // Each property substituted once: linear, within 8 steps a byte.
        let result = Self.read(css, stepsPerByte: 8)
        let palette = try #require(result.palette, "\(result.problems)")
        #expect(resolvedColors(palette)["light"]?["p0"] == "#123456")
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    /// Each `--aN` mixes `--aN-1` with itself: the text doubles at each step. Memoized, each
    /// property is substituted once, but what it builds still doubles, so the budget stops it.
    @Test func doublingColorMixChain() {
        var css = ":root {\n  --a0: red;\n"
        for i in 1...24 { css += "  --a\(i): color-mix(in srgb, var(--a\(i - 1)), var(--a\(i - 1)));\n" }
        css += "}\n"
        let result = Self.read(css)
        Self.expectStopped(result, saying: "var() substitution of --a")
        #expect(result.budget.problem?.location.map { $0.line > 2 && $0.line <= 26 } == true)
    }

    /// The same chain, shallow enough for its expansion to fit: read, and right.
    @Test func shortDoublingChainIsRead() throws {
        var css = ":root {\n  --a0: #ff0000;\n"
        for i in 1...4 { css += "  --a\(i): color-mix(in srgb, var(--a\(i - 1)), var(--a\(i - 1)));\n" }
        css += "}\n"
        let result = Self.read(css)
        let palette = try #require(result.palette, "\(result.problems)")
        #expect(resolvedColors(palette)["light"]?["a4"] == "#ff0000")
    }

    /// A property named by many others is substituted once per theme, not once per use.
    @Test func varIsResolvedOncePerTheme() throws {
        var css = ":root {\n  --base: #336699;\n"
        for i in 0..<5_000 { css += "  --u\(i): var(--base);\n" }
        css += "}\n.dark { --base: #99ccff; }\n"
        // Linear: read within 8 steps a byte (the service allows 64).
        let result = Self.read(css, stepsPerByte: 8)
        let palette = try #require(result.palette, "\(result.problems)")
        #expect(resolvedColors(palette)["dark"]?["u4999"] == "#99ccff")
        #expect(result.budget.problem == nil)
    }

    /// Each level of nested fallbacks is scanned again: 20,000 of them would be a quadratic
    /// read, so what is scanned is spent and the read is refused at the declaration.
    @Test func deeplyNestedFallbacks() {
        let css = ":root { --x: " + String(repeating: "var(--u, ", count: 20_000) + "red" + String(repeating: ")", count: 20_000) + "; }"
        let result = Self.read(css)
        Self.expectStopped(result, saying: "the var() fallbacks of --x", line: 1)
        #expect(result.budget.problem?.location?.column == 9)
    }

    @Test func fallbacksNestedAFewDeepAreRead() throws {
        let css = ":root { --x: " + String(repeating: "var(--u, ", count: 50) + "#0000ff" + String(repeating: ")", count: 50) + "; }"
        let result = Self.read(css, stepsPerByte: 64)
        let palette = try #require(result.palette, "\(result.problems)")
        #expect(resolvedColors(palette)["light"]?["x"] == "#0000ff")
    }

    @Test func deeplyNestedColorMixAndRelativeColors() {
        for (open, close) in [("color-mix(in srgb, ", ", blue)"), ("rgb(from ", " r g b)"), ("light-dark(", ", red)")] {
            let css = ":root { color-scheme: light; --x: " + String(repeating: open, count: 20_000) + "red" + String(repeating: close, count: 20_000) + "; }"
            let result = Self.read(css)
            // Read as a token (it looks like a color); measuring it says why it is not one, at
            // its line, without recursing 20,000 deep.
            guard let palette = result.palette else {
                Issue.record("\(open): \(result.problems)")
                continue
            }
            let audit = Auditor().audit(palette, problems: result.problems)
            #expect((result.problems + audit.problems).contains { $0.code == .invalidColor && $0.location?.line == 1 }, "\(open): \(audit.problems)")
        }
    }

    /// Nested within the 1,024 bytes a color may take, but deeper than the color parser's 32
    /// levels: a located problem, not recursion.
    @Test func colorFunctionsNestedFortyDeep() throws {
        let css = ":root {\n  --x: " + String(repeating: "rgb(from ", count: 40) + "red" + String(repeating: " r g b)", count: 40)
            + ";\n  --y: " + String(repeating: "color-mix(in srgb,", count: 40) + "red" + String(repeating: ",blue)", count: 40) + ";\n}\n"
        let result = Self.read(css)
        let palette = try #require(result.palette, "\(result.problems)")
        let audit = Auditor().audit(palette, problems: result.problems)
        let problems = result.problems + audit.problems
        for line in [2, 3] {
            #expect(problems.contains { $0.code == .invalidColor && $0.location?.line == line && $0.message.contains("nest deeper than") }, "\(problems)")
        }
    }

    /// A selector list nested in a selector list repeats its parent for each of its selectors:
    /// a few bytes per level would multiply to gigabytes. The budget stops it.
    @Test func nestedSelectorListsDoNotMultiply() {
        let css = String(repeating: "a,b,c,d{", count: 200) + "--x: red;" + String(repeating: "}", count: 200)
        let result = Self.read(css)
        Self.expectStopped(result, saying: "the nested rule")
    }

    /// The request's deadline stops a read in its loops, not only when it runs out.
    @Test func aCancelledReadStopsAndIsNotAudited() {
        let css = ":root {\n" + (0..<20_000).map { "  --c\($0): #\(String(format: "%06x", $0));\n" }.joined() + "}\n"
        let bytes = Array(css.utf8)
        let budget = ReadBudget(inputBytes: bytes.count, shouldStop: { true })
        let (palette, problems) = ReadBudget.withBudget(budget) {
            PaletteDecoder.decodeStylesheet(bytes: bytes, file: "slow.css", name: "slow")
        }
        #expect(palette == nil)
        #expect(budget.wasCancelled)
        #expect(problems.contains { $0.code == .limitExceeded && $0.message.contains("deadline") })
    }

    /// Locations are counted on from the previous one on a long line (linear, not quadratic):
    /// the columns are the same as counting from the line's start, characters and all.
    @Test func columnsOnOneLongLineCountCharacters() throws {
        var css = ":root{--note: \"é✓👍🏽\";"
        for i in 0..<2_000 { css += "--c\(i): #\(String(format: "%06x", i * 37));--s\(i): \"ü\";" }
        css += "}"
        let result = Self.read(css)
        let palette = try #require(result.palette, "\(result.problems)")
        let tokens = palette.themes[0].tokens
        #expect(tokens.count == 2_000)
        for token in tokens {
            let location = try #require(token.location)
            let prefix = String(decoding: Array(css.utf8)[..<location.offset], as: UTF8.self)
            #expect(location.line == 1 && location.column == prefix.count + 1, "\(token.name)")
        }
    }

    /// Each custom media query names the one before it twice: what replacing builds doubles at
    /// each step, so the budget stops the read at the @media that uses the last one.
    @Test func doublingCustomMediaQueries() {
        var css = "@custom-media --d0 (prefers-color-scheme: dark);\n"
        for i in 1...30 { css += "@custom-media --d\(i) (--d\(i - 1)) and (--d\(i - 1));\n" }
        css += ":root { --bg: #ffffff; }\n@media (--d30) { :root { --bg: #000000; } }\n"
        let result = Self.read(css)
        Self.expectStopped(result, saying: "the custom media query --d", line: 33)
    }

    /// Twenty thousand @property rules of one name, each overriding the one before: accounted
    /// for in work linear in the stylesheet (within 8 steps a byte), not once per pair.
    @Test func manyPropertyRulesOfOneName() throws {
        var css = ""
        for i in 0..<20_000 { css += "@property --x { syntax: '<color>'; inherits: true; initial-value: #\(String(format: "%06x", i)); }\n" }
        let result = Self.read(css, stepsPerByte: 8)
        let palette = try #require(result.palette, "\(result.problems)")
        #expect(resolvedColors(palette)["light"]?["x"] == "#004e1f")
        #expect(palette.ledger.notReadEntries.count == 19_999)
    }
}
