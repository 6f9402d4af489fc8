extension NearestPassing {
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
}

extension NearestPassing.Ladder {
    /// Far beyond the rounding of the candidates' arithmetic and of the bounds' own (about
    /// 1e-15 on values of order 1), far below 8-bit steps (the smallest is about 3e-4 in linear
    /// light): every box below is widened by this, so a candidate computed in floating point
    /// lies inside it even where the exact value lies on its edge.
    static let margin = 1e-9

    /// The 8-bit colors with the lowest and the highest channels that any candidate at a
    /// lightness between evenly spaced rungs `range` can have (so every rung there, evenly
    /// spaced or not, has each channel between theirs, and its WCAG luminance and APCA
    /// screen luminance between theirs). See ``channelLevels(from:to:)`` for why.
    func channelBounds(_ range: ClosedRange<Int>) -> (low: SRGB, high: SRGB) {
        let (low, high) = channelLevels(from: lightness(range.lowerBound), to: lightness(range.upperBound))
        return (SRGB(red8: low.x, green8: low.y, blue8: low.z), SRGB(red8: high.x, green8: high.y, blue8: high.z))
    }

    /// ``channelBounds(_:)`` for every lightness between `first` and `last`, as 8-bit levels.
    ///
    /// Why every candidate lies within them. At lightness 0 and 1 the candidate is black and
    /// white, and they are added to the bounds when the stretch reaches them. At any other
    /// lightness l the candidate is the 8-bit rounding of the linear color x(l, c′) that
    /// ``GamutMapping`` returns for chroma c, where x(l, s) is the unclipped color of OKLCH
    /// (l, s, h) and c′ is a chroma between ``chromaFloor(from:to:)`` and c (see there):
    ///
    /// 1. Each channel of x(l, s) is cubed·l³ + squared·l²s + linear·ls² + constant·s³. With l
    ///    and s not negative, each monomial grows with both, so over l in low…high and s in
    ///    c0…c1 it lies between its values at (low, c0) and (high, c1): a term's bounds are its
    ///    coefficient times those two, whichever order the coefficient's sign puts them in, and
    ///    a channel's bounds are the sums of its terms' bounds (``box(from:to:chroma:_:)``).
    /// 2. When even chroma c fits the box into sRGB, every candidate of the stretch is its own
    ///    origin (the mapping returns an in-gamut color unchanged): c0 = c1 = c. Otherwise
    ///    c0 = the chroma floor and c1 = c.
    /// 3. Rounding to 8 bits clamps into 0…1 and is monotone in each channel, so the rounded
    ///    bounds bound the rounded candidate; both luminances grow with each channel's level and
    ///    are computed by the same expressions on the same table entries as the candidates' own
    ///    (``NearestPassing/LuminanceBounds``).
    ///
    /// The floor is what makes the bounds tight where the gamut mapping works: without it the
    /// box of an out-of-gamut stretch spans chroma 0…c, gray to the unreachable full chroma,
    /// and rules out little near a threshold. On the suggestion benchmark's 200 pairs (AA, cold)
    /// the floor took the candidates the one-sided searches make from 9,526 to 3,815 (23.8 to
    /// 9.5 per ladder), and those the combined moves' background searches make from 20,952 to
    /// 14,861.
    func channelLevels(from first: Double, to last: Double) -> (low: SIMD3<UInt8>, high: SIMD3<UInt8>) {
        let low = min(first, last), high = max(first, last)
        let c = lch.c
        var (lower, upper) = box(from: low, to: high, chroma: c, c)
        if !fitsInGamut(lower, upper) { (lower, upper) = box(from: low, to: high, chroma: chromaFloor(from: low, to: high), c) }
        if low <= 0 { lower = SIMD3(Swift.min(lower.x, 0), Swift.min(lower.y, 0), Swift.min(lower.z, 0)) }  // black
        if high >= 1 { upper = SIMD3(Swift.max(upper.x, 1), Swift.max(upper.y, 1), Swift.max(upper.z, 1)) }  // white
        return (SRGBTransfer.eightBitLevels(linear: lower), SRGBTransfer.eightBitLevels(linear: upper))
    }

