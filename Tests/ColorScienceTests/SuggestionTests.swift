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
            // Brute force along lightness. What is compared below is the lightness of the first
            // passing candidate itself, not the lightness asked for: near black and white the
            // gamut mapping turns a range of lightnesses into one color (every lightness below
            // about 0.039 of #8ad5b9's hue is #000000, whose own lightness is 0).
            var passingLighter: Double?, passingDarker: Double?
            var l = lch.l
            while l <= 1 {
                let c = NearestPassing.candidate(lch, l: l)
                if meets(c) { passingLighter = OKLCH(c).l; break }
                l += 0.0005
            }
            if passingLighter == nil && meets(NearestPassing.candidate(lch, l: 1)) { passingLighter = 1 }
            l = lch.l
            while l >= 0 {
                let c = NearestPassing.candidate(lch, l: l)
                if meets(c) { passingDarker = OKLCH(c).l; break }
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

    /// The first rung of `ladder`'s path that `meets` accepts, by looking at every rung: the
    /// reference the search must agree with.
    static func exhaustiveFirst(_ ladder: NearestPassing.Ladder, _ meets: (MeasuredColor) -> Bool) -> NearestPassing.Ladder.Rung? {
        ladder.path().first { meets($0.measured) }
    }

    /// Checks one search against the exhaustive reference on the same ladder: the same answer to
    /// whether anything passes, and the same first passing rung.
    static func expectNearest(_ ladder: NearestPassing.Ladder, _ meets: (MeasuredColor) -> Bool, mayPass: (NearestPassing.LuminanceBounds) -> Bool = { _ in true },
                              _ context: @autoclosure () -> String) {
        let found = NearestPassing.firstPassing(ladder, meets: meets, mayPass: mayPass)
        let reference = exhaustiveFirst(ladder, meets)
        guard let found, let reference else {
            #expect(found == nil && reference == nil, "\(context()): search \(found.map { "\($0)" } ?? "nil"), exhaustive \(reference.map { "\($0.color.hex) at \($0.lightness)" } ?? "nil")")
            return
        }
        #expect(found.lightness == reference.lightness && found.color == reference.color,
                "\(context()): found \(found.color.hex) at \(found.lightness), but \(reference.color.hex) at \(reference.lightness) is the first to pass")
        #expect(meets(MeasuredColor(found.color)), "\(context()): \(found.color.hex) does not pass")
        #expect(found.color == ladder.candidate(found.lightness), "\(context()): \(found.color.hex) is not the candidate at \(found.lightness)")
    }

    /// The path a search walks: from the start to the end in order, and where neighbouring rungs
    /// differ by more than one 8-bit step they lie less than `finest` apart (the halving between
    /// evenly spaced rungs went as far as it goes).
    @Test func pathsHoldEveryStepOfTheirColors() {
        var generator = SeededGenerator(seed: 5)
        var halved = 0
        for _ in 0..<60 {
            let ladder = NearestPassing.Ladder(OKLCH(SRGB.random(using: &generator)), lighter: Bool.random(using: &generator))
            let path = ladder.path()
            #expect(path.first?.lightness == ladder.start && path.last?.lightness == ladder.end)
            #expect(path.count >= ladder.steps + 1)
            halved += path.count - (ladder.steps + 1)
            let direction = ladder.end > ladder.start ? 1.0 : -1.0
            for (near, far) in zip(path, path.dropFirst()) {
                #expect(direction * (far.lightness - near.lightness) > 0, "\(generator.replay): \(near.lightness) then \(far.lightness)")
                if near.isApart(from: far) {
                    #expect(abs(far.lightness - near.lightness) < 2 * NearestPassing.Ladder.finest,
                            "\(generator.replay): \(near.color.hex) at \(near.lightness) then \(far.color.hex) at \(far.lightness)")
                }
            }
        }
        #expect(halved > 1000)
    }

    /// What lets the search pass over stretches of a ladder: every rung of a stretch, evenly
    /// spaced or between, has each channel between those of the stretch's bounds. Over random
    /// ladders and stretches of every length, each rung is checked.
    @Test func channelBoundsHoldEveryRungOfTheirStretch() throws {
        var generator = SeededGenerator(seed: 77)
        var checked = 0
        for _ in 0..<100 {
            let ladder = NearestPassing.Ladder(OKLCH(SRGB.random(using: &generator)), lighter: Bool.random(using: &generator))
            guard ladder.steps > 2 else { continue }
            let path = ladder.path()
            for length in [1, 2, 8, 40, 300, ladder.steps] {
                let first = Int.random(in: 0...max(0, ladder.steps - length), using: &generator)
                let range = first...min(ladder.steps, first + length)
                let (low, high) = ladder.channelBounds(range)
                let from = min(ladder.lightness(range.lowerBound), ladder.lightness(range.upperBound))
                let to = max(ladder.lightness(range.lowerBound), ladder.lightness(range.upperBound))
                for rung in path where rung.lightness >= from && rung.lightness <= to {
                    let c = rung.color
                    checked += 1
                    #expect(low.red <= c.red && c.red <= high.red && low.green <= c.green && c.green <= high.green && low.blue <= c.blue && c.blue <= high.blue,
                            "\(generator.replay): rung \(c.hex) at \(rung.lightness) outside \(low.hex)…\(high.hex) of \(range)")
                }
            }
        }
        #expect(checked > 50000)
    }

    /// What tightens the bounds of stretches the gamut mapping works in: at every lightness of a
    /// stretch the mapping returns the color of a chroma between the stretch's chroma floor and
    /// the original chroma. Over random colors (half of them at the edge of sRGB, where the
    /// mapping does most), stretches of every length and many lightnesses in each, the chroma of
    /// what the mapping returned (read back from its unclipped linear color) is checked.
    @Test func gamutMappingNeverReducesChromaBelowTheFloor() {
        var generator = SeededGenerator(seed: 31)
        var checked = 0, aboveZero = 0
        for index in 0..<150 {
            var color = SRGB.random(using: &generator)
            if index % 2 == 0 {
                var channels = [0.0, 1.0, Double.random(in: 0...1, using: &generator)]
                channels.shuffle(using: &generator)
                color = SRGB(red: channels[0], green: channels[1], blue: channels[2])
            }
            let ladder = NearestPassing.Ladder(OKLCH(color), lighter: Bool.random(using: &generator))
            guard ladder.steps > 1 else { continue }
            for length in [1, 4, 32, ladder.steps] {
                let first = Int.random(in: 0...max(0, ladder.steps - length), using: &generator)
                let a = ladder.lightness(first), b = ladder.lightness(min(ladder.steps, first + length))
                let low = min(a, b), high = max(a, b)
                let floor = ladder.chromaFloor(from: low, to: high)
                #expect(floor >= 0 && floor <= ladder.lch.c)
                if floor > 0 && floor < ladder.lch.c { aboveZero += 1 }
                for k in 0...40 {
                    let l = low + (high - low) * Double(k) / 40
                    guard l > 0 && l < 1 else { continue }
                    let mapped = GamutMapping.linear(l: l, c: ladder.lch.c, hue: ladder.hue)
                    let lab = OKLab.lmsToLab * GamutMapping.cubeRoot(GamutMapping.linearSRGBToLMS * mapped)
                    let chroma = (lab.y * lab.y + lab.z * lab.z).squareRoot()
                    checked += 1
                    #expect(chroma >= floor - 1e-9 && chroma <= ladder.lch.c + 1e-9,
                            "\(generator.replay): \(color.hex) at l \(l): the mapping kept chroma \(chroma), the floor of \(low)…\(high) is \(floor) (c \(ladder.lch.c))")
                }
            }
        }
        #expect(checked > 15000)
        #expect(aboveZero > 100)  // the floor says something: above 0 where the original chroma does not fit
    }

    /// The search finds the nearest passing color of its path, compared with an exhaustive look
    /// at every rung: for real targets on random pairs, for targets set exactly at one rung's
    /// ratio (passing windows as narrow as the ratio's ups and downs make them), and for
    /// predicates that accept one or two single colors of the path (windows one rung wide).
    @Test func searchFindsTheNearestOfItsPath() {
        var generator = SeededGenerator(seed: 4242)
        let targets: [ContrastTarget] = [.ratio(3), .ratio(4.5), .ratio(7), .lc(45), .lc(60), .lc(75), ContrastTarget(ratio: 4.5, lc: 60)]
        var narrowWindows = 0
        for index in 0..<120 {
            let color = SRGB.random(using: &generator), other = SRGB.random(using: &generator)
            let measuredOther = MeasuredColor(other)
            let lch = OKLCH(color)
            for lighter in [true, false] {
                let context = "\(generator.replay) #\(index) \(color.hex) \(lighter ? "lighter" : "darker")"
                let ladder = NearestPassing.Ladder(lch, lighter: lighter)
                guard ladder.steps > 0 else { continue }
                // Real targets, the color as foreground and as background. The ladder keeps the
                // rungs made by each search, so later searches also read kept rungs.
                func expectNearest(_ target: ContrastTarget, foreground: Bool, _ note: String) {
                    Self.expectNearest(ladder, { foreground ? target.isMet(foreground: $0, background: measuredOther) : target.isMet(foreground: measuredOther, background: $0) },
                                       mayPass: { target.mayBeMet(within: $0, against: measuredOther.luminance, screenLuminance: APCA.screenLuminance(other),
                                                                  candidateIsForeground: foreground) },
                                       "\(context) \(foreground ? "fg" : "bg") \(target) \(note)")
                }
                for target in targets {
                    expectNearest(target, foreground: true, "")
                    expectNearest(target, foreground: false, "")
                }
                // Targets set exactly at a random rung's ratio and Lc with the other color.
                let path = ladder.path()
                let rung = Int.random(in: 0..<path.count, using: &generator)
                let atRung = path[rung].color
                expectNearest(.ratio(atRung.contrastRatio(with: other)), foreground: true, "exactly at rung \(rung)")
                let lc = abs(APCA.lightnessContrast(text: other, background: atRung))
                if lc > 0 { expectNearest(.lc(lc), foreground: false, "exactly at rung \(rung)") }
                // One color of the path, then either of two, passing: the narrowest windows there
                // are. A fresh ladder too, so the search makes every rung itself.
                let second = Int.random(in: 0..<path.count, using: &generator)
                let atSecond = path[second].color
                Self.expectNearest(ladder, { $0.color == atRung }, "\(context) only \(atRung.hex) (rung \(rung))")
                Self.expectNearest(NearestPassing.Ladder(lch, lighter: lighter), { $0.color == atRung || $0.color == atSecond },
                                   "\(context) only \(atRung.hex) or \(atSecond.hex) (rungs \(rung), \(second))")
                if path.filter({ $0.color == atRung }).count <= 2 { narrowWindows += 1 }
            }
            // The public suggestion is the search's result on the shared ladder.
            for (target, role) in [(ContrastTarget.ratio(4.5), PairRole.foreground), (.lc(60), .background)] {
                let result = NearestPassing.suggest(for: color, against: other, role: role, target: target)
                for suggestion in result.suggestions {
                    let ladder = NearestPassing.Ladder(lch, lighter: suggestion.direction == "lighter")
                    let meets: (MeasuredColor) -> Bool = role == .foreground
                        ? { target.isMet(foreground: $0, background: measuredOther) } : { target.isMet(foreground: measuredOther, background: $0) }
                    #expect(suggestion.color == NearestPassing.firstPassing(ladder, meets: meets)?.color, "\(generator.replay) #\(index) \(color.hex) \(role) \(target)")
                }
            }
        }
        // The one-color windows are mostly a rung or two wide: far narrower than any scan step.
        #expect(narrowWindows > 100)
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

/// The ladders' table of halvings against `Dictionary`, on keys as they come (the bits of
/// lightnesses, including 0 and ones that collide in the low bits) and random ones.
@Suite struct BitsTableTests {
    @Test func agreesWithADictionary() {
        var random = SeededGenerator(seed: 11)
        var table = BitsTable<Int>(), reference: [UInt64: Int] = [:]
        var keys: [UInt64] = [0, (0.5).bitPattern, (1.0).bitPattern, 1 << 63, UInt64.max]
        keys += (0..<3000).map { _ in Double.random(in: 0...1, using: &random).bitPattern }
        keys += (0..<500).map { UInt64($0) << 40 }  // equal in their low bits
        for (n, key) in keys.enumerated() {
            if n % 3 == 0 {
                table.update(key, default: -1) { $0 += 10 }
                reference[key, default: -1] += 10
            } else {
                table.set(key, n)
                reference[key] = n
            }
            if n % 97 == 0 { #expect(table[key] == reference[key], "seed \(random.seed)") }
        }
        for key in keys { #expect(table[key] == reference[key], "seed \(random.seed)") }
        for _ in 0..<2000 {
            let absent = UInt64.random(in: 0...UInt64.max, using: &random)
            #expect(table[absent] == reference[absent])
        }
        #expect(BitsTable<Int>()[42] == nil)
    }
}
