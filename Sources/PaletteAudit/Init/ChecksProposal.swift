public import ColorScience
public import TokenSources

/// One check `contrast init` proposes, with the reason it was proposed.
public struct ProposedCheck: Hashable, Sendable {
    public var id: String
    public var foreground: String
    public var background: String
    public var usage: ContrastUsage
    /// Globs the rule leaves out (disabled tokens, foregrounds checked against a named partner).
    public var except: [String] = []
    /// The themes it applies to, when not every theme of its palette has its tokens.
    public var themes: [String]?
    /// The palette it applies to, when the read holds several.
    public var palettes: [String]?
    /// Why it was proposed, in words (written as the check's `description`): for a pair read
    /// from usage, the first place it is drawn (`file:line: what`) and how many more.
    public var description: String
    /// How sure the proposal is (written as `x-confidence`): seen in usage, by a convention, or
    /// guessed from the names.
    public var confidence: UsageConfidence = .name
    /// What proposed it (written as `x-proposedBy`): the usage reader, the convention, or the
    /// token names.
    public var proposedBy: String = ChecksProposal.byNames
}

/// What `contrast init` proposes for one palette, and what it saw.
public struct PaletteProposal: Sendable {
    public var palette: String
    public var file: String
    public var format: String?
    public var themes: [String]
    /// Checks the palette already has (its own, or a sidecar's).
    public var ownChecks: Int
    public var checks: [ProposedCheck]
    /// How many token names read as each role, and as disabled.
    public var counts: [String: Int]
    /// What was guessed and why, and what was not.
    public var notes: [String]
    /// Themes no proposed check (and no check of the palette's own) measures.
    public var uncoveredThemes: [String]
    /// Pairs and rules found but not proposed, by the never-list reason.
    public var leftOut: [NeverReason: Int] = [:]
    /// The first few pairs left out for each reason (`fg on bg`), for the notes.
    public var leftOutExamples: [NeverReason: [String]] = [:]
}

/// The checks `contrast init` proposes for the palettes of a project: rule checks from what the
/// token names say (``TokenNameRole``), checks of named partners (`on-primary` on `primary`,
/// `card-foreground` on `card`), and, for a palette of numbered scales only (`red-50` …
/// `red-950`), each scale's last step on its first. Every proposed check matches at least one
/// pair in each theme it applies to (themes where its tokens are missing are left out with
/// `themes`), so an audit with them never reports an empty rule or an unknown token.
public struct ChecksProposal: Sendable {
    public var palettes: [PaletteProposal]
    /// What the usage sources held (empty when none was read).
    public var usage = UsageScan()
    /// Distinct pairs the usage readers found whose tokens no palette read has (both in one
    /// theme), and the first few of them.
    public var unmatchedPairs = 0
    public var unmatchedSamples: [String] = []
    /// Sources read that hold no color token (read for their usage only).
    public var withoutTokens: [String] = []

    public init(palettes: [PaletteProposal]) {
        self.palettes = palettes
    }

    /// `x-proposedBy` of a guess from the token names, and of the named-partner conventions.
    public static let byNames = "token names (a guess)"
    public static let byScales = "numbered scales (a guess)"
    public static let byPartnerNames = "naming convention: on-X and X-foreground on X"

    /// One pair of the usage sources as proposed: the best-confidence sighting (the first of
    /// those), and how many places draw it.
    struct UsageGroup {
        var found: UsageScan.Found
        var places: Int
        /// The themes the places draw the pair in: nil when some place draws it in every theme
        /// (``UsagePair/themes``), else the themes any of them names (a Tailwind `dark:` pair).
        var themes: [String]?
    }

    /// The usage pairs, one per foreground, background and usage, best confidence first (in
    /// walk order within a confidence).
    static func grouped(_ pairs: [UsageScan.Found]) -> [UsageGroup] {
        var groups: [UsageGroup] = []
        var index: [String: Int] = [:]
        for found in pairs {
            let key = "\(found.pair.foreground)\u{0}\(found.pair.background)\u{0}\(found.pair.usage.name)"
            if let i = index[key] {
                groups[i].places += 1
                if found.pair.confidence < groups[i].found.pair.confidence { groups[i].found = found }
                if let known = groups[i].themes {
                    groups[i].themes = found.pair.themes.map { known + $0.filter { !known.contains($0) } }
                }
            } else {
                index[key] = groups.count
                groups.append(UsageGroup(found: found, places: 1, themes: found.pair.themes))
            }
        }
        // A stable sort by confidence: walk order within each.
        return groups.enumerated().sorted { ($0.element.found.pair.confidence, $0.offset) < ($1.element.found.pair.confidence, $1.offset) }.map(\.element)
    }

