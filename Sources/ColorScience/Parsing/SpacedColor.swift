import RealModule

/// The spaces CSS colors are written and mixed in (CSS Color 4 §4, CSS Color 5 §3).
enum CSSSpace: Sendable, Hashable, CaseIterable {
    case srgb, srgbLinear, displayP3, displayP3Linear, a98RGB, prophotoRGB, rec2020, xyzD50, xyzD65
    case lab, lch, oklab, oklch, hsl, hwb

    /// A `color-mix(in …)` or `color(…)` space name (`xyz` is `xyz-d65`).
    init?(name: String) {
        switch name {
        case "srgb": self = .srgb
        case "srgb-linear": self = .srgbLinear
        case "display-p3": self = .displayP3
        case "display-p3-linear": self = .displayP3Linear
        case "a98-rgb": self = .a98RGB
        case "prophoto-rgb": self = .prophotoRGB
        case "rec2020": self = .rec2020
        case "xyz", "xyz-d65": self = .xyzD65
        case "xyz-d50": self = .xyzD50
        case "lab": self = .lab
        case "lch": self = .lch
        case "oklab": self = .oklab
        case "oklch": self = .oklch
        case "hsl": self = .hsl
        case "hwb": self = .hwb
        default: return nil
        }
    }

    var name: String {
        switch self {
        case .srgb: "srgb"
        case .srgbLinear: "srgb-linear"
        case .displayP3: "display-p3"
        case .displayP3Linear: "display-p3-linear"
        case .a98RGB: "a98-rgb"
        case .prophotoRGB: "prophoto-rgb"
        case .rec2020: "rec2020"
        case .xyzD50: "xyz-d50"
        case .xyzD65: "xyz-d65"
        case .lab: "lab"
        case .lch: "lch"
        case .oklab: "oklab"
        case .oklch: "oklch"
        case .hsl: "hsl"
        case .hwb: "hwb"
        }
    }

    static let mixSpaceNames = "srgb, srgb-linear, display-p3, display-p3-linear, a98-rgb, prophoto-rgb, rec2020, lab, oklab, xyz, xyz-d50, xyz-d65, hsl, hwb, lch or oklch"

    var rgbSpace: RGBSpace? {
        switch self {
        case .srgb: .srgb
        case .srgbLinear: .srgbLinear
        case .displayP3: .displayP3
        case .displayP3Linear: .displayP3Linear
        case .a98RGB: .a98RGB
        case .prophotoRGB: .prophotoRGB
        case .rec2020: .rec2020
        default: nil
        }
    }

    /// Which component is the hue, in the cylindrical spaces.
    var hueIndex: Int? {
        switch self {
        case .hsl, .hwb: 0
        case .lch, .oklch: 2
        default: nil
        }
    }

    /// The analogous-component category of each component (CSS Color 4 §12.2), for carrying a
    /// missing component into another space.
    var categories: (Category, Category, Category) {
        switch self {
        case .srgb, .srgbLinear, .displayP3, .displayP3Linear, .a98RGB, .prophotoRGB, .rec2020, .xyzD50, .xyzD65: (.red, .green, .blue)
        case .lab, .oklab: (.lightness, .opponentA, .opponentB)
        case .lch, .oklch: (.lightness, .colorfulness, .hue)
        case .hsl: (.hue, .colorfulness, .lightness)
        case .hwb: (.hue, .other, .other)
        }
    }

    enum Category: Equatable {
        case red, green, blue, lightness, colorfulness, hue, opponentA, opponentB, other
    }

    /// The channel keywords of relative color syntax, in order (CSS Color 5 §4).
    var channelNames: [String] {
        switch self {
        case .srgb, .srgbLinear, .displayP3, .displayP3Linear, .a98RGB, .prophotoRGB, .rec2020: ["r", "g", "b"]
        case .xyzD50, .xyzD65: ["x", "y", "z"]
        case .lab, .oklab: ["l", "a", "b"]
        case .lch, .oklch: ["l", "c", "h"]
        case .hsl: ["h", "s", "l"]
        case .hwb: ["h", "w", "b"]
        }
    }
}

/// Which of a color's three components are missing (`none`).
struct ComponentFlags: Sendable, Hashable {
    private var bits: UInt8 = 0

    init() {}

    init(_ first: Bool, _ second: Bool, _ third: Bool) {
        self[0] = first
        self[1] = second
        self[2] = third
    }

    subscript(_ index: Int) -> Bool {
        get { bits & (1 << index) != 0 }
        set { if newValue { bits |= 1 << index } else { bits &= ~(1 << index) } }
    }
}

