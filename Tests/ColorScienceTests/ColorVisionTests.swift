@testable import ColorScience
import Foundation
import Testing
import TestSupport

/// cvd_vectors.json: DaltonLens (Viénot 1999, Brettel 1997) and colorspacious (Machado 2009).
struct CVDVectorFile: Decodable {
    struct Case: Decodable {
        var deficiency: String
        var severity: Double?
        var color: String
        var simulated: [Double]
    }
    var dichromacy: [Case]
    var anomaly: [Case]
}

@Suite struct ColorVisionTests {
    func hex(_ text: String) -> SRGB { try! SRGB(css: text) }

    /// Our simulation against the two independent implementations. Viénot and Brettel agree to
    /// 1e-6 (the same model, constants to 12 digits); Machado to 2e-6 (the published matrices
    /// have six decimals; colorspacious reads them from the same table).
    @Test func agreesWithDaltonLensAndColorspacious() throws {
        let file = try loadVectors("cvd_vectors", as: CVDVectorFile.self)
        #expect(file.dichromacy.count == 171)
        #expect(file.anomaly.count == 590)
        var worst = 0.0
        for c in file.dichromacy {
            let deficiency = try #require(ColorVisionDeficiency(name: c.deficiency))
            let seen = deficiency.simulate(hex(c.color))
            let error = max(abs(seen.red - c.simulated[0]), abs(seen.green - c.simulated[1]), abs(seen.blue - c.simulated[2]))
            worst = max(worst, error)
            #expect(error < 1e-6, "\(c.deficiency) \(c.color): \(seen) vs \(c.simulated)")
        }
        for c in file.anomaly {
            let severity = try #require(c.severity)
            let deficiency = try #require(ColorVisionDeficiency(name: "\(c.deficiency):\(severity)"))
            let seen = deficiency.simulate(hex(c.color))
            let error = max(abs(seen.red - c.simulated[0]), abs(seen.green - c.simulated[1]), abs(seen.blue - c.simulated[2]))
            worst = max(worst, error)
            #expect(error < 2e-6, "\(c.deficiency) \(severity) \(c.color): \(seen) vs \(c.simulated)")
        }
        #expect(worst > 0)  // the comparison compared something
    }

    @Test func dichromacyIsIdempotent() {
        // A dichromat's view is a projection: seen again, it does not change (on linear light,
        // before the gamut clamp, which is not part of the model).
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<2_000 {
            let linear = SIMD3<Double>(.random(in: 0...1, using: &generator), .random(in: 0...1, using: &generator), .random(in: 0...1, using: &generator))
            for deficiency in [ColorVisionDeficiency.protanopia, .deuteranopia, .tritanopia, .achromatopsia] {
                let once = deficiency.simulateLinear(linear), twice = deficiency.simulateLinear(once)
                let d: SIMD3<Double> = once - twice
                let moved = max(abs(d.x), abs(d.y), abs(d.z))
                #expect(moved < 1e-9, "\(deficiency) \(linear): \(once) then \(twice); \(generator.replay)")
            }
        }
    }

