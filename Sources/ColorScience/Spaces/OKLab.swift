import RealModule

/// A color in Björn Ottosson's OKLab space: lightness `l` in `0...1`, opponent axes `a` and `b`.
public struct OKLab: Hashable, Sendable {
    public var l: Double
    public var a: Double
    public var b: Double

    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// XYZ-D65 → LMS, CSS Color 4 §18 (recalculated for a consistent D65 white, 64-bit).
    static let xyzToLMS = Matrix3(
        SIMD3(0.8190224379967030, 0.3619062600528904, -0.1288737815209879),
        SIMD3(0.0329836539323885, 0.9292868615863434, 0.0361446663506424),
        SIMD3(0.0481771893596242, 0.2642395317527308, 0.6335478284694309))
    /// Non-linear LMS → OKLab, CSS Color 4 §18.
    static let lmsToLab = Matrix3(
        SIMD3(0.2104542683093140, 0.7936177747023054, -0.0040720430116193),
        SIMD3(1.9779985324311684, -2.4285922420485799, 0.4505937096174110),
        SIMD3(0.0259040424655478, 0.7827717124575296, -0.8086757549230774))
    /// OKLab → non-linear LMS, CSS Color 4 §18.
    static let labToLMS = Matrix3(
        SIMD3(1.0000000000000000, 0.3963377773761749, 0.2158037573099136),
        SIMD3(1.0000000000000000, -0.1055613458156586, -0.0638541728258133),
        SIMD3(1.0000000000000000, -0.0894841775298119, -1.2914855480194092))
    /// LMS → XYZ-D65, CSS Color 4 §18.
    static let lmsToXYZ = Matrix3(
        SIMD3(1.2268798758459243, -0.5578149944602171, 0.2813910456659647),
        SIMD3(-0.0405757452148008, 1.1122868032803170, -0.0717110580655164),
        SIMD3(-0.0763729366746601, -0.4214933324022432, 1.5869240198367816))

    /// The OKLab coordinates of an XYZ-D65 color.
    public init(_ xyz: XYZ) {
        let lms = OKLab.xyzToLMS * xyz.vector
        let root = SIMD3(Double.root(lms.x, 3), Double.root(lms.y, 3), Double.root(lms.z, 3))
        let lab = OKLab.lmsToLab * root
        self.init(l: lab.x, a: lab.y, b: lab.z)
    }

    /// The OKLab coordinates of an sRGB color (alpha is ignored).
    public init(_ color: SRGB) {
        self.init(color.xyz)
    }

    /// This color in XYZ-D65.
    public var xyz: XYZ {
        let root = OKLab.labToLMS * SIMD3(l, a, b)
        return XYZ(OKLab.lmsToXYZ * (root * root * root))
    }

    /// Euclidean distance in OKLab (ΔE-OK, as CSS Color 4 uses for gamut mapping).
    public func distance(to other: OKLab) -> Double {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return (dl * dl + da * da + db * db).squareRoot()
    }
}
