public import ColorScience

/// What a result measures: a check, a badge's text, or a badge's border.
public struct CheckKind: NamedValue, CustomStringConvertible {
    public let name: String
    private init(_ name: String) { self.name = name }

    public static let check = CheckKind("check")
    public static let badge = CheckKind("badge")
    public static let badgeBorder = CheckKind("badge-border")
    /// Two members of a group that must stay distinguishable (a `distinct` check, or a
    /// palette's badges): judged by their color difference, not by contrast.
    public static let distinct = CheckKind("distinct")
    /// A relation of a focus indicator (``CheckResult/relation`` says which).
    public static let focus = CheckKind("focus")
    /// A relation of a link color (``CheckResult/relation`` says which).
    public static let link = CheckKind("link")
    public static let all: [CheckKind] = [.check, .badge, .badgeBorder, .distinct, .focus, .link]

    /// The field that names the foreground in the palette: `foreground`, a badge's `text`, or
    /// its `border` (where a fix to the foreground goes).
    public var foregroundField: String {
        switch self {
        case .badge: "text"
        case .badgeBorder: "border"
        case .focus: "focus"
        case .link: "link"
        default: "foreground"
        }
    }

    /// Whether the result measures contrast (every kind but ``distinct``).
    public var measuresContrast: Bool { self != .distinct }

    public var description: String { name }
}
