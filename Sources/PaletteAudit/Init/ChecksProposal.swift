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

/// The proposal for one palette.
struct PaletteProposer {
    let palette: Palette
    /// Each theme's token names, in theme order.
    let themeNames: [(theme: String, names: [String])]
    /// Every name of every theme, in first-seen order.
    let allNames: [String]
    let roles: [String: TokenNameRole]
    /// Tokens that did not resolve to a color in some theme (left out there).
    let unresolved: Set<String>
    /// Tokens whose color is translucent in some theme that names no backdrop (or whose
    /// backdrop does not resolve): as a background there, its contrast is a range over every
    /// surface it could be drawn on.
    let translucent: Set<String>
    /// The names by glob, each theme's names as a set, and what was matched already: every
    /// lookup the proposal makes goes through it, so its work grows with the names, not with
    /// names × names (30,000 tokens took 59 s).
    let index: NameIndex

    init(palette: Palette) {
        self.palette = palette
        // Only tokens whose color the audit can tell are paired: a check on a token it cannot
        // resolve (a property it cannot apply, an overlay's attribute) would be a problem.
        var unresolved: Set<String> = [], translucent: Set<String> = []
        themeNames = palette.themes.map { theme in
            var resolver = ThemeResolver(palette: palette, theme: theme)
            let overUnknown = Auditor.distinctSurface(&resolver) == nil  // the theme's backdrop, when it has one
            let names = resolver.tokenNames.filter { name in
                if case .success(let resolved) = resolver.resolve(name) {
                    if overUnknown && !resolved.color.isOpaque { translucent.insert(name) }
                    return true
                }
                unresolved.insert(name)
                return false
            }
            return (theme.name, names)
        }
        self.unresolved = unresolved
        self.translucent = translucent
        var seen: Set<String> = []
        var all: [String] = []
        for (_, names) in themeNames {
            for name in names where seen.insert(name).inserted { all.append(name) }
        }
        allNames = all
        roles = Dictionary(uniqueKeysWithValues: all.map { ($0, TokenNameRole(name: $0)) })
        index = NameIndex(names: all, themes: themeNames.map(\.names))
    }

    /// Color names: a name whose variant is one (`bgColor.black`) names a hue, not a surface.
    static let hueWords: Set<String> = ["black", "white", "gray", "grey", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "cyan", "teal", "indigo", "violet", "magenta"]

    /// The most pairs a component-scoped non-text rule is proposed as, pair by pair.
    static let maximumExpandedRule = 16

    /// The largest number of explicit scale checks proposed for one palette.
    static let maximumScaleChecks = 200

