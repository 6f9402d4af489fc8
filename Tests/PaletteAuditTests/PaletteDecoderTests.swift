import ColorScience
@testable import PaletteAudit
@testable import TokenSources
import Testing

@Suite struct PaletteDecoderTests {
    static let sample = """
    {
      "name": "sample",
      "description": "A small palette",
      "source": "tests",
      "themes": {
        "light": {
          "tokens": {
            "text.body": "#0f172a",
            "surface": {"$type": "color", "$value": "#ffffff"},
            "brand": {
              "$type": "color",
              "primary": {"$value": {"colorSpace": "srgb", "components": [0.1450980392, 0.3882352941, 0.9215686275], "alpha": 1}},
              "link": {"$value": "{brand.primary}"}
            },
            "spacing": {"small": {"$type": "dimension", "$value": "4px"}}
          }
        },
        "dark": {"extends": "light", "tokens": {"text.body": "#e2e8f0", "surface": "#0f172a"}}
      },
      "checks": [
        {"id": "body", "foreground": "text.body", "background": "surface"},
        {"id": "link", "foreground": "{brand.link}", "background": "surface", "level": "AAA", "fontSize": "24px"}
      ],
      "badges": [{"name": "blue", "background": "#dbeafe", "text": "#1e3a8a", "level": "AAA", "claim": {"ratio": 7.2, "level": "AAA"}}]
    }
    """

