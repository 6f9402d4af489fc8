@testable import ColorScience
import Foundation
import Testing

/// The suggestions' answers held bit for bit against answers recorded before a change to how
/// the search is done (not to what it finds): `Vectors/suggestions_recorded.txt` was written by
/// this file's `record` mode from the code of main at 4d80d5d, before the ladder's stretch
/// bounds learnt the chroma floor of the gamut mapping (see `NearestPassing+LadderBounds.swift`).
///
/// The sample is fixed (its own generator, not `CONTRAST_TEST_SEED`): 8-bit colors, colors
/// between 8-bit levels, grays, near-black and near-white, and colors at the edge of sRGB where
/// the gamut mapping does most; both roles; every WCAG level (3, 4.5, 7), the APCA levels
/// 30…90 and both together; half searched cold, half with ladders kept between searches from a
/// small pool of colors (as an audit keeps them); mostly pairs that fail. For each case the line holds the suggestions
/// (direction and color, in order), or that the pair already passes, or the best reachable
/// ratio's bits; and for every fourth case the smallest combined move.
///
/// To record again (only from code whose answers are known good):
/// `CONTRAST_RECORD_SUGGESTIONS=$PWD/Tests/ColorScienceTests/Vectors/suggestions_recorded.txt swift test --filter SuggestionRecordTests`.
@Suite struct SuggestionRecordTests {
    /// A fixed splitmix64 sequence (the recorded answers belong to exactly these cases).
    struct FixedGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let targets: [ContrastTarget] = [.ratio(3), .ratio(4.5), .ratio(7), .lc(30), .lc(45), .lc(60), .lc(75), .lc(90),
                                            ContrastTarget(ratio: 3, lc: 45), ContrastTarget(ratio: 4.5, lc: 60), ContrastTarget(ratio: 7, lc: 75)]
    static let caseCount = 4000

    /// One color of the sample, by kind.
    static func color(_ rng: inout FixedGenerator) -> SRGB {
        func unit() -> Double { Double.random(in: 0...1, using: &rng) }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0, 1, 2, 3: return SRGB(rgb24: UInt32.random(in: 0...0xFFFFFF, using: &rng))
        case 4: return SRGB(red: unit(), green: unit(), blue: unit())  // between 8-bit levels
        case 5:  // gray
            let v = UInt32.random(in: 0...255, using: &rng)
            return SRGB(rgb24: v << 16 | v << 8 | v)
        case 6:  // near black or near white
            let base: UInt32 = Bool.random(using: &rng) ? 0 : 0xE0E0E0
            return SRGB(rgb24: base | UInt32.random(in: 0...0x1F, using: &rng) << 16 | UInt32.random(in: 0...0x1F, using: &rng) << 8 | UInt32.random(in: 0...0x1F, using: &rng))
        default:  // at the edge of sRGB: one channel 0, one 255 (the most saturated colors of their hue)
            var channels = [UInt32(0), 255, UInt32.random(in: 0...255, using: &rng)]
            channels.shuffle(using: &rng)
            return SRGB(rgb24: channels[0] << 16 | channels[1] << 8 | channels[2])
        }
    }

    static func describe(_ color: SRGB) -> String {
        color == color.quantized ? color.hex : "srgb(\(color.red) \(color.green) \(color.blue))"
    }

    /// Every case's line: the case, then what the suggestions answered.
    static func answers() -> [String] {
        var rng = FixedGenerator(state: 20_251_125)
        let pool = (0..<160).map { _ in color(&rng) }
        let kept = NearestPassing.Ladders()
        var lines: [String] = []
        for index in 0..<caseCount {
            let cold = index < caseCount / 2
            let target = targets[Int.random(in: 0..<targets.count, using: &rng)]
            let role: PairRole = Bool.random(using: &rng) ? .foreground : .background
            func draw() -> (SRGB, SRGB) {
                cold ? (color(&rng), color(&rng)) : (pool[Int.random(in: 0..<pool.count, using: &rng)], pool[Int.random(in: 0..<pool.count, using: &rng)])
            }
            // Mostly pairs that fail (a passing pair has nothing to suggest): up to eight draws.
            var (a, b) = draw()
            for _ in 0..<7 {
                let (fg, bg) = role == .foreground ? (a, b) : (b, a)
                if !target.isMet(foreground: fg.quantized, background: bg.quantized) { break }
                (a, b) = draw()
            }
            let ladders = cold ? nil : kept
            let result = NearestPassing.suggest(for: a, against: b, role: role, target: target, ladders: ladders)
            var line = "\(index) \(describe(a)) \(describe(b)) \(role) \(target) =>"
            if result.alreadyPasses { line += " passes" }
            for suggestion in result.suggestions { line += " \(suggestion.direction) \(suggestion.color.hex)" }
            if let best = result.bestReachableRatio { line += " none best \(String(best.bitPattern, radix: 16))" }
            if index % 4 == 0 {
                let (fg, bg) = role == .foreground ? (a, b) : (b, a)
                if let both = NearestPassing.suggestBoth(foreground: fg, background: bg, target: target, ladders: ladders) {
                    line += " | both \(both.foreground.color.hex) \(both.background.color.hex)"
                } else {
                    line += " | both none"
                }
            }
            lines.append(line)
        }
        return lines
    }

    @Test func answersMatchTheRecordedOnes() throws {
        let computed = Self.answers()
        if let path = ProcessInfo.processInfo.environment["CONTRAST_RECORD_SUGGESTIONS"] {
            try (computed.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let url = try #require(Bundle.module.url(forResource: "suggestions_recorded", withExtension: "txt", subdirectory: "Vectors"),
                               "Vectors/suggestions_recorded.txt is missing from the test bundle")
        let recorded = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(recorded.count == Self.caseCount)
        var differing = 0
        for (now, then) in zip(computed, recorded) where now != then {
            differing += 1
            if differing <= 10 { Issue.record("recorded: \(then)\nnow:      \(now)") }
        }
        #expect(differing == 0, "\(differing) of \(recorded.count) cases answer differently from the recorded ones")
        // The sample reaches what it is for: both kinds of answer, and combined moves.
        #expect(recorded.filter { $0.contains(" lighter #") && $0.contains(" darker #") }.count > 300)
        #expect(recorded.filter { $0.contains(" none best ") }.count > 100)
        #expect(recorded.filter { $0.contains("| both #") }.count > 300)
    }
}
