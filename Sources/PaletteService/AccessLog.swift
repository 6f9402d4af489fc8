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
            let ms = r.duration * 1000
            let duration = ms < 10 ? formatted(ms, decimals: 2) + "ms" : formatted(ms, decimals: 1) + "ms"
            return "\(time) \(AccessLog.escape(Array((r.remoteAddress ?? "-").utf8))) \"\(AccessLog.escape(method)) \(AccessLog.escape(shownTarget))\(truncated)\" \(r.status) \(r.responseBytes)B \(duration)\(r.completed ? "" : " aborted")"
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
    public static func escape(_ bytes: [UInt8]) -> String {
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