    /// The bounds of each linear channel of x(l, s) over lightness `low`…`high` and chroma
    /// `c0`…`c1` (all in 0…1 and 0…c), widened by ``margin``: step 1 of ``channelLevels(from:to:)``.
    func box(from low: Double, to high: Double, chroma c0: Double, _ c1: Double) -> (lower: SIMD3<Double>, upper: SIMD3<Double>) {
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
        return (lower - Self.margin, upper + Self.margin)
    }

    /// Whether every color within the bounds passes ``GamutMapping``'s in-gamut test (the same
    /// linear-light limits).
    func fitsInGamut(_ lower: SIMD3<Double>, _ upper: SIMD3<Double>) -> Bool {
        Swift.min(lower.x, lower.y, lower.z) >= gamutLow && Swift.max(upper.x, upper.y, upper.z) <= gamutHigh
    }

    /// A chroma t in 0…c such that, at every lightness in `low`…`high` (inside 0…1), the gamut
    /// mapping returns the unclipped color of some chroma between t and c: the floor below
    /// which it never reduces the chroma. Found by halving 0…c six times: a floor only saves
    /// work, so a coarse one is enough and more halvings cost more than they save.
    ///
    /// Why the mapping stays above it. Suppose the unclipped color of every chroma s ≤ t is in
    /// gamut (which is what this checks, by the box of every s in 0…t, so it holds for every s,
    /// not only those looked at). ``GamutMapping/linear(l:c:hue:)`` returns either the origin
    /// (chroma c), or `current`, the color of the last chroma its bisection assigned there. The
    /// bisection skips (raises `low` without assigning) a chroma that is in gamut while
    /// `lowInGamut` holds; it assigns every other. So a chroma assigned while `lowInGamut` holds
    /// is out of gamut, hence above t. `lowInGamut` turns false only at such a chroma m, which
    /// becomes `low`; after that `low` only rises, and every chroma tried is a midpoint above
    /// `low` (the interval is wider than ``GamutMapping``'s epsilon), so above m, so above t
    /// too. Either way the chroma returned is above t, or c itself.
    ///
    /// The test is sound for every chroma in 0…t at once, as the box of step 1 of
    /// ``channelLevels(from:to:)`` with c0 = 0 (each term with chroma lies between 0 and its
    /// coefficient times highˣ·tʸ), widened by ``margin``; a bisection that ends on a t whose
    /// box fits is sound whatever the boxes of the chromas tried before it did.
    func chromaFloor(from low: Double, to high: Double) -> Double {
        // The box over chroma 0…t as polynomials in t: the terms without chroma, then each
        // term's coefficient at l = high split into its negative part (for the lower bound) and
        // its positive part (for the upper).
        let a = cubed * (low * low * low), b = cubed * (high * high * high)
        let base = (lower: SIMD3(Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.min(a.z, b.z)) - Self.margin,
                    upper: SIMD3(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z)) + Self.margin)
        let k1 = squared * (high * high), k2 = linear * high, k3 = constant
        func negative(_ k: SIMD3<Double>) -> SIMD3<Double> { SIMD3(Swift.min(k.x, 0), Swift.min(k.y, 0), Swift.min(k.z, 0)) }
        func positive(_ k: SIMD3<Double>) -> SIMD3<Double> { SIMD3(Swift.max(k.x, 0), Swift.max(k.y, 0), Swift.max(k.z, 0)) }
        let down = (negative(k1), negative(k2), negative(k3)), up = (positive(k1), positive(k2), positive(k3))
        func fits(_ t: Double) -> Bool {
            fitsInGamut(base.lower + ((down.2 * t + down.1) * t + down.0) * t, base.upper + ((up.2 * t + up.1) * t + up.0) * t)
        }
        var inside = 0.0, outside = lch.c
        for _ in 0..<6 {
            let t = (inside + outside) / 2
            if fits(t) { inside = t } else { outside = t }
        }
        return inside  // 0 (no floor) or a chroma whose box fits
    }

    /// ``channelLevels(from:to:)`` as luminances.
    func luminanceBounds(from first: Double, to last: Double) -> NearestPassing.LuminanceBounds {
        let (low, high) = channelLevels(from: first, to: last)
        return NearestPassing.LuminanceBounds(low: low, high: high)
    }
}
