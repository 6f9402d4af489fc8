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
    ///
    /// The colors are opaque: `color` is the color seen (a translucent one already composited
    /// over what it sits on). `other` as a background is opaque too; as a foreground it may be
    /// translucent, and is then painted over each candidate background as it would be drawn.
    public static func suggest(for color: SRGB, against other: SRGB, role: PairRole, target: ContrastTarget, ladders: Ladders? = nil) -> Result {
        if role == .background && !other.isOpaque {
            return suggestBackground(for: color, under: other, target: target, ladders: ladders)
        }
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
