@testable import ColorScience
import Testing

/// ColorMixing is color-mix()'s interpolation offered on sRGB values: it must give what the
/// parser gives for the same color-mix() text, and mix alpha apart when asked not to premultiply.
@Suite struct ColorMixingTests {
    @Test func agreesWithColorMixText() throws {
        let pairs = [("#0b6e99", "#f4a261"), ("rgb(255 0 0 / 0.4)", "#2a9d8f"), ("#000", "#fff"), ("#7f3fbf", "hsl(90 100% 40%)")]
        for space in ["srgb", "display-p3", "hsl", "hwb", "lch", "oklch", "lab", "oklab", "xyz-d50"] {
            for (a, b) in pairs {
                let expected = try CSSColor.parse("color-mix(in \(space), \(a) 70%, \(b))").color
                let mixed = try #require(ColorMixing.mix(CSSColor.parse(a).color, CSSColor.parse(b).color, weight: 0.3, inSpaceNamed: space))
                #expect(abs(mixed.red - expected.red) <= 1e-12, "\(space) \(a) \(b)")
                #expect(abs(mixed.green - expected.green) <= 1e-12, "\(space) \(a) \(b)")
                #expect(abs(mixed.blue - expected.blue) <= 1e-12, "\(space) \(a) \(b)")
                #expect(abs(mixed.alpha - expected.alpha) <= 1e-12, "\(space) \(a) \(b)")
            }
        }
    }

    @Test func withoutPremultiplyingTheAlphaIsMixedApart() throws {
        let clearRed = SRGB(red: 1, green: 0, blue: 0, alpha: 0), blue = SRGB(red: 0, green: 0, blue: 1)
        let css = try #require(ColorMixing.mix(clearRed, blue, weight: 0.5, inSpaceNamed: "srgb"))
        #expect(abs(css.red - 0) <= 1e-12)  // premultiplied: a transparent color adds no red
        #expect(abs(css.alpha - 0.5) <= 1e-12)
        let apart = try #require(ColorMixing.mix(clearRed, blue, weight: 0.5, inSpaceNamed: "srgb", premultiplied: false))
        #expect(abs(apart.red - 0.5) <= 1e-12)
        #expect(abs(apart.blue - 0.5) <= 1e-12)
        #expect(abs(apart.alpha - 0.5) <= 1e-12)
    }

    @Test func anUnknownSpaceIsNil() {
        #expect(ColorMixing.mix(.white, .black, weight: 0.5, inSpaceNamed: "cmyk") == nil)
    }
}
