@testable import ColorScience
import XCTest

/// ColorMixing is color-mix()'s interpolation offered on sRGB values: it must give what the
/// parser gives for the same color-mix() text, and mix alpha apart when asked not to premultiply.
final class ColorMixingTests: XCTestCase {
    func testAgreesWithColorMixText() throws {
        let pairs = [("#0b6e99", "#f4a261"), ("rgb(255 0 0 / 0.4)", "#2a9d8f"), ("#000", "#fff"), ("#7f3fbf", "hsl(90 100% 40%)")]
        for space in ["srgb", "display-p3", "hsl", "hwb", "lch", "oklch", "lab", "oklab", "xyz-d50"] {
            for (a, b) in pairs {
                let expected = try CSSColor.parse("color-mix(in \(space), \(a) 70%, \(b))").color
                let mixed = try XCTUnwrap(ColorMixing.mix(CSSColor.parse(a).color, CSSColor.parse(b).color, weight: 0.3, inSpaceNamed: space))
                XCTAssertEqual(mixed.red, expected.red, accuracy: 1e-12, "\(space) \(a) \(b)")
                XCTAssertEqual(mixed.green, expected.green, accuracy: 1e-12, "\(space) \(a) \(b)")
                XCTAssertEqual(mixed.blue, expected.blue, accuracy: 1e-12, "\(space) \(a) \(b)")
                XCTAssertEqual(mixed.alpha, expected.alpha, accuracy: 1e-12, "\(space) \(a) \(b)")
            }
        }
    }

    func testWithoutPremultiplyingTheAlphaIsMixedApart() throws {
        let clearRed = SRGB(red: 1, green: 0, blue: 0, alpha: 0), blue = SRGB(red: 0, green: 0, blue: 1)
        let css = try XCTUnwrap(ColorMixing.mix(clearRed, blue, weight: 0.5, inSpaceNamed: "srgb"))
        XCTAssertEqual(css.red, 0, accuracy: 1e-12)  // premultiplied: a transparent color adds no red
        XCTAssertEqual(css.alpha, 0.5, accuracy: 1e-12)
        let apart = try XCTUnwrap(ColorMixing.mix(clearRed, blue, weight: 0.5, inSpaceNamed: "srgb", premultiplied: false))
        XCTAssertEqual(apart.red, 0.5, accuracy: 1e-12)
        XCTAssertEqual(apart.blue, 0.5, accuracy: 1e-12)
        XCTAssertEqual(apart.alpha, 0.5, accuracy: 1e-12)
    }

    func testAnUnknownSpaceIsNil() {
        XCTAssertNil(ColorMixing.mix(.white, .black, weight: 0.5, inSpaceNamed: "cmyk"))
    }
}
