import ColorScience
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// `contrast init`: what token names are read as, and the checks proposed from them.
@Suite struct InitProposalTests {
    @Test(arguments: [
        ("fgColor.default", "foreground", "fg"),
        ("text.body", "foreground", "text"),
        ("color.text.primary", "foreground", "text"),
        ("--primary-foreground", "foreground", "foreground"),
        ("md.sys.color.on-surface", "foreground", "on"),
        ("colorOnPrimaryContainer", "foreground", "On"),
        ("labelColor", "foreground", "label"),
        ("fgColor.onEmphasis", "foreground", "fg"),
        ("surface.text", "foreground", "text"),
        ("text-on-background", "foreground", "text"),
        ("bgColor.accent.emphasis", "background", "bg"),
        ("surface-1", "background", "surface"),
        ("page.background", "background", "page"),
        ("label.green.bgColor.rest", "background", "bg"),
        // A component named by a role word: the text of `label.blue.`, at `fg`.
        ("label.blue.fgColor.rest", "foreground", "fg"),
        ("md.sys.color.surface-container-high", "background", "surface"),
        ("canvas", "background", "canvas"),
        ("borderColor.default", "non-text", "border"),
        ("focus-outlineColor", "non-text", "outline"),
        ("color.icon.brand.on-brand", "non-text", "icon"),
        ("button.primary.iconColor.rest", "non-text", "icon"),
    ])
    func role(name: String, role: String, word: String) {
        let read = TokenNameRole(name: name.hasPrefix("--") ? String(name.dropFirst(2)) : name)
        #expect(read.role?.rawValue == role)
        #expect(read.word == word)
    }

    @Test(arguments: ["context.primary", "textarea", "brand.primary", "red-500", "on", "color.blueText", "onboarding"])
    func noRole(name: String) {
        // Words, not substrings: `context` holds no `text`; a trailing `on` sits on nothing.
        // `blueText` is one more word than `blue` and `Text`: read as text (see below), so
        // only the names above without a role word are listed here except that one.
        let read = TokenNameRole(name: name)
        if name == "color.blueText" {
            #expect(read.role == .foreground)
        } else {
            #expect(read.role == nil, "\(name) read as \(String(describing: read.role))")
        }
    }

    @Test func disabled() {
        #expect(TokenNameRole(name: "fgColor.disabled").disabled)
        #expect(TokenNameRole(name: "button.bgColor.Disabled").disabledWord == "Disabled")
        #expect(!TokenNameRole(name: "fgColor.muted").disabled)
    }

    @Test func words() {
        #expect(TokenNameRole.words(of: "button.primary.fgColor-rest").map(\.text) == ["button", "primary", "fg", "Color", "rest"])
        #expect(TokenNameRole.words(of: "HTMLText2x").map(\.text) == ["HTML", "Text", "2", "x"])
    }

    static func palette(_ themes: [(String, [String: String])], name: String = "p") -> Palette {
        Palette(name: name, themes: themes.map { theme in
            Theme(name: theme.0, tokens: theme.1.sorted { $0.key < $1.key }.map { Token(name: $0.key, value: $0.value) })
        })
    }

    static func propose(_ palette: Palette) -> PaletteProposal {
        ChecksProposal.propose(for: [LoadedPalette(file: "p.json", palette: palette, problems: [])]).palettes[0]
    }

    /// Found by a new user's trial: `color.text.on-brand` was paired with every background by the
    /// `color.text.*` rule (white text on the white page: a failure nobody can fix), and Figma's
    /// `color.text.brand.on-brand` likewise. A foreground that says what it sits on is checked on
    /// that background, found in the background group; without one, it is named in a note.
    @Test func aForegroundThatSaysWhatItSitsOnIsCheckedThereOnly() throws {
        let proposal = Self.propose(Self.palette([("light", [
            "color.text.default": "#111111", "color.text.on-brand": "#ffffff", "color.text.brand.on-brand": "#fefefe",
            "color.text.brand.on-brand-secondary": "#fdfdfd", "color.text.on-accent": "#ffffff",
            "color.background.default": "#ffffff", "color.background.brand": "#1e40af", "color.background.brand.default": "#1e3a8a",
            "color.background.brand.secondary": "#1e3a8b",
        ])]))
        let pairs = proposal.checks.map { "\($0.foreground) on \($0.background)" }
        #expect(pairs.contains("color.text.on-brand on color.background.brand"), "\(pairs)")
        #expect(pairs.contains("color.text.brand.on-brand on color.background.brand.default"), "\(pairs)")
        #expect(pairs.contains("color.text.brand.on-brand-secondary on color.background.brand.secondary"), "\(pairs)")
        // camelCase: `textOnBrand` sits on `backgroundBrand`.
        let camel = Self.propose(Self.palette([("light", ["textDefault": "#111111", "textOnBrand": "#ffffff", "backgroundDefault": "#ffffff", "backgroundBrand": "#1e40af"])]))
        #expect(camel.checks.contains { $0.foreground == "textOnBrand" && $0.background == "backgroundBrand" }, "\(camel.checks.map { "\($0.foreground) on \($0.background)" })")
        // The rule over the other foregrounds leaves them out.
        let rule = try #require(proposal.checks.first { $0.foreground.contains("*") && $0.usage == .text })
        for name in ["color.text.on-brand", "color.text.brand.on-brand", "color.text.on-accent"] {
            #expect(rule.except.contains(name) || !CheckRule.matches(name, rule.foreground), "\(rule.foreground) except \(rule.except)")
        }
        #expect(proposal.notes.contains { $0.hasPrefix("1 foreground says what it sits on (on-X) but no background token is named for X (\"color.text.on-accent\")") }, "\(proposal.notes)")
    }

