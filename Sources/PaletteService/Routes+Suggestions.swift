import ColorScience
import MicroHTTPD
import PaletteAudit
import TokenSources

/// `POST /v1/suggest` and `/v1/variants`: the nearest passing colors, as `contrast suggest` and
/// `contrast variants` give them (``SuggestionResult``, ``VariantsResult``).
extension Routes {
    /// `target` (a string, or a ratio as a number), else `usage` and `level`.
    static func target(_ object: JSONValue) throws(RequestError) -> ContrastTarget {
        func text(_ key: String) throws(RequestError) -> String? {
            guard let value = object[key] else { return nil }
            switch value {
            case .string(let s, _): return s
            case .number(let n, _) where key == "target": return CSSNumber.format(n)
            default: throw RequestError(.wrongType, field: key, "\"\(key)\" must be a string, found \(value.typeName)")
            }
        }
        return try SuggestionTarget.parse(target: try text("target"), usage: try text("usage"), level: try text("level"))
    }

    /// An opaque color from a field of the body: a translucent one is well-formed but cannot be
    /// suggested for (422); anything else wrong is a 400.
    static func opaqueColor(_ value: JSONValue?, field: String) throws -> SRGB {
        guard let value else { throw RequestError(.missingField, field: field, "missing \"\(field)\"") }
        guard let text = value.stringValue else { throw RequestError(.wrongType, field: field, "\"\(field)\" must be a color string, found \(value.typeName)") }
        let parsed = try PairRequest.color(text, field: field)
        guard parsed.color.isOpaque else {
            throw ServiceError.unprocessable("\"\(field)\" is translucent (\(parsed.color.hex)); suggestions need opaque colors", field: field, code: "translucent-color")
        }
        return parsed.color
    }

    /// A color from a field of the body, translucent or not.
    static func color(_ value: JSONValue?, field: String) throws -> SRGB {
        guard let value else { throw RequestError(.missingField, field: field, "missing \"\(field)\"") }
        guard let text = value.stringValue else { throw RequestError(.wrongType, field: field, "\"\(field)\" must be a color string, found \(value.typeName)") }
        return try PairRequest.color(text, field: field).color
    }

    /// `fg` may be translucent (measured painted over `bg`, and over each suggested background).
    func suggestPost(_ request: Request) throws -> Response {
        let body = try Routes.parseBody(request)
        let fg = try Routes.color(body["fg"], field: "fg"), bg = try Routes.opaqueColor(body["bg"], field: "bg")
        return try Routes.json(200, SuggestionResult(foreground: fg, background: bg, target: try Routes.target(body)))
    }

    func variantsPost(_ request: Request) throws -> Response {
        let body = try Routes.parseBody(request)
        let base = try Routes.opaqueColor(body["color"], field: "color")
        let target = try Routes.target(body)
        guard case .array(let items, _)? = body["on"], !items.isEmpty else {
            throw ServiceError.badRequest("\"on\" must be a non-empty array of background colors", field: "on", code: "wrong-type")
        }
        if items.count > limits.maximumBackgrounds {
            throw ServiceError.unprocessable("\(items.count) backgrounds; the limit is \(limits.maximumBackgrounds)", code: "limit-exceeded")
        }
        let backgrounds = try items.enumerated().map { index, item in try Routes.opaqueColor(item, field: "on/\(index)") }
        return try Routes.json(200, VariantsResult(color: base, on: backgrounds, target: target))
    }
}

extension Routes {
    /// `POST /v1/simulate` `{"colors": ["#d1242f", …], "deficiencies": ["deuteranopia"]}`: each
    /// color as each deficiency sees it (every deficiency when none is named).
    func simulatePost(_ request: Request) throws -> Response {
        let body = try Routes.parseBody(request)
        guard case .array(let items, _)? = body["colors"] else {
            throw ServiceError.badRequest("\"colors\" must be a non-empty array of CSS colors", field: "colors", code: "wrong-type")
        }
        var texts: [String] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else { throw RequestError(.wrongType, field: "colors/\(index)", "\"colors/\(index)\" must be a color string, found \(item.typeName)") }
            texts.append(text)
        }
        var names: [String]?
        if let list = body["deficiencies"] {
            guard case .array(let entries, _) = list, entries.allSatisfy({ $0.stringValue != nil }) else {
                throw ServiceError.badRequest("\"deficiencies\" must be an array of names like [\"deuteranopia\"]", field: "deficiencies", code: "wrong-type")
            }
            names = entries.compactMap(\.stringValue)
        }
        return try Routes.json(200, try VisionSimulation.request(colors: texts, deficiencies: names))
    }
}
