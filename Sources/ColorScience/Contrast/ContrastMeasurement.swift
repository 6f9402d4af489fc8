import RealModule

/// The contrast of a foreground over a background, with translucency resolved.
///
/// - A translucent foreground is composited over the background before measuring.
/// - A translucent background is composited over `backdrop` (the surface it sits on). When no
///   backdrop is known, the measurement gives the range instead: the worst and best ratio over
///   every possible opaque backdrop, with the backdrops that produce them.
public struct ContrastMeasurement: Hashable, Sendable {
    /// The foreground as given.
    public let foreground: SRGB
    /// The background as given.
    public let background: SRGB
    /// The opaque foreground actually seen (after compositing), when the result is exact.
    public let effectiveForeground: SRGB?
    /// The opaque background actually seen, when the result is exact.
    public let effectiveBackground: SRGB?
    /// The WCAG ratio; with a range, the worst case (the only safe value to judge by).
    public let ratio: Double
    /// The best ratio over all backdrops; equal to ``ratio`` when the result is exact.
    public let bestRatio: Double
    /// With a range: the opaque backdrops that give the worst and best ratio.
    public let worstBackdrop: SRGB?
    public let bestBackdrop: SRGB?
    /// APCA Lc of the (worst-case) effective colors.
    public let apca: Double

    /// Whether the ratio depends on an unknown backdrop.
    public var isRange: Bool { worstBackdrop != nil }

    /// Measures `foreground` on `background`, compositing over `backdrop` when `background`
    /// is translucent. A translucent `backdrop` is itself treated as lying on an unknown surface.
    public init(foreground: SRGB, background: SRGB, backdrop: SRGB? = nil) {
        self.foreground = foreground
        self.background = background
        // Each layer over the unknown surface X is affine per channel: value = base + slope·x.
        var base = SIMD3<Double>(0, 0, 0), slope = SIMD3<Double>(1, 1, 1)
        func paint(_ layer: SRGB) {
            let a = layer.alpha
            base = layer.components * a + base * (1 - a)
            slope = slope * (1 - a)
        }
        if let backdrop { paint(backdrop) }
        paint(background)
        let backgroundBase = base, backgroundSlope = slope
        paint(foreground)
        let layers = Layers(foregroundBase: base, foregroundSlope: slope,
                            backgroundBase: backgroundBase, backgroundSlope: backgroundSlope)

        if backgroundSlope == SIMD3(0, 0, 0) {
            let fg = layers.foreground(at: .zero), bg = layers.background(at: .zero)
            effectiveForeground = fg
            effectiveBackground = bg
            ratio = fg.contrastRatio(with: bg)
            bestRatio = ratio
            worstBackdrop = nil
            bestBackdrop = nil
            apca = APCA.lightnessContrast(text: fg, background: bg)
            return
        }

        let (maxX, maxR) = layers.maximize(inverted: false)
        let (minX, invMinR) = layers.maximize(inverted: true)
        let minR = 1 / invMinR
        var worstX: SIMD3<Double>, worst: Double
        if minR <= 1 && maxR >= 1 {
            // By continuity some backdrop makes both luminances equal: the ratio can fall to 1.
            worstX = layers.equalLuminanceBackdrop(low: minX, high: maxX)
            worst = 1
        } else if minR > 1 {
            worstX = minX
            worst = minR
        } else {
            worstX = maxX
            worst = 1 / maxR
        }
        let best: Double, bestX: SIMD3<Double>
        if maxR >= invMinR {
            best = maxR
            bestX = maxX
        } else {
            best = invMinR
            bestX = minX
        }
        effectiveForeground = nil
        effectiveBackground = nil
        ratio = worst
        bestRatio = best
        worstBackdrop = SRGB(red: worstX.x, green: worstX.y, blue: worstX.z)
        bestBackdrop = SRGB(red: bestX.x, green: bestX.y, blue: bestX.z)
        apca = APCA.lightnessContrast(text: layers.foreground(at: worstX), background: layers.background(at: worstX))
    }
}

/// The foreground and background as affine functions of an unknown opaque backdrop x ∈ [0,1]³.
private struct Layers {
    let foregroundBase: SIMD3<Double>, foregroundSlope: SIMD3<Double>
    let backgroundBase: SIMD3<Double>, backgroundSlope: SIMD3<Double>

    func foreground(at x: SIMD3<Double>) -> SRGB {
        let c = foregroundBase + foregroundSlope * x
        return SRGB(red: c.x, green: c.y, blue: c.z)
    }

    func background(at x: SIMD3<Double>) -> SRGB {
        let c = backgroundBase + backgroundSlope * x
        return SRGB(red: c.x, green: c.y, blue: c.z)
    }

    /// (Lf + 0.05) / (Lb + 0.05), or its inverse.
    func quotient(at x: SIMD3<Double>, inverted: Bool) -> Double {
        let lf = foreground(at: x).relativeLuminance + 0.05
        let lb = background(at: x).relativeLuminance + 0.05
        return inverted ? lb / lf : lf / lb
    }

