import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing
import TestSupport

/// Every suggested color, re-measured as `contrast check` and `POST /v1/contrast` measure a pair
/// (``PairReport``): it must give the ratio it was printed with and meet the target it claims.
@Suite struct SuggestionTruthTests {
    /// The pair through the public check path.
    static func check(_ foreground: String, _ background: String, backdrop: String? = nil) throws -> PairReport {
        PairReport(foreground: try CSSColor.parse(foreground), background: try CSSColor.parse(background),
                   backdrop: try backdrop.map { try CSSColor.parse($0) })
    }

    static func meets(_ report: PairReport, _ target: ContrastTarget) -> Bool {
        (target.minimumRatio.map { report.ratio >= $0 } ?? true) && (target.minimumLc.map { abs(report.apca) >= $0 } ?? true)
    }

    /// The best-any-background figure of a note ("… gives is 3.43:1 (on #ffffff)"), re-measured.
    static func checkNotes(_ notes: [String]?, foreground: String, context: String) throws {
        for note in notes ?? [] {
            guard let range = note.range(of: #"gives is [0-9.]+:1 \(on #[0-9a-f]{6}\)"#, options: .regularExpression) else { continue }
            let words = note[range].split(separator: " ")
            let display = String(words[2]), hex = String(words[4].dropLast())
            #expect(try check(foreground, hex).display == display, "\(context): \(note)")
        }
    }

    /// Seed 000's iOS secondary label (`#3c3c4399`, 60 % opaque) on grouped background
    /// `#f2f2f7`: the background `#242424` was offered as "4.51:1", measured with the label
    /// composited over the old background; over `#242424` it is 1.22:1. At 60 % no background
    /// reaches 4.5:1 (white gives 3.43:1), and the answer says so.
    @Test func aTranslucentForegroundGetsNoBackgroundItCannotUse() throws {
        let result = SuggestionResult(foreground: try SRGB(css: "#3c3c4399"), background: try SRGB(css: "#f2f2f7"), target: .ratio(4.5))
        #expect(result.display == (try Self.check("#3c3c4399", "#f2f2f7")).display)
        #expect(result.composited?.foreground == "#85858b")
        let suggestions = try #require(result.suggestions)
        #expect(suggestions.background.isEmpty, "\(suggestions.background.map { "\($0.hex) \($0.display)" })")
        #expect(suggestions.notes == ["no background reaches 4.5:1 under #3c3c4399 (60% opaque, painted over the background): the best any background gives is 3.43:1 (on #ffffff); change the foreground"])
        #expect(try Self.check("#3c3c4399", "#242424").display == "1.22:1")
        for c in suggestions.foreground {
            #expect(try Self.check(c.hex, "#f2f2f7").display == c.display)
        }
    }

    /// The same label in the Peptide Fox palette: no background fix.
    @Test func peptideFoxSecondaryLabelHasNoBackgroundFix() throws {
        let report = SeedPaletteAuditTests().report()
        let light = try #require(report.palettes.first { $0.name == "peptide-fox" }?.themes.first { $0.name == "light" })
        let result = try #require(light.results.first { $0.id == "secondary-label-on-page" })
        #expect(result.suggestions?.background.isEmpty == true)
        #expect(result.suggestions?.notes?.first?.hasPrefix("no background reaches 4.5:1 under #3c3c4399") == true)
        #expect(result.fixes?.contains { $0.kind == "background" } != true)
    }

    /// A translucent foreground that some background can carry: each background suggested is
    /// measured with the foreground over it.
    @Test func backgroundsForATranslucentForegroundAreMeasuredUnderIt() throws {
        let result = SuggestionResult(foreground: try SRGB(css: "#ffffffcc"), background: try SRGB(css: "#888888"), target: .ratio(4.5))
        let background = try #require(result.suggestions?.background.first)
        #expect(background.hex == "#636363")
        #expect(try Self.check("#ffffffcc", background.hex).display == background.display)
        #expect(background.display == "4.54:1")
    }

    static func hex(_ generator: inout SeededGenerator, alpha: Bool) -> String {
        let channels = (0..<(alpha ? 4 : 3)).map { i -> Int in
            i == 3 ? Int.random(in: 40...250, using: &generator) : Int.random(in: 0...255, using: &generator)
        }
        return "#" + channels.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static let targets: [ContrastTarget] = [.ratio(4.5), .ratio(3), .ratio(7), .lc(60), ContrastTarget(ratio: 4.5, lc: 45)]

    /// Random pairs, translucent foregrounds and opaque ones, through `contrast suggest`'s
    /// library call: the pair's own figure, each foreground, background and combined move, and
    /// each best-any-background figure, re-measured.
    @Test func everySuggestionMeasuresWhatItSays() throws {
        var generator = SeededGenerator(seed: 45)
        for round in 0..<160 {
            let fg = Self.hex(&generator, alpha: round % 2 == 0), bg = Self.hex(&generator, alpha: false)
            let target = Self.targets[Int.random(in: 0..<Self.targets.count, using: &generator)]
            let context = "\(generator.replay), round \(round): \(fg) on \(bg) for \(target)"
            let result = SuggestionResult(foreground: try SRGB(css: fg), background: try SRGB(css: bg), target: target)
            let measured = try Self.check(fg, bg)
            #expect(result.display == measured.display && result.ratio == measured.ratio, "\(context)")
            #expect(result.passes == Self.meets(measured, target), "\(context)")
            guard let s = result.suggestions else { continue }
            for c in s.foreground {
                let m = try Self.check(c.hex, bg)
                #expect(m.display == c.display && Self.meets(m, target), "\(context): foreground \(c.hex) \(c.display), measured \(m.display)")
            }
            for c in s.background {
                let m = try Self.check(fg, c.hex)
                #expect(m.display == c.display && Self.meets(m, target), "\(context): background \(c.hex) \(c.display), measured \(m.display)")
            }
            if let both = s.both {
                let m = try Self.check(both.foreground.hex, both.background.hex)
                #expect(m.display == both.foreground.display && m.display == both.background.display && Self.meets(m, target),
                        "\(context): both \(both.foreground.hex) on \(both.background.hex) \(both.foreground.display), measured \(m.display)")
            }
            try Self.checkNotes(s.notes, foreground: fg, context: context)
        }
    }

    /// Random checks of a palette, translucent foregrounds and translucent backgrounds over a
    /// theme's backdrop among them: each fix, applied to the tokens, re-measured over the same
    /// backdrop, gives the ratio its suggestion printed and meets the check's target.
    @Test func everyAuditFixMeasuresWhatItSays() throws {
        var generator = SeededGenerator(seed: 4545)
        for round in 0..<80 {
            let fg = Self.hex(&generator, alpha: round % 2 == 0), bg = Self.hex(&generator, alpha: round % 4 < 2)
            let backdrop = Self.hex(&generator, alpha: false)
            let level = Bool.random(using: &generator) ? "AA" : "AAA"
            let apca = round % 5 == 0 ? #", "apca": 45"# : ""
            let text = #"{"name": "p", "themes": {"light": {"backdrop": "\#(backdrop)", "tokens": {"fg": "\#(fg)", "bg": "\#(bg)"}}}, "checks": [{"id": "c", "foreground": "fg", "background": "bg", "level": "\#(level)"\#(apca)}]}"#
            let context = "\(generator.replay), round \(round): \(text)"
            let (palette, problems) = PaletteDecoder.decode(text)
            #expect(problems.isEmpty, "\(context): \(problems.map(\.message))")
            let report = Auditor().audit(try #require(palette))
            let result = try #require(report.themes.first?.results.first, "\(context)")
            let measured = try Self.check(fg, bg, backdrop: backdrop)
            #expect(result.display == measured.display, "\(context)")
            guard result.verdict == .fail, let s = result.suggestions else { continue }
            let target = ContrastTarget(ratio: result.required, lc: result.apcaRequired)
            for fix in result.fixes ?? [] {
                var colors = ["fg": fg, "bg": bg]
                for change in fix.changes { colors[try #require(change.token, "\(context)")] = change.value }
                let printed: String? = switch fix.kind {
                case "foreground": s.foreground.first?.display
                case "background": s.background.first?.display
                default: s.both?.foreground.display
                }
                let m = try Self.check(colors["fg"]!, colors["bg"]!, backdrop: backdrop)
                #expect(m.display == printed && Self.meets(m, target), "\(context): fix \(fix.kind) \(fix.changes.map(\.value)) printed \(printed ?? "-"), measured \(m.display)")
            }
            try Self.checkNotes(s.notes, foreground: fg, context: context)
        }
    }
}
