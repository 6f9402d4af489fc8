import ColorScience
import Foundation
import Testing

/// The web-platform-tests color parsing cases (Vectors/parsing_valid.json, parsing_invalid.json).
@Suite struct ParsingVectorTests {
    /// Valid CSS this parser refuses on purpose, with the reason.
    static let refused: [String: String] = [
        "lch(50 calc(Infinity) 0)": "infinite chroma: CSS keeps it as a specified value, but no sRGB color corresponds to it",
        "oklch(0.5 calc(Infinity) 0)": "infinite chroma: no sRGB color corresponds to it",
        "lab(50 calc(Infinity) 0)": "an infinite a axis has no sRGB color",
        "lab(50 calc(-Infinity) 0)": "an infinite a axis has no sRGB color",
        "oklab(0.5 calc(Infinity) 0)": "an infinite a axis has no sRGB color",
        "oklab(0.5 calc(-Infinity) 0)": "an infinite a axis has no sRGB color",
        "currentcolor": "takes the element's color property: no color of its own outside a document",
        "currentColor": "takes the element's color property: no color of its own outside a document",
        "CURRENTcolor": "takes the element's color property: no color of its own outside a document",
    ]

    /// Why a valid case is refused, or nil when it must parse.
    static func refusal(_ testCase: ValidParsingFile.Case) -> String? {
        let input = testCase.input
        if testCase.needs_font_metrics {
            return "depends on font metrics (em): has no value outside a document"
        }
        if input.hasPrefix("color(") && input.lowercased().contains("infinity)") && !input.contains("calc(0.5") {
            return "an infinite color() component has no sRGB color"
        }
        return refused[input]
    }

    /// Valid cases that parse but whose expected value we do not compare, with the reason.
    static func comparisonSkip(_ testCase: ValidParsingFile.Case) -> String? {
        if let bug = testCase.upstream_bug { return "upstream test bug: \(bug)" }
        if testCase.input == "hsl(0 0% 49.999999%)" {
            return "browsers compute in single precision, where 49.999999% is 50%; in double precision 0.49999999 × 255 = 127.4999997 rounds to 127"
        }
        return nil
    }

    @Test func validCasesParse() throws {
        let cases = try loadVectors("parsing_valid", as: ValidParsingFile.self).cases
        #expect(cases.count == 595)
        var checked = 0, refusedCount = 0, comparedWithColorAide = 0
        for testCase in cases {
            let input = testCase.input
            if Self.refusal(testCase) != nil {
                refusedCount += 1
                #expect(throws: ColorParseError.self, "refused case \(input) now parses: remove it from the list") {
                    _ = try CSSColor.parse(input)
                }
                continue
            }
            let parsed: ParsedColor
            do {
                parsed = try CSSColor.parse(input)
            } catch {
                Issue.record("valid \(input) was rejected: \(error)")
                continue
            }
            checked += 1
            if Self.comparisonSkip(testCase) != nil { continue }
            let expected = testCase.expected
            let tolerance = testCase.fuzzy ? 1.0 : 0.0
            if let rgba = testCase.expected_rgba {
                let q = parsed.color
                let bytes = [q.red, q.green, q.blue].map { Double(SRGB.to8Bit($0)) }
                for channel in 0..<3 {
                    #expect(abs(bytes[channel] - rgba[channel]) <= tolerance, "\(input): \(q.rgbFunction), expected \(expected)")
                }
                #expect(abs(q.alpha - rgba[3]) < 0.002, "\(input): alpha \(q.alpha), expected \(rgba[3])")
            } else if let canonical = try? CSSColor.parse(expected) {
                // The canonical serialization must denote the same color (it is rounded to
                // about 6 significant digits, hence the tolerance).
                let a = parsed.color, b = canonical.color
                let difference = max(abs(a.red - b.red), abs(a.green - b.green), abs(a.blue - b.blue), abs(a.alpha - b.alpha))
                #expect(difference < 1e-6, "\(input) → \(a) but its serialization \(expected) → \(b)")
            }
            // Against ColorAide's independent conversion, where no gamut mapping is involved
            // (ColorAide clips; CSS maps).
            if let coloraide = testCase.coloraide, coloraide.parsed, !parsed.wasOutOfGamut, !testCase.uses_none,
               let srgb = coloraide.srgb_clamped, let alpha = coloraide.alpha {
                comparedWithColorAide += 1
                let c = parsed.color
                let difference = max(abs(c.red - srgb[0]), abs(c.green - srgb[1]), abs(c.blue - srgb[2]))
                #expect(difference < 1e-5, "\(input): \(c.red), \(c.green), \(c.blue) vs ColorAide \(srgb)")
                #expect(abs(c.alpha - alpha) < 1e-9, "\(input): alpha \(c.alpha) vs ColorAide \(alpha)")
            }
        }
        #expect(checked + refusedCount == cases.count)
        #expect(refusedCount == 72, "refusals must stay the documented exceptions (44 font-metric, 19 infinite, 9 others)")
        #expect(comparedWithColorAide > 200)
    }

    /// Invalid inputs this parser accepts, with the reason. Cases the vector file itself marks
    /// `likely_outdated` (with its reason) are accepted too.
    static let invalidSkips: [String: String] = [:]

    @Test func invalidCasesAreRejected() throws {
        let cases = try loadVectors("parsing_invalid", as: InvalidParsingFile.self).cases
        #expect(cases.count == 159)
        #expect(cases.filter { $0.likely_outdated != nil }.count == 3)
        for testCase in cases {
            let input = testCase.input
            if Self.invalidSkips[input] != nil || testCase.likely_outdated != nil {
                #expect((try? CSSColor.parse(input)) != nil, "skipped invalid case \(input) is now rejected: remove its skip")
                continue
            }
            do {
                let parsed = try CSSColor.parse(input)
                Issue.record("invalid \(input.debugDescription) was accepted as \(parsed.color)")
            } catch {
                #expect(!error.message.isEmpty)
                #expect(error.offset >= 0 && error.offset <= input.utf8.count, "\(input): offset \(error.offset)")
            }
        }
    }

    /// `isColor` answers as `try? parse` does, for every vector, the words a format detector
    /// meets and each color scheme; only the failure's message is left unfinished.
    @Test func isColorAnswersAsParse() throws {
        let valid = try loadVectors("parsing_valid", as: ValidParsingFile.self).cases.map(\.input)
        let invalid = try loadVectors("parsing_invalid", as: InvalidParsingFile.self).cases.map(\.input)
        let words = ["text", "blu", "bleu", "Blue", "transparent", "currentColor", "Canvas", "é", "", " ", "#fff", "#ffff ",
                     "light-dark(#000, #fff)", "light-dark(blu, #fff)", "color-mix(in srgb, bleu, red)", "rgb(from bleu r g b)",
                     "linear-gradient(red, blue)", "{brand.primary}", "var(--x)", "none", "inherit", "0 0 0 1px #000"]
        for text in valid + invalid + words {
            for scheme: ColorScheme? in [nil, .light, .dark] {
                #expect(CSSColor.isColor(text, scheme: scheme) == ((try? CSSColor.parse(text, scheme: scheme)) != nil), "\(text.debugDescription) \(String(describing: scheme))")
            }
        }
        // The message a parse gives still names the nearest color.
        #expect(throws: ColorParseError.self) { _ = try CSSColor.parse("bleu") }
        do { _ = try CSSColor.parse("bleu") } catch { #expect(error.message.contains("did you mean 'blue'?")) }
    }
}
