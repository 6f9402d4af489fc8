import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// `contrast init PATH…` with usage: pairs a usage source draws first, then conventions, then
/// guesses from the names for what neither measures; the never list over all of them.
@Suite struct InitUsageProposalTests {
    static func palette(_ themes: [(String, [String: String])], name: String = "p") -> Palette {
        InitProposalTests.palette(themes, name: name)
    }

    static func found(_ fg: String, _ bg: String, _ usage: ContrastUsage = .text, _ confidence: UsageConfidence = .usage,
                      file: String = "ui.css", line: Int = 1, what: String = "a rule", reader: String = "test reader") -> UsageScan.Found {
        UsageScan.Found(pair: UsagePair(foreground: fg, background: bg, usage: usage, evidence: UsageEvidence(file: file, line: line, what: what),
                                        confidence: confidence), reader: reader)
    }

    static func propose(_ palettes: [Palette], _ pairs: [UsageScan.Found]) -> ChecksProposal {
        var scan = UsageScan()
        scan.pairs = pairs
        return ChecksProposal.propose(for: palettes.map { LoadedPalette(file: "\($0.name).json", palette: $0, problems: []) }, usage: scan)
    }

    static let tokens = ["text.body": "#111111", "text.muted": "#555555", "text.link": "#0645ad", "surface.page": "#ffffff",
                         "surface.card": "#f6f6f6", "surface.raised": "#eeeeee", "primary": "#1e40af", "on-primary": "#ffffff"]

    @Test func usageFirstThenConventionsThenGuessesForTheRest() throws {
        let proposal = Self.propose([Self.palette([("light", Self.tokens)])], [
            Self.found("text.body", "surface.page", .text, .convention, file: "a.swift", line: 9, what: "a view with nothing behind it", reader: "conventions"),
            Self.found("text.muted", "surface.card", file: "card.css", line: 3, what: ".card: color on background-color"),
            Self.found("text.muted", "surface.card", file: "card.css", line: 12, what: ".card .meta"),
            Self.found("text.muted", "surface.card", file: "list.css", line: 4, what: ".list"),
        ])
        let checks = proposal.checks
        #expect(checks.map(\.id).prefix(3) == ["text.muted on surface.card", "text.body on surface.page", "on-primary on primary"])
        #expect(checks.map(\.confidence.name) == ["usage", "convention", "convention", "name"])
        #expect(checks[0].description == "card.css:3: .card: color on background-color and 2 more places")
        #expect(checks[0].proposedBy == "test reader")
        #expect(checks[1].description == "a.swift:9: a view with nothing behind it")
        #expect(checks[2].proposedBy == ChecksProposal.byPartnerNames)
        // The guess covers only what nothing above measures: the measured names are left out.
        let rule = checks[3]
        #expect(rule.id == "text.* on surface.*")
        #expect(Set(rule.except) == ["text.body", "text.muted", "surface.page", "surface.card"], "\(rule.except)")
        #expect(rule.description.hasPrefix("a guess from the names"))
        #expect(proposal.byConfidence == [.usage: 1, .convention: 2, .name: 1])
    }

    @Test func oneCheckPerPairAndUsageAtTheBestConfidence() {
        let proposal = Self.propose([Self.palette([("light", Self.tokens)])], [
            Self.found("text.link", "surface.page", .text, .convention, line: 1),
            Self.found("text.link", "surface.page", .text, .usage, line: 2, what: "a.link"),
            Self.found("text.link", "surface.page", .text, .usage, line: 3),
            Self.found("text.link", "surface.page", .nonText, .usage, line: 4, what: "a.link outline"),
        ])
        let link = proposal.checks.filter { $0.foreground == "text.link" }
        #expect(link.map(\.id) == ["text.link on surface.page", "text.link on surface.page (non-text)"])
        #expect(link[0].confidence == .usage)
        #expect(link[0].description == "ui.css:2: a.link and 2 more places")
        #expect(link[1].usage == .nonText && link[1].description == "ui.css:4: a.link outline")
    }