    @Test func rulesPairForegroundsWithBackgroundsAtTheirScope() throws {
        let tokens = ["fgColor.default": "#111111", "fgColor.muted": "#555555", "fgColor.disabled": "#aaaaaa",
                      "bgColor.default": "#ffffff", "bgColor.inset": "#f6f8fa", "borderColor.default": "#d0d7de",
                      "button.primary.fgColor.rest": "#ffffff", "button.primary.bgColor.rest": "#1f883d"]
        let proposal = Self.propose(Self.palette([("light", tokens)]))
        let pairs = proposal.checks.map { "\($0.foreground) on \($0.background) \($0.usage.name)" }
        // In token order (the tokens here are sorted by name). A component's text and fill
        // named for one state are paired state by state, as names.
        #expect(pairs == ["button.primary.fgColor.rest on button.primary.bgColor.rest text", "fgColor.* on bgColor.* text",
                          "borderColor.* on bgColor.* non-text"])
        let text = try #require(proposal.checks.first { $0.foreground == "fgColor.*" })
        #expect(text.except == ["*disabled*"])
        #expect(text.description.contains("\"fg\" read as text"))
        #expect(proposal.uncoveredThemes.isEmpty)
    }

    @Test func namedPartnersAreCheckedOnTheirBackground() {
        let tokens = ["background": "#ffffff", "foreground": "#0a0a0a", "primary": "#171717", "primary-foreground": "#fafafa",
                      "card": "#ffffff", "card-foreground": "#0a0a0a"]
        let proposal = Self.propose(Self.palette([("light", tokens)]))
        let pairs = Set(proposal.checks.map { "\($0.foreground) on \($0.background)" })
        #expect(pairs.contains("primary-foreground on primary"))
        #expect(pairs.contains("card-foreground on card"))
        // The general rule leaves out the partnered foregrounds.
        #expect(!proposal.checks.contains { $0.background == "background" && $0.foreground.contains("primary") })
    }

    @Test func checksAreLimitedToTheThemesWithTheirTokens() {
        let light = ["text.body": "#111111", "surface.page": "#ffffff", "text.inverse": "#ffffff", "surface.inverse": "#000000"]
        let dark = ["text.body": "#eeeeee", "surface.page": "#000000"]
        let hc = ["brand.a": "#000000"]
        let proposal = Self.propose(Self.palette([("light", light), ("dark", dark), ("hc", hc)]))
        #expect(proposal.checks.count == 1)
        #expect(proposal.checks[0].themes == ["light", "dark"])
        #expect(proposal.uncoveredThemes == ["hc"])
    }

    @Test func numberedScalesWhenNamesSayNothing() {
        var tokens: [String: String] = [:]
        for (i, step) in [50, 100, 200, 300, 500, 900].enumerated() {
            let v = Self.format2(255 - i * 40)
            tokens["color-red-\(step)"] = "#\(v)0000"
        }
        let proposal = Self.propose(Self.palette([("light", tokens)]))
        #expect(proposal.checks.map { "\($0.foreground) on \($0.background)" } == ["color-red-900 on color-red-50"])
    }

    /// An alpha scale (Radix's `gray-a1` … `gray-a12`) is not proposed: its first step is
    /// translucent, so over an unknown surface the pair's worst case is 1:1 and the check could
    /// only fail. The note names it; the solid scale beside it is still checked. (It was proposed,
    /// and `gray-a12 on gray-a1` failed at 1.00:1.)
    @Test func translucentScalesAreNamedNotChecked() {
        let solid = ["#fcfcfc", "#f0f0f0", "#e0e0e0", "#bbbbbb", "#838383", "#202020"]
        let alpha = ["#00000003", "#0000000f", "#0000001f", "#00000044", "#0000007c", "#000000df"]
        var tokens: [String: String] = [:]
        for i in solid.indices { tokens["gray-\(i + 1)"] = solid[i]; tokens["gray-a\(i + 1)"] = alpha[i] }
        let proposal = Self.propose(Self.palette([("light", tokens)]))
        #expect(proposal.checks.map { "\($0.foreground) on \($0.background)" } == ["gray-6 on gray-1"])
        #expect(proposal.notes.contains("1 numbered scale has a translucent first step (gray-aN) and is not checked: a translucent background's contrast depends on the surface beneath it, which the theme does not name (its worst case is often near 1:1). Write such checks by hand with the \"backdrop\" they are drawn on (docs/palette-format.md)"))
        #expect(proposal.notes.contains { $0.hasPrefix("no token name says what it is for; 1 numbered scale found:") })
        // Only the alpha scale: nothing is proposed, and the note says why.
        let alphaOnly = Self.propose(Self.palette([("light", tokens.filter { $0.key.hasPrefix("gray-a") })]))
        #expect(alphaOnly.checks.isEmpty)
        #expect(alphaOnly.notes.contains("no checks proposed: no token name says what it is for, and its numbered scales are translucent. Write its checks by hand (docs/palette-format.md)"))
        // A translucent last step over an opaque first one is exact (composited): still checked.
        tokens["gray-6"] = "#202020cc"
        #expect(Self.propose(Self.palette([("light", tokens)])).checks.map(\.id) == ["gray-6 on gray-1"])
        // A theme that names its backdrop makes the alpha scale exact too: proposed.
        var backed = Self.palette([("light", tokens.merging(["page": "#ffffff"]) { $1 })])
        backed.themes[0].backdrop = "page"
        #expect(Self.propose(backed).checks.map(\.id) == ["gray-6 on gray-1", "gray-a6 on gray-a1"])
    }

    static func format2(_ value: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[value / 16], digits[value % 16]])
    }

    @Test func severalPalettesScopeTheirChecks() {
        let a = Self.palette([("light", ["text.body": "#111111", "surface.page": "#ffffff"])], name: "a")
        let b = Self.palette([("light", ["fg.main": "#111111", "bg.main": "#ffffff"])], name: "b")
        let proposal = ChecksProposal.propose(for: [LoadedPalette(file: "a.json", palette: a, problems: []),
                                                    LoadedPalette(file: "b.json", palette: b, problems: [])])
        #expect(proposal.checks.map(\.palettes) == [["a"], ["b"]])
    }

    @Test func theDocumentIsAChecksDocument() throws {
        let proposal = ChecksProposal.propose(for: [LoadedPalette(file: "p.json", palette: Self.palette([("light", ["text.body": "#111111", "surface.page": "#ffffff", "text.disabled": "#999999"])]), problems: [])])
        let text = proposal.checksDocument(source: "tokens/", toolVersion: "0.1.0")
        let decoded = PaletteDecoder.decodeChecksDocument(bytes: Array(text.utf8), file: "contrast.checks.json")
        #expect(decoded.problems.isEmpty)
        #expect(decoded.checks.checks.map(\.id) == ["text.* on surface.*"])
        #expect(decoded.checks.checks.first?.except == ["*disabled*"])
        #expect(decoded.checks.checks.first?.description?.hasPrefix("a guess from the names") == true)
    }
}

