import Synchronization

/// Which side of a pair a suggestion changes.
public struct PairRole: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    private init(_ name: String) { self.name = name }
    public static let foreground = PairRole("foreground")
    public static let background = PairRole("background")
    public var description: String { name }
}

/// A color that meets a contrast target, near the one it replaces.
public struct ColorSuggestion: Hashable, Sendable {
    /// The suggested color, already rounded to the 8-bit value its hex shows.
    public var color: SRGB
    /// The side of the pair it replaces.
    public var role: PairRole
    /// `lighter` or `darker` than the original.
    public var direction: String
    /// The WCAG ratio of the pair with the suggestion in place (measured on the 8-bit color).
    public var ratio: Double
    /// APCA Lc of the pair with the suggestion in place.
    public var apca: Double
    /// ΔE-OK from the original color.
    public var deltaEOK: Double
}

/// Nearest colors that pass: the closest color (smallest ΔE-OK) of the same OKLCH hue that meets
/// a target against a fixed other color.
///
/// The search moves OKLCH lightness away from the original, keeping hue and chroma, and lets the
/// CSS gamut mapping reduce chroma only where sRGB cannot hold it. Each candidate is judged
/// after rounding to the 8-bit hex it will be reported as, so a suggestion never measures 4.49
/// when 4.5 was asked.
public enum NearestPassing {
    /// The result of a search in one or both directions.
    public struct Result: Hashable, Sendable {
        /// Passing colors, nearest first (at most one lighter and one darker).
        public var suggestions: [ColorSuggestion]
        /// When nothing of this hue can pass: the best ratio reachable (against black or white).
        public var bestReachableRatio: Double?
        /// Whether the original already meets the target.
        public var alreadyPasses: Bool
    }

    /// Colors near `color` that meet `target` when `color` plays `role` against `other`.
    public static func suggest(for color: SRGB, against other: SRGB, role: PairRole, target: ContrastTarget) -> Result {
        let original = color.opaque
        let fixed = other.opaque
        let measuredFixed = MeasuredColor(fixed)
        func meets(_ candidate: MeasuredColor) -> Bool {
            role == .foreground ? target.isMet(foreground: candidate, background: measuredFixed) : target.isMet(foreground: measuredFixed, background: candidate)
        }
        if meets(MeasuredColor(original.quantized)) {
            return Result(suggestions: [], bestReachableRatio: nil, alreadyPasses: true)
        }
        var found: [ColorSuggestion] = []
        for lighter in [true, false] {
            if let candidate = search(LadderCache.shared.ladder(for: original, lighter: lighter), meets: meets) {
                let q = candidate
                let ratio = q.contrastRatio(with: fixed)
                let apca = role == .foreground ? APCA.lightnessContrast(text: q, background: fixed) : APCA.lightnessContrast(text: fixed, background: q)
                found.append(ColorSuggestion(color: q, role: role, direction: lighter ? "lighter" : "darker", ratio: ratio, apca: apca,
                                             deltaEOK: OKLab(q).distance(to: OKLab(original))))
            }
        }
        found.sort { $0.deltaEOK < $1.deltaEOK }
        var best: Double?
        if found.isEmpty {
            best = max(SRGB.white.contrastRatio(with: fixed), SRGB.black.contrastRatio(with: fixed))
        }
        return Result(suggestions: found, bestReachableRatio: best, alreadyPasses: false)
    }

    /// The 8-bit color at OKLCH lightness `l` with the original's chroma and hue, gamut-mapped.
    static func candidate(_ lch: OKLCH, l: Double) -> SRGB {
        GamutMapping.srgb(from: OKLCH(l: l, c: lch.c, h: lch.h)).quantized
    }

    /// ``candidate(_:l:)`` with the hue's cosine and sine computed once for a whole search.
    static func candidate(_ lch: OKLCH, l: Double, hue: (cosine: Double, sine: Double)) -> SRGB {
        GamutMapping.srgb8(l: l, c: lch.c, hue: hue)
    }

    /// The candidates of a coarse scan from a color toward white or black, each made once and
    /// kept: a rung depends only on the color and the direction, never on the other color of
    /// the pair, so every search from the same color (the combined move searches the same
    /// background a dozen times; an audit meets each token in many checks) reuses it.
    final class Ladder: Sendable {
        let lch: OKLCH
        let hue: (cosine: Double, sine: Double)
        let start: Double, end: Double
        let steps: Int
        private let rungs: Mutex<[MeasuredColor?]>