    @Test func theNeverList() throws {
        var tokens = Self.tokens
        tokens["text.alias"] = "{surface.page}"
        tokens["button.borderColor.rest"] = "#1e40af"
        tokens["button.bgColor.rest"] = "#dbeafe"
        tokens["overlay.bg"] = "#00000000"
        tokens["text.ghost"] = "#11111100"
        tokens["surface.scrim"] = "#00000080"
        tokens["text.disabled"] = "#999999"
        let pairs = [
            Self.found("surface.page", "surface.page"),            // itself
            Self.found("text.alias", "surface.page"),              // its own alias
            Self.found("button.borderColor.rest", "button.bgColor.rest", .nonText),
            Self.found("text.body", "overlay.bg"),                 // transparent background
            Self.found("text.ghost", "surface.page"),              // transparent text
            Self.found("text.body", "surface.scrim"),              // translucent over nothing known
            Self.found("text.body", "primary"),                    // primary has its own text, on-primary
            Self.found("text.disabled", "surface.page"),
            Self.found("text.body", "button.bgColor.rest"),        // kept
            Self.found("button.borderColor.rest", "surface.page", .nonText),  // kept: a border on the page
        ]
        let proposal = Self.propose([Self.palette([("light", tokens)])], pairs)
        let usage = proposal.checks.filter { $0.confidence == .usage }.map(\.id)
        #expect(usage == ["text.body on button.bgColor.rest", "button.borderColor.rest on surface.page (non-text)"])
        #expect(proposal.leftOut == [.itself: 2, .borderOnOwnFill: 1, .transparent: 2, .translucentOverUnknown: 1, .fillHasOwnText: 1, .disabled: 1],
                "\(proposal.leftOut)")
        // No guess pairs what the never list keeps out: transparent tokens and a translucent
        // background are left out of every rule.
        for rule in proposal.checks where rule.confidence == .name && CheckRule.isPattern(rule.background) {
            for name in ["overlay.bg", "surface.scrim", "text.ghost"] where CheckRule.matches(name, rule.foreground) || CheckRule.matches(name, rule.background) {
                #expect(rule.except.contains(name), "\(rule.id) except \(rule.except)")
            }
        }
        // The summary and the document say how many, by reason.
        let summary = proposal.summary()
        #expect(summary.contains("left out: 2 a token on itself or on its own alias; 1 a border on its own fill; 2 a fully transparent color;"), "\(summary)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(proposal.checksDocument(source: "tokens/ src/", toolVersion: "test").utf8)) as? [String: Any])
        let notes = try #require(document["x-notes"] as? [String: Any])
        let leftOut = try #require(notes["leftOut"] as? [[String: Any]])
        #expect(leftOut.map { $0["reason"] as? String } == ["itself", "border-on-own-fill", "transparent", "translucent-over-unknown", "fill-has-own-text", "disabled"])
        #expect(leftOut.map { $0["count"] as? Int } == [2, 1, 2, 1, 1, 1])
    }

    @Test func aBackdropMakesATranslucentBackgroundMeasurable() {
        var palette = Self.palette([("light", Self.tokens.merging(["surface.scrim": "#00000080"]) { $1 })])
        palette.themes[0].backdrop = "surface.page"
        let proposal = Self.propose([palette], [Self.found("on-primary", "surface.scrim")])
        #expect(proposal.checks.first?.id == "on-primary on surface.scrim")
        #expect(proposal.leftOut.isEmpty)
    }

    @Test func aBorderNamedLikeAnotherComponentsFillIsKept() {
        let tokens = ["card.borderColor": "#cccccc", "card.bgColor": "#ffffff", "page.bgColor": "#fafafa"]
        let judge = PairJudge(palette: Self.palette([("light", tokens)]), ownText: [:])
        #expect(judge.judge(foreground: "card.borderColor", background: "card.bgColor", usage: .nonText) == .never(.borderOnOwnFill))
        #expect(judge.judge(foreground: "card.borderColor", background: "page.bgColor", usage: .nonText) == .propose(themes: nil))
        #expect(judge.judge(foreground: "card.borderColor", background: "absent.bg", usage: .nonText) == .notInPalette)
    }

    @Test func checksAreRestrictedToTheThemesWhereTheirTokensResolve() {
        let light = Self.tokens.merging(["surface.sheet": "#fafafa"]) { $1 }
        let dark = ["text.body": "#eeeeee", "surface.page": "#000000", "surface.sheet": "#ffffff00", "primary": "#93c5fd", "on-primary": "#000000"]
        let proposal = Self.propose([Self.palette([("light", light), ("dark", dark)])], [
            Self.found("text.muted", "surface.card"),   // light only
            Self.found("text.body", "surface.sheet"),   // transparent in dark: light only
            Self.found("text.body", "surface.page"),    // both
        ])
        let byID = Dictionary(uniqueKeysWithValues: proposal.checks.map { ($0.id, $0) })
        #expect(byID["text.muted on surface.card"]?.themes == ["light"])
        #expect(byID["text.body on surface.sheet"]?.themes == ["light"])
        #expect(byID["text.body on surface.page"].map { $0.themes == nil } == true)
        #expect(proposal.leftOut.isEmpty)
    }

    @Test func pairsGoToThePalettesThatHaveThemAndTheRestAreCounted() {
        let a = Self.palette([("light", ["text.body": "#111111", "surface.page": "#ffffff"])], name: "a")
        let b = Self.palette([("light", ["text.body": "#222222", "surface.page": "#fefefe", "surface.card": "#eeeeee"])], name: "b")
        let proposal = Self.propose([a, b], [Self.found("text.body", "surface.page"), Self.found("text.body", "surface.card"), Self.found("fg.x", "bg.y")])
        let usage = proposal.checks.filter { $0.confidence == .usage }
        #expect(usage.map(\.palettes) == [["a"], ["b"], ["b"]])
        #expect(usage.map(\.id) == ["text.body on surface.page", "text.body on surface.page #2", "text.body on surface.card"])
        #expect(proposal.unmatchedPairs == 1)
        #expect(proposal.unmatchedSamples.first?.hasPrefix("fg.x on bg.y") == true)
        // Ids stay unique over the document.
        #expect(Set(proposal.checks.map(\.id)).count == proposal.checks.count)
    }

    @Test func theDocumentIsStrictJSONAndTheChecksDecoderTakesItsXFields() throws {
        let proposal = Self.propose([Self.palette([("light", Self.tokens)])], [Self.found("text.muted", "surface.card", file: "card.css", line: 3)])
        let text = proposal.checksDocument(source: "tokens/ src/", toolVersion: "test")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.first?["x-confidence"] as? String == "usage")
        #expect(checks.first?["x-proposedBy"] as? String == "test reader")
        #expect(checks.first?["description"] as? String == "card.css:3: a rule")
        let notes = try #require(object["x-notes"] as? [String: Any])
        #expect((notes["proposed"] as? [String: Int]) == ["usage": 1, "convention": 1, "name": 1])
        #expect(!text.contains("//"))
        let decoded = PaletteDecoder.decodeChecksDocument(bytes: Array(text.utf8), file: "contrast.checks.json")
        #expect(decoded.problems.isEmpty, "\(decoded.problems)")
        #expect(decoded.checks.checks.map(\.id) == proposal.checks.map(\.id))
    }

    /// A reader of `*.pairs` files: each line `fg bg` is a pair drawn there.
    struct LineReader: UsageReader {
        var name: String { "pair lines" }
        func reads(path: String, head: ArraySlice<UInt8>) -> Bool { path.hasSuffix(".pairs") }
        func read(file: String, bytes: [UInt8], context: UsageContext) -> UsageRead {
            var read = UsageRead()
            for (i, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n").enumerated() {
                let parts = line.split(separator: " ").map(String.init)
                guard parts.count == 2 else { read.notRead.append(UsageEvidence(file: file, line: i + 1, what: "not a pair")); continue }
                read.pairs.append(UsagePair(foreground: parts[0], background: parts[1], usage: .text,
                                            evidence: UsageEvidence(file: file, line: i + 1, what: "line"), confidence: .usage))
            }
            return read
        }
    }

    @Test func theScanWalksEachPathOnceAndSaysWhichLimitItReached() throws {
        let root = try UsageRun.write(["a/one.pairs": "text.body surface.page\nnonsense\n", "a/two.pairs": "text.muted surface.card\n",
                                       "b/three.pairs": "text.link surface.page\n", "b/big.pairs": String(repeating: "x", count: 300), "notes.txt": "hello"],
                                      prefix: "usage-scan")
        let palettes = [Self.palette([("light", Self.tokens)])]
        // The same file through two paths is read once.
        let scan = UsageScan.scan(paths: [root, root + "/a"], palettes: palettes, readers: [LineReader()])
        #expect(scan.files == 5)
        #expect(scan.filesRead == ["pair lines": 4])
        #expect(scan.pairs.map(\.pair.foreground) == ["text.body", "text.muted", "text.link"])
        #expect(scan.notPaired == 2 && scan.notPairedSamples.first?.text == "\(root)/a/one.pairs:2: not a pair")
        #expect(scan.limits.isEmpty)

        let capped = UsageScan.scan(paths: [root], palettes: palettes, readers: [LineReader()], limits: .init(maximumFiles: 2, maximumFileBytes: 200))
        #expect(capped.files == 2)
        #expect(capped.limits.count == 1 && capped.limits[0].hasPrefix("stopped looking for usage after 2 files"), "\(capped.limits)")
        let small = UsageScan.scan(paths: [root], palettes: palettes, readers: [LineReader()], limits: .init(maximumFileBytes: 200))
        #expect(small.limits == ["\(root)/b/big.pairs is 300 bytes, over the 200-byte limit for a usage source: not read by pair lines"])
        let total = UsageScan.scan(paths: [root], palettes: palettes, readers: [LineReader()], limits: .init(maximumTotalBytes: 40))
        #expect(total.limits.count == 1 && total.limits[0].hasPrefix("stopped reading usage after"), "\(total.limits)")
    }
}

