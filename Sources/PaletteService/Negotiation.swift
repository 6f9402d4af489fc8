/// Which of the representations a route can send the client prefers, read from its `Accept`
/// field as RFC 9110 (section 12.5.1) weighs it: each media range with its quality (`q`,
/// 1 when absent, 0 meaning "not acceptable"); for each representation offered, the most
/// specific range that matches it (`text/html;charset=utf-8` before `text/html` before
/// `text/*` before `*/*`) gives its quality. The offered type of the highest quality wins;
/// among equals, the one the client named by the more specific range, then the one it named
/// first, then the route's own order.
///
/// Every representation offered is UTF-8 and has no other parameter, so a range whose
/// parameters ask for something else (`text/html;level=1`, `text/html;charset=latin1`)
/// matches none of them.
///
/// The route's first offer is its default: sent when the request has no `Accept`, and when the
/// field accepts none of the offers (a representation the client may still read is better
/// than a 406 for a JSON API whose clients often send `Accept` loosely).
enum Negotiation {
    /// One element of an Accept field.
    struct Range {
        var type: Substring
        var subtype: Substring
        var quality: Double
        /// Its place in the field.
        var order: Int
        /// It names parameters, all of which the offers satisfy (`charset=utf-8`).
        var parameterized = false
        /// It names a parameter the offers do not have.
        var asksOtherParameters = false
    }

    /// The offered media type (lowercase `type/subtype`) the field prefers, or the first offer.
    static func choose(accept field: String?, offering offers: [String]) -> String {
        guard let first = offers.first else { return "" }
        guard let field else { return first }
        let ranges = parse(field)
        var best: (offer: String, quality: Double, specificity: Int, order: Int)?
        for offer in offers {
            guard let slash = offer.firstIndex(of: "/") else { continue }
            let type = offer[..<slash], subtype = offer[offer.index(after: slash)...]
            // The most specific range naming this offer; its quality counts, even when a less
            // specific one would give more (`text/*;q=1, text/html;q=0` refuses text/html).
            var match: (specificity: Int, range: Range)?
            for range in ranges where !range.asksOtherParameters {
                let specificity: Int
                if range.type == "*" && range.subtype == "*" { specificity = 0 }
                else if range.type == type && range.subtype == "*" { specificity = 1 }
                else if range.type == type && range.subtype == subtype { specificity = range.parameterized ? 3 : 2 }
                else { continue }
                if match == nil || specificity > match!.specificity { match = (specificity, range) }
            }
            guard let match, match.range.quality > 0 else { continue }
            if let current = best {
                // Earlier offers win every tie, so only a strictly better one replaces it.
                let better = match.range.quality != current.quality ? match.range.quality > current.quality
                    : match.specificity != current.specificity ? match.specificity > current.specificity
                    : match.range.order < current.order
                guard better else { continue }
            }
            best = (offer, match.range.quality, match.specificity, match.range.order)
        }
        return best?.offer ?? first
    }

    /// The field's media ranges, lowercased, with their qualities. An element that is no
    /// `type/subtype`, or whose `q` is not a quality (0 to 1, at most three decimals), is left
    /// out: what it asks cannot be known.
    static func parse(_ field: String) -> [Range] {
        var ranges: [Range] = []
        for (order, element) in split(asciiLowercased(field), at: ",").enumerated() {
            let parts = split(element, at: ";")
            guard let media = parts.first, let slash = media.firstIndex(of: "/") else { continue }
            let type = media[..<slash], subtype = media[media.index(after: slash)...]
            guard isToken(type), isToken(subtype), !(type == "*" && subtype != "*") else { continue }
            var range = Range(type: type, subtype: subtype, quality: 1, order: order)
            var valid = true
            for parameter in parts.dropFirst() {
                let equals = parameter.firstIndex(of: "=")
                let name = trimmed(equals.map { parameter[..<$0] } ?? parameter)
                let value = equals.map { unquoted(trimmed(parameter[parameter.index(after: $0)...])) } ?? ""
                if name == "q" {
                    // The weight; the parameters after it are accept-extensions, not the type's.
                    guard equals != nil, let q = qvalue(value) else { valid = false; break }
                    range.quality = q
                    break
                }
                if name == "charset" && (value == "utf-8" || value == "utf8") { range.parameterized = true }
                else { range.asksOtherParameters = true }
            }
            if valid { ranges.append(range) }
        }
        return ranges
    }

    /// `text` split at each `separator` outside a quoted string (where `\` escapes the next
    /// character), each piece without its surrounding spaces and tabs; empty pieces are left
    /// out.
    static func split(_ text: Substring, at separator: Character) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex, index = text.startIndex, quoted = false, escaped = false
        while index != text.endIndex {
            let character = text[index]
            if escaped { escaped = false }
            else if quoted && character == "\\" { escaped = true }
            else if character == "\"" { quoted.toggle() }
            else if character == separator && !quoted {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        pieces.append(text[start...])
        return pieces.map(trimmed).filter { !$0.isEmpty }
    }

    /// A parameter value without its quotes and escapes (`"utf-8"` is `utf-8`).
    static func unquoted(_ value: Substring) -> Substring {
        guard value.count >= 2, value.first == "\"", value.last == "\"" else { return value }
        var result = "", escaped = false
        for character in value.dropFirst().dropLast() {
            if !escaped && character == "\\" { escaped = true; continue }
            escaped = false
            result.append(character)
        }
        return result[...]
    }

    /// RFC 9110's qvalue: `0`, `0.` and up to three digits, `1`, or `1.` and up to three zeros.
    static func qvalue(_ text: Substring) -> Double? {
        let bytes = Array(text.utf8)
        guard let lead = bytes.first, lead == UInt8(ascii: "0") || lead == UInt8(ascii: "1") else { return nil }
        if bytes.count == 1 { return lead == UInt8(ascii: "1") ? 1 : 0 }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        let digits = bytes[2...]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        if lead == UInt8(ascii: "1") { return digits.allSatisfy { $0 == UInt8(ascii: "0") } ? 1 : nil }
        var thousandths = 0, scale = 100
        for digit in digits { thousandths += Int(digit - UInt8(ascii: "0")) * scale; scale /= 10 }
        return Double(thousandths) / 1000
    }

    /// RFC 9110's token characters (a type or subtype), `*` among them.
    static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }
    }

    /// ASCII letters lowered, every other byte kept: the names in a field are ASCII (a byte
    /// outside it makes its range no token, so no match).
    static func asciiLowercased(_ text: String) -> Substring {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)[...]
    }

    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
