import ColorScience

/// Every theme's own tokens with the color each resolves to and where its value is written:
/// what an editor needs to show a palette's tokens and to change one in the document.
public struct TokenListing: Sendable, Codable {
    /// The palette's name; absent when the document is not a palette at all.
    public var palette: String?
    public var themes: [ThemeTokens]
    /// Problems that keep the palette from being audited (bad colors, unknown aliases…).
    public var problems: [PaletteProblem]
    /// What the reader found worth a look without failing the palette (a property it passed
    /// over, a hex that disagrees with its components).
    public var warnings: [PaletteProblem]
    /// How many color declarations the document held and how many were read, with the ones not
    /// read and why.
    public var ledger: ReadLedger.Summary?
    /// The color fields of the document's checks (`/checks/0/foreground`…) and badges
    /// (`/badges/0/text`, `background`, `border`), where a fix to a check's or a badge's own
    /// color goes; set by ``locate(in:palette:stylesheet:)``.
    public var checkColors: [Place]?
    /// The objects overrides of inherited tokens go in, once each (an override of a token a
    /// theme inherits goes where the fix's change points: `Palette.overridePointer`); set
    /// by ``locate(in:palette:stylesheet:)`` for JSON palettes.
    public var overrideParents: [OverrideParent]?
    /// Why the listing lists no themes although the palette has some: they would resolve more
    /// tokens than an audit may (``Palette/defaultMaximumThemeTokens``), or build more
    /// than the request's budget (``ReadBudget``) or its answer's ceiling (``OutputCeiling``)
    /// allow. Checked before each theme is built; not part of the listing's JSON.
    public private(set) var stopped: PaletteProblem?

    enum CodingKeys: String, CodingKey {
        case palette, themes, problems, warnings, ledger, checkColors, overrideParents
    }

    public struct ThemeTokens: Sendable, Codable {
        public var name: String
        /// The theme whose tokens this one inherits and overrides.
        public var extends: String?
        /// The tokens written in this theme, in document order.
        public var tokens: [Entry]
        /// Tokens this theme inherits without overriding them, and the theme that defines each.
        public var inherited: [Inherited]
    }

    public struct Entry: Sendable, Codable {
        public var name: String
        /// The value as written: a CSS color or an alias `{other.token}` (DTCG color objects as CSS).
        public var value: String
        /// The color it resolves to in this theme (`#rrggbb`, or `#rrggbbaa` when translucent);
        /// absent when it does not resolve (see `problem`).
        public var hex: String?
        /// For an alias, the token at the end of its chain: the one whose value is the color.
        public var colorFrom: String?
        /// Where the value is in the document: replace it there to change the token.
        public var pointer: JSONPointer
        public var description: String?
        public var assumed: String?
        /// The value described a color outside sRGB and was gamut-mapped to `hex`.
        public var outOfGamut: Bool?
        /// Why the value does not resolve.
        public var problem: String?
        /// Where the value is written in the document (replace those bytes to change the token);
        /// absent when it is written in another file. Set by ``locate(in:palette:stylesheet:)``.
        public var span: Span?
        /// For a DTCG color object written in the document, where each of its own values is
        /// written, so an edit replaces those bytes only and keeps the object's layout, key order
        /// and fields. Set by ``locate(in:palette:stylesheet:)``.
        public var members: ColorMembers?
    }

    /// The spans of a DTCG color object's members: `components` one per number (absent unless
    /// every component is a number), `alpha`, `hex` and `colorSpace` each when written once.
    public struct ColorMembers: Hashable, Sendable, Codable {
        public var colorSpace: Span?
        public var components: [Span]?
        public var alpha: Span?
        public var hex: Span?
    }

    public struct Inherited: Sendable, Codable {
        public var name: String
        public var from: String
        public var hex: String?
    }

    /// Where a value is written in the document the listing was made from: UTF-8 byte offsets
    /// `start..<end` (replacing exactly those bytes changes the value and nothing else), and
    /// the line and column of `start`, both from 1, the column in characters.
    public struct Span: Hashable, Sendable, Codable {
        public var start: Int
        public var end: Int
        public var line: Int
        public var column: Int

        public init(start: Int, end: Int, line: Int, column: Int) {
            self.start = start
            self.end = end
            self.line = line
            self.column = column
        }
    }

    /// A value of the document and where it is written.
    public struct Place: Sendable, Codable {
        /// What the color belongs to, by the id its result has in an audit: a check's id, or
        /// `badge:NAME` for a badge's colors.
        public var owner: String?
        public var pointer: JSONPointer
        public var span: Span
    }

    /// An object an override of an inherited token goes in: the deepest object on the way to
    /// the override's pointer that the document already has (`span` is the object's, from its
    /// `{` to its `}`); the members between it and the override's pointer are new.
    public struct OverrideParent: Sendable, Codable {
        public var pointer: JSONPointer
        public var span: Span
        /// Where a new member goes: the byte just past the last member's value, or just past
        /// the `{` of an empty object.
        public var membersEnd: Int
    }

