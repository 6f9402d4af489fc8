/// A token's value: its text, name, unit and number, read from the bytes it covers.
extension CSSTokenizer {
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// An identifier's name, as written.
    package func identifier(_ token: CSSToken) -> String { text(token.offset..<token.offset + token.length) }

    /// A function's name, lowercased (CSS function names are ASCII case-insensitive).
    package func functionName(_ token: CSSToken) -> String {
        CSSTokenizer.asciiLowercased(text(token.offset..<token.offset + token.length - 1))
    }

    /// Whether a function token's name (without its "(") is `name`, ignoring ASCII case, read in
    /// place; `name` is lowercase ASCII.
    package func isFunction(_ token: CSSToken, named name: StaticString) -> Bool {
        guard token.kind == .function else { return false }
        return equalsIgnoringASCIICase(token.offset..<token.offset + token.length - 1, name)
    }

    /// Whether an identifier token is `name`, ignoring ASCII case, read in place; `name` is
    /// lowercase ASCII.
    package func isIdentifier(_ token: CSSToken, named name: StaticString) -> Bool {
        guard token.kind == .ident else { return false }
        return equalsIgnoringASCIICase(token.offset..<token.offset + token.length, name)
    }

    func equalsIgnoringASCIICase(_ range: Range<Int>, _ name: StaticString) -> Bool {
        range.count == name.utf8CodeUnitCount && CSSTokenizer.bytes(bytes, at: range.lowerBound, startWith: name)
    }

    /// Whether `bytes` from `offset` begin with `name`, ignoring ASCII case; `name` is
    /// lowercase ASCII. One comparison for identifiers, gradient names and theme-name words.
    package static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, startWith name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard offset >= 0, bytes.count - offset >= count else { return false }
        let expected = name.utf8Start
        for i in 0..<count {
            var b = bytes[offset + i]
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            if b != expected[i] { return false }
        }
        return true
    }

    /// A hash token's name (the digits of a hex color), without the "#".
    package func hashName(_ token: CSSToken) -> String { text(token.offset + 1..<token.offset + token.length) }

    /// A dimension's unit, lowercased.
    package func unit(_ token: CSSToken) -> String {
        guard case .dimension = token.kind else { return "" }
        // The unit starts where the number ends: read the number again to find it.
        var reader = CSSTokenizer(bytes)
        reader.position = token.offset
        _ = reader.consumeNumber()
        return CSSTokenizer.asciiLowercased(text(reader.position..<token.offset + token.length))
    }

    mutating func consumeNumber() -> Double {
        let start = position
        var negative = false
        if bytes[position] == 0x2B || bytes[position] == 0x2D {
            negative = bytes[position] == 0x2D
            position += 1
        }
        // The decimal digits as an integer, and the power of ten to scale it by.
        var mantissa: UInt64 = 0
        var significant = 0
        var scale = 0
        consumeDigits(&mantissa, &significant, &scale, fraction: false)
        if byte(at: position) == 0x2E && CSSTokenizer.isDigit(byte(at: position + 1)) {
            position += 1
            consumeDigits(&mantissa, &significant, &scale, fraction: true)
        }
        var exponent = 0
        var exponentOverflow = false
        if byte(at: position) == 0x65 || byte(at: position) == 0x45 {  // e E
            let sign = byte(at: position + 1)
            var exponentStart = -1
            if CSSTokenizer.isDigit(sign) {
                exponentStart = position + 1
            } else if (sign == 0x2B || sign == 0x2D) && CSSTokenizer.isDigit(byte(at: position + 2)) {
                exponentStart = position + 2
            }
            if exponentStart > 0 {
                position = exponentStart
                while let b = byte(at: position), CSSTokenizer.isDigit(b) {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(b &- 0x30) } else { exponentOverflow = true }
                    position += 1
                }
                if sign == 0x2D { exponent = -exponent }
            }
        }
        // Exact when the digits fit in a double's 53 bits and the power of ten is itself exact:
        // one correctly rounded multiplication or division then gives the nearest double.
        let power = scale + exponent
        if !exponentOverflow && significant <= 15 && power >= -22 && power <= 22 {
            var value = Double(mantissa)
            value = power < 0 ? value / CSSTokenizer.powersOfTen[-power] : value * CSSTokenizer.powersOfTen[power]
            return negative ? -value : value
        }
        // Longer or extreme numbers: the standard library's correctly rounded conversion.
        var text = String(decoding: bytes[start..<position], as: UTF8.self)
        if text.hasPrefix("+") { text.removeFirst() }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        return Double(text) ?? .nan
    }

    /// A run of decimal digits, the integer part's or the fraction's: the number's first 19
    /// significant digits go into `mantissa` (`significant` counts them), and `scale` keeps
    /// the power of ten the number is `mantissa` times: an integer digit that does not fit
    /// raises it, a fraction digit that does lowers it. (It cannot wrap: it moves by one a
    /// byte of the text.)
    @inline(__always)
    mutating func consumeDigits(_ mantissa: inout UInt64, _ significant: inout Int, _ scale: inout Int, fraction: Bool) {
        let count = bytes.count
        while position < count {
            let digit = bytes[position] &- 0x30
            guard digit < 10 else { break }
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if mantissa != 0 { significant += 1 }
                if fraction { scale &-= 1 }
            } else if !fraction {
                scale &+= 1
            }
            position += 1
        }
    }

    /// 10⁰ … 10²², every power of ten a double holds exactly.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
