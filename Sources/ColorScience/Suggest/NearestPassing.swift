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

    /// Colors near `color` that meet `target` when `color` plays `role` against `other`. Ladders
    /// made on the way are kept in `ladders` when given, for later searches from the same color.
    public static func suggest(for color: SRGB, against other: SRGB, role: PairRole, target: ContrastTarget, ladders: Ladders? = nil) -> Result {
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
            if let candidate = search(ladder(for: original, lighter: lighter, in: ladders), target: target, against: measuredFixed, role: role) {
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

    /// What is known of every candidate in a stretch of a ladder: its WCAG relative luminance
    /// and its APCA screen luminance lie between those of two colors (see
    /// ``Ladder/channelBounds(_:)``).
    struct LuminanceBounds: Sendable {
        let luminance: (low: Double, high: Double)
        let screenLuminance: (low: Double, high: Double)

        /// From the 8-bit channels of the two colors, by the same expressions as
        /// ``SRGB/relativeLuminance`` and ``APCA/screenLuminance(_:)`` on the same table entries
        /// (so a color between them never measures outside, even by rounding).
        init(low: SIMD3<UInt8>, high: SIMD3<UInt8>) {
            let linear = SRGBTransfer.linearTable
            func wcag(_ c: SIMD3<UInt8>) -> Double {
                WCAG.relativeLuminance(linear: SIMD3(linear[Int(c.x)], linear[Int(c.y)], linear[Int(c.z)]))
            }
            luminance = (wcag(low), wcag(high))
            screenLuminance = (APCA.screenLuminance(red8: low.x, green8: low.y, blue8: low.z),
                               APCA.screenLuminance(red8: high.x, green8: high.y, blue8: high.z))
        }
    }

    /// The path a search walks from a color toward white or black, as a sequence of rungs: the
    /// candidates at evenly spaced OKLCH lightnesses (at most ``spacing`` apart, both ends
    /// included), and between two of them whose colors differ by more than one 8-bit step (more
    /// than one level, or in more than one channel) the candidates found by halving the
    /// lightness between them until neighbours differ by one step at most, or lie less than
    /// ``finest`` apart. So the path holds every 8-bit color the candidates pass through, as
    /// long as each channel moves one way between neighbouring rungs; where gamut mapping
    /// squeezes several levels into a sliver of lightness (near white and black), the path
    /// still holds the colors in between.
    ///
    /// A rung depends only on the color and the direction, never on the other color of the
    /// pair, so every search from the same color (the combined move searches the same
    /// background a dozen times; an audit meets each token in many checks) reuses the rungs and
    /// bounds made before. They are made lazily, only where a search looked.
    final class Ladder: Sendable {
        /// The largest lightness step between evenly spaced rungs. The halving between them
        /// fills in every 8-bit step, so this only sets where the search starts ruling out
        /// stretches of the path: on the suggestion benchmark's pairs, 1/256 makes fewer
        /// candidates than 1/128 or 1/1024.
        static let spacing = 1.0 / 256
        /// The narrowest lightness gap that is still halved.
        static let finest = 1e-6

        /// A rung: its lightness, its 8-bit color and that color's WCAG luminance.
        struct Rung: Sendable {
            let lightness: Double
            let rgb24: UInt32
            let luminance: Double

            init(lightness: Double, _ color: SRGB) {
                self.lightness = lightness
                rgb24 = UInt32(SRGB.to8Bit(color.red)) << 16 | UInt32(SRGB.to8Bit(color.green)) << 8 | UInt32(SRGB.to8Bit(color.blue))
                luminance = color.relativeLuminance
            }

            var color: SRGB { SRGB(rgb24: rgb24) }
            var measured: MeasuredColor { MeasuredColor(color: color, luminance: luminance) }

            /// Whether two rungs' colors differ by more than one 8-bit step in all.
            func isApart(from other: Rung) -> Bool {
                func level(_ v: UInt32, _ shift: UInt32) -> Int { Int((v >> shift) & 0xFF) }
                let steps = abs(level(rgb24, 16) - level(other.rgb24, 16)) + abs(level(rgb24, 8) - level(other.rgb24, 8))
                    + abs(level(rgb24, 0) - level(other.rgb24, 0))
                return steps > 1
            }
        }

        let lch: OKLCH
        let hue: (cosine: Double, sine: Double)
        let start: Double, end: Double
        /// The number of gaps between evenly spaced rungs; rung 0 is at `start`, rung `steps`
        /// at `end`.
        let steps: Int
        /// The evenly spaced rungs made so far, by index (empty until a search needs one).
        private let rungs = Mutex<[Rung?]>([])
        /// What is known of each halving between neighbouring rungs, by the bits of its middle
        /// lightness (which fixes the two neighbours): the middle rung and the bounds of the gap,
        /// each once made.
        private let halvings = Mutex<[UInt64: Halving]>([:])

        struct Halving: Sendable {
            var middle: Rung?
            var bounds: LuminanceBounds?
        }
        /// The luminance bounds of the stretches searches have looked at, by their place in the
        /// halving of the whole ladder (1 is the whole, 2n and 2n + 1 the halves of n): the
        /// widest ones (up to ``widestStretches``) from the first search on, all of them (up to
        /// ``keptStretches``) once a second search looks (a ladder searched once, as most are
        /// when cold, is not worth keeping every bound of).
        private let stretches = Mutex<[LuminanceBounds?]>([])
        /// The stretches kept from the first search: the first six levels of halving.
        static let widestStretches = 128
        /// Every stretch of a ladder of at most 256 gaps (eight levels of halving).
        static let keptStretches = 512
        /// How many searches have looked at this ladder (counted up to 2).
        private let searches = Mutex(0)
        /// Each linear sRGB channel of the unclipped candidate at lightness l and chroma c is the
        /// polynomial cubed·l³ + squared·l²c + linear·lc² + constant·c³ (OKLab's LMS values are
        /// l + c·β for the hue's β, cubed, then a fixed matrix): these are its coefficients, one
        /// lane per channel.
        private let cubed: SIMD3<Double>, squared: SIMD3<Double>, linear: SIMD3<Double>, constant: SIMD3<Double>
        /// ``GamutMapping``'s in-gamut bounds in linear light, read once.
        private let gamutLow = GamutMapping.linearLow, gamutHigh = GamutMapping.linearHigh

        init(_ lch: OKLCH, lighter: Bool) {
            self.lch = lch
            hue = Polar.unitVector(h: lch.h)
            start = min(1, max(0, lch.l))
            end = lighter ? 1.0 : 0.0
            let span = abs(end - start)
            steps = span > 0 ? max(1, Int((span / Ladder.spacing).rounded(.up))) : 0
            let toLinear = XYZ.toLinearSRGB * OKLab.lmsToXYZ
            let lab = OKLab.labToLMS
            let beta = SIMD3(lab.row0.y * hue.cosine + lab.row0.z * hue.sine, lab.row1.y * hue.cosine + lab.row1.z * hue.sine,
                             lab.row2.y * hue.cosine + lab.row2.z * hue.sine)
            cubed = toLinear * SIMD3(1, 1, 1)
            squared = 3 * (toLinear * beta)
            linear = 3 * (toLinear * (beta * beta))
            constant = toLinear * (beta * beta * beta)
        }

        /// The lightness of evenly spaced rung `step` (0 is the start, `steps` the end).
        func lightness(_ step: Int) -> Double {
            step == steps ? end : start + (end - start) * Double(step) / Double(steps)
        }

        /// The candidate at lightness `l`.
        func candidate(_ l: Double) -> SRGB { NearestPassing.candidate(lch, l: l, hue: hue) }

        /// Evenly spaced rung `step`, made now or read from the ones made before.
        func rung(_ step: Int) -> Rung {
            if let made = rungs.withLock({ $0.isEmpty ? nil : $0[step] }) { return made }
            let l = lightness(step)
            let made = Rung(lightness: l, candidate(l))  // outside the lock: another search may make it too, identically
            rungs.withLock { rungs in
                if rungs.isEmpty { rungs = Array(repeating: nil, count: steps + 1) }
                rungs[step] = made
            }
            return made
        }

        /// The rung halfway in lightness between `near` and `far`, made now or read from the ones
        /// made before.
        func middle(_ near: Rung, _ far: Rung) -> Rung {
            let l = (near.lightness + far.lightness) / 2
            if let made = halvings.withLock({ $0[l.bitPattern]?.middle }) { return made }
            let made = Rung(lightness: l, candidate(l))
            halvings.withLock { $0[l.bitPattern, default: Halving()].middle = made }
            return made
        }

        /// The luminance bounds of the gap between neighbours `near` and `far`, and its middle
        /// rung when `needsMiddle`, made now or read from the ones made before (one look-up).
        func halving(_ near: Rung, _ far: Rung, needsMiddle: Bool) -> (bounds: LuminanceBounds, middle: Rung?) {
            let l = (near.lightness + far.lightness) / 2
            let known = halvings.withLock { $0[l.bitPattern] }
            if let bounds = known?.bounds, !needsMiddle || known?.middle != nil { return (bounds, known?.middle) }
            let bounds = known?.bounds ?? luminanceBounds(from: near.lightness, to: far.lightness)
            let middle = known?.middle ?? (needsMiddle ? Rung(lightness: l, candidate(l)) : nil)
            halvings.withLock { $0[l.bitPattern] = Halving(middle: middle, bounds: bounds) }
            return (bounds, middle)
        }

        /// Whether the path holds rungs strictly between neighbours `near` and `far`: when their
        /// colors differ by more than one 8-bit step and they are at least ``finest`` apart.
        static func isHalved(_ near: Rung, _ far: Rung) -> Bool {
            near.isApart(from: far) && abs(far.lightness - near.lightness) >= Ladder.finest
        }

        /// The rungs strictly between evenly spaced rungs `step` and `step + 1`, in order.
        func rungs(after step: Int) -> [Rung] {
            var made: [Rung] = []
            func halve(_ near: Rung, _ far: Rung) {
                guard Ladder.isHalved(near, far) else { return }
                let middle = middle(near, far)
                halve(near, middle)
                made.append(middle)
                halve(middle, far)
            }
            halve(rung(step), rung(step + 1))
            return made
        }

        /// The first rung strictly between `near` and `far` that `meets` accepts, passing over
        /// halves whose bounds `mayPass` rules out (the halves of the bounds already asked about
        /// when `checked`).
        func firstPassing(between near: Rung, _ far: Rung, checked: Bool, meets: (MeasuredColor) -> Bool,
                          mayPass: (LuminanceBounds) -> Bool) -> Rung? {
            guard Ladder.isHalved(near, far) else { return nil }
            let middle: Rung
            if checked {
                middle = self.middle(near, far)
            } else {
                let (bounds, made) = halving(near, far, needsMiddle: false)
                if !mayPass(bounds) { return nil }
                middle = made ?? self.middle(near, far)
            }
            if let found = firstPassing(between: near, middle, checked: false, meets: meets, mayPass: mayPass) { return found }
            if meets(middle.measured) { return middle }
            return firstPassing(between: middle, far, checked: false, meets: meets, mayPass: mayPass)
        }

        /// Every rung of the path, in order from the start (all of them made: for tests).
        func path() -> [Rung] {
            guard steps > 0 else { return [rung(0)] }
            return [rung(0)] + (0..<steps).flatMap { rungs(after: $0) + [rung($0 + 1)] }
        }

        /// The 8-bit colors with the lowest and the highest channels that any candidate at a
        /// lightness between evenly spaced rungs `range` can have (so every rung there, evenly
        /// spaced or not, has each channel between theirs, and its WCAG luminance and APCA
        /// screen luminance between theirs).
        ///
        /// At lightness 0 and 1 the candidate is black and white. At any other lightness l it has
        /// chroma c′ in 0…c (the gamut mapping only reduces chroma), or exactly c where the whole
        /// stretch is inside the gamut. Each monomial of the channel polynomial grows with both l
        /// and c′ (all non-negative), so its bounds over the stretch are its values at the
        /// corners; a channel's bounds are the sums of its terms' bounds. Rounding to 8 bits is
        /// monotone in each channel (and clamps it into 0…1), and so are both luminances,
        /// computed by the same expressions as the candidates' own.
        func channelBounds(_ range: ClosedRange<Int>) -> (low: SRGB, high: SRGB) {
            let (low, high) = channelLevels(from: lightness(range.lowerBound), to: lightness(range.upperBound))
            return (SRGB(red8: low.x, green8: low.y, blue8: low.z), SRGB(red8: high.x, green8: high.y, blue8: high.z))
        }

        /// ``channelBounds(_:)`` for every lightness between `first` and `last`, as 8-bit levels.
        func channelLevels(from first: Double, to last: Double) -> (low: SIMD3<UInt8>, high: SIMD3<UInt8>) {
            let low = min(first, last), high = max(first, last)
            // Far beyond the rounding of either computation (about 1e-15), far below 8-bit steps.
            let margin = 1e-9
            func bounds(chroma c0: Double, _ c1: Double) -> (SIMD3<Double>, SIMD3<Double>) {
                var lower = SIMD3<Double>(repeating: 0), upper = SIMD3<Double>(repeating: 0)
                func add(_ coefficient: SIMD3<Double>, _ least: Double, _ most: Double) {
                    let a = coefficient * least, b = coefficient * most
                    // (Lane by lane: the generic pointwiseMin/Max were a tenth of a search.)
                    lower += SIMD3(Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.min(a.z, b.z))
                    upper += SIMD3(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z))
                }
                add(cubed, low * low * low, high * high * high)
                add(squared, low * low * c0, high * high * c1)
                add(linear, low * c0 * c0, high * c1 * c1)
                add(constant, c0 * c0 * c0, c1 * c1 * c1)
                return (lower - margin, upper + margin)
            }
            let c = lch.c
            var (lower, upper) = bounds(chroma: c, c)
            let inGamut = Swift.min(lower.x, lower.y, lower.z) >= gamutLow && Swift.max(upper.x, upper.y, upper.z) <= gamutHigh
            if !inGamut { (lower, upper) = bounds(chroma: 0, c) }
            if low <= 0 { lower = SIMD3(Swift.min(lower.x, 0), Swift.min(lower.y, 0), Swift.min(lower.z, 0)) }  // black
            if high >= 1 { upper = SIMD3(Swift.max(upper.x, 1), Swift.max(upper.y, 1), Swift.max(upper.z, 1)) }  // white
            func levels(_ v: SIMD3<Double>) -> SIMD3<UInt8> {
                SIMD3(SRGBTransfer.eightBitLevel(linear: v.x), SRGBTransfer.eightBitLevel(linear: v.y), SRGBTransfer.eightBitLevel(linear: v.z))
            }
            return (levels(lower), levels(upper))
        }

        /// ``channelBounds(_:)`` as luminances, kept by the stretch's place `node` in the
        /// halving (see ``stretches``).
        func luminanceBounds(_ range: ClosedRange<Int>, node: Int, keepAll: Bool) -> LuminanceBounds {
            let kept = node < (keepAll ? Ladder.keptStretches : Ladder.widestStretches)
            if kept, let known = stretches.withLock({ node < $0.count ? $0[node] : nil }) { return known }
            let made = luminanceBounds(from: lightness(range.lowerBound), to: lightness(range.upperBound))
            if kept {
                stretches.withLock { stretches in
                    if stretches.count <= node {
                        stretches += repeatElement(nil, count: (keepAll ? Ladder.keptStretches : Ladder.widestStretches) - stretches.count)
                    }
                    stretches[node] = made
                }
            }
            return made
        }

        /// ``channelLevels(from:to:)`` as luminances.
        func luminanceBounds(from first: Double, to last: Double) -> LuminanceBounds {
            let (low, high) = channelLevels(from: first, to: last)
            return LuminanceBounds(low: low, high: high)
        }

        /// The first rung of the path that `meets` accepts, or nil.
        ///
        /// A stretch of the path is passed over only when `mayPass` says that no color within
        /// its ``luminanceBounds(_:node:)`` can pass, which it must answer soundly; every other
        /// rung is looked at, in order, so no passing rung is skipped, however narrow the run of
        /// passing rungs around it. Stretches are halved until they are ruled out or down to
        /// one gap between evenly spaced rungs, whose halving rungs are ruled out or looked at
        /// the same way.
        func firstPassing(meets: (MeasuredColor) -> Bool, mayPass: (LuminanceBounds) -> Bool) -> Rung? {
            let again = searches.withLock { count in
                count = min(count + 1, 2)
                return count == 2
            }
            func first(in range: ClosedRange<Int>, node: Int) -> Rung? {
                if !mayPass(luminanceBounds(range, node: node, keepAll: again)) { return nil }
                if range.count > 2 {
                    let middle = range.lowerBound + (range.upperBound - range.lowerBound) / 2
                    // Rung `middle` ends the first half and starts the second, which does not look at it again.
                    return first(in: range.lowerBound...middle, node: 2 * node) ?? first(in: middle...range.upperBound, node: 2 * node + 1)
                }
                let step = range.lowerBound
                if step == 0, meets(rung(0).measured) { return rung(0) }
                guard range.count == 2 else { return nil }
                // The bounds just asked about are this gap's own.
                if let found = firstPassing(between: rung(step), rung(step + 1), checked: true, meets: meets, mayPass: mayPass) { return found }
                let last = rung(step + 1)
                return meets(last.measured) ? last : nil
            }
            return first(in: 0...steps, node: 1)
        }
    }

    /// Ladders by color and direction, kept between searches by whoever owns this value (an
    /// audit's suggestion cache, say); ColorScience itself keeps nothing between calls. Bounded:
    /// when full it starts over. Each ladder keeps what its searches made: at most 257 evenly
    /// spaced rungs and 512 stretches' bounds (about 30 KB), and the halvings looked at, a few
    /// dozen near the thresholds searched for (about a thousand, 100 KB, if every one were).
    public final class Ladders: Sendable {
        struct Key: Hashable {
            let color: SRGB
            let lighter: Bool
        }

        /// How many ladders are kept before the table starts over.
        public let capacity: Int
        private let ladders = Mutex<[Key: Ladder]>([:])

        public init(capacity: Int = 1024) {
            self.capacity = max(1, capacity)
        }

        func ladder(for color: SRGB, lighter: Bool) -> Ladder {
            let key = Key(color: color, lighter: lighter)
            if let known = ladders.withLock({ $0[key] }) { return known }
            let made = Ladder(OKLCH(color), lighter: lighter)
            return ladders.withLock { table in
                if let raced = table[key] { return raced }
                if table.count >= capacity { table.removeAll(keepingCapacity: true) }
                table[key] = made
                return made
            }
        }
    }

    /// The ladder of `color` in one direction: kept in `ladders` when given, else made afresh.
    static func ladder(for color: SRGB, lighter: Bool, in ladders: Ladders?) -> Ladder {
        ladders?.ladder(for: color, lighter: lighter) ?? Ladder(OKLCH(color), lighter: lighter)
    }

    /// The passing candidate closest in lightness to the original, in one direction.
    static func search(_ lch: OKLCH, lighter: Bool, meets: (SRGB) -> Bool) -> SRGB? {
        search(Ladder(lch, lighter: lighter)) { meets($0.color) }
    }

    /// ``search(_:lighter:meets:)`` on a ladder whose rungs may already be made.
    static func search(_ ladder: Ladder, meets: (MeasuredColor) -> Bool, mayPass: (LuminanceBounds) -> Bool = { _ in true }) -> SRGB? {
        firstPassing(ladder, meets: meets, mayPass: mayPass)?.color
    }

    /// The search for a target against a fixed color: ``search(_:meets:mayPass:)`` with the
    /// target's own sound test of a range of candidates.
    static func search(_ ladder: Ladder, target: ContrastTarget, against fixed: MeasuredColor, role: PairRole) -> SRGB? {
        let foreground = role == .foreground
        let fixedScreen = APCA.screenLuminance(fixed.color)
        return search(ladder, meets: { foreground ? target.isMet(foreground: $0, background: fixed) : target.isMet(foreground: fixed, background: $0) },
                      mayPass: { target.mayBeMet(within: $0, against: fixed.luminance, screenLuminance: fixedScreen, candidateIsForeground: foreground) })
    }

    /// The passing color nearest the ladder's start along its path (the first passing rung),
    /// with its lightness.
    ///
    /// Along the path, gamut mapping and 8-bit rounding make the ratio rise and fall a little,
    /// so the passing lightnesses can be several pieces, some a single rung wide: every rung is
    /// looked at in order until one passes, except stretches that `mayPass` rules out whole (see
    /// ``Ladder/firstPassing(meets:mayPass:)``).
    static func firstPassing(_ ladder: Ladder, meets: (MeasuredColor) -> Bool,
                             mayPass: (LuminanceBounds) -> Bool = { _ in true }) -> (lightness: Double, color: SRGB)? {
        guard let rung = ladder.firstPassing(meets: meets, mayPass: mayPass) else { return nil }
        return (rung.lightness, rung.color)
    }

    /// The color nearest to `color` (smallest ΔE-OK, same OKLCH hue, lightness moved, chroma
    /// reduced only where sRGB forces it) for which `accepts` holds after 8-bit rounding; nil
    /// when no lightness works.
    ///
    /// Nothing is known of `accepts`, so no stretch of either path can be ruled out: each is
    /// walked rung by rung up to the first that passes (up to about a thousand candidates), where
    /// a search for a ``ContrastTarget`` passes over whole stretches.
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
    public static func suggestBoth(foreground: SRGB, background: SRGB, target: ContrastTarget,
                                   ladders: Ladders? = nil) -> (foreground: ColorSuggestion, background: ColorSuggestion)? {
        let fg = foreground.opaque, bg = background.opaque
        if target.isMet(foreground: fg.quantized, background: bg.quantized) { return nil }
        let fgLCH = OKLCH(fg), bgLCH = OKLCH(bg)
        var best: (ColorSuggestion, ColorSuggestion, Double)?
        // Which way each moves: apart in lightness. Try both arrangements when they are close.
        let arrangements: [Bool] = abs(fgLCH.l - bgLCH.l) < 0.05 ? [true, false] : [fgLCH.l > bgLCH.l]
        for fgLighter in arrangements {
            let fgEnd = fgLighter ? 1.0 : 0.0
            let backgroundLadder = ladder(for: bg, lighter: !fgLighter, in: ladders)
            /// The combined move with the foreground at lightness `l`, or nil.
            func move(to l: Double) -> (ColorSuggestion, ColorSuggestion, Double)? {
                let movedFg = candidate(fgLCH, l: l)
                let movedFgDistance = OKLab(movedFg).distance(to: OKLab(fg))
                let measuredFg = MeasuredColor(movedFg)
                guard let movedBg = search(backgroundLadder, target: target, against: measuredFg, role: .background) else { return nil }
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
    public static func variants(of color: SRGB, on backgrounds: [SRGB], target: ContrastTarget,
                                ladders: Ladders? = nil) -> [(background: SRGB, variant: ColorSuggestion?, result: Result)] {
        backgrounds.map { bg in
            let result = suggest(for: color, against: bg, role: .foreground, target: target, ladders: ladders)
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
