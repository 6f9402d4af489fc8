/// A JSON (RFC 8259) and JSON5 parser that keeps source locations, rejects duplicate keys (or,
/// for token files, lets the last one win and says where: ``parse(_:limits:dialect:duplicates:)``),
/// and never recurses: nesting 100,000 levels deep is an error, not a stack overflow.
///
/// JSON5 (https://spec.json5.org) is accepted by default, because design-system repositories keep
/// their tokens in it (Primer's sources are `.json5`): `//` and `/* */` comments, trailing commas,
/// unquoted keys, single-quoted strings, hexadecimal numbers, numbers with a leading `+` or a
/// leading or trailing decimal point, and the JSON5 string escapes. `Infinity` and `NaN` are
/// refused: no value this project reads can be infinite. A leading UTF-8 byte-order mark is
/// skipped. Every strict JSON document parses to the same value in either dialect.
public struct JSONParser {
    /// Which syntax to accept.
    public enum Dialect: Sendable {
        /// RFC 8259 only.
        case json
        /// JSON5, a superset of JSON.
        case json5
    }

    /// Limits that keep hostile documents cheap.
    public struct Limits: Sendable {
        public var maximumDepth = 256
        public var maximumStringBytes = 1 << 20

        public init() {}
    }

    /// A syntax error: what was expected, and where.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, for programs: stable across releases.
        public var code: Code
        public var message: String
        public var location: SourceLocation
        public var description: String { "\(location): \(message)" }

        public init(_ code: Code = .invalidJSON, message: String, location: SourceLocation) {
            self.code = code
            self.message = message
            self.location = location
        }

        /// The kind of syntax error, an extensible set written as a string.
        public struct Code: ErrorCode {
            public let rawValue: String
            public init(_ rawValue: String) { self.rawValue = rawValue }

