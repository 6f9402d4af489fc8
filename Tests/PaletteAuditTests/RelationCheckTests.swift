import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The checks that relate more than one pair: `distinct` groups, `focus` indicators and `link`
/// colors, and contrast as people with a color-vision deficiency see it.
@Suite struct RelationCheckTests {
    /// A badge pair's check id (`badges[a vs b]`) names its two sides around its one ` vs `,
    /// found over its bytes, as the id was joined: none or two of them name no sides.
    @Test func aBadgePairsSidesAreAroundItsOneVs() {
        func sides(_ text: Substring) -> [String]? { Partner.sides(of: text).map { [String($0.before), String($0.after)] } }
        #expect(sides("danger vs success") == ["danger", "success"])
        #expect(sides(" vs ") == ["", ""])
        #expect(sides("a vs b vs c") == nil)
        #expect(sides("a vs  vs b") == nil)
        #expect(sides("avsb") == nil && sides("") == nil && sides("a vs") == nil)
        #expect(sides("x vs \u{301}y") == ["x", "\u{301}y"])
        #expect(sides("é vs ü") == ["é", "ü"])
    }

    static let tokens = """
    "color.bg.default": "#ffffff", "color.bg.subtle": "#f6f8fa",
    "color.fg.default": "#1f2328", "color.fg.link": "#0969da", "color.fg.pale-link": "#54aeff",
    "color.focus.ring": "#0969da", "color.border.default": "#d1d9e0",
    "color.status.success.background": "#1a7f37", "color.status.danger.background": "#d1242f",
    "color.status.info.background": "#0969da", "color.status.same.background": "#1a7f38"
    """

