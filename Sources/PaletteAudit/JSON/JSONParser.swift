/// A strict JSON (RFC 8259) parser that keeps source locations, rejects duplicate keys, and
/// never recurses: nesting 100,000 levels deep is an error, not a stack overflow.
public struct JSONParser {
    /// Limits that keep hostile documents cheap.
    public struct Limits: Sendable {
        public var maximumDepth = 256
        public var maximumStringBytes = 1 << 20

        public init() {}
    }

    /// A syntax error: what was expected, and where.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var location: SourceLocation
        public var description: String { "\(location): \(message)" }
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private let limits: Limits

    private init(_ bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Parses a whole document. Invalid UTF-8, a byte-order mark, trailing content, NaN or an
    /// out-of-range number (`1e400`) are errors.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes, limits: limits)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw SyntaxError(message: "the file starts with a UTF-8 byte-order mark; save it without one", location: parser.location)
        }
        let value = try parser.parseDocument()
        parser.skipWhitespace()
        if parser.position < bytes.count {
            throw SyntaxError(message: "expected the end of the document after the top-level value, found \(parser.describeCurrent())", location: parser.location)
        }
        return value
    }

    public static func parse(_ text: String, limits: Limits = Limits()) throws(SyntaxError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
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

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
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
            skipWhitespace()
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
                    throw SyntaxError(message: "nesting is deeper than \(limits.maximumDepth) levels", location: start)
                }
                skipWhitespace()
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
                    throw SyntaxError(message: "nesting is deeper than \(limits.maximumDepth) levels", location: start)
                }
                skipWhitespace()
                if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    value = .array([], start)
                } else {
                    stack.append(.array(ArrayFrame(start)))
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString(), start)
            case UInt8(ascii: "t"): try expectWord("true"); value = .bool(true, start)
            case UInt8(ascii: "f"): try expectWord("false"); value = .bool(false, start)
            case UInt8(ascii: "n"): try expectWord("null"); value = .null(start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber(), start)
            default:
                throw SyntaxError(message: "expected a JSON value (object, array, string, number, true, false or null), found \(describeCurrent())", location: start)
            }

            // Attach the value to its container, closing containers as their brackets come.
            while true {
                guard let top = stack.last else { return value }
                skipWhitespace()
                switch top {
                case .array(let frame):
                    frame.items.append(value)
                    guard position < bytes.count else {
                        throw SyntaxError(message: "the array opened at \(frame.location) is not closed; expected ',' or ']'", location: location)
                    }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
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
                        if frame.keys.contains(key) {
                            throw SyntaxError(message: "duplicate key \"\(key.count > 60 ? String(key.prefix(60)) + "…" : key)\" in the object opened at \(frame.location); each key may appear once", location: keyLocation)
                        }
                        frame.keys.insert(key)
                        frame.members.append(JSONMember(key: key, keyLocation: keyLocation, value: value))
                        frame.pendingKey = nil
                    }
                    guard position < bytes.count else {
                        throw SyntaxError(message: "the object opened at \(frame.location) is not closed; expected ',' or '}'", location: location)
                    }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
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
        skipWhitespace()
        let start = location
        if position >= bytes.count {
            throw SyntaxError(message: "the document ends inside an object; expected a quoted key or '}'", location: start)
        }
        guard bytes[position] == UInt8(ascii: "\"") else {
            throw SyntaxError(message: "expected a quoted key, found \(describeCurrent())", location: start)
        }
        let key = try parseString()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw SyntaxError(message: "expected ':' after the key \"\(key)\", found \(describeCurrent())", location: location)
        }
        position += 1
        return (key, start)
    }

    private mutating func expectWord(_ word: StaticString) throws(SyntaxError) {
        let start = location
        let expected = word.withUTF8Buffer { Array($0) }
        guard position + expected.count <= bytes.count, Array(bytes[position..<position + expected.count]) == expected else {
            throw SyntaxError(message: "expected a JSON value, found \(describeCurrent()) (strings need double quotes)", location: start)
        }
        position += expected.count
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
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

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = location
        position += 1  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard position < bytes.count else {
                throw SyntaxError(message: "the string that starts at \(start) is not closed", location: start)
            }
            let b = bytes[position]
            if utf8.count > limits.maximumStringBytes {
                throw SyntaxError(message: "a string is longer than \(limits.maximumStringBytes) bytes", location: start)
            }
            switch b {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw SyntaxError(message: "the string contains invalid UTF-8", location: start)
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