    @Test func severityZeroIsNormalVision() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let color = SRGB(red: .random(in: 0...1, using: &generator), green: .random(in: 0...1, using: &generator), blue: .random(in: 0...1, using: &generator), alpha: 0.5)
            for deficiency in [ColorVisionDeficiency.protanomaly(severity: 0), .deuteranomaly(severity: 0), .tritanomaly(severity: 0)] {
                let seen = deficiency.simulate(color)
                #expect(abs(seen.red - color.red) < 1e-12 && abs(seen.green - color.green) < 1e-12 && abs(seen.blue - color.blue) < 1e-12, "\(generator.replay)")
                #expect(seen.alpha == 0.5)
            }
        }
    }

    @Test func achromatopsiaKeepsLuminanceAndWhiteStaysWhite() {
        let red = SRGB(red: 1, green: 0, blue: 0)
        let gray = ColorVisionDeficiency.achromatopsia.simulate(red)
        #expect(abs(gray.relativeLuminance - red.relativeLuminance) < 1e-12)
        #expect(gray.red == gray.green && gray.green == gray.blue)
        for deficiency in ColorVisionDeficiency.all {
            #expect(deficiency.simulate(.white).hex == "#ffffff", "\(deficiency)")
            #expect(deficiency.simulate(.black).hex == "#000000", "\(deficiency)")
        }
    }

    @Test func namesRoundTripAndUnknownOnesAreRefused() {
        for deficiency in ColorVisionDeficiency.all {
            #expect(ColorVisionDeficiency(name: deficiency.name) == deficiency)
        }
        #expect(ColorVisionDeficiency(name: "Deuteranomaly:0.4") == .deuteranomaly(severity: 0.4))
        #expect(ColorVisionDeficiency(name: "deuteranomaly:1.5") == nil)
        #expect(ColorVisionDeficiency(name: "deuteranopia:0.4") == nil)
        #expect(ColorVisionDeficiency(name: "purple") == nil)
        #expect(ColorVisionDeficiency.deuteranomaly(severity: 0.6).description == "deuteranomaly 60%")
        #expect(ColorVisionDeficiency.all.map(\.description) == ["protanopia", "deuteranopia", "tritanopia", "protanomaly 60%", "deuteranomaly 60%", "tritanomaly 60%", "achromatopsia"])
    }

    @Test func redAndGreenStatusColorsAreConfusableForDeuteranopes() {
        // Tailwind's red-600 and green-600: 70.9 apart in normal vision, 8.3 for a deuteranope
        // (CIEDE2000 in D50 Lab, as CSS lab(); ColorAide 8.13's Viénot filter and its D65 Lab
        // give 72.5 and 8.5).
        let a = Distinguishability.assess(hex("#dc2626"), hex("#16a34a"))
        #expect(!a.indistinctInNormalVision)
        #expect(a.confusable)
        #expect(a.worstDeficiency == .deuteranopia)
        #expect(abs(a.normalDifference - 70.92) < 0.01)
        #expect(abs((a.simulatedDifference ?? 0) - 8.34) < 0.01)
        #expect((a.simulatedDifference ?? 99) < Distinguishability.defaultThreshold)
        // Blue and orange stay apart for every dichromacy.
        let b = Distinguishability.assess(hex("#0969da"), hex("#ffb000"))
        #expect(!b.confusable && !b.indistinctInNormalVision)
        // The same color twice is not told apart even in normal vision.
        let c = Distinguishability.assess(hex("#1a7f37"), hex("#1a7f37"))
        #expect(c.indistinctInNormalVision && !c.confusable && c.normalDifference == 0)
    }

    /// Colors prepared once and weighed against many give the same assessment as two colors
    /// assessed from scratch, the way it was worked out before colors were prepared: each
    /// simulated, its CIELAB from the linear light, the least difference named. Kept colors are
    /// the same as fresh ones, and a second color prepared under other deficiencies is prepared
    /// again under the first's.
    @Test func preparedColorsAssessAsFromScratch() {
        var random = SeededGenerator(seed: 11)
        func color() -> SRGB {
            let alpha = Bool.random(using: &random) ? 1 : Double.random(in: 0...1, using: &random)
            return SRGB(rgb24: UInt32.random(in: 0...0xFFFFFF, using: &random), alpha: alpha)
        }
        func fromScratch(_ a: SRGB, _ b: SRGB, _ threshold: Double, _ deficiencies: [ColorVisionDeficiency]) -> Distinguishability.Assessment {
            let first = a.opaque, second = b.opaque
            let normal = ColorDifference.ciede2000(first, second)
            var expected = Distinguishability.Assessment(normalDifference: normal, confusable: false, indistinctInNormalVision: normal < threshold)
            let simulated = deficiencies.map { d in
                let sa = d.simulatedLinear(first), sb = d.simulatedLinear(second)
                return (sa, sb, ColorDifference.ciede2000(CIELab(XYZ(XYZ.fromLinearSRGB * sa)), CIELab(XYZ(XYZ.fromLinearSRGB * sb))))
            }
            if let worst = ColorVisionDeficiency.lowest(simulated.map(\.2)) {
                expected.worstDeficiency = deficiencies[worst.index]
                expected.simulatedDifference = worst.value
                expected.simulatedFirst = ColorVisionDeficiency.encoded(simulated[worst.index].0, alpha: 1)
                expected.simulatedSecond = ColorVisionDeficiency.encoded(simulated[worst.index].1, alpha: 1)
                expected.confusable = normal >= threshold && worst.value < threshold
            }
            return expected
        }
        let others = ["protanomaly", "tritanomaly", "achromatopsia"].compactMap { ColorVisionDeficiency(name: $0) }
        var kept = Distinguishability.PreparedColors()
        let palette = (0..<40).map { _ in color() } + [hex("#dc2626"), hex("#16a34a"), .white, .black]
        for (i, a) in palette.enumerated() {
            for b in palette[i...] {
                for (threshold, deficiencies) in [(9.0, ColorVisionDeficiency.audited), (3.0, others), (20.0, []), (9.0, Array(others.prefix(1)))] {
                    let expected = fromScratch(a, b, threshold, deficiencies)
                    #expect(Distinguishability.assess(a, b, threshold: threshold, under: deficiencies) == expected, "\(a.hex) \(b.hex)")
                    let pa = kept.prepared(a, under: deficiencies), pb = kept.prepared(b, under: deficiencies)
                    #expect(Distinguishability.assess(pa, pb, threshold: threshold) == expected, "\(a.hex) \(b.hex) kept")
                    // The second prepared under the audited deficiencies: taken under the first's.
                    #expect(Distinguishability.assess(pa, kept.prepared(b), threshold: threshold) == expected, "\(a.hex) \(b.hex) mixed")
                }
            }
        }
    }

    /// What is measured of a simulated color starts from its linear light: the encoded color
    /// is that light encoded, and measuring the encoded color again gives the same luminance
    /// and CIELab but for the rounding of the round trip.
    @Test func theSimulatedColorIsItsLinearLightEncoded() {
        var random = SeededGenerator(seed: 7)
        func unit() -> Double { Double.random(in: 0...1, using: &random) }
        let others = ["protanomaly", "tritanomaly", "achromatopsia"].compactMap { ColorVisionDeficiency(name: $0) }
        #expect(others.count == 3)
        for deficiency in ColorVisionDeficiency.audited + others {
            for _ in 0..<500 {
                let color = SRGB(red: unit(), green: unit(), blue: unit())
                let linear = deficiency.simulatedLinear(color)
                let seen = deficiency.simulate(color)
                #expect(seen == ColorVisionDeficiency.encoded(linear, alpha: 1))
                #expect(all(linear .>= 0) && all(linear .<= 1))
                let direct = WCAG.relativeLuminance(linear: linear), again = seen.relativeLuminance
                #expect(abs(direct - again) <= 1e-15 + 1e-13 * direct, "\(deficiency.name) \(color.hex), seed \(random.seed)")
                let lab = CIELab(XYZ(XYZ.fromLinearSRGB * linear)), labAgain = CIELab(seen)
                #expect(ColorDifference.ciede2000(lab, labAgain) < 1e-9)
            }
        }
    }

    /// The simulation's clamp to the gamut is SIMD's `clamped(lowerBound:upperBound:)` lane by
    /// lane, for out-of-range, signed-zero, infinite and NaN light as for the rest; the lowest
    /// read by index is the lowest of the array.
    @Test func theClampIsTheSIMDClampAndTheLowestByIndexTheArrays() {
        let specials: [Double] = [-1, -0.0, 0, 0.5, 1, 1.5, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, 1 + .ulpOfOne]
        for deficiency in ColorVisionDeficiency.audited + ["tritanomaly", "achromatopsia"].compactMap({ ColorVisionDeficiency(name: $0) }) {
            for x in specials {
                for y in specials {
                    let linear = SIMD3(x, y, 0.25)
                    let expected = deficiency.simulateLinear(linear).clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
                    let got = deficiency.simulatedLinear(linear: linear)
                    for lane in 0..<3 {
                        #expect(got[lane].bitPattern == expected[lane].bitPattern, "\(deficiency.name) \(linear)")
                    }
                }
            }
        }
        // The clamp itself, on lanes the simulation rarely yields (-0.0 among them).
        for x in specials {
            for y in specials {
                let lanes = SIMD3(x, y, -0.0)
                let expected = lanes.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
                let got = ColorVisionDeficiency.clampedToGamut(lanes)
                for lane in 0..<3 { #expect(got[lane].bitPattern == expected[lane].bitPattern, "\(lanes)") }
            }
        }
        var random = SeededGenerator(seed: 11)
        for _ in 0..<1_000 {
            let values = (0..<Int.random(in: 0...5, using: &random)).map { _ in [1.0, 2.0, 2.0 + 1e-12, .nan][Int.random(in: 0...3, using: &random)] }
            let byIndex = ColorVisionDeficiency.lowest(count: values.count) { values[$0] }
            // As the array's minimum and first index within the tolerance; nil when there is
            // none (no values, or a NaN first, which nothing is less than).
            var expected: (index: Int, value: Double)?
            if let m = values.min(), let i = values.firstIndex(where: { $0 - m <= 1e-9 * abs(m) + 1e-12 }) { expected = (i, m) }
            #expect(byIndex?.index == expected?.index, "\(values)")
            #expect(byIndex?.value.bitPattern == expected?.value.bitPattern, "\(values)")
        }
    }

    /// The lowest of values measured under several deficiencies is the true lowest; the one
    /// named is the first within a part in a billion of it.
    @Test func theLowestIsTrueAndTiesNameTheFirst() {
        // A gray on white just at 4.5:1: the third is lower by 1e-12 of it. The verdict must see
        // 4.49999999999999 (a fail), whichever is named.
        let pick = ColorVisionDeficiency.lowest([4.5000000000025, 4.5000000000025, 4.49999999999999])
        #expect(pick?.index == 0 && pick?.value == 4.49999999999999)
        #expect(ColorVisionDeficiency.lowest([3, 2, 2.5])?.index == 1)
        #expect(ColorVisionDeficiency.lowest([7, 7.1, 6.9999999])?.index == 2)  // 1.4e-8 apart: not a tie
        #expect(ColorVisionDeficiency.lowest([0, 1e-14, 5])?.index == 0)  // differences of 0 tie only with themselves and noise
        #expect(ColorVisionDeficiency.lowest([1e-14, 0])?.index == 0)
        #expect(ColorVisionDeficiency.lowest([0.5, 0])?.index == 1)
        #expect(ColorVisionDeficiency.lowest([]) == nil)
    }
}
