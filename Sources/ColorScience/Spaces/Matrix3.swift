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

    /// (Always inlined: the gamut mapping's inner loop multiplies five times per candidate, and
    /// as a call each product went through memory.)
    @inlinable @inline(__always)
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

    /// The inverse matrix (by cofactors; the color matrices are far from singular).
    var inverse: Matrix3 {
        let a = row0, b = row1, c = row2
        let c0 = SIMD3(b.y * c.z - b.z * c.y, b.z * c.x - b.x * c.z, b.x * c.y - b.y * c.x)
        let c1 = SIMD3(a.z * c.y - a.y * c.z, a.x * c.z - a.z * c.x, a.y * c.x - a.x * c.y)
        let c2 = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        let determinant = (a * c0).sum()
        // Rows of the inverse are the columns of the cofactor matrix, over the determinant.
        return Matrix3(SIMD3(c0.x, c1.x, c2.x) / determinant, SIMD3(c0.y, c1.y, c2.y) / determinant, SIMD3(c0.z, c1.z, c2.z) / determinant)
    }
}
