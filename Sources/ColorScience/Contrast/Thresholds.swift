/// A closed set of named values (a usage, a level), written in JSON as its name.
public protocol NamedValue: Codable, Hashable, Sendable {
    var name: String { get }
    static var all: [Self] { get }
}

extension NamedValue {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let known = Self.all.first(where: { $0.name == name }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(name)\" is not one of \(Self.all.map(\.name).joined(separator: ", "))")
        }
        self = known
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// What a pair of colors is used for, which decides the WCAG success criterion that applies.
public struct ContrastUsage: Hashable, Sendable, CustomStringConvertible {
    /// The name used in palettes, the CLI and the API (`large-text`).
    public let name: String
    /// Which of the five it is: what equality and hashing compare (one byte, where comparing
    /// two different names went through the standard library's string comparison; a batch
    /// compares usages several times a pair).
    @usableFromInline let code: UInt8

    @inlinable
    init(_ name: String, code: UInt8) {
        self.name = name
        self.code = code
    }

    @inlinable
    public static func == (lhs: ContrastUsage, rhs: ContrastUsage) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Body text: SC 1.4.3 (AA 4.5:1) and 1.4.6 (AAA 7:1).
    @inlinable public static var text: ContrastUsage { ContrastUsage("text", code: 0) }
    /// Large text (≥ 18 pt, or ≥ 14 pt bold): SC 1.4.3 (AA 3:1) and 1.4.6 (AAA 4.5:1).
    @inlinable public static var largeText: ContrastUsage { ContrastUsage("large-text", code: 1) }
    /// User-interface components and graphical objects: SC 1.4.11 (3:1, an AA criterion only).
    @inlinable public static var nonText: ContrastUsage { ContrastUsage("non-text", code: 2) }
    /// Pure decoration: WCAG sets no requirement; measured and reported, never failing.
    @inlinable public static var decorative: ContrastUsage { ContrastUsage("decorative", code: 3) }
    /// Inactive (disabled) components: exempt by SC 1.4.3 and 1.4.11; reported, never failing.
    @inlinable public static var disabled: ContrastUsage { ContrastUsage("disabled", code: 4) }

    public static let all: [ContrastUsage] = [.text, .largeText, .nonText, .decorative, .disabled]

    /// The usage named `name`, or nil.
    public init?(name: String) {
        guard let known = ContrastUsage.all.first(where: { $0.name == name }) else { return nil }
        self = known
    }

    /// Whether WCAG exempts this usage from contrast requirements.
    public var isExempt: Bool { self == .decorative || self == .disabled }

    public var description: String { name }
}

extension ContrastUsage: NamedValue {}

/// A WCAG conformance level a requirement asks for.
public typealias WCAGLevel = RankedName<WCAGLevelScale>

public enum WCAGLevelScale: RankScale {
    /// Every level a report may name (A included, for reading reports back).
    public static let all: [WCAGLevel] = [.A, .AA, .AAA]
    /// The levels a contrast check, the CLI or the API can ask for.
    public static let requestable: [WCAGLevel] = [.AA, .AAA]
}

extension RankedName where Scale == WCAGLevelScale {
    /// Level A: reported by checks of criteria at that level (SC 1.4.1 for links told apart by
    /// color); never a level a contrast check can ask for.
    @inlinable public static var A: WCAGLevel { WCAGLevel("A", rank: 0) }
    @inlinable public static var AA: WCAGLevel { WCAGLevel("AA", rank: 1) }
    @inlinable public static var AAA: WCAGLevel { WCAGLevel("AAA", rank: 2) }
    /// The levels a contrast check, the CLI or the API can ask for.
    public static var requestable: [WCAGLevel] { WCAGLevelScale.requestable }

    /// A level that can be asked for (AA or AAA, any case); nil for anything else, A included.
    public init?(name: String) {
        guard let known = WCAGLevel.requestable.first(where: { $0.name == name.uppercased() }) else { return nil }
        self = known
    }
}

/// The best WCAG 2.x level a contrast ratio reaches for text: `AAA` (≥ 7), `AA` (≥ 4.5),
/// `AA-large` (≥ 3, enough for large text and non-text) or `none`.
public typealias AchievedLevel = RankedName<AchievedLevelScale>