    func audit(_ checks: String, tokens: String = RelationCheckTests.tokens, cvd: CVDPolicy = .warn) throws -> (PaletteReport, [PaletteProblem]) {
        let text = "{\"name\": \"demo\", \"themes\": {\"light\": {\"tokens\": {\(tokens)}}}, \"checks\": [\(checks)]}"
        let (palette, problems) = PaletteDecoder.decode(text, file: "demo.json")
        let report = Auditor(cvdPolicy: cvd).audit(try #require(palette, "\(problems)"), problems: problems)
        return (report, problems)
    }

    func results(_ report: PaletteReport) -> [String: CheckResult] {
        Dictionary(report.themes.flatMap(\.results).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: Reading the checks document

    @Test func aCheckIsOneKind() throws {
        let (_, problems) = PaletteDecoder.decode(##"{"name": "x", "tokens": {"a": "#000"}, "checks": [{"id": "both", "distinct": ["a"], "focus": "a", "adjacent": ["a"]}]}"##)
        #expect(problems.map(\.message) == ["a check is one kind: it has both \"distinct\" and \"focus\"; split it into two checks"])
    }

    @Test func relationChecksSayWhatIsMissingOrWrong() throws {
        let document = ##"""
        {"name": "x", "tokens": {"a": "#000", "b": "#fff"}, "checks": [
          {"id": "f", "focus": "a"},
          {"id": "l", "link": "a", "background": "b"},
          {"id": "d", "distinct": [], "threshold": 0},
          {"id": "e", "distinct": ["a", "b"], "deficiencies": ["deuteranopia", "purple-blindness"]},
          {"id": "c", "focus": "a", "adjacent": "b", "cvd": "maybe", "foreground": "a"},
          {"id": "u", "link": "a", "text": "b", "background": "b", "underlined": "yes"}
        ]}
        """##
        let (_, problems) = PaletteDecoder.decode(document)
        let messages = problems.map { "\($0.pointer): \($0.message)" }
        #expect(messages.contains("/checks/0: a \"focus\" check (the surfaces the indicator is drawn on) needs \"adjacent\""))
        #expect(messages.contains("/checks/1: a \"link\" check (the color of the text around the link) needs a \"text\""))
        #expect(messages.contains("/checks/2/distinct: \"distinct\" must be a token name, a glob like \"color.bg.*\", or a non-empty array of them, found an array"))
        #expect(messages.contains { $0.hasPrefix("/checks/2/threshold: \"threshold\" must be the smallest \(Distinguishability.metric) difference that counts as told apart, a number above 0 and at most 100") })
        #expect(messages.contains { $0.hasPrefix("/checks/3/deficiencies/1: \"purple-blindness\" is not a color-vision deficiency; expected one of protanopia") })
        #expect(messages.contains("/checks/4/cvd: \"cvd\" must be \"warn\" (a contrast lost under a simulated color-vision deficiency is a warning, the default) or \"fail\" (it fails the check), found \"maybe\""))
        #expect(messages.contains { $0.hasPrefix("/checks/4/foreground: a \"focus\" check has no \"foreground\"; it names the indicator") })
        #expect(messages.contains("/checks/5/underlined: \"underlined\" must be true or false, found a string"))
    }

    // MARK: Focus indicators

    @Test func focusIsJudgedAgainstEverySurfaceAndItsUnfocusedState() throws {
        let (report, _) = try audit(##"{"id": "ring", "focus": "color.focus.ring", "unfocused": "color.border.default", "adjacent": ["color.bg.*"]}"##)
        let r = results(report)
        #expect(r.keys.sorted() == ["ring[color.focus.ring on color.bg.default]", "ring[color.focus.ring on color.bg.subtle]", "ring[color.focus.ring vs color.border.default]"])
        let surface = try #require(r["ring[color.focus.ring on color.bg.default]"])
        #expect(surface.kind == .focus)
        #expect(surface.relation == "adjacent")
        #expect(surface.criterion == "1.4.11")
        #expect(surface.required == 3)
        #expect(surface.verdict == .pass)
        let change = try #require(r["ring[color.focus.ring vs color.border.default]"])
        #expect(change.relation == "change")
        #expect(change.criterion == "2.4.13")
        #expect(change.level == .AAA)
        #expect(change.display == "3.63:1")
        #expect(change.verdict == .pass)
    }

    @Test func aFocusRingTooCloseToItsUnfocusedColorFailsSC2413() throws {
        let (report, _) = try audit(##"{"id": "ring", "focus": "color.fg.pale-link", "unfocused": "color.bg.subtle", "adjacent": ["color.fg.default"]}"##)
        let change = try #require(results(report)["ring[color.fg.pale-link vs color.bg.subtle]"])
        #expect(change.verdict == .fail)
        #expect(change.reasons == ["2.22:1 between the focused and unfocused states of the indicator's pixels is below the 3:1 that SC 2.4.13 AAA requires"])
        // At level AA, SC 2.4.13 (AAA) is measured and reported, never failing.
        let (aa, _) = try audit(##"{"id": "ring", "level": "AA", "focus": "color.fg.pale-link", "unfocused": "color.bg.subtle", "adjacent": ["color.fg.default"]}"##)
        let exempt = try #require(results(aa)["ring[color.fg.pale-link vs color.bg.subtle]"])
        #expect(exempt.verdict == .exempt)
        #expect(exempt.required == nil)
        #expect(exempt.criterion == "2.4.13")
    }

    // MARK: Links

    @Test func aLinkToldApartByColorAloneNeedsThreeToOneAgainstTheText() throws {
        let (report, _) = try audit(##"{"id": "links", "link": "color.fg.pale-link", "text": "color.fg.default", "background": "color.bg.default"}"##)
        let r = results(report)
        #expect(r.keys.sorted() == ["links[color.fg.default on color.bg.default]", "links[color.fg.pale-link on color.bg.default]", "links[color.fg.pale-link vs color.fg.default]"])
        let versus = try #require(r["links[color.fg.pale-link vs color.fg.default]"])
        #expect(versus.relation == "link-vs-text")
        #expect(versus.technique == "G183")
        #expect(versus.criterion == "1.4.1")
        #expect(versus.level == .A)
        #expect(versus.verdict == .pass)
        let onBackground = try #require(r["links[color.fg.pale-link on color.bg.default]"])
        #expect(onBackground.relation == "link-on-background")
        #expect(onBackground.verdict == .fail)
        #expect(onBackground.reasons == ["2.36:1 is below the 4.5:1 that SC 1.4.3 AA requires for text"])
        #expect(r["links[color.fg.default on color.bg.default]"]?.verdict == .pass)
    }

    @Test func anUnderlinedLinkNeedsOnlyTheBackground() throws {
        let (report, _) = try audit(##"{"id": "links", "underlined": true, "link": "color.fg.link", "text": "color.fg.default", "background": "color.bg.default"}"##)
        #expect(results(report).keys.sorted() == ["links[color.fg.default on color.bg.default]", "links[color.fg.link on color.bg.default]"])
    }

    @Test func linkFailsWhenItIsTooCloseToTheText() throws {
        let (report, _) = try audit(##"{"id": "links", "link": "color.fg.link", "text": "color.status.info.background", "background": "color.bg.default"}"##,
                                    tokens: Self.tokens)
        // The link and the "text" are the same color here: 1:1 against the text.
        let versus = try #require(results(report)["links[color.fg.link vs color.status.info.background]"])
        #expect(versus.verdict == .fail)
        #expect(versus.reasons == ["1.00:1 between the link and the text around it is below the 3:1 that SC 1.4.1 A (technique G183) requires"])
    }

    // MARK: Distinct groups

    @Test func membersThatAreNotToldApartEvenInNormalVisionFail() throws {
        let (report, _) = try audit(##"{"id": "status", "distinct": ["color.status.success.background", "color.status.same.background"]}"##)
        let pair = try #require(results(report)["status[color.status.success.background vs color.status.same.background]"])
        #expect(pair.kind == .distinct)
        #expect(pair.verdict == .fail)
        #expect(pair.distinction?.indistinct == true)
        #expect(pair.reasons?.first?.hasPrefix("#1a7f37 and #1a7f38 differ by \(Distinguishability.metric) 0.") == true)
        #expect(pair.reasons?.first?.hasSuffix("even in normal vision") == true)
        #expect(report.summary.fail == 1)
    }

    @Test func aGlobMatchingOneTokenIsAnEmptyRule() throws {
        let (report, _) = try audit(##"{"id": "alone", "distinct": ["color.focus.*"]}"##)
        #expect(report.problems.map(\.message) == ["rule \"alone\" (distinct color.focus.*) matches no pair of tokens in theme 'light'"])
    }

    @Test func aGroupOfOneIsAProblem() throws {
        let (report, _) = try audit(##"{"id": "alone", "distinct": "color.focus.ring"}"##)
        #expect(report.problems.map(\.message) == ["\"distinct\" check \"alone\" names one member (color.focus.ring); a group that must stay distinguishable needs at least two"])
        #expect(report.problems.first?.pointer.description == "/checks/0/distinct")
    }

    @Test func badgesFormAGroupByDefault() throws {
        let text = ##"{"name": "b", "tokens": {"a": "#fee2e2", "b": "#fee2e3", "t": "#000000"}, "badges": [{"name": "red", "background": "a", "text": "t"}, {"name": "rose", "background": "b", "text": "t"}]}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        let report = Auditor().audit(try #require(palette), problems: problems)
        let pair = try #require(results(report)["badges[red vs rose]"])
        #expect(pair.kind == .distinct)
        #expect(pair.verdict == .fail)
        #expect(pair.description == "Badges \"red\" and \"rose\": their backgrounds must stay distinguishable")
    }

    /// Each theme's badge group holds the badges it shows; themes that show the same badges
    /// share one set of group checks, made once.
    @Test func eachThemeGroupsTheBadgesItShows() throws {
        let text = ##"{"name": "b", "themes": {"light": {"tokens": {"a": "#fee2e2", "b": "#1a7f37", "c": "#0969da", "t": "#000000"}}, "dark": {"extends": "light", "tokens": {}}, "dim": {"extends": "light", "tokens": {}}}, "badges": [{"name": "red", "background": "a", "text": "t"}, {"name": "green", "background": "b", "text": "t", "themes": ["dark", "dim"]}, {"name": "blue", "background": "c", "text": "t"}]}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        let report = Auditor().audit(try #require(palette), problems: problems)
        let groups = Dictionary(uniqueKeysWithValues: report.themes.map { theme in (theme.name, theme.results.filter { $0.id.hasPrefix("badges[") }.map(\.id)) })
        #expect(groups["light"] == ["badges[red vs blue]"])
        #expect(groups["dark"] == ["badges[red vs green]", "badges[red vs blue]", "badges[green vs blue]"])
        #expect(groups["dim"] == groups["dark"])
        let dark = try #require(report.themes.first { $0.name == "dark" }?.results.first { $0.id == "badges[green vs blue]" })
        #expect(dark.description == "Badges \"green\" and \"blue\": their backgrounds must stay distinguishable")
        #expect(dark.foreground.token == "b" && dark.background.token == "c")
    }

    @Test func aDistinctRegressionIsJudgedByItsVerdict() throws {
        let (before, _) = try audit(##"{"id": "status", "distinct": ["color.status.success.background", "color.status.danger.background"]}"##,
                                    tokens: Self.tokens.replacingOccurrences(of: "\"color.status.danger.background\": \"#d1242f\"", with: "\"color.status.danger.background\": \"#000000\""))
        let (after, _) = try audit(##"{"id": "status", "distinct": ["color.status.success.background", "color.status.danger.background"]}"##,
                                   tokens: Self.tokens.replacingOccurrences(of: "\"color.status.danger.background\": \"#d1242f\"", with: "\"color.status.danger.background\": \"#1a7f38\""))
        let comparison = Baseline(AuditReport(palettes: [before])).compare(with: AuditReport(palettes: [after]))
        #expect(comparison.regressions.map(\.message) == ["demo › light › status[color.status.success.background vs color.status.danger.background]: told apart → confusable"])
        #expect(Baseline(AuditReport(palettes: [after])).entries.values.first { $0.check.hasPrefix("status[") }?.kind == "distinct")
    }

    @Test func aSuggestionThatWouldMakeABadgeConfusableNamesTheBadge() throws {
        let text = ##"{"name": "s", "tokens": {"bg": "#ffffff", "a": "#ff8787", "b": "#e03131", "t": "#000000"}, "checks": [{"id": "a-on-bg", "foreground": "a", "background": "bg"}], "badges": [{"name": "pink", "background": "a", "text": "t"}, {"name": "red", "background": "b", "text": "t"}]}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        let report = Auditor().audit(try #require(palette), problems: problems)
        #expect(results(report)["badges[pink vs red]"]?.verdict == .pass)
        let failing = try #require(results(report)["a-on-bg"])
        let notes = try #require(failing.suggestions?.notes)
        #expect(notes.contains { $0.hasPrefix("the foreground #") && $0.hasSuffix("(darker) is left out: it would be confusable with badge red (#e03131), which it must stay distinguishable from") })
    }

    /// A translucent member is weighed against suggestions as the check saw it: over the
    /// theme's backdrop, or white when there is none. (It was weighed as its opaque color, so
    /// #c35255 was kept in "light" though it is indistinct from #a01010cc over white, #b34040:
    /// CIEDE2000 6.4.)
    @Test func aTranslucentPartnerIsWeighedAsSeen() throws {
        let text = ##"{"name": "s", "themes": {"light": {"tokens": {"bg": "#ffffff", "a": "#ff8787", "b": "#a01010cc", "ink": "#000000"}}, "dark": {"extends": "light", "backdrop": "ink", "tokens": {}}}, "checks": [{"id": "a-on-bg", "foreground": "a", "background": "bg"}, {"id": "reds", "distinct": ["a", "b"]}]}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        let report = Auditor().audit(try #require(palette), problems: problems)
        func result(_ theme: String, _ id: String) throws -> CheckResult {
            try #require(report.themes.first { $0.name == theme }?.results.first { $0.id == id })
        }
        #expect(try result("light", "reds[a vs b]").composited?.background == "#b34040")
        #expect(try result("dark", "reds[a vs b]").composited?.background == "#800d0d")
        #expect(try result("light", "reds[a vs b]").verdict == .pass && result("dark", "reds[a vs b]").verdict == .pass)
        let light = try #require(try result("light", "a-on-bg").suggestions)
        #expect(light.foreground.isEmpty)
        #expect(light.notes?.contains("the foreground #c35255 (darker) is left out: it would be confusable with b, which it must stay distinguishable from") == true)
        let dark = try #require(try result("dark", "a-on-bg").suggestions)
        #expect(dark.foreground.map(\.hex) == ["#c35255"])
        #expect(dark.notes == nil)
        // The pair the suggestion would make, judged by the check itself.
        let (alone, _) = PaletteDecoder.decode(##"{"name": "t", "tokens": {"x": "#c35255", "y": "#a01010cc"}, "checks": [{"id": "g", "distinct": ["x", "y"]}]}"##)
        let judged = Auditor().audit(try #require(alone), problems: []).themes[0].results[0]
        #expect(judged.verdict == .fail && judged.distinction?.indistinct == true)
    }

    @Test func aSuggestionThatWouldMakeAGroupConfusableIsLeftOut() throws {
        let text = ##"{"name": "s", "tokens": {"bg": "#ffffff", "a": "#ff8787", "b": "#e03131"}, "checks": [{"id": "a-on-bg", "foreground": "a", "background": "bg"}, {"id": "reds", "distinct": ["a", "b"]}]}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        let report = Auditor().audit(try #require(palette), problems: problems)
        let failing = try #require(results(report)["a-on-bg"])
        #expect(failing.verdict == .fail)
        #expect(results(report)["reds[a vs b]"]?.verdict == .pass)
        let suggestions = try #require(failing.suggestions)
        #expect(suggestions.foreground.isEmpty)
        #expect(suggestions.notes?.contains { $0.hasPrefix("the foreground #") && $0.hasSuffix("(darker) is left out: it would be confusable with b, which it must stay distinguishable from") } == true)
        #expect(failing.fixes?.map(\.kind) == ["background"])
    }

    // MARK: Gradients

    @Test func aGradientIsOnlyABackground() throws {
        let tokens = ##""hero": {"$type": "gradient", "$value": [{"color": "#ff0000", "position": 0}, {"color": "#00ff00", "position": 1}]}, "ink": "#000000""##
        let (report, _) = try audit(##"{"id": "bad", "foreground": "hero", "background": "ink"}"##, tokens: tokens)
        #expect(report.problems.map(\.message) == ["token \"hero\" is a gradient, not one color; a gradient can only be a check's background (text on it is judged at its worst point)"])
    }

    @Test func aGradientStopNeedsAPosition() throws {
        let tokens = ##""hero": {"$type": "gradient", "$value": [{"color": "#ff0000"}, {"color": "#00ff00", "position": "{p}"}]}"##
        let (palette, problems) = PaletteDecoder.decode("{\"name\": \"g\", \"tokens\": {\(tokens)}}")
        _ = palette
        #expect(problems.map(\.message) == ["stop 0 of gradient token \"hero\" needs a \"position\" from 0 to 1"])
    }

    // MARK: Contrast under a simulated deficiency

    /// The ratio under each simulation is measured from its linear light; the colors shown are
    /// that light encoded. Grays look the same to every dichromat, so their ratios tie but for
    /// rounding, and the first deficiency simulated is named, not whichever rounded lowest.
    @Test func contrastUnderASimulationIsMeasuredAsSimulatedAndTiesNameTheFirst() throws {
        let tokens = "\"gray.dark\": \"#595959\", \"gray.light\": \"#f0f0f0\", \"red\": \"#d1242f\", \"white\": \"#ffffff\""
        let (report, _) = try audit(##"{"id": "gray", "foreground": "gray.dark", "background": "gray.light"}, {"id": "red", "foreground": "red", "background": "white"}"##, tokens: tokens)
        let r = results(report)
        let gray = try #require(r["gray"]?.cvd)
        #expect(gray.deficiency == "protanopia")
        #expect(abs(gray.ratio - (r["gray"]?.ratio ?? 0)) < 1e-9)
        let red = try #require(r["red"]?.cvd)
        let fg = try SRGB(css: "#d1242f"), bg = SRGB.white
        let lowest = ColorVisionDeficiency.audited.map { d in
            (d.name, WCAG.contrastRatio(luminance: WCAG.relativeLuminance(linear: d.simulatedLinear(fg)), WCAG.relativeLuminance(linear: d.simulatedLinear(bg))))
        }.min { $0.1 < $1.1 }
        #expect(red.deficiency == lowest?.0 && red.ratio == lowest?.1)
        let seen = try #require(ColorVisionDeficiency(name: red.deficiency))
        #expect(red.foreground == seen.simulate(fg).hex && red.background == seen.simulate(bg).hex)
    }

    /// A gradient's simulated contrast is named by the same rule: the gray text on a gray
    /// gradient names protanopia as it does on the plain gray, at the same ratio but for rounding.
    @Test func aGradientsSimulatedContrastTiesTheSameWay() throws {
        let tokens = ##""ink": "#595959", "plain": "#f0f0f0", "hero": {"$type": "gradient", "$value": [{"color": "#f0f0f0", "position": 0}, {"color": "#f0f0f0", "position": 1}]}"##
        let (report, problems) = try audit(##"{"id": "plain", "foreground": "ink", "background": "plain"}, {"id": "hero", "foreground": "ink", "background": "hero"}"##, tokens: tokens)
        #expect(problems.isEmpty, "\(problems)")
        let r = results(report)
        let plain = try #require(r["plain"]?.cvd), hero = try #require(r["hero"]?.cvd)
        #expect(plain.deficiency == "protanopia" && hero.deficiency == "protanopia")
        #expect(abs(plain.ratio - hero.ratio) < 1e-9 * plain.ratio)
    }
}
