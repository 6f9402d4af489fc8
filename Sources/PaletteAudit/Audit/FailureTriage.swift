import TokenSources

/// Where an audit's failures come from, for the person who has to fix them: the rules that fail
/// most (a glob rule's expansions together), the tokens that fail most (counted over every check
/// and theme they fail in), the failures per theme, and each failing check once, with the themes
/// it fails in alike. Built in one pass over the results; every list is sorted most first, ties by
/// first appearance, so two runs over the same audit read the same.
public struct FailureTriage: Sendable {
    /// A rule of a palette (or a single check) and how often its checks fail.
    public struct Rule: Sendable, Hashable {
        public var palette: String
        /// The check's id, or the rule's id for a glob rule's expansions
        /// (`text-on-surfaces` for `text-on-surfaces[fgColor.muted on bgColor.inset]`).
        public var name: String
        /// Failing results (a check failing in three themes counts three).
        public var failing: Int
        /// Results measured (passing or not).
        public var checks: Int
        public var themes: [String]
    }

    /// A token and how often a failing check uses it, as foreground or background.
    public struct Token: Sendable, Hashable {
        public var palette: String
        public var name: String
        public var failing: Int
        public var themes: [String]
    }

    /// A theme's failures.
    public struct Theme: Sendable, Hashable {
        public var palette: String
        public var theme: String
        public var failing: Int
        public var checks: Int
    }

    /// One failing check, measured alike in `themes` (the same colors, the same ratio): one row,
    /// not one per theme.
    public struct Failure: Sendable {
        public var palette: String
        public var themes: [String]
        public var result: CheckResult
    }

    public var rules: [Rule] = []
    public var tokens: [Token] = []
    public var themes: [Theme] = []
    public var failures: [Failure] = []
    /// Failing results in all (each theme's count).
    public var failing = 0
    /// How many themes each palette has (by name), to say "all 14 themes".
    public var themeCounts: [String: Int] = [:]

    /// Whether a result is one the triage counts: a failing verdict, or a claim the palette makes
    /// that the measurement refutes.
    public static func fails(_ result: CheckResult) -> Bool {
        result.verdict == .fail || result.claim?.supported == false
    }

    public init(_ report: AuditReport) {
        struct RuleKey: Hashable { var palette: Int; var name: String }
        struct TokenKey: Hashable { var palette: Int; var name: String }
        struct FailureKey: Hashable { var palette: Int; var id: String; var foreground: String; var background: String; var display: String }
        var ruleIndex: [RuleKey: Int] = [:], tokenIndex: [TokenKey: Int] = [:], failureIndex: [FailureKey: Int] = [:]
        for (p, palette) in report.palettes.enumerated() {
            themeCounts[palette.name] = max(themeCounts[palette.name] ?? 0, palette.themes.count)
            // Expansions of one rule share its place in the document: their ids are the rule's
            // id with the pair in brackets.
            var expanded = Set<JSONPointer>()
            for theme in palette.themes {
                var seen = Set<JSONPointer>()
                for result in theme.results where !seen.insert(result.pointer).inserted { expanded.insert(result.pointer) }
            }
            for theme in palette.themes {
                var themeFailing = 0
                for result in theme.results {
                    let failed = Self.fails(result)
                    let name = Self.ruleName(result, expanded: expanded.contains(result.pointer))
                    let key = RuleKey(palette: p, name: name)
                    let r: Int
                    if let known = ruleIndex[key] { r = known } else {
                        r = rules.count
                        ruleIndex[key] = r
                        rules.append(Rule(palette: palette.name, name: name, failing: 0, checks: 0, themes: []))
                    }
                    rules[r].checks += 1
                    guard failed else { continue }
                    themeFailing += 1
                    rules[r].failing += 1
                    if rules[r].themes.last != theme.name { rules[r].themes.append(theme.name) }
                    var used: [String] = []
                    for color in [result.foreground, result.background] {
                        let token = color.token ?? color.reference
                        if used.contains(token) { continue }
                        used.append(token)
                        let tk = TokenKey(palette: p, name: token)
                        let t: Int
                        if let known = tokenIndex[tk] { t = known } else {
                            t = tokens.count
                            tokenIndex[tk] = t
                            tokens.append(Token(palette: palette.name, name: token, failing: 0, themes: []))
                        }
                        tokens[t].failing += 1
                        if tokens[t].themes.last != theme.name { tokens[t].themes.append(theme.name) }
                    }
                    let fk = FailureKey(palette: p, id: result.id, foreground: result.foreground.hex, background: result.background.hex, display: result.display)
                    if let known = failureIndex[fk] {
                        failures[known].themes.append(theme.name)
                    } else {
                        failureIndex[fk] = failures.count
                        failures.append(Failure(palette: palette.name, themes: [theme.name], result: result))
                    }
                }
                failing += themeFailing
                themes.append(Theme(palette: palette.name, theme: theme.name, failing: themeFailing, checks: theme.results.count))
            }
        }
        rules = Self.mostFirst(rules.filter { $0.failing > 0 }, by: \.failing)
        tokens = Self.mostFirst(tokens, by: \.failing)
    }

    /// The rule a result comes from: the id before its bracketed pair when the check is a glob
    /// rule's expansion (several results per theme from one place in the document).
    static func ruleName(_ result: CheckResult, expanded: Bool) -> String {
        guard expanded, result.id.hasSuffix("]"), let open = result.id.lastIndex(of: "["), open > result.id.startIndex else { return result.id }
        return String(result.id[..<open])
    }

    /// Sorted by `count`, most first; equal counts keep their order.
    static func mostFirst<T>(_ items: [T], by count: KeyPath<T, Int>) -> [T] {
        items.enumerated().sorted { a, b in
            a.element[keyPath: count] != b.element[keyPath: count] ? a.element[keyPath: count] > b.element[keyPath: count] : a.offset < b.offset
        }.map(\.element)
    }
}
