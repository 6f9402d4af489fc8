public import ColorScience

/// A pair that must contrast, written once and applied to every theme (or to `themes`).
public struct Check: Sendable {
    public var id: String
    public var description: String?
    /// A token name, an alias `{token}` or a CSS color.
    public var foreground: String
    public var background: String
    public var usage: ContrastUsage
    public var level: WCAGLevel
    /// A minimum APCA |Lc| required in addition to the WCAG ratio.
    public var apcaMinimum: Double?
    public var fontSize: FontSize?
    public var fontWeight: Int?
    /// What a translucent background sits on (a token or a color).
    public var backdrop: String?
    /// The themes the check applies to; nil for all.
    public var themes: [String]?
    public var assumed: String?
    public var claim: Claim?
    /// A house minimum ratio, stricter than the WCAG level (judged like a level).
    public var minimumRatio: Double?
    /// For rule checks: token-name globs that never count as a match (`*.disabled`).
    public var except: [String] = []
    /// The palettes (by name) the check applies to; nil for all. A checks document given with
    /// `--checks` applies to every palette read, and `contrast init` scopes each palette's
    /// proposed rules with this.
    public var palettes: [String]?
    public var pointer: JSONPointer
    public var location: SourceLocation?
    /// The file that holds the check (a sidecar or `--checks` file), when not the palette's.
    public var file: String?
    /// What the check relates: one pair (``foreground`` on ``background``), or a group, a focus
    /// indicator or links (then ``foreground`` and ``background`` are empty).
    public var relation: CheckRelation = .pair
    /// Whether losing contrast under a simulated color-vision deficiency fails the check (nil:
    /// the audit's default, a warning).
    public var cvd: CVDPolicy?

    /// Whether the check names tokens by glob (`fgColor.*`) and expands per theme.
    public var isRule: Bool {
        if case .pair = relation { return CheckRule.isPattern(foreground) || CheckRule.isPattern(background) }
        return relation.references.contains(where: CheckRule.isPattern)
    }

    public init(id: String, description: String? = nil, foreground: String, background: String,
                usage: ContrastUsage = .text, level: WCAGLevel = .AA, apcaMinimum: Double? = nil,
                fontSize: FontSize? = nil, fontWeight: Int? = nil, backdrop: String? = nil, themes: [String]? = nil,
                assumed: String? = nil, claim: Claim? = nil, pointer: JSONPointer = JSONPointer(), location: SourceLocation? = nil) {
        self.id = id
        self.description = description
        self.foreground = foreground
        self.background = background
        self.usage = usage
        self.level = level
        self.apcaMinimum = apcaMinimum
        self.fontSize = fontSize
        self.fontWeight = fontWeight
        self.backdrop = backdrop
        self.themes = themes
        self.assumed = assumed
        self.claim = claim
        self.pointer = pointer
        self.location = location
    }

    /// The usage actually judged: text whose size makes it large counts as large text.
    public var effectiveUsage: ContrastUsage {
        if usage == .text, let fontSize, fontSize.isLargeText(weight: fontWeight ?? 400) { return .largeText }
        return usage
    }

    public func applies(to theme: String) -> Bool {
        themes.map { $0.contains(theme) } ?? true
    }

    /// Whether the check applies to the palette named `palette` (``palettes``).
    public func applies(toPalette palette: String) -> Bool {
        palettes.map { $0.contains(palette) } ?? true
    }
}

/// A named badge style: its text on its background (and its border, when borders carry meaning).
public struct Badge: Sendable {
    public var name: String
    public var background: String
    public var text: String
    public var border: String?
    public var level: WCAGLevel
    public var themes: [String]?
    public var claim: Claim?
    public var pointer: JSONPointer
    public var location: SourceLocation?

    public init(name: String, background: String, text: String, border: String? = nil, level: WCAGLevel = .AA,
                themes: [String]? = nil, claim: Claim? = nil, pointer: JSONPointer = JSONPointer(), location: SourceLocation? = nil) {
        self.name = name
        self.background = background
        self.text = text
        self.border = border
        self.level = level
        self.themes = themes
        self.claim = claim
        self.pointer = pointer
        self.location = location
    }
}

/// What a source document claims about a pair, kept so the audit can confirm or refute it.
public struct Claim: Hashable, Sendable, Codable {
    /// A ratio the document states the pair has (`6.8` for "6.8:1").
    public var ratio: Double?
    /// A ratio the document says the pair meets at least ("≥ 4.5:1").
    public var minimumRatio: Double?
    /// A level the document says the pair meets (`AA`, `AAA`).
    public var level: String?
    /// The document's own words.
    public var quote: String?
    /// Where the document says it.
    public var `where`: String?

    public init(ratio: Double? = nil, minimumRatio: Double? = nil, level: String? = nil, quote: String? = nil, where: String? = nil) {
        self.ratio = ratio
        self.minimumRatio = minimumRatio
        self.level = level
        self.quote = quote
        self.where = `where`
    }
}