    /// The maximum over the unit cube of the luminance quotient, by Dinkelbach's method: the
    /// quotient exceeds t somewhere iff max Σ wᵢ(g(fᵢ) − t·g(bᵢ)) > 0.05(t − 1), and that sum is
    /// separable, so each channel is maximized on its own.
    func maximize(inverted: Bool) -> (SIMD3<Double>, Double) {
        var x = SIMD3<Double>(0, 0, 0)
        var best = quotient(at: x, inverted: inverted)
        for corner in [SIMD3<Double>(1, 1, 1), SIMD3(0.5, 0.5, 0.5)] {
            let q = quotient(at: corner, inverted: inverted)
            if q > best {
                best = q
                x = corner
            }
        }
        for _ in 0..<60 {
            var next = SIMD3<Double>(0, 0, 0)
            for channel in 0..<3 {
                next[channel] = maximizeChannel(channel, t: best, inverted: inverted)
            }
            let q = quotient(at: next, inverted: inverted)
            if q <= best * (1 + 1e-15) { break }
            best = q
            x = next
        }
        return (x, best)
    }

    /// The maximum over x ∈ [0, 1] of h(x) = g(top(x)) − t·g(bottom(x)), where top and bottom are
    /// affine in x and g is the sRGB decoding, found exactly: g is a line below 0.04045 and a
    /// power above, so [0, 1] splits into at most three pieces on which h′ = 0 has one closed-form
    /// root at most. The maximum is at a piece's end or at such a root.
    private func maximizeChannel(_ i: Int, t: Double, inverted: Bool) -> Double {
        let (p, q, r, s) = inverted
            ? (backgroundBase[i], backgroundSlope[i], foregroundBase[i], foregroundSlope[i])
            : (foregroundBase[i], foregroundSlope[i], backgroundBase[i], backgroundSlope[i])
        func h(_ x: Double) -> Double {
            SRGBTransfer.decode(p + q * x) - t * SRGBTransfer.decode(r + s * x)
        }
        let knee = 0.04045, offset = 0.055, linearSlope = 1 / 12.92, powerScale = 2.4 / 1.055
        // Where each side crosses the knee splits [0, 1] into pieces (empty ones are skipped).
        func crossing(_ base: Double, _ slope: Double) -> Double {
            slope > 0 ? min(1, max(0, (knee - base) / slope)) : 0
        }
        let a = crossing(p, q), b = crossing(r, s)
        let cuts = (0.0, min(a, b), max(a, b), 1.0)
        var bestX = 0.0, bestValue = h(0)
        func consider(_ x: Double) {
            guard x >= 0 && x <= 1 else { return }
            let value = h(x)
            if value > bestValue {
                bestValue = value
                bestX = x
            }
        }
        for (low, high) in [(cuts.0, cuts.1), (cuts.1, cuts.2), (cuts.2, cuts.3)] where high > low {
            consider(high)
            guard q > 0 && s > 0 && t > 0 else { continue }
            let middle = (low + high) / 2
            let topPower = p + q * middle > knee, bottomPower = r + s * middle > knee
            // h′(x) = q·g′(top) − t·s·g′(bottom), with g′(u) = 1/12.92 on the line and
            // 2.4/1.055·((u + 0.055)/1.055)^1.4 on the power.
            var root: Double?
            switch (topPower, bottomPower) {
            case (true, true):
                // ((top + 0.055)/(bottom + 0.055))^1.4 = t·s/q
                let k = Double.pow(t * s / q, 1 / 1.4)
                let denominator = q - k * s
                if denominator != 0 { root = (k * (r + offset) - (p + offset)) / denominator }
            case (true, false):
                // q·powerScale·((top + 0.055)/1.055)^1.4 = t·s/12.92
                let top = 1.055 * Double.pow(t * s * linearSlope / (q * powerScale), 1 / 1.4) - offset
                root = (top - p) / q
            case (false, true):
                let bottom = 1.055 * Double.pow(q * linearSlope / (t * s * powerScale), 1 / 1.4) - offset
                root = (bottom - r) / s
            case (false, false):
                break  // h is linear here: its maximum is at an end
            }
            if let root, root > low, root < high { consider(root) }
        }
        return bestX
    }

    /// A backdrop on the segment between two points where both luminances are equal.
    func equalLuminanceBackdrop(low: SIMD3<Double>, high: SIMD3<Double>) -> SIMD3<Double> {
        // quotient(low) ≤ 1 ≤ quotient(high): bisect the segment.
        var a = 0.0, b = 1.0
        for _ in 0..<80 {
            let m = (a + b) / 2
            let q = quotient(at: low + (high - low) * m, inverted: false)
            if q < 1 { a = m } else { b = m }
        }
        return low + (high - low) * ((a + b) / 2)
    }
}