            /// Not JSON (or JSON5, where that is read): a missing bracket, a stray character.
            public static let invalidJSON = Code("invalid-json")
            /// A key given twice in one object.
            public static let duplicateKey = Code("duplicate-key")
            /// Bytes that are not UTF-8.
            public static let invalidUTF8 = Code("invalid-utf8")
            /// Nesting deeper, or a string longer, than the reader's limits.
            public static let limitExceeded = Code("limit-exceeded")
        }
    }

    /// A key given twice in one object, where the last one is kept.
    public struct DuplicateKey: Sendable, Hashable {
        public var key: String
        /// The key that is kept (the last).
        public var location: SourceLocation
        /// The key it replaces.
        public var earlier: SourceLocation
    }

    let bytes: [UInt8]
    /// Whether a key given twice replaces the earlier member (recorded in `duplicates`) rather
    /// than being an error.
    var lastKeyWins = false
    var duplicates: [DuplicateKey] = []
    var position = 0
    var line = 1
    var lineStart = 0
    let limits: Limits
    let json5: Bool

    private init(_ bytes: [UInt8], limits: Limits, dialect: Dialect) {
        self.bytes = bytes
        self.limits = limits
        self.json5 = dialect == .json5
    }

    /// Parses a whole document. Invalid UTF-8, trailing content, NaN or an out-of-range number
    /// (`1e400`) are errors. A leading UTF-8 byte-order mark is skipped (locations still count
    /// from the first byte of the file, so columns on line 1 match what an editor shows).
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits(), dialect: Dialect = .json5) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes, limits: limits, dialect: dialect)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.position = 3
            parser.lineStart = 3
        }
        let value = try parser.parseDocument()
        try parser.skipWhitespace()
        if parser.position < bytes.count {
            throw SyntaxError(message: "expected the end of the document after the top-level value, found \(parser.describeCurrent())", location: parser.location)
        }
        return value
    }

    /// Parses a whole document as JSON5 and the token builds that read it do (JavaScript's own
    /// objects, Style Dictionary, Primer's build): a key given twice keeps the place of its first
    /// appearance and the value of its last, and each such key is appended to `duplicates`.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits(), dialect: Dialect = .json5, duplicates: inout [DuplicateKey]) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes, limits: limits, dialect: dialect)
        parser.lastKeyWins = true
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.position = 3
            parser.lineStart = 3
        }
        defer { duplicates.append(contentsOf: parser.duplicates) }
        let value = try parser.parseDocument()
        try parser.skipWhitespace()
        if parser.position < bytes.count {
            throw SyntaxError(message: "expected the end of the document after the top-level value, found \(parser.describeCurrent())", location: parser.location)
        }
        return value
    }

    public static func parse(_ text: String, limits: Limits = Limits(), dialect: Dialect = .json5) throws(SyntaxError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits, dialect: dialect)
    }

    /// Where the value that starts at `start` ends in `bytes`: the location just past its last
    /// byte (a string's closing quote, an object's `}`).
    ///
    /// `start` is a value's ``JSONValue/location`` from parsing the same bytes. Only that value is
    /// read again, so finding the ends of a document's values costs their sizes, not the
    /// document's for each.
    public static func endOfValue(startingAt start: SourceLocation, in bytes: [UInt8], limits: Limits = Limits(), dialect: Dialect = .json5) throws(SyntaxError) -> SourceLocation {
        var parser = JSONParser(bytes, limits: limits, dialect: dialect)
        guard start.offset >= 0, start.offset < bytes.count, start.column >= 1, start.column - 1 <= start.offset else {
            throw SyntaxError(message: "no value starts at \(start) (byte \(start.offset)) of a \(bytes.count)-byte document", location: start)
        }
        parser.position = start.offset
        parser.line = start.line
        parser.lineStart = start.offset - (start.column - 1)
        _ = try parser.parseDocument()
        return parser.location
    }

    var location: SourceLocation {
        SourceLocation(offset: position, line: line, column: position - lineStart + 1)
    }

    func describeCurrent() -> String {
        guard position < bytes.count else { return "the end of the file" }
        let b = bytes[position]
        if b >= 0x20 && b < 0x7F { return "'\(String(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    /// Skips white space, and in JSON5 comments too.
    private mutating func skipWhitespace() throws(SyntaxError) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
            case 0x0B where json5, 0x0C where json5: position += 1
            case 0xC2 where json5 && position + 1 < bytes.count && bytes[position + 1] == 0xA0:
                position += 2  // no-break space
            case 0xE2 where json5 && position + 2 < bytes.count && bytes[position + 1] == 0x80 && (bytes[position + 2] == 0xA8 || bytes[position + 2] == 0xA9):
                position += 3  // line and paragraph separators
            case 0xEF where json5 && position + 2 < bytes.count && bytes[position + 1] == 0xBB && bytes[position + 2] == 0xBF:
                position += 3  // a byte-order mark inside the text is white space in JSON5
            case UInt8(ascii: "/") where json5 && position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "/"):
                while position < bytes.count && bytes[position] != 0x0A { position += 1 }
            case UInt8(ascii: "/") where json5 && position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "*"):
                let start = location
                position += 2
                while true {
                    guard position + 1 < bytes.count else {
                        throw SyntaxError(message: "the comment opened with /* at \(start) is not closed with */", location: start)
                    }
                    if bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/") {
                        position += 2
                        break
                    }
                    if bytes[position] == 0x0A {
                        line += 1
                        lineStart = position + 1
                    }
                    position += 1
                }
            default: return
            }
        }
    }

    /// A container being filled while the parser walks the document iteratively. Classes, so
    /// appending to a container never copies it.
    private final class ArrayFrame {
        var items: [JSONValue] = []
        let location: SourceLocation
        init(_ location: SourceLocation) { self.location = location }
    }

    private final class ObjectFrame {
        var members: [JSONMember] = []
        /// Each key's member index, once the object has 16 members (see the duplicate check).
        var keys: [String: Int] = [:]
        var pendingKey: (String, SourceLocation)?
        let location: SourceLocation
        init(_ location: SourceLocation, pendingKey: (String, SourceLocation)) {
            self.location = location
            self.pendingKey = pendingKey
        }
    }

    private enum Frame {
        case array(ArrayFrame)
        case object(ObjectFrame)
    }

    private mutating func parseDocument() throws(SyntaxError) -> JSONValue {
        var stack: [Frame] = []
        while true {
            try skipWhitespace()
            // Read a value (or open a container).
            var value: JSONValue
            guard position < bytes.count else {
                throw SyntaxError(message: stack.isEmpty ? "the document is empty; expected a JSON value" : "the document ends inside \(stack.count) unclosed bracket(s); expected a value", location: location)
            }
            let start = location
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                if stack.count >= limits.maximumDepth {
                    throw SyntaxError(.limitExceeded, message: "nesting is deeper than \(limits.maximumDepth) levels", location: start)
                }
                try skipWhitespace()
                if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    value = .object([], start)
                } else {
                    stack.append(.object(ObjectFrame(start, pendingKey: try parseKey())))
                    continue
                }
            case UInt8(ascii: "["):
                position += 1
                if stack.count >= limits.maximumDepth {
                    throw SyntaxError(.limitExceeded, message: "nesting is deeper than \(limits.maximumDepth) levels", location: start)
                }
                try skipWhitespace()
                if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    value = .array([], start)
                } else {
                    stack.append(.array(ArrayFrame(start)))
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString(), start)
            case UInt8(ascii: "'") where json5:
                value = .string(try parseString(), start)
            case UInt8(ascii: "t"): try expectWord("true"); value = .bool(true, start)
            case UInt8(ascii: "f"): try expectWord("false"); value = .bool(false, start)
            case UInt8(ascii: "n"): try expectWord("null"); value = .null(start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber(), start)
            case UInt8(ascii: "+") where json5, UInt8(ascii: ".") where json5, UInt8(ascii: "I") where json5, UInt8(ascii: "N") where json5:
                value = .number(try parseNumber(), start)
            default:
                throw SyntaxError(message: "expected a JSON value (object, array, string, number, true, false or null), found \(describeCurrent())", location: start)
            }

            // Attach the value to its container, closing containers as their brackets come.
            while true {
                guard let top = stack.last else { return value }
                try skipWhitespace()
                switch top {
                case .array(let frame):
                    frame.items.append(value)
                    guard position < bytes.count else {
                        throw SyntaxError(message: "the array opened at \(frame.location) is not closed; expected ',' or ']'", location: location)
                    }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        if json5 {
                            try skipWhitespace()
                            if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                                position += 1
                                stack.removeLast()
                                value = .array(frame.items, frame.location)
                                frame.items = []
                                continue
                            }
                        }
                    } else if bytes[position] == UInt8(ascii: "]") {
                        position += 1
                        stack.removeLast()
                        value = .array(frame.items, frame.location)
                        frame.items = []
                        continue
                    } else {
                        throw SyntaxError(message: "expected ',' or ']' in the array opened at \(frame.location), found \(describeCurrent())", location: location)
                    }
                case .object(let frame):
                    if let (key, keyLocation) = frame.pendingKey {
                        // Small objects (most of them) are searched in place; a set of keys is
                        // built only for large ones, where a scan would be quadratic.
                        let earlier: Int?
                        if frame.members.count < 16 {
                            earlier = frame.members.firstIndex { $0.key == key }
                        } else {
                            if frame.keys.isEmpty {
                                for (index, member) in frame.members.enumerated() { frame.keys[member.key] = index }
                            }
                            earlier = frame.keys[key]
                            if earlier == nil { frame.keys[key] = frame.members.count }
                        }
                        if let earlier {
                            guard lastKeyWins else {
                                throw SyntaxError(.duplicateKey, message: "duplicate key \"\(key.excerpt(60))\" in the object opened at \(frame.location); each key may appear once", location: keyLocation)
                            }
                            duplicates.append(DuplicateKey(key: key, location: keyLocation, earlier: frame.members[earlier].keyLocation))
                            frame.members[earlier].value = value
                        } else {
                            frame.members.append(JSONMember(key: key, keyLocation: keyLocation, value: value))
                        }
                        frame.pendingKey = nil
                    }
                    guard position < bytes.count else {
                        throw SyntaxError(message: "the object opened at \(frame.location) is not closed; expected ',' or '}'", location: location)
                    }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        try skipWhitespace()
                        if json5 && position < bytes.count && bytes[position] == UInt8(ascii: "}") {
                            position += 1
                            stack.removeLast()
                            value = .object(frame.members, frame.location)
                            frame.members = []
                            continue
                        }
                        frame.pendingKey = try parseKey()
                    } else if bytes[position] == UInt8(ascii: "}") {
                        position += 1
                        stack.removeLast()
                        value = .object(frame.members, frame.location)
                        frame.members = []
                        continue
                    } else {
                        throw SyntaxError(message: "expected ',' or '}' in the object opened at \(frame.location), found \(describeCurrent())", location: location)
                    }
                }
                break
            }
        }
    }

    /// Reads `"key" :` and leaves the position at the value.
    private mutating func parseKey() throws(SyntaxError) -> (String, SourceLocation) {
        try skipWhitespace()
        let start = location
        if position >= bytes.count {
            throw SyntaxError(message: "the document ends inside an object; expected a quoted key or '}'", location: start)
        }
        let key: String
        if bytes[position] == UInt8(ascii: "\"") || (json5 && bytes[position] == UInt8(ascii: "'")) {
            key = try parseString()
        } else if json5 && JSONParser.isIdentifierByte(bytes[position], first: true) {
            let begin = position
            while position < bytes.count && JSONParser.isIdentifierByte(bytes[position], first: false) { position += 1 }
            guard let text = String(validating: bytes[begin..<position], as: UTF8.self) else {
                throw SyntaxError(.invalidUTF8, message: "the key contains invalid UTF-8", location: start)
            }
            key = text
        } else {
            throw SyntaxError(message: json5 ? "expected a key (quoted, or a JSON5 identifier such as $value), found \(describeCurrent())" : "expected a quoted key, found \(describeCurrent())", location: start)
        }
        try skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw SyntaxError(message: "expected ':' after the key \"\(key)\", found \(describeCurrent())", location: location)
        }
        position += 1
        return (key, start)
    }

    /// Bytes of an unquoted JSON5 key: ASCII letters, digits (not first), `$`, `_`, and any
    /// non-ASCII byte (letters of other scripts, as ECMAScript identifiers allow).
    static func isIdentifierByte(_ b: UInt8, first: Bool) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "$"), UInt8(ascii: "_"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
        case 0x80...0xFF: true
        default: false
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(SyntaxError) {
        let start = location
        let expected = word.withUTF8Buffer { Array($0) }
        guard position + expected.count <= bytes.count, Array(bytes[position..<position + expected.count]) == expected else {
            throw SyntaxError(message: json5 ? "expected a value, found \(describeCurrent()) (strings need quotes)" : "expected a JSON value, found \(describeCurrent()) (strings need double quotes)", location: start)
        }
        position += expected.count
    }

}