extension InitUsageProposalTests {
    /// Primer's `bgColor-*-muted` are opaque in its light themes and translucent in its dark ones:
    /// the guess leaves them out only where they are translucent (they were left out of every
    /// theme, and 19 of Primer's own CI pairs with them).
    @Test func aGuessLeavesOutTranslucentBackgroundsOnlyWhereTheyAreSo() throws {
        let light = ["fgColor-default": "#1f2328", "bgColor-default": "#ffffff", "bgColor-accent-muted": "#ddf4ff"]
        let dark = ["fgColor-default": "#f0f6fc", "bgColor-default": "#0d1117", "bgColor-accent-muted": "#388bfd1a"]
        let proposal = Self.propose([Self.palette([("light", light), ("dark", dark)])], [])
        // Every text on the neutral surface; text named for no qualifier on every fill.
        #expect(proposal.checks.filter { $0.foreground == "fgColor-*" }.map(\.id) == ["fgColor-* on bgColor-default"])
        let rules = proposal.checks.filter { $0.foreground == "fgColor-default" }
        // In dark, the translucent fill is the rule's only other background: no rule there.
        #expect(rules.map(\.id) == ["fgColor-default on bgColor-* in light"])
        #expect(rules.map(\.themes) == [["light"]])
        #expect(rules[0].except == ["bgColor-default"])
    }
}

extension InitUsageProposalTests {
    /// Thunderbird's app themes: Material draws `colorOnSurfaceVariant` on `colorSurface`, whose own
    /// text is `colorOnSurface`; a variant's text on its role is no other fill's text.
    @Test func aRolesVariantTextOnTheRoleIsKept() {
        let tokens = ["colorSurface": "#fdf8fd", "colorOnSurface": "#1c1b1f", "colorOnSurfaceVariant": "#49454f", "colorOnPrimary": "#ffffff",
                      "colorPrimary": "#6750a4"]
        let proposal = Self.propose([Self.palette([("light", tokens)])], [
            Self.found("colorOnSurfaceVariant", "colorSurface", .text, .convention),
            Self.found("colorOnPrimary", "colorSurface", .text, .convention),
        ])
        #expect(proposal.checks.contains { $0.id == "colorOnSurfaceVariant on colorSurface" })
        #expect(proposal.leftOut == [.fillHasOwnText: 1])
        #expect(PairJudge.sitsOnAVariant("md.sys.color.on-primary-fixed-variant", of: "md.sys.color.primary-fixed"))
        #expect(!PairJudge.sitsOnAVariant("md.sys.color.on-primary", of: "md.sys.color.primary"))
    }
}
