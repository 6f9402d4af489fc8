import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing
import TestSupport

/// The repository's palettes/, audited: what the seed documents claim and what is true.
@Suite struct SeedPaletteAuditTests {
    static let palettesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("palettes").path

    func report() -> AuditReport {
        let loaded = PaletteLoader.load(paths: [Self.palettesDirectory])
        return AuditReport(palettes: loaded.map { item in
            item.palette.map { Auditor().audit($0, problems: item.problems) } ?? Auditor.unreadable(name: item.file, file: item.file, problems: item.problems)
        })
    }

    @Test func everyPaletteIsClean() {
        let report = report()
        #expect(report.palettes.count >= 2)
        #expect(report.problems.isEmpty, "\(report.problems)")
        for palette in report.palettes {
            #expect(palette.source?.isEmpty == false, "\(palette.name) must name its source")
            #expect(!palette.themes.isEmpty)
        }
    }

    /// The Peptide Fox badge table (seed 000, lines 492–498) against the measurement.
    @Test(arguments: [
        ("blue", 8.489743903584975, true, "claimed 7.2:1 AAA; measured 8.48:1 — not 7.2:1 (AAA holds)"),
        ("purple", 6.405969418015705, false, "claimed 6.8:1 AAA; measured 6.40:1 — not 6.8:1, fails AAA (needs 7:1)"),
        ("slate", 11.866432560279284, true, "claimed 11.3:1 AAA; measured 11.86:1 — not 11.3:1 (AAA holds)"),
        ("teal", 8.40873921807544, true, "claimed 8.1:1 AAA; measured 8.40:1 — not 8.1:1 (AAA holds)"),
        ("red", 6.802728419777387, false, "claimed 6.5:1 AAA; measured 6.80:1 — not 6.5:1, fails AAA (needs 7:1)"),
        ("emerald", 6.775076101423649, false, "claimed 7.9:1 AAA; measured 6.77:1 — not 7.9:1, fails AAA (needs 7:1)"),
        ("amber", 6.376792569037283, true, "claimed 5.2:1 AA; measured 6.37:1 — not 5.2:1 (AA holds)"),
    ])
    func peptideFoxBadgeClaims(badge: String, ratio: Double, passes: Bool, claim: String) throws {
        let palette = try #require(report().palettes.first { $0.name == "peptide-fox" })
        let light = try #require(palette.themes.first { $0.name == "light" })
        let result = try #require(light.results.first { $0.id == "badge:\(badge)" })
        #expect(abs(result.ratio - ratio) < 1e-12)
        #expect(result.verdict == (passes ? .pass : .fail))
        #expect(result.claim?.supported == false)
        #expect(result.claim?.message == claim)
    }

    @Test func peptideFoxCoreColors() throws {
        let palette = try #require(report().palettes.first { $0.name == "peptide-fox" })
        let light = try #require(palette.themes.first { $0.name == "light" })
        let dark = try #require(palette.themes.first { $0.name == "dark" })
        let body = try #require(light.results.first { $0.id == "body-text-on-page" })
        #expect(body.foreground.hex == "#0f172a")
        #expect(body.display == "17.85:1")
        #expect(body.achieved == .AAA)
        #expect(try #require(dark.results.first { $0.id == "body-text-on-page" }).foreground.hex == "#e2e8f0")
        // The page is iOS's system background ({ios.systemBackground}), white and black, and its
        // value's provenance (community transcriptions: Apple publishes no number) is reported
        // on every check that uses it.
        #expect(body.background.hex == "#ffffff")
        #expect(try #require(dark.results.first { $0.id == "body-text-on-page" }).background.hex == "#000000")
        #expect(!palette.assumptions.contains { $0.token == "surface.page" })
        #expect(body.assumed?.contains { $0.hasPrefix("ios.systemBackground is the iOS 13-era UIKit value") } == true)
    }

    @Test func trainProgressTrackFailsNonText() throws {
        let palette = try #require(report().palettes.first { $0.name == "train" })
        let result = try #require(palette.themes[0].results.first { $0.id == "progress-inactive-on-background" })
        #expect(result.verdict == .fail)
        #expect(result.criterion == "1.4.11")
        #expect(result.display == "1.21:1")
    }

    @Test func oneBrokenPaletteDoesNotStopTheOthers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contrast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("a-broken.json"))
        try Data(##"{"name": "ok", "themes": {"light": {"tokens": {"a": "#000", "b": "#fff"}}}, "checks": [{"foreground": "a", "background": "b"}]}"##.utf8)
            .write(to: directory.appendingPathComponent("b-ok.json"))
        let loaded = PaletteLoader.load(paths: [directory.path])
        #expect(loaded.count == 2)
        #expect(loaded[0].palette == nil && loaded[0].problems.first?.code == .invalidJSON)
        #expect(loaded[1].palette?.name == "ok")
    }
}

