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

    /// ``channelLevels(from:to:)`` as luminances.
    func luminanceBounds(from first: Double, to last: Double) -> NearestPassing.LuminanceBounds {
        let (low, high) = channelLevels(from: first, to: last)
        return NearestPassing.LuminanceBounds(low: low, high: high)
    }
}
