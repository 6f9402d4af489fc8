import RealModule

/// The colored gradient line of a ``Gradient`` (CSS Images 3 §3.4.2), ready to be read at many
/// points: each segment between two stops is an ``InterpolationPair`` in the interpolation
/// space, built once.
///
/// A point of a segment is named by `u`, its fraction of the way from the segment's first stop
/// to its second. A transition hint turns `u` into the weight of the second color, `u^log_H(0.5)`
/// with `H` the hint's place on the segment; without one the weight is `u`.
struct GradientLine {
    let gradient: Gradient
    let method: InterpolationMethod
    /// Where each stop is drawn (``GradientStop/layoutPosition``).
    let positions: [Double]
    /// Segment k runs from stop k to stop k + 1.
    let pairs: [InterpolationPair]
    /// The hint of each segment as a fraction of the segment (nil: linear).
    let hints: [Double?]
    /// Each stop's color where it is a segment's end exactly, when interpolating cannot change it
    /// (no missing component): reading it back through the interpolation space would only add
    /// rounding, and the worst point must never be better than a stop.
    let exactEnds: [ParsedColor?]
    /// The one color of a gradient with a single stop, or of a repeating gradient whose stops
    /// all share one position (CSS Images 3 §3.3: the average color).
    let solid: SRGB?
    /// The length of one repetition (repeating gradients), else 0.
    let period: Double

    init(_ gradient: Gradient) {
        self.gradient = gradient
        let stops = gradient.stops
        method = InterpolationMethod(gradient.interpolation) ?? InterpolationMethod.defaultMethod(for: stops)
        positions = stops.map(\.layoutPosition)
        var pairs: [InterpolationPair] = [], hints: [Double?] = []
        let spaced = stops.map(\.spaced)
        for k in stops.indices.dropLast() {
            pairs.append(InterpolationPair(spaced[k], spaced[k + 1], in: method.space, hue: method.hue))
            let length = positions[k + 1] - positions[k]
            if case .at(let h) = stops[k].hintAfter, length > 0 {
                hints.append(min(1, max(0, (h - positions[k]) / length)))
            } else {
                hints.append(nil)
            }
        }
        self.pairs = pairs
        self.hints = hints
        exactEnds = zip(stops, spaced).map { stop, color in
            color.missing == ComponentFlags() && !color.alphaMissing ? stop.color : nil
        }
        let span = (positions.last ?? 0) - (positions.first ?? 0)
        if stops.count == 1 {
            solid = stops[0].color.color
        } else if gradient.repeating && !gradient.hasLengthPositions && !(span > 0) {
            solid = GradientLine.averageColor(stops.map(\.color.color))
        } else {
            solid = nil
        }
        period = gradient.repeating && span > 0 ? span : 0
    }

