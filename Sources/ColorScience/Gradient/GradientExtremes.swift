/// Where a text contrasts least and most with a gradient: a search along the colors the box
/// shows.
///
/// The text's ratio along a segment is not monotone: a gamma-encoded sRGB mix of two colors is
/// darker between them than a straight blend of their luminances (black on `#ff0000 → #00ff00`
/// is worst about a quarter of the way), and in Oklab, OKLCH or HSL the luminance can rise and
/// fall more than once. So each shown piece of a segment is sampled evenly (more densely the
/// further its hue turns), including both ends and the corners of `hsl` and `hwb` paths, then
///
/// - between two samples on opposite sides of the text's luminance, the point of equal
///   luminance (ratio 1, or as near as the colors come) is found by regula falsi;
/// - around each sampled local minimum of the ratio (maximum, for the best point) the extreme is
///   found by Brent's method (parabolic steps, golden-section ones where those fail), unless no
///   dip between its neighbours could reach the extreme found so far (for a smooth ratio the dip
///   below a sampled minimum is at most a quarter of the larger rise to a neighbour; the bound
///   used is four times that).
///
/// Every color evaluated is a candidate, and every stop the box shows is evaluated exactly as it
/// was parsed, so the worst point is never better than a shown stop. Single colors the box
/// shows (before the first stop, after the last, a solid gradient) are candidates too.
struct GradientExtremes {
    let line: GradientLine
    let foreground: SRGB
    let backdrop: SRGB?
    private let foregroundLuminance: Double

    /// Samples along every piece, before the hue's turn adds more.
    static let baseSamples = 13
    /// One more sample for each this many degrees the hue turns along a segment.
    static let degreesPerSample = 15.0
    /// A refinement stops when its bracket is narrower than this fraction of a segment.
    static let tolerance = 1e-9
    /// Where the line leaves sRGB is found to this fraction of a segment: the corner is a
    /// sample for the refinements to start from, not an answer itself.
    static let boundaryTolerance = 1e-6

    init(line: GradientLine, foreground: SRGB, backdrop: SRGB?) {
        self.line = line
        self.foreground = foreground
        self.backdrop = backdrop
        foregroundLuminance = foreground.relativeLuminance
    }

    /// The text's contrast with one color of the gradient.
    struct Value {
        /// The ratio, or its worst over every opaque backdrop when the color is translucent and
        /// no backdrop is known.
        var worst: Double
        /// Equal to ``worst``, or the best over every opaque backdrop.
        var best: Double
        /// The background's relative luminance minus the text's (over the backdrop nearest the
        /// text's luminance, when it is unknown): positive lighter, negative darker, 0 where the
        /// ratio can fall to 1. Continuous along the line, so a change of sign brackets a point
        /// of ratio 1. NaN when the text is translucent over an unknown backdrop.
        var difference: Double
    }

    func value(of color: SRGB) -> Value {
        guard foreground.alpha >= 1 else {
            let measured = ContrastMeasurement(foreground: foreground, background: color, backdrop: backdrop)
            guard let text = measured.effectiveForeground, let background = measured.effectiveBackground else {
                return Value(worst: measured.ratio, best: measured.bestRatio, difference: .nan)
            }
            return Value(worst: measured.ratio, best: measured.ratio, difference: background.relativeLuminance - text.relativeLuminance)
        }
        var background = color
        if background.alpha < 1, let backdrop { background = background.composited(over: backdrop) }
        if background.alpha >= 1 {
            let luminance = background.relativeLuminance
            let ratio = WCAG.contrastRatio(luminance: luminance, foregroundLuminance)
            return Value(worst: ratio, best: ratio, difference: luminance - foregroundLuminance)
        }
        // Over an unknown opaque backdrop the background's luminance rises with every channel
        // of the backdrop, so it spans exactly the values over black and over white; an opaque
        // text's ratio depends on that luminance alone (ContrastMeasurement's range, cheaply).
        let darkest = background.composited(over: .black).relativeLuminance
        let lightest = background.composited(over: .white).relativeLuminance
        let f = foregroundLuminance
        let toDarkest = WCAG.contrastRatio(luminance: darkest, f), toLightest = WCAG.contrastRatio(luminance: lightest, f)
        if darkest > f { return Value(worst: toDarkest, best: toLightest, difference: darkest - f) }
        if lightest < f { return Value(worst: toLightest, best: toDarkest, difference: lightest - f) }
        return Value(worst: 1, best: max(toDarkest, toLightest), difference: 0)
    }

