public import ColorScience

/// What a check relates. Most checks are one pair (a foreground on a background); three kinds
/// relate more colors, and each expands per theme into results the renderers already know:
///
/// - `distinct`: a group of tokens whose members must stay distinguishable, in normal vision and
///   for people with a color-vision deficiency (one result per pair of members);
/// - `focus`: a focus indicator against each surface it is drawn on (SC 1.4.11) and against the
///   unfocused color of the same pixels (SC 2.4.13);
/// - `link`: a link color against the text around it and the background (technique G183 for
///   SC 1.4.1, and SC 1.4.3).
///
/// In a checks document: `{"id": "status", "distinct": ["color.status.*.background"]}`,
/// `{"id": "ring", "focus": "color.focus.ring", "unfocused": "color.border.default", "adjacent": ["color.bg.*"]}`,
/// `{"id": "links", "link": "color.fg.link", "text": "color.fg.default", "background": "color.bg.default"}`.
public enum CheckRelation: Sendable {
    case pair
    case distinct(Distinct)
    case focus(Focus)
    case link(Link)

    public struct Distinct: Sendable {
        /// Token names or globs; every pair of the tokens they match is judged.
        public var members: [String]
        /// The smallest difference (``Distinguishability/metric``) that counts as told apart;
        /// nil for ``Distinguishability/defaultThreshold``.
        public var threshold: Double?
        /// The deficiencies simulated; nil for ``ColorVisionDeficiency/audited``.
        public var deficiencies: [ColorVisionDeficiency]?

        public init(members: [String], threshold: Double? = nil, deficiencies: [ColorVisionDeficiency]? = nil) {
            self.members = members
            self.threshold = threshold
            self.deficiencies = deficiencies
        }
    }

    public struct Focus: Sendable {
        /// The indicator's color (a token, glob or CSS color).
        public var indicator: String
        /// The color of the same pixels when not focused (SC 2.4.13); nil skips that relation.
        public var unfocused: String?
        /// The surfaces the indicator is drawn on or next to (tokens or globs).
        public var adjacent: [String]

        public init(indicator: String, unfocused: String?, adjacent: [String]) {
            self.indicator = indicator
            self.unfocused = unfocused
            self.adjacent = adjacent
        }
    }

    public struct Link: Sendable {
        public var link: String
        /// The color of the text around the link.
        public var text: String
        public var background: String
        /// Links are underlined (or otherwise marked beyond color): only the background
        /// requirement applies.
        public var underlined: Bool

        public init(link: String, text: String, background: String, underlined: Bool = false) {
            self.link = link
            self.text = text
            self.background = background
            self.underlined = underlined
        }
    }

    /// The kind's name in the checks document (`pair` for an ordinary check).
    public var name: String {
        switch self {
        case .pair: "pair"
        case .distinct: "distinct"
        case .focus: "focus"
        case .link: "link"
        }
    }

    /// Every token reference the check makes, in the order written.
    public var references: [String] {
        switch self {
        case .pair: []
        case .distinct(let d): d.members
        case .focus(let f): [f.indicator] + (f.unfocused.map { [$0] } ?? []) + f.adjacent
        case .link(let l): [l.link, l.text, l.background]
        }
    }

    /// The same relation with every reference rewritten (stylesheet palettes drop `--`).
    func mapReferences(_ transform: (String) -> String) -> CheckRelation {
        switch self {
        case .pair: return .pair
        case .distinct(var d):
            d.members = d.members.map(transform)
            return .distinct(d)
        case .focus(var f):
            f.indicator = transform(f.indicator)
            f.unfocused = f.unfocused.map(transform)
            f.adjacent = f.adjacent.map(transform)
            return .focus(f)
        case .link(var l):
            l.link = transform(l.link)
            l.text = transform(l.text)
            l.background = transform(l.background)
            return .link(l)
        }
    }
}

/// What a contrast loss under a simulated color-vision deficiency does to a check: a warning
/// (the default), or a failure (`"cvd": "fail"` on the check, `--cvd fail`, `?cvd=fail`).
public struct CVDPolicy: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    private init(_ name: String) { self.name = name }

    public static let warn = CVDPolicy("warn")
    public static let fail = CVDPolicy("fail")
    public static let all: [CVDPolicy] = [.warn, .fail]

    public init?(name: String) {
        guard let known = CVDPolicy.all.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = known
    }

    public var description: String { name }
}
