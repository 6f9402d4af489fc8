import RealModule

/// The RGB spaces of CSS `color()`, each with its transfer function and its matrix to XYZ.
public struct RGBSpace: Hashable, Sendable {
    /// The CSS name (`display-p3`).
    public let name: String
    private let kind: Kind

    private enum Kind: Hashable, Sendable {
        case srgb, srgbLinear, displayP3, displayP3Linear, a98, prophoto, rec2020
    }

    private init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    public static let srgb = RGBSpace("srgb", .srgb)
    public static let srgbLinear = RGBSpace("srgb-linear", .srgbLinear)
    public static let displayP3 = RGBSpace("display-p3", .displayP3)
    public static let displayP3Linear = RGBSpace("display-p3-linear", .displayP3Linear)
    public static let a98RGB = RGBSpace("a98-rgb", .a98)
    public static let prophotoRGB = RGBSpace("prophoto-rgb", .prophoto)
    public static let rec2020 = RGBSpace("rec2020", .rec2020)

    public static let all: [RGBSpace] = [.srgb, .srgbLinear, .displayP3, .displayP3Linear, .a98RGB, .prophotoRGB, .rec2020]

    /// Display P3 linear → XYZ-D65 (CSS Color 4 §18).
    private static let p3ToXYZ = Matrix3(
        SIMD3(608311 / 1250200, 189793 / 714400, 198249 / 1000160),
        SIMD3(35783 / 156275, 247089 / 357200, 198249 / 2500400),
        SIMD3(0, 32229 / 714400, 5220557 / 5000800))
    /// A98 RGB linear → XYZ-D65 (CSS Color 4 §18).
    private static let a98ToXYZ = Matrix3(
        SIMD3(573536 / 994567, 263643 / 1420810, 187206 / 994567),
        SIMD3(591459 / 1989134, 6239551 / 9945670, 374412 / 4972835),
        SIMD3(53769 / 1989134, 351524 / 4972835, 4929758 / 4972835))
    /// ProPhoto RGB linear → XYZ-D50 (CSS Color 4 §18).
    private static let prophotoToXYZD50 = Matrix3(
        SIMD3(0.7977666449006423, 0.13518129740053308, 0.0313477341283922),
        SIMD3(0.2880748288194013, 0.711835234241873, 0.00008993693872564),
        SIMD3(0.0, 0.0, 0.8251046025104602))
    /// Rec. 2020 linear → XYZ-D65 (CSS Color 4 §18).
    private static let rec2020ToXYZ = Matrix3(
        SIMD3(63426534 / 99577255, 20160776 / 139408157, 47086771 / 278816314),
        SIMD3(26158966 / 99577255, 472592308 / 697040785, 8267143 / 139408157),
        SIMD3(0, 19567812 / 697040785, 295819943 / 278816314))

    /// Converts encoded components in this space to XYZ-D65.
    public func xyz(_ c: SIMD3<Double>) -> XYZ {
        switch kind {
        case .srgb:
            return XYZ(XYZ.fromLinearSRGB * SIMD3(SRGBTransfer.decode(c.x), SRGBTransfer.decode(c.y), SRGBTransfer.decode(c.z)))
        case .srgbLinear:
            return XYZ(XYZ.fromLinearSRGB * c)
        case .displayP3:
            return XYZ(RGBSpace.p3ToXYZ * SIMD3(SRGBTransfer.decode(c.x), SRGBTransfer.decode(c.y), SRGBTransfer.decode(c.z)))
        case .displayP3Linear:
            return XYZ(RGBSpace.p3ToXYZ * c)
        case .a98:
            func lin(_ v: Double) -> Double {
                let m = Double.pow(abs(v), 563.0 / 256)
                return v < 0 ? -m : m
            }
            return XYZ(RGBSpace.a98ToXYZ * SIMD3(lin(c.x), lin(c.y), lin(c.z)))
        case .prophoto:
            func lin(_ v: Double) -> Double {
                let magnitude = abs(v)
                let m = magnitude <= 16.0 / 512 ? magnitude / 16 : Double.pow(magnitude, 1.8)
                return v < 0 ? -m : m
            }
            return XYZ(adaptingD50: RGBSpace.prophotoToXYZD50 * SIMD3(lin(c.x), lin(c.y), lin(c.z)))
        case .rec2020:
            // CSS Color 4 now defines rec2020 as display-referred: the BT.1886 EOTF with a pure
            // 2.4 gamma (CSSWG resolution of 2025-08, w3c/csswg-drafts#12574), extended to
            // negative values by symmetry. The older BT.2020 camera OETF is no longer used.
            func lin(_ v: Double) -> Double {
                let m = Double.pow(abs(v), 2.4)
                return v < 0 ? -m : m
            }
            return XYZ(RGBSpace.rec2020ToXYZ * SIMD3(lin(c.x), lin(c.y), lin(c.z)))
        }
    }

    private static let xyzToP3 = p3ToXYZ.inverse
    private static let xyzToA98 = a98ToXYZ.inverse
    private static let xyzD50ToProphoto = prophotoToXYZD50.inverse
    private static let xyzToRec2020 = rec2020ToXYZ.inverse

    /// XYZ-D65 to encoded components in this space (not clamped): the inverse of ``xyz(_:)``.
    public func encoded(_ xyz: XYZ) -> SIMD3<Double> {
        func signed(_ v: Double, _ f: (Double) -> Double) -> Double { v < 0 ? -f(-v) : f(v) }
        switch kind {
        case .srgb:
            return xyz.unclampedSRGB
        case .srgbLinear:
            return xyz.linearSRGB
        case .displayP3:
            let l = RGBSpace.xyzToP3 * xyz.vector
            return SIMD3(SRGBTransfer.encode(l.x), SRGBTransfer.encode(l.y), SRGBTransfer.encode(l.z))
        case .displayP3Linear:
            return RGBSpace.xyzToP3 * xyz.vector
        case .a98:
            let l = RGBSpace.xyzToA98 * xyz.vector
            func gamma(_ v: Double) -> Double { signed(v) { Double.pow($0, 256.0 / 563) } }
            return SIMD3(gamma(l.x), gamma(l.y), gamma(l.z))
        case .prophoto:
            let l = RGBSpace.xyzD50ToProphoto * xyz.adaptedToD50
            func gamma(_ v: Double) -> Double { signed(v) { $0 >= 1.0 / 512 ? Double.pow($0, 1 / 1.8) : 16 * $0 } }
            return SIMD3(gamma(l.x), gamma(l.y), gamma(l.z))
        case .rec2020:
            let l = RGBSpace.xyzToRec2020 * xyz.vector
            func gamma(_ v: Double) -> Double { signed(v) { Double.pow($0, 1 / 2.4) } }
            return SIMD3(gamma(l.x), gamma(l.y), gamma(l.z))
        }
    }
}
