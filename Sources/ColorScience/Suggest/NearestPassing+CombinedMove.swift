extension NearestPassing {
    /// The smallest combined move: both colors change a little, each along its own lightness,
    /// away from the other. Minimizes the larger of the two ΔE-OK, so neither color carries the
    /// whole change (minimizing the sum would almost always move one side only, which the
    /// one-sided suggestions already give).
    public static func suggestBoth(foreground: SRGB, background: SRGB, target: ContrastTarget,
                                   ladders: Ladders? = nil) -> (foreground: ColorSuggestion, background: ColorSuggestion)? {
        let fg = foreground.opaque, bg = background.opaque
        if target.isMet(foreground: fg.quantized, background: bg.quantized) { return nil }
        let fgLCH = OKLCH(fg), bgLCH = OKLCH(bg)
        // Worked out once for every move: the foreground's hue (each move maps its lightness by
        // the same steps as ``candidate(_:l:)``, rounded to 8 bits as `quantized` rounds) and
        // both originals in OKLab.
        let fgHue = Polar.unitVector(h: fgLCH.h)
        let fgLab = OKLab(fg), bgLab = OKLab(bg)
        var best: (ColorSuggestion, ColorSuggestion, Double)?
        // Which way each moves: apart in lightness. Try both arrangements when they are close.
        let arrangements: [Bool] = abs(fgLCH.l - bgLCH.l) < 0.05 ? [true, false] : [fgLCH.l > bgLCH.l]
        for fgLighter in arrangements {
            let fgEnd = fgLighter ? 1.0 : 0.0
            let backgroundLadder = ladder(for: bg, lighter: !fgLighter, in: ladders)
            /// The combined move with the foreground at lightness `l`, or nil.
            func move(to l: Double) -> (ColorSuggestion, ColorSuggestion, Double)? {
                let movedFg = candidate(fgLCH, l: l, hue: fgHue)
                let movedFgDistance = OKLab(movedFg).distance(to: fgLab)
                let measuredFg = MeasuredColor(movedFg)
                guard let movedBg = search(backgroundLadder, target: target, against: measuredFg, role: .background) else { return nil }
                let bgDistance = OKLab(movedBg).distance(to: bgLab)
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
}
