/// Where something is in a text: byte offset and 1-based line and column.
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int

    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A parsed JSON document that remembers where each value stood, so palette problems can name
/// the line, column and JSON pointer.
public indirect enum JSONValue: Sendable {
    case null(SourceLocation)
    case bool(Bool, SourceLocation)
    case number(Double, SourceLocation)
    case string(String, SourceLocation)
    case array([JSONValue], SourceLocation)
    /// Members in document order.
    case object([JSONMember], SourceLocation)

    public var location: SourceLocation {
        switch self {
        case .null(let l), .bool(_, let l), .number(_, let l), .string(_, let l), .array(_, let l), .object(_, let l): l
        }
    }

    /// "a string", "an object"… for messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var stringValue: String? {
        if case .string(let s, _) = self { return s }
        return nil
    }

    public var members: [JSONMember]? {
        if case .object(let m, _) = self { return m }
        return nil
    }

    /// The value of the first member named `key`, for objects.
    public subscript(key: String) -> JSONValue? {
        members?.first { $0.key == key }?.value
    }
}

/// One `"key": value` of an object.
public struct JSONMember: Sendable {
    public var key: String
    public var keyLocation: SourceLocation
    public var value: JSONValue

    public init(key: String, keyLocation: SourceLocation, value: JSONValue) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

/// A JSON pointer (RFC 6901), built segment by segment.
public struct JSONPointer: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    public private(set) var segments: [String]

    public init(_ segments: [String] = []) {
        self.segments = segments
    }

    public func appending(_ segment: String) -> JSONPointer {
        JSONPointer(segments + [segment])
    }

    public func appending(_ index: Int) -> JSONPointer {
        JSONPointer(segments + [String(index)])
    }

    /// `/themes/light/tokens/text.body` (with `~` and `/` escaped as `~0` and `~1`).
    public var description: String {
        var out = ""
        for segment in segments {
            out.append("/")
            out += JSONPointer.escaped(segment)
        }
        return out
    }

    /// The segments of a pointer's text: split at each `/` (the first, before the first segment,
    /// dropped), each unescaped.
    public init(parsing text: String) {
        segments = text.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { JSONPointer.unescaped(Substring($0)) }
    }

    public init(from decoder: any Decoder) throws {
        self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    /// A segment as a pointer writes it (RFC 6901): `~` as `~0`, `/` as `~1`. Scalar by
    /// scalar, as the RFC reads a pointer: a `/` that a combining mark follows is still a `/`
    /// (`JSONWriter` writes pointers the same way, over their bytes).
    public static func escaped(_ segment: String) -> String {
        guard segment.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) else { return segment }
        var out = String.UnicodeScalarView()
        for scalar in segment.unicodeScalars {
            switch scalar {
            case "~": out.append(contentsOf: "~0".unicodeScalars)
            case "/": out.append(contentsOf: "~1".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A segment as written in a pointer, read back: `~1` as `/` and `~0` as `~`, scalar by
    /// scalar and left to right (so `~01` is `~1`); any other `~` stays as it is.
    public static func unescaped(_ text: Substring) -> String {
        guard text.utf8.contains(0x7E) else { return String(text) }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "~", index + 1 < scalars.count, scalars[index + 1] == "0" || scalars[index + 1] == "1" {
                out.append(scalars[index + 1] == "0" ? "~" : "/")
                index += 2
            } else {
                out.append(scalars[index])
                index += 1
            }
        }
        return String(out)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool { lhs.description < rhs.description }
}

