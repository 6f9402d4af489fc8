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

    /// Assesses two colors (translucent ones as their opaque versions: composite them first
    /// when what they sit on matters).
    public static func assess(_ a: SRGB, _ b: SRGB, threshold: Double = defaultThreshold,
                              under deficiencies: [ColorVisionDeficiency] = ColorVisionDeficiency.audited) -> Assessment {
        let first = a.opaque, second = b.opaque
        let normal = difference(first, second)
        var assessment = Assessment(normalDifference: normal, confusable: false, indistinctInNormalVision: normal < threshold)
        // Each simulation is compared in linear light (no encoding and decoding again); only
        // the named one's colors are encoded, for the answer.
        let simulated = deficiencies.map { deficiency in
            let sa = deficiency.simulatedLinear(first), sb = deficiency.simulatedLinear(second)
            return (sa, sb, ColorDifference.ciede2000(CIELab(XYZ(XYZ.fromLinearSRGB * sa)), CIELab(XYZ(XYZ.fromLinearSRGB * sb))))
        }
        if let worst = ColorVisionDeficiency.lowest(simulated.map(\.2)) {
            assessment.worstDeficiency = deficiencies[worst.index]
            assessment.simulatedDifference = worst.value
            assessment.simulatedFirst = ColorVisionDeficiency.encoded(simulated[worst.index].0, alpha: 1)
            assessment.simulatedSecond = ColorVisionDeficiency.encoded(simulated[worst.index].1, alpha: 1)
        }
        if let simulated = assessment.simulatedDifference {
            assessment.confusable = normal >= threshold && simulated < threshold
        }
        return assessment
    }
}