extension InitProposalTests {
    /// A family with qualified fills beside neutral surfaces: every text on the surfaces,
    /// unqualified text on every fill, status text on its own status's fills only; an on-X
    /// named for a variant sits on that variant of each family named alike.
    @Test func qualifiedFillsTakeTheirOwnTextAndTheSurfacesTakeEveryText() throws {
        let tokens = ["fgColor-default": "#1f2328", "fgColor-danger": "#d1242f", "fgColor-success": "#1a7f37", "fgColor-onEmphasis": "#ffffff",
                      "bgColor-default": "#ffffff", "bgColor-muted": "#f6f8fa", "bgColor-emphasis": "#25292e",
                      "bgColor-danger-muted": "#ffebe9", "bgColor-danger-emphasis": "#cf222e", "bgColor-success-muted": "#dafbe1"]
        let proposal = Self.propose(Self.palette([("light", tokens)]))
        let ids = Set(proposal.checks.map(\.id))
        #expect(ids.isSuperset(of: ["fgColor-* on bgColor-default", "fgColor-* on bgColor-muted", "fgColor-default on bgColor-*",
                                    "fgColor-danger on bgColor-danger-muted", "fgColor-success on bgColor-success-muted",
                                    "fgColor-onEmphasis on bgColor-emphasis", "fgColor-onEmphasis on bgColor-danger-emphasis"]), "\(ids.sorted())")
        // Not red text on a green tint, and no other text on a fill with its own.
        #expect(!ids.contains("fgColor-danger on bgColor-success-muted") && !ids.contains("fgColor-success on bgColor-danger-muted"), "\(ids.sorted())")
        let everyFill = try #require(proposal.checks.first { $0.id == "fgColor-default on bgColor-*" })
        #expect(everyFill.except.contains("bgColor-default") && everyFill.except.contains("bgColor-muted"))
        #expect(!proposal.checks.contains { $0.foreground == "fgColor-onEmphasis" && $0.background.contains("*") })
    }
}