@Suite struct BaselineTests {
    func audit(_ fg: String, level: String = "AA") throws -> AuditReport {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"fg": "\##(fg)", "bg": "#ffffff"}}}, "checks": [{"id": "c", "foreground": "fg", "background": "bg", "level": "\##(level)"}]}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        return AuditReport(palettes: [Auditor().audit(try #require(palette), problems: problems)])
    }

    @Test func regressionsImprovementsAddedRemoved() throws {
        let before = Baseline(try audit("#000000"))  // 21:1, AAA
        // Still passes AA, but falls from AAA to AA: a regression.
        let dropped = before.compare(with: try audit("#666666"))
        #expect(dropped.regressions.map(\.key) == ["p/light/c"])
        #expect(dropped.regressions.first?.message == "p › light › c: AAA → AA (21.00:1 → 5.74:1)")
        let failing = before.compare(with: try audit("#999999"))
        #expect(failing.regressions.first?.after.verdict == .fail)
        #expect(failing.regressions.first?.message.contains("pass → fail") == true)
        let improved = Baseline(try audit("#999999")).compare(with: try audit("#000000"))
        #expect(improved.improvements.count == 1 && improved.regressions.isEmpty)
        let same = before.compare(with: try audit("#000000"))
        #expect(same.unchanged == 1 && same.regressions.isEmpty && same.improvements.isEmpty)
    }

    /// Theme `a` with check `b/c` and theme `a/b` with check `c` were one key, `k/a/b/c`: the
    /// second overwrote the first, and a regression of the first passed with exit 0.
    @Test func keysOfNamesWithSlashesDoNotCollide() throws {
        func audit(_ h: String) throws -> AuditReport {
            let text = ##"{"name": "k", "themes": {"a": {"tokens": {"f": "#000", "g": "#fff", "h": "#000"}}, "a/b": {"tokens": {"f": "#000", "g": "#fff", "h": "\##(h)"}}}, "checks": [{"id": "b/c", "foreground": "f", "background": "g"}, {"id": "c", "foreground": "h", "background": "g"}]}"##
            let (palette, problems) = PaletteDecoder.decode(text)
            return AuditReport(palettes: [Auditor().audit(try #require(palette), problems: problems)])
        }
        let before = Baseline(try audit("#000"))
        #expect(before.entries.count == 4)
        #expect(Set(before.entries.keys) == ["k/a/b~1c", "k/a/c", "k/a~1b/b~1c", "k/a~1b/c"])
        let after = before.compare(with: try audit("#eee"))
        #expect(after.regressions.map(\.key) == ["k/a~1b/c"])
        // A baseline written with the old keys is keyed again from its entries' own fields.
        var old = before
        // (Old keys collide: of `k/a/b/c`'s two entries the file kept one.)
        old.entries = Dictionary(before.entries.values.map { ("\($0.palette)/\($0.theme)/\($0.check)", $0) }, uniquingKeysWith: { first, _ in first })
        let reread = try Baseline.decode(try old.encoded())
        #expect(reread.entries.count == 3)
        #expect(reread.entries.allSatisfy { $0.key == $0.value.key })
        #expect(reread.entries["k/a/c"] != nil && reread.entries["k/a~1b/b~1c"] != nil)
    }

    /// A `--checks` document that reuses an id of the palette's own checks would put two results
    /// under one baseline key: it is refused, with both places; the sidecar given again adds
    /// nothing twice.
    @Test func aChecksDocumentMayNotReuseAPaletteCheckID() throws {
        let directory = Scratch.directory("dup-ids")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let palette = directory.appendingPathComponent("p.json").path
        try ##"{"name": "p", "themes": {"light": {"tokens": {"a": "#000", "b": "#fff", "c": "#999"}}}, "checks": [{"id": "x", "foreground": "a", "background": "b"}]}"##
            .write(toFile: palette, atomically: true, encoding: .utf8)
        let extra = directory.appendingPathComponent("extra.json").path
        try ##"{"checks": [{"id": "x", "foreground": "c", "background": "b"}, {"id": "y", "foreground": "c", "background": "b"}]}"##
            .write(toFile: extra, atomically: true, encoding: .utf8)
        let loaded = try #require(PaletteLoader.loadSources(paths: [palette], checks: extra).palettes.first)
        #expect(loaded.palette?.checks.map(\.id) == ["x", "y"])
        #expect(loaded.palette?.checks.first?.foreground == "a")
        let problem = try #require(loaded.problems.first { $0.code == .duplicateName })
        #expect(problem.file == extra && problem.message.contains("check id \"x\" is also a check of palette 'p' (\(palette):1:"))

        // The same check in an organization's rules and in the palette: run once, no problem.
        let same = directory.appendingPathComponent("same.json").path
        try ##"{"checks": [{"foreground": "a", "background": "b"}]}"##.write(toFile: same, atomically: true, encoding: .utf8)
        try ##"{"name": "q", "themes": {"light": {"tokens": {"a": "#000", "b": "#fff"}}}, "checks": [{"foreground": "a", "background": "b"}]}"##
            .write(toFile: palette, atomically: true, encoding: .utf8)
        let once = try #require(PaletteLoader.loadSources(paths: [palette], checks: same).palettes.first)
        #expect(once.palette?.checks.map(\.id) == ["a-on-b"] && once.problems.isEmpty, "\(once.problems.map(\.message))")

        let tokens = directory.appendingPathComponent("t.tokens.json").path
        try ##"{"a": {"$type": "color", "$value": "#000"}, "b": {"$type": "color", "$value": "#fff"}}"##.write(toFile: tokens, atomically: true, encoding: .utf8)
        let sidecar = directory.appendingPathComponent("t.checks.json").path
        try ##"{"checks": [{"id": "s", "foreground": "a", "background": "b"}]}"##.write(toFile: sidecar, atomically: true, encoding: .utf8)
        let twice = try #require(PaletteLoader.loadSources(paths: [tokens], checks: sidecar).palettes.first)
        #expect(twice.palette?.checks.map(\.id) == ["s"])
        #expect(!twice.problems.contains { $0.code == .duplicateName })
    }

    /// Found by a new user's trial: when both sides alias one token, every fix edited that
    /// token's value (the "both" fix set it to two values at once), and no fix could change the
    /// pair. No fix is offered then, and a note says why; the colors stay, as what each side
    /// needs once it has a value of its own.
    @Test func aPairOfOneValueGetsNoFixThatMovesBothSides() throws {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"gray": "#777777", "white": "#ffffff", "muted": "{gray}", "chip": "{gray}", "page": "{white}"}}}, "checks": [{"id": "chip", "foreground": "muted", "background": "chip"}, {"id": "page", "foreground": "muted", "background": "page"}]}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        #expect(problems.isEmpty)
        let results = Auditor().audit(try #require(palette)).themes[0].results
        let chip = try #require(results.first { $0.id == "chip" })
        #expect(chip.verdict == .fail && chip.fixes == nil)
        #expect(chip.suggestions?.foreground.isEmpty == false)
        #expect(chip.suggestions?.notes?.contains { $0.hasPrefix("\"muted\" and \"chip\" are one value (gray)") } == true, "\(chip.suggestions?.notes ?? [])")
        // Two tokens of their own: fixes as before, each at its own token's value.
        let page = try #require(results.first { $0.id == "page" })
        #expect(page.verdict == .fail && page.fixes?.first?.changes.first?.pointer.description == "/themes/light/tokens/gray")
        #expect(page.suggestions?.notes == nil)
    }

    /// Peptide Fox's `text.secondary` ({ios.secondaryLabel}) on `surface.page`
    /// ({ios.systemBackground}) was called "one value (ios.secondaryLabel)" and given no fix:
    /// every built-in system color had the document's root as its place, so any two compared
    /// equal. Two tokens naming system colors, the same one or not, are two values, and a fix
    /// goes to the token that names the system color (its `{ios.…}` is what is replaced).
    @Test func tokensNamingSystemColorsAreTheirOwnValues() throws {
        let text = ##"{"name": "p", "themes": {"light": {"backdrop": "#ffffff", "tokens": {"label": "{ios.secondaryLabel}", "caption": "{ios.secondaryLabel}", "page": "{ios.systemBackground}", "grouped": "{ios.secondarySystemBackground}"}}}, "checks": [{"id": "label", "foreground": "label", "background": "page"}, {"id": "same", "foreground": "label", "background": "caption", "usage": "non-text"}, {"id": "literal", "foreground": "{ios.secondaryLabel}", "background": "grouped"}]}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        #expect(problems.isEmpty, "\(problems.map(\.message))")
        let results = Auditor().audit(try #require(palette)).themes[0].results
        for result in results {
            #expect(result.suggestions?.notes?.contains { $0.contains("one value") } != true, "\(result.id): \(result.suggestions?.notes ?? [])")
        }
        let label = try #require(results.first { $0.id == "label" })
        #expect(label.verdict == .fail && label.foreground.pointer?.description == "/themes/light/tokens/label")
        let fix = try #require(label.fixes?.first { $0.kind == "foreground" })
        #expect(fix.changes.map { "\($0.pointer) \($0.token ?? "-")" } == ["/themes/light/tokens/label label"])
        // The two tokens naming one system color: each fix moves one of them only.
        let same = try #require(results.first { $0.id == "same" })
        #expect(same.verdict == .fail && same.fixes?.isEmpty == false)
        #expect(same.fixes?.allSatisfy { fix in fix.changes.map(\.pointer.description) == ["foreground": ["/themes/light/tokens/label"], "background": ["/themes/light/tokens/caption"]][fix.kind, default: ["/themes/light/tokens/label", "/themes/light/tokens/caption"]] } == true,
                "\(same.fixes ?? [])")
        // A check naming the system color itself: the fix is the check's own literal.
        let literal = try #require(results.first { $0.id == "literal" })
        #expect(literal.fixes?.first { $0.kind == "foreground" }?.changes.first?.pointer.description == "/checks/2/foreground")
        // The seed palette's pair.
        let seed = SeedPaletteAuditTests().report().palettes.first { $0.name == "peptide-fox" }?.themes.first { $0.name == "light" }
        let secondary = try #require(seed?.results.first { $0.id == "secondary-label-on-page" })
        #expect(secondary.suggestions?.notes?.contains { $0.contains("one value") } == false)
        #expect(secondary.fixes?.first?.changes.first?.token == "text.secondary")
    }

    /// Found by a new user's trial: of a two-token alias cycle the ledger counted one member as
    /// read ("read 3 of 4"), though neither can be read; an alias of a broken token likewise.
    @Test func everyMemberOfABrokenChainIsCountedAsNotRead() throws {
        let text = ##"{"c": {"$type": "color", "loop1": {"$value": "{c.loop2}"}, "loop2": {"$value": "{c.loop1}"}, "bad": {"$value": "#12"}, "viaBad": {"$value": "{c.bad}"}, "a": {"$value": "#000"}, "b": {"$value": "#fff"}}}"##
        let (palette, problems) = PaletteDecoder.decode(bytes: Array(text.utf8), file: "t.tokens.json")
        let report = Auditor().audit(try #require(palette), problems: problems)
        let ledger = try #require(report.ledger)
        #expect(ledger.read == 2, "\(ledger)")
        let reasons = Dictionary(uniqueKeysWithValues: ledger.notRead.map { ($0.name, $0.reason ?? "") })
        #expect(reasons["c.loop1"] == "its alias chain cannot be read: alias cycle: c.loop1 → c.loop2 → c.loop1", "\(reasons)")
        #expect(reasons["c.loop2"]?.hasPrefix("alias cycle") == true)
        #expect(reasons["c.viaBad"]?.hasPrefix("its alias chain cannot be read: token \"c.bad\" has \"#12\"") == true, "\(reasons)")
        #expect(Set(reasons.keys) == ["c.loop1", "c.loop2", "c.bad", "c.viaBad"])
    }

    /// Found by a hostile probe: a translucent backdrop (`"backdrop": "#00000080"`) was taken
    /// and ignored (the result was the range over unknown backdrops) while the report named it
    /// as the backdrop used. `contrast check` refuses one; the audit now does too.
    @Test func aTranslucentBackdropIsRefusedNotIgnored() throws {
        let documents = [
            ##"{"name": "p", "themes": {"light": {"backdrop": "#00000080", "tokens": {"fg": "#000000", "bg": "#ffffff80"}}}, "checks": [{"id": "c", "foreground": "fg", "background": "bg"}]}"##,
            ##"{"name": "p", "themes": {"light": {"tokens": {"fg": "#000000", "bg": "#ffffff80"}}}, "checks": [{"id": "c", "foreground": "fg", "background": "bg", "backdrop": "#00000080"}]}"##,
        ]
        for text in documents {
            let (palette, problems) = PaletteDecoder.decode(text)
            #expect(problems.isEmpty, "\(text): \(problems.map(\.message))")
            let report = Auditor().audit(try #require(palette))
            let unresolved = try #require(report.themes.first?.unresolved?.first, "\(text)")
            #expect(unresolved.problem.contains("\"#00000080\", is translucent; a backdrop is the opaque surface underneath"), "\(unresolved.problem)")
            #expect(report.themes.first?.results.isEmpty == true)
        }
    }

    @Test func baselineIsStableAndRoundTrips() throws {
        let baseline = Baseline(try audit("#000000"))
        let data = try baseline.encoded()
        #expect(try Baseline(try audit("#000000")).encoded() == data)
        let decoded = try Baseline.decode(data)
        #expect(decoded.entries == baseline.entries)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        #expect(throws: BaselineError.self) { _ = try Baseline.decode(Data("{}".utf8)) }
        // Broken JSON is placed at its line and column, with what was expected.
        do {
            _ = try Baseline.decode(Data("{\"checks\": [1,\n 2".utf8))
            Issue.record("a broken baseline decoded")
        } catch let error as BaselineError {
            #expect(error.code == .invalidJSON && error.description.hasPrefix("not valid JSON at 2:"))
        }
    }
}

@Suite struct MatrixTests {
    @Test func matrixAgreesWithPairwise() {
        var generator = SeededGenerator(seed: 21)
        let entries = (0..<60).map { i in
            ContrastMatrix.Entry(name: "t\(i)", color: SRGB(red: .random(in: 0...1, using: &generator), green: .random(in: 0...1, using: &generator), blue: .random(in: 0...1, using: &generator)))
        }
        let matrix = ContrastMatrix(entries: entries)
        #expect(matrix.pairCount == 60 * 59)
        let summaries = matrix.summarize(partners: 3)
        for (i, summary) in summaries.enumerated() {
            var counts = [0, 0, 0, 0]
            var best: [(Double, String)] = []
            for (j, other) in entries.enumerated() where j != i {
                let ratio = entries[i].color.contrastRatio(with: other.color)
                switch AchievedLevel(ratio: ratio) {
                case .AAA: counts[0] += 1
                case .AA: counts[1] += 1
                case .AALarge: counts[2] += 1
                default: counts[3] += 1
                }
                best.append((ratio, other.name))
            }
            #expect([summary.aaa, summary.aa, summary.aaLarge, summary.none] == counts, "\(generator.replay)")
            let top = best.sorted { $0.0 > $1.0 }.prefix(3)
            #expect(summary.bestPartners.map(\.token) == top.map(\.1), "\(generator.replay)")
            for (partner, expected) in zip(summary.bestPartners, top) {
                #expect(abs(partner.ratio - expected.0) < 1e-12, "\(generator.replay)")
            }
        }
        var streamed = 0
        matrix.forEachPair { i, j, ratio in
            streamed += 1
            if streamed % 97 == 0 { #expect(abs(ratio - entries[i].color.contrastRatio(with: entries[j].color)) < 1e-12, "\(generator.replay)") }
        }
        #expect(streamed == matrix.pairCount)
    }

    /// A gradient token made the whole matrix fail (Bootstrap's `--bs-gradient`): it is left
    /// out with a reason, in the tokens' order among the translucent ones.
    @Test func gradientTokensAreLeftOutWithAReason() throws {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"ink": "#111111", "sheen": {"$type": "gradient", "$value": "linear-gradient(#fff, #000)"}, "veil": "#00000080", "paper": "#ffffff"}}}}"##
        let (palette, problems) = PaletteDecoder.decode(text)
        #expect(problems.isEmpty, "\(problems.map(\.message))")
        let matrix = try ContrastMatrix(palette: try #require(palette), theme: nil)
        #expect(matrix.entries.map(\.name) == ["ink", "paper"])
        #expect(matrix.skipped.map(\.token) == ["sheen", "veil"])
        #expect(matrix.skipped.first?.reason == "a gradient, not one color (an audit check judges text on it at its worst point)")
    }

    @Test func translucentTokensNeedABackdrop() throws {
        let entries = [ContrastMatrix.Entry(name: "a", color: .black), ContrastMatrix.Entry(name: "b", color: try SRGB(css: "#0000ff80"))]
        #expect(ContrastMatrix(entries: entries).skipped.map(\.token) == ["b"])
        #expect(ContrastMatrix(entries: entries, backdrop: .white).entries.count == 2)
    }
}

@Suite struct ClaimTests {
    @Test(arguments: [
        (Claim(ratio: 4.5), 4.5412, true),
        (Claim(ratio: 4.5), 4.4989, true),   // rounds to 4.5: documents round
        (Claim(ratio: 4.6), 4.5412, false),
        (Claim(minimumRatio: 4.5), 4.4989, false),
        (Claim(level: "AA"), 4.4989, false),
        (Claim(level: "AAA"), 7.0, true),
    ])
    func claims(claim: Claim, ratio: Double, supported: Bool) {
        #expect(ClaimCheck.evaluate(claim, ratio: ratio, usage: .text).supported == supported)
    }
}

@Suite struct PairReportJSONTests {
    /// Found by a new user's trial: `check 'rgb(118.6 118.6 118.6)' white` printed `#777777 on
    /// #ffffff`, 4.50:1, AA pass, while `check '#777777' white` is 4.47:1, a fail: a color
    /// copied from the output did not pass. The report names the inputs whose hex is rounded,
    /// and the text says what the hex itself gives.
    @Test func aColorThatIsNot8BitSaysItsHexIsRounded() throws {
        let white = try CSSColor.parse("white")
        let report = PairReport(foreground: try CSSColor.parse("rgb(118.6 118.6 118.6)"), background: white)
        #expect(report.foreground == "#777777" && report.display == "4.50:1" && report.pass)
        #expect(report.rounded == ["foreground"])
        let text = report.text(requirement: ContrastRequirement(usage: .text), color: false)
        #expect(text.contains("the foreground is not 8-bit: the hex shown is the nearest 8-bit color, and the ratio above is the color's own; #777777 on #ffffff itself is 4.47:1 (text AA: fail)"), "\(text)")
        #expect(String(decoding: report.jsonBytes(), as: UTF8.self).contains(#""rounded":["foreground"]"#))
        for exact in ["#777777", "rgb(119 119 119)", "hsl(0 0% 100%)", "rgb(0 0 0 / 0.2)"] {
            #expect(PairReport(foreground: try CSSColor.parse(exact), background: white).rounded == nil, "\(exact)")
        }
        #expect(!(try CSSColor.parse("rgb(0 0 0 / 0.9)")).color.isExactIn8Bit)
        // Figma stores channels as float32: 92/255 is 2e-6 of a level off, and is 8-bit.
        #expect(SRGB(red: Double(Float(92.0 / 255)), green: Double(Float(51.0 / 255)), blue: Double(Float(207.0 / 255)), alpha: 1).isExactIn8Bit)
    }

    /// The hand-written JSON of the HTTP hot path is the document JSONEncoder writes.
    @Test func handWrittenJSONMatchesTheEncoder() throws {
        var generator = SeededGenerator(seed: 22)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for index in 0..<300 {
            let fg = SRGB(rgb24: UInt32.random(in: 0...0xFFFFFF, using: &generator), alpha: index % 3 == 0 ? 0.5 : 1)
            let bg = SRGB(rgb24: UInt32.random(in: 0...0xFFFFFF, using: &generator), alpha: index % 5 == 0 ? 0.4 : 1)
            let backdrop: ParsedColor? = index % 10 == 0 ? ParsedColor(color: .white, notation: "hex") : nil
            let report = PairReport(foreground: ParsedColor(color: fg, notation: "hex"), background: ParsedColor(color: bg, notation: "hex"),
                                    backdrop: backdrop, requirement: ContrastRequirement(usage: index % 2 == 0 ? .text : .nonText, level: .AAA))
            let expected = try JSONSerialization.jsonObject(with: try encoder.encode(report)) as? NSDictionary
            let actual = try JSONSerialization.jsonObject(with: Data(report.jsonBytes())) as? NSDictionary
            #expect(expected == actual, "\(generator.replay): \(fg.hex) on \(bg.hex)")
        }
    }
}

@Suite struct AuditJSONTests {
    /// The hand-written audit JSON is the document JSONEncoder writes, for every palette and
    /// for reports with problems, ranges, claims, suggestions and a comparison.
    @Test func handWrittenAuditJSONMatchesTheEncoder() throws {
        var reports = PaletteLoader.load(paths: [SeedPaletteAuditTests.palettesDirectory]).compactMap { loaded in
            loaded.palette.map { Auditor().audit($0, problems: loaded.problems) }
        }
        let tricky = ##"{"name": "t/\"q\"", "themes": {"a": {"tokens": {"fg": "#777", "bg": "rgb(0 0 0 / 0.5)", "x": "{nope}", "p3": "color(display-p3 1 0 0)"}}}, "checks": [{"id": "c", "foreground": "fg", "background": "bg", "apca": 60, "claim": {"minimumRatio": 4.5, "quote": "\n≥ 4.5"}}, {"foreground": "p3", "background": "#fff", "fontSize": "24px", "fontWeight": 700}]}"##
        let (palette, problems) = PaletteDecoder.decode(tricky, file: "tricky.json")
        reports.append(Auditor().audit(try #require(palette), problems: problems))
        var report = AuditReport(palettes: reports)
        report.comparison = Baseline(AuditReport(palettes: Array(reports.dropLast()))).compare(with: report)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let expected = try JSONSerialization.jsonObject(with: try encoder.encode(report)) as? NSDictionary
        let actual = try JSONSerialization.jsonObject(with: Data(report.compactJSON())) as? NSDictionary
        #expect(expected == actual)
        #expect(expected != nil)
        // The pretty form (the CLI's JSON and audit.json) is JSONEncoder's pretty layout, byte
        // for byte, so files written before and after the hand-written encoder compare equal.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let pretty = String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        #expect(report.prettyJSON() == pretty)
        // Written in pieces (as the CLI writes a large audit to its file), it is the same text.
        var pieces: [[UInt8]] = []
        report.writePrettyJSON { pieces.append($0) }
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == pretty)
    }

    @Test func aLargeAuditIsWrittenInPiecesThatJoinToTheWhole() throws {
        let tokens = (0..<400).map { "\"t\($0)\": \"#\(String(format: "%06x", $0 * 40_503 % 0xFFFFFF))\"" }.joined(separator: ",")
        let checks = (0..<3_000).map { "{\"foreground\": \"t\($0 % 400)\", \"background\": \"t\(($0 * 7 + 1) % 400)\"}" }.joined(separator: ",")
        let (palette, problems) = PaletteDecoder.decode("{\"name\": \"big\", \"tokens\": {\(tokens)}, \"checks\": [\(checks)]}", file: "big.json")
        let report = AuditReport(palettes: [Auditor().audit(try #require(palette), problems: problems)])
        var pieces: [[UInt8]] = []
        report.writePrettyJSON { pieces.append($0) }
        #expect(pieces.count > 1)
        #expect(pieces.dropLast().allSatisfy { $0.count >= 1 << 20 })
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == report.prettyJSON())
    }
}

/// Where each fix goes (in the audit model, so every edge and the page share it), and the
/// report's themes side by side.
@Suite struct HTMLReportEditingTests {
    @Test func fixesNameTheValueTheyReplace() throws {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"ink": "#999999", "link": "{ink}", "paper": "#ffffff"}}, "dark": {"extends": "light", "tokens": {"paper": "#eeeeee"}}}, "checks": [{"id": "c", "foreground": "link", "background": "paper"}], "badges": [{"name": "b", "text": "#aaaaaa", "background": "#ffffff"}]}"##
        let (palette, problems) = PaletteDecoder.decode(text, file: nil)
        #expect(problems.isEmpty)
        let report = Auditor().audit(try #require(palette))
        func fixes(_ theme: String, _ id: String) -> [String: [SuggestedFix.Change]] {
            let result = report.themes.first { $0.name == theme }?.results.first { $0.id == id }
            return Dictionary(uniqueKeysWithValues: (result?.fixes ?? []).map { ($0.kind, $0.changes) })
        }
        // An alias is fixed where its color is written (the end of the chain), in the theme defining it.
        let light = fixes("light", "c")
        #expect(light["foreground"]?.map(\.pointer.description) == ["/themes/light/tokens/ink"] && light["foreground"]?.first?.token == "ink")
        #expect(light["background"]?.first?.pointer.description == "/themes/light/tokens/paper" && light["background"]?.first?.override == nil)
        let dark = fixes("dark", "c")
        #expect(dark["background"]?.first?.pointer.description == "/themes/dark/tokens/paper")
        // Dark inherits ink from light: its fix adds an override to dark rather than changing light.
        #expect(dark["foreground"]?.first?.pointer.description == "/themes/dark/tokens/ink" && dark["foreground"]?.first?.override == true)
        // A literal color in a badge is fixed in the badge.
        let badge = fixes("light", "badge:b")["foreground"]?.first
        #expect(badge?.pointer.description == "/badges/0/text" && badge?.token == nil && badge?.value.hasPrefix("#") == true)
        // The report names each fix; the page applies it from the JSON.
        let html = HTMLReport(title: "t", generated: "now").render(AuditReport(palettes: [report]))
        #expect(html.contains("data-fix=\"foreground\"") && html.contains("data-fix=\"both\"") && !html.contains("data-apply"))
        #expect(html.contains("id=\"palette-p-side-by-side\""))
        #expect(html.contains("<tr data-check=\"c\"><th scope=\"row\">c</th>"))
    }
}

/// Issue #50: a translucent color's chip in the Colors column shows its alpha over a
/// checkerboard and the opaque color it is measured as; an opaque one is a plain chip.
@Suite struct HTMLReportTranslucentChipTests {
    @Test func aTranslucentChipShowsItsAlphaAndWhatIsMeasured() throws {
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"faint": "#ffffff1a", "ink": "#000000"}}}, "checks": [{"id": "faint-on-ink", "foreground": "faint", "background": "ink"}]}"##
        let (palette, problems) = PaletteDecoder.decode(text, file: nil)
        #expect(problems.isEmpty)
        let report = Auditor().audit(try #require(palette))
        #expect(report.themes[0].results[0].composited?.foreground == "#1a1a1a")
        let html = HTMLReport(title: "t", generated: "now").render(AuditReport(palettes: [report]))
        let row = try #require(html.components(separatedBy: "<tr data-check=\"faint-on-ink\"").dropFirst().first)
        #expect(row.contains("<span class=\"chip translucent\" style=\"background:linear-gradient(#ffffff1a,#ffffff1a),var(--checker)\" aria-hidden=\"true\"></span><code>faint</code> #ffffff1a <span class=\"muted\">measured as #1a1a1a</span>"))
        #expect(row.contains("<span class=\"chip\" style=\"background:#000000\" aria-hidden=\"true\"></span><code>ink</code> #000000<"))
        #expect(html.contains(".chip.translucent { --checker:"))
    }
}

