/// Checks that name tokens by glob (`"foreground": "fgColor.*"`), expanded per theme into one
/// check per matching pair.
///
/// `*` matches any run of characters, dots included (`*.disabled` matches `button.fg.disabled`);
/// `?` matches one character. A token never pairs with itself. Each expanded check's id is the
/// rule's id with the pair: `text-on-surfaces[fgColor.muted on bgColor.inset]`.
public enum CheckRule {
    /// Most checks one rule may expand to in one theme; a rule over more is refused before any work.
    public static let maximumPairsPerRule = 1_000_000

    public static func isPattern(_ text: String) -> Bool {
        // A name without a `*` or `?` byte (most) is told at once; one with such a byte is
        // asked by characters, as always.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }) else { return false }
        return text.contains("*") || text.contains("?")
    }

    /// Whether `name` matches the glob `pattern`.
    public static func matches(_ name: String, _ pattern: String) -> Bool {
        let n = Array(name.utf8), p = Array(pattern.utf8)
        var i = 0, j = 0, star = -1, mark = 0
        while i < n.count {
            if j < p.count && (p[j] == UInt8(ascii: "?") || p[j] == n[i]) {
                i += 1
                j += 1
            } else if j < p.count && p[j] == UInt8(ascii: "*") {
                star = j
                mark = i
                j += 1
            } else if star >= 0 {
                j = star + 1
                mark += 1
                i = mark
            } else {
                return false
            }
        }
        while j < p.count && p[j] == UInt8(ascii: "*") { j += 1 }
        return j == p.count
    }

    /// The id of one expanded pair.
    public static func expandedID(_ rule: String, foreground: String, background: String) -> String {
        "\(rule)[\(foreground) on \(background)]"
    }

    /// The names a side of a rule matches, in token order (a side without a glob is itself).
    package static func side(_ reference: String, tokens: [String], except: [String]) -> [String] {
        guard isPattern(reference) else { return [reference] }
        let pattern = Token.aliasTarget(of: reference) ?? reference
        return tokens.filter { name in matches(name, pattern) && !except.contains { matches(name, $0) } }
    }
}
