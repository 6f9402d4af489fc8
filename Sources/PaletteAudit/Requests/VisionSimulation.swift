public import ColorScience
import TokenSources

/// Colors as people with each color-vision deficiency see them: what `POST /v1/simulate`, the
/// designers' page ("view as") and `contrast simulate` show. One implementation, in
/// ColorScience (``ColorVisionDeficiency/simulate(_:)``); this is its request and answer.
public struct VisionSimulation: Sendable, Codable, Hashable {
    /// The colors as given, as canonical hex.
    public var colors: [String]
    /// One entry per deficiency, its colors in the order given.
    public var visions: [Vision]

    public struct Vision: Sendable, Codable, Hashable {
        /// `deuteranopia`, `protanomaly`…
        public var name: String
        /// 1 for the dichromacies and achromatopsia; the simulated severity for the anomalies.
        public var severity: Double
        public var colors: [String]
    }

    /// Most colors one request may simulate.
    public static let maximumColors = 10_000

    public init(colors: [SRGB], deficiencies: [ColorVisionDeficiency] = ColorVisionDeficiency.all) {
        self.colors = colors.map(\.hex)
        visions = deficiencies.map { deficiency in
            Vision(name: deficiency.name, severity: deficiency.severity, colors: colors.map { deficiency.simulate($0).hex })
        }
    }

    /// Reads the request's colors (CSS strings) and deficiency names; errors name the field.
    public static func request(colors texts: [String], deficiencies names: [String]?) throws(RequestError) -> VisionSimulation {
        guard !texts.isEmpty else { throw RequestError(.invalidValue, field: "colors", "\"colors\" must be a non-empty array of CSS colors") }
        guard texts.count <= maximumColors else {
            throw RequestError(.limitExceeded, field: "colors", "\(texts.count) colors; the limit is \(maximumColors) per request")
        }
        var colors: [SRGB] = []
        colors.reserveCapacity(texts.count)
        for (index, text) in texts.enumerated() {
            colors.append(try PairRequest.color(text, field: "colors/\(index)").color)
        }
        var deficiencies = ColorVisionDeficiency.all
        if let names {
            deficiencies = []
            for (index, name) in names.enumerated() {
                guard let deficiency = ColorVisionDeficiency(name: name) else {
                    throw RequestError(.invalidValue, field: "deficiencies/\(index)", "\"\(name)\" is not a color-vision deficiency; expected one of \(ColorVisionDeficiency.all.map(\.name).joined(separator: ", "))")
                }
                deficiencies.append(deficiency)
            }
        }
        return VisionSimulation(colors: colors, deficiencies: deficiencies)
    }
}