/// At scale the HTML report grows with failures, not with passing checks.
@Suite struct HTMLReportScaleTests {
    /// `passing` checks of dark ink on white and `failing` of light gray on white, in two themes.
    static func html(passing: Int, failing: Int) throws -> String {
        var checks: [String] = []
        for i in 0..<passing { checks.append(##"{"id": "ok-\##(i)", "foreground": "ink", "background": "paper"}"##) }
        for i in 0..<failing { checks.append(##"{"id": "bad-\##(i)", "foreground": "mist", "background": "paper"}"##) }
        let text = ##"{"name": "p", "themes": {"light": {"tokens": {"ink": "#111111", "mist": "#cccccc", "paper": "#ffffff"}}, "dark": {"extends": "light", "tokens": {}}}, "checks": ["## + checks.joined(separator: ",") + "]}"
        let (palette, problems) = PaletteDecoder.decode(text, file: nil)
        #expect(problems.isEmpty)
        let report = Auditor(limits: .init(maximumSuggestions: 0)).audit(try #require(palette))
        return HTMLReport(title: "t", generated: "now").render(AuditReport(palettes: [report]))
    }

    @Test func passingChecksAreFoldedOneLineEachAtScale() throws {
        let small = try Self.html(passing: 20, failing: 2)
        #expect(!small.contains("<details class=\"passing\">"))
        #expect(small.contains("<tr data-check=\"ok-3\" data-theme=\"light\" data-verdict=\"pass\">"))  // full rows, as the page expects

        let large = try Self.html(passing: 1_000, failing: 10), larger = try Self.html(passing: 2_000, failing: 10)
        #expect(large.contains("<details class=\"passing\"><summary>1000 checks that pass or are exempt in light</summary>"))
        #expect(large.contains("<tr><td>ok-7<td>#111111 on #ffffff<td>18.88:1\n"))
        #expect(large.contains("<tr data-check=\"bad-3\" data-theme=\"dark\" data-verdict=\"fail\">"))  // failures in full
        // 1,000 more passing checks in each of two themes: under 80 bytes each, side by side included.
        #expect((larger.utf8.count - large.utf8.count) / 2_000 < 80)
        #expect(larger.contains("each check that fails in some theme (2000 that pass in every theme are counted under each theme)"))
    }

    @Test func aGridTooLargeToReadIsLeftOutAndSaysSo() throws {
        var tokens: [String] = [], checks: [String] = []
        for i in 0..<60 { tokens.append(##""t\##(i)": "#0000\##(String(format: "%02x", i))""##); tokens.append(##""s\##(i)": "#ffff\##(String(format: "%02x", i))""##) }
        checks.append(##"{"id": "all", "foreground": "t*", "background": "s*"}"##)
        let text = ##"{"name": "g", "themes": {"light": {"tokens": {"## + tokens.joined(separator: ",") + ##"}}}, "checks": ["## + checks.joined(separator: ",") + "]}"
        let (palette, problems) = PaletteDecoder.decode(text, file: nil)
        #expect(problems.isEmpty)
        let html = HTMLReport(title: "t", generated: "now").render(AuditReport(palettes: [Auditor().audit(try #require(palette))]))
        #expect(html.contains("No text × surface grid: 60 text tokens × 60 surface tokens is more than 2500 cells"))
        #expect(!html.contains("<table class=\"grid\">"))
    }
}

@Suite struct HTMLTypeTests {
    @Test func interpolationEscapesUnlessItIsMarkup() {
        let name = "<img src=x onerror=\"alert(1)\">&'"
        let cell: HTML = "<td title=\"\(name)\">\(name)</td>"
        #expect(cell.text == "<td title=\"&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;\">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</td>")
        let row: HTML = "<tr>\(cell)</tr>"
        #expect(row.text == "<tr>" + cell.text + "</tr>")
        #expect(([cell, cell].joined(separator: "\n")).text == cell.text + "\n" + cell.text)
    }

    @Test func aHostilePaletteCannotInjectMarkupIntoTheReport() throws {
        let evil = "<script>alert(1)</script>"
        let text = ##"{"name": "\##(evil)", "description": "\##(evil)", "themes": {"\##(evil)": {"tokens": {"\##(evil)": "#777", "bg": "#fff"}}}, "checks": [{"id": "\##(evil)", "foreground": "\##(evil)", "background": "bg", "description": "\##(evil)"}]}"##
        let (palette, _) = PaletteDecoder.decode(text, file: nil)
        let html = HTMLReport(title: evil, generated: evil).render(AuditReport(palettes: [Auditor().audit(try #require(palette))]))
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }
}

/// User strings cannot become Markdown, HTML or terminal control sequences in any rendering.
@Suite struct RenderingInjectionTests {
    static let evil = "x\n\n## FAKE HEADING\n<script>alert(1)</script><!-- ![img](https://e.x/p.png) `code` \u{1B}]0;title\u{07}\u{1B}[2J"

    func report() throws -> AuditReport {
        let doc: [String: Any] = [
            "name": Self.evil,
            "themes": [Self.evil: ["tokens": [Self.evil: "#777", "bg": "#fff"]]],
            "checks": [["id": Self.evil, "foreground": Self.evil, "background": "bg", "claim": ["ratio": 7, "quote": Self.evil]]],
        ]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: doc), as: UTF8.self)
        let (palette, problems) = PaletteDecoder.decode(text, file: nil)
        return AuditReport(palettes: [Auditor().audit(try #require(palette), problems: problems)])
    }

    @Test func markdownHasNoMarkupFromUsers() throws {
        let markdown = MarkdownRenderer.render(try report(), title: Self.evil)
        // The name holds a URL, so it is a code span (GitHub would link it otherwise), whose
        // text Markdown shows as written: outside code spans no markup is left.
        let outsideCode = markdown.replacing(/(``+) .*? \1(?!`)|`[^`\n]*`/, with: "")
        #expect(!outsideCode.contains("<script") && !outsideCode.contains("<!--") && !outsideCode.contains("![img]"))
        #expect(!outsideCode.contains("https://"))
        #expect(!markdown.split(separator: "\n").contains { $0.hasPrefix("## FAKE") })
        #expect(!markdown.contains("\u{1B}"))
    }

    /// What a terminal and a CI log show of a problem is one line, whatever the names in it hold.
    @Test func aProblemIsOneLineWithNoControlSequences() {
        let problem = PaletteProblem(.unknownToken, "token \"\(Self.evil)\u{202E}\" names nothing", file: "a\n::stop-commands::b.json")
        let shown = problem.description
        #expect(!shown.contains("\n") && !shown.contains("\u{1B}") && !shown.contains("\u{202E}"))
        #expect(shown.hasPrefix("a\\x0a::stop-commands::b.json:"))
        #expect(shown.contains("\\x1b]0;title\\x07"))
    }

    @Test func textHasNoControlSequencesFromUsers() throws {
        let text = TextRenderer(color: true).render(try report())
        // The renderer's own colors are there; the palette's escape sequences are not.
        #expect(text.contains("\u{1B}[31m") || text.contains("\u{1B}["))
        #expect(!text.contains("\u{1B}]0;") && !text.contains("\u{1B}[2J") && !text.contains("\u{07}"))
        #expect(text.contains("\\x1b]0;title\\x07\\x1b[2J"))
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("## FAKE") })
    }
}

/// The text outputs' numbers: one formatting each, whatever renders them.
@Suite struct NumberFormattingTests {
    @Test func deltaEOKHasThreeDecimals() {
        #expect(Auditor.format3(0.004) == "0.004")
        #expect(Auditor.format3(1.5) == "1.500")
        #expect(Auditor.format3(0) == "0.000")
        #expect(Auditor.format3(0.0125) == "0.013")
        #expect(Auditor.format3(0.0004) == "0.000")
        #expect(Auditor.format3(-0.0124) == "-0.012")
        #expect(Auditor.format3(12.3456) == "12.346")
        #expect(Auditor.format3(.infinity) == "inf")
        #expect(Auditor.format3(1e300) == "1e+300")
    }
}

/// A theme's scheme and contrast are told from words in its name; the byte search that tells
/// them answers as lowercasing the name and searching it would.
@Suite struct ThemeNameWordTests {
    @Test func theSearchAgreesWithLowercasing() {
        let names = ["Dark", "dark", "DARK", "Darker", "high-contrast dark", "High Contrast", "contras", "contrast", "",
                     "light", "Light DARK", "daRk", "d ark", "x\r\ndark", "da\r\nrk", "DAR\u{212A}", "dar\u{301}k", "darḱ",
                     "dark\u{301}", "Ünicode dark", "İlight", "LİGHT", "dark-ish", "darkdark", "da", "ark", "x"]
        for name in names {
            for word: StaticString in ["dark", "light", "contrast"] {
                #expect(name.lowercasedContains(word) == name.lowercased().contains(String(describing: word)), "\(name) \(word)")
            }
            let theme = Theme(name: name, tokens: [])
            let expected: ColorScheme? = name.lowercased().contains("dark") ? .dark : name.lowercased().contains("light") ? .light : nil
            #expect(theme.scheme == expected, "\(name)")
        }
    }
}