    /// CSS Images 3 §3.3 for a repeating gradient of no length: the average of the stops spread
    /// evenly, each adjacent pair weighted half each, in premultiplied sRGBA.
    static func averageColor(_ colors: [SRGB]) -> SRGB {
        guard colors.count > 1 else { return colors.first ?? .transparent }
        var sum = SIMD4<Double>(), weight = 0.5 / Double(colors.count - 1)
        for k in colors.indices.dropLast() {
            for c in [colors[k], colors[k + 1]] {
                sum += SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha) * weight
            }
        }
        weight = sum.w > 0 ? 1 / sum.w : 0
        return SRGB(red: sum.x * weight, green: sum.y * weight, blue: sum.z * weight, alpha: sum.w)
    }

    // MARK: Reading the line

    /// The weight of the second color `u` of the way along segment `k` (CSS Images 3 §3.4.2).
    func weight(_ k: Int, _ u: Double) -> Double {
        guard let h = hints[k] else { return u }
        // H at an end: the whole segment is the far color (H = 0) or the near one (H = 1).
        if h <= 0 { return u > 0 ? 1 : 0 }
        if h >= 1 { return u < 1 ? 0 : 1 }
        if u <= 0 { return 0 }
        return Double.pow(u, Double.log(0.5) / Double.log(h))
    }

    /// The color `u` of the way along segment `k`, before it is shown.
    func spaced(_ k: Int, _ u: Double) -> SpacedColor {
        pairs[k].color(at: weight(k, u))
    }

    /// The color shown `u` of the way along segment `k` (``ParsedColor/wasOutOfGamut`` says
    /// whether it was gamut-mapped).
    func shown(_ k: Int, _ u: Double) -> ParsedColor {
        let w = weight(k, u)
        if w == 0, let exact = exactEnds[k] { return exact }
        if w == 1, let exact = exactEnds[k + 1] { return exact }
        return ColorParser.display(pairs[k].color(at: w))
    }

    func color(_ k: Int, _ u: Double) -> SRGB { shown(k, u).color }

    /// Whether the color `u` along segment `k` is shown without gamut mapping: what
    /// ``shown(_:_:)`` says of it, without mapping it.
    func isInGamut(_ k: Int, _ u: Double) -> Bool {
        let w = weight(k, u)
        if w == 0, let exact = exactEnds[k] { return !exact.wasOutOfGamut }
        if w == 1, let exact = exactEnds[k + 1] { return !exact.wasOutOfGamut }
        let color = pairs[k].color(at: w)
        if let rgb = color.sRGBFamilyComponents { return GamutMapping.isInGamut(rgb) }
        return GamutMapping.isInGamut(linear: color.xyz.linearSRGB)
    }

    /// Where `position` falls: before the first stop, on segment k at u, or after the last stop.
    enum Place {
        case before, after
        case segment(Int, Double)
    }

    func place(of position: Double) -> Place {
        var x = position
        if period > 0, let first = positions.first {
            x = first + GradientLine.modulo(x - first, period)
        }
        guard let first = positions.first, x >= first else { return .before }
        guard let last = positions.last, x < last else { return .after }
        // The last stop at or before x; the next one is past x.
        var low = 0, high = positions.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if positions[middle] <= x { low = middle } else { high = middle }
        }
        return .segment(low, (x - positions[low]) / (positions[low + 1] - positions[low]))
    }

    func color(at position: Double) -> SRGB {
        if let solid { return solid }
        switch place(of: position) {
        case .before: return gradient.stops[0].color.color
        case .after: return gradient.stops[gradient.stops.count - 1].color.color
        case .segment(let k, let u): return color(k, u)
        }
    }

    /// The color at `position` before it is shown (gamut mapping, clamping), for comparing with
    /// other implementations; nil where the line is a stop's color alone.
    func spaced(at position: Double) -> SpacedColor? {
        guard solid == nil, case .segment(let k, let u) = place(of: position) else { return nil }
        return spaced(k, u)
    }

    /// `value` modulo `period`, in `0..<period`.
    static func modulo(_ value: Double, _ period: Double) -> Double {
        let r = value.truncatingRemainder(dividingBy: period)
        return r < 0 ? (r + period < period ? r + period : 0) : r
    }

    // MARK: What the box shows

    /// A stretch of one segment the box shows: `u` from `from` to `to`.
    struct Piece {
        var segment: Int
        var from: Double
        var to: Double
    }

    /// A single color the box shows (before the first stop, after the last, a solid gradient).
    struct Patch {
        var position: Double
        var color: SRGB
    }

    /// The part of the gradient line the box shows: 0…1, and past 1 for a radial gradient whose
    /// box reaches beyond its ending shape.
    var shownRange: ClosedRange<Double> {
        0...(gradient.extendsPastEnd ? Double.infinity : 1)
    }

    /// Everything the box shows, as pieces of segments and single colors. With length positions
    /// every segment counts in full (its real extent depends on the box).
    func shownParts() -> (pieces: [Piece], patches: [Patch]) {
        let stops = gradient.stops
        if let solid { return ([], [Patch(position: 0, color: solid)]) }
        guard let first = positions.first, let last = positions.last else { return ([], []) }
        let firstColor = stops[0].color.color, lastColor = stops[stops.count - 1].color.color
        if gradient.hasLengthPositions {
            let pieces = pairs.indices.map { Piece(segment: $0, from: 0, to: 1) }
            return (pieces, [Patch(position: first, color: firstColor), Patch(position: last, color: lastColor)])
        }
        let range = shownRange
        // The base stretches of the line (one period of a repeating gradient) that are shown.
        var stretches: [ClosedRange<Double>] = []
        if period > 0 {
            if range.upperBound - range.lowerBound >= period {
                stretches = [first...last]
            } else {
                let start = first + GradientLine.modulo(range.lowerBound - first, period)
                let end = start + (range.upperBound - range.lowerBound)
                stretches = [start...min(end, last)]
                if end > last { stretches.append(first...(end - period)) }
            }
        } else {
            stretches = [range]
        }
        // A hard edge at the last stop (`red 100%, transparent`): the segment into it has no
        // length, and the color after the edge is what the line shows at that point
        // (``color(at:)``), so it counts where the box reaches it.
        let endsOnEdge = positions.count >= 2 && positions[positions.count - 2] == last
        var pieces: [Piece] = [], patches: [Patch] = []
        for stretch in stretches {
            if period == 0 {
                if stretch.lowerBound < first { patches.append(Patch(position: stretch.lowerBound, color: firstColor)) }
                if stretch.upperBound > last || (endsOnEdge && stretch.upperBound == last) {
                    patches.append(Patch(position: max(last, stretch.lowerBound), color: lastColor))
                }
            }
            for k in pairs.indices where positions[k + 1] > positions[k] {
                let low = max(positions[k], stretch.lowerBound), high = min(positions[k + 1], stretch.upperBound)
                guard low <= high else { continue }
                let length = positions[k + 1] - positions[k]
                let from = low == positions[k] ? 0 : (low - positions[k]) / length
                let to = high == positions[k + 1] ? 1 : (high - positions[k]) / length
                pieces.append(Piece(segment: k, from: from, to: to))
            }
        }
        return (pieces, patches)
    }

    /// The position on the line of a point `u` along segment `k`, as reported: inside the shown
    /// range (a repeating gradient's first repetition there).
    func position(_ k: Int, _ u: Double) -> Double {
        var x = positions[k] + (positions[k + 1] - positions[k]) * u
        if u == 1 { x = positions[k + 1] }
        if period > 0 {
            let low = shownRange.lowerBound
            x += period * ((low - x) / period).rounded(.up)
        }
        return x
    }

    /// The points strictly inside segment `k` (as `u`) where the shown color has a corner: in
    /// `hsl` and `hwb` the red, green and blue channels are piecewise linear, with corners where
    /// the hue passes a multiple of 60° and, in `hsl`, where the lightness passes 50 % (in `hwb`,
    /// where whiteness and blackness reach 100 % together). The extremes of a text's ratio lie
    /// at these corners as often as between them.
    func corners(_ k: Int) -> [Double] {
        let pair = pairs[k]
        var weights = pair.hueCrossings(every: 60)
        switch method.space {
        case .hsl: if let t = pair.weight(whereSumOf: [2], equals: 50) { weights.append(t) }
        case .hwb: if let t = pair.weight(whereSumOf: [1, 2], equals: 100) { weights.append(t) }
        default: return []
        }
        return weights.compactMap { u(ofWeight: $0, k) }.sorted()
    }

    /// The `u` along segment `k` whose weight is `weight` (undoing a transition hint).
    func u(ofWeight weight: Double, _ k: Int) -> Double? {
        guard let h = hints[k] else { return weight }
        guard h > 0 && h < 1 else { return nil }
        return Double.pow(weight, Double.log(h) / Double.log(0.5))
    }

    /// How far the hue turns along segment `k`, in degrees (0 in a space without a hue).
    func hueArc(_ k: Int) -> Double { pairs[k].hueArc }
}
