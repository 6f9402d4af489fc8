public import ColorScience

/// Where a UI draws one color on another, as a usage source shows it: a component stylesheet's
/// rule, a utility-class list in markup, an Android layout or style, a Swift view. `contrast init`
/// proposes checks from these pairs before it guesses from names, and writes the evidence as each
/// check's `description`.
public struct UsagePair: Hashable, Sendable {
    /// The foreground's token name, spelled as the palette that defines it names it.
    public var foreground: String
    /// The background's token name, spelled as the palette that defines it names it.
    public var background: String
    /// Text, large text, or a non-text element (a border, an icon, a focus outline: SC 1.4.11).
    public var usage: ContrastUsage
    /// Where the two colors meet.
    public var evidence: UsageEvidence
    /// How the pair was found: seen in usage, by a platform's convention, or from names alone.
    public var confidence: UsageConfidence
    /// The themes (by name) the UI draws the pair in, when not every theme that has both: a
    /// Tailwind `dark:` class's pair is drawn in dark themes only, and the resting pair it
    /// replaces in the others. Nil for every theme.
    public var themes: [String]?

    public init(foreground: String, background: String, usage: ContrastUsage, evidence: UsageEvidence, confidence: UsageConfidence, themes: [String]? = nil) {
        self.foreground = foreground
        self.background = background
        self.usage = usage
        self.evidence = evidence
        self.confidence = confidence
        self.themes = themes
    }
}

/// The file and line where a UI draws a pair, and what draws it there, in a few words
/// (`.btn-primary: color on background-color`, `TextView @id/title on its LinearLayout`).
public struct UsageEvidence: Hashable, Sendable {
    /// The file as the user named it (relative to the path they gave).
    public var file: String
    /// 1-based.
    public var line: Int
    /// What draws the pair there, quoted short (``String/excerpt(_:)``): never user text in full.
    public var what: String

    public init(file: String, line: Int, what: String) {
        self.file = file
        self.line = line
        self.what = what
    }

    /// `file:line: what`, as a check's description and a person read it.
    public var text: String { "\(file):\(line): \(what)" }
}

/// How sure a proposal is that a UI draws the pair, best first.
public enum UsageConfidence: Int, Comparable, Sendable, CaseIterable {
    /// A usage source draws it (file:line in the evidence).
    case usage = 0
    /// A platform or system convention says it is drawn (`on-X` on `X`, shadcn's `X-foreground`
    /// on `X`, iOS labels on the system backgrounds, Material's role pairs).
    case convention = 1
    /// Only the token names suggest it: a guess, marked as one.
    case name = 2

    public var name: String {
        switch self {
        case .usage: "usage"
        case .convention: "convention"
        case .name: "name"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
