/// A 3×3 matrix stored as rows, for the linear steps between color spaces.
@usableFromInline
struct Matrix3: Sendable {
    @usableFromInline let row0: SIMD3<Double>
    @usableFromInline let row1: SIMD3<Double>
    @usableFromInline let row2: SIMD3<Double>

    @usableFromInline
    init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        row0 = r0
        row1 = r1
        row2 = r2
    }

    @inlinable
    static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.row0 * v).sum(), (m.row1 * v).sum(), (m.row2 * v).sum())
    }

    @inlinable
    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let c0 = SIMD3(b.row0.x, b.row1.x, b.row2.x)
        let c1 = SIMD3(b.row0.y, b.row1.y, b.row2.y)
        let c2 = SIMD3(b.row0.z, b.row1.z, b.row2.z)
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((r * c0).sum(), (r * c1).sum(), (r * c2).sum())
        }
        return Matrix3(row(a.row0), row(a.row1), row(a.row2))
    }
}
