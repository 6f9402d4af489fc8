import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Token sources written from the DTCG Format, Color and Resolver 2025.10 specifications and
/// Tokens Studio's documentation: each feature read right, and each broken case reported.
@Suite struct TokenFormatTests {
    /// The audit of a document with one check per (foreground, background) given.
    func audit(_ text: String, checks: [(String, String)] = [], file: String = "t.tokens.json", reader: DocumentReader = .none) throws -> PaletteReport {
        let (decoded, problems) = PaletteDecoder.decode(bytes: Array(text.utf8), file: file, reader: reader)
        var palette = try #require(decoded, "\(problems)")
        palette.checks = checks.enumerated().map { Check(id: "c\($0)", foreground: $1.0, background: $1.1) }
        return Auditor().audit(palette, problems: problems)
    }

    func hex(_ report: PaletteReport, theme: String = "default", check: Int = 0) -> String? {
        report.themes.first { $0.name == theme }?.results.first { $0.id == "c\(check)" }?.foreground.hex
    }

    @Test func json5IsReadWithLineAndColumn() throws {
        let text = "\u{FEFF}{\n  // Primer writes its sources like this\n  color: {fg: {$value: '#0969da', $type: 'color',},},\n  /* block */ bg: {\"$value\": \"#fff\", \"$type\": \"color\"},\n}"
        let report = try audit(text, checks: [("color.fg", "bg")])
        #expect(hex(report) == "#0969da")
        #expect(report.problems.isEmpty)
        do {
            _ = try JSONParser.parse("{a: 1,\n  b: 'x\n}")
            Issue.record("parsed")
        } catch {
            #expect(error.description == "2:8: a control character (byte 0xA) inside a string must be escaped")
        }
        #expect((try? JSONParser.parse("[0x1F, .5, +1, 5.]"))?.arrayCount == 4)
    }

