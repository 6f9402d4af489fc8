@testable import ColorScience
import Foundation
import Testing
import TestSupport

/// gradient_coloraide.json: ColorAide 8.13.1's colors along hand-picked gradient lines.
struct GradientColorAideFile: Decodable {
    struct Sample: Decodable {
        var position: Double
        var srgb: [Double]
        var alpha: Double
    }

    struct Case: Decodable {
        var css: String
        var note: String
        var interpolation: String
        var stops: [Double]
        var samples: [Sample]
    }

    var cases: [Case]
}

@Suite struct GradientTests {
    // MARK: Reference colors

    /// Unclamped, unmapped sRGB components and alpha at a point of the line, as ColorAide gives
    /// them: before the first stop or after the last, the stop's own color.
    static func unmapped(_ gradient: Gradient, at position: Double) -> (SIMD3<Double>, Double) {
        let line = GradientLine(gradient)
        let color: SpacedColor
        if let spaced = line.spaced(at: position) {
            color = spaced
        } else {
            let last = gradient.stops.last?.layoutPosition ?? 0
            color = (position < last ? gradient.stops.first : gradient.stops.last)?.spaced ?? SpacedColor(space: .srgb, .zero, alpha: 0)
        }
        return (SpacedColor.components(of: color.xyz, in: .srgb), color.resolvedAlpha)
    }

