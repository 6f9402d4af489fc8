/// CIE XYZ tristimulus values relative to a D65 white (Y of white = 1).
public struct XYZ: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    @usableFromInline
    init(_ v: SIMD3<Double>) {
        self.init(x: v.x, y: v.y, z: v.z)
    }

    @usableFromInline
    var vector: SIMD3<Double> { SIMD3(x, y, z) }

    /// The D65 white point, from its xy chromaticity (0.3127, 0.3290) as CSS Color 4 defines it.
    public static let d65White = SIMD3<Double>(0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290)
    /// The D50 white point, from its xy chromaticity (0.3457, 0.3585) as CSS Color 4 defines it.
    public static let d50White = SIMD3<Double>(0.3457 / 0.3585, 1, (1 - 0.3457 - 0.3585) / 0.3585)

    /// Linear sRGB → XYZ-D65: CSS Color 4 §18 (sample code), the exact rational form.
    @usableFromInline
    static let fromLinearSRGB = Matrix3(
        SIMD3(506752 / 1228815, 87881 / 245763, 12673 / 70218),
        SIMD3(87098 / 409605, 175762 / 245763, 12673 / 175545),
        SIMD3(7918 / 409605, 87881 / 737289, 1001167 / 1053270))

    /// XYZ-D65 → linear sRGB: CSS Color 4 §18, the inverse of ``fromLinearSRGB``.
    @usableFromInline
    static let toLinearSRGB = Matrix3(
        SIMD3(12831 / 3959, -329 / 214, -1974 / 3959),
        SIMD3(-851781 / 878810, 1648619 / 878810, 36519 / 878810),
        SIMD3(705 / 12673, -2585 / 12673, 705 / 667))

    /// Bradford chromatic adaptation D50 → D65 (CSS Color 4 §18).
    @usableFromInline
    static let d50ToD65 = Matrix3(
        SIMD3(0.955473421488075, -0.02309845494876471, 0.06325924320057072),
        SIMD3(-0.0283697093338637, 1.0099953980813041, 0.021041441191917323),
        SIMD3(0.012314014864481998, -0.020507649298898964, 1.330365926242124))

    /// Bradford chromatic adaptation D65 → D50 (CSS Color 4 §18).
    @usableFromInline
    static let d65ToD50 = Matrix3(
        SIMD3(1.0479297925449969, 0.022946870601609652, -0.05019226628920524),
        SIMD3(0.02962780877005599, 0.9904344267538799, -0.017073799063418826),
        SIMD3(-0.009243040646204504, 0.015055191490298152, 0.7518742814281371))

    /// This color adapted to a D50 white (for CIE Lab), as a D50-relative XYZ vector.
    public var adaptedToD50: SIMD3<Double> { XYZ.d65ToD50 * vector }

    /// A D65 XYZ from a D50-relative XYZ vector.
    public init(adaptingD50 v: SIMD3<Double>) {
        self.init(XYZ.d50ToD65 * v)
    }

    /// Linear sRGB components (not clamped: out-of-gamut colors have components outside 0…1).
    public var linearSRGB: SIMD3<Double> { XYZ.toLinearSRGB * vector }

    /// Gamma-encoded sRGB components, not clamped.
    public var unclampedSRGB: SIMD3<Double> {
        let l = linearSRGB
        return SIMD3(SRGBTransfer.encode(l.x), SRGBTransfer.encode(l.y), SRGBTransfer.encode(l.z))
    }
}

extension SRGB {
    /// This color's XYZ-D65 tristimulus values.
    public var xyz: XYZ { XYZ(XYZ.fromLinearSRGB * linear) }
}
