/// The scalars of JSON and JSON5: numbers (JSON5's hex, signs, `Infinity` and `NaN` too) and
/// strings with their escapes.
extension JSONParser {
    mutating func parseNumber() throws(SyntaxError) -> Double {
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
    mutating func parseJSON5Number() throws(SyntaxError) -> Double {
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
        var fractionDigits = 0, point = false
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            point = true
            fractionDigits = digits()
        }
        if intDigits == 0 && fractionDigits == 0 {
            throw SyntaxError(message: "expected a digit in the number", location: location)
        }
        var exponent = false
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            exponent = true
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            if digits() == 0 { throw SyntaxError(message: "expected a digit in the exponent", location: location) }
        }
        if !point && !exponent && intDigits <= 15 {
            // A whole number of at most 15 digits is exact as a Double: read it without text.
            var whole = 0
            for digit in bytes[intStart..<(intStart + intDigits)] { whole = whole * 10 + Int(digit - 0x30) }
            return negative ? -Double(whole) : Double(whole)
        }
        var text = String(decoding: bytes[begin..<position], as: UTF8.self)
        if text.hasPrefix("+") { text.removeFirst() }
        if text.hasSuffix(".") { text.removeLast() }
        if text.hasPrefix(".") { text = "0" + text } else if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        if point && fractionDigits == 0 && exponent {  // `5.e3`: Double reads `5e3`
            text = text.replacing(".e", with: "e").replacing(".E", with: "E")
        }
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

    mutating func parseString() throws(SyntaxError) -> String {
        let start = location
        let quote = bytes[position]
        position += 1  // opening quote
        // Most strings have no escape: find the closing quote and make the string from the bytes
        // in place.
        var end = position, ascii = true
        // (Compared before it is added: a limit of `Int.max`, meaning none, must not overflow.)
        let limit = limits.maximumStringBytes < bytes.count - position ? position + limits.maximumStringBytes + 1 : bytes.count
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // Eight bytes at a time while none of them ends the run; then byte by byte.
            while end + 8 <= limit {
                let word = UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)
                if JSONWriter.mayEndString(word, quote: quote) { break }
                if word & 0x8080_8080_8080_8080 != 0 { ascii = false }
                end += 8
            }
            while end < limit {
                let b = base[end]
                if b == quote || b == 0x5C || b < 0x20 { break }
                if b >= 0x80 { ascii = false }
                end += 1
            }
        }
        if end < bytes.count && bytes[end] == quote && end - position <= limits.maximumStringBytes {
            let slice = bytes[position..<end]
            // ASCII needs no validation; other text is validated as it is decoded, in one pass.
            guard let text = ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self) else {
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

    mutating func parseHex4() throws(SyntaxError) -> UInt32 {
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
