/// A color-vision deficiency, and colors as a person who has it sees them.
///
/// Every simulation works on linear-light sRGB (the channels decoded with ``SRGBTransfer``),
/// keeps alpha, clamps the result into the sRGB gamut channel by channel (a simulated color can
/// fall slightly outside it) and encodes it again. The methods are the ones the evaluations
/// favour, with the constants of DaltonLens 0.1.5 (`daltonlens.simulate`, Nicolas Burrus), the
/// reference implementation the vectors in `Tests/ColorScienceTests/Vectors/cvd_vectors.json`
/// come from:
///
/// - **protanopia, deuteranopia**: Viénot, Brettel & Mollon 1999, "Digital video colourmaps for
///   checking the legibility of displays by dichromats" (Color Research & Application 24(4)):
///   one projection in LMS space (Smith & Pokorny 1975 cone fundamentals, sRGB white as the
///   neutral axis), folded here into one matrix on linear sRGB;
/// - **tritanopia**: Brettel, Viénot & Mollon 1997, "Computerized simulation of color appearance
///   for dichromats" (JOSA A 14(10)): two half-planes through the neutral axis and the 485 nm and
///   660 nm stimuli, the side chosen by a separation plane; folded into two matrices and a normal;
/// - **protanomaly, deuteranomaly, tritanomaly** at a severity from 0 to 1: Machado, Oliveira &
///   Fernandes 2009, "A physiologically-based model for simulation of color vision deficiency"
///   (IEEE TVCG 15(6)), with the matrices the authors publish for severities 0, 0.1, … 1,
///   interpolated linearly between the two nearest, as colorspacious does;
/// - **achromatopsia**: no cone contrast at all: the gray of the same relative luminance
///   (BT.709 weights, as WCAG uses), so WCAG contrast is unchanged by it.
public struct ColorVisionDeficiency: Hashable, Sendable, CustomStringConvertible {
    /// The kind of deficiency.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case protanopia, deuteranopia, tritanopia, protanomaly, deuteranomaly, tritanomaly, achromatopsia
    }

    public let kind: Kind
    /// 1 for the dichromacies and achromatopsia; 0…1 for the anomalous trichromacies (0 is
    /// normal vision, 1 is Machado's model of the dichromacy, which is close to but not the same
    /// as Viénot's and Brettel's).
    public let severity: Double

    private init(_ kind: Kind, severity: Double) {
        self.kind = kind
        self.severity = severity
    }

    public static let protanopia = ColorVisionDeficiency(.protanopia, severity: 1)
    public static let deuteranopia = ColorVisionDeficiency(.deuteranopia, severity: 1)
    public static let tritanopia = ColorVisionDeficiency(.tritanopia, severity: 1)
    public static let achromatopsia = ColorVisionDeficiency(.achromatopsia, severity: 1)

    /// Protanomaly (weak red cones) at a severity from 0 to 1 (clamped).
    public static func protanomaly(severity: Double) -> Self { Self(.protanomaly, severity: clamp(severity)) }
    /// Deuteranomaly (weak green cones), the most common deficiency, at a severity from 0 to 1.
    public static func deuteranomaly(severity: Double) -> Self { Self(.deuteranomaly, severity: clamp(severity)) }
    /// Tritanomaly (weak blue cones) at a severity from 0 to 1.
    public static func tritanomaly(severity: Double) -> Self { Self(.tritanomaly, severity: clamp(severity)) }

    /// The severity an anomaly has when none is given: Machado's tabulated step 0.6, a
    /// moderate case.
    public static let defaultSeverity = 0.6

    /// What audits simulate by default: the three dichromacies, the strongest form of each
    /// cone deficiency (an anomalous trichromat sees at least as much difference).
    public static let audited: [ColorVisionDeficiency] = [.protanopia, .deuteranopia, .tritanopia]
    /// The names of ``audited``, made once (each contrast result lists them).
    public static let auditedNames: [String] = audited.map(\.name)

    /// Every kind, the anomalies at ``defaultSeverity``: what the designers' page offers.
    public static let all: [ColorVisionDeficiency] = [
        .protanopia, .deuteranopia, .tritanopia,
        .protanomaly(severity: defaultSeverity), .deuteranomaly(severity: defaultSeverity), .tritanomaly(severity: defaultSeverity),
        .achromatopsia,
    ]

    /// The kind's name: `deuteranopia`, `deuteranomaly`.
    public var name: String { kind.rawValue }

    /// `deuteranopia`, or `deuteranomaly 60%` for an anomaly.
    public var description: String {
        switch kind {
        case .protanomaly, .deuteranomaly, .tritanomaly: "\(kind.rawValue) \(Int((severity * 100).rounded()))%"
        default: kind.rawValue
        }
    }

    /// `protanopia`, `deuteranomaly` (at ``defaultSeverity``), or an anomaly with its severity
    /// `deuteranomaly:0.4` (0 to 1); case-insensitive. Nil for anything else.
    public init?(name: String) {
        let parts = name.lowercased().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let kind = Kind(rawValue: String(parts[0])) else { return nil }
        var severity = 1.0
        switch kind {
        case .protanomaly, .deuteranomaly, .tritanomaly:
            severity = Self.defaultSeverity
            if parts.count == 2 {
                guard let value = Double(parts[1]), value >= 0, value <= 1 else { return nil }
                severity = value
            }
        default:
            if parts.count == 2 { return nil }
        }
        self.init(kind, severity: severity)
    }

    /// `color` as a person with this deficiency sees it.
    public func simulate(_ color: SRGB) -> SRGB {
        Self.encoded(simulatedLinear(color), alpha: color.alpha)
    }

    /// ``simulate(_:)`` before it is gamma-encoded: linear light, clamped to the sRGB gamut.
    /// What is measured of a simulated color (its luminance, its CIELab) starts from here:
    /// encoding it and decoding it again would cost a `pow` per channel each way and round
    /// twice on the way back to the same values.
    public func simulatedLinear(_ color: SRGB) -> SIMD3<Double> {
        simulatedLinear(linear: color.linear)
    }

    /// ``simulatedLinear(_:)`` of a color given as its linear-light channels (decoded once
    /// when it is simulated several times).
    public func simulatedLinear(linear: SIMD3<Double>) -> SIMD3<Double> {
        Self.clampedToGamut(simulateLinear(linear))
    }

    /// `clamped(lowerBound: 0, upperBound: 1)`, lane by lane with the same `maximum` and
    /// `minimum` in the same order (signed zeros and NaN come out the same), inlined: the
    /// generic SIMD version was called out of line.
    @inline(__always)
    static func clampedToGamut(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(Double.minimum(1, Double.maximum(0, v.x)),
              Double.minimum(1, Double.maximum(0, v.y)),
              Double.minimum(1, Double.maximum(0, v.z)))
    }

    /// Of values measured under several deficiencies (in the order they were simulated), the
    /// lowest, and which deficiency to name for it: the first whose value lies within a part in
    /// a billion of the lowest. A gray looks the same to every dichromat but for the last digits
    /// of the models' published constants, so its values tie, and the order of the list, not
    /// those digits, names one. The value is the true lowest, whichever is named: verdicts
    /// compare it. Nil for no values.
    public static func lowest(_ values: [Double]) -> (index: Int, value: Double)? {
        lowest(count: values.count) { values[$0] }
    }

    /// ``lowest(_:)`` of `count` values read by index, without gathering them into an array
    /// (a pair's three ratios, on the hot path of a batch). Inlinable, so the closure is
    /// inlined into the caller's module rather than called through a context.
    @inlinable
    public static func lowest(count: Int, _ value: (Int) -> Double) -> (index: Int, value: Double)? {
        guard count > 0 else { return nil }
        // As `Sequence.min()`: the first value, replaced by each later one that is smaller.
        var minimum = value(0)
        for i in 1..<count {
            let v = value(i)
            if v < minimum { minimum = v }
        }
        for i in 0..<count where value(i) - minimum <= 1e-9 * abs(minimum) + 1e-12 { return (i, minimum) }
        return nil
    }

    /// The gamma-encoded color of ``simulatedLinear(_:)``'s result.
    public static func encoded(_ linear: SIMD3<Double>, alpha: Double) -> SRGB {
        SRGB(red: SRGBTransfer.encode(linear.x), green: SRGBTransfer.encode(linear.y),
             blue: SRGBTransfer.encode(linear.z), alpha: alpha)
    }

    /// The simulation on linear-light channels, before the gamut clamp.
    func simulateLinear(_ linear: SIMD3<Double>) -> SIMD3<Double> {
        let seen: SIMD3<Double>
        switch kind {
        case .protanopia: seen = Self.vienotProtan.apply(linear)
        case .deuteranopia: seen = Self.vienotDeutan.apply(linear)
        case .tritanopia:
            let side = (linear * Self.brettelTritanSeparation).sum()
            seen = side >= 0 ? Self.brettelTritanPlane1.apply(linear) : Self.brettelTritanPlane2.apply(linear)
        case .protanomaly: seen = Self.machado(Self.machadoProtan, severity).apply(linear)
        case .deuteranomaly: seen = Self.machado(Self.machadoDeutan, severity).apply(linear)
        case .tritanomaly: seen = Self.machado(Self.machadoTritan, severity).apply(linear)
        case .achromatopsia:
            let y = WCAG.relativeLuminance(linear: linear)
            seen = SIMD3(y, y, y)
        }
        return seen
    }

    static func clamp(_ value: Double) -> Double { value.isNaN ? 0 : min(1, max(0, value)) }

    // MARK: Constants

    /// A 3×3 matrix on linear sRGB, row by row.
    struct Matrix: Hashable, Sendable {
        var r0, r1, r2: SIMD3<Double>

        init(_ v: [Double]) {
            r0 = SIMD3(v[0], v[1], v[2])
            r1 = SIMD3(v[3], v[4], v[5])
            r2 = SIMD3(v[6], v[7], v[8])
        }

        init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
            self.r0 = r0
            self.r1 = r1
            self.r2 = r2
        }

        @inline(__always) func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((r0 * v).sum(), (r1 * v).sum(), (r2 * v).sum())
        }
    }

    /// Viénot 1999 protanopia on linear sRGB (DaltonLens `Simulator_Vienot1999`, Smith & Pokorny
    /// LMS, white as neutral; libDaltonLens publishes the same matrix).
    static let vienotProtan = Matrix([0.10888931103, 0.89111068897, 0,
                                      0.10888931103, 0.89111068897, 0,
                                      0.00447131417, -0.00447131417, 1])
    /// Viénot 1999 deuteranopia on linear sRGB.
    static let vienotDeutan = Matrix([0.29030532127, 0.70969467873, 0,
                                      0.29030532127, 0.70969467873, 0,
                                      -0.02197353945, 0.02197353945, 1])
    /// Brettel 1997 tritanopia on linear sRGB: the projection onto the half-plane of 485 nm
    /// (where the color lies on the positive side of the separation plane) and of 660 nm
    /// (DaltonLens `Simulator_Brettel1997` with CIE 1931 2° wavelengths, white as neutral).
    static let brettelTritanPlane1 = Matrix([1.013541615309, 0.142682310715, -0.156223926024,
                                             -0.011805364773, 0.875611831661, 0.136193533111,
                                             0.077072534506, 0.812080912463, 0.110846553030])
    static let brettelTritanPlane2 = Matrix([0.933369762935, 0.199990049944, -0.133359812879,
                                             0.058087180555, 0.825651856395, 0.116260963051,
                                             -0.379228114839, 1.138249734169, 0.240978380670])
    /// The separation plane's normal, on linear sRGB.
    static let brettelTritanSeparation = SIMD3<Double>(0.039600950722, -0.028307203713, -0.011293747009)

    /// Machado 2009's matrix at `severity`: the published matrices at 0, 0.1, … 1, the two
    /// nearest mixed linearly.
    static func machado(_ table: [Matrix], _ severity: Double) -> Matrix {
        let scaled = clamp(severity) * 10
        let lower = min(9, Int(scaled.rounded(.down)))
        let t = scaled - Double(lower)
        let a = table[lower], b = table[lower + 1]
        return Matrix(rows: a.r0 + (b.r0 - a.r0) * t, a.r1 + (b.r1 - a.r1) * t, a.r2 + (b.r2 - a.r2) * t)
    }

    /// Machado, Oliveira & Fernandes 2009, protanomaly, severities 0 to 1 in steps of 0.1 (the
    /// authors' table, as DaltonLens and colorspacious carry it).
    static let machadoProtan: [Matrix] = [
        [1.000000, 0.000000, -0.000000, 0.000000, 1.000000, 0.000000, -0.000000, -0.000000, 1.000000],
        [0.856167, 0.182038, -0.038205, 0.029342, 0.955115, 0.015544, -0.002880, -0.001563, 1.004443],
        [0.734766, 0.334872, -0.069637, 0.051840, 0.919198, 0.028963, -0.004928, -0.004209, 1.009137],
        [0.630323, 0.465641, -0.095964, 0.069181, 0.890046, 0.040773, -0.006308, -0.007724, 1.014032],
        [0.539009, 0.579343, -0.118352, 0.082546, 0.866121, 0.051332, -0.007136, -0.011959, 1.019095],
        [0.458064, 0.679578, -0.137642, 0.092785, 0.846313, 0.060902, -0.007494, -0.016807, 1.024301],
        [0.385450, 0.769005, -0.154455, 0.100526, 0.829802, 0.069673, -0.007442, -0.022190, 1.029632],
        [0.319627, 0.849633, -0.169261, 0.106241, 0.815969, 0.077790, -0.007025, -0.028051, 1.035076],
        [0.259411, 0.923008, -0.182420, 0.110296, 0.804340, 0.085364, -0.006276, -0.034346, 1.040622],
        [0.203876, 0.990338, -0.194214, 0.112975, 0.794542, 0.092483, -0.005222, -0.041043, 1.046265],
        [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998],
    ].map(Matrix.init)

    /// Machado 2009, deuteranomaly.
    static let machadoDeutan: [Matrix] = [
        [1.000000, 0.000000, -0.000000, 0.000000, 1.000000, 0.000000, -0.000000, -0.000000, 1.000000],
        [0.866435, 0.177704, -0.044139, 0.049567, 0.939063, 0.011370, -0.003453, 0.007233, 0.996220],
        [0.760729, 0.319078, -0.079807, 0.090568, 0.889315, 0.020117, -0.006027, 0.013325, 0.992702],
        [0.675425, 0.433850, -0.109275, 0.125303, 0.847755, 0.026942, -0.007950, 0.018572, 0.989378],
        [0.605511, 0.528560, -0.134071, 0.155318, 0.812366, 0.032316, -0.009376, 0.023176, 0.986200],
        [0.547494, 0.607765, -0.155259, 0.181692, 0.781742, 0.036566, -0.010410, 0.027275, 0.983136],
        [0.498864, 0.674741, -0.173604, 0.205199, 0.754872, 0.039929, -0.011131, 0.030969, 0.980162],
        [0.457771, 0.731899, -0.189670, 0.226409, 0.731012, 0.042579, -0.011595, 0.034333, 0.977261],
        [0.422823, 0.781057, -0.203881, 0.245752, 0.709602, 0.044646, -0.011843, 0.037423, 0.974421],
        [0.392952, 0.823610, -0.216562, 0.263559, 0.690210, 0.046232, -0.011910, 0.040281, 0.971630],
        [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.011820, 0.042940, 0.968881],
    ].map(Matrix.init)

    /// Machado 2009, tritanomaly (the authors note their model is least accurate for it).
    static let machadoTritan: [Matrix] = [
        [1.000000, 0.000000, -0.000000, 0.000000, 1.000000, 0.000000, -0.000000, -0.000000, 1.000000],
        [0.926670, 0.092514, -0.019184, 0.021191, 0.964503, 0.014306, 0.008437, 0.054813, 0.936750],
        [0.895720, 0.133330, -0.029050, 0.029997, 0.945400, 0.024603, 0.013027, 0.104707, 0.882266],
        [0.905871, 0.127791, -0.033662, 0.026856, 0.941251, 0.031893, 0.013410, 0.148296, 0.838294],
        [0.948035, 0.089490, -0.037526, 0.014364, 0.946792, 0.038844, 0.010853, 0.193991, 0.795156],
        [1.017277, 0.027029, -0.044306, -0.006113, 0.958479, 0.047634, 0.006379, 0.248708, 0.744913],
        [1.104996, -0.046633, -0.058363, -0.032137, 0.971635, 0.060503, 0.001336, 0.317922, 0.680742],
        [1.193214, -0.109812, -0.083402, -0.058496, 0.979410, 0.079086, -0.002346, 0.403492, 0.598854],
        [1.257728, -0.139648, -0.118081, -0.078003, 0.975409, 0.102594, -0.003316, 0.501214, 0.502102],
        [1.278864, -0.125333, -0.153531, -0.084748, 0.957674, 0.127074, -0.000989, 0.601151, 0.399838],
        [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.303900],
    ].map(Matrix.init)
}
