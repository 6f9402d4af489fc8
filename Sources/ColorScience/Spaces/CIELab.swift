import RealModule

/// CIE L\*a\*b\* relative to a D50 white, as CSS `lab()` defines it: `l` in `0...100`.
public struct CIELab: Hashable, Sendable {
    public var l: Double
    public var a: Double
    public var b: Double

    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// ε = 216/24389 and κ = 24389/27, the exact CIE constants (CSS Color 4 §18).
    static let epsilon = 216.0 / 24389
    static let kappa = 24389.0 / 27

    /// The Lab coordinates of an XYZ-D65 color (adapted to D50 with Bradford).
    public init(_ xyz: XYZ) {
        let scaled = xyz.adaptedToD50 / XYZ.d50White
        func f(_ v: Double) -> Double {
            v > CIELab.epsilon ? Double.root(v, 3) : (CIELab.kappa * v + 16) / 116
        }
        let fx = f(scaled.x), fy = f(scaled.y), fz = f(scaled.z)
        self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    public init(_ color: SRGB) {
        self.init(color.xyz)
    }

    /// This color in XYZ-D65.
    public var xyz: XYZ {
        let fy = (l + 16) / 116
        let fx = a / 500 + fy
        let fz = fy - b / 200
        let x = fx * fx * fx > CIELab.epsilon ? fx * fx * fx : (116 * fx - 16) / CIELab.kappa
        let y = l > CIELab.kappa * CIELab.epsilon ? fy * fy * fy : l / CIELab.kappa
        let z = fz * fz * fz > CIELab.epsilon ? fz * fz * fz : (116 * fz - 16) / CIELab.kappa
        return XYZ(adaptingD50: SIMD3(x, y, z) * XYZ.d50White)
    }
}
