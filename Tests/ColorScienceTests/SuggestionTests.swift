@testable import ColorScience
import Foundation
import Testing
import TestSupport

@Suite struct SuggestionTests {
    @Test func grayOnWhiteBecomesTheNearestPassingGray() throws {
        let result = NearestPassing.suggest(for: try SRGB(css: "#777777"), against: .white, role: .foreground, target: .AA(.text))
        #expect(!result.alreadyPasses)
        let first = try #require(result.suggestions.first)
        #expect(first.direction == "darker")
        #expect(first.color.hex == "#767676")  // the well-known lightest gray that passes on white
        #expect(first.ratio >= 4.5)
        #expect(result.suggestions.count == 1)  // nothing lighter than #777 passes on white
    }

    @Test func impossibleTargetsSaySoWithTheBestReachable() throws {
        let gray = try SRGB(css: "#777777")
        let result = NearestPassing.suggest(for: try SRGB(css: "#2563eb"), against: gray, role: .foreground, target: .AAA(.text))
        #expect(result.suggestions.isEmpty)
        let best = try #require(result.bestReachableRatio)
        #expect(abs(best - max(SRGB.white.contrastRatio(with: gray), SRGB.black.contrastRatio(with: gray))) < 1e-12)
        #expect(best < 7)
    }

    /// Over thousands of random pairs and targets: every suggestion meets its target after 8-bit
    /// rounding; keeps the hue unless it is near black/white or gamut-forced; nothing of that
    /// hue passes closer along the lightness axis; and impossibility is reported exactly when
    /// brute force finds nothing.
    @Test func propertiesOverRandomPairs() {
        var generator = SeededGenerator(seed: 99)
        let targets: [ContrastTarget] = [.ratio(3), .ratio(4.5), .ratio(7), .lc(60), .lc(75), ContrastTarget(ratio: 4.5, lc: 60)]
        var checked = 0
        var maxDeltaH = 0.0
        for index in 0..<1500 {
            let color = SRGB.random(using: &generator), other = SRGB.random(using: &generator)
            let target = targets[index % targets.count]
            let role: PairRole = index % 3 == 0 ? .background : .foreground
            let result = NearestPassing.suggest(for: color, against: other, role: role, target: target)
            func meets(_ c: SRGB) -> Bool {
                role == .foreground ? target.isMet(foreground: c, background: other) : target.isMet(foreground: other, background: c)
            }
            if result.alreadyPasses { continue }
            let lch = OKLCH(color)
            // Brute force along lightness.
            var passingLighter: Double?, passingDarker: Double?
            var l = lch.l
            while l <= 1 {
                if meets(NearestPassing.candidate(lch, l: l)) { passingLighter = l; break }
                l += 0.0005
            }
            if passingLighter == nil && meets(NearestPassing.candidate(lch, l: 1)) { passingLighter = 1 }
            l = lch.l
            while l >= 0 {
                if meets(NearestPassing.candidate(lch, l: l)) { passingDarker = l; break }
                l -= 0.0005
            }
            if passingDarker == nil && meets(NearestPassing.candidate(lch, l: 0)) { passingDarker = 0 }
            #expect(result.suggestions.isEmpty == (passingLighter == nil && passingDarker == nil),
                    "\(generator.replay): \(color) vs \(other) \(role) \(target): \(result.suggestions.map(\.color.hex)) brute \(String(describing: passingLighter)) \(String(describing: passingDarker))")
            for s in result.suggestions {
                checked += 1
                #expect(meets(s.color), "\(generator.replay): \(s.color.hex) must meet \(target)")
                #expect(s.color == s.color.quantized, "\(generator.replay)")
                let found = OKLCH(s.color)
                // Nothing closer along the lightness axis passes (within the brute-force step).
                if s.direction == "lighter", let brute = passingLighter { #expect(found.l <= brute + 0.004, "\(generator.replay): \(color): lighter \(found.l) vs brute \(brute)") }
                if s.direction == "darker", let brute = passingDarker { #expect(found.l >= brute - 0.004, "\(generator.replay): \(color): darker \(found.l) vs brute \(brute)") }
                // The hue is kept: the hue difference ΔH (in OKLab units, 2·√(C₁C₂)·sin(Δh/2)) stays
                // within the CSS gamut-mapping JND (0.02) plus the 8-bit rounding of the result.
                var dh = abs(found.h - lch.h)
                if dh > 180 { dh = 360 - dh }
                let deltaH = 2 * (lch.c * found.c).squareRoot() * sin(dh / 2 * .pi / 180)
                // Gamut-forced cases (the original chroma does not fit at the new lightness, so
                // chroma was reduced, near black and white most of all) are exempt.
                let forced = !GamutMapping.isInGamut(OKLCH(l: found.l, c: lch.c, h: lch.h).oklab.xyz.unclampedSRGB)
                if forced { continue }
                maxDeltaH = max(maxDeltaH, deltaH)
                #expect(deltaH < 0.025, "\(generator.replay): \(color) → \(s.color.hex): hue \(lch.h) → \(found.h), C \(lch.c) → \(found.c)")
            }
            if result.suggestions.count == 2 {
                #expect(result.suggestions[0].deltaEOK <= result.suggestions[1].deltaEOK, "\(generator.replay)")
            }
        }
        #expect(checked > 800)
        print("suggestions checked: \(checked), largest hue difference ΔH: \(maxDeltaH)")
    }

    @Test func bothSidesMoveLessThanEitherAlone() throws {
        let fg = try SRGB(css: "#6b21a8"), bg = try SRGB(css: "#e9d5ff")
        let both = try #require(NearestPassing.suggestBoth(foreground: fg, background: bg, target: .ratio(7)))
        #expect(both.foreground.color.contrastRatio(with: both.background.color) >= 7)
        let fgOnly = try #require(NearestPassing.suggest(for: fg, against: bg, role: .foreground, target: .ratio(7)).suggestions.first)
        let bgOnly = try #require(NearestPassing.suggest(for: bg, against: fg, role: .background, target: .ratio(7)).suggestions.first)
        // Each side moves less than either would alone.
        let larger = max(both.foreground.deltaEOK, both.background.deltaEOK)
        #expect(larger < fgOnly.deltaEOK && larger < bgOnly.deltaEOK, "\(both) vs \(fgOnly.deltaEOK) / \(bgOnly.deltaEOK)")
        #expect(both.foreground.deltaEOK > 0 && both.background.deltaEOK > 0)
    }

    @Test func variantsForLightAndDark() throws {
        let variants = NearestPassing.variants(of: try SRGB(css: "#2563eb"), on: [.white, try SRGB(css: "#0f172a")], target: .AA(.text))
        #expect(variants.count == 2)
        #expect(variants[0].variant?.direction == "unchanged")  // 5.16:1 on white already
        let dark = try #require(variants[1].variant)
        #expect(dark.direction == "lighter")
        #expect(dark.ratio >= 4.5)
    }

    @Test func targetsParse() {
        #expect(ContrastTarget(parsing: "4.5") == .ratio(4.5))
        #expect(ContrastTarget(parsing: "7:1") == .ratio(7))
        #expect(ContrastTarget(parsing: "AA") == .ratio(4.5))
        #expect(ContrastTarget(parsing: "Lc60") == .lc(60))
        #expect(ContrastTarget(parsing: "AA+Lc60") == ContrastTarget(ratio: 4.5, lc: 60))
        #expect(ContrastTarget(parsing: "30") == nil)
        #expect(ContrastTarget(parsing: "big") == nil)
    }
}