    func propose(scoped: Bool, usage: [ChecksProposal.UsageGroup] = [], matched: inout [Bool]) -> PaletteProposal {
        var notes: [String] = []
        var counts: [String: Int] = [:]
        for role in roles.values {
            if let r = role.role { counts[r.rawValue, default: 0] += 1 }
            if role.disabled { counts["disabled", default: 0] += 1 }
        }
        if !unresolved.isEmpty {
            notes.append("\(unresolved.count) token\(unresolved.count == 1 ? " has" : "s have") no color the audit can tell in some theme (\(unresolved.sorted().prefix(3).joined(separator: ", "))\(unresolved.count > 3 ? ", …" : "")) and are paired only where they have one; `contrast audit` says why")
            // Properties the tool cannot apply are the usual cause (a plugin's metadata on every
            // token): name them, and how to declare them harmless.
            var properties: [String: Int] = [:]
            for theme in palette.themes {
                for token in theme.tokens where unresolved.contains(token.name) {
                    for property in Set(token.unappliedProperties.map(\.name)) where !palette.ignoredProperties.contains(property) {
                        properties[property, default: 0] += 1
                    }
                }
            }
            if !properties.isEmpty {
                let names = properties.keys.sorted()
                notes.append("tokens carry properties this tool cannot apply (\(names.map { "\"\($0)\"" }.joined(separator: ", "))); if they do not change the color, run init again with \(names.map { "--ignore-property \($0)" }.joined(separator: " "))")
            }
        }
        let disabledGlobs = Array(Set(roles.values.compactMap { $0.disabledWord.map { "*\($0)*" } })).sorted()
        if !disabledGlobs.isEmpty {
            notes.append("\(counts["disabled"] ?? 0) disabled tokens are left out of every rule (\(disabledGlobs.joined(separator: ", "))): WCAG exempts the text of inactive components (SC 1.4.3)")
        }

        var checks: [ProposedCheck] = []
        var leftOut: [NeverReason: Int] = [:], leftOutExamples: [NeverReason: [String]] = [:]
        func leave(_ reason: NeverReason, _ what: String) {
            leftOut[reason, default: 0] += 1
            if leftOutExamples[reason, default: []].count < 3 { leftOutExamples[reason, default: []].append(what) }
        }
        // One check per foreground, background and usage: the first proposal of it wins (usage
        // before conventions before names).
        var proposedKeys: Set<String> = []
        // The tokens the usage and convention checks measure: the names guess only for the rest.
        var measured: Set<String> = []

        // Named partners (on-X, X-foreground), found first: a fill with its own text token
        // takes no other text.
        var partnerOf: [(name: String, partner: String, word: String)] = []
        var partneredSet: Set<String> = []
        var ownText: [String: Set<String>] = [:]
        for name in allNames {
            guard let role = roles[name], role.role == .foreground, !role.disabled, let partner = partner(of: name, role: role) else { continue }
            guard !themesHaving([name, partner]).isEmpty else { continue }
            partnerOf.append((name, partner, Self.sitsOnRange(of: name) != nil ? "on" : role.word ?? ""))
            partneredSet.insert(name)
            ownText[partner, default: []].insert(name)
        }
        // An on-X whose X is a variant (`fgColor.onEmphasis` on `bgColor.emphasis`) sits on
        // that variant of every family named alike (`bgColor.accent.emphasis`,
        // `display.blue.bgColor.emphasis`): the same role segment, the same last word, and no
        // text of their own.
        let firstPass = ownText
        var variants: [String: [String]] = [:]
        for name in allNames where roles[name]?.role == .background && !(roles[name]?.disabled ?? true) && firstPass[name] == nil {
            guard let segment = roleSegment(of: name), let last = tailWords(of: name).last else { continue }
            variants[segment + "\u{0}" + last, default: []].append(name)
        }
        for (name, partner, word) in partnerOf where word == "on" {
            guard let segment = roleSegment(of: partner), let tail = tailWords(of: partner).first, tailWords(of: partner).count == 1,
                  let onRange = Self.sitsOnRange(of: name) else { continue }
            let after = TokenNameRole.words(of: name).filter { $0.range.lowerBound > onRange.lowerBound }
            guard after.count == 1, after[0].text.lowercased() == tail else { continue }
            for other in variants[segment + "\u{0}" + tail] ?? [] where other != partner && !themesHaving([name, other]).isEmpty {
                partnerOf.append((name, other, "on"))
                ownText[other, default: []].insert(name)
            }
        }
        let judge = PairJudge(palette: palette, ownText: ownText)

        /// Proposes an explicit pair unless it is one already or on the never list.
        func offer(_ foreground: String, _ background: String, _ usage: ContrastUsage, confidence: UsageConfidence, by proposedBy: String,
                   description: String, onlyIn drawnIn: [String]? = nil) -> Bool {
            let key = "\(foreground)\u{0}\(background)\u{0}\(usage.name)"
            guard !proposedKeys.contains(key) else { return true }
            switch judge.judge(foreground: foreground, background: background, usage: usage) {
            case .notInPalette: return false
            case .never(let reason):
                proposedKeys.insert(key)
                leave(reason, "\(foreground) on \(background)")
                return true
            case .propose(var themes):
                // A pair the usage draws in some themes only (`dark:`) is checked there only.
                if let drawnIn {
                    themes = (themes ?? themeNames.map(\.theme)).filter(drawnIn.contains)
                    if themes?.isEmpty == true { return false }
                    if themes?.count == themeNames.count { themes = nil }
                }
                proposedKeys.insert(key)
                var check = ProposedCheck(id: "\(foreground) on \(background)" + (usage == .text ? "" : " (\(usage.name))"), foreground: foreground,
                                          background: background, usage: usage, description: description)
                check.themes = themes
                check.confidence = confidence
                check.proposedBy = proposedBy
                checks.append(check)
                if confidence < .name { measured.formUnion([foreground, background]) }
                return true
            }
        }

        // 1. What the usage sources draw, then what their conventions say, best first.
        var fromUsage = 0
        for (g, group) in usage.enumerated() where group.found.pair.confidence < .name {
            let pair = group.found.pair
            let more = group.places > 1 ? " and \(group.places - 1) more place\(group.places == 2 ? "" : "s")" : ""
            if offer(pair.foreground, pair.background, pair.usage, confidence: pair.confidence, by: group.found.reader,
                     description: pair.evidence.text + more, onlyIn: group.themes) {
                matched[g] = true
                fromUsage += 1
            }
        }
        if fromUsage > 0 {
            notes.append("\(fromUsage) pair\(fromUsage == 1 ? "" : "s") of this palette's tokens found in the usage sources (each once, with the first place it is drawn)")
        }
        // 2. The palette's own naming conventions: on-X and X-foreground on X.
        for (name, partner, word) in partnerOf {
            _ = offer(name, partner, .text, confidence: .convention, by: ChecksProposal.byPartnerNames,
                      description: "proposed by contrast init: \"\(name)\" is named for use on \"\(partner)\" (its \"\(word)\" word), so it is its text (a naming convention)")
        }
        if !partnerOf.isEmpty {
            notes.append("\(partnerOf.count) foreground\(partnerOf.count == 1 ? " is" : "s are") named after the background \(partnerOf.count == 1 ? "it sits" : "they sit") on (on-X, X-foreground): each is checked on that background only")
        }
        // What a reader proposes from names alone, after the conventions.
        for (g, group) in usage.enumerated() where group.found.pair.confidence == .name {
            let pair = group.found.pair
            if offer(pair.foreground, pair.background, pair.usage, confidence: .name, by: group.found.reader, description: "a guess: " + pair.evidence.text) {
                matched[g] = true
            }
        }
        // A foreground that says what it sits on (on-X), where no background is named X, is
        // meant for a surface this palette does not name: checked on every background it would
        // fail where it is never used. It is named in a note instead.
        let unpartnered = allNames.filter { name in
            guard !partneredSet.contains(name), !measured.contains(name), let role = roles[name], role.role == .foreground, !role.disabled else { return false }
            return Self.sitsOnRange(of: name) != nil
        }
        if !unpartnered.isEmpty {
            let shown = unpartnered.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + (unpartnered.count > 5 ? " and \(unpartnered.count - 5) more" : "")
            notes.append("\(unpartnered.count) foreground\(unpartnered.count == 1 ? " says" : "s say") what \(unpartnered.count == 1 ? "it sits" : "they sit") on (on-X) but no background token is named for X (\(shown)): not checked; add a check for each on the surface it is used on")
        }

        // 3. Rules from role words, a guess, over the tokens nothing above measures: a
        // measured token, a fully transparent one and a background translucent over nothing
        // known are left out of them (`except`).
        let unpartneredSet = Set(unpartnered)
        let guessedOut = measured
        var leftOutOfRules = 0
        // In each theme, the tokens no guess may pair there: fully transparent ones, and
        // backgrounds translucent over nothing known. A rule leaves them out of the themes
        // where they are so (one rule per set of themes alike), not of every theme.
        let neverIn: [Set<String>] = judge.tokens.themes.map { theme in
            Set(theme.colors.compactMap { name, color in
                color.alpha <= 0 || (color.alpha < 1 && !theme.hasBackdrop && roles[name]?.role == .background) ? name : nil
            })
        }
        if !measured.isEmpty {
            let count = measured.filter { roles[$0] != nil }.count
            notes.append("\(count) token\(count == 1 ? " is" : "s are") measured by usage or convention checks and left out of the guesses from names")
        }
        // (Measured names make globs too: a rule leaves them out of its pairs, not the globs.)
        let foregrounds = patterns(for: .foreground, leavingOut: partneredSet.union(unpartneredSet))
        let backgrounds = patterns(for: .background)
        let nonText = patterns(for: .nonText)
        if backgrounds.isEmpty && measured.isEmpty && (counts["foreground"] ?? 0) + (counts["non-text"] ?? 0) > 0 {
            notes.append("no token name says it is a background (background, bg, surface, canvas, page): no text rule could be proposed")
        }
        // Which disabled globs each glob's names meet, and which named foregrounds it matches,
        // found once per glob (not once per check over every name).
        var backgroundsByScope: [String: [Pattern]] = [:]
        for bg in backgrounds { backgroundsByScope[bg.scope, default: []].append(bg) }
        var disabledMet: [String: Set<Int>] = [:]
        func disabledGlobsMet(by glob: String) -> Set<Int> {
            if let known = disabledMet[glob] { return known }
            var met: Set<Int> = []
            for name in index.matching(glob) {
                for (d, disabled) in disabledGlobs.enumerated() where !met.contains(d) && index.matches(name, disabled) { met.insert(d) }
                if met.count == disabledGlobs.count { break }
            }
            disabledMet[glob] = met
            return met
        }
        var namedForegrounds: [String: [String]] = [:]
        func namedForegroundsMatching(_ glob: String) -> [String] {
            if let known = namedForegrounds[glob] { return known }
            let matched = index.matching(glob)
            let found = matched.filter(partneredSet.contains) + matched.filter(unpartneredSet.contains)
            namedForegrounds[glob] = found
            return found
        }
        var guessedOutMatching: [String: [String]] = [:]
        func guessedOutNames(_ glob: String) -> [String] {
            if let known = guessedOutMatching[glob] { return known }
            let found = index.matching(glob).filter(guessedOut.contains)
            guessedOutMatching[glob] = found
            return found
        }
        // The page's surfaces: the neutral backgrounds at the top scope (no qualifier beside
        // their variant, no text of their own) that usage draws on, most foregrounds first.
        let pageSurfaces: [String] = {
            guard let top = backgroundsByScope.keys.min(by: { ($0.count, $0) < ($1.count, $1) }), let patterns = backgroundsByScope[top] else { return [] }
            var drawnUnder: [String: Set<String>] = [:]
            for group in usage where group.found.pair.confidence < .name {
                // (Only what is measured: a pair the never list keeps out says nothing of a surface.)
                let pair = group.found.pair
                guard case .propose = judge.judge(foreground: pair.foreground, background: pair.background, usage: pair.usage) else { continue }
                drawnUnder[pair.background, default: []].insert(pair.foreground)
            }
            var found: [(String, Int)] = []
            for pattern in patterns {
                for name in index.matching(pattern.glob) where roles[name]?.role == .background && !(roles[name]?.disabled ?? true)
                    && tailWords(of: name).count <= 1 && judge.ownText[name] == nil {
                    if let under = drawnUnder[name], !found.contains(where: { $0.0 == name }) { found.append((name, under.count)) }
                }
            }
            return found.sorted { ($0.1, $1.0) > ($1.1, $0.0) }.prefix(3).map(\.0)
        }()
        /// Proposes the rule `fgGlob` on `bgGlob` (either side a glob of `fg` or `bg`, or one of
        /// their names), leaving out disabled names, named foregrounds, `extra`, and, with
        /// `exceptMeasured`, the names a usage or convention check measures.
        func rule(_ fgGlob: String, _ bgGlob: String, fg: Pattern, bg: Pattern, _ usage: ContrastUsage, exceptMeasured: Bool, extra: [String] = [],
                  why: String? = nil) {
            let met = disabledGlobsMet(by: fgGlob).union(disabledGlobsMet(by: bgGlob))
            var except = disabledGlobs.indices.filter(met.contains).map { disabledGlobs[$0] }
            if usage == .text, CheckRule.isPattern(fgGlob) {
                except += namedForegroundsMatching(fgGlob)
            }
            var seen = Set(except)
            for name in extra where seen.insert(name).inserted { except.append(name) }
            if exceptMeasured {
                for name in guessedOutNames(fgGlob) + guessedOutNames(bgGlob) where seen.insert(name).inserted { except.append(name) }
            }
            // The themes, grouped by what of the rule's names is never paired there.
            var groups: [(never: [String], themes: Set<String>)] = []
            var groupOf: [[String]: Int] = [:]
            for (t, theme) in themeNames.enumerated() {
                let never = neverIn[t].filter { !seen.contains($0) && (index.matches($0, fgGlob) || index.matches($0, bgGlob)) }.sorted()
                if let g = groupOf[never] { groups[g].themes.insert(theme.theme) } else {
                    groupOf[never] = groups.count
                    groups.append((never, [theme.theme]))
                }
            }
            for group in groups {
                // A side that is one name, never paired in these themes: no rule here.
                if (!CheckRule.isPattern(fgGlob) && group.never.contains(fgGlob)) || (!CheckRule.isPattern(bgGlob) && group.never.contains(bgGlob)) { continue }
                let groupExcept = except + group.never
                let themes = themesMatching(fgGlob, bgGlob, except: groupExcept).filter(group.themes.contains)
                guard !themes.isEmpty else { continue }
                if !group.never.isEmpty {
                    leftOutOfRules += group.never.count
                }
                let what = usage == .text ? "text" : "a border or icon (non-text, SC 1.4.11)"
                let scopeWords = fg.scope == bg.scope ? (fg.scope.isEmpty ? "" : ", both under \"\(fg.scope)\"")
                    : ", the nearest backgrounds above \"\(fg.scope)\""
                let id = "\(fgGlob) on \(bgGlob)" + (groups.count > 1 ? " in \(themes[0])\(themes.count > 1 ? " and \(themes.count - 1) more" : "")" : "")
                var check = ProposedCheck(id: id, foreground: fgGlob, background: bgGlob, usage: usage, except: groupExcept,
                                          description: "a guess from the names: names with \"\(fg.word)\" read as \(what), names with \"\(bg.word)\" as backgrounds\(scopeWords)"
                                            + (why.map { "; \($0)" } ?? "")
                                            + (group.never.isEmpty ? "" : "; \(group.never.count) transparent or translucent color\(group.never.count == 1 ? "" : "s") left out in \(themes.count == 1 ? "this theme" : "these themes")"))
                check.themes = themes.count == themeNames.count ? nil : themes
                checks.append(check)
            }
        }
        func proposed(_ foreground: String, _ background: String, _ usage: ContrastUsage) -> Bool {
            proposedKeys.contains("\(foreground)\u{0}\(background)\u{0}\(usage.name)")
        }
        /// A glob rule split by what its names say, when they say it: a background family whose
        /// names carry a qualifier before their variant (`bgColor.accent.muted`: a status, a
        /// hue) beside names with none (`bgColor.muted`, `bgColor.inset`: the neutral surfaces).
        /// Text and borders are drawn on the neutral surfaces; a foreground named for a
        /// qualifier (`fgColor.accent`) is drawn on its own qualifier's fills too, not on
        /// another's (red text on a green tint is no design); one named for none
        /// (`fgColor.default`) on every fill. Names usage already pairs stay in these rules:
        /// only the pairs proposed already are left out (a rule with a single name on one side
        /// leaves out exactly those). Fills with their own text (on-X) take no other text.
        /// Same-scope names that each end in a state word (`label.blue.fgColor.rest`,
        /// `label.blue.bgColor.hover`) are paired state by state.
        func splitRule(_ fg: Pattern, _ bg: Pattern, _ usage: ContrastUsage) -> Bool {
            let fgs = index.matching(fg.glob).filter { !(roles[$0]?.disabled ?? true) && !partneredSet.contains($0) && !unpartneredSet.contains($0) }
            let bgs = index.matching(bg.glob).filter { !(roles[$0]?.disabled ?? true) && roles[$0]?.role == .background }
            guard !fgs.isEmpty, !bgs.isEmpty else { return false }
            // State by state, within one component.
            if usage == .text, !fg.scope.isEmpty, fg.scope == bg.scope {
                let fgStates = fgs.map(PairJudge.state(of:)), bgStates = bgs.map(PairJudge.state(of:))
                if !fgStates.contains(nil), !bgStates.contains(nil), fgs.count * bgs.count <= 4 * PaletteProposer.maximumExpandedRule,
                   !Set(fgStates).isDisjoint(with: Set(bgStates)) {
                    for (f, fs) in zip(fgs, fgStates) {
                        for (b, bs) in zip(bgs, bgStates) where fs == bs {
                            // A fill of that state that is fully transparent shows what is
                            // around the component: its text is on the page's surfaces.
                            if case .never(.transparent) = judge.judge(foreground: f, background: b, usage: .text) {
                                for surface in pageSurfaces {
                                    _ = offer(f, surface, .text, confidence: .name, by: ChecksProposal.byNames,
                                              description: "a guess from the names: \"\(b)\" is transparent, so \"\(f)\" is seen on the page's surface \"\(surface)\"")
                                }
                            }
                            _ = offer(f, b, .text, confidence: .name, by: ChecksProposal.byNames,
                                      description: "a guess from the names: \"\(fg.word)\" reads as text, \"\(bg.word)\" as a background, both under \"\(fg.scope)\" and both for its \"\(fs ?? "")\" state")
                        }
                    }
                    return true
                }
            }
            // Only a family written as groups (`bgColor-*`, `bgColor.*`): the words after its
            // role segment are its qualifier and variant. A camel-case name is one group.
            guard CheckRule.isPattern(fg.glob), CheckRule.isPattern(bg.glob), bg.glob.filter({ $0 == "*" || $0 == "?" }).count == 1,
                  bg.glob.hasSuffix("*"), let before = bg.glob.dropLast().last, NameIndex.isSeparator(before) else { return false }
            // A color's name (`bgColor.black`, `fgColor.white`) is a hue, not a neutral surface.
            let bgTails = bgs.map { name in tailWords(of: name).count == 1 && PaletteProposer.hueWords.contains(tailWords(of: name)[0]) ? ["", tailWords(of: name)[0]] : tailWords(of: name) }
            let qualifiers = Set(bgTails.compactMap { $0.count >= 2 ? $0[0] : nil })
            // (A fill with its own text is a fill, not a surface others are drawn on.)
            let neutral = zip(bgs, bgTails).filter { $0.1.count <= 1 && judge.ownText[$0.0] == nil }.map(\.0)
            guard !qualifiers.isEmpty, !neutral.isEmpty else { return false }
            let qualifierOf = Dictionary(zip(bgs, bgTails).map { ($0.0, $0.1.count >= 2 ? $0.1[0] : "") }, uniquingKeysWith: { a, _ in a })
            for surface in neutral {
                // (Leaving out the pairs proposed already, and a surface's own border: the never list.)
                let surfaceRole = TokenNameRole(name: surface)
                let own = usage == .nonText ? fgs.filter { PairJudge.isBorderOnOwnFill($0, TokenNameRole(name: $0), surface, surfaceRole) } : []
                rule(fg.glob, surface, fg: fg, bg: bg, usage, exceptMeasured: false, extra: fgs.filter { proposed($0, surface, usage) } + own,
                     why: "\"\(surface)\" is a neutral surface (no qualifier beside its variant)")
            }
            for f in fgs {
                let tail = tailWords(of: f)
                if tail.count == 1, PaletteProposer.hueWords.contains(tail[0]), !qualifiers.contains(tail[0]) {
                    continue  // a color by its name (`fgColor.white`): drawn where a check says
                } else if let q = tail.first(where: qualifiers.contains) {
                    for b in bgs where qualifierOf[b] == q {
                        let what = usage == .text ? "text" : "a border or icon (non-text, SC 1.4.11)"
                        _ = offer(f, b, usage, confidence: .name, by: ChecksProposal.byNames,
                                  description: "a guess from the names: \"\(fg.word)\" reads as \(what), \"\(bg.word)\" as a background, both named for \"\(q)\"")
                    }
                } else if usage == .text {
                    // (A border named for no qualifier is seen on the neutral surfaces only:
                    // a status fill has its status's border.)
                    rule(f, bg.glob, fg: fg, bg: bg, usage, exceptMeasured: false, extra: neutral + bgs.filter { proposed(f, $0, usage) },
                         why: "\"\(f)\" is named for no qualifier, so it may be drawn on every fill")
                }
            }
            return true
        }
        for (side, usage) in [(foregrounds, ContrastUsage.text), (nonText, ContrastUsage.nonText)] {
            for fg in side {
                let partners = backgroundsAtScope(of: fg, among: backgroundsByScope)
                if partners.isEmpty {
                    if !backgrounds.isEmpty { notes.append("\(fg.glob): no background at its scope or above it (\(fg.scope.isEmpty ? "the top" : fg.scope)); not checked") }
                    continue
                }
                for bg in partners {
                    // A component's border is seen against what is around the component:
                    // the page's surfaces, beside its own component's other fills.
                    if usage == .nonText, !fg.scope.isEmpty, fg.scope == bg.scope, PairJudge.borderWords.contains(fg.word.lowercased()),
                       bg.glob == partners.first?.glob {
                        for f in index.matching(fg.glob) where !(roles[f]?.disabled ?? true) {
                            for surface in pageSurfaces {
                                _ = offer(f, surface, .nonText, confidence: .name, by: ChecksProposal.byNames,
                                          description: "a guess from the names: \"\(fg.word)\" reads as a border of the component \"\(fg.scope)\", seen against the page's surface \"\(surface)\" (the neutral surface usage draws the most on)")
                            }
                        }
                    }
                    if !CheckRule.isPattern(fg.glob) && !CheckRule.isPattern(bg.glob) {
                        // A plain pair: judged as every explicit pair is.
                        let what = usage == .text ? "text" : "a border or icon (non-text, SC 1.4.11)"
                        _ = offer(fg.glob, bg.glob, usage, confidence: .name, by: ChecksProposal.byNames,
                                  description: "a guess from the names: \"\(fg.word)\" reads as \(what), \"\(bg.word)\" as a background")
                        continue
                    }
                    // A component's borders on the same component's fills (`display.blue.
                    // borderColor.*` on `display.blue.bgColor.*`) hold its border on its own fill
                    // beside its border on its other fills: a small rule like it is proposed pair
                    // by pair, each judged by the never list, which a glob cannot be.
                    if usage == .nonText, !fg.scope.isEmpty, fg.scope == bg.scope {
                        let fgs = index.matching(fg.glob).filter { fg.matched.contains($0) && !guessedOut.contains($0) }
                        // (Each pair is judged in every theme by `offer`.)
                        let bgs = index.matching(bg.glob).filter { bg.matched.contains($0) && !guessedOut.contains($0) }
                        if fgs.count * bgs.count <= PaletteProposer.maximumExpandedRule {
                            for f in fgs {
                                for b in bgs {
                                    _ = offer(f, b, .nonText, confidence: .name, by: ChecksProposal.byNames,
                                              description: "a guess from the names: \"\(fg.word)\" reads as a border or icon (non-text, SC 1.4.11), \"\(bg.word)\" as a background, both under \"\(fg.scope)\"")
                                }
                            }
                            continue
                        }
                        // Too many to list: one rule per border, leaving out its own fills
                        // (a glob over both sides would pair each border with its own fill).
                        let own = fgs.map { f in (f, bgs.filter { PairJudge.isBorderOnOwnFill(f, TokenNameRole(name: f), $0, TokenNameRole(name: $0)) }) }
                        if own.contains(where: { !$0.1.isEmpty }) {
                            for (f, fills) in own {
                                rule(f, bg.glob, fg: fg, bg: bg, .nonText, exceptMeasured: true, extra: fills,
                                     why: fills.isEmpty ? nil : "its own fill\(fills.count == 1 ? "" : "s") left out (a border on its own fill)")
                            }
                            continue
                        }
                    }
                    // Status text on its own status's fills, neutral text on every fill,
                    // every text on the neutral surfaces (see `splitRule`).
                    if splitRule(fg, bg, usage) { continue }
                    rule(fg.glob, bg.glob, fg: fg, bg: bg, usage, exceptMeasured: true)
                }
            }
        }

        if leftOutOfRules > 0 {
            notes.append("fully transparent colors, and backgrounds translucent over nothing known, are left out of the guessed rules in the themes where they are so (\(leftOutOfRules) in all, over the rules)")
        }

        // 3. Numbered scales, when no name says what it is for.
        var translucentScalesOnly = false
        if checks.isEmpty {
            let (scales, translucentScales) = scaleChecks()
            if !scales.isEmpty {
                notes.append("no token name says what it is for; \(scales.count) numbered scale\(scales.count == 1 ? "" : "s") found: each scale's last step is checked as text on its first (light tints and dark shades, as Tailwind, Radix and USWDS number them)")
            }
            if !translucentScales.isEmpty {
                let shown = translucentScales.prefix(3).joined(separator: ", ") + (translucentScales.count > 3 ? ", …" : "")
                notes.append("\(translucentScales.count) numbered scale\(translucentScales.count == 1 ? " has" : "s have") a translucent first step (\(shown)) and \(translucentScales.count == 1 ? "is" : "are") not checked: a translucent background's contrast depends on the surface beneath it, which the theme does not name (its worst case is often near 1:1). Write such checks by hand with the \"backdrop\" they are drawn on (docs/palette-format.md)")
            }
            for var check in scales {
                check.proposedBy = ChecksProposal.byScales
                check.description = "a guess from the names: " + check.description.replacing("proposed by contrast init: ", with: "")
                if case .never(let reason) = judge.judge(foreground: check.foreground, background: check.background, usage: check.usage) {
                    leave(reason, check.id)
                } else {
                    checks.append(check)
                }
            }
            translucentScalesOnly = scales.isEmpty && !translucentScales.isEmpty
        }
        if scoped {
            for i in checks.indices { checks[i].palettes = [palette.name] }
        }

        let covered = Set(checks.flatMap { $0.themes ?? themeNames.map(\.theme) })
        let ownChecks = palette.checks.count + palette.badges.count
        let uncovered = ownChecks > 0 ? [] : themeNames.map(\.theme).filter { !covered.contains($0) }
        if checks.isEmpty && !leftOut.isEmpty && ownChecks == 0 {
            notes.append("no checks proposed: every pair found for it is one never proposed (below, by reason)")
        } else if checks.isEmpty {
            notes.append(ownChecks > 0 ? "no checks proposed: the palette's own \(ownChecks) check\(ownChecks == 1 ? "" : "s") stay\(ownChecks == 1 ? "s" : "")" : translucentScalesOnly
                         ? "no checks proposed: no token name says what it is for, and its numbered scales are translucent. Write its checks by hand (docs/palette-format.md)"
                         : "no checks proposed: no token name says what it is for, and there are no numbered scales. Write its checks by hand (docs/palette-format.md)")
        } else if !uncovered.isEmpty {
            notes.append("no proposed check measures theme\(uncovered.count == 1 ? "" : "s") \(uncovered.joined(separator: ", "))")
        }
        return PaletteProposal(palette: palette.name, file: palette.file ?? "", format: palette.format, themes: themeNames.map(\.theme),
                               ownChecks: ownChecks, checks: checks, counts: counts, notes: notes, uncoveredThemes: uncovered,
                               leftOut: leftOut, leftOutExamples: leftOutExamples)
    }

    // MARK: Named partners

    /// The background `name` is named for: `on-primary` → `primary`, `colorOnPrimary` →
    /// `colorPrimary`, `card-foreground` → `card`, when that token exists and is no foreground.
    func partner(of name: String, role: TokenNameRole) -> String? {
        guard let word = role.word, let range = role.wordRange else { return nil }
        let bytes = Array(name.utf8)
        let separators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/")]
        var candidates: [String] = []
        switch word.lowercased() {
        case "on":
            // Drop the word and the separator after it.
            var end = range.upperBound
            if end < bytes.count, separators.contains(bytes[end]) { end += 1 }
            let rest = Array(bytes[end...])
            let head = Array(bytes[..<range.lowerBound])
            candidates.append(String(decoding: head + rest, as: UTF8.self))
            // `onPrimary` at the start: `primary`.
            if head.isEmpty, let first = rest.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") {
                candidates.append(String(decoding: [first + 32] + rest.dropFirst(), as: UTF8.self))
            }
        case "foreground", "fg":
            // (`fgColor.onEmphasis` is no X-fg: it is asked below what it sits on.)
            guard range.upperBound == bytes.count || separators.contains(bytes[range.upperBound]) else { break }
            var start = range.lowerBound
            if start > 0, separators.contains(bytes[start - 1]) { start -= 1 }
            guard start > 0 else { break }
            candidates.append(String(decoding: bytes[..<start] + bytes[range.upperBound...], as: UTF8.self))
        default:
            break
        }
        let found = candidates.first { candidate in
            candidate != name && roles[candidate].map { $0.role != .foreground && $0.role != .nonText && !$0.disabled } ?? false
        }
        return found ?? sitsOnPartner(of: name, role: role)
    }

    /// The background a foreground named by another word (`text`) sits on, when the name also
    /// says `on X`: X in the background group the name's role word stands for
    /// (`color.text.on-brand` → `color.background.brand`; Figma's `color.text.brand.on-brand` →
    /// `color.background.brand.default`), when that token exists and is no foreground.
    func sitsOnPartner(of name: String, role: TokenNameRole) -> String? {
        guard let onRange = Self.sitsOnRange(of: name), let roleRange = role.wordRange, roleRange.upperBound <= onRange.lowerBound,
              let roleWord = role.word, TokenNameRole.foregroundWords.contains(roleWord.lowercased()) else { return nil }
        let bytes = Array(name.utf8)
        var restStart = onRange.upperBound
        if restStart < bytes.count, !bytes[restStart].isLetterOrDigit { restStart += 1 }
        var headEnd = onRange.lowerBound
        // No separator before `On` (`textOnBrand`): camelCase, the rest joined as written.
        var separator = ""
        if headEnd > 0, !bytes[headEnd - 1].isLetterOrDigit {
            separator = String(UnicodeScalar(bytes[headEnd - 1]))
            headEnd -= 1
        }
        guard restStart < bytes.count, headEnd >= roleRange.upperBound else { return nil }
        let rest = String(decoding: bytes[restStart...], as: UTF8.self)
        let before = String(decoding: bytes[..<roleRange.lowerBound], as: UTF8.self)
        let after = String(decoding: bytes[roleRange.upperBound..<headEnd], as: UTF8.self)
        let capitalized = roleWord.first?.isUppercase == true
        var candidates: [String] = []
        for word in ["background", "bg", "surface"] {
            let head = before + (capitalized ? word.prefix(1).uppercased() + word.dropFirst() : word) + after
            candidates += [head + separator + rest, head + separator + rest + separator + "default"]
            // `fgColor.onEmphasis`: the word after a camel-case `on` is capitalized only by the join.
            if separator.isEmpty == false, let first = rest.first, first.isUppercase {
                candidates.append(head + separator + first.lowercased() + rest.dropFirst())
            }
            // `color.text.brand.on-brand`: the family is already in the group, so its default;
            // `color.text.brand.on-brand-secondary`: the family's `secondary`.
            let family = after.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).last.map(String.init)
            if let family, !separator.isEmpty {
                if rest == family { candidates += [head + separator + "default", head] }
                for joiner in ["-", "_"] where rest.hasPrefix(family + joiner) {
                    let variant = String(rest.dropFirst(family.count + 1))
                    candidates += [head + separator + variant]
                }
            }
        }
        return candidates.first { candidate in
            candidate != name && roles[candidate].map { $0.role == .background && !$0.disabled } ?? false
        }
    }

    /// Where an `on` word with a word after it is in `name` (`on-brand`, `onBrand`), if any.
    static func sitsOnRange(of name: String) -> Range<Int>? {
        let words = TokenNameRole.words(of: name)
        for (index, word) in words.enumerated() where word.text.lowercased() == "on" && index + 1 < words.count {
            return word.range
        }
        return nil
    }

    // MARK: Rules

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

private extension UInt8 {
    var isLetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self >= 0x80
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
