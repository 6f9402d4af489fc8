import Foundation

/// Reads one of the copied external vector files (see Vectors/README.md for their provenance)
/// into its `Decodable` shape: a field that changes name or type fails the decoding, so a case
/// cannot disappear silently, and each test asserts its exact count.
func loadVectors<File: Decodable>(_ name: String, as type: File.Type) throws -> File {
    guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
        throw VectorError("vector file \(name).json is missing from the test bundle")
    }
    return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
}

struct VectorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A comparison rule of a vector group or case.
struct VectorComparison: Decodable, CustomStringConvertible {
    var type: String
    var tol: Double?
    var digits: Int?
    var description: String { "\(type)\(tol.map { " ±\($0)" } ?? "")" }
}

/// A value that is a number in some sources and a formatted string in others.
enum NumberOrText: Decodable {
    case number(Double)
    case text(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
    }
}

/// wcag_vectors.json: ratios from color.js, chroma.js, TinyColor and axe-core.
struct WCAGVectorFile: Decodable {
    struct Group: Decodable {
        var name: String
        var compare: VectorComparison
        var cases: [Case]
    }

    struct Case: Decodable {
        var fg: String?
        var bg: String?
        var compare: VectorComparison?
        var expected: NumberOrText?
        var threshold: Double?
        var expected_pass: Bool?
        var font_px: Double?
        var bold: Bool?
        var upstream_comment_ratio: String?
        var relation: String?
        var a: [String]?
        var b: [String]?
        var value: Double?
    }

    var groups: [Group]
}

/// apca_vectors.json: Lc values from apca-w3 and others.
struct APCAVectorFile: Decodable {
    struct Group: Decodable {
        var name: String
        var compare: VectorComparison
        var cases: [Case]
    }

    struct Case: Decodable {
        var text: String
        var bg: String
        var expected_lc: Double
    }

    var groups: [Group]
}

/// named_colors.json: the 148 CSS named colors.
struct NamedColorFile: Decodable {
    struct Entry: Decodable {
        var name: String
        var hex: String
    }

    var colors: [Entry]
}

/// parsing_valid.json: web-platform-tests cases that must parse, with ColorAide's reading.
struct ValidParsingFile: Decodable {
    struct ColorAide: Decodable {
        var parsed: Bool
        var srgb_clamped: [Double]?
        var alpha: Double?
    }

    struct Case: Decodable {
        var input: String
        var expected: String
        var expected_rgba: [Double]?
        var fuzzy: Bool
        var uses_none: Bool
        var needs_font_metrics: Bool
        var upstream_bug: String?
        var coloraide: ColorAide?
    }

    var cases: [Case]
}

/// parsing_invalid.json: web-platform-tests cases that must be refused.
struct InvalidParsingFile: Decodable {
    struct Case: Decodable {
        var input: String
        var likely_outdated: String?
    }

    var cases: [Case]
}

/// gamut_mapping.json: CSS Color 4 gamut mapping as ColorAide computes it.
struct GamutMappingFile: Decodable {
    struct Case: Decodable {
        var input: String
        var in_gamut: Bool
        var srgb: [Double]
    }

    var cases: [Case]
}
