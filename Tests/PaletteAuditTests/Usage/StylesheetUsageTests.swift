import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The stylesheet usage reader (issue #48 §1): component rules' text on fills, component-scoped
/// custom properties through the rules that draw with them, ancestors, borders and outlines, the
/// page's background; the palette's own rules, disabled states and unknown colors never paired.
@Suite struct StylesheetUsageTests {
    static let tokens = """
        :root {
          --fg-default: #1f2328;
          --fg-muted: #59636e;
          --fg-onEmphasis: #ffffff;
          --fg-link: #0550ae;
          --bg-default: #ffffff;
          --bg-muted: #f6f8fa;
          --bg-emphasis: #0969da;
          --border-default: #d1d9e0;
          --focus-outline: #8250df;
          --fg-link-rgb: 5, 80, 174;
        }
        """

    /// The pairs of `css` (one stylesheet) with the palette above.
    static func read(_ css: String, _ name: String = "ui.css") throws -> UsageRun.Result {
        let root = try UsageRun.write(["palette/tokens.css": tokens, "ui/\(name)": css], prefix: "stylesheet-usage")
        return UsageRun.read(root + "/ui", with: StylesheetUsageReader(), palettes: [root + "/palette/tokens.css"])
    }

    static func pair(_ result: UsageRun.Result, _ fg: String, _ bg: String, _ usage: ContrastUsage = .text) -> UsagePair? {
        result.pairs.first { $0.foreground == fg && $0.background == bg && $0.usage == usage }
    }

    static func notRead(_ result: UsageRun.Result, line: Int, containing text: String) -> Bool {
        result.notRead.contains { $0.line == line && $0.what.contains(text) }
    }

    @Test func colorOnBackgroundInsideGroupsAndNesting() throws {
        let result = try Self.read("""
            .btn-primary {
              color: var(--fg-onEmphasis, #fff);
              background-color: var(--bg-emphasis);
            }
            @media (min-width: 600px) {
              @layer components {
                .tag { color: var(--fg-default); background: var(--bg-muted) no-repeat; }
              }
            }
            @supports (display: grid) {
              .card {
                background-color: var(--bg-muted);
                .card-title { color: var(--fg-muted); }
              }
            }
            """)
        let primary = try #require(Self.pair(result, "fg-onEmphasis", "bg-emphasis"))
        #expect(primary.evidence.line == 1 && primary.confidence == .usage)
        #expect(primary.evidence.what == ".btn-primary: color on background-color")
        #expect(primary.evidence.file.hasSuffix("ui/ui.css"))
        let tag = try #require(Self.pair(result, "fg-default", "bg-muted"))
        #expect(tag.evidence.line == 7 && tag.evidence.what == ".tag: color on background")
        // Nesting: `.card-title` inside `.card` is `.card .card-title`, on `.card`'s fill.
        let title = try #require(Self.pair(result, "fg-muted", "bg-muted"))
        #expect(title.evidence.line == 13 && title.confidence == .usage)
        #expect(title.evidence.what == ".card .card-title: color on .card's background-color (line 12)")
        #expect(result.pairs.count == 3)
    }

    @Test func componentPropertiesThroughTheRulesThatDrawWithThem() throws {
        let result = try Self.read("""
            .btn {
              --x-btn-color: var(--fg-default);
              --x-btn-bg: var(--bg-muted);
              --x-btn-hover-color: var(--fg-default);
              --x-btn-hover-bg: var(--bg-default);
              color: var(--x-btn-color);
              background-color: var(--x-btn-bg);
            }
            .btn:hover {
              color: var(--x-btn-hover-color);
              background-color: var(--x-btn-hover-bg);
            }
            .btn:disabled, .btn.disabled {
              color: var(--x-btn-disabled-color);
            }
            .btn-primary {
              --x-btn-bg: var(--bg-emphasis);
              --x-btn-color: var(--fg-onEmphasis);
              --x-btn-hover-bg: var(--fg-link);
              --x-btn-disabled-color: var(--fg-muted);
            }
            .btn-quiet {
              --x-btn-color: var(--fg-muted);
            }
            """)
        // The base rule with its own defaults, and its hover state.
        #expect(Self.pair(result, "fg-default", "bg-muted")?.evidence.line == 1)
        #expect(Self.pair(result, "fg-default", "bg-default")?.evidence.what == ".btn:hover: color on background-color")
        // The variant through `.btn` and `.btn:hover`, at the variant's line.
        let primary = try #require(Self.pair(result, "fg-onEmphasis", "bg-emphasis"))
        #expect(primary.evidence.line == 16 && primary.evidence.what == ".btn-primary (through .btn): color on background-color")
        // The hover color the variant does not set is `.btn`'s default.
        let hover = try #require(Self.pair(result, "fg-default", "fg-link"))
        #expect(hover.evidence.line == 16 && hover.evidence.what == ".btn-primary (through .btn:hover): color on background-color")
        // A variant that sets only the color keeps `.btn`'s fill.
        let quiet = try #require(Self.pair(result, "fg-muted", "bg-muted"))
        #expect(quiet.evidence.line == 22 && quiet.evidence.what == ".btn-quiet (through .btn): color on background-color")
        // The disabled state is counted, never paired.
        #expect(Self.notRead(result, line: 13, containing: "a disabled state (2 selectors), never proposed"))
        #expect(!result.pairs.contains { $0.evidence.what.contains("disabled") })
        #expect(result.pairs.count == 5)
    }

    @Test func childOnItsAncestorsFill() throws {
        let result = try Self.read("""
            .Box-header { background-color: var(--bg-muted); }
            .Box-header .Box-title { color: var(--fg-default); }
            .Box-header>.Box-note { color: var(--fg-muted); }
            .Box-header + .Box-foot { color: var(--fg-link); }
            """)
        let title = try #require(Self.pair(result, "fg-default", "bg-muted"))
        #expect(title.evidence.line == 2 && title.confidence == .usage)
        #expect(title.evidence.what == ".Box-header .Box-title: color on .Box-header's background-color (line 1)")
        #expect(Self.pair(result, "fg-muted", "bg-muted")?.evidence.line == 3)
        // A sibling is not an ancestor: nothing known behind it, and no page fill.
        #expect(Self.pair(result, "fg-link", "bg-muted") == nil)
        #expect(Self.notRead(result, line: 4, containing: "has nothing behind it"))
    }

    @Test func bordersAndOutlinesAreNonTextOnWhatIsBehind() throws {
        let result = try Self.read("""
            body { color: var(--fg-default); background-color: var(--bg-default); }
            .input { background-color: var(--bg-muted); border: 1px solid var(--border-default); }
            .input:focus-visible { outline: 2px solid var(--focus-outline); }
            .panel { background-color: var(--bg-muted); }
            .panel .divider { border-bottom-color: var(--fg-muted); }
            """)
        let body = try #require(Self.pair(result, "fg-default", "bg-default"))
        #expect(body.evidence.line == 1 && body.confidence == .usage && body.evidence.what == "body: color on background-color")
        // The border is on the page, never on the input's own fill.
        let border = try #require(Self.pair(result, "border-default", "bg-default", .nonText))
        #expect(border.evidence.line == 2 && border.confidence == .convention)
        #expect(border.evidence.what == ".input: border on the page's background (body's background-color, line 1)")
        #expect(Self.pair(result, "border-default", "bg-muted", .nonText) == nil)
        let outline = try #require(Self.pair(result, "focus-outline", "bg-default", .nonText))
        #expect(outline.evidence.line == 3 && outline.evidence.what.contains("outline (a focus indicator) on the page's background"))
        let divider = try #require(Self.pair(result, "fg-muted", "bg-muted", .nonText))
        #expect(divider.evidence.line == 5 && divider.confidence == .usage)
        // The input's fill under the page's text color.
        let inherited = try #require(Self.pair(result, "fg-default", "bg-muted"))
        #expect(inherited.confidence == .convention && inherited.evidence.what == ".input: background-color under the page's color (body, line 1)")
    }

    @Test func textWithoutAFillIsOnThePageAsAConvention() throws {
        let result = try Self.read("""
            body { background-color: var(--bg-default); }
            a { color: var(--fg-link); }
            a:hover { color: rgba(var(--fg-link-rgb), var(--link-opacity, 1)); }
            :root { --fg-link-rgb: 5, 80, 174; }
            """)
        let link = try #require(Self.pair(result, "fg-link", "bg-default"))
        #expect(link.evidence.line == 2 && link.confidence == .convention)
        #expect(link.evidence.what == "a: color on the page's background (body's background-color, line 1)")
        // Channels in a variable whose color is exactly a token's are that token: the pair is
        // the same one, kept once.
        #expect(result.pairs.count == 1)
        #expect(!result.notRead.contains { $0.line == 3 })
    }

    @Test func paletteRulesDisabledLiteralsAndUnknownColors() throws {
        let result = try Self.read("""
            :root { --fg-default: #000000; }
            [data-theme=dark] { --bg-default: #0d1117; }
            .badge { color: #ffffff; background-color: var(--bg-emphasis); }
            .ghost { color: var(--fg-default); background-color: transparent; }
            .icon { color: currentColor; background-color: var(--bg-muted); }
            .quote { color: inherit; }
            .x:disabled { color: var(--fg-muted); background-color: var(--bg-muted); }
            [aria-disabled="true"] .y { color: var(--fg-muted); }
            .lit { color: #fff; background-color: #0d6efd; }
            .same { color: #fff; background-color: white; }
            .mix { color: color-mix(in srgb, var(--fg-default), white); background-color: var(--bg-muted); }
            .shadow { box-shadow: 0 0 0 2px var(--focus-outline); }
            .unknown { color: var(--nowhere); background-color: var(--bg-muted); }
            .go:not(:disabled):hover { color: var(--fg-link); background-color: var(--bg-muted); }
            """)
        // `:not(:disabled)` is the enabled state.
        #expect(Self.pair(result, "fg-link", "bg-muted")?.evidence.line == 14)
        // The palette's own rules: no pair, nothing not read.
        #expect(!result.notRead.contains { $0.line <= 2 })
        // A literal is its hex, with a token or another literal.
        #expect(Self.pair(result, "#ffffff", "bg-emphasis")?.evidence.line == 3)
        #expect(Self.pair(result, "#ffffff", "#0d6efd")?.evidence.what == ".lit: color on background-color")
        #expect(Self.notRead(result, line: 10, containing: "#ffffff on itself"))
        #expect(Self.notRead(result, line: 4, containing: "(its own background-color is transparent) has nothing behind it"))
        #expect(Self.notRead(result, line: 5, containing: "currentColor"))
        #expect(Self.notRead(result, line: 6, containing: "inherit"))
        #expect(Self.notRead(result, line: 7, containing: "disabled state"))
        #expect(Self.notRead(result, line: 8, containing: "disabled state"))
        #expect(Self.notRead(result, line: 11, containing: "color-mix"))
        #expect(Self.notRead(result, line: 12, containing: "box-shadow holds a color"))
        #expect(Self.notRead(result, line: 13, containing: "--nowhere is neither a color token"))
        #expect(result.pairs.count == 3)
    }

    /// Many variants of one property, each drawn with by many rules: each variant is read through
    /// at most ``StylesheetUsageReader/maximumConsumers`` of them, so the notes grow with the file,
    /// not with variants × consumers; blocks nested past the depth limit are a note, not a crash.
    @Test func manyVariantsAndConsumersAreReadInLinearWork() throws {
        func sheet(_ n: Int) -> String {
            var text = ""
            for i in 0..<n { text += ".c\(i) { color: var(--v-color); background-color: var(--missing-\(i)); }\n" }
            for i in 0..<n { text += ".v\(i) { --v-color: var(--fg-default); }\n" }
            return text
        }
        var notes: [Int] = []
        for n in [100, 400] {
            let result = try Self.read(sheet(n))
            notes.append(result.notRead.count)
        }
        #expect(notes[0] > 100)
        #expect(notes[1] <= 5 * notes[0], "\(notes)")
        let deep = String(repeating: ".a { ", count: 300) + "color: var(--fg-default);" + String(repeating: " }", count: 300)
        let result = try Self.read(deep)
        #expect(result.notRead.contains { $0.what.contains("blocks nest more than 256 deep") })
    }

    // MARK: Real systems

    static let primerCSS = "realworld4/primer-css"
    static let primerLight = "realworld/primer/dist/css/functional/themes/light.css"
    static let primerChecks = "realworld/primer/primer-src-light.checks.json"

    /// Primer's components over its light theme: how many of the 243 pairs Primer's own CI
    /// checks the reader's pairs hold (source names use `.`, CSS names `-`).
    @Test func primerComponentsAgainstPrimersOwnChecks() throws {
        guard let root = UsageRun.shared(Self.primerCSS), let light = UsageRun.shared(Self.primerLight),
              let checksFile = UsageRun.shared(Self.primerChecks) else { return }
        let read = UsageRun.read(root, with: StylesheetUsageReader(), palettes: [light])
        // The reader alone on the file (the palette is read above), printed, never asserted.
        let file = root + "/primer-components.css"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let elapsed = ContinuousClock().measure { _ = StylesheetUsageReader().read(file: file, bytes: bytes, context: read.context) }
        RealWorldUsageTests.expectNoNonsense(read)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: checksFile))) as? [String: Any])
        let checks = try #require(json["checks"] as? [[String: Any]])
        let pairs = Set(read.pairs.map { "\($0.foreground) on \($0.background)" })
        var found = 0
        for check in checks {
            guard let fg = check["foreground"] as? String, let bg = check["background"] as? String else { continue }
            let name = { (s: String) in s.replacingOccurrences(of: ".", with: "-") }
            if pairs.contains("\(name(fg)) on \(name(bg))") { found += 1 }
        }
        let byConfidence = Dictionary(grouping: read.pairs, by: \.confidence).mapValues(\.count)
        print("primer-components.css: \(read.pairs.count) pairs (usage \(byConfidence[.usage] ?? 0), convention \(byConfidence[.convention] ?? 0)), \(read.notRead.count) not read; \(found) of Primer's \(checks.count) CI pairs; read in \(elapsed)")
        #expect(checks.count == 243)
        // Measured: 34. Only 66 of the 243 name both of their tokens anywhere in
        // primer-components.css (the others are Primer React's components: label-*, display-*, control-*).
        #expect(found >= 34)
        // `.btn-primary` (primer-components.css) on its own fill.
        #expect(read.pairs.contains { $0.foreground == "button-primary-fgColor-rest" && $0.background == "button-primary-bgColor-rest" && $0.evidence.what.hasPrefix(".btn-primary") })
    }

    @Test func bootstrapBodyButtonsAndLinks() throws {
        guard let bootstrap = UsageRun.shared("realworld4/bootstrap/bootstrap-5.3.8.min.css"),
              let root = UsageRun.shared("realworld4/bootstrap") else { return }
        let read = UsageRun.read(root, with: StylesheetUsageReader(), palettes: [bootstrap])
        let own = read.pairs.filter { $0.evidence.file.hasSuffix("bootstrap-5.3.8.min.css") }
        let flatly = read.pairs.filter { $0.evidence.file.hasSuffix("bootswatch-flatly-5.3.5.css") }
        for (name, pairs) in [("bootstrap-5.3.8.min.css", own), ("bootswatch-flatly-5.3.5.css", flatly)] {
            let notes = read.notRead.filter { $0.file.hasSuffix(name) }.count
            print("\(name): \(pairs.count) pairs (usage \(pairs.filter { $0.confidence == .usage }.count)), \(notes) not read")
        }
        for pairs in [own, flatly] {
            // Body text on the body's fill (`body { color: var(--bs-body-color); background-color: var(--bs-body-bg) }`).
            let body = try #require(pairs.first { $0.foreground == "bs-body-color" && $0.background == "bs-body-bg" })
            #expect(body.confidence == .usage && body.evidence.what == "body: color on background-color")
            // `.btn-primary`'s text on its fill, through `.btn`.
            #expect(pairs.contains { $0.evidence.what.hasPrefix(".btn-primary (through .btn): color on background-color") })
            // A link's color (`rgba(var(--bs-link-color-rgb), …)`) on the page's fill.
            #expect(pairs.contains { $0.foreground == "bs-link-color" && $0.background == "bs-body-bg" })
        }
        let primary = try #require(own.first { $0.evidence.what == ".btn-primary (through .btn): color on background-color" })
        #expect(primary.foreground == "#ffffff" && primary.background == "#0d6efd")
    }
}
