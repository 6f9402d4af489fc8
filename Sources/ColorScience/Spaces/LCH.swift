// Public: the conversions are inlinable, for callers in other modules (`atan2`, `cos`, `sin`).
public import RealModule

/// A Lab-like space: a lightness and two opponent axes, the cartesian side of an ``LCH`` form.
public protocol OpponentSpace: Hashable, Sendable {
    var l: Double { get }
    var a: Double { get }
    var b: Double { get }
    init(l: Double, a: Double, b: Double)
}

extension CIELab: OpponentSpace {}
extension OKLab: OpponentSpace {}

/// A Lab-like space in polar form: its lightness `l`, chroma `c` ≥ 0 and hue `h` in degrees
/// `0..<360`. CIE LCh(ab) and OKLCH are the same conversion over different opponent axes, so
/// they are one type over the space (``CIELCH``, ``OKLCH``).
public struct LCH<Space: OpponentSpace>: Hashable, Sendable {
    public var l: Double
    public var c: Double
    public var h: Double

    @inlinable
    public init(l: Double, c: Double, h: Double) {
        self.l = l
        self.c = c
        self.h = h
    }

    /// The polar form of `lab`.
    @inlinable
    public init(_ lab: Space) {
        let (c, h) = Polar.fromCartesian(a: lab.a, b: lab.b)
        self.init(l: lab.l, c: c, h: h)
    }

    /// The same color in cartesian form.
    @inlinable
    public var cartesian: Space {
        let (a, b) = Polar.toCartesian(c: c, h: h)
        return Space(l: l, a: a, b: b)
    }
}

/// CIE LCh(ab): Lab in polar form, lightness in `0...100`, hue in degrees `0..<360`.
public typealias CIELCH = LCH<CIELab>

/// OKLab in polar form: lightness `l` in `0...1`, chroma `c` ≥ 0 and hue `h` in degrees `0..<360`.
public typealias OKLCH = LCH<OKLab>

extension LCH where Space == CIELab {
    @inlinable
    public var lab: CIELab { cartesian }
}

extension LCH where Space == OKLab {
    /// The OKLCH coordinates of an sRGB color (alpha is ignored).
    @inlinable
    public init(_ color: SRGB) {
        self.init(OKLab(color))
    }

    @inlinable
    public var oklab: OKLab { cartesian }
}

/// Conversions between a cartesian opponent pair (a, b) and chroma/hue in degrees.
@usableFromInline
enum Polar {
    @inlinable
    static func fromCartesian(a: Double, b: Double) -> (c: Double, h: Double) {
        let c = (a * a + b * b).squareRoot()
        var h = Double.atan2(y: b, x: a) * 180 / .pi
        if h < 0 { h += 360 }
        return (c, h)
    }

    @inlinable
    static func toCartesian(c: Double, h: Double) -> (a: Double, b: Double) {
        let (cosine, sine) = unitVector(h: h)
        return (c * cosine, c * sine)
    }

    /// The cosine and sine of a hue in degrees.
    @inlinable
    static func unitVector(h: Double) -> (cosine: Double, sine: Double) {
        let radians = h * .pi / 180
        return (Double.cos(radians), Double.sin(radians))
    }
}
