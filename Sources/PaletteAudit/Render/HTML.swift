import TokenSources

/// Markup, built so that text cannot become markup by accident: in an `HTML` literal, the
/// literal parts are markup, and every interpolated value is escaped unless it is `HTML`
/// itself (or explicitly `trusted:`, for a constant like the style sheet).
///
///     let cell: HTML = "<td title=\"\(name)\">\(name)</td>"   // name is escaped, twice safe
///
/// A forgotten `escape(…)` therefore cannot become an injection: there is nothing to forget.
public struct HTML: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The markup.
    public private(set) var text: String

    public init(stringLiteral value: String) { text = value }

    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    /// Text, escaped: `HTML(escaping: "<b>")` is `&lt;b&gt;`.
    public init(escaping value: String) { text = HTML.escape(value) }

    public var description: String { text }
    public var isEmpty: Bool { text.isEmpty }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        /// The literal parts of an `HTML` literal are markup.
        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// Nested markup goes in as it is.
        public mutating func appendInterpolation(_ html: HTML) { text += html.text }

        /// Any other value is text: escaped for content and attribute values alike.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) { text += HTML.escape(value.description) }

        /// A constant the program owns (the style sheet), inserted as it is.
        public mutating func appendInterpolation(trusted value: StaticString) { text += value.description }
    }

    public static func + (lhs: HTML, rhs: HTML) -> HTML {
        var out = lhs
        out.text += rhs.text
        return out
    }

    public static func += (lhs: inout HTML, rhs: HTML) { lhs.text += rhs.text }

    /// Escapes text for HTML content and attribute values.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        return text.escaped { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
        }
    }
}

extension Sequence where Element == HTML {
    public func joined(separator: HTML = "") -> HTML {
        var out: HTML = ""
        var first = true
        for item in self {
            if !first { out += separator }
            out += item
            first = false
        }
        return out
    }
}
