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

    /// `Double.pow(Double(k) / 255, 2.4)` for each 8-bit value `k`, written out as constant
    /// data; a unit test checks every entry against `pow`, bit for bit.
    static let eightBitPowers: [Double] = [
        0.0, 1.6761140515309111e-06, 8.846583001410575e-06, 2.3409631550210266e-05, 4.669254501468107e-05,
        7.976852789834618e-05, 0.00012355677607512472, 0.00017887055848875657, 0.00024644473008396454,
        0.00032695319797364843, 0.0004210208143703044, 0.0005292318969350403, 0.0006521365738428886,
        0.000790255655362185, 0.0009440844677211198, 0.0011140959326111316, 0.0013007430836563273,
        0.0015044611531814544, 0.0017256693247149012, 0.001964772221128345, 0.0022221611806466516,
        0.002498215360450908, 0.002793302698556522, 0.0031077807579958363, 0.003441997472360092,
        0.0037962918079813535, 0.004170994355133684, 0.004566427858375907, 0.004982907694383339,
        0.005420742304206054, 0.005880233585761173, 0.0063616772514530125, 0.00686536315507061,
        0.007391575591501249, 0.00794059357229376, 0.008512691079685759, 0.009108137301357722,
        0.00972719684788172, 0.010370129954582726, 0.0110371926693185, 0.011728637027502764,
        0.01244471121554138, 0.013185659723717321, 0.013951723489445053, 0.014743140031714416,
        0.015560143577457207, 0.01640296518049315, 0.01727183283364554, 0.01816697157455779,
        0.019088603585690804, 0.020036948288934917, 0.021012222435230144, 0.022014640189551928,
        0.02304441321158801, 0.024101750732402942, 0.02518685962736163, 0.026299944485559754,
        0.027441207675988854, 0.0286108494106447, 0.029809067804771307, 0.031036058934417323,
        0.032292016891468225, 0.03357713383630485, 0.03489160004822796, 0.0362356039737777,
        0.03760933227306802, 0.039012969864246926, 0.040446699966186085, 0.04191070413949605,
        0.04340516232595643, 0.04493025288644484, 0.046486152637442345, 0.048073036886188775,
        0.04969107946455557, 0.051340452761700364, 0.053021327755563015, 0.05473387404325944,
        0.056478259870425575, 0.058254652159561424, 0.06006321653742137, 0.06190411736149512,
        0.06377751774562002, 0.06568357958476405, 0.06762246357901605, 0.06959432925681816,
        0.07159933499747269, 0.07363763805295502, 0.07570939456906121, 0.07781475960591884,
        0.07995388715788646, 0.0821269301728673, 0.08433404057106045, 0.08657536926317218,
        0.08885106616810848, 0.09116128023016921, 0.09350615943576297, 0.09588585082966122,
        0.09830050053080878, 0.1007502537477074, 0.10323525479338815, 0.10575564709998811,
        0.10831157323294488, 0.11090317490482345, 0.11353059298878782, 0.11619396753173063,
        0.11889343776707194, 0.1216291421272391, 0.1244012182558382, 0.1272098030195283, 0.13005503251960737,
        0.13293704210332039, 0.13585596637489813, 0.1388119392063362, 0.1418050937479217, 0.14483556243851664,
        0.1479034770156048, 0.1510089685251107, 0.15415216733099663, 0.15733320312464533, 0.16055220493403438,
        0.16380930113270967, 0.1671046194485624, 0.17043828697241697, 0.1738104301664345, 0.17722117487233785,
        0.18067064631946314, 0.18415896913264274, 0.18768626733992472, 0.1912526643801336,
        0.19485828311027628, 0.19850324581279827, 0.20218767420269362, 0.20591168943447338,
        0.20967541210899546, 0.21347896228016117, 0.21732245946148024, 0.22120602263250927,
        0.2251297702451662, 0.22909382022992444, 0.23309829000188967, 0.23714329646676252, 0.2412289560266893,
        0.24535538458600564, 0.24952269755687298, 0.25373100986481295, 0.257980435954141, 0.2622710897933023,
        0.2666030848801121, 0.2709765342469028, 0.27539155046558017, 0.2798482456525913, 0.28434673147380574,
        0.28888711914931203, 0.29346951945813216, 0.29809404274285534, 0.30276079891419316,
        0.3074698974554582, 0.3122214474269671, 0.31701555747037125, 0.32185233581291534, 0.32673189027162586,
        0.3316543282574316, 0.33661975677921696, 0.3416282824478104, 0.3466800114799085, 0.35177504970193746,
        0.3569135025538544, 0.3620954750928878, 0.36732107199722014, 0.37259039756961265, 0.377903555740975,
        0.3832606500738793, 0.388661783766021, 0.39410705965362647, 0.39959658021481065, 0.40513044757288286,
        0.4107087634996039, 0.4163316294183947, 0.42199914640749797, 0.4277114152030931, 0.43346853620236603,
        0.4392706094665335, 0.4451177347238259, 0.45101001137242486, 0.45694753848336067, 0.46293041480336766,
        0.46895873875769994, 0.4750326084529071, 0.48115212167957166, 0.4873173759150075, 0.49352846832592295,
        0.4997854957710453, 0.5060885548037106, 0.512437741674418, 0.518833152333349, 0.5252748824328543,
        0.5317630273299053, 0.5382976820885146, 0.544878941482124, 0.5515068999959608, 0.5581816518293632,
        0.5649032908980754, 0.5716719108365137, 0.5784876050000015, 0.5853504664669779, 0.5922605880411753,
        0.5992180622537727, 0.6062229813655189, 0.6132754373688295, 0.6203755219898589, 0.6275233266905449,
        0.6347189426706288, 0.6419624608696507, 0.6492539719689184, 0.6565935663934556, 0.6639813343139227,
        0.6714173656485168, 0.6789017500648479, 0.6864345769817918, 0.6940159355713227, 0.7016459147603222,
        0.7093246032323671, 0.7170520894294976, 0.7248284615539627, 0.7326538075699467, 0.7405282152052746,
        0.7484517719530983, 0.7564245650735634, 0.7644466815954566, 0.7725182083178335, 0.7806392318116299,
        0.7888098384212527, 0.7970301142661542, 0.8053001452423881, 0.8136200170241479, 0.8219898150652888,
        0.8304096246008326, 0.8388795306484546, 0.8473996180099571, 0.8559699712727235, 0.8645906748111585,
        0.8732618127881121, 0.8819834691562883, 0.8907557276596384, 0.8995786718347396, 0.9084523850121583,
        0.9173769503178, 0.9263524506742443, 0.9353789688020651, 0.9444565872211378, 0.9535853882519332,
        0.9627654540167961, 0.9719968664412133, 0.9812797072550652, 0.9906140579938678, 1.0,
    ]

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
