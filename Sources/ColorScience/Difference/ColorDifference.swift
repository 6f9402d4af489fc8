import RealModule

/// Perceptual distances between two colors.
public enum ColorDifference {
    /// ΔE-OK: the Euclidean distance in OKLab, as CSS Color 4 uses it. A difference of about
    /// 0.02 is just noticeable.
    public static func deltaEOK(_ first: SRGB, _ second: SRGB) -> Double {
        OKLab(first).distance(to: OKLab(second))
    }

    /// CIEDE2000 (ΔE₀₀) between two CIE Lab colors, with the parametric factors kL = kC = kH = 1.
    ///
    /// The formula as published by CIE 142-2001 and checked against the test data of Sharma, Wu
    /// and Dalal, "The CIEDE2000 Color-Difference Formula: Implementation Notes, Supplementary
    /// Test Data, and Mathematical Observations" (2005).
    public static func ciede2000(_ first: CIELab, _ second: CIELab) -> Double {
        let l1 = first.l, a1 = first.a, b1 = first.b
        let l2 = second.l, a2 = second.a, b2 = second.b
        let pow25to7 = 6103515625.0  // 25^7
        func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
        func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

        let c1 = (a1 * a1 + b1 * b1).squareRoot(), c2 = (a2 * a2 + b2 * b2).squareRoot()
        let cMean = (c1 + c2) / 2
        let cMean7 = Double.pow(cMean, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + pow25to7)).squareRoot())
        let a1p = (1 + g) * a1, a2p = (1 + g) * a2
        let c1p = (a1p * a1p + b1 * b1).squareRoot(), c2p = (a2p * a2p + b2 * b2).squareRoot()
        func hue(_ b: Double, _ ap: Double) -> Double {
            if b == 0 && ap == 0 { return 0 }
            let h = degrees(Double.atan2(y: b, x: ap))
            return h < 0 ? h + 360 : h
        }
        let h1p = hue(b1, a1p), h2p = hue(b2, a2p)

        let dLp = l2 - l1
        let dCp = c2p - c1p
        var dhp = 0.0
        if c1p * c2p != 0 {
            dhp = h2p - h1p
            if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        }
        let dHp = 2 * (c1p * c2p).squareRoot() * Double.sin(radians(dhp / 2))

        let lMean = (l1 + l2) / 2
        let cpMean = (c1p + c2p) / 2
        var hpMean = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) <= 180 {
                hpMean /= 2
            } else if h1p + h2p < 360 {
                hpMean = (hpMean + 360) / 2
            } else {
                hpMean = (hpMean - 360) / 2
            }
        }
        let t = 1 - 0.17 * Double.cos(radians(hpMean - 30)) + 0.24 * Double.cos(radians(2 * hpMean))
            + 0.32 * Double.cos(radians(3 * hpMean + 6)) - 0.20 * Double.cos(radians(4 * hpMean - 63))
        let dTheta = 30 * Double.exp(-((hpMean - 275) / 25) * ((hpMean - 275) / 25))
        let cpMean7 = Double.pow(cpMean, 7)
        let rc = 2 * (cpMean7 / (cpMean7 + pow25to7)).squareRoot()
        let lMean50 = (lMean - 50) * (lMean - 50)
        let sl = 1 + 0.015 * lMean50 / (20 + lMean50).squareRoot()
        let sc = 1 + 0.045 * cpMean
        let sh = 1 + 0.015 * cpMean * t
        let rt = -Double.sin(radians(2 * dTheta)) * rc
        let lTerm = dLp / sl, cTerm = dCp / sc, hTerm = dHp / sh
        return (lTerm * lTerm + cTerm * cTerm + hTerm * hTerm + rt * cTerm * hTerm).squareRoot()
    }

    /// CIEDE2000 between two sRGB colors, through CIE Lab (D50, as CSS `lab()`).
    public static func ciede2000(_ first: SRGB, _ second: SRGB) -> Double {
        ciede2000(CIELab(first), CIELab(second))
    }
}
