public import MicroHTTPD
import PaletteAudit

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
        let target = r.rawTarget.isEmpty ? Array(r.path.utf8) : r.rawTarget
        let method = r.rawMethod.isEmpty ? Array(r.method.utf8) : r.rawMethod
        let shownTarget = target.count > 2048 ? Array(target.prefix(2048)) : target
        let truncated = target.count > 2048 ? "…(\(target.count) bytes)" : ""
        switch format {
        case .text:
            // Written as bytes: this runs for every request the service answers.
            var out: [UInt8] = []
            out.reserveCapacity(80 + shownTarget.count)
            func text(_ string: String) {
                var string = string
                string.withUTF8 { out.append(contentsOf: $0) }
            }
            func escaped(_ bytes: [UInt8]) {
                if AccessLog.isPlain(bytes) { out.append(contentsOf: bytes) } else { text(AccessLog.escape(bytes)) }
            }
            text(time)
            out.append(0x20)
            if let remote = r.remoteAddress { escaped(Array(remote.utf8)) } else { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: [0x20, 0x22])
            escaped(method)
            out.append(0x20)
            escaped(shownTarget)
            text(truncated)
            out.append(contentsOf: [0x22, 0x20])
            text(String(r.status))
            out.append(0x20)
            text(String(r.responseBytes))
            out.append(UInt8(ascii: "B"))
            out.append(0x20)
            let ms = r.duration * 1000
            text(ms < 10 ? formatted(ms, decimals: 2) : formatted(ms, decimals: 1))
            text(r.completed ? "ms" : "ms aborted")
            return String(decoding: out, as: UTF8.self)
        case .json:
            var fields: [(String, String)] = [
                ("time", JSONValue.quoted(time)),
                ("remote", JSONValue.quoted(AccessLog.escape(Array((r.remoteAddress ?? "").utf8)))),
                ("method", JSONValue.quoted(AccessLog.escape(method))),
                ("target", JSONValue.quoted(AccessLog.escape(shownTarget) + truncated)),
                ("status", String(r.status)),
                ("requestBytes", String(r.requestBytes)),
                ("responseBytes", String(r.responseBytes)),
                ("durationMs", formatted(r.duration * 1000, decimals: 3)),
                ("completed", r.completed ? "true" : "false"),
            ]
            if let route = r.route { fields.append(("route", JSONValue.quoted(AccessLog.escape(Array(route.utf8))))) }
            return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
    }

    /// A message line (a reload, a palette problem, shutting down).
    public func message(_ text: String, time: String, level: String = "info") -> String {
        switch format {
        case .text: "\(time) \(AccessLog.escape(Array(text.utf8)))"
        case .json: "{\"time\":\(JSONValue.quoted(time)),\"level\":\(JSONValue.quoted(level)),\"message\":\(JSONValue.quoted(AccessLog.escape(Array(text.utf8))))}"
        }
    }

    /// Bytes as printable text: printable ASCII and valid UTF-8 of printable characters as
    /// they are; `\` and `"` escaped; every other byte as `\xHH`.
    /// Printable ASCII without a quote or backslash: the usual field, logged as it is.
    static func isPlain(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }
    }

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

    func formatted(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let units = (value * scale).rounded()
        if units >= 0 && units < 1e15 {
            // Digits of the rounded integer with the point put in: what the text of
            // units / scale gives (that division is correctly rounded, so its shortest form
            // is this decimal), without formatting a Double.
            var digits = String(Int(units))
            if digits.utf8.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.utf8.count) + digits }
            guard decimals > 0 else { return digits + ".0" }
            let point = digits.index(digits.endIndex, offsetBy: -decimals)
            return digits[..<point] + "." + digits[point...]
        }
        let rounded = units / scale
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