/// A color as CSS holds it before it is shown: components in the space it was written or mixed
/// in, some of them possibly missing (`none`), and alpha. Units are those of the CSS functions'
/// numbers: RGB and XYZ spaces `0…1`, `hsl()`/`hwb()` percentages as `0…100`, Lab `L` `0…100`,
/// OKLab `L` `0…1`, hues in degrees.
struct SpacedColor: Sendable, Hashable {
    var space: CSSSpace
    var components: SIMD3<Double>
    /// Which of the three components are missing (`none`).
    var missing: ComponentFlags = ComponentFlags()
    var alpha: Double
    var alphaMissing = false
    /// How it was written (``ParsedColor/notation``).
    var notation: String

    init(space: CSSSpace, _ components: SIMD3<Double>, missing: ComponentFlags = ComponentFlags(), alpha: Double,
         alphaMissing: Bool = false, notation: String = "") {
        self.space = space
        self.components = components
        self.missing = missing
        self.alpha = alpha
        self.alphaMissing = alphaMissing
        self.notation = notation
    }

    /// A parsed sRGB color (hex and named colors).
    init(_ parsed: ParsedColor, notation: String) {
        self.init(space: .srgb, parsed.color.components, alpha: parsed.color.alpha, notation: notation)
    }

    /// Components with missing ones as 0, as every conversion and display treats them.
    var resolved: SIMD3<Double> {
        SIMD3(missing[0] ? 0 : components[0], missing[1] ? 0 : components[1], missing[2] ? 0 : components[2])
    }

    var resolvedAlpha: Double { alphaMissing ? 0 : alpha }

    // MARK: Conversion

    /// The color in XYZ-D65 (missing components as 0).
    var xyz: XYZ {
        let c = resolved
        switch space {
        case .srgb, .srgbLinear, .displayP3, .displayP3Linear, .a98RGB, .prophotoRGB, .rec2020: return space.rgbSpace!.xyz(c)
        case .xyzD65: return XYZ(x: c.x, y: c.y, z: c.z)
        case .xyzD50: return XYZ(adaptingD50: c)
        case .lab: return CIELab(l: c.x, a: c.y, b: c.z).xyz
        case .lch: return CIELCH(l: c.x, c: c.y, h: c.z).lab.xyz
        case .oklab: return OKLab(l: c.x, a: c.y, b: c.z).xyz
        case .oklch: return OKLCH(l: c.x, c: c.y, h: c.z).oklab.xyz
        case .hsl: return RGBSpace.srgb.xyz(SpacedColor.hslToRGB(c))
        case .hwb: return RGBSpace.srgb.xyz(SpacedColor.hwbToRGB(c))
        }
    }

    /// The color converted into `target`, carrying missing components to their analogous
    /// components there and marking a hue powerless (missing) where the color is achromatic
    /// (CSS Color 4 §12.2 and §12.4).
    func converted(to target: CSSSpace) -> SpacedColor {
        var result: SpacedColor
        if target == space {
            result = self
        } else {
            // Between sRGB and its cylinders the formulas apply directly, with no XYZ round trip
            // to blur white into a sliver of saturation.
            let components: SIMD3<Double>
            if let rgb = sRGBFamilyComponents, let direct = SpacedColor.fromSRGB(rgb, to: target) {
                components = direct
            } else {
                components = SpacedColor.components(of: xyz, in: target)
            }
            result = SpacedColor(space: target, components, alpha: alpha, alphaMissing: alphaMissing, notation: notation)
            let from = space.categories, to = target.categories
            let fromList = [from.0, from.1, from.2], toList = [to.0, to.1, to.2]
            for i in 0..<3 where missing[i] && fromList[i] != .other {
                if let j = toList.firstIndex(of: fromList[i]) { result.missing[j] = true }
            }
            if let h = target.hueIndex, SpacedColor.isAchromatic(result.components, in: target) { result.missing[h] = true }
        }
        return result
    }

    /// Gamma-encoded sRGB components, for colors in sRGB or its cylinders (hsl, hwb).
    var sRGBFamilyComponents: SIMD3<Double>? {
        switch space {
        case .srgb: resolved
        case .hsl: SpacedColor.hslToRGB(resolved)
        case .hwb: SpacedColor.hwbToRGB(resolved)
        default: nil
        }
    }

    /// sRGB components in `target` when it is sRGB or one of its cylinders.
    static func fromSRGB(_ rgb: SIMD3<Double>, to target: CSSSpace) -> SIMD3<Double>? {
        switch target {
        case .srgb: rgb
        case .hsl: rgbToHSL(rgb)
        case .hwb: rgbToHWB(rgb)
        default: nil
        }
    }