    /// ColorAide's colors at 20 points of each of 44 gradients: every difference is below 1e-6
    /// (the largest is printed), the interpolation named as CSS names it, the stops where the
    /// fix-up puts them.
    @Test func colorAideAgreement() throws {
        let file = try loadVectors("gradient_coloraide", as: GradientColorAideFile.self)
        #expect(file.cases.count == 44)
        var largest = 0.0, failures: [String] = [], compared = 0
        for c in file.cases {
            let gradient = try Gradient(css: c.css)
            if gradient.interpolation != c.interpolation { failures.append("\(c.css): interpolation \(gradient.interpolation), expected \(c.interpolation)") }
            let positions = gradient.stops.map(\.layoutPosition)
            if positions.count != c.stops.count || zip(positions, c.stops).contains(where: { abs($0 - $1) > 1e-12 }) {
                failures.append("\(c.css): stops at \(positions), expected \(c.stops)")
            }
            for sample in c.samples {
                let (rgb, alpha) = Self.unmapped(gradient, at: sample.position)
                let d = max(abs(rgb.x - sample.srgb[0]), abs(rgb.y - sample.srgb[1]), abs(rgb.z - sample.srgb[2]), abs(alpha - sample.alpha))
                largest = max(largest, d)
                compared += 1
                if !(d < 1e-6) { failures.append("\(c.css) at \(sample.position): \(rgb) / \(alpha), ColorAide \(sample.srgb) / \(sample.alpha)") }
                // Inside sRGB the color shown is that color, clamped by at most the tolerance.
                let inside = sample.srgb.allSatisfy { $0 > 1e-4 && $0 < 1 - 1e-4 }
                if inside {
                    let shown = gradient.color(at: sample.position)
                    let e = max(abs(shown.red - sample.srgb[0]), abs(shown.green - sample.srgb[1]), abs(shown.blue - sample.srgb[2]), abs(shown.alpha - sample.alpha))
                    if !(e < 1e-6) { failures.append("\(c.css) at \(sample.position): shown \(shown), ColorAide \(sample.srgb)") }
                }
            }
        }
        #expect(compared == 880)
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(30).joined(separator: "\n"))")
        print("gradient_coloraide: \(compared) points, largest difference \(largest)")
    }

    // MARK: The worst point

    /// Black text on red → lime in gamma-encoded sRGB: the mix (1 − t, t, 0) is darkest where
    /// 0.2126·g′(1 − t) = 0.7152·g′(t), g the sRGB decoding; on its power branch that is
    /// t* = (1.055 − 0.055k) / (1 + k) with k = (0.7152 / 0.2126)^(1/1.4) ≈ 0.27353.
    @Test func redToLimeIsWorstAboutAQuarterIn() throws {
        let gradient = try Gradient(css: "linear-gradient(#ff0000, #00ff00)")
        #expect(gradient.interpolation == "srgb")
        let k = pow(0.7152 / 0.2126, 1 / 1.4)
        let expected = (1.055 - 0.055 * k) / (1 + k)
        let result = gradient.contrast(foreground: .black, backdrop: nil)
        #expect(abs(result.worst.position - expected) < 1e-3)
        #expect(abs(result.worst.position - expected) < 1e-6, "Brent's method lands well inside 1e-3: \(result.worst.position)")
        let atExpected = SRGB(red: 1 - expected, green: expected, blue: 0)
        #expect(abs(result.worst.ratio - SRGB.black.contrastRatio(with: atExpected)) < 1e-12)
        // Darker than either end: the ends give 5.25 and 15.3.
        #expect(result.worst.ratio < 4.0 && result.worst.ratio > 3.9)
        #expect(result.best.position == 1 && result.best.color == SRGB(red: 0, green: 1, blue: 0))
        // No point of a fine scan is worse.
        for i in 0...10_000 {
            let ratio = SRGB.black.contrastRatio(with: gradient.color(at: Double(i) / 10_000))
            #expect(ratio >= result.worst.ratio)
        }
    }

    /// A random stop color inside sRGB, written in one of several notations.
    static func randomStop(_ rng: inout SeededGenerator, translucent: Bool = false) -> String {
        let hex = String(format: "%06x", Int.random(in: 0...0xFFFFFF, using: &rng))
        let alpha = translucent && Bool.random(using: &rng) ? String(format: " / %.2f", Double.random(in: 0.1...0.95, using: &rng)) : ""
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return "#" + hex
        case 1: return "oklch(from #\(hex) l c h\(alpha))"
        case 2: return "hsl(\(Int.random(in: 0..<360, using: &rng)) \(Int.random(in: 0...100, using: &rng))% \(Int.random(in: 0...100, using: &rng))%\(alpha))"
        case 3: return "lab(from #\(hex) l a b\(alpha))"
        default: return "rgb(\(Int.random(in: 0...255, using: &rng)) \(Int.random(in: 0...255, using: &rng)) \(Int.random(in: 0...255, using: &rng))\(alpha))"
        }
    }

    static let spaces = ["", "in srgb", "in srgb-linear", "in oklab", "in lab", "in xyz", "in display-p3", "in oklch", "in oklch longer hue",
                         "in lch", "in hsl", "in hsl longer hue", "in hwb", "in oklch increasing hue", "in hsl decreasing hue"]

    /// Two stops: the worst point is never better, and the best never worse, than either stop,
    /// exactly (the stops are evaluated as parsed).
    @Test func twoStopsBoundTheExtremes() throws {
        var rng = SeededGenerator(seed: 20261124)
        for _ in 0..<2000 {
            let space = Self.spaces.randomElement(using: &rng) ?? ""
            let first = Self.randomStop(&rng), second = Self.randomStop(&rng)
            let css = "linear-gradient(\(space.isEmpty ? "" : space + ", ")\(first), \(second))"
            let gradient = try Gradient(css: css)
            let text = SRGB(rgb24: UInt32.random(in: 0...0xFFFFFF, using: &rng))
            let result = gradient.contrast(foreground: text, backdrop: nil)
            let ends = gradient.stops.map { text.contrastRatio(with: $0.color.color) }
            #expect(result.worst.ratio <= ends.min() ?? 0, "\(css) with \(text.hex), \(rng.replay)")
            #expect(result.best.ratio >= ends.max() ?? .infinity, "\(css) with \(text.hex), \(rng.replay)")
        }
    }

    /// 600 random gradients of 2 to 4 stops in every space, opaque and translucent, over white or an
    /// unknown backdrop: no point of a 1,000-point scan is worse than the worst point found (or
    /// better than the best). Where the line stays inside sRGB the margin is 1e-9; where it is
    /// gamut-mapped, CSS's mapping itself moves in small steps (its chroma search stops at
    /// 0.0001) and the margin is 5e-3.
    @Test func noSampledPointBeatsTheExtremes() throws {
        var rng = SeededGenerator(seed: 7)
        var mappedCases = 0, largestMapped = 0.0
        for _ in 0..<600 {
            let space = Self.spaces.randomElement(using: &rng) ?? ""
            let count = Int.random(in: 2...4, using: &rng)
            let translucent = Int.random(in: 0..<3, using: &rng) == 0
            let stops = (0..<count).map { _ in Self.randomStop(&rng, translucent: translucent) }
            let css = "linear-gradient(\(space.isEmpty ? "" : space + ", ")\(stops.joined(separator: ", ")))"
            let gradient = try Gradient(css: css)
            let text = SRGB(rgb24: UInt32.random(in: 0...0xFFFFFF, using: &rng))
            let backdrop: SRGB? = Bool.random(using: &rng) ? nil : .white
            let result = gradient.contrast(foreground: text, backdrop: backdrop)
            let judge = GradientExtremes(line: GradientLine(gradient), foreground: text, backdrop: backdrop)
            var scanWorst = Double.infinity, scanBest = 0.0, mapped = false
            let line = GradientLine(gradient)
            for i in 0..<1000 {
                let position = Double(i) / 999
                let value = judge.value(of: gradient.color(at: position))
                scanWorst = min(scanWorst, value.worst)
                scanBest = max(scanBest, value.best)
                if case .segment(let k, let u) = line.place(of: position), !line.isInGamut(k, u) { mapped = true }
            }
            let margin = mapped ? 5e-3 : 1e-9
            if mapped {
                mappedCases += 1
                largestMapped = max(largestMapped, result.worst.ratio - scanWorst, scanBest - result.best.ratio)
            }
            #expect(result.worst.ratio <= scanWorst + margin, "\(css) with \(text.hex) over \(backdrop?.hex ?? "nothing"): \(result.worst) vs \(scanWorst), \(rng.replay)")
            #expect(result.best.ratio >= scanBest - margin, "\(css) with \(text.hex) over \(backdrop?.hex ?? "nothing"): \(result.best) vs \(scanBest), \(rng.replay)")
            // The reported point is a point of the line with that color and ratio.
            #expect(result.worst.position >= 0 && result.worst.position <= 1)
            #expect(judge.value(of: result.worst.color).worst == result.worst.ratio)
        }
        #expect(mappedCases > 40)
        print("gradient search: \(mappedCases) gamut-mapped lines, largest miss there \(largestMapped)")
    }

    /// A translucent gradient over an unknown backdrop is judged as ContrastMeasurement judges a
    /// translucent background, point by point.
    @Test func translucentOverUnknownBackdrop() throws {
        var rng = SeededGenerator(seed: 99)
        for _ in 0..<300 {
            let color = SRGB(rgb24: UInt32.random(in: 0...0xFFFFFF, using: &rng), alpha: Double.random(in: 0.05...0.95, using: &rng))
            let text = SRGB(rgb24: UInt32.random(in: 0...0xFFFFFF, using: &rng))
            let gradient = try Gradient(css: "linear-gradient(\(color.hex), \(color.hex))")
            let result = gradient.contrast(foreground: text, backdrop: nil)
            let measured = ContrastMeasurement(foreground: text, background: gradient.color(at: 0.5), backdrop: nil)
            #expect(abs(result.worst.ratio - measured.ratio) < 1e-9, "\(color.hex) \(text.hex) \(rng.replay)")
            #expect(abs(result.best.ratio - measured.bestRatio) < 1e-9, "\(color.hex) \(text.hex) \(rng.replay)")
            let over = gradient.contrast(foreground: text, backdrop: .white)
            let composited = ContrastMeasurement(foreground: text, background: gradient.color(at: 0.5), backdrop: .white)
            #expect(abs(over.worst.ratio - composited.ratio) < 1e-9 && abs(over.worst.ratio - over.best.ratio) < 1e-12)
        }
        // Black text on 50 % black over white: rgb(127.5 127.5 127.5).
        let half = try Gradient(css: "linear-gradient(rgb(0 0 0 / 50%), rgb(0 0 0 / 50%))")
        let gray = SRGB(red: 0.5, green: 0.5, blue: 0.5)
        #expect(abs(half.contrast(foreground: .black, backdrop: .white).worst.ratio - SRGB.black.contrastRatio(with: gray)) < 1e-12)
        // Over an unknown backdrop it may be anything from black (ratio 1) to that gray.
        #expect(half.contrast(foreground: .black, backdrop: nil).worst.ratio == 1)
    }

    // MARK: Stops and positions

    static func positions(_ css: String) throws -> [Double?] {
        try Gradient(css: css).stops.map(\.position)
    }

    /// CSS Images 3 §3.4.3, with the examples the section gives and two-position stops.
    @Test func stopFixup() throws {
        #expect(try Self.positions("linear-gradient(red, white 20%, blue)") == [0, 0.2, 1])
        #expect(try Self.positions("linear-gradient(red 40%, white, black, blue)") == [0.4, 0.6, 0.8, 1])
        #expect(try Self.positions("linear-gradient(red -50%, white, blue)") == [-0.5, 0.25, 1])
        #expect(try Self.positions("linear-gradient(red, white -50%, black 150%, blue)") == [0, 0, 1.5, 1.5])
        // Unordered positions clamp to the largest before them, hints included.
        #expect(try Self.positions("linear-gradient(red 50%, blue 20%, green)") == [0.5, 0.5, 1])
        #expect(try Self.positions("linear-gradient(red, 80%, blue 50%, green)") == [0, 0.8, 1])
        // A stop with two positions is two stops.
        #expect(try Self.positions("linear-gradient(red 0 20%, blue 60% 80%, green)") == [0, 0.2, 0.6, 0.8, 1])
        #expect(try Self.positions("conic-gradient(red 0deg 90deg, blue 0.5turn, green)") == [0, 0.25, 0.5, 1])
        #expect(try Self.positions("linear-gradient(red, blue, green, white, black)") == [0, 0.25, 0.5, 0.75, 1])
        // Lengths: unknown, and what is spread from them too (§3.4.3 example 4).
        let lengths = try Gradient(css: "linear-gradient(red -50px, white, blue)")
        #expect(lengths.hasLengthPositions)
        #expect(lengths.stops.map(\.position) == [nil, nil, 1])
        let calc = try Gradient(css: "linear-gradient(red calc(20% + 1em), blue calc(50% * 2))")
        #expect(calc.hasLengthPositions && calc.stops.map(\.position) == [nil, 1])
        #expect(try !Gradient(css: "linear-gradient(red calc(10% * 2), blue)").hasLengthPositions)
        #expect(try Self.positions("linear-gradient(red calc(10% * 2), blue)") == [0.2, 1])
    }

    /// With length positions every segment counts in full, whatever the box makes of them.
    @Test func lengthPositionsTakeEverySegment() throws {
        // If 300px is past 50% the blue → white stretch is a hard edge; it is judged anyway.
        let gradient = try Gradient(css: "linear-gradient(#0000ff 300px, #ffffff 50%)")
        let result = gradient.contrast(foreground: .black, backdrop: nil)
        #expect(result.worst.color == SRGB(red: 0, green: 0, blue: 1))
        #expect(result.best.color == .white)
        let mixed = try Gradient(css: "linear-gradient(#ff0000 10px, #00ff00 200px)")
        let straight = try Gradient(css: "linear-gradient(#ff0000, #00ff00)")
        #expect(abs(mixed.contrast(foreground: .black, backdrop: nil).worst.ratio - straight.contrast(foreground: .black, backdrop: nil).worst.ratio) < 1e-12)
    }

    /// CSS Images 3 §3.4.2: at the hint the two colors are half mixed; the weight is
    /// P^(log_H 0.5).
    @Test func transitionHints() throws {
        let gradient = try Gradient(css: "linear-gradient(#ff0000, 30%, #0000ff)")
        let half = gradient.color(at: 0.3)
        #expect(abs(half.red - 0.5) < 1e-12 && abs(half.blue - 0.5) < 1e-12)
        let p = 0.6, weight = pow(p, log(0.5) / log(0.3))
        #expect(abs(gradient.color(at: p).blue - weight) < 1e-12)
        // A hint on its first stop: the second color right after it.
        let edge = try Gradient(css: "linear-gradient(#ff0000, #0000ff 50%, 20%, #00ff00)")
        #expect(edge.color(at: 0.5000001) == SRGB(red: 0, green: 1, blue: 0))
        #expect(edge.color(at: 0.4999999).blue > 0.99)
    }

    @Test func repeatingGradients() throws {
        let stripes = try Gradient(css: "repeating-linear-gradient(#ff0000 0%, #0000ff 25%)")
        #expect(stripes.repeating && stripes.kind == .linear)
        #expect(abs(stripes.color(at: 0.3).red - stripes.color(at: 0.05).red) < 1e-12 && abs(stripes.color(at: 0.3).red - 0.8) < 1e-12)
        #expect(stripes.color(at: 0.75) == SRGB(red: 1, green: 0, blue: 0))
        let once = try Gradient(css: "linear-gradient(#ff0000, #0000ff)")
        for text in [SRGB.black, .white, SRGB(rgb24: 0x7f7f7f)] {
            let repeated = stripes.contrast(foreground: text, backdrop: nil), single = once.contrast(foreground: text, backdrop: nil)
            #expect(abs(repeated.worst.ratio - single.worst.ratio) < 1e-12)
            #expect(abs(repeated.worst.position - single.worst.position / 4) < 1e-6)
        }
        // A period longer than the line: only its first half is seen.
        let long = try Gradient(css: "repeating-linear-gradient(#000000 0%, #ffffff 200%)")
        #expect(abs(long.contrast(foreground: .black, backdrop: nil).best.ratio - SRGB.black.contrastRatio(with: SRGB(red: 0.5, green: 0.5, blue: 0.5))) < 1e-9)
        // A period that starts before the line: colors from its middle.
        let shifted = try Gradient(css: "repeating-linear-gradient(#000000 -50%, #ffffff 150%)")
        #expect(abs(shifted.color(at: 0).red - 0.25) < 1e-12)
        // No length at all: the average color (CSS Images 3 §3.3 gives rgb(75%, 50%, 75%)).
        let average = try Gradient(css: "repeating-linear-gradient(red 0%, white 0%, blue 0%)")
        let c = average.color(at: 0.4)
        #expect(abs(c.red - 0.75) < 1e-12 && abs(c.green - 0.5) < 1e-12 && abs(c.blue - 0.75) < 1e-12)
        #expect(average.contrast(foreground: .black, backdrop: nil).worst.color == c)
        let conic = try Gradient(css: "repeating-conic-gradient(from 90deg at 10% 20%, #000 0deg 30deg, #fff 30deg 60deg)")
        #expect(conic.kind == .conic && conic.color(at: 0.5).red == 0 && conic.color(at: 0.6).red == 1)
    }

    /// One stop (CSS Images 4, w3c/csswg-drafts#10092): a solid color.
    @Test func oneStopIsSolid() throws {
        for css in ["linear-gradient(red)", "radial-gradient(red 20%)", "conic-gradient(red 10% 20%)", "repeating-linear-gradient(red)"] {
            let gradient = try Gradient(css: css)
            let result = gradient.contrast(foreground: .white, backdrop: nil)
            #expect(result.worst.color == SRGB(red: 1, green: 0, blue: 0), "\(css)")
            #expect(result.worst.ratio == result.best.ratio && abs(result.worst.ratio - 1.05 / 0.2626) < 1e-12)
            #expect(gradient.color(at: 0.7) == SRGB(red: 1, green: 0, blue: 0))
        }
    }

    /// A radial gradient sized other than farthest-corner shows colors past 100 %.
    @Test func radialSizeAndTheEndOfTheLine() throws {
        let reaching = try Gradient(css: "radial-gradient(#000000, #808080 50%, #ffffff 200%)")
        let short = try Gradient(css: "radial-gradient(circle 10px at top left, #000000, #808080 50%, #ffffff 200%)")
        #expect(reaching.contrast(foreground: .black, backdrop: nil).best.ratio < 21)
        let past = short.contrast(foreground: .black, backdrop: nil).best
        #expect(past.ratio == 21 && past.position == 2)
        #expect(try Gradient(css: "radial-gradient(closest-side, red, blue)").extendsPastEnd)
        #expect(try !Gradient(css: "radial-gradient(ellipse farthest-corner at 20% 30%, red, blue)").extendsPastEnd)
    }

    // MARK: What is read

    @Test func interpolationSpace() throws {
        #expect(try Gradient(css: "linear-gradient(red, #00f, rgb(1 2 3), hsl(1 2% 3%), hwb(1 2% 3%), transparent)").interpolation == "srgb")
        #expect(try Gradient(css: "linear-gradient(red, oklch(0.5 0.1 30))").interpolation == "oklab")
        #expect(try Gradient(css: "linear-gradient(red, color(srgb 1 0 0))").interpolation == "oklab")
        #expect(try Gradient(css: "linear-gradient(red, rgb(from blue r g b))").interpolation == "oklab")
        #expect(try Gradient(css: "linear-gradient(red, color-mix(in srgb, red, blue))").interpolation == "oklab")
        #expect(try Gradient(css: "linear-gradient(in OKLCH LONGER HUE, red, blue)").interpolation == "oklch longer hue")
        #expect(try Gradient(css: "linear-gradient(in hsl, red, blue)").interpolation == "hsl shorter hue")
        #expect(try Gradient(css: "linear-gradient(to right in xyz, red, blue)").interpolation == "xyz-d65")
        #expect(try Gradient(css: "radial-gradient(in lab circle at center, red, blue)").interpolation == "lab")
        #expect(try Gradient(css: "conic-gradient(from 0 at 50% 50% in srgb-linear, red, blue)").interpolation == "srgb-linear")
    }

    @Test func preludes() throws {
        for css in ["linear-gradient(45deg, red, blue)", "linear-gradient(0, red, blue)", "linear-gradient(-1.5rad, red, blue)",
                    "linear-gradient(to top left, red, blue)", "linear-gradient(to bottom, red, blue)", "linear-gradient(0.25turn in oklab, red, blue)",
                    "radial-gradient(circle, red, blue)", "radial-gradient(ellipse 40px 20%, red, blue)", "radial-gradient(30px, red, blue)",
                    "radial-gradient(closest-corner circle at right 10px bottom 20%, red, blue)", "radial-gradient(at center, red, blue)",
                    "radial-gradient(at left top, red, blue)", "radial-gradient(farthest-side at 30%, red, blue)", "radial-gradient(10px 20px at top, red, blue)",
                    "conic-gradient(from 30deg, red, blue)", "conic-gradient(at 10px 20px, red 10%, blue 50grad)", "REPEATING-Radial-GRADIENT(red, blue 20%)",
                    "linear-gradient(/* a comment */ red 0 calc(10% + 5%), blue)", "  linear-gradient(red,blue)  "] {
            #expect(throws: Never.self, "\(css)") { _ = try Gradient(css: css) }
        }
        #expect(try Gradient(css: "linear-gradient(red, blue)").kind == .linear)
        #expect(try Gradient(css: "repeating-radial-gradient(red, blue)").kind == .radial)
        #expect(try Gradient(css: "repeating-radial-gradient(red, blue)").repeating)
    }

    /// Exact messages, with the byte each problem starts at.
    @Test(arguments: [
        ("linear-gradient(url(x.png), red)", ColorParseError.Code.image,
         "'linear-gradient(url(x.png), red)' at byte 16: url() is an image, but the stops of linear-gradient() are colors; expected a color like #1a2b3c or rebeccapurple"),
        ("linear-gradient()", .wrongArguments,
         "'linear-gradient()' at byte 16: linear-gradient() needs at least one color stop (like linear-gradient(red, blue)), found ')'"),
        ("linear-gradient(in foo, red, blue)", .invalidArgument,
         "'linear-gradient(in foo, red, blue)' at byte 19: linear-gradient() interpolates in a color space: expected srgb, srgb-linear, display-p3, display-p3-linear, a98-rgb, prophoto-rgb, rec2020, lab, oklab, xyz, xyz-d50, xyz-d65, hsl, hwb, lch or oklch, found 'foo'"),
        ("linear-gradient(red, blue", .unexpectedEnd,
         "'linear-gradient(red, blue' at byte 25: linear-gradient( is not closed: expected ',' or ')' after its last stop"),
        ("banana", .notGradient,
         "'banana' at byte 0: expected linear-gradient(), radial-gradient(), conic-gradient() or a repeating- form, found 'banana'"),
        ("", .empty, "'' at byte 0: expected a gradient like linear-gradient(red, blue), found nothing"),
        ("#ff0000", .notGradient,
         "'#ff0000' at byte 0: '#ff0000' is a color, not a gradient; expected linear-gradient(), radial-gradient(), conic-gradient() or a repeating- form"),
        ("rgb(0 0 0)", .notGradient,
         "'rgb(0 0 0)' at byte 0: rgb() is a color, not a gradient; expected linear-gradient(), radial-gradient(), conic-gradient() or a repeating- form"),
        ("url(bg.png)", .image,
         "'url(bg.png)' at byte 0: url() is an image whose colors are not in the text; expected linear-gradient(), radial-gradient(), conic-gradient() or a repeating- form"),
        ("image-set(\"a.png\" 1x)", .image,
         "'image-set(\"a.png\" 1x)' at byte 0: image-set() is an image whose colors are not in the text; expected linear-gradient(), radial-gradient(), conic-gradient() or a repeating- form"),
        ("-webkit-linear-gradient(top, red, blue)", .notGradient,
         "'-webkit-linear-gradient(top, red, blue)' at byte 0: -webkit-linear-gradient() is a prefixed gradient with an older syntax; write it without the prefix"),
        ("linear-gradient(red, blue) no-repeat", .trailingInput,
         "'linear-gradient(red, blue) no-repeat' at byte 27: expected the end of the gradient after its ')', found 'no-repeat'"),
        ("linear-gradient(red blue)", .wrongArguments,
         "'linear-gradient(red blue)' at byte 20: expected ',' or ')' after a color stop of linear-gradient(), found 'blue'"),
        ("linear-gradient(10%, red)", .wrongArguments,
         "'linear-gradient(10%, red)' at byte 16: a transition hint (a position alone) goes between two color stops; linear-gradient() starts with one"),
        ("linear-gradient(red, 10%)", .wrongArguments,
         "'linear-gradient(red, 10%)' at byte 21: a transition hint (a position alone) goes between two color stops; linear-gradient() ends with one"),
        ("linear-gradient(red, 10%, 20%, blue)", .wrongArguments,
         "'linear-gradient(red, 10%, 20%, blue)' at byte 26: two transition hints in a row in linear-gradient(); a color stop goes between them"),
        ("linear-gradient(10% red, blue)", .invalidArgument,
         "'linear-gradient(10% red, blue)' at byte 16: a color stop starts with its color: expected a color before '10%' in linear-gradient()"),
        ("linear-gradient(red 1% 2% 3%, blue)", .wrongArguments,
         "'linear-gradient(red 1% 2% 3%, blue)' at byte 26: a color stop of linear-gradient() takes at most two positions, found a third"),
        ("linear-gradient(red 50, blue)", .invalidArgument,
         "'linear-gradient(red 50, blue)' at byte 20: a number alone cannot place anything in linear-gradient(); expected a percentage or a length (like 25% or 20px)"),
        ("conic-gradient(red 10px, blue)", .invalidArgument,
         "'conic-gradient(red 10px, blue)' at byte 19: 'px' cannot place anything in conic-gradient(); expected an angle or a percentage (like 90deg or 25%)"),
        ("linear-gradient(red 90deg, blue)", .invalidArgument,
         "'linear-gradient(red 90deg, blue)' at byte 20: 'deg' cannot place anything in linear-gradient(); expected a percentage or a length (like 25% or 20px)"),
        ("linear-gradient(to middle, red, blue)", .invalidArgument,
         "'linear-gradient(to middle, red, blue)' at byte 19: expected left, right, top or bottom after 'to' in linear-gradient(), found 'middle'"),
        ("linear-gradient(45deg red, blue)", .wrongArguments,
         "'linear-gradient(45deg red, blue)' at byte 22: expected ',' after the angle of linear-gradient(), found 'red'"),
        ("linear-gradient(in oklab in srgb, red, blue)", .wrongArguments,
         "'linear-gradient(in oklab in srgb, red, blue)' at byte 25: linear-gradient() takes one color interpolation method ('in …')"),
        ("linear-gradient(in srgb longer hue, red, blue)", .invalidArgument,
         "'linear-gradient(in srgb longer hue, red, blue)' at byte 24: 'longer hue' applies to a space with a hue (hsl, hwb, lch, oklch), not srgb"),
        ("radial-gradient(ellipse 10px, red, blue)", .invalidArgument,
         "'radial-gradient(ellipse 10px, red, blue)' at byte 24: an ellipse's size in radial-gradient() is two lengths or percentages (like 40px 20%) or closest-side, closest-corner, farthest-side or farthest-corner"),
        ("radial-gradient(circle 10%, red, blue)", .invalidArgument,
         "'radial-gradient(circle 10%, red, blue)' at byte 23: a circle's size in radial-gradient() is one length (like 40px) or closest-side, closest-corner, farthest-side or farthest-corner"),
        ("radial-gradient(at left 10% top, red, blue)", .invalidArgument,
         "'radial-gradient(at left 10% top, red, blue)' at byte 19: 'at' in radial-gradient() takes a position of 1, 2 or 4 values (like 'at center', 'at left 30%' or 'at right 10px bottom 20%')"),
        ("conic-gradient(from red, blue)", .invalidArgument,
         "'conic-gradient(from red, blue)' at byte 20: expected an angle after 'from' in conic-gradient() (like 'from 90deg'), found 'red'"),
        ("linear-gradient(red, bleu)", .unknownName,
         "'linear-gradient(red, bleu)' at byte 21: 'bleu' is not a CSS color name (did you mean 'blue'?)"),
        ("linear-gradient(currentColor, red)", .contextDependent,
         "'linear-gradient(currentColor, red)' at byte 16: 'currentColor' takes the value of an element's color property, so it has no color of its own here; give a concrete color"),
        ("linear-gradient(linear-gradient(red, blue), red)", .image,
         "'linear-gradient(linear-gradient(red, blue), red)' at byte 16: linear-gradient() is an image, but the stops of linear-gradient() are colors; expected a color like #1a2b3c or rebeccapurple"),
        ("linear-gradient(red, light-dark(white, black))", .schemeDependent,
         "'linear-gradient(red, light-dark(white, black))' at byte 21: light-dark() is one color in a light color scheme and another in a dark one, and no color scheme was given"),
    ])
    func rejects(text: String, code: ColorParseError.Code, description: String) {
        do {
            let gradient = try Gradient(css: text)
            Issue.record("\(text) was read as \(gradient)")
        } catch {
            #expect(error.code == code, "\(text)")
            #expect(error.description == description)
        }
    }

    @Test func schemes() throws {
        let css = "linear-gradient(red, light-dark(white, black))"
        #expect(try Gradient(css: css, scheme: .light).stops[1].color.color == .white)
        #expect(try Gradient(css: css, scheme: .dark).stops[1].color.color == .black)
        let dark = try Gradient(css: css, scheme: .dark)
        #expect(dark.dependsOnScheme && dark.stops[1].color.dependsOnScheme && !dark.stops[0].color.dependsOnScheme)
        #expect(try !Gradient(css: "linear-gradient(red, blue)", scheme: .dark).dependsOnScheme)
    }

    @Test func hostileInput() {
        let long = "linear-gradient(" + String(repeating: "red, ", count: 2000) + "blue)"
        do {
            _ = try Gradient(css: long)
            Issue.record("a 10 KB gradient was read")
        } catch {
            #expect(error.code == .tooLong)
            #expect(error.message == "gradient text is 10021 bytes; the limit is 8192")
        }
        let many = "linear-gradient(" + String(repeating: "#000,#fff,", count: 400) + "#000)"
        let gradient = try? Gradient(css: many)
        #expect(gradient?.stops.count == 801)
        #expect(gradient?.contrast(foreground: .black, backdrop: nil).worst.ratio == 1)
        let unclosed = "linear-gradient(red calc(10% + (5px"
        #expect(throws: ColorParseError.self) { _ = try Gradient(css: unclosed) }
    }

    /// Token soup inside gradient functions: every text is read or refused with an offset
    /// inside it, and whatever is read can be judged, its worst point a point of its line.
    @Test func randomTextIsReadOrRefused() {
        var rng = SeededGenerator(seed: 31)
        let functions = ["linear-gradient(", "radial-gradient(", "conic-gradient(", "repeating-linear-gradient(", "repeating-conic-gradient("]
        let colors = ["red", "#0969da80", "oklch(0.7 0.2 30 / 0.5)", "hsl(none 50% 50%)", "transparent", "lab(50 120 -100)", "color(display-p3 0 1 0)"]
        let others = ["(", ")", "in", "oklch", "longer", "hue", "hsl", "to", "left", "at", "center", "from", "circle", "closest-side", "0", "10%",
                      "-20%", "150%", "3px", "90deg", "1e3%", "calc(", "calc(50% + 1px)", "calc(nan * 1%)", "calc(infinity * 1%)", "min(10%, 20%)",
                      "url(x)", "none", "/"]
        var read = 0
        for _ in 0..<3000 {
            var text = functions.randomElement(using: &rng) ?? ""
            for _ in 0..<Int.random(in: 1...10, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<4: text += (colors.randomElement(using: &rng) ?? "") + " "
                case 4..<7: text += ", "
                default: text += (others.randomElement(using: &rng) ?? "") + " "
                }
            }
            if Int.random(in: 0..<5, using: &rng) > 0 { text += ")" }
            do {
                let gradient = try Gradient(css: text)
                read += 1
                let result = gradient.contrast(foreground: .black, backdrop: nil)
                #expect(result.worst.ratio >= 1 && result.worst.ratio <= result.best.ratio && result.best.ratio <= 21, "\(text) \(rng.replay)")
                #expect(result.worst.position.isFinite && result.best.position.isFinite, "\(text) \(rng.replay)")
            } catch {
                #expect(error.offset >= 0 && error.offset <= text.utf8.count, "\(text): \(error) \(rng.replay)")
            }
        }
        #expect(read > 50)
        print("gradient token soup: \(read) of 3000 read")
        #expect(throws: ColorParseError.self) { _ = try Gradient(css: "linear-gradient(red calc(nan * 1%), blue)") }
    }

    @Test func isGradient() {
        for text in ["linear-gradient(red, blue)", "  Radial-Gradient(", "repeating-conic-gradient(x", "\nREPEATING-LINEAR-GRADIENT("] {
            #expect(Gradient.isGradient(text), "\(text)")
        }
        for text in ["red", "linear-gradient", "linear-gradient (red)", "repeating-gradient(", "-webkit-linear-gradient(red, blue)", "url(a.png)", "",
                     "repeating-", "\u{00A0}linear-gradient(", "linéar-gradient(", "\u{212A}onic-gradient(", "conic-gradient"] {
            #expect(!Gradient.isGradient(text), "\(text)")
        }
        // A string that shares another's storage is read the same.
        let long = "value: linear-gradient(red, blue)"
        #expect(Gradient.isGradient(String(long.dropFirst(7))))
        #expect(!Gradient.isGradient(String(long.dropFirst(6).prefix(15))))
    }

    // MARK: Design tokens

    @Test func designTokenStops() throws {
        let blue = try CSSColor.parse("#0969da"), light = try CSSColor.parse("#f6f8fa"), red = try CSSColor.parse("oklch(0.55 0.2 25)")
        let legacy = try Gradient(stops: [blue, light], positions: [0, 1])
        #expect(legacy.interpolation == "srgb" && legacy.kind == .linear && !legacy.repeating)
        let css = try Gradient(css: "linear-gradient(#0969da, #f6f8fa)")
        #expect(legacy.contrast(foreground: .black, backdrop: nil) == css.contrast(foreground: .black, backdrop: nil))
        // Another notation: Oklab; positions clamped to 0...1 and never backwards.
        let mixed = try Gradient(stops: [blue, red, light], positions: [-0.5, 0.7, 0.4])
        #expect(mixed.interpolation == "oklab")
        #expect(mixed.stops.map(\.position) == [0, 0.7, 0.7])
        // A color outside sRGB keeps its unmapped components for interpolating.
        let wide = try CSSColor.parse("color(display-p3 0 1 0)")
        let p3 = try Gradient(stops: [wide, light], positions: [0, 1])
        let fromCSS = try Gradient(css: "linear-gradient(in oklab, color(display-p3 0 1 0), #f6f8fa)")
        let a = p3.color(at: 0.3), b = fromCSS.color(at: 0.3)
        #expect(abs(a.red - b.red) < 1e-6 && abs(a.green - b.green) < 1e-6 && abs(a.blue - b.blue) < 1e-6)
    }

    @Test(arguments: [
        (2, 3, [0.0, 1.0], "'gradient [#0969da 0.0, #f6f8fa 1.0]' at byte 0: 2 stop colors but 3 positions; each stop needs one"),
        (1, 1, [Double.nan], "'gradient [#0969da nan]' at byte 0: the position of stop 1 is nan; expected a number from 0 to 1"),
        (0, 0, [], "'gradient []' at byte 0: a gradient needs at least one stop"),
    ])
    func designTokenErrors(colorCount: Int, positionCount: Int, values: [Double], description: String) throws {
        let colors = try [CSSColor.parse("#0969da"), CSSColor.parse("#f6f8fa")].prefix(colorCount)
        let positions = Array(([values, [0.5, 0.5, 0.5]].joined()).prefix(positionCount))
        do {
            _ = try Gradient(stops: Array(colors), positions: positions)
            Issue.record("accepted")
        } catch {
            #expect(error.description == description)
        }
    }
}

/// Found by `scripts/fuzz.sh --runs 20000 800` (fuzz-color): a hard edge at the gradient's
/// last stop left the color after it out of the worst point, although the line shows it there.
@Suite struct GradientEndEdgeTests {
    @Test func aHardEdgeAtTheLastStopCountsTheColorAfterIt() throws {
        for text in ["linear-gradient(in oklch longer hue, #ff0000 100%, transparent)\n", "linear-gradient(#ff0000 100%, #ffffff)",
                     "linear-gradient(#ffffff, #ff0000 100%, #000000 100%)"] {
            let gradient = try Gradient(css: text)
            let extremes = gradient.contrast(foreground: .black, backdrop: nil)
            for step in 0...16 {
                let ratio = ContrastMeasurement(foreground: .black, background: gradient.color(at: Double(step) / 16)).ratio
                #expect(extremes.worst.ratio <= ratio + 1e-9 && extremes.best.ratio >= ratio - 1e-9, "\(text) at \(step)/16")
            }
            let end = ContrastMeasurement(foreground: .black, background: gradient.color(at: 1)).ratio
            #expect(extremes.worst.ratio == end || extremes.best.ratio == end, "\(text): the end's color is an extreme")
        }
    }
}
