/// A JSON (RFC 8259) and JSON5 parser that keeps source locations, rejects duplicate keys, and
/// never recurses: nesting 100,000 levels deep is an error, not a stack overflow.
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

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private let limits: Limits
    private let json5: Bool

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

    private var location: SourceLocation {
        SourceLocation(offset: position, line: line, column: position - lineStart + 1)
    }

    private func describeCurrent() -> String {
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
        /// The keys, once the object has 16 members (see the duplicate check).
        var keys: Set<String> = []
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
                        let duplicate: Bool
                        if frame.members.count < 16 {
                            duplicate = frame.members.contains { $0.key == key }
                        } else {
                            if frame.keys.isEmpty { frame.keys = Set(frame.members.map(\.key)) }
                            duplicate = !frame.keys.insert(key).inserted
                        }
                        if duplicate {
                            throw SyntaxError(.duplicateKey, message: "duplicate key \"\(key.count > 60 ? String(key.prefix(60)) + "…" : key)\" in the object opened at \(frame.location); each key may appear once", location: keyLocation)
                        }
                        frame.members.append(JSONMember(key: key, keyLocation: keyLocation, value: value))
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

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        if json5 { return try parseJSON5Number() }
        let start = location
        let begin = position
        func digits() -> Int {
            let s = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - s
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        let intDigits = digits()
        if intDigits == 0 {
            throw SyntaxError(message: "expected a digit in the number", location: location)
        }
        if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") {
            throw SyntaxError(message: "numbers cannot have leading zeros", location: start)
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            if digits() == 0 { throw SyntaxError(message: "expected a digit after the decimal point", location: location) }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            if digits() == 0 { throw SyntaxError(message: "expected a digit in the exponent", location: location) }
        }
        let text = String(decoding: bytes[begin..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw SyntaxError(message: "the number \(text) is out of range", location: start)
        }
        return value
    }

    /// A JSON5 number: JSON's, plus `+`, hexadecimal, `.5` and `5.`.
    private mutating func parseJSON5Number() throws(SyntaxError) -> Double {
        let start = location
        let begin = position
        var negative = false
        if bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "I") || bytes[position] == UInt8(ascii: "N")) {
            throw SyntaxError(message: "Infinity and NaN are not accepted: every number here must be finite", location: start)
        }
        if position + 1 < bytes.count && bytes[position] == UInt8(ascii: "0") && (bytes[position + 1] | 0x20) == UInt8(ascii: "x") {
            position += 2
            let digitsStart = position
            var value = 0.0
            while position < bytes.count, let digit = JSONParser.hexDigit(bytes[position]) {
                value = value * 16 + Double(digit)
                position += 1
            }
            if position == digitsStart { throw SyntaxError(message: "expected a hexadecimal digit after 0x", location: location) }
            return negative ? -value : value
        }
        func digits() -> Int {
            let s = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - s
        }
        let intStart = position
        let intDigits = digits()
        if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") {
            throw SyntaxError(message: "numbers cannot have leading zeros", location: start)
        }
        var fractionDigits = 0
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            fractionDigits = digits()
        }
        if intDigits == 0 && fractionDigits == 0 {
            throw SyntaxError(message: "expected a digit in the number", location: location)
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            if digits() == 0 { throw SyntaxError(message: "expected a digit in the exponent", location: location) }
        }
        var text = String(decoding: bytes[begin..<position], as: UTF8.self)
        if text.hasPrefix("+") { text.removeFirst() }
        if text.hasSuffix(".") { text.removeLast() }
        if text.hasPrefix(".") { text = "0" + text } else if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        text = text.replacing(".e", with: "e").replacing(".E", with: "E")
        guard let value = Double(text), value.isFinite else {
            throw SyntaxError(message: "the number \(text) is out of range", location: start)
        }
        return value
    }

    static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: UInt32(b - 0x30)
        case 0x61...0x66: UInt32(b - 0x61 + 10)
        case 0x41...0x46: UInt32(b - 0x41 + 10)
        default: nil
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = location
        let quote = bytes[position]
        position += 1  // opening quote
        // Most strings have no escape: find the closing quote and make the string from the bytes
        // in place. Decoding changes nothing exactly when the bytes are valid UTF-8.
        var end = position, ascii = true
        while end < bytes.count && end - position <= limits.maximumStringBytes {
            let b = bytes[end]
            if b == quote || b == 0x5C || b < 0x20 { break }
            if b >= 0x80 { ascii = false }
            end += 1
        }
        if end < bytes.count && bytes[end] == quote && end - position <= limits.maximumStringBytes {
            let slice = bytes[position..<end]
            let text = String(decoding: slice, as: UTF8.self)
            guard ascii || text.utf8.elementsEqual(slice) else {
                throw SyntaxError(.invalidUTF8, message: "the string contains invalid UTF-8", location: start)
            }
            position = end + 1
            return text
        }
        var utf8: [UInt8] = []
        while true {
            guard position < bytes.count else {
                throw SyntaxError(message: "the string that starts at \(start) is not closed", location: start)
            }
            let b = bytes[position]
            if utf8.count > limits.maximumStringBytes {
                throw SyntaxError(.limitExceeded, message: "a string is longer than \(limits.maximumStringBytes) bytes", location: start)
            }
            switch b {
            case quote:
                position += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw SyntaxError(.invalidUTF8, message: "the string contains invalid UTF-8", location: start)
                }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { continue }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "'") where json5: utf8.append(0x27)
                case UInt8(ascii: "v") where json5: utf8.append(0x0B)
                case UInt8(ascii: "0") where json5 && !(position < bytes.count && bytes[position] >= 0x30 && bytes[position] <= 0x39):
                    utf8.append(0x00)
                case UInt8(ascii: "x") where json5:
                    guard position + 2 <= bytes.count, let high = JSONParser.hexDigit(bytes[position]), let low = JSONParser.hexDigit(bytes[position + 1]) else {
                        throw SyntaxError(message: "expected 2 hex digits after \\x", location: location)
                    }
                    position += 2
                    utf8.append(contentsOf: Array(String(Character(Unicode.Scalar(UInt8(high << 4 | low)))).utf8))
                case 0x0A where json5:  // a line continuation
                    line += 1
                    lineStart = position
                case 0x0D where json5:
                    if position < bytes.count && bytes[position] == 0x0A { position += 1 }
                    line += 1
                    lineStart = position
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                            throw SyntaxError(message: "an unpaired UTF-16 surrogate \\u\(String(scalar, radix: 16)) in a string", location: location)
                        }
                        position += 2
                        let low = try parseHex4()
                        guard low >= 0xDC00 && low < 0xE000 else {
                            throw SyntaxError(message: "an unpaired UTF-16 surrogate in a string", location: location)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw SyntaxError(message: "an unpaired UTF-16 surrogate in a string", location: location)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw SyntaxError(message: "an invalid \\u escape", location: location)
                    }
                    utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
                case _ where json5 && escape >= 0x20 && escape < 0x7F && !(escape >= 0x30 && escape <= 0x39):
                    utf8.append(escape)  // JSON5: any other character escapes to itself
                default:
                    throw SyntaxError(message: "'\\\(String(UnicodeScalar(escape)))' is not a JSON escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", location: SourceLocation(offset: position - 2, line: line, column: position - 2 - lineStart + 1))
                }
            case 0x00..<0x20:
                throw SyntaxError(message: "a control character (byte 0x\(String(b, radix: 16, uppercase: true))) inside a string must be escaped", location: location)
            default:
                utf8.append(b)
                position += 1
            }
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else {
            throw SyntaxError(message: "expected 4 hex digits after \\u", location: location)
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[position]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            default: throw SyntaxError(message: "expected 4 hex digits after \\u", location: location)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
