/// Something wrong with a palette file, with the file, JSON pointer and line where it is.
///
/// Problems are data: the audit collects them and goes on with what it can check. They are
/// reported with the findings, and the CLI exits 2 when there are any.
public struct PaletteProblem: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var code: Code
    /// What is wrong and what was expected.
    public var message: String
    /// The palette file, when it came from one.
    public var file: String?
    /// Where in the document (RFC 6901).
    public var pointer: JSONPointer
    /// Line and column in the file, when known.
    public var location: SourceLocation?
    /// The theme in which the problem shows, for problems that depend on a theme.
    public var theme: String?

    public init(_ code: Code, _ message: String, file: String? = nil, pointer: JSONPointer = JSONPointer(),
                location: SourceLocation? = nil, theme: String? = nil) {
        self.code = code
        // Hostile documents can carry megabyte names: problems quote them briefly.
        self.message = message.utf8.count > 2000 ? String(message.prefix(1000)) + "…" : message
        self.file = file
        self.pointer = pointer.segments.contains(where: { $0.utf8.count > 128 })
            ? JSONPointer(pointer.segments.map { $0.utf8.count > 128 ? String($0.prefix(60)) + "…(\($0.utf8.count) bytes)" : $0 })
            : pointer
        self.location = location
        self.theme = theme
    }

    /// `palettes/x.json:12:7: /themes/dark/tokens/text.body: '#12' …`
    public var description: String {
        var prefix = file ?? "<palette>"
        if let location { prefix += ":\(location.line):\(location.column)" }
        let at = pointer.segments.isEmpty ? "" : " \(pointer)"
        let inTheme = theme.map { " (theme '\($0)')" } ?? ""
        return "\(prefix):\(at)\(inTheme) \(message)"
    }

    /// The kind of problem, an extensible set encoded as a string.
    public struct Code: Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let unreadableFile = Code("unreadable-file")
        public static let invalidJSON = Code("invalid-json")
        public static let wrongType = Code("wrong-type")
        public static let missingField = Code("missing-field")
        public static let unknownField = Code("unknown-field")
        public static let invalidValue = Code("invalid-value")
        public static let duplicateName = Code("duplicate-name")
        public static let unknownToken = Code("unknown-token")
        public static let unknownTheme = Code("unknown-theme")
        public static let aliasCycle = Code("alias-cycle")
        public static let extendsCycle = Code("extends-cycle")
        public static let invalidColor = Code("invalid-color")
        public static let limitExceeded = Code("limit-exceeded")

        public var description: String { rawValue }

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
