/// Which of the representations a route can send the client prefers, read from its `Accept`
/// field as RFC 9110 (section 12.5.1) weighs it: each media range with its quality (`q`,
/// 1 when absent, 0 meaning "not acceptable"); for each representation offered, the most
/// specific range that matches it (`text/html` before `text/*` before `*/*`) gives its quality.
/// The offered type of the highest quality wins; among equals, the one the client named by the
/// more specific range, then the one it named first, then the route's own order.
///
/// The route's first offer is its default: sent when the request has no `Accept`, and when the
/// field accepts none of the offers (a representation the client may still read is better
/// than a 406 for a JSON API whose clients often send `Accept` loosely).
enum Negotiation {
    /// One element of an Accept field.
    struct Range: Equatable {
        var type: Substring
        var subtype: Substring
        var quality: Double
        /// Its place in the field.
        var order: Int
    }

    /// The offered media type (lowercase `type/subtype`) the field prefers, or the first offer.
    static func choose(accept field: String?, offering offers: [String]) -> String {
        guard let first = offers.first else { return "" }
        guard let field else { return first }
        let ranges = parse(field)
        var best: (offer: String, quality: Double, specificity: Int, order: Int, rank: Int)?
        for (rank, offer) in offers.enumerated() {
            guard let slash = offer.firstIndex(of: "/") else { continue }
            let type = offer[..<slash], subtype = offer[offer.index(after: slash)...]
            // The most specific range naming this offer; its quality counts, even when a less
            // specific one would give more (`text/*;q=1, text/html;q=0` refuses text/html).
            var match: (specificity: Int, range: Range)?
            for range in ranges {
                let specificity: Int
                if range.type == "*" && range.subtype == "*" { specificity = 0 }
                else if range.type == type && range.subtype == "*" { specificity = 1 }
                else if range.type == type && range.subtype == subtype { specificity = 2 }
                else { continue }
                if match == nil || specificity > match!.specificity { match = (specificity, range) }
            }
            guard let match, match.range.quality > 0 else { continue }
            let candidate = (offer: offer, quality: match.range.quality, specificity: match.specificity, order: match.range.order, rank: rank)
            if let current = best {
                if candidate.quality != current.quality { if candidate.quality < current.quality { continue } }
                else if candidate.specificity != current.specificity { if candidate.specificity < current.specificity { continue } }
                else if candidate.order != current.order { if candidate.order > current.order { continue } }
                else { continue }  // the same range: the route's earlier offer stays
            }
            best = candidate
        }
        return best?.offer ?? first
    }

    /// The field's media ranges, lowercased, with their qualities. An element that is no
    /// `type/subtype`, or whose `q` is not a quality (0 to 1, at most three decimals), is left
    /// out: what it asks cannot be known.
    static func parse(_ field: String) -> [Range] {
        var ranges: [Range] = []
        for (order, element) in elements(of: field.lowercased()).enumerated() {
            let parts = element.split(separator: ";", omittingEmptySubsequences: false).map(trimmed)
            guard let media = parts.first, let slash = media.firstIndex(of: "/") else { continue }
            let type = media[..<slash], subtype = media[media.index(after: slash)...]
            guard isToken(type), isToken(subtype), !(type == "*" && subtype != "*") else { continue }
            var quality = 1.0, valid = true
            for parameter in parts.dropFirst() {
                guard let equals = parameter.firstIndex(of: "=") else { continue }
                guard trimmed(parameter[..<equals]) == "q" else { continue }
                guard let q = qvalue(trimmed(parameter[parameter.index(after: equals)...])) else { valid = false; break }
                quality = q
                break  // parameters after the weight are accept-extensions
            }
            if valid { ranges.append(Range(type: type, subtype: subtype, quality: quality, order: order)) }
        }
        return ranges
    }

    /// The field's comma-separated elements; a comma inside a quoted parameter value does not
    /// separate.
    static func elements(of field: String) -> [Substring] {
        var elements: [Substring] = []
        var start = field.startIndex, index = field.startIndex, quoted = false, escaped = false
        while index != field.endIndex {
            let character = field[index]
            if escaped { escaped = false }
            else if quoted && character == "\\" { escaped = true }
            else if character == "\"" { quoted.toggle() }
            else if character == "," && !quoted {
                elements.append(field[start..<index])
                start = field.index(after: index)
            }
            index = field.index(after: index)
        }
        elements.append(field[start...])
        return elements.map(trimmed).filter { !$0.isEmpty }
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

    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