public enum AchievedLevelScale: RankScale {
    public static let all: [AchievedLevel] = [.AAA, .AA, .AALarge, .none]
}

extension RankedName where Scale == AchievedLevelScale {
    @inlinable public static var none: AchievedLevel { AchievedLevel("none", rank: 0) }
    @inlinable public static var AALarge: AchievedLevel { AchievedLevel("AA-large", rank: 1) }
    @inlinable public static var AA: AchievedLevel { AchievedLevel("AA", rank: 2) }
    @inlinable public static var AAA: AchievedLevel { AchievedLevel("AAA", rank: 3) }

    public init?(name: String) {
        guard let known = AchievedLevel.all.first(where: { $0.name == name }) else { return nil }
        self = known
    }

    /// The best level `ratio` reaches, comparing the unrounded ratio with `>=`.
    public init(ratio: Double) {
        if ratio >= 7 {
            self = .AAA
        } else if ratio >= 4.5 {
            self = .AA
        } else if ratio >= 3 {
            self = .AALarge
        } else {
            self = .none
        }
    }
}

/// A contrast requirement: a usage at a level, and the minimum ratio WCAG 2.2 sets for it.
public struct ContrastRequirement: Hashable, Sendable, CustomStringConvertible {
    public var usage: ContrastUsage
    public var level: WCAGLevel

    public init(usage: ContrastUsage, level: WCAGLevel = .AA) {
        self.usage = usage
        self.level = level
    }

    /// The minimum ratio (`>=`), or nil for exempt usages. The thresholds of WCAG 2.2:
    /// SC 1.4.3 (AA: 4.5 text, 3 large text), SC 1.4.6 (AAA: 7 text, 4.5 large text),
    /// SC 1.4.11 (non-text: 3; WCAG has no AAA criterion for it, so AAA asks 3 too).
    public var minimumRatio: Double? {
        switch usage {
        case .text: return level == .AAA ? 7 : 4.5
        case .largeText: return level == .AAA ? 4.5 : 3
        case .nonText: return 3
        default: return nil
        }
    }

    /// The success criterion the requirement comes from (`1.4.3`), or nil for exempt usages.
    public var successCriterion: String? {
        switch usage {
        case .text, .largeText: return level == .AAA ? "1.4.6" : "1.4.3"
        case .nonText: return "1.4.11"
        default: return nil
        }
    }

    /// Whether `ratio` meets the requirement (always true for exempt usages).
    public func isMet(by ratio: Double) -> Bool {
        guard let minimum = minimumRatio else { return true }
        return ratio >= minimum
    }

    public var description: String { "\(usage) \(level)" }
}

/// A CSS font size, for deciding whether text is "large" in the WCAG sense.
public struct FontSize: Hashable, Sendable, CustomStringConvertible {
    /// The size in CSS points (1pt = 4/3 px).
    public var points: Double

    public init(points: Double) {
        self.points = points
    }

    public init(pixels: Double) {
        self.points = pixels * 0.75
    }

    public var pixels: Double { points / 0.75 }

    /// Parses `16px`, `12pt` or a bare number of pixels. Returns nil for anything else.
    public init?(parsing text: String) {
        var body = Substring(text.lowercased())
        body = body.drop(while: { $0 == " " })
        while body.last == " " { body.removeLast() }
        var unitIsPoints = false
        if body.hasSuffix("px") {
            body.removeLast(2)
        } else if body.hasSuffix("pt") {
            body.removeLast(2)
            unitIsPoints = true
        }
        guard let value = Double(body), value.isFinite, value > 0 else { return nil }
        self = unitIsPoints ? FontSize(points: value) : FontSize(pixels: value)
    }

    /// WCAG 2.2 "large scale" text: at least 18 point, or at least 14 point when bold
    /// (weight 700 or more). In CSS pixels: 24 px, or 18.67 px bold.
    public func isLargeText(weight: Int) -> Bool {
        // 1e-9 absorbs binary rounding of px → pt (24px × 0.75 is exact; 18.67px is not).
        points >= 18 - 1e-9 || (weight >= 700 && points >= 14 - 1e-9)
    }

    public var description: String {
        let px = pixels
        return px == px.rounded() ? "\(Int(px))px" : "\(points)pt"
    }
}
