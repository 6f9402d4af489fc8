public import MicroHTTPD
import PaletteAudit
import TokenSources

/// The service's log lines: the access log and its messages, as text for people or as JSON
/// objects (one per line) for log shippers.
///
/// Nothing a client sends can forge a line or drive a terminal: the request target is logged as
/// sent (so `%0A` stays `%0A`), and every control byte, every C1 control, every byte that is not
/// valid UTF-8, `"` and `\` in a logged field are written as escapes (`\x0a`, `\x1b`, `\xff`,
/// `\"`, `\\`).
public struct AccessLog: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    public var format: Format

    public init(format: Format = .text) {
        self.format = format
    }

    /// The line for a finished request (without the newline).
    public func line(_ r: CompletedRequest, time: String) -> String {
        switch format {
        case .text:
            var out: [UInt8] = []
            appendText(r, time: .text(time), to: &out)
            return String(decoding: out, as: UTF8.self)
        case .json:
            return jsonLine(r, time: time)
        }
    }

    /// The line for a finished request and its newline, appended as bytes (the access log's
    /// path: this runs for every request the service answers).
    public func append(_ r: CompletedRequest, time: String, to out: inout [UInt8]) {
        switch format {
        case .text: appendText(r, time: .text(time), to: &out)
        case .json: out.append(contentsOf: jsonLine(r, time: time).utf8)
        }
        out.append(0x0A)
    }

    /// The same line, its time given as seconds since 1970 and milliseconds: in the text format
    /// the timestamp's digits go straight into `out` (``ServiceLog/writeTimestamp(seconds:milliseconds:into:)``),
    /// with no String made for it.
    public func append(_ r: CompletedRequest, seconds: Int, milliseconds: Int, to out: inout [UInt8]) {
        switch format {
        case .text: appendText(r, time: .clock(seconds: seconds, milliseconds: milliseconds), to: &out)
        case .json: out.append(contentsOf: jsonLine(r, time: ServiceLog.timestamp(seconds: seconds, milliseconds: milliseconds)).utf8)
        }
        out.append(0x0A)
    }

    private enum Time {
        case text(String)
        case clock(seconds: Int, milliseconds: Int)
    }

    private func appendText(_ r: CompletedRequest, time: Time, to out: inout [UInt8]) {
        func text(_ string: String) {
            var string = string
            string.withUTF8 { out.append(contentsOf: $0) }
        }
        func field<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
            if bytes.allSatisfy(AccessLog.isPlain) { out.append(contentsOf: bytes) } else { text(AccessLog.escape(Array(bytes))) }
        }
        // A String's own bytes (the generic walk over its UTF8View is slower, and this runs
        // for every field of every request).
        func field(_ string: String) {
            var string = string
            string.withUTF8 { field($0) }
        }
        func number(_ value: Int) {
            guard value >= 0 else { return text(String(value)) }
            var divisor = 1
            while divisor <= value / 10 { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        out.reserveCapacity(out.count + 96 + r.rawTarget.count)
        switch time {
        case .text(let time): text(time)
        case .clock(let seconds, let milliseconds):
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ServiceLog.timestampLength) { buffer in
                out.append(contentsOf: buffer[..<ServiceLog.writeTimestamp(seconds: seconds, milliseconds: milliseconds, into: buffer)])
            }
        }
        out.append(0x20)
        if let remote = r.remoteAddress { field(remote) } else { out.append(UInt8(ascii: "-")) }
        out.append(0x20)
        out.append(0x22)
        if r.rawMethod.isEmpty { field(r.method) } else { field(r.rawMethod) }
        out.append(0x20)
        let targetCount = r.rawTarget.isEmpty ? r.path.utf8.count : r.rawTarget.count
        if r.rawTarget.isEmpty { field(r.path.utf8.prefix(2048)) } else { field(r.rawTarget.prefix(2048)) }
        if targetCount > 2048 { text("…(\(targetCount) bytes)") }
        out.append(0x22)
        out.append(0x20)
        number(r.status)
        out.append(0x20)
        number(r.responseBytes)
        out.append(UInt8(ascii: "B"))
        out.append(0x20)
        let ms = r.duration * 1000
        appendFormatted(ms, decimals: ms < 10 ? 2 : 1, to: &out)
        text(r.completed ? "ms" : "ms aborted")
    }

    private func jsonLine(_ r: CompletedRequest, time: String) -> String {
        let target = r.rawTarget.isEmpty ? Array(r.path.utf8) : r.rawTarget
        let method = r.rawMethod.isEmpty ? Array(r.method.utf8) : r.rawMethod
        let shownTarget = target.count > 2048 ? Array(target.prefix(2048)) : target
        let truncated = target.count > 2048 ? "…(\(target.count) bytes)" : ""
        let bytes = JSONWriter.compact { w in
            w.object { w in
                w.key("time"); w.string(time)
                w.key("remote"); w.string(AccessLog.escape(Array((r.remoteAddress ?? "").utf8)))
                w.key("method"); w.string(AccessLog.escape(method))
                w.key("target"); w.string(AccessLog.escape(shownTarget) + truncated)
                w.key("status"); w.int(r.status)
                w.key("requestBytes"); w.int(r.requestBytes)
                w.key("responseBytes"); w.int(r.responseBytes)
                w.key("durationMs"); w.number(formatted: formatted(r.duration * 1000, decimals: 3))
                w.key("completed"); w.bool(r.completed)
                if let route = r.route { w.key("route"); w.string(AccessLog.escape(Array(route.utf8))) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A message line (a reload, a palette problem, shutting down).
    public func message(_ text: String, time: String, level: String = "info") -> String {
        switch format {
        case .text: "\(time) \(AccessLog.escape(Array(text.utf8)))"
        case .json:
            String(decoding: JSONWriter.compact { w in
                w.object { w in
                    w.key("time"); w.string(time)
                    w.key("level"); w.string(level)
                    w.key("message"); w.string(AccessLog.escape(Array(text.utf8)))
                }
            }, as: UTF8.self)
        }
    }

    /// Printable ASCII without a quote or backslash: the usual field, logged as it is.
    static func isPlain(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy(isPlain)
    }

    static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte <= 0x7E && byte != 0x22 && byte != 0x5C
    }

    /// Bytes as printable text: printable ASCII and valid UTF-8 of printable characters as
    /// they are; `\` and `"` escaped; every other byte as `\xHH`.

    public static func escape(_ bytes: [UInt8]) -> String {
        if isPlain(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var out = ""
        out.reserveCapacity(bytes.count)
        var i = 0
        func hex(_ b: UInt8) -> String {
            let digits = Array("0123456789abcdef")
            return "\\x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 0xF)])
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\\"): out += "\\\\"; i += 1
            case UInt8(ascii: "\""): out += "\\\""; i += 1
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(b)); i += 1
            case 0xC2...0xF4:
                // A whole, valid UTF-8 sequence of a printable scalar stays; anything else is escaped byte by byte.
                let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                if i + length <= bytes.count,
                   let scalar = String(validating: bytes[i..<(i + length)], as: UTF8.self)?.unicodeScalars.first,
                   !(0x80...0x9F).contains(scalar.value), scalar.value != 0x2028, scalar.value != 0x2029,
                   String(validating: bytes[i..<(i + length)], as: UTF8.self)?.unicodeScalars.count == 1 {
                    out.unicodeScalars.append(scalar)
                    i += length
                } else {
                    out += hex(b)
                    i += 1
                }
            default:
                out += hex(b)
                i += 1
            }
        }
        return out
    }

    /// `value` rounded to `decimals` places, as text ("3.14", "12.0"), appended as bytes: the
    /// digits of the rounded integer with the point put in, which is what the text of
    /// units / scale gives (that division is correctly rounded, so its shortest form is this
    /// decimal), without formatting a Double.
    func appendFormatted(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let units = (value * scale).rounded()
        guard units >= 0 && units < 1e15 else { return out.append(contentsOf: formattedByDouble(value, decimals: decimals, scale: scale).utf8) }
        // The digits of the rounded integer, at least decimals + 1 of them, with the point put in.
        let whole = UInt64(units)
        var count = 1, power: UInt64 = 1
        while power <= whole / 10 { power *= 10; count += 1 }
        while count < decimals + 1 { power *= 10; count += 1 }
        for position in stride(from: count - 1, through: 0, by: -1) {
            out.append(UInt8(ascii: "0") + UInt8(whole / power % 10))
            power /= 10
            if position == decimals && decimals > 0 { out.append(UInt8(ascii: ".")) }
        }
        if decimals == 0 { out.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")]) }
    }

    func formatted(_ value: Double, decimals: Int) -> String {
        var out: [UInt8] = []
        appendFormatted(value, decimals: decimals, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Values outside 0…1e15 units (never a duration in practice): the text of the rounded
    /// Double, padded to `decimals` places.
    private func formattedByDouble(_ value: Double, decimals: Int, scale: Double) -> String {
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let fraction = text[text.index(after: dot)...].count
            if fraction < decimals { text += String(repeating: "0", count: decimals - fraction) }
        } else if decimals > 0 {
            text += "." + String(repeating: "0", count: decimals)
        }
        return text
    }
}