    /// Whether a color's hue is powerless in its cylindrical space: the thresholds of the
    /// CSS Color 4 sample conversions.
    static func isAchromatic(_ c: SIMD3<Double>, in space: CSSSpace) -> Bool {
        switch space {
        case .hsl: abs(c.y) < 1e-3
        case .hwb: c.y + c.z >= 100 - 1e-3
        case .lch: c.y <= 0.0015
        case .oklch: c.y <= 0.000004
        default: false
        }
    }

    /// XYZ-D65 in the components of `space` (not clamped).
    static func components(of xyz: XYZ, in space: CSSSpace) -> SIMD3<Double> {
        switch space {
        case .srgb: return xyz.unclampedSRGB
        case .srgbLinear: return xyz.linearSRGB
        case .displayP3, .displayP3Linear, .a98RGB, .prophotoRGB, .rec2020: return space.rgbSpace!.encoded(xyz)
        case .xyzD65: return xyz.vector
        case .xyzD50: return xyz.adaptedToD50
        case .lab:
            let lab = CIELab(xyz)
            return SIMD3(lab.l, lab.a, lab.b)
        case .lch:
            let lch = CIELCH(CIELab(xyz))
            return SIMD3(lch.l, lch.c, lch.h)
        case .oklab:
            let lab = OKLab(xyz)
            return SIMD3(lab.l, lab.a, lab.b)
        case .oklch:
            let lch = OKLCH(OKLab(xyz))
            return SIMD3(lch.l, lch.c, lch.h)
        case .hsl: return rgbToHSL(xyz.unclampedSRGB)
        case .hwb: return rgbToHWB(xyz.unclampedSRGB)
        }
    }

    /// CSS Color 4 `hslToRgb` (`h` degrees, `s` and `l` `0…100`): ``HSL``'s conversion.
    static func hslToRGB(_ c: SIMD3<Double>) -> SIMD3<Double> {
        HSL.toRGB(hue: c.x, saturation: c.y / 100, lightness: c.z / 100)
    }

    /// CSS Color 4 `hwbToRgb` (`w` and `b` `0…100`).
    static func hwbToRGB(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let w = c.y / 100, b = c.z / 100
        if w + b >= 1 {
            let gray = w / (w + b)
            return SIMD3(repeating: gray)
        }
        let pure = HSL.toRGB(hue: c.x, saturation: 1, lightness: 0.5)
        return pure * (1 - w - b) + SIMD3(repeating: w)
    }

    /// CSS Color 4 `rgbToHsl` on unclamped components, in `hsl()`'s units (`s`/`l` `0…100`).
    static func rgbToHSL(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let hsl = HSL.fromRGB(c)
        return SIMD3(hsl.x, hsl.y * 100, hsl.z * 100)
    }

    /// CSS Color 4 `rgbToHwb`. The hue is the RGB hue itself, not turned around as a negative
    /// HSL saturation turns it, so a color outside sRGB comes back from `hwbToRgb` unchanged.
    static func rgbToHWB(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let maximum = max(c.x, c.y, c.z), minimum = min(c.x, c.y, c.z)
        return SIMD3(HSL.normalizedHue(HSL.rgbHue(c)), minimum * 100, (1 - maximum) * 100)
    }
}

// MARK: color-mix()

/// How hues are interpolated (CSS Color 4 §12.4).
enum HueInterpolation: String, Sendable, CaseIterable {
    case shorter, longer, increasing, decreasing
}

extension SpacedColor {
    /// CSS Color 5 §3: `first` and `second` mixed in `space`, `t` of the way to `second`
    /// (percentages already normalized), premultiplied, with missing components taken from the
    /// other color; `alphaMultiplier` is applied last (percentages summing below 100 %).
    static func mix(_ first: SpacedColor, _ second: SpacedColor, t: Double, in space: CSSSpace,
                    hue method: HueInterpolation, alphaMultiplier: Double) -> SpacedColor {
        var result = InterpolationPair(first, second, in: space, hue: method).color(at: t)
        result.alpha *= alphaMultiplier
        result.notation = "color-mix"
        return result
    }
}

/// Two colors made ready to interpolate between (CSS Color 4 §12): converted into the
/// interpolation space, each missing component taken from the other color (§12.2), the hues
/// fixed up for the hue interpolation method (§12.4) and every other component premultiplied by
/// alpha (§12.3). color-mix() takes one color from a pair; a gradient segment takes many, so the
/// conversions are done once per pair.
struct InterpolationPair: Sendable {
    let space: CSSSpace
    /// Premultiplied components (the hue is not premultiplied).
    private let start: SIMD3<Double>, end: SIMD3<Double>
    private let startAlpha: Double, endAlpha: Double
    /// Components missing on both sides: they stay missing in every color between.
    private let missing: ComponentFlags
    private let alphaMissing: Bool