        init(_ lch: OKLCH, lighter: Bool) {
            self.lch = lch
            hue = Polar.unitVector(h: lch.h)
            start = min(1, max(0, lch.l))
            end = lighter ? 1.0 : 0.0
            let span = abs(end - start)
            steps = span > 0 ? max(1, Int((span / 0.01).rounded(.up))) : 0
            rungs = Mutex(Array(repeating: nil, count: steps + 1))
        }

        /// The lightness of rung `step` (0 is the start, `steps` the end).
        func lightness(_ step: Int) -> Double {
            step == steps ? end : start + (end - start) * Double(step) / Double(steps)
        }

        /// The candidate at lightness `l`.
        func candidate(_ l: Double) -> SRGB { NearestPassing.candidate(lch, l: l, hue: hue) }

        /// Rung `step`, with its luminance (every search from this ladder compares it).
        func rung(_ step: Int) -> MeasuredColor {
            if let made = rungs.withLock({ $0[step] }) { return made }
            let made = MeasuredColor(candidate(lightness(step)))  // outside the lock: another thread may make it too, identically
            rungs.withLock { $0[step] = made }
            return made
        }
    }

    /// Ladders by color and direction, shared by every search in the process (bounded: when
    /// full it starts over). Each holds at most 101 rungs.
    final class LadderCache: Sendable {
        struct Key: Hashable {
            let color: SRGB
            let lighter: Bool
        }

        static let shared = LadderCache()
        static let capacity = 4096
        private let ladders = Mutex<[Key: Ladder]>([:])

        func removeAll() {
            ladders.withLock { $0.removeAll() }
        }

        func ladder(for color: SRGB, lighter: Bool) -> Ladder {
            let key = Key(color: color, lighter: lighter)
            if let known = ladders.withLock({ $0[key] }) { return known }
            let made = Ladder(OKLCH(color), lighter: lighter)
            return ladders.withLock { table in
                if let raced = table[key] { return raced }
                if table.count >= LadderCache.capacity { table.removeAll(keepingCapacity: true) }
                table[key] = made
                return made
            }
        }
    }

    /// Forgets every kept ladder, so the next searches start cold (for benchmarks).
    public static func forgetLadders() {
        LadderCache.shared.removeAll()
    }

    /// The passing candidate closest in lightness to the original, in one direction.
    static func search(_ lch: OKLCH, lighter: Bool, meets: (SRGB) -> Bool) -> SRGB? {
        search(Ladder(lch, lighter: lighter)) { meets($0.color) }
    }

    /// ``search(_:lighter:meets:)`` on a ladder whose rungs may already be made.
    static func search(_ ladder: Ladder, meets: (MeasuredColor) -> Bool) -> SRGB? {
        guard ladder.steps > 0 else { return nil }
        // Coarse scan for the first passing lightness, then bisect the step before it.
        var previous = ladder.start
        for step in 1...ladder.steps {
            let l = ladder.lightness(step)
            let c = ladder.rung(step)
            if meets(c) {
                var low = previous, high = l  // low fails, high passes
                var best = c.color
                for _ in 0..<40 {
                    let mid = (low + high) / 2
                    let m = MeasuredColor(ladder.candidate(mid))
                    if meets(m) {
                        high = mid
                        best = m.color
                    } else {
                        low = mid
                    }
                    if abs(high - low) < 1e-5 { break }
                }
                return best
            }
            previous = l
        }
        return nil
    }

    /// The color nearest to `color` (smallest ΔE-OK, same OKLCH hue, lightness moved, chroma
    /// reduced only where sRGB forces it) for which `accepts` holds after 8-bit rounding; nil
    /// when no lightness works.
    public static func nearest(to color: SRGB, satisfying accepts: (SRGB) -> Bool) -> SRGB? {
        let original = color.opaque
        if accepts(original.quantized) { return original.quantized }
        let lch = OKLCH(original)
        let candidates = [true, false].compactMap { search(lch, lighter: $0, meets: accepts) }
        return candidates.min { OKLab($0).distance(to: OKLab(original)) < OKLab($1).distance(to: OKLab(original)) }
    }

    /// The color of `color`'s hue and chroma at OKLCH lightness `lightness`, gamut-mapped and
    /// rounded to 8 bits.
    public static func atLightness(_ color: SRGB, _ lightness: Double) -> SRGB {
        candidate(OKLCH(color.opaque), l: min(1, max(0, lightness)))
    }

