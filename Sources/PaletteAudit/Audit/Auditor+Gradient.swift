import ColorScience
import TokenSources

/// Text on a gradient background: judged at the gradient's worst point (every stop and every
/// color between them, as CSS interpolates), with the best point beside it.
extension Auditor {
    /// How many points of a gradient are simulated for each color-vision deficiency, on top of
    /// its stops (the normal-vision worst point is found exactly; the simulated one is sampled).
    static let simulatedGradientSamples = 256

    static func gradientResult(_ item: Item, fg: ResolvedColor, bg: ResolvedColor, gradient: Gradient, backdrop: ResolvedColor?,
                               theme: String, suggest: Bool, cvdDefault: CVDPolicy) -> CheckResult {
        let extremes = gradient.contrast(foreground: fg.color, backdrop: backdrop?.color)
        var seen = bg
        seen.color = extremes.worst.color
        seen.hex = extremes.worst.color.hex
        let measurement = ContrastMeasurement(foreground: fg.color, background: extremes.worst.color, backdrop: backdrop?.color)
        var result = Auditor.result(item, fg: fg, bg: seen, backdrop: backdrop, theme: theme, measurement: measurement,
                                    suggest: false, cvdDefault: cvdDefault)
        func point(_ p: GradientContrast.Point) -> GradientPoint {
            GradientPoint(position: rounded(p.position), color: p.color.hex, ratio: p.ratio, display: RatioFormat.display(p.ratio))
        }
        result.gradient = GradientMeasurement(css: bg.css, interpolation: gradient.interpolation, worst: point(extremes.worst), best: point(extremes.best),
                                              lengthPositions: gradient.hasLengthPositions ? true : nil)
        // Contrast as a person with a deficiency sees it: the gradient sampled, each point simulated.
        if var cvd = result.cvd {
            let required = result.required
            // Each deficiency's lowest over the samples (the normal-vision worst point first,
            // then evenly spaced positions and every stop); then the lowest of those, named as
            // every simulated contrast is (`ColorVisionDeficiency.lowest`).
            let positions = (0...simulatedGradientSamples).map { Double($0) / Double(simulatedGradientSamples) } + gradient.stops.compactMap(\.position)
            let samples = [extremes.worst.color] + positions.map { gradient.color(at: $0) }
            let deficiencies = ColorVisionDeficiency.audited
            let perDeficiency = deficiencies.map { deficiency -> (ratio: Double, fg: String, bg: String) in
                let f = deficiency.simulate(fg.color), seenBackdrop = backdrop.map { deficiency.simulate($0.color) }
                var lowest = (ratio: Double.infinity, fg: "", bg: "")
                for color in samples {
                    let m = ContrastMeasurement(foreground: f, background: deficiency.simulate(color), backdrop: seenBackdrop)
                    if m.ratio < lowest.ratio {
                        lowest = (m.ratio, (m.effectiveForeground ?? f).hex, (m.effectiveBackground ?? m.worstBackdrop ?? f).hex)
                    }
                }
                return lowest
            }
            // Never nil: `audited` is not empty.
            let named = ColorVisionDeficiency.lowest(perDeficiency.map(\.ratio)) ?? (0, cvd.ratio)
            cvd.deficiency = deficiencies[named.index].name
            cvd.ratio = named.value
            cvd.display = RatioFormat.display(named.value)
            cvd.foreground = perDeficiency[named.index].fg
            cvd.background = perDeficiency[named.index].bg
            if let required, cvd.verdict != nil {
                let policy = item.cvd ?? cvdDefault
                cvd.verdict = named.value >= required ? "pass" : policy == .fail ? "fail" : "warn"
                if cvd.verdict == "fail" && result.verdict != .fail {
                    result.verdict = .fail
                    result.reasons = (result.reasons ?? []) + ["\(cvd.display) under simulated \(cvd.deficiency) is below the \(CSSNumber.format(required)):1 required (\"cvd\": \"fail\")"]
                }
            }
            result.cvd = cvd
        }
        if let first = result.reasons?.first, result.verdict == .fail {
            result.reasons![0] = first + " at \(percent(extremes.worst.position)) of the gradient (\(extremes.worst.color.hex))"
        }
        if result.verdict == .fail, suggest, let required = result.required {
            result.suggestions = gradientSuggestions(foreground: fg.color, gradient: gradient, backdrop: backdrop?.color,
                                                     target: ContrastTarget(ratio: required, lc: item.apcaMinimum))
            result.fixes = result.suggestions.flatMap { fixes($0, foreground: fg, background: bg, kind: item.kind, pointer: item.pointer, theme: theme) }
        }
        return result
    }

    /// `0.25` → "25%", `0.2513` → "25.1%".
    static func percent(_ position: Double) -> String {
        let tenths = (position * 1000).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))%" : "\(tenths)%"
    }

    /// The nearest foregrounds that pass on the whole gradient: each suggestion against the
    /// worst point is checked on the gradient again, and the search repeats against the new
    /// worst point until it holds (a gradient is not one color, so only the foreground moves).
    static func gradientSuggestions(foreground: SRGB, gradient: Gradient, backdrop: SRGB?, target: ContrastTarget) -> Suggestions {
        var found: [SuggestedColor] = []
        var notes: [String] = []
        let required = target.minimumRatio ?? 0
        for lighter in [true, false] {
            var against = gradient.contrast(foreground: foreground, backdrop: backdrop).worst.color
            var accepted: ColorSuggestion?
            for _ in 0..<8 {
                let seen = ContrastMeasurement(foreground: foreground, background: against, backdrop: backdrop).effectiveBackground ?? against.opaque
                let result = NearestPassing.suggest(for: foreground, against: seen, role: .foreground, target: target, ladders: SuggestionCache.shared.ladders)
                guard let candidate = result.suggestions.first(where: { ($0.direction == "lighter") == lighter }) else { break }
                let worst = gradient.contrast(foreground: candidate.color, backdrop: backdrop).worst
                if worst.ratio >= required {
                    var held = candidate
                    held.ratio = worst.ratio
                    accepted = held
                    break
                }
                against = worst.color
            }
            if let accepted { found.append(SuggestedColor(accepted)) }
        }
        found.sort { $0.deltaEOK < $1.deltaEOK }
        if found.isEmpty {
            notes.append("no foreground of this hue reaches \(target) on every point of the gradient")
        }
        notes.append("a gradient is not one color: change its stops to fix it from the background side")
        return Suggestions(foreground: found, background: [], both: nil, notes: notes)
    }
}
