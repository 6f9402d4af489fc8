/// JSON numbers as Foundation's encoder writes them: integers without a fraction, others in
/// their shortest round-trip form.
public enum JSONNumber {
    public static func format(_ value: Double) -> String {
        var text = ""
        write(value, to: &text)
        return text
    }

    /// Writes the number's text to a stream without making a string first (a batch writes two
    /// or three per pair).
    public static func write<Target: TextOutputStream>(_ value: Double, to target: inout Target) {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 {
            writeInteger(Int(value), to: &target)
        } else if value.isFinite {
            value.write(to: &target)
        } else {
            target.write("null")
        }
    }

    /// Writes an integer's decimal digits (`String(value)`'s text) to a stream without making
    /// a string: they are formed on the stack and handed over as ASCII, as the standard
    /// library hands over a floating-point number's.
    public static func writeInteger<Target: TextOutputStream>(_ value: Int, to target: inout Target) {
        // 19 digits and a sign: `Int.min` is -9223372036854775808.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude, start = digits.count
            repeat {
                start -= 1
                digits[start] = 0x30 + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = 0x2D
            }
            target._writeASCII(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
