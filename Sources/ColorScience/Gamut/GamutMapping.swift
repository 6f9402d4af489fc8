import RealModule

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
        isInGamut(linear: c, low: linearLow, high: linearHigh)
    }

    @inline(__always)
    static func isInGamut(linear c: SIMD3<Double>, low: Double, high: Double) -> Bool {
        c.x >= low && c.x <= high && c.y >= low && c.y <= high && c.z >= low && c.z <= high
    }

    /// What one mapping reads: its five matrices and the in-gamut bounds, in one global. Each
    /// read of a lazily made global goes through `swift_once`; the suggestions map hundreds of
    /// thousands of candidates, each of which read seven.
    struct Constants {
        let labToLMS: Matrix3, lmsToXYZ: Matrix3, xyzToLinear: Matrix3, linearToLMS: Matrix3, lmsToLab: Matrix3
        let linearLow: Double, linearHigh: Double

        init() {
            (labToLMS, lmsToXYZ, xyzToLinear) = (OKLab.labToLMS, OKLab.lmsToXYZ, XYZ.toLinearSRGB)
            (linearToLMS, lmsToLab) = (GamutMapping.linearSRGBToLMS, OKLab.lmsToLab)
            (linearLow, linearHigh) = (GamutMapping.linearLow, GamutMapping.linearHigh)
        }
    }
    static let constants = Constants()

    /// Linear sRGB straight to OKLab's LMS (the product of the two matrices), for the distance
    /// of each clipped candidate.
    static let linearSRGBToLMS = OKLab.xyzToLMS * XYZ.fromLinearSRGB

    /// The real cube root, for the distances the search compares with the 0.02 JND: a starting
    /// guess from the exponent bits and three Halley steps (each triples the correct bits), to
    /// within 1e-15 of `cbrt` (relative) at a fraction of its cost (it was a fifth of the time
    /// of a suggestion). Outside 1e-200…1e200 (and for 0, infinities and NaN) it is `cbrt`.
    @inline(__always)
    static func cubeRoot(_ x: Double) -> Double {
        let magnitude = abs(x)
        guard magnitude > 1e-200 && magnitude < 1e200 else { return Double.root(x, 3) }
        var t = Double(bitPattern: magnitude.bitPattern / 3 + (715_094_163 << 32))
        for _ in 0..<3 {
            let t3 = t * t * t
            t = t * (t3 + 2 * magnitude) / (2 * t3 + magnitude)
        }
        return x < 0 ? -t : t
    }

    /// ``cubeRoot(_:)`` of three values at once (the steps run side by side in vector registers).
    @inline(__always)
    static func cubeRoot(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let magnitude = SIMD3(abs(v.x), abs(v.y), abs(v.z))
        guard all(magnitude .> 1e-200 .& magnitude .< 1e200) else { return SIMD3(cubeRoot(v.x), cubeRoot(v.y), cubeRoot(v.z)) }
        var t = SIMD3(Double(bitPattern: magnitude.x.bitPattern / 3 + (715_094_163 << 32)),
                      Double(bitPattern: magnitude.y.bitPattern / 3 + (715_094_163 << 32)),
                      Double(bitPattern: magnitude.z.bitPattern / 3 + (715_094_163 << 32)))
        for _ in 0..<3 {
            let t3 = t * t * t
            t = t * (t3 + 2 * magnitude) / (2 * t3 + magnitude)
        }
        return SIMD3(v.x < 0 ? -t.x : t.x, v.y < 0 ? -t.y : t.y, v.z < 0 ? -t.z : t.z)
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
        let mapped = linear(l: l, c: c, hue: hue)
        return SRGB(red: SRGBTransfer.encode(mapped.x), green: SRGBTransfer.encode(mapped.y), blue: SRGBTransfer.encode(mapped.z), alpha: alpha)
    }

    /// ``srgb(l:c:hue:alpha:)`` rounded to 8 bits, as ``SRGB/quantized`` rounds it, without
    /// encoding: each linear component is placed among the 8-bit levels' linear thresholds
    /// (the suggestions make thousands of candidates and report only their 8-bit values).
    static func srgb8(l: Double, c: Double, hue: (cosine: Double, sine: Double)) -> SRGB {
        let levels = SRGBTransfer.eightBitLevels(linear: linear(l: l, c: c, hue: hue))
        return SRGB(red8: levels.x, green8: levels.y, blue8: levels.z)
    }

    /// The mapped color in linear light, not clamped (the CSS algorithm returns the last
    /// candidate within the JND, whose components may lie a little outside 0…1).
    static func linear(l: Double, c: Double, hue: (cosine: Double, sine: Double)) -> SIMD3<Double> {
        if l >= 1 { return SIMD3(1, 1, 1) }
        if l <= 0 { return SIMD3(0, 0, 0) }
        let (cosine, sine) = hue
        let origin = (l: l, c: c)
        // The matrices are read once per mapping, not once per candidate, and every step is
        // written out in place: the same operations in the same order as `OKLab.xyz`,
        // `XYZ.linearSRGB` and `SIMD3.clamped` (so the same bits), without their calls.
        let constants = GamutMapping.constants
        let labToLMS = constants.labToLMS, lmsToXYZ = constants.lmsToXYZ, xyzToLinear = constants.xyzToLinear
        let linearToLMS = constants.linearToLMS, lmsToLab = constants.lmsToLab
        let gamutLow = constants.linearLow, gamutHigh = constants.linearHigh
        func lab(_ chroma: Double) -> OKLab { OKLab(l: origin.l, a: chroma * cosine, b: chroma * sine) }
        func linear(_ chroma: Double) -> SIMD3<Double> {
            let lab = lab(chroma)
            let root = labToLMS * SIMD3(lab.l, lab.a, lab.b)
            return xyzToLinear * (lmsToXYZ * (root * root * root))
        }
        func clippedDistance(_ c: SIMD3<Double>, _ chroma: Double) -> Double {
            let clipped = SIMD3(Double.minimum(Double.maximum(c.x, 0), 1), Double.minimum(Double.maximum(c.y, 0), 1),
                                Double.minimum(Double.maximum(c.z, 0), 1))
            let root = GamutMapping.cubeRoot(linearToLMS * clipped)
            let oklab = lmsToLab * root
            return OKLab(l: oklab.x, a: oklab.y, b: oklab.z).distance(to: lab(chroma))
        }

        var current = linear(origin.c)
        if isInGamut(linear: current, low: gamutLow, high: gamutHigh) || clippedDistance(current, origin.c) < jnd { return current }

        // The suggestions' search bounds its candidates by what this loop can return (see
        // `NearestPassing.Ladder.chromaFloor`): an in-gamut chroma is passed over only while
        // `lowInGamut` holds, and every other one tried becomes `current`.
        var low = 0.0, high = origin.c, lowInGamut = true
        while high - low > chromaEpsilon {
            let chroma = (low + high) / 2
            let candidate = linear(chroma)
            if lowInGamut && isInGamut(linear: candidate, low: gamutLow, high: gamutHigh) {
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
        return current
    }
}
