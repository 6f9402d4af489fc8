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
    /// `error` (the input is broken: exit 2) or `warning` (something was read but deserves a
    /// look: shown beside problems, never changes the exit code). Absent in JSON for errors.
    public var severity: Severity

    public init(_ code: Code, _ message: String, file: String? = nil, pointer: JSONPointer = JSONPointer(),
                location: SourceLocation? = nil, theme: String? = nil, severity: Severity = .error) {
        self.severity = severity
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

    /// `palettes/x.json:12:7: /themes/dark/tokens/text.body: '#12' …`, on one line whatever the
    /// names in it hold (``Swift/String/terminalSafe``): it is what a terminal and a CI log show.
    public var description: String { text.terminalSafe }

    /// The same words as written, for an edge that escapes for its own medium (the service's log).
    public var text: String {
        var prefix = file ?? "<palette>"
        if let location { prefix += ":\(location.line):\(location.column)" }
        let at = pointer.segments.isEmpty ? "" : " \(pointer)"
        let inTheme = theme.map { " (theme '\($0)')" } ?? ""
        return "\(prefix):\(at)\(inTheme) \(message)"
    }

    public enum Severity: String, Hashable, Sendable, Codable {
        case error
        case warning
    }

    public var isWarning: Bool { severity == .warning }

    enum CodingKeys: String, CodingKey { case code, message, file, pointer, location, theme, severity }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(Code.self, forKey: .code)
        message = try c.decode(String.self, forKey: .message)
        file = try c.decodeIfPresent(String.self, forKey: .file)
        pointer = try c.decodeIfPresent(JSONPointer.self, forKey: .pointer) ?? JSONPointer()
        location = try c.decodeIfPresent(SourceLocation.self, forKey: .location)
        theme = try c.decodeIfPresent(String.self, forKey: .theme)
        severity = try c.decodeIfPresent(Severity.self, forKey: .severity) ?? .error
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(file, forKey: .file)
        try c.encode(pointer, forKey: .pointer)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(theme, forKey: .theme)
        if severity == .warning { try c.encode(severity, forKey: .severity) }
    }

    /// The kind of problem, an extensible set encoded as a string.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let unreadableFile = Code("unreadable-file")
        public static let invalidJSON = Code("invalid-json")
        /// A key given twice in one object of a token file: a warning, the last value is read.
        public static let duplicateKey = Code("duplicate-key")
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
        public static let refCycle = Code("ref-cycle")
        public static let unknownFormat = Code("unknown-format")
        public static let unsupportedProperty = Code("unsupported-property")
        public static let hexMismatch = Code("hex-mismatch")
        public static let staleValue = Code("stale-value")
        public static let deprecatedToken = Code("deprecated-token")
        public static let overriddenToken = Code("overridden-token")
        public static let emptyRule = Code("empty-rule")
        public static let notAColor = Code("not-a-color")
    }
}
