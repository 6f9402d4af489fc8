/// What an error is, for programs: a string stable across releases (`invalid-color`), from an
/// extensible set (each error type lists its codes as static members of its `Code`). JSON
/// writes it as the bare string. Every error type of PaletteAudit, the service and the CLI has
/// one; docs/errors.md lists them.
public protocol ErrorCode: Hashable, Sendable, Codable, CustomStringConvertible {
    var rawValue: String { get }
    init(_ rawValue: String)
}

extension ErrorCode {
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The family an error belongs to: an empty type that tells one ``CodedError`` apart from
/// another, so that each family lists its own codes.
public protocol ErrorFamily: Sendable {}

/// An error whose words are one sentence on one line (whatever the names it quotes hold), so an
/// edge prints it as one line.
public protocol OneLineError: Error {}

/// An error that is only a code and a sentence. Each family is a type alias
/// (`BaselineError = CodedError<BaselineErrors>`) and lists its codes in an extension of
/// `CodedError.Code` constrained to the family.
public struct CodedError<Family: ErrorFamily>: OneLineError, Sendable, CustomStringConvertible {
    /// What is wrong, for programs: stable across releases.
    public var code: Code
    public var description: String
    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The kind of error, an extensible set written as a string.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }
}