    init(_ first: SpacedColor, _ second: SpacedColor, in space: CSSSpace, hue method: HueInterpolation) {
        self.space = space
        var a = first.converted(to: space), b = second.converted(to: space)
        var missing = ComponentFlags()
        for i in 0..<3 {
            switch (a.missing[i], b.missing[i]) {
            case (true, true):
                missing[i] = true
                a.components[i] = 0
                b.components[i] = 0
            case (true, false): a.components[i] = b.components[i]
            case (false, true): b.components[i] = a.components[i]
            case (false, false): break
            }
        }
        var alphaMissing = false
        switch (a.alphaMissing, b.alphaMissing) {
        case (true, true):
            alphaMissing = true
            a.alpha = 1
            b.alpha = 1
        case (true, false): a.alpha = b.alpha
        case (false, true): b.alpha = a.alpha
        case (false, false): break
        }
        let hue = space.hueIndex
        // Premultiply every component but the hue.
        for i in 0..<3 where i != hue {
            a.components[i] *= a.alpha
            b.components[i] *= b.alpha
        }
        if let h = hue, !missing[h] {
            var h1 = HSL.normalizedHue(a.components[h]), h2 = HSL.normalizedHue(b.components[h])
            let difference = h2 - h1
            switch method {
            case .shorter:
                if difference > 180 { h1 += 360 } else if difference < -180 { h2 += 360 }
            case .longer:
                if difference > 0 && difference < 180 { h1 += 360 } else if difference > -180 && difference <= 0 { h2 += 360 }
            case .increasing:
                if difference < 0 { h2 += 360 }
            case .decreasing:
                if difference > 0 { h1 += 360 }
            }
            a.components[h] = h1
            b.components[h] = h2
        }
        start = a.components
        end = b.components
        startAlpha = a.alpha
        endAlpha = b.alpha
        self.missing = missing
        self.alphaMissing = alphaMissing
    }

    /// How far the hue turns from the first color to the second, in degrees (0 without a hue).
    var hueArc: Double {
        guard let h = space.hueIndex, !missing[h] else { return 0 }
        return abs(end[h] - start[h])
    }

    /// The weights strictly between 0 and 1 at which the hue passes a multiple of `step`
    /// degrees (the hue is not premultiplied, so it moves linearly).
    func hueCrossings(every step: Double) -> [Double] {
        guard let h = space.hueIndex, !missing[h], end[h] != start[h] else { return [] }
        var crossings: [Double] = []
        var multiple = (min(start[h], end[h]) / step).rounded(.up) * step
        while multiple <= max(start[h], end[h]) {
            let t = (multiple - start[h]) / (end[h] - start[h])
            if t > 0 && t < 1 { crossings.append(t) }
            multiple += step
        }
        return start[h] < end[h] ? crossings : crossings.reversed()
    }

    /// The weight strictly between 0 and 1 at which the components `indices` (not the hue)
    /// add up to `value` once un-premultiplied, if they do there: premultiplied, both sides of
    /// `sum = value · alpha` are linear in the weight.
    func weight(whereSumOf indices: [Int], equals value: Double) -> Double? {
        let first = indices.reduce(0) { $0 + start[$1] }, second = indices.reduce(0) { $0 + end[$1] }
        let denominator = (second - first) - value * (endAlpha - startAlpha)
        guard denominator != 0 else { return nil }
        let t = (value * startAlpha - first) / denominator
        return t > 0 && t < 1 ? t : nil
    }

    /// The color `t` of the way from the first color to the second, un-premultiplied.
    func color(at t: Double) -> SpacedColor {
        let hue = space.hueIndex
        var components = start * (1 - t) + end * t
        let alpha = startAlpha * (1 - t) + endAlpha * t
        for i in 0..<3 where i != hue && alpha != 0 {
            components[i] /= alpha
        }
        if let h = hue {
            // Both hues are in 0..<720 after the fix-up, so one subtraction folds the mix into
            // 0..<360 (exactly: the operands are within a factor of two), without fmod's cost.
            let mixed = components[h]
            components[h] = mixed >= 0 && mixed < 720 ? (mixed >= 360 ? mixed - 360 : mixed) : HSL.normalizedHue(mixed)
        }
        return SpacedColor(space: space, components, missing: missing, alpha: alpha, alphaMissing: alphaMissing,
                           notation: "color-mix")
    }
}
