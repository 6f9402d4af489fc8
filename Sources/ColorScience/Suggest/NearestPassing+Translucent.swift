extension NearestPassing {
    /// Backgrounds near `background` that meet `target` under a translucent `foreground`: each
    /// candidate is measured as the pair is drawn, with the foreground painted over that
    /// candidate (``ContrastMeasurement``, the measurement of `contrast check`), never over the
    /// background it replaces.
    ///
    /// What the foreground lets through changes with every candidate, so nothing is known of a
    /// stretch of the path from its luminance bounds alone: each path is walked rung by rung up
    /// to the first that passes (a thousand candidates at most), and, when none does, to its
    /// end, which gives the best ratio of the hue.
    static func suggestBackground(for background: SRGB, under foreground: SRGB, target: ContrastTarget,
                                  ladders: Ladders?) -> Result {
        let original = background.opaque
        /// The foreground as seen on `candidate`, and the pair's ratio and APCA Lc.
        func measured(_ candidate: SRGB) -> (seen: SRGB, ratio: Double, apca: Double) {
            let m = ContrastMeasurement(foreground: foreground, background: candidate)
            return (m.effectiveForeground ?? foreground.composited(over: candidate), m.ratio, m.apca)
        }
        if target.isMet(foreground: measured(original.quantized).seen, background: original.quantized) {
            return Result(suggestions: [], bestReachableRatio: nil, alreadyPasses: true)
        }
        var found: [ColorSuggestion] = []
        var best = 1.0
        for lighter in [true, false] {
            let path = ladder(for: original, lighter: lighter, in: ladders)
            let passing = search(path, meets: { rung in
                let seen = measured(rung.color).seen
                best = max(best, seen.contrastRatio(with: rung.color))
                return target.isMet(foreground: seen, background: rung.color)
            })
            if let q = passing {
                let m = measured(q)
                found.append(ColorSuggestion(color: q, role: .background, direction: lighter ? "lighter" : "darker", ratio: m.ratio, apca: m.apca,
                                             deltaEOK: OKLab(q).distance(to: OKLab(original))))
            }
        }
        found.sort { $0.deltaEOK < $1.deltaEOK }
        return Result(suggestions: found, bestReachableRatio: found.isEmpty ? best : nil, alreadyPasses: false)
    }

    /// The best any opaque background can do under a translucent `foreground`, whatever its
    /// hue: the 8-bit background nearest the best of ``ContrastMeasurement``'s range over every
    /// backdrop, with the ratio measured on that 8-bit color.
    public static func bestBackground(under foreground: SRGB) -> (background: SRGB, ratio: Double) {
        let range = ContrastMeasurement(foreground: foreground, background: .transparent)
        let candidates = [range.bestBackdrop?.quantized, .white, .black].compactMap { $0 }
        return candidates.map { ($0, ContrastMeasurement(foreground: foreground, background: $0).ratio) }
            .max { $0.1 < $1.1 }!
    }
}
