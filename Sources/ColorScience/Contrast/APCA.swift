import RealModule

/// APCA (Accessible Perceptual Contrast Algorithm) lightness contrast, Lc.
///
/// Constants of APCA 0.0.98G-4g, as published in the apca-w3 reference implementation
/// (Myndex/apca-w3 0.1.9, `src/apca-w3.js`). The result is signed: positive for dark text on a
/// light background, negative for light text on a dark background; its magnitude runs to about
/// 106 (black on white) and 108 (white on black).
public enum APCA {
    static let mainTRC = 2.4
    static let redCoefficient = 0.2126729
    static let greenCoefficient = 0.7151522
    static let blueCoefficient = 0.0721750
    static let normalBackground = 0.56
    static let normalText = 0.57
    static let reverseText = 0.62
    static let reverseBackground = 0.65
    static let blackThreshold = 0.022
    static let blackClamp = 1.414
    static let scaleBlackOnWhite = 1.14
    static let scaleWhiteOnBlack = 1.14
    static let lowBlackOnWhiteOffset = 0.027
    static let lowWhiteOnBlackOffset = 0.027
    static let deltaYMinimum = 0.0005
    static let lowClip = 0.1

    /// The estimated screen luminance Ys of an sRGB color (a plain 2.4 power curve, no
    /// linear segment, with APCA's own coefficients).
    public static func screenLuminance(_ color: SRGB) -> Double {
        redCoefficient * channelPower(color.red) + greenCoefficient * channelPower(color.green)
            + blueCoefficient * channelPower(color.blue)
    }

    /// ``screenLuminance(_:)`` of 8-bit channels: the same expression on the same table
    /// entries, so the very same result.
    static func screenLuminance(red8: UInt8, green8: UInt8, blue8: UInt8) -> Double {
        let powers = eightBitPowers
        return redCoefficient * powers[Int(red8)] + greenCoefficient * powers[Int(green8)] + blueCoefficient * powers[Int(blue8)]
    }

    /// `v` to the power 2.4. A channel that is exactly an 8-bit step (every hex color's are) is
    /// read from ``eightBitPowers``, which holds the very results of `pow`, so the answer is
    /// bit-for-bit the same without a `pow` per channel (as ``SRGBTransfer/decode(_:)`` does).
    @inline(__always)
    static func channelPower(_ v: Double) -> Double {
        if let step = SRGBTransfer.eightBitStep(v) { return eightBitPowers[step] }
        return Double.pow(v, mainTRC)
    }

    /// `Double.pow(Double(k) / 255, 2.4)` for each 8-bit value `k`: the very results of `pow`.
    static let eightBitPowers: [Double] = (0...255).map { Double.pow(Double($0) / 255, mainTRC) }

    /// The signed Lc of `text` on `background` (both treated as opaque).
    public static func lightnessContrast(text: SRGB, background: SRGB) -> Double {
        lightnessContrast(textLuminance: screenLuminance(text), backgroundLuminance: screenLuminance(background))
    }

    /// The signed Lc from two screen luminances (see ``screenLuminance(_:)``).
    public static func lightnessContrast(textLuminance: Double, backgroundLuminance: Double) -> Double {
        func softClamp(_ y: Double) -> Double {
            y > blackThreshold ? y : y + Double.pow(blackThreshold - y, blackClamp)
        }
        let textY = softClamp(textLuminance), backgroundY = softClamp(backgroundLuminance)
        if abs(backgroundY - textY) < deltaYMinimum { return 0 }
        if backgroundY > textY {
            let sapc = (Double.pow(backgroundY, normalBackground) - Double.pow(textY, normalText)) * scaleBlackOnWhite
            return sapc < lowClip ? 0 : (sapc - lowBlackOnWhiteOffset) * 100
        } else {
            let sapc = (Double.pow(backgroundY, reverseBackground) - Double.pow(textY, reverseText)) * scaleWhiteOnBlack
            return sapc > -lowClip ? 0 : (sapc + lowWhiteOnBlackOffset) * 100
        }
    }

    /// The levels of APCA's Bronze simple mode, from the APCA readability criterion: the
    /// minimum |Lc| for each kind of content.
    public struct BronzeLevel: Hashable, Sendable {
        /// The minimum absolute Lc.
        public let lc: Double
        /// What content may use a pair at this level.
        public let use: String

        public static let all: [BronzeLevel] = [
            BronzeLevel(lc: 90, use: "preferred for body text; minimum for text under 14px"),
            BronzeLevel(lc: 75, use: "minimum for body text (columns of text)"),
            BronzeLevel(lc: 60, use: "minimum for other content text (at least 24px regular or 16px bold)"),
            BronzeLevel(lc: 45, use: "minimum for large text (at least 36px regular or 24px bold) and pictograms"),
            BronzeLevel(lc: 30, use: "minimum for spot-readable text (placeholders, disabled) and non-text"),
            BronzeLevel(lc: 15, use: "minimum for non-semantic elements (dividers); below this is invisible to many"),
        ]

        /// The highest Bronze level `lc` reaches (by magnitude), or nil below Lc 15.
        public static func reached(by lc: Double) -> BronzeLevel? {
            all.first { abs(lc) >= $0.lc }
        }
    }
}