    @Test func decodesFlatNestedDTCGAliasesAndExtends() throws {
        let (palette, problems) = PaletteDecoder.decode(Self.sample, file: "sample.json")
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(palette)
        #expect(p.name == "sample")
        #expect(p.themes.map(\.name) == ["light", "dark"])
        let light = try #require(p.theme(named: "light"))
        #expect(light.tokens.map(\.name) == ["text.body", "surface", "brand.primary", "brand.link"])
        #expect(light.tokens[2].value == "color(srgb 0.1450980392 0.3882352941 0.9215686275)")
        #expect(light.tokens[1].pointer.description == "/themes/light/tokens/surface/$value")

        var dark = ThemeResolver(palette: p, theme: try #require(p.theme(named: "dark")))
        #expect(try dark.resolve("text.body").get().hex == "#e2e8f0")
        let link = try dark.resolve("{brand.link}").get()
        #expect(link.hex == "#2563eb")
        #expect(link.token == "brand.link")
        #expect(link.aliases == ["brand.primary"])
        #expect(p.checks[1].effectiveUsage == .largeText)
    }

    func problems(_ text: String) -> [PaletteProblem] {
        let (palette, problems) = PaletteDecoder.decode(text, file: "bad.json")
        guard let palette else { return problems }
        return Auditor().audit(palette, problems: problems).problems
    }

    @Test(arguments: [
        ("{", "bad.json:1:2: the document ends inside an object; expected a quoted key or '}'", PaletteProblem.Code.invalidJSON),
        ("[]", "bad.json:1:1: a palette must be a JSON object, found an array", .wrongType),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": "#12"}}}}"##,
         ##"bad.json:1:52: /themes/light/tokens/a (theme 'light') token "a" has "#12", which is not a valid color: a hex color has 3, 4, 6 or 8 digits (#rgb, #rgba, #rrggbb, #rrggbbaa), found 2 (at byte 0)"##, .invalidColor),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": "{b}", "b": "{a}"}}}}"##,
         ##"bad.json:1:64: /themes/light/tokens/b (theme 'light') alias cycle: a → b → a"##, .aliasCycle),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": "{nope}"}}}}"##,
         ##"bad.json:1:52: /themes/light/tokens/a (theme 'light') token "a" is an alias of "{nope}", which names no color token of theme 'light'"##, .unknownToken),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": "#fff"}}}, "checks": [{"foreground": "text.bdy", "background": "a"}]}"##,
         ##"bad.json:1:74: /checks/0/foreground (theme 'light') "text.bdy" is neither a token of theme 'light' nor a CSS color"##, .unknownToken),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": 5}}}}"##,
         ##"bad.json:1:52: /themes/light/tokens/a token "a" must be a color string, an alias like "{text.body}", a DTCG token object with "$value", or a group; found a number"##, .wrongType),
        (##"{"name": "x", "themes": {"light": {"tokens": {}}}, "checks": [{"forground": "a", "background": "b"}]}"##,
         ##"bad.json:1:64: /checks/0/forground unknown field "forground" in a check (did you mean "foreground"?); expected one of: id, description, foreground, background, usage, level, apca, fontSize, fontWeight, backdrop, themes, assumed, claim, minimumRatio, except, cvd, palettes"##, .unknownField),
        (##"{"name": "x", "themes": {"a": {"extends": "b", "tokens": {}}, "b": {"extends": "a", "tokens": {}}}}"##,
         ##"bad.json: /themes/a/extends theme "a" extends itself through a → b → a"##, .extendsCycle),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": "#fff"}}}, "checks": [{"foreground": "a", "background": "a", "usage": "body"}]}"##,
         ##"bad.json:1:122: /checks/0/usage "body" is not a usage; expected text, large-text, non-text, decorative or disabled"##, .invalidValue),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": "#fff"}}}, "checks": [{"id": "c", "foreground": "a", "background": "a"}, {"id": "c", "foreground": "a", "background": "a"}]}"##,
         ##"bad.json:1:132: /checks/1/id check id "c" is used twice; give each check a unique "id""##, .duplicateName),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": "#fff"}}}, "checks": [{"foreground": "a", "background": "a", "themes": ["dim"]}]}"##,
         ##"bad.json:1:74: /checks/0/themes check "a-on-a" names theme "dim", which is not a theme of this palette"##, .unknownTheme),
        (##"{"name": "x", "themes": {"light": {"tokens": {"a": "#fff"}}}, "badges": [{"name": "b", "text": "a"}]}"##,
         ##"bad.json: /badges/0 a badge needs a "background""##, .missingField),
    ])
    func everyProblemHasItsPlace(text: String, description: String, code: PaletteProblem.Code) {
        let found = problems(text)
        // A typo'd field also leaves the real one missing: at most those two problems.
        #expect(found.count == 1 || (code == .unknownField && found.count == 2), "\(found)")
        #expect(found.contains { $0.code == code && $0.description == description }, "\(found)")
    }

    @Test func longAliasChainsAndHugePalettesStayCheap() throws {
        func chain(_ length: Int) -> String {
            var tokens = "\"t0\": \"#123456\""
            for i in 1...length { tokens += ", \"t\(i)\": \"{t\(i - 1)}\"" }
            return "{\"name\": \"deep\", \"themes\": {\"light\": {\"tokens\": {\(tokens)}}}, \"checks\": [{\"foreground\": \"t\(length)\", \"background\": \"t0\"}]}"
        }
        let (palette, problems) = PaletteDecoder.decode(chain(1_000))
        #expect(problems.isEmpty)
        let report = Auditor().audit(try #require(palette), problems: problems)
        #expect(report.themes[0].results.first?.foreground.hex == "#123456")
        #expect(report.themes[0].results.first?.foreground.aliases?.count == 1_000)
        let (deep, _) = PaletteDecoder.decode(chain(10_000))
        let refused = Auditor().audit(try #require(deep))
        #expect(refused.problems.map(\.code).allSatisfy { $0 == .limitExceeded } && !refused.problems.isEmpty)
        #expect(refused.problems.first?.message.contains("longer than 1000 tokens") == true)

        var limits = PaletteDecoder.Limits()
        limits.maximumThemes = 10
        let themes = (0..<11).map { "\"t\($0)\": {\"tokens\": {}}" }.joined(separator: ",")
        let (_, tooMany) = PaletteDecoder.decode("{\"name\": \"x\", \"themes\": {\(themes)}}", limits: limits)
        #expect(tooMany.map(\.code) == [.limitExceeded])
    }

    @Test func standaloneDesignTokensFile() throws {
        let (palette, problems) = PaletteDecoder.decode(##"{"color": {"$type": "color", "fg": {"$value": "#000"}, "bg": {"$value": "#fff"}}}"##, file: "brand.tokens.json")
        #expect(problems.isEmpty)
        let p = try #require(palette)
        #expect(p.name == "brand")
        #expect(p.themes.first?.tokens.map(\.name) == ["color.fg", "color.bg"])
    }
}

/// light-dark() in palettes: resolved by each theme's color scheme (its name, its
/// "colorScheme", or the theme it extends), and a located problem where there is none.
@Suite struct ColorSchemeTests {
    static let text = ##"""
    {"name": "ld", "themes": {
      "light": {"tokens": {"ink": "light-dark(#1f2328, #f0f6fc)", "paper": "light-dark(#ffffff, #0d1117)",
                           "muted": "color-mix(in srgb, {ink} 60%, {paper})"}},
      "dark": {"extends": "light", "tokens": {}},
      "dark_dimmed": {"extends": "dark", "tokens": {"paper": "light-dark(#ffffff, #22272e)"}},
      "night": {"colorScheme": "dark", "extends": "light", "tokens": {}},
      "sepia": {"extends": "light", "tokens": {}},
      "brand": {"tokens": {"ink": "light-dark(#5b4636, #e0d6c8)", "paper": "#f4ecd8"}}
    }, "checks": [{"id": "body", "foreground": "ink", "background": "paper"}]}
    """##

    @Test func eachThemeReadsItsScheme() throws {
        let (decoded, problems) = PaletteDecoder.decode(Self.text, file: "ld.json")
        #expect(problems.isEmpty, "\(problems)")
        let palette = try #require(decoded)
        let report = Auditor().audit(palette)
        func pair(_ theme: String) -> String? {
            report.themes.first { $0.name == theme }?.results.first.map { "\($0.foreground.hex) on \($0.background.hex)" }
        }
        #expect(pair("light") == "#1f2328 on #ffffff")
        #expect(pair("dark") == "#f0f6fc on #0d1117")
        #expect(pair("dark_dimmed") == "#f0f6fc on #22272e")  // dark by the theme it extends
        #expect(pair("night") == "#f0f6fc on #0d1117")  // dark by its colorScheme
        #expect(pair("sepia") == "#1f2328 on #ffffff")  // light by the theme it extends
        // A theme with no scheme cannot pick a branch: a problem at the token, never a guess.
        #expect(pair("brand") == nil)
        let problem = try #require(report.problems.first { $0.message.contains("brand") })
        #expect(problem.message.contains("light-dark() is one color in a light color scheme and another in a dark one"))
        #expect(problem.message.contains("theme 'brand' is neither named light or dark nor has a \"colorScheme\""))
        #expect(problem.pointer.description == "/themes/brand/tokens/ink")
    }

    @Test func anUnknownColorSchemeIsAProblem() {
        let (_, problems) = PaletteDecoder.decode(##"{"name": "x", "themes": {"a": {"colorScheme": "dusk", "tokens": {"x": "#fff"}}}}"##, file: nil)
        #expect(problems.map(\.message) == ["\"colorScheme\" of theme \"a\" must be \"light\" or \"dark\", found \"dusk\""])
    }
}

/// "Did you mean" offers the nearest name, not the first one within reach.
@Suite struct DidYouMeanTests {
    @Test func theNearestNameIsOffered() throws {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"c.gray100": "#eeeeee", "c.gray700": "#333333", "bg": "#ffffff"}}},"##
            + ##" "checks": [{"id": "x", "foreground": "{c.grey700}", "background": "bg"}]}"##
        let (palette, _) = PaletteDecoder.decode(text)
        let report = Auditor().audit(try #require(palette))
        let message = try #require(report.themes.first?.unresolved?.first?.problem)
        #expect(message.contains(#"(did you mean "c.gray700"?)"#), "\(message)")
    }

    @Test func editDistanceIsBounded() {
        #expect(PaletteDecoder.editDistance("gray700", "grey700", atMost: 2) == 1)
        #expect(PaletteDecoder.editDistance("gray100", "grey700", atMost: 2) == 2)
        #expect(PaletteDecoder.editDistance("gray100", "grey700", atMost: 1) == nil)
        #expect(PaletteDecoder.editDistance("", "ab", atMost: 2) == 2)
    }
}

/// One broken value gives one problem, not one copy per theme.
@Suite struct OneProblemPerValueTests {
    @Test func aBrokenInheritedTokenIsOneProblemNamingEveryTheme() throws {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"bg": "#ffffff", "fg": "{missing}"}},"##
            + ##" "dark": {"extends": "light", "tokens": {"bg": "#000000"}}, "dim": {"extends": "light", "tokens": {"bg": "#111111"}}}}"##
        let (palette, _) = PaletteDecoder.decode(text)
        let report = Auditor().audit(try #require(palette))
        let broken = report.problems.filter { $0.message.contains("{missing}") }
        #expect(broken.count == 1)
        #expect(broken.first?.theme == nil)
        #expect(broken.first?.message.contains("themes 'light', 'dark' and 'dim'") == true, "\(broken.first?.message ?? "")")
    }

    /// Past eight themes, the problem names the first eight and counts the rest: 500 themes
    /// that inherit one broken token made one problem naming all 500.
    @Test func aProblemOfManyThemesNamesEightAndCountsTheRest() throws {
        let themes = (1..<500).map { ##""t\##($0)": {"extends": "base", "tokens": {"bg": "#000000"}}"## }.joined(separator: ", ")
        let text = ##"{"name": "p", "themes": {"base": {"tokens": {"bg": "#ffffff", "fg": "{missing}"}}, "## + themes + "}}"
        let (palette, _) = PaletteDecoder.decode(text)
        let report = Auditor().audit(try #require(palette))
        let broken = try #require(report.problems.first { $0.message.contains("{missing}") })
        #expect(broken.message.contains("themes 'base', 't1', 't2', 't3', 't4', 't5', 't6', 't7' and 492 more"), "\(broken.message)")
        #expect(!broken.message.contains("'t8'") && broken.message.utf8.count < 400, "\(broken.message)")
    }
}

/// A rule that its own "except" empties says so.
@Suite struct EmptiedRuleTests {
    @Test func aRuleEmptiedByItsExceptSaysSo() throws {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"text.a": "#111111", "text.b": "#222222", "bg.a": "#ffffff"}}},"##
            + ##" "checks": [{"id": "r", "foreground": "text.*", "background": "bg.*", "except": ["text.*"]},"##
            + ##" {"id": "none", "foreground": "icon.*", "background": "bg.*", "except": ["x"]}]}"##
        let report = Auditor().audit(try #require(PaletteDecoder.decode(text).palette))
        let emptied = try #require(report.problems.first { $0.message.hasPrefix("rule \"r\"") })
        #expect(emptied.message.hasSuffix(#"its globs match pairs, and its own "except" (text.*) removes every one"#))
        let unmatched = try #require(report.problems.first { $0.message.hasPrefix("rule \"none\"") })
        #expect(!unmatched.message.contains("except"))
    }
}

/// Aliases and embedded references read the same over bytes (ASCII) as over characters.
@Suite struct AliasReadingTests {
    @Test func anAliasIsOneReferenceAloneInItsValue() {
        let cases: [(String, String?)] = [
            ("{text.body}", "text.body"), ("  {text.body}\t\n", "text.body"), ("{a}", "a"), ("{}", nil), ("{ }", nil), ("{ text.body }", "text.body"), ("{\u{A0}a }", "a"),
            ("#000", nil), ("{a}{b}", nil), ("{a{b}", nil), ("x{a}", nil), ("{a} x", nil), ("{a}\r\n", "a"),
            ("{couleur.thé}", "couleur.thé"), ("\u{A0}{a}\u{A0}", "a"), ("{\u{301}a}", nil), ("", nil),
        ]
        for (value, expected) in cases {
            #expect(Token.aliasTarget(of: value) == expected, "\(value.debugDescription)")
        }
        #expect(Token.asciiAliasTarget(of: "{é}") == nil, "non-ASCII text is read by characters")
    }

    @Test func referencesInsideAValueAreEachBracedName() {
        let cases: [(String, [String])] = [
            ("rgba({brand.red}, 0.5)", ["brand.red"]), ("{a} {b}", ["a", "b"]), ("{}{a}", ["a"]), ("{a{b}", []),
            ("{open", []), ("#fff", []), ("color-mix(in oklch, {a} 40%, {thé})", ["a", "thé"]), ("{a}\r\n{b}", ["a", "b"]),
        ]
        for (value, expected) in cases {
            #expect(Token.embeddedReferences(in: value) == expected, "\(value.debugDescription)")
        }
    }
}
