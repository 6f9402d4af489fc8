import Synchronization

extension NearestPassing {
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
        private let halvings = Mutex(BitsTable<Halving>())

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
        let cubed: SIMD3<Double>, squared: SIMD3<Double>, linear: SIMD3<Double>, constant: SIMD3<Double>
        /// ``GamutMapping``'s in-gamut bounds in linear light, read once.
        let gamutLow = GamutMapping.linearLow, gamutHigh = GamutMapping.linearHigh

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
            halvings.withLock { $0.update(l.bitPattern, default: Halving()) { $0.middle = made } }
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
            halvings.withLock { $0.set(l.bitPattern, Halving(middle: middle, bounds: bounds)) }
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
}
