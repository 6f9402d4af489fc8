import ColorScience
import TokenSources

/// Rules from role words and the numbered scales: globs over names of one role, and the
/// scale steps far enough apart to be proposed.
extension PaletteProposer {
    /// Color names: a name whose variant is one (`bgColor.black`) names a hue, not a surface.
    static let hueWords: Set<String> = ["black", "white", "gray", "grey", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "cyan", "teal", "indigo", "violet", "magenta"]

    /// The most pairs a component-scoped non-text rule is proposed as, pair by pair.
    static let maximumExpandedRule = 16

    /// The largest number of explicit scale checks proposed for one palette.
    static let maximumScaleChecks = 200

    /// A glob over names of one role, the names it matches, and the scope it was found at.
    struct Pattern {
        var glob: String
        var scope: String
        var word: String
        var matched: Set<String>
    }

    /// The globs that cover the (not disabled) names of `role`: each name's role segment with
    /// what follows it (`button.primary.fgColor.*`), or the role word with a star where the
    /// name varies (`*-foreground`), or the name itself; a glob that would also match a name of
    /// another role is not used. Globs whose names another covers are dropped.
    func patterns(for role: TokenNameRole.Role, leavingOut: Set<String> = []) -> [Pattern] {
        var found: [Pattern] = []
        var byGlob: [String: Int] = [:]
        for name in allNames {
            // (A name with a `*` or `?` would be read as a glob: it is proposed in no rule.)
            guard !leavingOut.contains(name), let r = roles[name], r.role == role, !r.disabled, let range = r.wordRange, let word = r.word,
                  !CheckRule.isPattern(name) else { continue }
            let bytes = Array(name.utf8)
            // Groups are separated by dots or slashes; a name with neither (a CSS custom
            // property, `button-primary-fgColor-rest`) separates them with dashes and underscores.
            let structured = bytes.contains(UInt8(ascii: ".")) || bytes.contains(UInt8(ascii: "/"))
            let isSegmentSeparator: (UInt8) -> Bool = structured
                ? { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") }
                : { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
            var segmentStart = range.lowerBound
            while segmentStart > 0 && !isSegmentSeparator(bytes[segmentStart - 1]) { segmentStart -= 1 }
            var segmentEnd = range.upperBound
            while segmentEnd < bytes.count && !isSegmentSeparator(bytes[segmentEnd]) { segmentEnd += 1 }
            let scope = String(decoding: bytes[..<segmentStart], as: UTF8.self)
            let segment = String(decoding: bytes[segmentStart..<segmentEnd], as: UTF8.self)
            let hasRest = segmentEnd < bytes.count
            var candidates: [String] = []
            if hasRest { candidates.append(scope + segment + String(UnicodeScalar(bytes[segmentEnd])) + "*") }
            let general = scope + (range.lowerBound > segmentStart ? "*" : "") + word + (range.upperBound < segmentEnd || hasRest ? "*" : "")
            candidates.append(general)
            candidates.append(name)
            guard let glob = candidates.first(where: { accepts($0, role: role) }) else { continue }
            if let index = byGlob[glob] {
                found[index].matched.insert(name)
            } else {
                byGlob[glob] = found.count
                let matched = Set(index.matching(glob).filter { !(roles[$0]?.disabled ?? false) })
                found.append(Pattern(glob: glob, scope: scope, word: word, matched: matched.union([name])))
            }
        }
        // Drop a glob whose names another (broader) glob already covers. Only a glob that holds
        // each of its names can cover it: the globs holding its rarest name are the ones asked
        // (asking every other glob made this names × names).
        var holding: [String: [Int]] = [:]
        for (j, pattern) in found.enumerated() { for name in pattern.matched { holding[name, default: []].append(j) } }
        return found.enumerated().filter { i, pattern in
            guard let rarest = pattern.matched.min(by: { (holding[$0]?.count ?? 0, $0) < (holding[$1]?.count ?? 0, $1) }) else { return true }
            return !(holding[rarest] ?? []).contains { j in
                let other = found[j]
                return j != i && pattern.matched.isSubset(of: other.matched) && (other.matched.count > pattern.matched.count || j < i)
            }
        }.map(\.element)
    }

    /// The words of `name` after its role word's segment (`accent`, `muted` of
    /// `bgColor.accent.muted`).
    func tailWords(of name: String) -> [String] {
        guard let range = roles[name]?.wordRange else { return [] }
        let bytes = Array(name.utf8)
        let structured = bytes.contains(UInt8(ascii: ".")) || bytes.contains(UInt8(ascii: "/"))
        var end = range.upperBound
        while end < bytes.count {
            let b = bytes[end]
            if structured ? (b == UInt8(ascii: ".") || b == UInt8(ascii: "/")) : (b == UInt8(ascii: "-") || b == UInt8(ascii: "_")) { break }
            end += 1
        }
        return TokenNameRole.words(of: name).filter { $0.range.lowerBound > end }.map { $0.text.lowercased() }
    }

    /// The separator-delimited segment that holds `name`'s role word (`bgColor` of
    /// `bgColor.accent.muted`).
    func roleSegment(of name: String) -> String? {
        guard let range = roles[name]?.wordRange else { return nil }
        let bytes = Array(name.utf8)
        let structured = bytes.contains(UInt8(ascii: ".")) || bytes.contains(UInt8(ascii: "/"))
        let isSeparator: (UInt8) -> Bool = structured ? { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") } : { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        var start = range.lowerBound, end = range.upperBound
        while start > 0 && !isSeparator(bytes[start - 1]) { start -= 1 }
        while end < bytes.count && !isSeparator(bytes[end]) { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Whether every name `glob` matches reads as `role` (disabled names aside: rules leave
    /// them out). A name is its own glob.
    func accepts(_ glob: String, role: TokenNameRole.Role) -> Bool {
        if !CheckRule.isPattern(glob) { return true }
        return index.matching(glob).allSatisfy { name in
            guard let r = roles[name] else { return true }
            return r.role == role || r.disabled
        }
    }

    /// The backgrounds at `pattern`'s scope, else at the nearest scope above it.
    func backgroundsAtScope(of pattern: Pattern, among backgrounds: [String: [Pattern]]) -> [Pattern] {
        var scope = pattern.scope
        while true {
            if let here = backgrounds[scope], !here.isEmpty { return here }
            if scope.isEmpty { return [] }
            // Up one segment: "button.primary." → "button.".
            var trimmed = String(scope.dropLast())
            if let cut = trimmed.lastIndex(where: { $0 == "." || $0 == "/" || $0 == "-" || $0 == "_" }) {
                trimmed = String(trimmed[...cut])
            } else {
                trimmed = ""
            }
            scope = trimmed
        }
    }

    /// The themes where the rule `foreground` on `background` (with `except`) pairs two tokens.
    func themesMatching(_ foreground: String, _ background: String, except: [String]) -> [String] {
        // A pair of two tokens is there unless a side is empty, or both are the same one name:
        // each side's first two names in each theme say it.
        let fgs = index.firstTwo(foreground, except: except), bgs = index.firstTwo(background, except: except)
        return themeNames.indices.filter { t in
            let f = fgs[t], b = bgs[t]
            guard let f0 = f.first, let b0 = b.first else { return false }
            return f.count > 1 || b.count > 1 || f0 != b0
        }.map { themeNames[$0].theme }
    }

    /// The themes where every one of `names` is a token.
    func themesHaving(_ names: [String]) -> [String] {
        themeNames.indices.filter { t in names.allSatisfy(index.themes[t].contains) }.map { themeNames[$0].theme }
    }

    // MARK: Numbered scales

    /// Names with a number in them, grouped by what is around the number (`red-#`,
    /// `blue-cool-#v`, `gray.#`); a group of five or more steps is a scale, and its last step
    /// on its first is proposed. A scale whose first step is translucent in some theme (an
    /// alpha scale, Radix's `gray-a#`) is not: over an unknown surface the pair's worst case
    /// can be 1:1, a failure nobody can fix by changing the scale. Those scales' patterns
    /// (`gray-aN`) come back apart, for the note.
    func scaleChecks() -> (checks: [ProposedCheck], translucent: [String]) {
        var families: [String: [(step: Int, name: String)]] = [:]
        var order: [String] = []
        for name in allNames {
            let bytes = Array(name.utf8)
            guard let last = bytes.lastIndex(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { continue }
            var first = last
            while first > 0 && bytes[first - 1] >= UInt8(ascii: "0") && bytes[first - 1] <= UInt8(ascii: "9") { first -= 1 }
            guard last - first < 6, let step = Int(String(decoding: bytes[first...last], as: UTF8.self)) else { continue }
            let family = String(decoding: bytes[..<first], as: UTF8.self) + "#" + String(decoding: bytes[(last + 1)...], as: UTF8.self)
            if families[family] == nil { order.append(family) }
            families[family, default: []].append((step, name))
        }
        var checks: [ProposedCheck] = [], translucentScales: [String] = []
        for family in order {
            guard let steps = families[family]?.sorted(by: { $0.step < $1.step }), Set(steps.map(\.step)).count >= 5,
                  let lightest = steps.first, let darkest = steps.last, checks.count < PaletteProposer.maximumScaleChecks else { continue }
            let themes = themesHaving([darkest.name, lightest.name])
            guard !themes.isEmpty else { continue }
            guard !translucent.contains(lightest.name) else {
                translucentScales.append(family.replacing("#", with: "N"))
                continue
            }
            var check = ProposedCheck(id: "\(darkest.name) on \(lightest.name)", foreground: darkest.name, background: lightest.name, usage: .text,
                                      description: "proposed by contrast init: \(family.replacing("#", with: "N")) is a numbered scale of \(steps.count) steps; its last step (\(darkest.step)) as text on its first (\(lightest.step))")
            check.themes = themes.count == themeNames.count ? nil : themes
            checks.append(check)
        }
        return (checks, translucentScales)
    }
}