    /// `ledger`: the audit's, when the palette was audited (else it is counted here).
    /// `shouldStop` is asked before each theme (a request's cancellation): once it says yes,
    /// the themes after it are left out, as a stopped audit leaves them out; the caller, which
    /// asked, answers that the work stopped.
    public init(_ palette: Palette?, problems: [PaletteProblem] = [], warnings: [PaletteProblem] = [], ledger: ReadLedger.Summary? = nil,
                shouldStop: (@Sendable () -> Bool)? = nil) {
        self.palette = palette?.name
        self.problems = problems.filter { !$0.isWarning }
        self.warnings = warnings + problems.filter(\.isWarning)
        self.ledger = ledger ?? palette.map { $0.ledger.completed(with: $0).summary }
        guard let palette else {
            themes = []
            return
        }
        // What the listing would resolve and write, counted before any theme is built.
        if let stop = Self.exceedsLimits(palette) {
            stopped = stop
            themes = []
            return
        }
        // Which theme writes each token, to say where an inherited one is defined (walking the
        // `extends` chain with sets keeps this linear in the number of tokens).
        let ownNames = Dictionary(palette.themes.map { ($0.name, Set($0.tokens.map(\.name))) }, uniquingKeysWith: { a, _ in a })
        let bases = Dictionary(palette.themes.map { ($0.name, $0.extends) }, uniquingKeysWith: { a, _ in a })
        func definer(of name: String, below theme: String) -> String {
            var current = bases[theme] ?? nil
            var seen: Set<String> = [theme]
            while let base = current, seen.insert(base).inserted {
                if ownNames[base]?.contains(name) == true { return base }
                current = bases[base] ?? nil
            }
            return ""
        }
        var built: [ThemeTokens] = []
        for theme in palette.themes {
            if let shouldStop, shouldStop() { break }
            let scope = ThemeResolver(palette: palette, theme: theme)
            // What the theme's listing holds is charged to the request before it is built.
            let ownText = theme.tokens.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + ($1.description?.utf8.count ?? 0) }
            let estimate = theme.tokens.count * (MemoryLayout<Entry>.stride + MemoryLayout<Resolution>.stride + 6 * 32) + ownText
                + max(0, scope.tokenNames.count - theme.tokens.count) * (MemoryLayout<Inherited>.stride + MemoryLayout<Resolution>.stride + 64)
            if let budget = ReadBudget.current, !budget.charge(estimate, for: "the token listing (theme '\(theme.name.excerpt(40))', \(scope.tokenNames.count) tokens)", file: palette.file) {
                stopped = budget.problem
                themes = []
                return
            }
            var full = scope
            let resolved = Self.resolveAll(scope.tokens, order: scope.tokenNames, scheme: scope.scheme) { name in
                // A value built from other tokens (`rgba({ink}, 0.5)`), with operations to apply
                // (Tokens Studio's modifiers) or with a property the tool cannot apply (then it
                // is unresolved) is the audit's resolver's to work out.
                switch full.resolve(name) {
                case .success(let color): .color(hex: color.hex, outOfGamut: color.outOfGamut == true, end: name, depth: 0)
                case .failure(let problem): .broken(problem.message, root: name)
                }
            }
            let own = ownNames[theme.name] ?? []
            let entries = theme.tokens.map { token -> Entry in
                var entry = Entry(name: token.name, value: token.value, pointer: token.pointer,
                                  description: token.description, assumed: token.assumed)
                switch resolved[token.name] {
                case .color(let hex, let outOfGamut, let end, _)?:
                    entry.hex = hex
                    entry.outOfGamut = outOfGamut ? true : nil
                    if end != token.name { entry.colorFrom = end }
                case .broken(let reason, let root)?:
                    entry.problem = Self.reason(token.name, reason, root: root)
                case nil:
                    break
                }
                return entry
            }
            let inherited = scope.tokenNames.filter { !own.contains($0) }.map { name -> Inherited in
                var hex: String?
                if case .color(let h, _, _, _)? = resolved[name] { hex = h }
                return Inherited(name: name, from: definer(of: name, below: theme.name), hex: hex)
            }
            built.append(ThemeTokens(name: theme.name, extends: theme.extends, tokens: entries, inherited: inherited))
        }
        themes = built
    }

    /// Why listing `palette` is refused before any theme is built, if it is: its themes resolve
    /// more tokens, added up, than an audit may (a thousand themes inheriting 4,000 tokens are 4
    /// million), or the listing's JSON, at the least, would be larger than the answer being
    /// built may be (``OutputCeiling/current``, which is then marked exceeded).
    static func exceedsLimits(_ palette: Palette) -> PaletteProblem? {
        let ceiling = OutputCeiling.current
        var names = 0, bytes = 0
        for (index, theme) in palette.themes.enumerated() {
            let listed = ThemeResolver.tokenNames(palette: palette, theme: theme)
            names += listed.count
            if names > Palette.defaultMaximumThemeTokens {
                return PaletteProblem(.limitExceeded, "the listing would resolve more than \(Palette.defaultMaximumThemeTokens) tokens across its themes (each theme lists the tokens it inherits again; \(index + 1) of \(palette.themes.count) themes reach \(names)); list fewer themes",
                                      file: palette.file)
            }
            guard let ceiling else { continue }
            // At the least, each token is `{"from":"…","name":"…"}` (21 bytes and its name), and
            // a token written in the theme adds its value and more keys.
            for name in listed { bytes += 21 + name.utf8.count }
            for token in theme.tokens { bytes += 14 + token.value.utf8.count }
            if !ceiling.allows(bytes) {
                return PaletteProblem(.limitExceeded, "the listing would be more than \(ByteCount.megabytes(bytes)) of JSON; the limit is \(ByteCount.megabytes(ceiling.limit))", file: palette.file)
            }
        }
        return nil
    }

    enum Resolution {
        /// `depth`: aliases followed to reach the color.
        case color(hex: String, outOfGamut: Bool, end: String, depth: Int)
        /// Why `root` (this token or one its chain reaches) does not resolve.
        case broken(String, root: String)
    }

    /// Resolves every token of a theme in time linear in the number of tokens: each alias chain
    /// is walked once and every token on it takes its answer from the next.
    /// `composite` resolves a token whose value is not a plain color or alias (references
    /// inside a value, operations to apply): the audit's resolver, so both agree.
    static func resolveAll(_ tokens: [String: Token], order: [String], scheme: ColorScheme? = nil,
                           composite: (String) -> Resolution = { .broken("it does not resolve", root: $0) }) -> [String: Resolution] {
        var memo: [String: Resolution] = [:]
        memo.reserveCapacity(tokens.count)
        for name in order where memo[name] == nil {
            var path: [String] = []
            var onPath: [String: Int] = [:]
            var current = name
            while memo[current] == nil {
                if let start = onPath[current] {
                    let cycle = path[start...] + [current]
                    let shown = cycle.count > 12 ? Array(cycle.prefix(6)) + ["…"] + Array(cycle.suffix(5)) : Array(cycle)
                    let reason = "alias cycle: \(shown.joined(separator: " → "))"
                    for member in path[start...] { memo[member] = .broken(reason, root: member) }
                    path.removeSubrange(start...)
                    break
                }
                guard let token = tokens[current] else { break }  // every name in `order` and every checked target is a token
                if let reason = token.unreadable {
                    memo[current] = .broken(reason, root: current)
                    break
                }
                if !token.unappliedProperties.isEmpty || !token.operations.isEmpty {
                    // Anywhere on a chain: the resolver decides (an unapplied property makes the
                    // token unresolved; operations apply to what the alias gives).
                    memo[current] = composite(current)
                    break
                }
                if let target = token.aliasTarget {
                    guard tokens[target] != nil else {
                        memo[current] = .broken("it aliases \"{\(target.prefix(80))}\", which names no token of this theme", root: current)
                        break
                    }
                    onPath[current] = path.count
                    path.append(current)
                    current = target
                    continue
                }
                if !Token.embeddedReferences(in: token.value).isEmpty {
                    memo[current] = composite(current)
                    break
                }
                do {
                    let parsed = try CSSColor.parse(token.value, scheme: scheme)
                    memo[current] = .color(hex: parsed.color.hex, outOfGamut: parsed.wasOutOfGamut, end: current, depth: 0)
                } catch {
                    memo[current] = .broken("\"\(error.input.prefix(80))\" is not a valid color: \(error.message) (at byte \(error.offset))", root: current)
                }
            }
            // Every token on the path takes its answer from the one it aliases.
            for (index, member) in path.enumerated().reversed() {
                let next = index + 1 < path.count ? path[index + 1] : current
                switch memo[next] {
                case .color(let hex, let outOfGamut, let end, let depth)?:
                    memo[member] = depth + 1 > ThemeResolver.maximumAliasDepth
                        ? .broken("its alias chain is longer than \(ThemeResolver.maximumAliasDepth) tokens", root: member)
                        : .color(hex: hex, outOfGamut: outOfGamut, end: end, depth: depth + 1)
                case .broken(let reason, let root)?:
                    memo[member] = .broken(reason, root: root)
                case nil:
                    memo[member] = .broken("it does not resolve", root: member)
                }
            }
        }
        return memo
    }

    /// Why a token does not resolve, in words.
    static func reason(_ token: String, _ reason: String, root: String) -> String {
        token == root ? reason : "it resolves through \"{\(root.prefix(80))}\", which does not resolve (see that token)"
    }
}