    @Test func rootTokensExtendsAndRefs() throws {
        let text = ##"""
        {"color": {"$type": "color",
          "accent": {"$root": {"$value": "#dd0000"}, "light": {"$value": "#ff6666"}},
          "base": {"fg": {"$value": "#111111"}, "bg": {"$value": "#ffffff"}},
          "brand": {"$extends": "{color.base}", "bg": {"$value": "#eeeeee"}},
          "copy": {"$ref": "#/color/accent/light"},
          "part": {"$value": {"colorSpace": "srgb", "components": [{"$ref": "#/color/red/$value/components/0"}, 0, 0]}},
          "red": {"$value": {"colorSpace": "srgb", "components": [0.5, 0, 0]}},
          "onAccent": {"$value": "{color.accent.$root}"}}}
        """##
        let report = try audit(text, checks: [("color.onAccent", "color.brand.bg"), ("color.brand.fg", "color.brand.bg"), ("color.copy", "color.base.bg"), ("color.part", "color.base.bg")])
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(hex(report, check: 0) == "#dd0000")
        #expect(hex(report, check: 1) == "#111111")  // inherited through $extends
        #expect(report.themes[0].results[1].background.hex == "#eeeeee")  // the local override wins
        #expect(hex(report, check: 2) == "#ff6666")
        #expect(hex(report, check: 3) == "#800000")
    }

    @Test func cyclesAreReportedWithTheirMembers() throws {
        let extendsCycle = ##"{"a": {"$extends": "{b}", "x": {"$type": "color", "$value": "#000"}}, "b": {"$extends": "{a}"}}"##
        let (_, p1) = PaletteDecoder.decode(extendsCycle, file: "e.tokens.json")
        #expect(p1.map(\.description).contains("e.tokens.json:1:20: /a/$extends $extends cycle: a → b → a; none of these groups inherits anything"), "\(p1)")
        let refCycle = ##"{"a": {"$ref": "#/b"}, "b": {"$ref": "#/a"}}"##
        let (_, p2) = PaletteDecoder.decode(refCycle, file: "r.tokens.json")
        #expect(p2.contains { $0.code == .refCycle && $0.message.contains("r.tokens.json#/b → r.tokens.json#/a → r.tokens.json#/b") }, "\(p2)")
    }

    @Test func nonColorAliasesAreIgnoredAndDeprecatedTokensMarked() throws {
        let text = ##"""
        {"size": {"$type": "dimension", "s": {"$value": {"value": 4, "unit": "px"}}},
         "gap": {"$value": "{size.s}"},
         "old": {"$type": "color", "$value": "#767676", "$deprecated": "use fg instead"},
         "bg": {"$type": "color", "$value": "#ffffff"}}
        """##
        let report = try audit(text, checks: [("old", "bg")])
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.themes[0].results[0].foreground.deprecated == "use fg instead")
        // Marked in every rendering.
        let all = AuditReport(palettes: [report])
        let note = "token old is deprecated: use fg instead"
        #expect(TextRenderer(color: false).render(all).contains("deprecated: " + note))
        #expect(JUnitRenderer.render(all).contains(note))
        #expect(String(decoding: try SARIFRenderer.render(all, toolVersion: "test"), as: UTF8.self).contains(note))
        #expect(HTMLReport(title: "t", generated: "now").render(all).contains("Deprecated:</strong> " + note))
        #expect(String(decoding: all.compactJSON(), as: UTF8.self).contains("\"deprecated\":\"use fg instead\""))
    }

    @Test func hexThatDisagreesIsAWarningAndComponentsWin() throws {
        let text = ##"{"c": {"$type": "color", "$value": {"colorSpace": "hsl", "components": [330, 100, 50], "hex": "#ff00ff"}}, "bg": {"$type": "color", "$value": "#000"}}"##
        let report = try audit(text, checks: [("c", "bg")])
        #expect(hex(report) == "#ff0080")
        #expect(report.problems.isEmpty)
        #expect(report.warnings?.map(\.description) == [
            "t.tokens.json:1:95: /c/$value/hex token \"c\": the color object's \"hex\" #ff00ff disagrees with its components, which give #ff0080 (hsl(330 100% 50%)); the components are used, as the DTCG Color module says",
        ])
    }

    @Test func primerAlphaIsAppliedAndUnknownPropertiesWarned() throws {
        let text = ##"{"base": {"$type": "color", "$value": "#1f2328"}, "border": {"$type": "color", "$value": "{base}", "alpha": 0.15}, "odd": {"$type": "color", "$value": "#000", "mix": {"color": "#fff", "weight": 0.5}}, "bg": {"$type": "color", "$value": "#fff"}}"##
        let report = try audit(text, checks: [("border", "bg"), ("odd", "bg")])
        #expect(hex(report) == "#1f232826")
        #expect(report.warnings?.count == 1)
        #expect(report.warnings?.first?.message.hasPrefix("color token \"odd\" has a property \"mix\" that is not part of the DTCG format") == true)
    }

    @Test func tokensStudioThemesModifiersAndReferences() throws {
        let text = ##"""
        {"core": {"red": {"value": "#C14242", "type": "color"}, "white": {"value": "#ffffff", "type": "color"}, "amount": {"value": "0.2", "type": "number"}},
         "light": {"fg": {"value": "{red}", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "darken", "value": "{amount}", "space": "srgb"}}}},
                   "veil": {"value": "rgba({red}, 0.5)", "type": "color"}, "bg": {"value": "$white", "type": "color"}},
         "dark": {"fg": {"value": "{red}", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "lighten", "value": "0.2", "space": "hsl"}}}},
                  "veil": {"value": "#000", "type": "color"}, "bg": {"value": "#000000", "type": "color"}},
         "$themes": [{"id": "1", "name": "light", "selectedTokenSets": {"core": "source", "light": "enabled", "dark": "disabled"}},
                     {"id": "2", "name": "dark", "selectedTokenSets": {"core": "source", "dark": "enabled"}}],
         "$metadata": {"tokenSetOrder": ["core", "light", "dark"]}}
        """##
        let report = try audit(text, checks: [("fg", "bg"), ("veil", "bg")], file: "tokens.json")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.themes.map(\.name) == ["light", "dark"])
        // sd-transforms' own vectors: #C14242 darkened 0.2 in srgb is #9a3535; lightened in hsl, hsl(0 50.598% 60.627%).
        #expect(hex(report, theme: "light") == "#9a3535")
        #expect(hex(report, theme: "dark") == "#cd6868")  // hsl(0 50.598% 60.627%)
        #expect(hex(report, theme: "light", check: 1) == "#c1424280")
    }

    /// Found trying it as a new user: a modifier of a type Tokens Studio does not have was a
    /// problem, and the token was then measured as if it had no modifier (a PASS with exit 2).
    @Test func aModifierThatCannotBeReadLeavesTheTokenUnresolved() throws {
        let text = ##"""
        {"core": {"blue": {"value": "#2563eb", "type": "color"}, "white": {"value": "#ffffff", "type": "color"}},
         "light": {"accent": {"value": "{blue}", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "saturate", "value": "0.2", "space": "hsl"}}}},
                   "plain": {"value": "{blue}", "type": "color"},
                   "bg": {"value": "{white}", "type": "color"}},
         "$themes": [{"id": "1", "name": "light", "selectedTokenSets": {"core": "source", "light": "enabled"}}]}
        """##
        let report = try audit(text, checks: [("accent", "bg"), ("plain", "bg")], file: "tokens.json")
        #expect(report.problems.contains { $0.message.contains("\"saturate\" is not a Tokens Studio color modifier") })
        let theme = try #require(report.themes.first { $0.name == "light" })
        #expect(!theme.results.contains { $0.id == "c0" }, "accent was measured without its modifier")
        #expect(theme.unresolved?.contains { $0.id == "c0" } == true)
        #expect(hex(report, theme: "light", check: 1) == "#2563eb")
    }

    @Test func aTokensStudioFileWithoutThemesHasItsAlternativeSetsAsThemes() throws {
        // Telefónica Mística's skins: Tokens Studio's single-file export with no $themes; its
        // references name tokens without their set ({palette.white} is global.palette.white).
        let text = ##"""
        {"light": {"background": {"value": "{palette.white}", "type": "color"}, "text": {"value": "{palette.ink}", "type": "color"}},
         "dark": {"background": {"value": "{palette.ink}", "type": "color"}, "text": {"value": "{palette.grey}", "type": "color"}},
         "radius": {"button": {"value": "4", "type": "borderRadius"}},
         "global": {"palette": {"white": {"value": "#ffffff", "type": "color"}, "ink": {"value": "#0b2739", "type": "color"}, "grey": {"value": "#d1d5e4", "type": "color"}}}}
        """##
        let document = SourceDocument(file: "skin.json", bytes: Array(text.utf8), json: try JSONParser.parse(Array(text.utf8)))
        #expect(SourceRegistry.detect(document)?.id == "tokens-studio")
        let report = try audit(text, checks: [("text", "background")], file: "skin.json")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.themes.map(\.name) == ["dark", "light"])
        #expect(hex(report, theme: "light") == "#0b2739")
        #expect(hex(report, theme: "dark") == "#d1d5e4")
        // The same tokens in Style Dictionary form (references from the root) stay Style Dictionary.
        let plain = ##"{"palette": {"white": {"value": "#ffffff", "type": "color"}}, "light": {"background": {"value": "{palette.white}", "type": "color"}}}"##
        let sd = SourceDocument(file: "sd.json", bytes: Array(plain.utf8), json: try JSONParser.parse(Array(plain.utf8)))
        #expect(SourceRegistry.detect(sd)?.id == "style-dictionary")
    }

    /// Each format declares what its detection looks for in a tree; one walk records them all.
    @Test func theOneWalkRecordsEveryFormatsOwnMarkers() throws {
        #expect(Set(SourceRegistry.markers.map(\.name)) == ["studio.tokens", "value", "$value", "color string"])
        let text = ##"{"a": {"b": {"$value": "#fff", "$extensions": {"studio.tokens": {}}}}, "c": [{"value": "x"}]}"##
        let shape = DocumentShape(try JSONParser.parse(Array(text.utf8)), path: "x.json")
        #expect(shape.saw("$value") && shape.saw("studio.tokens") && shape.saw("color string"))
        // Arrays are not walked into: a `value` inside one marks nothing.
        #expect(!shape.saw("value"))
    }

    /// Detection accepts every member the checks document's reader reads: one with
    /// `themeNames` or `ignoreProperties` is a checks document, not "no palette or token file".
    @Test func aChecksDocumentIsDetectedWithEveryMemberItsReaderReads() throws {
        func detected(_ text: String) throws -> String? {
            SourceRegistry.detect(SourceDocument(file: "app.checks.json", bytes: Array(text.utf8), json: try JSONParser.parse(Array(text.utf8))))?.id
        }
        #expect(try detected(##"{"checks": [{"foreground": "ink", "background": "paper"}], "themeNames": {"dark_dimmed": "dimmed"}}"##) == "checks")
        #expect(try detected(##"{"$schema": "x", "checks": [], "ignoreProperties": ["modify"], "x-owner": "design"}"##) == "checks")
        #expect(try detected(##"{"badges": [{"name": "new", "text": "#fff", "background": "#036"}]}"##) == "checks")
        // A member no reader reads keeps it from being taken for a checks document.
        #expect(try detected(##"{"checks": [], "colors": {"ink": "#111"}}"##) != "checks")
    }

    @Test func aStudioFileWithoutThemesOrSetScopedReferencesIsOneSet() throws {
        // Telekom's per-theme export: studio.tokens extensions, top-level groups, no $themes.
        let text = ##"""
        {"Primary": {"Bg": {"value": "#0055aa", "type": "color"}, "Fg": {"value": "#ffffff", "type": "color"}},
         "Secondary": {"Bg": {"value": "#eeeeee", "type": "color"}, "Fg": {"value": "#222222", "type": "color",
                       "$extensions": {"studio.tokens": {"modify": {"type": "alpha", "value": "0.5", "space": "srgb"}}}}}}
        """##
        let report = try audit(text, checks: [("Primary.Fg", "Primary.Bg"), ("Secondary.Fg", "Secondary.Bg")], file: "button.json")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.themes.map(\.name) == ["default"])
        #expect(hex(report, check: 1) == "#22222280")
    }

    @Test func ungroupedThemesWithoutColorsAreNotAudited() throws {
        // Element's $themes: platform themes (Global, Web) beside Light and Dark, with no group.
        let text = ##"""
        {"global": {"space": {"value": "4", "type": "spacing"}},
         "light": {"fg": {"value": "#1b1d22", "type": "color"}, "bg": {"value": "#ffffff", "type": "color"}},
         "dark": {"fg": {"value": "#ebeef2", "type": "color"}, "bg": {"value": "#101317", "type": "color"}},
         "$themes": [{"id": "g", "name": "Global", "selectedTokenSets": {"global": "enabled"}},
                     {"id": "w", "name": "Web", "selectedTokenSets": {"global": "source"}},
                     {"id": "l", "name": "Light", "selectedTokenSets": {"light": "enabled"}},
                     {"id": "d", "name": "Dark", "selectedTokenSets": {"dark": "enabled"}}]}
        """##
        let report = try audit(text, checks: [("fg", "bg")], file: "tokens.json")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.themes.map(\.name) == ["Light", "Dark"])
    }

    @Test func exportersMetadataBesideTheValueIsNotAPropertyToApply() throws {
        // MetaMask's legacy Tokens Studio export (`parent`), Astro's copy of the value (`rawValue`).
        let text = ##"""
        {"fg": {"value": "#24272a", "type": "color", "parent": "Theme Colors/Light mode"},
         "bg": {"value": "#ffffff", "type": "color", "rawValue": "{white}"}}
        """##
        let report = try audit(text, checks: [("fg", "bg")], file: "light.json")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(hex(report) == "#24272a")
    }

    @Test func aValuePerModeSaysWhatItIs() {
        // Telekom's sources: `value: {light, dark}`, picked by the system's own transform.
        let text = ##"{"ink": {"value": {"light": "#000000", "dark": "#ffffff"}, "type": "color"}}"##
        let (_, problems) = PaletteDecoder.decode(bytes: Array(text.utf8), file: "color.json")
        #expect(problems.contains { $0.message.contains("one value per key (light, dark)") }, "\(problems.map(\.message))")
        #expect(!problems.contains { $0.message.contains("colorSpace") })
    }

    @Test func aThemesSetThatIsAFolderOfSetsSaysSo() {
        // Workday Canvas's $themes.json still selects "base" after the set became base/*.json.
        let sets = ["base/base", "base/palette", "sys/brand/canvas", "sys/color/color"]
        let folder = PaletteDecoder.tokensStudioMissingSetHint("base", sets: sets)
        #expect(folder.contains("base/ is a folder of 2 sets (base/base, base/palette)"), "\(folder)")
        #expect(PaletteDecoder.tokensStudioMissingSetHint("sys/color/colour", sets: sets) == "did you mean sys/color/color?")
        let many = (1...9).map { "set\($0)" }
        #expect(PaletteDecoder.tokensStudioMissingSetHint("other", sets: many) == "the 9 sets are set1, set2, set3, set4, set5, set6 and 3 more")
    }

    @Test func styleDictionaryClassicReferences() throws {
        let text = ##"{"color": {"base": {"red": {"value": "#d1242f", "comment": "brand"}, "white": {"value": "#ffffff"}}, "font": {"danger": {"value": "{color.base.red.value}"}}}, "size": {"small": {"value": "12px"}}}"##
        let report = try audit(text, checks: [("color.font.danger", "color.base.white")], file: "sd.json")
        #expect(hex(report) == "#d1242f")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.format == "Style Dictionary")
    }

    /// Style Dictionary trims a reference (`{ color.white }` is `{color.white}`), as Wikimedia
    /// Codex writes all of its references: read as the alias it is, inside a value too, and in
    /// the v3 form `{ color.red.value }`.
    @Test func styleDictionaryReferencesWithSpacesInsideTheBracesAreTrimmed() throws {
        let text = ##"{"color": {"white": {"value": "#ffffff"}, "red": {"value": "#d1242f"}}, "text": {"danger": {"value": "{ color.red }"}, "old": {"value": "{  color.red.value }"}, "faded": {"value": "rgba({ color.red }, 0.5)"}}, "paper": {"value": "{\tcolor.white }"}}"##
        let report = try audit(text, checks: [("text.danger", "paper"), ("text.old", "paper"), ("text.faded", "paper")], file: "sd.json")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(hex(report, check: 0) == "#d1242f")
        #expect(hex(report, check: 1) == "#d1242f")
        #expect(report.themes[0].results.count == 3)
        #expect(Token.aliasTarget(of: "{ color.white }") == "color.white")
        #expect(Token.aliasTarget(of: "{ }") == nil)
        #expect(Token.embeddedReferences(in: "rgba({ a.b }, { c })") == ["a.b", "c"])
        #expect(Token.trimmingReferences("rgba({ a.b }, 0.5) { }") == "rgba({a.b}, 0.5) { }")
    }

    /// A display name is not a color: Catppuccin's `"name": "Pink"` beside `"hex": "#ea76cb"` is
    /// a word, not CSS pink. In a map without types a bare keyword is a color only where its
    /// key, its siblings or the file's other values say so.
    @Test func aBareColorKeywordIsAColorOnlyWhereItsContextSaysSo() throws {
        let text = ##"{"latte": {"name": "Latte", "colors": {"pink": {"name": "Pink", "order": 5, "hex": "#ea76cb", "rgb": {"r": 234, "g": 118, "b": 203}}, "red": {"label": "Red", "hex": "#d20f39"}}}, "status": {"error": "red", "ok": "#1a7f37"}, "link": {"color": "navy"}}"##
        let (palette, problems) = PaletteDecoder.decode(bytes: Array(text.utf8), file: "palette.json")
        let names = Set(try #require(palette).themes[0].tokens.map(\.name))
        #expect(names == ["latte.colors.pink.hex", "latte.colors.red.hex", "status.error", "status.ok", "link.color"])
        let words = try #require(palette).ledger.entries.filter { $0.type == PaletteDecoder.keywordNotColor }.map(\.name)
        #expect(Set(words) == ["latte.colors.pink.name", "latte.colors.red.label"])
        #expect(problems.contains { $0.message.hasPrefix("2 values are a CSS color keyword where nothing says it is a color") && $0.severity == .warning })
        // A file of keywords and nothing else: its values say color.
        let plain = PaletteDecoder.decode(bytes: Array(##"{"brand": {"primary": "teal", "accent": "tomato"}}"##.utf8), file: "p.json").palette
        #expect(plain?.themes[0].tokens.count == 2)
    }

    /// A resolver whose files live in memory.
    static func reader(_ files: [String: String]) -> DocumentReader {
        DocumentReader { path in
            guard let text = files[path] else { return .failure(PaletteProblem(.unreadableFile, "no such file")) }
            return .success(Array(text.utf8))
        }
    }

    static let files = [
        "ds/base.tokens.json": ##"{"color": {"$type": "color", "gray": {"0": {"$value": "#ffffff"}, "9": {"$value": "#1f2328"}, "6": {"$value": "#59636e"}}}}"##,
        "ds/light.tokens.json": ##"{"fg": {"$type": "color", "default": {"$value": "{color.gray.9}"}, "muted": {"$value": "{color.gray.6}"}}, "bg": {"$type": "color", "default": {"$value": "{color.gray.0}"}}}"##,
        "ds/dark.tokens.json": ##"{"fg": {"$type": "color", "default": {"$value": "{color.gray.0}"}, "muted": {"$value": "#9198a1"}}, "bg": {"$type": "color", "default": {"$value": "#0d1117"}}}"##,
        "ds/size.tokens.json": ##"{"space": {"$type": "dimension", "s": {"$value": {"value": 4, "unit": "px"}}}}"##,
        "ds/ds.resolver.json": ##"""
        {"version": "2025.10", "name": "ds",
         "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
         "modifiers": {"theme": {"contexts": {"light": [{"$ref": "light.tokens.json"}], "dark": [{"$ref": "dark.tokens.json"}]}, "default": "light"},
                       "size": {"contexts": {"regular": [{"$ref": "size.tokens.json"}], "compact": [{"$ref": "size.tokens.json"}]}}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}, {"$ref": "#/modifiers/size"}]}
        """##,
    ]

    static let rules = [Check(id: "text", description: nil, foreground: "fg.*", background: "bg.*")]

    @Test func resolverThemesAndRules() throws {
        let (decoded, problems) = PaletteDecoder.decode(bytes: Array(Self.files["ds/ds.resolver.json"]!.utf8), file: "ds/ds.resolver.json", reader: Self.reader(Self.files))
        var palette = try #require(decoded)
        #expect(problems.filter { !$0.isWarning }.isEmpty, "\(problems)")
        #expect(palette.themes.map(\.name) == ["light", "dark"])  // size defines no color: not multiplied
        #expect(palette.format == "DTCG resolver 2025.10; themes from theme (light, dark); fixed: size = regular (its first context; no context defines a color)")
        palette.checks = Self.rules
        let report = Auditor().audit(palette)
        #expect(report.themes[0].results.map(\.id) == ["text[fg.default on bg.default]", "text[fg.muted on bg.default]"])
        #expect(report.themes[1].results.map(\.foreground.hex) == ["#ffffff", "#9198a1"])
    }

    /// A resolution-order reference names its set by everything after `sets/` (RFC 6901
    /// escapes undone), as the sets' own references do: `#/sets/x/base` names no set, and says
    /// so, where it was read as the set `base` (its last segment).
    @Test func aSetReferenceNamesItsSetByItsWholeRest() throws {
        var files = Self.files
        files["ds/ds.resolver.json"] = files["ds/ds.resolver.json"]!.replacing(##"{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}"##, with: ##"{"$ref": "#/sets/x/base"}, {"$ref": "#/modifiers/theme"}"##)
        let (_, problems) = PaletteDecoder.decode(bytes: Array(files["ds/ds.resolver.json"]!.utf8), file: "ds/ds.resolver.json", reader: Self.reader(files))
        #expect(problems.contains { $0.code == .unknownToken && $0.message.hasPrefix("\"#/sets/x/base\" names no set of this resolver") }, "\(problems)")
        #expect(PaletteDecoder.setName(inFragment: "/sets/a~1b~0") == "a/b~" && PaletteDecoder.setName(inFragment: "sets/base") == "base")
        #expect(PaletteDecoder.setName(inFragment: "/modifiers/theme") == nil)
    }

    @Test func missingFilesAndEmptyRulesAreProblems() throws {
        var files = Self.files
        files["ds/ds.resolver.json"] = files["ds/ds.resolver.json"]!.replacing("dark.tokens.json", with: "drak.tokens.json")
        let (decoded, problems) = PaletteDecoder.decode(bytes: Array(files["ds/ds.resolver.json"]!.utf8), file: "ds/ds.resolver.json", reader: Self.reader(files))
        #expect(problems.map(\.description).contains("ds/ds.resolver.json:3:99: /modifiers/theme/contexts/dark/0/$ref \"drak.tokens.json\": no such file"), "\(problems)")
        var palette = try #require(decoded)
        palette.checks = [Check(id: "none", foreground: "nothing.*", background: "bg.*")]
        let report = Auditor().audit(palette)
        #expect(report.problems.contains { $0.code == .emptyRule && $0.message == "rule \"none\" (nothing.* on bg.*) matches no pair of tokens in any theme" })
    }

    /// The same design system written four ways audits to the same numbers.
    @Test func oneSystemFourWaysAuditsAlike() throws {
        let flat = ##"{"name": "ds", "themes": {"light": {"tokens": {"fg.default": "#1f2328", "fg.muted": "#59636e", "bg.default": "#ffffff"}}, "dark": {"tokens": {"fg.default": "#ffffff", "fg.muted": "#9198a1", "bg.default": "#0d1117"}}}}"##
        let nested = ##"{"name": "ds", "themes": {"light": {"tokens": {"fg": {"$type": "color", "default": {"$value": "#1f2328"}, "muted": {"$value": "#59636e"}}, "bg": {"default": {"$type": "color", "$value": "#ffffff"}}}}, "dark": {"tokens": {"fg": {"$type": "color", "default": {"$value": "#ffffff"}, "muted": {"$value": "#9198a1"}}, "bg": {"default": {"$type": "color", "$value": "#0d1117"}}}}}}"##
        let studio = ##"{"base": {"gray0": {"value": "#ffffff", "type": "color"}}, "light": {"fg": {"default": {"value": "#1f2328", "type": "color"}, "muted": {"value": "#59636e", "type": "color"}}, "bg": {"default": {"value": "{gray0}", "type": "color"}}}, "dark": {"fg": {"default": {"value": "{gray0}", "type": "color"}, "muted": {"value": "#9198a1", "type": "color"}}, "bg": {"default": {"value": "#0d1117", "type": "color"}}}, "$themes": [{"id": "a", "name": "light", "selectedTokenSets": {"base": "source", "light": "enabled"}}, {"id": "b", "name": "dark", "selectedTokenSets": {"base": "source", "dark": "enabled"}}]}"##
        func numbers(_ palette: Palette?) -> [String] {
            guard var palette else { return [] }
            palette.checks = Self.rules
            return Auditor().audit(palette).themes.flatMap { theme in theme.results.map { "\(theme.name) \($0.id) \($0.ratio)" } }
        }
        let resolver = PaletteDecoder.decode(bytes: Array(Self.files["ds/ds.resolver.json"]!.utf8), file: "ds/ds.resolver.json", reader: Self.reader(Self.files)).palette
        let expected = numbers(PaletteDecoder.decode(flat).palette)
        #expect(expected.count == 4)
        #expect(numbers(PaletteDecoder.decode(nested).palette) == expected)
        #expect(numbers(resolver) == expected)
        #expect(numbers(PaletteDecoder.decode(studio, file: "ds.json").palette) == expected)
    }

    @Test func rulesTooLargeAreRefusedBeforeWork() {
        #expect(CheckRule.matches("button.fg.disabled", "*.disabled"))
        #expect(!CheckRule.matches("fgColor.default", "bgColor.*"))
        #expect(CheckRule.matches("fgColor.accent.emphasis", "fgColor.*"))
    }

    @Test func minimumRatioIsAHouseLevel() throws {
        var palette = try #require(PaletteDecoder.decode(##"{"name": "x", "themes": {"hc": {"tokens": {"border": "#767676", "bg": "#ffffff"}}}}"##).palette)
        var check = Check(id: "border", foreground: "border", background: "bg", usage: .nonText)
        check.minimumRatio = 4.6
        palette.checks = [check]
        let result = try #require(Auditor().audit(palette).themes.first?.results.first)
        #expect(result.verdict == .fail)
        #expect(result.required == 4.6)
        #expect(result.reasons == ["4.54:1 is below the check's minimumRatio of 4.6:1"])
    }
}

@Suite struct BrokenTokenTests {
    /// One broken token makes only the checks that use it unresolvable; the rest are audited.
    @Test func oneBrokenTokenSpoilsOnlyItsChecks() throws {
        let text = ##"{"fg": {"$type": "color", "$value": "#12g456"}, "ok": {"$type": "color", "$value": "#111111"}, "bg": {"$type": "color", "$value": "#ffffff"}}"##
        var palette = try #require(PaletteDecoder.decode(text, file: "b.tokens.json").palette)
        palette.checks = [Check(id: "broken", foreground: "fg", background: "bg"), Check(id: "fine", foreground: "ok", background: "bg")]
        let report = Auditor().audit(palette)
        #expect(report.themes[0].results.map(\.id) == ["fine"])
        #expect(report.themes[0].unresolved?.map(\.id) == ["broken"])
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.description.hasPrefix("b.tokens.json:1:37: /fg/$value (theme 'default') token \"fg\" has \"#12g456\", which is not a valid color") == true)
    }

    /// A sidecar's typo is reported in the sidecar, at its line.
    @Test func sidecarProblemsPointIntoTheSidecar() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contrast-sidecar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ##"{"fg": {"$type": "color", "$value": "#111"}, "bg": {"$type": "color", "$value": "#fff"}}"##.write(to: directory.appendingPathComponent("b.tokens.json"), atomically: true, encoding: .utf8)
        try "{\"checks\": [\n  {\"foreground\": \"fgg\", \"background\": \"bg\"}\n]}".write(to: directory.appendingPathComponent("b.checks.json"), atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadFile(directory.appendingPathComponent("b.tokens.json").path)
        let report = Auditor().audit(try #require(loaded.palette), problems: loaded.problems)
        let problem = try #require(report.problems.first)
        #expect(problem.file?.hasSuffix("b.checks.json") == true)
        #expect(problem.location?.line == 2)
        #expect(problem.message == "\"fgg\" is neither a token of theme 'default' (did you mean \"fg\"?) nor a CSS color ('fgg' is not a CSS color name)")
    }
}

@Suite struct AuditLimitTests {
    static func palette(themes: Int, tokens: Int) -> Palette {
        let names = (0..<tokens).map { "t\($0)" }
        let theme = (0..<themes).map { index in
            Theme(name: "theme\(index)", tokens: names.enumerated().map { Token(name: $1, value: "#\(String(format: "%06x", ($0 * 2_654_435) % 0xFFFFFF))") })
        }
        return Palette(name: "big", themes: theme, checks: [Check(id: "all", foreground: "t*", background: "t*", level: .AAA)])
    }

    @Test func tooManyChecksAreRefusedBeforeAnyWork() {
        let report = Auditor(limits: .init(maximumChecks: 1_000)).audit(Self.palette(themes: 3, tokens: 30))
        #expect(report.themes.isEmpty)
        #expect(report.problems.map(\.message) == ["the audit would measure at least 1740 checks (themes × checks × expanded rules); the limit is 1000 (--max-pairs). Audit fewer themes (--theme, ?theme=) or narrow the rules"])
    }

    @Test func onlyTheFirstFailuresGetSuggestions() {
        let report = Auditor(limits: .init(maximumSuggestions: 3)).audit(Self.palette(themes: 1, tokens: 8))
        let failing = report.themes[0].results.filter { $0.verdict == .fail }
        #expect(failing.count > 3)
        #expect(failing.prefix(3).allSatisfy { $0.suggestions?.notes?.contains("suggestions omitted: limit 3 per request") != true })
        #expect(failing.dropFirst(3).allSatisfy { $0.suggestions?.notes == ["suggestions omitted: limit 3 per request"] && $0.fixes == nil })
    }

    /// Suggestions computed on several threads after the checks give the very report computed
    /// in place, in order, with the same per-request limit (two themes, so results are put
    /// back into the right theme).
    @Test func parallelSuggestionsGiveTheSameReport() {
        let palette = Self.palette(themes: 2, tokens: 14)
        for maximum in [nil, 5] as [Int?] {
            var parallel = Auditor.Limits(maximumSuggestions: maximum)
            parallel.suggestionThreads = 4
            // The parallel audit first, so it computes rather than recalls (suggestions are cached).
            let together = Auditor(limits: parallel).audit(palette)
            let inOrder = Auditor(limits: .init(maximumSuggestions: maximum)).audit(palette)
            #expect(inOrder.themes.flatMap(\.results).filter { $0.suggestions != nil }.count > 5)
            #expect(AuditReport(palettes: [together]).compactJSON() == AuditReport(palettes: [inOrder]).compactJSON())
        }
    }

    /// The size bound refuses only audits that would really render larger: each check adds at
    /// least `bytesPerCheck` bytes, even with one-letter names and nothing failing.
    @Test func bytesPerCheckIsALowerBound() {
        func rendered(_ checks: Int, fail: Bool) -> (json: Int, html: Int) {
            let palette = Palette(name: "x", themes: [Theme(name: "l", tokens: [Token(name: "a", value: "#000"), Token(name: "b", value: fail ? "#111" : "#fff")])],
                                  checks: (0..<checks).map { Check(id: "\($0 % 10)", foreground: "a", background: "b") })
            let report = AuditReport(palettes: [Auditor(limits: .init(maximumSuggestions: 0)).audit(palette)])
            return (report.compactJSON().count, HTMLReport(title: "x", generated: "now").render(report).utf8.count)
        }
        for fail in [false, true] {
            let one = rendered(1, fail: fail), many = rendered(101, fail: fail)
            #expect((many.json - one.json) / 100 >= Auditor.Limits.Rendering.json.bytesPerCheck)
            #expect((many.html - one.html) / 100 >= Auditor.Limits.Rendering.html.bytesPerCheck)
        }
    }

    @Test func anAuditBoundToRenderTooLargeIsRefusedBeforeAnyWork() {
        var limits = Auditor.Limits()
        limits.maximumOutputBytes = 100_000
        limits.rendering = .html
        let report = Auditor(limits: limits).audit(Self.palette(themes: 1, tokens: 30))
        #expect(report.themes.isEmpty)
        #expect(report.problems.map(\.message) == ["the response would be at least 509.8 KiB (870 checks × 600 bytes in html); the limit is 97.7 KiB. Audit fewer themes (?theme=) or narrow the rules"])
    }

    @Test func aStoppedAuditEndsAtTheNextCheckAndSaysSo() {
        final class Counter: @unchecked Sendable {  // one audit, one thread
            var asked = 0
        }
        let counter = Counter()
        let limits = Auditor.Limits(shouldStop: {
            counter.asked += 1
            return counter.asked > 10
        })
        let report = Auditor(limits: limits).audit(Self.palette(themes: 3, tokens: 30))
        #expect(counter.asked == 11)
        #expect(report.themes.isEmpty)
        #expect(report.problems.map(\.code) == [.limitExceeded])
        #expect(report.problems.first?.message.contains("stopped before it finished") == true)
    }
}

/// Style Dictionary's object colors, read as its built-in transforms (tinycolor2) read them.
@Suite struct StyleDictionaryObjectColorTests {
    func object(_ text: String) throws -> [JSONMember] {
        try #require(try JSONParser.parse(text).members)
    }

    @Test(arguments: [
        (#"{"h": 0, "s": 1, "l": 0.5}"#, "hsl(0 100% 50%)"),
        (#"{"h": 210, "s": 50, "l": 40}"#, "hsl(210 50% 40%)"),
        (#"{"h": 360, "s": "50%", "l": "25%"}"#, "hsl(0 50% 25%)"),
        (#"{"h": "50%", "s": 1, "l": 1}"#, "hsl(180 100% 100%)"),
        (#"{"r": 255, "g": 128, "b": 0, "a": 0.5}"#, "rgb(255 128 0 / 0.5)"),
        (#"{"r": 300, "g": -4, "b": "50%", "a": 2}"#, "rgb(255 0 127.5)"),
        (#"{"h": 120, "s": 1, "v": 0.5}"#, "hwb(120 0% 50%)"),
    ])
    func literalChannels(text: String, css: String) throws {
        #expect(PaletteDecoder.tinycolorObject(try object(text)) == css)
    }

    @Test func referencesAndMixedShapesAreNotRead() throws {
        #expect(PaletteDecoder.tinycolorObject(try object(#"{"h": "{hue.red}", "s": 1, "l": 0.5}"#)) == nil)
        #expect(PaletteDecoder.tinycolorObject(try object(#"{"h": 0, "s": 1, "l": 0.5, "g": 3}"#)) == nil)
        #expect(PaletteDecoder.tinycolorObject(try object(#"{"r": 1, "g": 2}"#)) == nil)
    }

    @Test func aTokenReadThisWayCarriesItsAssumptionAndMeasures() throws {
        let text = #"{"fg": {"value": {"h": 0, "s": 0, "l": 0}, "type": "color"}, "bg": {"value": {"r": 255, "g": 255, "b": 255}, "type": "color"}}"#
        let (palette, problems) = PaletteDecoder.decode(text, file: "sd.json")
        #expect(problems.allSatisfy { $0.isWarning })
        let theme = try #require(palette?.themes.first)
        #expect(theme.tokens.first { $0.name == "fg" }?.assumed?.contains("tinycolor2") == true)
        var resolver = ThemeResolver(palette: try #require(palette), theme: theme)
        let fg = try resolver.resolve("fg").get(), bg = try resolver.resolve("bg").get()
        #expect(fg.hex == "#000000" && bg.hex == "#ffffff")
    }
}

/// What may be a color among untyped values: a reference standing in a color's place is one; a
/// reference inside another kind of value (a shadow) is not.
@Suite struct CouldBeColorTests {
    @Test func referencesCountWhereAColorWouldStand() {
        #expect(PaletteDecoder.couldBeColor("{ink}"))
        #expect(PaletteDecoder.couldBeColor("rgba({ink}, 0.5)"))
        #expect(PaletteDecoder.couldBeColor("color-mix(in srgb, {ink} 40%, {paper})"))
        #expect(!PaletteDecoder.couldBeColor("0px 0px 0px 1px {gray} inset"))
        #expect(!PaletteDecoder.couldBeColor("prettier --check '**/*.{js,jsx,ts}'"))
        #expect(!PaletteDecoder.couldBeColor("{space.2} * 2"))
    }
}