    /// The worst and best points met so far.
    private struct Tracker {
        var worst = GradientContrast.Point(position: 0, color: .transparent, ratio: .infinity)
        var best = GradientContrast.Point(position: 0, color: .transparent, ratio: -.infinity)

        mutating func consider(_ position: Double, _ color: SRGB, _ value: Value) {
            if value.worst < worst.ratio { worst = GradientContrast.Point(position: position, color: color, ratio: value.worst) }
            if value.best > best.ratio { best = GradientContrast.Point(position: position, color: color, ratio: value.best) }
        }
    }

    func search() -> GradientContrast {
        var tracker = Tracker()
        let (pieces, patches) = line.shownParts()
        for patch in patches { tracker.consider(patch.position, patch.color, value(of: patch.color)) }
        for piece in pieces { search(piece, &tracker) }
        if tracker.worst.ratio == .infinity {
            // No stop at all (the stops were emptied after parsing): nothing is painted.
            tracker.consider(0, .transparent, value(of: .transparent))
        }
        return GradientContrast(worst: tracker.worst, best: tracker.best)
    }

    /// Evaluates the point `u` along segment `k` and offers it to the tracker.
    private func evaluate(_ k: Int, _ u: Double, _ tracker: inout Tracker) -> Value {
        evaluateShown(k, u, &tracker).value
    }

    /// ``evaluate(_:_:_:)``, and whether the color there was gamut-mapped.
    private func evaluateShown(_ k: Int, _ u: Double, _ tracker: inout Tracker) -> (value: Value, mapped: Bool) {
        let shown = line.shown(k, u)
        let v = value(of: shown.color)
        tracker.consider(line.position(k, u), shown.color, v)
        return (v, shown.wasOutOfGamut)
    }

    private func search(_ piece: GradientLine.Piece, _ tracker: inout Tracker) {
        let k = piece.segment, span = piece.to - piece.from
        guard span > 0 else {
            _ = evaluate(k, piece.from, &tracker)
            return
        }
        let even = GradientExtremes.baseSamples + Int((line.hueArc(k) / GradientExtremes.degreesPerSample).rounded(.up))
        var us = (0..<even).map { i in i == even - 1 ? piece.to : piece.from + span * Double(i) / Double(even - 1) }
        let corners = line.corners(k).filter { $0 > piece.from && $0 < piece.to }
        if !corners.isEmpty { us = (us + corners).sorted() }
        var values: [Value] = [], mapped: [Bool] = []
        for u in us {
            let (v, m) = evaluateShown(k, u, &tracker)
            values.append(v)
            mapped.append(m)
        }
        // Where the line leaves or enters sRGB, gamut mapping bends it: that point is a corner too.
        var i = 0
        while i < us.count - 1 {
            if mapped[i] != mapped[i + 1] {
                var low = us[i], high = us[i + 1]
                while high - low > GradientExtremes.boundaryTolerance {
                    let middle = (low + high) / 2
                    if !line.isInGamut(k, middle) == mapped[i] { low = middle } else { high = middle }
                }
                for u in [low, high] where u > us[i] && u < us[i + 1] {
                    let (v, m) = evaluateShown(k, u, &tracker)
                    i += 1
                    us.insert(u, at: i)
                    values.insert(v, at: i)
                    mapped.insert(m, at: i)
                }
            }
            i += 1
        }
        let count = us.count
        // Equal luminance between two samples on opposite sides.
        var crossed = [Bool](repeating: false, count: count)
        for i in 0..<count - 1 where values[i].difference * values[i + 1].difference < 0 {
            crossed[i] = true
            findEqualLuminance(k, us[i], values[i].difference, us[i + 1], values[i + 1].difference, &tracker)
        }
        // Sampled local extremes, the piece's ends included: a dip can hide between an end and
        // its neighbour as well as between two inner samples.
        for maximizing in [false, true] {
            func score(_ i: Int) -> Double { maximizing ? -values[i].best : values[i].worst }
            func extreme() -> Double { maximizing ? -tracker.best.ratio : tracker.worst.ratio }
            for i in 0..<count {
                let f = score(i)
                let a = i > 0 ? score(i - 1) : .infinity, b = i < count - 1 ? score(i + 1) : .infinity
                guard f <= a && f <= b && (f < a || f < b) else { continue }
                if !maximizing {
                    if i > 0 && crossed[i - 1] || i < count - 1 && crossed[i] { continue }
                    guard tracker.worst.ratio > 1 else { break }
                }
                // No dip smaller than the larger rise to a neighbour can pass the extreme so far.
                let rise = max(a.isFinite ? a - f : 0, b.isFinite ? b - f : 0)
                if f - rise >= extreme() { continue }
                if i == 0 || i == count - 1 {
                    // At an end: look just beside it (the ratio can turn steeply there, as the
                    // sRGB encoding does near 0) and halfway to the neighbour, and search from
                    // the better of the two when either beats the end.
                    let other = i == 0 ? us[1] : us[count - 2]
                    var start = us[i], best = f
                    for probe in [us[i] + (other - us[i]) * 1e-6, (us[i] + other) / 2] {
                        let v = evaluate(k, probe, &tracker)
                        let score = maximizing ? -v.best : v.worst
                        if score < best { (start, best) = (probe, score) }
                    }
                    if best < f { refine(k, min(us[i], other), start, best, max(us[i], other), maximizing: maximizing, &tracker) }
                } else {
                    refine(k, us[i - 1], us[i], f, us[i + 1], maximizing: maximizing, &tracker)
                }
            }
        }
    }

