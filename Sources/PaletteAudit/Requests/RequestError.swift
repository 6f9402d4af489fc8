public import TokenSources

/// A request the CLI and the HTTP API both take, found wrong: the field at fault, a stable
/// code, and why.
public struct RequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for programs: stable across releases (the message may be reworded).
    public var code: Code
    /// The field (`fg`, `target`, `on/2`…), as the request named it.
    public var field: String
    public var message: String

    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { message }

    /// The kind of error, an extensible set written as a string (`"missing-field"`).
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// A required field is absent (`fg`, `bg`, `colors`).
        public static let missingField = Code("missing-field")
        /// A field of a kind the request does not take.
        public static let unknownField = Code("unknown-field")
        /// A field given under both its names (`fg` and `foreground`): it takes one value.
        public static let repeatedField = Code("repeated-field")
        /// A field, or the request, has the wrong JSON type (a number for a color).
        public static let wrongType = Code("wrong-type")
        /// A color that does not parse as CSS (the message quotes the parser's reason).
        public static let invalidColor = Code("invalid-color")
        /// A translucent color where an opaque one is needed (a backdrop, a color to suggest for).
        public static let translucentColor = Code("translucent-color")
        /// A word outside its set (a usage, level, scheme, target or deficiency).
        public static let invalidValue = Code("invalid-value")
        /// More than one request may hold (colors to simulate).
        public static let limitExceeded = Code("limit-exceeded")
    }
}
