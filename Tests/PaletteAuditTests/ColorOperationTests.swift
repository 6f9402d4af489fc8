import ColorScience
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Tokens Studio's color modifiers, as colorjs.io computes them: lighten/darken per channel in a
/// space, mix not premultiplied with the hue by the shorter arc, alpha set.
@Suite struct ColorOperationTests {
    func op(_ kind: ColorOperation.Kind, _ amount: Double, _ space: String, color: String? = nil) -> ColorOperation {
        ColorOperation(kind: kind, amount: amount, amountText: String(amount), space: space, color: color, origin: "test", pointer: JSONPointer(), location: nil)
    }

    func expectColor(_ c: SRGB, _ r: Double, _ g: Double, _ b: Double, alpha: Double = 1, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(abs(c.red - r) <= 1e-9, sourceLocation: sourceLocation)
        #expect(abs(c.green - g) <= 1e-9, sourceLocation: sourceLocation)
        #expect(abs(c.blue - b) <= 1e-9, sourceLocation: sourceLocation)
        #expect(abs(c.alpha - alpha) <= 1e-12, sourceLocation: sourceLocation)
    }

    @Test func lightenAndDarkenMoveEachChannelTowardWhiteOrBlack() {
        expectColor(op(.lighten, 0.5, "srgb").apply(to: .black, mixColor: nil), 0.5, 0.5, 0.5)
        expectColor(op(.darken, 0.25, "srgb").apply(to: SRGB(red: 1, green: 0.5, blue: 0), mixColor: nil), 0.75, 0.375, 0)
        // In HSL the lightness moves (here from 0.5 halfway to 1) and hue and saturation stay.
        expectColor(op(.lighten, 0.5, "hsl").apply(to: SRGB(red: 1, green: 0, blue: 0), mixColor: nil), 1, 0.5, 0.5)
    }

    @Test func darkenInLCHAlsoReducesChroma() throws {
        let red = try CSSColor.parse("#d32f2f").color
        let darkened = op(.darken, 0.3, "lch").apply(to: red, mixColor: nil)
        let before = CIELCH(CIELab(red)), after = CIELCH(CIELab(darkened))
        #expect(abs(after.l - before.l * 0.7) <= 0.5)
        #expect(abs(after.c - before.c * 0.7) <= 0.5)
    }

    @Test func mixIsNotPremultipliedAndMixesAlphaApart() {
        // colorjs's mix of transparent red and opaque blue: the components halfway, alpha halfway.
        // color-mix() would premultiply and give pure blue at alpha 0.5.
        let mixed = op(.mix, 0.5, "srgb", color: "blue").apply(to: SRGB(red: 1, green: 0, blue: 0, alpha: 0), mixColor: SRGB(red: 0, green: 0, blue: 1))
        expectColor(mixed, 0.5, 0, 0.5, alpha: 0.5)
    }

    @Test func mixTakesTheShorterArcAndAGrayTakesTheOtherHue() {
        let a = HSL(hue: 350, saturation: 1, lightness: 0.5).srgb, b = HSL(hue: 10, saturation: 1, lightness: 0.5).srgb
        let mid = op(.mix, 0.5, "hsl").apply(to: a, mixColor: b)
        #expect(abs(HSL(mid).hue.truncatingRemainder(dividingBy: 360) - 0) <= 1e-9)
        // White has no hue: the mix keeps red's, with saturation and lightness halfway.
        let pink = op(.mix, 0.5, "hsl").apply(to: .white, mixColor: SRGB(red: 1, green: 0, blue: 0))
        expectColor(pink, 0.875, 0.625, 0.625)
    }

    @Test func mixInDisplayP3AndLCHStaysInsideSRGB() {
        for space in ["p3", "lch"] {
            let mixed = op(.mix, 0.4, space).apply(to: SRGB(red: 0, green: 1, blue: 0), mixColor: SRGB(red: 1, green: 0, blue: 1))
            for channel in [mixed.red, mixed.green, mixed.blue] { #expect((0...1).contains(channel), "\(space): \(mixed)") }
        }
    }

    @Test func anUnhandledSpaceLeavesTheColorAsTokensStudioDoes() {
        let color = SRGB(red: 0.2, green: 0.4, blue: 0.6)
        #expect(op(.lighten, 0.5, "oklch").apply(to: color, mixColor: nil) == color)
        #expect(op(.mix, 0.5, "xyz-d50", color: "red").apply(to: color, mixColor: .white) == color)
        #expect(op(.alpha, 0.3, "").apply(to: color, mixColor: nil).alpha == 0.3)
    }
}

/// A modifier's amount is a plain decimal from 0 to 1: Swift's own parser took `nan`, `inf`,
/// `1e999` and hex floats, and a Tokens Studio `lighten` of `"nan"` measured white on black
/// at 21:1 with exit 0 (found by the fifth session's red team).
@Suite struct ModifierAmountTests {
    @Test(arguments: ["nan", "+nan", " nan", "inf", "infinity", "1e999", "0x1p-1", "-0.5", "5", "1.5", "", ".", "0.2.1", "20%", "{x}"])
    func notAnAmount(_ text: String) {
        #expect(ColorOperation.amount(text) == nil)
    }

    @Test func amounts() {
        #expect(ColorOperation.amount("0.2") == 0.2)
        #expect(ColorOperation.amount(" .5 ") == 0.5)
        #expect(ColorOperation.amount("1") == 1)
        #expect(ColorOperation.amount("0") == 0)
        #expect(ColorOperation.amount("1.0") == 1)
    }
}
