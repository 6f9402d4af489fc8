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
