/// Bringing colors that sRGB cannot show into its gamut, by the CSS Color 4 algorithm.
///
/// CSS Color 4 §13.2 ("binary search gamut mapping with local MINDE"): keep OKLCH lightness and
/// hue, reduce chroma until the color clipped into sRGB is within a just-noticeable difference
/// (ΔE-OK 0.02) of the reduced one. Colors at or past OKLab lightness 1 map to white, at or
/// below 0 to black.
public enum GamutMapping {
    /// How far outside `0...1` a component may be and still count as in gamut: 0.000075, the
    /// tolerance color.js uses, well under 1/255 so no hex color changes because of it.
    public static let inGamutTolerance = 0.000075

    /// The just-noticeable difference of the CSS algorithm (ΔE-OK).
    static let jnd = 0.02
    /// When the binary search on chroma stops.
    static let chromaEpsilon = 0.0001

    /// Whether gamma-encoded sRGB components are inside the gamut (with ``inGamutTolerance``).
    public static func isInGamut(_ c: SIMD3<Double>) -> Bool {
        let low = -inGamutTolerance, high = 1 + inGamutTolerance
        return c.x >= low && c.x <= high && c.y >= low && c.y <= high && c.z >= low && c.z <= high
    }

    /// The sRGB color for an XYZ-D65 color, gamut-mapped when needed.
    public static func srgb(from xyz: XYZ, alpha: Double = 1) -> (color: SRGB, wasOutOfGamut: Bool) {
        let encoded = xyz.unclampedSRGB
        if isInGamut(encoded) {
            return (SRGB(red: encoded.x, green: encoded.y, blue: encoded.z, alpha: alpha), false)
        }
        return (srgb(from: OKLCH(OKLab(xyz)), alpha: alpha), true)
    }

    /// ``inGamutTolerance`` as linear-light bounds: a component is in gamut when its linear value
    /// lies between these (the transfer function is monotone), which needs no `pow`.
    static let linearLow = SRGBTransfer.decodeByFormula(-inGamutTolerance)
    static let linearHigh = SRGBTransfer.decodeByFormula(1 + inGamutTolerance)

    static func isInGamut(linear c: SIMD3<Double>) -> Bool {
        let low = linearLow, high = linearHigh
        return c.x >= low && c.x <= high && c.y >= low && c.y <= high && c.z >= low && c.z <= high
    }

    /// The sRGB color for an OKLCH color by the CSS Color 4 gamut-mapping algorithm.
    ///
    /// The search runs in linear light: whether a chroma is in gamut, and how far its clipped
    /// color lies from it, need no transfer function (clipping to 0…1 is the same in both
    /// encodings). Only the color returned is gamma-encoded.
    public static func srgb(from origin: OKLCH, alpha: Double = 1) -> SRGB {
        // The hue is fixed, so its cosine and sine are computed once: each chroma tried is the
        // same products `OKLCH.oklab` would compute.
        srgb(l: origin.l, c: origin.c, hue: Polar.unitVector(h: origin.h), alpha: alpha)
    }

    /// ``srgb(from:alpha:)`` for lightness `l`, chroma `c` and a hue given by its cosine and sine.
    static func srgb(l: Double, c: Double, hue: (cosine: Double, sine: Double), alpha: Double = 1) -> SRGB {
        if l >= 1 { return SRGB(red: 1, green: 1, blue: 1, alpha: alpha) }
        if l <= 0 { return SRGB(red: 0, green: 0, blue: 0, alpha: alpha) }
        let (cosine, sine) = hue
        let origin = (l: l, c: c)
        func lab(_ chroma: Double) -> OKLab { OKLab(l: origin.l, a: chroma * cosine, b: chroma * sine) }
        func linear(_ chroma: Double) -> SIMD3<Double> { lab(chroma).xyz.linearSRGB }
        func encoded(_ c: SIMD3<Double>) -> SRGB {
            SRGB(red: SRGBTransfer.encode(c.x), green: SRGBTransfer.encode(c.y), blue: SRGBTransfer.encode(c.z), alpha: alpha)
        }
        func clippedDistance(_ c: SIMD3<Double>, _ chroma: Double) -> Double {
            let clipped = c.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
            return OKLab(XYZ(XYZ.fromLinearSRGB * clipped)).distance(to: lab(chroma))
        }

        var current = linear(origin.c)
        if isInGamut(linear: current) || clippedDistance(current, origin.c) < jnd { return encoded(current) }

        var low = 0.0, high = origin.c, lowInGamut = true
        while high - low > chromaEpsilon {
            let chroma = (low + high) / 2
            let candidate = linear(chroma)
            if lowInGamut && isInGamut(linear: candidate) {
                low = chroma
                continue
            }
            current = candidate
            let difference = clippedDistance(candidate, chroma)
            if difference < jnd {
                if jnd - difference < chromaEpsilon { break }
                lowInGamut = false
                low = chroma
            } else {
                high = chroma
            }
        }
        return encoded(current)
    }
}
