public import ColorScience
import TokenSources

/// What a suggestion aims for: `target` (`4.5`, `AAA`, `Lc60`, `AA+Lc60`), or else `usage` and
/// `level`, for `contrast suggest`/`variants` and `POST /v1/suggest`/`/v1/variants` alike.
public enum SuggestionTarget {
    public static func parse(target: String?, usage: String?, level: String?) throws(RequestError) -> ContrastTarget {
        if let target {
            guard let goal = ContrastTarget(parsing: target) else {
                throw RequestError(.invalidValue, field: "target", "target must be a ratio (4.5), a level (AA, AAA, AA-large), an APCA Lc (Lc60) or both (AA+Lc60), not \"\(target)\"")
            }
            return goal
        }
        return ContrastTarget(ratio: try PairRequest.requirement(usage: usage, level: level).minimumRatio)
    }

    /// A foreground for suggestions: translucent or not (a translucent one is measured painted
    /// over the background, and over each suggested background).
    public static func foregroundColor(_ text: String, field: String) throws(RequestError) -> SRGB {
        try PairRequest.color(text, field: field).color
    }

    /// An opaque color for suggestions.
    public static func opaqueColor(_ text: String, field: String) throws(RequestError) -> SRGB {
        let parsed = try PairRequest.color(text, field: field)
        guard parsed.color.isOpaque else {
            throw RequestError(.translucentColor, field: field, "\(field) is translucent (\(parsed.color.hex)); suggestions need opaque colors (contrast check shows the composite)")
        }
        return parsed.color
    }
}

