import TokenSources

/// How much of a palette its checks measure: the color tokens some check measures, of how many,
/// and the tokens whose names say they are text or surfaces (``TokenNameRole``) that no check
/// measures. An audit whose checks pass says nothing about the tokens it never measured; this
/// says which those are.
///
/// A check measures the tokens it names as its foreground, background and backdrop, and the
/// tokens their aliases lead through (`text.primary` → `gray.900`: the check measured the value
/// `gray.900` holds). A palette's token counts as measured when some check measures it in every
/// audited theme that defines it: a token measured in `light` and not in `dark` is not covered.
public struct Coverage: Hashable, Sendable, Codable {
    /// Color tokens (every token read as a color; a declaration not read is not one).
    public var tokens: Int
    /// Of them, those some check measures.
    public var measured: Int
    /// `measured` of `tokens` in percent, floored to one decimal (never rounded up past a
    /// threshold); absent when there are no color tokens.
    public var percent: Double?
    /// Unmeasured tokens whose names say they are foregrounds (`text`, `fg`, `label`, `on-X`).
    public var unmeasuredText: TokenNames
    /// Unmeasured tokens whose names say they are backgrounds (`background`, `bg`, `surface`,
    /// `canvas`, `page`).
    public var unmeasuredSurfaces: TokenNames

    /// Some tokens: how many, and the first ``Coverage/listed`` of their names.
    public struct TokenNames: Hashable, Sendable, Codable {
        public var count: Int
        /// The first names, in the tokens' order, each quoted at most 80 characters long;
        /// absent in an audit's total (each palette lists its own).
        public var names: [String]?

        public init(count: Int = 0, names: [String]? = nil) {
            self.count = count
            self.names = names
        }
    }

    /// The most names a list holds: the count says how many more there are.
    public static let listed = 20

    public init(tokens: Int = 0, measured: Int = 0, unmeasuredText: TokenNames = TokenNames(), unmeasuredSurfaces: TokenNames = TokenNames()) {
        self.tokens = tokens
        self.measured = measured
        self.percent = Coverage.percent(measured, of: tokens)
        self.unmeasuredText = unmeasuredText
        self.unmeasuredSurfaces = unmeasuredSurfaces
    }

    /// `measured` of `tokens` in percent, floored to one decimal; nil for no tokens.
    static func percent(_ measured: Int, of tokens: Int) -> Double? {
        guard tokens > 0 else { return nil }
        return Double(measured * 1000 / tokens) / 10
    }

    /// Whether the measured share is below `minimum` percent (exactly: 2 of 3 is below 66.7).
    /// No color tokens is never below: there is nothing to cover.
    public func isBelow(_ minimum: Double) -> Bool {
        tokens > 0 && Double(measured) * 100 < minimum * Double(tokens)
    }

    /// "12 of 40 color tokens measured (30%)".
    public var line: String {
        let share = percent.map { " (\(Coverage.format($0))%)" } ?? ""
        return "\(measured) of \(tokens) color token\(tokens == 1 ? "" : "s") measured\(share)"
    }

    /// "8 text-like and 3 surface-like tokens no check measures", or nil when there are none.
    public var gapLine: String? {
        var parts: [String] = []
        if unmeasuredText.count > 0 { parts.append("\(unmeasuredText.count) text-like") }
        if unmeasuredSurfaces.count > 0 { parts.append("\(unmeasuredSurfaces.count) surface-like") }
        guard !parts.isEmpty else { return nil }
        let total = unmeasuredText.count + unmeasuredSurfaces.count
        return parts.joined(separator: " and ") + " token\(total == 1 ? "" : "s") no check measures"
    }

    /// `30`, `66.6`.
    public static func format(_ percent: Double) -> String {
        percent == percent.rounded() ? String(Int(percent)) : String(percent)
    }

    /// The sum of several palettes' coverage (names are not carried: each palette lists its own).
    public static func total(_ parts: [Coverage]) -> Coverage {
        var text = 0, surfaces = 0, tokens = 0, measured = 0
        for part in parts {
            tokens += part.tokens
            measured += part.measured
            text += part.unmeasuredText.count
            surfaces += part.unmeasuredSurfaces.count
        }
        return Coverage(tokens: tokens, measured: measured, unmeasuredText: TokenNames(count: text), unmeasuredSurfaces: TokenNames(count: surfaces))
    }
}

extension Coverage {
    /// Adds up an audit's themes into the palette's coverage, and gives each theme its own.
    /// Token names are read for their role once per name, however many themes define them.
    struct Tally {
        /// Every token name, in the order first defined.
        private var order: [String] = []
        private var definedIn: [String: Int] = [:]
        private var measuredIn: [String: Int] = [:]
        private var roles: [String: Kind] = [:]

        enum Kind { case text, surface, other }

        /// The coverage of one theme, whose color tokens are `tokens` (in order) and whose
        /// checks measured `measured`; the theme is added to the palette's.
        mutating func add(theme tokens: [String], measured: Set<String>) -> Coverage {
            for name in tokens {
                if definedIn[name] == nil { order.append(name) }
                definedIn[name, default: 0] += 1
                if measured.contains(name) { measuredIn[name, default: 0] += 1 }
            }
            return coverage(of: tokens) { measured.contains($0) }
        }

        /// The palette's coverage: a token is measured when it is in every theme defining it.
        mutating func palette() -> Coverage {
            let measuredIn = self.measuredIn, definedIn = self.definedIn
            return coverage(of: order) { measuredIn[$0] == definedIn[$0] }
        }

        private mutating func coverage(of tokens: [String], isMeasured: (String) -> Bool) -> Coverage {
            var measured = 0
            var text = TokenNames(count: 0, names: []), surfaces = TokenNames(count: 0, names: [])
            for name in tokens {
                if isMeasured(name) {
                    measured += 1
                    continue
                }
                switch kind(of: name) {
                case .text:
                    text.count += 1
                    if text.count <= Coverage.listed { text.names?.append(name.excerpt()) }
                case .surface:
                    surfaces.count += 1
                    if surfaces.count <= Coverage.listed { surfaces.names?.append(name.excerpt()) }
                case .other: break
                }
            }
            return Coverage(tokens: tokens.count, measured: measured, unmeasuredText: text, unmeasuredSurfaces: surfaces)
        }

        /// Text-like or surface-like by its name; a disabled token is neither (WCAG exempts it,
        /// so no check of it is missing).
        private mutating func kind(of name: String) -> Kind {
            if let known = roles[name] { return known }
            let role = TokenNameRole(name: name)
            let kind: Kind = role.disabled ? .other : role.role == .foreground ? .text : role.role == .background ? .surface : .other
            roles[name] = kind
            return kind
        }
    }

    /// The tokens a result measured: the ones it names and those their aliases lead through.
    static func measuredTokens(of result: CheckResult, into set: inout Set<String>) {
        for color in [result.foreground, result.background] { add(color, to: &set) }
        if let backdrop = result.backdrop { add(backdrop, to: &set) }
    }

    private static func add(_ color: ResolvedColor, to set: inout Set<String>) {
        if let token = color.token { set.insert(token) }
        for alias in color.aliases ?? [] { set.insert(alias) }
        if let valueToken = color.valueToken { set.insert(valueToken) }
    }
}