    /// The smallest combined move: both colors change a little, each along its own lightness,
    /// away from the other. Minimizes the larger of the two ΔE-OK, so neither color carries the
    /// whole change (minimizing the sum would almost always move one side only, which the
    /// one-sided suggestions already give).
    public static func suggestBoth(foreground: SRGB, background: SRGB, target: ContrastTarget) -> (foreground: ColorSuggestion, background: ColorSuggestion)? {
        let fg = foreground.opaque, bg = background.opaque
        if target.isMet(foreground: fg.quantized, background: bg.quantized) { return nil }
        let fgLCH = OKLCH(fg), bgLCH = OKLCH(bg)
        var best: (ColorSuggestion, ColorSuggestion, Double)?
        // Which way each moves: apart in lightness. Try both arrangements when they are close.
        let arrangements: [Bool] = abs(fgLCH.l - bgLCH.l) < 0.05 ? [true, false] : [fgLCH.l > bgLCH.l]
        for fgLighter in arrangements {
            let fgEnd = fgLighter ? 1.0 : 0.0
            let backgroundLadder = LadderCache.shared.ladder(for: bg, lighter: !fgLighter)
            /// The combined move with the foreground at lightness `l`, or nil.
            func move(to l: Double) -> (ColorSuggestion, ColorSuggestion, Double)? {
                let movedFg = candidate(fgLCH, l: l)
                let movedFgDistance = OKLab(movedFg).distance(to: OKLab(fg))
                let measuredFg = MeasuredColor(movedFg)
                guard let movedBg = search(backgroundLadder, meets: { target.isMet(foreground: measuredFg, background: $0) }) else { return nil }
                let bgDistance = OKLab(movedBg).distance(to: OKLab(bg))
                let ratio = movedFg.contrastRatio(with: movedBg)
                let apca = APCA.lightnessContrast(text: movedFg, background: movedBg)
                return (ColorSuggestion(color: movedFg, role: .foreground, direction: fgLighter ? "lighter" : "darker", ratio: ratio, apca: apca, deltaEOK: movedFgDistance),
                        ColorSuggestion(color: movedBg, role: .background, direction: fgLighter ? "darker" : "lighter", ratio: ratio, apca: apca, deltaEOK: bgDistance),
                        max(movedFgDistance, bgDistance))
            }
            func consider(_ found: (ColorSuggestion, ColorSuggestion, Double)?) {
                if let found, best == nil || found.2 < best!.2 { best = found }
            }
            // The foreground's distance grows as it moves and the background's shrinks (it has
            // less to do), so the larger of the two is smallest where they cross: bisect for the
            // crossing along the foreground's lightness, to 1/1024 of its range.
            let span = fgEnd - fgLCH.l
            guard span != 0, let far = move(to: fgEnd) else { continue }
            consider(far)
            guard far.1.deltaEOK <= far.0.deltaEOK else { continue }  // even the farthest foreground leaves the background the larger move
            var low = 0.0, high = 1.0  // at `low` the background moves more; at `high`, at most as much
            for _ in 0..<10 {
                let mid = (low + high) / 2
                let found = move(to: fgLCH.l + span * mid)
                consider(found)
                if let found, found.1.deltaEOK <= found.0.deltaEOK { high = mid } else { low = mid }
            }
        }
        guard let best else { return nil }
        // Only a real combination is interesting: when one side does not move, the one-sided
        // suggestion already says it.
        if best.0.deltaEOK < 1e-9 || best.1.deltaEOK < 1e-9 { return nil }
        return (best.0, best.1)
    }

    /// A color's variant for each background: the nearest color of its hue meeting `target`
    /// on that background (the color itself when it already does).
    public static func variants(of color: SRGB, on backgrounds: [SRGB], target: ContrastTarget) -> [(background: SRGB, variant: ColorSuggestion?, result: Result)] {
        backgrounds.map { bg in
            let result = suggest(for: color, against: bg, role: .foreground, target: target)
            if result.alreadyPasses {
                let q = color.opaque.quantized
                let same = ColorSuggestion(color: q, role: .foreground, direction: "unchanged", ratio: q.contrastRatio(with: bg.opaque),
                                           apca: APCA.lightnessContrast(text: q, background: bg.opaque), deltaEOK: 0)
                return (bg, same, result)
            }
            return (bg, result.suggestions.first, result)
        }
    }
}