    /// Proposes checks for each readable palette of `loaded` (palettes that could not be read
    /// are left out: the caller reports their problems), from the pairs `usage` found first,
    /// then by convention, then from the names for the tokens neither measures.
    public static func propose(for loaded: [LoadedPalette], usage: UsageScan = UsageScan()) -> ChecksProposal {
        let readable = loaded.compactMap(\.palette)
        let scoped = readable.count > 1
        let groups = grouped(usage.pairs)
        var matched = [Bool](repeating: false, count: groups.count)
        var proposals = readable.map { palette in
            PaletteProposer(palette: palette).propose(scoped: scoped, usage: groups, matched: &matched)
        }
        // Ids are unique over the document.
        var seen: [String: Int] = [:]
        for p in proposals.indices {
            for c in proposals[p].checks.indices {
                let id = proposals[p].checks[c].id
                seen[id, default: 0] += 1
                if seen[id, default: 0] > 1 { proposals[p].checks[c].id = "\(id) #\(seen[id, default: 0])" }
            }
        }
        var proposal = ChecksProposal(palettes: proposals)
        proposal.usage = usage
        // A source with no token at all (a component stylesheet named for its usage) is said to
        // be one, beside its palette's note.
        proposal.withoutTokens = readable.filter { !$0.themes.contains { !$0.tokens.isEmpty } }.map { $0.file ?? $0.name }
        for (group, found) in zip(groups, matched) where !found {
            proposal.unmatchedPairs += 1
            if proposal.unmatchedSamples.count < 5 { proposal.unmatchedSamples.append("\(group.found.pair.foreground) on \(group.found.pair.background) (\(group.found.pair.evidence.text.excerpt(120)))") }
        }
        return proposal
    }

    /// Every check, best confidence first (usage, then conventions, then guesses from the names),
    /// palette by palette within each.
    public var checks: [ProposedCheck] {
        let all = palettes.flatMap(\.checks)
        return all.enumerated().sorted { ($0.element.confidence, $0.offset) < ($1.element.confidence, $1.offset) }.map(\.element)
    }

    /// How many checks of each confidence are proposed.
    public var byConfidence: [UsageConfidence: Int] {
        var counts: [UsageConfidence: Int] = [:]
        for proposal in palettes { for check in proposal.checks { counts[check.confidence, default: 0] += 1 } }
        return counts
    }

    /// Pairs and rules left out, by reason, over every palette.
    public var leftOut: [NeverReason: Int] {
        var counts: [NeverReason: Int] = [:]
        for proposal in palettes { for (reason, count) in proposal.leftOut { counts[reason, default: 0] += count } }
        return counts
    }
}

/// The names of a palette for the proposal's lookups: by glob through the prefixes that end at a
/// separator (a glob's names all start with its text before the first `*` or `?`, cut back to a
/// separator), each glob's names found once, and each theme's names as a set.
final class NameIndex: @unchecked Sendable {
    let names: [String]
    let nameSet: Set<String>
    let themes: [Set<String>]
    private var byPrefix: [Substring: [Int]] = [:]
    private var matched: [String: [String]] = [:]
    private var sides: [String: [[String]]] = [:]

    init(names: [String], themes: [[String]]) {
        self.names = names
        nameSet = Set(names)
        self.themes = themes.map(Set.init)
        for (i, name) in names.enumerated() {
            var index = name.startIndex
            while index != name.endIndex {
                let next = name.index(after: index)
                if NameIndex.isSeparator(name[index]) { byPrefix[name[..<next], default: []].append(i) }
                index = next
            }
        }
    }

    static func isSeparator(_ c: Character) -> Bool { c == "." || c == "/" || c == "-" || c == "_" }

    func matches(_ name: String, _ glob: String) -> Bool { CheckRule.isPattern(glob) ? CheckRule.matches(name, glob) : name == glob }

    /// The names `glob` matches, in name order (a name that is no glob matches itself).
    func matching(_ glob: String) -> [String] {
        if let known = matched[glob] { return known }
        let found: [String]
        if !CheckRule.isPattern(glob) {
            found = nameSet.contains(glob) ? [glob] : []
        } else {
            let literal = glob.prefix { $0 != "*" && $0 != "?" }
            let cut = literal.lastIndex(where: NameIndex.isSeparator).map { literal[...$0] } ?? ""
            let candidates = cut.isEmpty ? Array(names.indices) : byPrefix[Substring(cut)] ?? []
            found = candidates.map { names[$0] }.filter { CheckRule.matches($0, glob) }
        }
        matched[glob] = found
        return found
    }

    /// For each theme, the first two of its names that a rule's side `glob` pairs, `except`
    /// left out (as ``CheckRule/side(_:tokens:except:)`` does, a side that is a name must be
    /// a token of the theme).
    func firstTwo(_ glob: String, except: [String]) -> [[String]] {
        let key = ([glob] + except).joined(separator: "\u{0}")
        if let known = sides[key] { return known }
        let candidates = matching(glob)
        let globs = except.filter(CheckRule.isPattern), literal = Set(except.filter { !CheckRule.isPattern($0) })
        let isPattern = CheckRule.isPattern(glob)
        func left(_ name: String) -> Bool {
            isPattern && (literal.contains(name) || globs.contains { CheckRule.matches(name, $0) })
        }
        var out: [[String]] = []
        for theme in themes {
            var two: [String] = []
            for name in candidates where theme.contains(name) && !left(name) {
                two.append(name)
                if two.count == 2 { break }
            }
            out.append(two)
        }
        sides[key] = out
        return out
    }
}