    /// The point between `low` and `high` (whose luminance differences have opposite signs)
    /// where the background's luminance meets the text's, by regula falsi with the Illinois
    /// modification (the bracket always holds the point, and shrinks superlinearly).
    private func findEqualLuminance(_ k: Int, _ low: Double, _ lowDifference: Double, _ high: Double, _ highDifference: Double,
                                    _ tracker: inout Tracker) {
        var (a, fa, b, fb) = (low, lowDifference, high, highDifference)
        var lastSide = 0
        for _ in 0..<60 where b - a > GradientExtremes.tolerance {
            var u = (a * fb - b * fa) / (fb - fa)
            if !(u > a && u < b) { u = (a + b) / 2 }
            let f = evaluate(k, u, &tracker).difference
            if f == 0 || f.isNaN { return }
            if (f < 0) == (fa < 0) {
                a = u
                fa = f
                if lastSide == -1 { fb /= 2 }
                lastSide = -1
            } else {
                b = u
                fb = f
                if lastSide == 1 { fa /= 2 }
                lastSide = 1
            }
        }
    }

    /// The least worst ratio (or greatest best one) between `low` and `high` along segment `k`,
    /// from the sampled point `middle` whose score is `middleScore`, by Brent's method:
    /// parabolic steps through the three best points so far where they fall well inside the
    /// bracket, golden-section steps where they do not (R. P. Brent, Algorithms for
    /// Minimization without Derivatives, 1973, ch. 5).
    private func refine(_ k: Int, _ low: Double, _ middle: Double, _ middleScore: Double, _ high: Double, maximizing: Bool,
                        _ tracker: inout Tracker) {
        func score(_ u: Double) -> Double {
            let v = evaluate(k, u, &tracker)
            return maximizing ? -v.best : v.worst
        }
        let golden = 0.3819660112501051  // (3 − √5) / 2
        var a = low, b = high
        // x: the best point so far; w: the second best; v: the previous w.
        var x = middle, w = middle, v = middle
        var fx = middleScore, fw = middleScore, fv = middleScore
        var step = 0.0, previousStep = 0.0
        for _ in 0..<100 {
            let m = (a + b) / 2
            let tol1 = GradientExtremes.tolerance, tol2 = 2 * tol1
            if abs(x - m) <= tol2 - (b - a) / 2 { break }
            var parabolic = false
            if abs(previousStep) > tol1 {
                // The vertex of the parabola through x, w and v, as x + p / q.
                let r = (x - w) * (fx - fv)
                var q = (x - v) * (fx - fw)
                var p = (x - v) * q - (x - w) * r
                q = 2 * (q - r)
                if q > 0 { p = -p } else { q = -q }
                let older = previousStep
                previousStep = step
                // Taken only when it moves less than half the step before last, inside the bracket.
                if abs(p) < abs(0.5 * q * older) && p > q * (a - x) && p < q * (b - x) {
                    step = p / q
                    let u = x + step
                    if u - a < tol2 || b - u < tol2 { step = x < m ? tol1 : -tol1 }
                    parabolic = true
                }
            }
            if !parabolic {
                previousStep = (x < m ? b : a) - x
                step = golden * previousStep
            }
            let u = abs(step) >= tol1 ? x + step : x + (step > 0 ? tol1 : -tol1)
            let fu = score(u)
            if fu <= fx {
                if u < x { b = x } else { a = x }
                (v, fv, w, fw, x, fx) = (w, fw, x, fx, u, fu)
            } else {
                if u < x { a = u } else { b = u }
                if fu <= fw || w == x {
                    (v, fv, w, fw) = (w, fw, u, fu)
                } else if fu <= fv || v == x || v == w {
                    (v, fv) = (u, fu)
                }
            }
        }
    }
}
