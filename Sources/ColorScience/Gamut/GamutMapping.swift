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

    /// The sRGB color for an OKLCH color by the CSS Color 4 gamut-mapping algorithm.
    public static func srgb(from origin: OKLCH, alpha: Double = 1) -> SRGB {
        if origin.l >= 1 { return SRGB(red: 1, green: 1, blue: 1, alpha: alpha) }
        if origin.l <= 0 { return SRGB(red: 0, green: 0, blue: 0, alpha: alpha) }
        func encoded(_ lch: OKLCH) -> SIMD3<Double> { lch.oklab.xyz.unclampedSRGB }
        func clip(_ c: SIMD3<Double>) -> SRGB { SRGB(red: c.x, green: c.y, blue: c.z, alpha: alpha) }

        let originEncoded = encoded(origin)
        if isInGamut(originEncoded) { return clip(originEncoded) }

        var current = origin
        var clipped = clip(originEncoded)
        if OKLab(clipped).distance(to: current.oklab) < jnd { return clipped }

        var low = 0.0, high = origin.c, lowInGamut = true
        while high - low > chromaEpsilon {
            let chroma = (low + high) / 2
            current.c = chroma
            let candidate = encoded(current)
            if lowInGamut && isInGamut(candidate) {
                low = chroma
                continue
            }
            clipped = clip(candidate)
            let difference = OKLab(clipped).distance(to: current.oklab)
            if difference < jnd {
                if jnd - difference < chromaEpsilon { break }
                lowInGamut = false
                low = chroma
            } else {
                high = chroma
            }
        }
        return clipped
    }
}
