import ColorScience
import TokenSources

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

    func propose(scoped: Bool, usage: [ChecksProposal.UsageGroup] = [], matched: inout [Bool]) -> PaletteProposal {
        var (notes, counts, disabledGlobs) = readingNotes()

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
        let (partnerOf, partneredSet, ownText) = namedPartners()
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

        let ownChecks = palette.checks.count + palette.badges.count
        let (closing, uncovered) = closingNote(checks, ownChecks: ownChecks, anyLeftOut: !leftOut.isEmpty, translucentScalesOnly: translucentScalesOnly)
        if let closing { notes.append(closing) }
        return PaletteProposal(palette: palette.name, file: palette.file ?? "", format: palette.format, themes: themeNames.map(\.theme),
                               ownChecks: ownChecks, checks: checks, counts: counts, notes: notes, uncoveredThemes: uncovered,
                               leftOut: leftOut, leftOutExamples: leftOutExamples)
    }
}
