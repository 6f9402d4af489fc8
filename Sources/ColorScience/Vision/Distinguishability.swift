/// Whether two colors can be told apart, in normal vision and as people with a color-vision
/// deficiency see them.
///
/// The metric is CIEDE2000 (CIE 142-2001; ``ColorDifference/ciede2000(_:_:)-(SRGB,SRGB)``). The default
/// threshold, 9, is the "smallest perceivable distance" of the colorblind check in Gregor
/// Aisch's palette helper (gka/palettes, the companion of chroma.js, whose `chroma.deltaE` is
/// CIEDE2000), the check data-visualisation tools have adopted for categorical palettes: a pair
/// that differs by 9 or more in normal vision is problematic for a deficiency when its simulated
/// colors differ by less than 9. (That check also requires the difference to shrink five-fold;
/// this one does not, so it flags at least what that one flags.) A check can set its own
/// `threshold`.
public enum Distinguishability {
    public static let metric = "CIEDE2000"
    public static let defaultThreshold = 9.0

    /// The color difference the judgement uses, between opaque colors (alpha is ignored).
    public static func difference(_ a: SRGB, _ b: SRGB) -> Double {
        ColorDifference.ciede2000(a.opaque, b.opaque)
    }

    /// How two colors fare in normal vision and under the deficiencies.
    public struct Assessment: Hashable, Sendable {
        /// The difference in normal vision.
        public var normalDifference: Double
        /// The deficiency under which the two differ least, with their simulated colors and
        /// difference (nil when no deficiency was asked for).
        public var worstDeficiency: ColorVisionDeficiency?
        public var simulatedFirst: SRGB?
        public var simulatedSecond: SRGB?
        public var simulatedDifference: Double?
        /// Told apart in normal vision (difference ≥ threshold), not under ``worstDeficiency``.
        public var confusable: Bool
        /// Not told apart even in normal vision.
        public var indistinctInNormalVision: Bool
    }

    /// A color made ready to be weighed against many others: its CIELAB in normal vision, and
    /// its simulated colors and their CIELAB under each deficiency. An audit meets the same
    /// colors in many `distinct` pairs; each color is decoded and simulated once.
    public struct Prepared: Sendable {
        /// The color as assessed (opaque).
        public let color: SRGB
        public let deficiencies: [ColorVisionDeficiency]
        let lab: CIELab
        let simulatedLinear: [SIMD3<Double>]
        let simulatedLab: [CIELab]

        public init(_ color: SRGB, under deficiencies: [ColorVisionDeficiency] = ColorVisionDeficiency.audited) {
            let opaque = color.opaque
            self.color = opaque
            self.deficiencies = deficiencies
            // The same steps as `CIELab(SRGB)`: decoded to linear light, then to XYZ.
            let linear = opaque.linear
            lab = CIELab(XYZ(XYZ.fromLinearSRGB * linear))
            simulatedLinear = deficiencies.map { $0.simulatedLinear(linear: linear) }
            simulatedLab = simulatedLinear.map { CIELab(XYZ(XYZ.fromLinearSRGB * $0)) }
        }
    }

    /// Colors prepared once each when they are weighed under the audited deficiencies (nearly
    /// every group's); under others, prepared afresh each time.
    public struct PreparedColors: Sendable {
        private var kept: [SRGB: Prepared] = [:]

        public init() {}

        public mutating func prepared(_ color: SRGB, under deficiencies: [ColorVisionDeficiency] = ColorVisionDeficiency.audited) -> Prepared {
            guard deficiencies == ColorVisionDeficiency.audited else { return Prepared(color, under: deficiencies) }
            if let known = kept[color] { return known }
            let made = Prepared(color, under: deficiencies)
            kept[color] = made
            return made
        }
    }

    /// Assesses two colors (translucent ones as their opaque versions: composite them first
    /// when what they sit on matters).
    public static func assess(_ a: SRGB, _ b: SRGB, threshold: Double = defaultThreshold,
                              under deficiencies: [ColorVisionDeficiency] = ColorVisionDeficiency.audited) -> Assessment {
        assess(Prepared(a, under: deficiencies), Prepared(b, under: deficiencies), threshold: threshold)
    }

    /// Assesses two prepared colors, under the first one's deficiencies (the second is prepared
    /// again if it was prepared under others).
    public static func assess(_ first: Prepared, _ second: Prepared, threshold: Double = defaultThreshold) -> Assessment {
        let second = second.deficiencies == first.deficiencies ? second : Prepared(second.color, under: first.deficiencies)
        let normal = ColorDifference.ciede2000(first.lab, second.lab)
        var assessment = Assessment(normalDifference: normal, confusable: false, indistinctInNormalVision: normal < threshold)
        // Each simulation is compared in linear light (no encoding and decoding again); only
        // the named one's colors are encoded, for the answer.
        let count = first.deficiencies.count
        if let worst = withUnsafeTemporaryAllocation(of: Double.self, capacity: count, { differences in
            for index in 0..<count { differences[index] = ColorDifference.ciede2000(first.simulatedLab[index], second.simulatedLab[index]) }
            return ColorVisionDeficiency.lowest(count: count) { differences[$0] }
        }) {
            assessment.worstDeficiency = first.deficiencies[worst.index]
            assessment.simulatedDifference = worst.value
            assessment.simulatedFirst = ColorVisionDeficiency.encoded(first.simulatedLinear[worst.index], alpha: 1)
            assessment.simulatedSecond = ColorVisionDeficiency.encoded(second.simulatedLinear[worst.index], alpha: 1)
        }
        if let simulated = assessment.simulatedDifference {
            assessment.confusable = normal >= threshold && simulated < threshold
        }
        return assessment
    }
}
