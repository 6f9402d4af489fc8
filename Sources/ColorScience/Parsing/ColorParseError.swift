/// Why a CSS color could not be read, and where.
///
/// `offset` is the UTF-8 byte offset into the text where the problem starts; `message` says what
/// was found and what was expected there. The edges (palette loader, CLI, HTTP) add the file or
/// field around it.
public struct ColorParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem, for programs; ``message`` is for people.
    public var code: Code
    /// What went wrong and what was expected.
    public var message: String
    /// UTF-8 byte offset of the problem in ``input``.
    public var offset: Int
    /// The text that was parsed (cut to 80 characters for very long input).
    public var input: String

    public init(code: Code, message: String, offset: Int, input: String) {
        self.code = code
        self.message = message
        self.offset = offset
        self.input = input.utf8.count > 80 ? String(input.prefix(77)) + "..." : input
    }

    public var description: String {
        "'\(input)' at byte \(offset): \(message)"
    }

    /// An extensible set of error kinds.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// No color at all: empty text or only whitespace and comments.
        public static let empty = Code("empty")
        /// Longer than ``CSSColor/maximumLength``.
        public static let tooLong = Code("too-long")
        /// A character that cannot start or continue a color here.
        public static let unexpectedCharacter = Code("unexpected-character")
        /// A `#` color with a bad digit or a bad length.
        public static let invalidHex = Code("invalid-hex")
        /// A word that is not a CSS color name.
        public static let unknownName = Code("unknown-name")
        /// A keyword that is a color in CSS but has no value on its own (`currentColor`, system colors).
        public static let contextDependent = Code("context-dependent")
        /// A `light-dark()` read without a color scheme to pick its color by.
        public static let schemeDependent = Code("scheme-dependent")
        /// A function that is not a color function.
        public static let unknownFunction = Code("unknown-function")
        /// Too few or too many arguments, or commas and slashes in the wrong places.
        public static let wrongArguments = Code("wrong-arguments")
        /// An argument of the wrong type (an angle where a number goes, a keyword…).
        public static let invalidArgument = Code("invalid-argument")
        /// The text ended before the color did (a missing `)`).
        public static let unexpectedEnd = Code("unexpected-end")
        /// Something after a complete color.
        public static let trailingInput = Code("trailing-input")
        /// Text that is not a gradient function where ``Gradient/init(css:)`` expects one.
        public static let notGradient = Code("not-gradient")
        /// An image (`url()`, `image()`, `image-set()`, `cross-fade()`, `element()`): its colors
        /// are in a file or a document, not in the text.
        public static let image = Code("image")
        /// Valid CSS whose value depends on a document (`em`, `vw`…) or has no sRGB value (infinite chroma).
        public static let unsupported = Code("unsupported")

        public var description: String { name }
    }
}
