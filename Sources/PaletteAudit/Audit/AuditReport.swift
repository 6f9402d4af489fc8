public import ColorScience
public import TokenSources

/// The outcome of one check: a closed set of three, encoded as a string.
public struct Verdict: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    private init(_ rawValue: String) { self.rawValue = rawValue }

    public static let pass = Verdict("pass")
    public static let fail = Verdict("fail")
    /// WCAG sets no requirement (decorative, disabled): measured and reported, never failing.
    public static let exempt = Verdict("exempt")

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self.init(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Counts over a set of results.
public struct AuditSummary: Hashable, Sendable, Codable {
    public var checks = 0
    public var pass = 0
    public var fail = 0
    public var exempt = 0
    /// Claims from the source documents that the measurement does not support.
    public var falseClaims = 0
    /// Palette problems (bad colors, unknown tokens…) that kept checks from running.
    public var problems = 0
    /// Values that are assumptions rather than documented colors.
    public var assumptions = 0
    /// Checks that pass in normal vision and lose their contrast under a simulated
    /// color-vision deficiency (a warning; with `cvd: fail` they count as failures instead).
    public var cvdWarnings = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case checks, pass, fail, exempt, falseClaims, problems, assumptions, cvdWarnings
    }

    /// Reads reports written before `cvdWarnings` existed, too.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        checks = try c.decode(Int.self, forKey: .checks)
        pass = try c.decode(Int.self, forKey: .pass)
        fail = try c.decode(Int.self, forKey: .fail)
        exempt = try c.decode(Int.self, forKey: .exempt)
        falseClaims = try c.decode(Int.self, forKey: .falseClaims)
        problems = try c.decode(Int.self, forKey: .problems)
        assumptions = try c.decode(Int.self, forKey: .assumptions)
        cvdWarnings = try c.decodeIfPresent(Int.self, forKey: .cvdWarnings) ?? 0
    }

    mutating func add(_ result: CheckResult) {
        checks += 1
        switch result.verdict {
        case .pass: pass += 1
        case .fail: fail += 1
        default: exempt += 1
        }
        if result.claim?.supported == false { falseClaims += 1 }
        if result.cvd?.verdict == "warn" { cvdWarnings += 1 }
    }

    /// Every count, by its JSON name, in the sorted order the JSON writes them: what adding
    /// two summaries adds and what the JSON writes, listed once.
    static let counts: [(key: StaticString, count: any WritableKeyPath<AuditSummary, Int> & Sendable)] = [
        ("assumptions", \.assumptions), ("checks", \.checks), ("cvdWarnings", \.cvdWarnings), ("exempt", \.exempt),
        ("fail", \.fail), ("falseClaims", \.falseClaims), ("pass", \.pass), ("problems", \.problems),
    ]

    mutating func add(_ other: AuditSummary) {
        for (_, count) in AuditSummary.counts { self[keyPath: count] += other[keyPath: count] }
    }

    /// "41 checks · 38 pass · 3 fail · 2 false claims"
    public var line: String {
        var parts = ["\(checks) check\(checks == 1 ? "" : "s")", "\(pass) pass", "\(fail) fail"]
        if exempt > 0 { parts.append("\(exempt) exempt") }
        if cvdWarnings > 0 { parts.append("\(cvdWarnings) color-vision warning\(cvdWarnings == 1 ? "" : "s")") }
        if falseClaims > 0 { parts.append("\(falseClaims) false claim\(falseClaims == 1 ? "" : "s")") }
        if problems > 0 { parts.append("\(problems) problem\(problems == 1 ? "" : "s")") }
        if assumptions > 0 { parts.append("\(assumptions) assumption\(assumptions == 1 ? "" : "s")") }
        return parts.joined(separator: " · ")
    }
}

/// The whole audit: what the CLI's `--format json`, the HTTP API and `audit.json` emit.
/// docs/audit-format.md and openapi.yaml describe it; its keys are stable.
public struct AuditReport: Sendable, Codable {
    public var schemaVersion = 1
    public var summary: AuditSummary
    public var palettes: [PaletteReport]
    /// Present when the audit was compared with a baseline.
    public var comparison: BaselineComparison?
    /// Files a directory search passed over, with the reason.
    public var skipped: [SkippedFile] = []
    /// How much of the palettes the checks measure, added up over them (``Coverage``).
    public var coverage: Coverage
    /// Whether the run passes, and why not (``AuditPolicy``): present when a policy judged it
    /// (the CLI's, the service's).
    public var outcome: AuditOutcome?
    /// The checks documents the audit applied to every palette of a path: given (`--checks`)
    /// or found beside the tokens (`contrast.checks.json`).
    public var checksFiles: [ChecksFile]?

    public init(palettes: [PaletteReport], comparison: BaselineComparison? = nil, skipped: [SkippedFile] = []) {
        self.palettes = palettes
        self.comparison = comparison
        self.skipped = skipped
        var summary = AuditSummary()
        for palette in palettes { summary.add(palette.summary) }
        self.summary = summary
        self.coverage = Coverage.total(palettes.compactMap(\.coverage))
    }

    /// Every result with its palette and theme, in order.
    public var allResults: [(palette: PaletteReport, theme: ThemeReport, result: CheckResult)] {
        palettes.flatMap { palette in palette.themes.flatMap { theme in theme.results.map { (palette, theme, $0) } } }
    }

    public var problems: [PaletteProblem] { palettes.flatMap(\.problems) }
    public var warnings: [PaletteProblem] { palettes.flatMap { $0.warnings ?? [] } }
}

/// The audit of one palette.
public struct PaletteReport: Sendable, Codable {
    public var name: String
    public var file: String?
    public var description: String?
    public var source: String?
    public var summary: AuditSummary
    public var problems: [PaletteProblem]
    /// Every value that is an assumption, with its reason: shown in every report.
    public var assumptions: [Assumption]
    public var themes: [ThemeReport]
    /// Things read but worth a look (an ignored property, a hex that disagrees with its
    /// components): shown beside problems, never failing the run.
    public var warnings: [PaletteProblem]?
    /// What the source was read as (`DTCG resolver 2025.10; themes from theme (light, dark)`).
    public var format: String?
    /// The files read, when the palette spans several.
    public var files: [String]?
    /// How many color declarations the source held and how many were read, with the ones not
    /// read and why (nil for a file that could not be read at all).
    public var ledger: ReadLedger.Summary? = nil
    /// How much of the palette its checks measure (nil for a palette that could not be audited).
    public var coverage: Coverage? = nil
}

/// A checks document an audit applied, and how it came to: given (`--checks`) or found beside
/// the tokens (`DIR/contrast.checks.json`, which `contrast init DIR` writes).
public struct ChecksFile: Hashable, Sendable, Codable {
    public var file: String
    /// `given` or `found`.
    public var origin: String
    /// The paths audited with it, when it was found beside them.
    public var paths: [String]?

    public init(file: String, origin: String, paths: [String]? = nil) {
        self.file = file
        self.origin = origin
        self.paths = paths
    }

    public static let given = "given", found = "found"

    /// "checks: tokens/contrast.checks.json (found beside the tokens)".
    public var line: String { "checks: \(file) (\(placement))" }

    /// "given with --checks", "found beside the tokens", or "found above the tokens" for one
    /// found in a folder above them (``PaletteLoader/checksFile(beside:)``).
    public var placement: String {
        guard origin == ChecksFile.found else { return "given with --checks" }
        let folder = SourcePath.folder(of: file)
        let beside = (paths ?? []).allSatisfy { path in
            FileSystem.trimmed(path) == folder || SourcePath.folder(of: path) == folder
        }
        return "found \(beside ? "beside" : "above") the tokens"
    }
}

/// The audit of one theme of a palette.
public struct ThemeReport: Sendable, Codable {
    public var name: String
    public var summary: AuditSummary
    public var results: [CheckResult]
    /// Checks that could not be measured in this theme (a token they use is broken or
    /// missing); the palette's other checks are still audited.
    public var unresolved: [UnresolvedCheck]?
    /// The theme's own coverage, when it differs from the palette's (its tokens or its checks
    /// differ); nil when it is the palette's.
    public var coverage: Coverage? = nil
}

/// A check that could not be measured, and why.
public struct UnresolvedCheck: Hashable, Sendable, Codable {
    public var id: String
    public var foreground: String
    public var background: String
    /// The problem that stopped it (also listed among the palette's problems).
    public var problem: String
}

/// A value the palette assumes rather than takes from its source, and why.
public struct Assumption: Hashable, Sendable, Codable {
    /// The token, or nil for a check's literal.
    public var token: String?
    /// The check, for assumptions written on a check.
    public var check: String?
    /// The themes where the assumed token is defined.
    public var themes: [String]?
    public var value: String?
    public var reason: String
    public var pointer: JSONPointer
}

/// The result of one check (or badge) in one theme.
public struct CheckResult: Sendable, Codable {
    /// The check's id (`badge:purple` for badges, `badge:purple:border` for their borders).
    public var id: String
    public var kind: CheckKind
    public var description: String?
    /// The usage judged (text whose size is large counts as `large-text`).
    public var usage: ContrastUsage
    /// The level required.
    public var level: WCAGLevel
    /// The WCAG success criterion (`1.4.3`), absent for exempt usages.
    public var criterion: String?
    /// The minimum ratio required, absent for exempt usages.
    public var required: Double?
    public var fontSize: String?
    public var fontWeight: Int?
    public var foreground: ResolvedColor
    public var background: ResolvedColor
    public var backdrop: ResolvedColor?
    /// The opaque colors actually seen after compositing, when either input is translucent.
    public var composited: CompositedPair?
    /// The WCAG ratio in full precision; with an unknown backdrop, the worst case.
    public var ratio: Double
    /// The ratio floored to two decimals, `"4.49:1"`: never rounded up into a pass.
    public var display: String
    /// With a translucent background and no backdrop: the range over every opaque backdrop.
    public var range: RatioRange?
    /// APCA Lc (signed: positive dark on light).
    public var apca: Double
    /// The minimum |Lc| the check asks for, if it asks for one.
    public var apcaRequired: Double?
    /// The best WCAG level the pair reaches: AAA, AA, AA-large or none.
    public var achieved: AchievedLevel
    public var verdict: Verdict
    /// Why it fails, in words ("4.12:1 is below the 4.5:1 that 1.4.3 AA requires for text").
    public var reasons: [String]?
    public var claim: ClaimResult?
    /// For a failing check: the nearest colors that would pass.
    public var suggestions: Suggestions?
    /// The same suggestions as edits of the palette document: where each color goes.
    public var fixes: [SuggestedFix]?
    /// Assumptions this result rests on.
    public var assumed: [String]?
    /// Where the check is in the palette file.
    public var pointer: JSONPointer
    public var line: Int?
    /// For focus and link checks: which relation this result measures (`adjacent`, `change`,
    /// `link-vs-text`, `link-on-background`, `text-on-background`).
    public var relation: String? = nil
    /// The WCAG technique the requirement comes from (`G183`), when one.
    public var technique: String? = nil
    /// The lowest contrast under a simulated color-vision deficiency, and what it means for
    /// the check; absent for ``CheckKind/distinct`` results.
    public var cvd: SimulatedContrast? = nil
    /// For ``CheckKind/distinct`` results: how different the two colors are, in normal vision
    /// and under the deficiency that brings them closest.
    public var distinction: Distinction? = nil
    /// When the background is a gradient: where it is worst and best for the foreground
    /// (``ratio`` is the worst).
    public var gradient: GradientMeasurement? = nil
}

/// A check's contrast as a person with a color-vision deficiency sees it: the lowest WCAG
/// ratio over the simulated deficiencies.
public struct SimulatedContrast: Hashable, Sendable, Codable {
    /// The deficiency that gives the lowest ratio (`protanopia`).
    public var deficiency: String
    public var ratio: Double
    public var display: String
    /// The two colors as simulated (after compositing).
    public var foreground: String
    public var background: String
    /// `pass` (meets the requirement under every simulation), `warn` (passes in normal vision,
    /// not under this simulation; the default policy) or `fail` (the same, with `cvd: fail`).
    /// Absent for exempt checks and for checks that fail in normal vision already.
    public var verdict: String?
    /// The deficiencies simulated.
    public var deficiencies: [String]
}

/// How different two members of a `distinct` group are.
public struct Distinction: Hashable, Sendable, Codable {
    /// The difference metric (`CIEDE2000`) and the smallest difference that counts as told apart.
    public var metric: String
    public var threshold: Double
    /// The difference in normal vision.
    public var difference: Double
    /// The deficiency under which the two differ least, with their difference and the two
    /// colors as simulated.
    public var deficiency: String?
    public var simulatedDifference: Double?
    public var simulated: CompositedPair?
    /// Told apart in normal vision but not under ``deficiency``.
    public var confusable: Bool
    /// Not told apart even in normal vision.
    public var indistinct: Bool
    /// The deficiencies simulated.
    public var deficiencies: [String]
}

/// A background gradient, judged at its worst point for the foreground.
public struct GradientMeasurement: Hashable, Sendable, Codable {
    /// The gradient as written (references resolved).
    public var css: String
    /// The interpolation used (`srgb`, `oklab`, `oklch shorter hue`).
    public var interpolation: String
    public var worst: GradientPoint
    public var best: GradientPoint
    /// Some stop positions were lengths, whose place depends on the box: every segment was
    /// judged in full.
    public var lengthPositions: Bool?
}

/// One point of a gradient: where (0–1 along the gradient line), its color, and the ratio there.
public struct GradientPoint: Hashable, Sendable, Codable {
    public var position: Double
    public var color: String
    public var ratio: Double
    public var display: String
}

extension CheckResult {
    /// "token fg.old is deprecated: use fg.default", for each deprecated token the check uses.
    public var deprecations: [String] {
        [foreground, background].compactMap { color in
            guard let reason = color.deprecated, let token = color.token else { return nil }
            return "token \(token) is deprecated" + (reason == "deprecated" ? "" : ": \(reason)")
        }
    }
}

public struct CompositedPair: Hashable, Sendable, Codable {
    public var foreground: String
    public var background: String
}

public struct RatioRange: Hashable, Sendable, Codable {
    public var worst: Double
    public var best: Double
    public var worstBackdrop: String
    public var bestBackdrop: String
}

/// A claim from the source document, confirmed or refuted by the measurement.
public struct ClaimResult: Hashable, Sendable, Codable {
    public var claim: Claim
    public var supported: Bool
    /// "claimed 6.8:1 AAA; measured 6.40:1 — fails AAA (needs 7:1)"
    public var message: String
}

/// The nearest colors that would make a failing pair pass, keeping each color's hue.
public struct Suggestions: Hashable, Sendable, Codable {
    /// Replacements for the foreground, nearest first (at most one lighter and one darker).
    public var foreground: [SuggestedColor]
    /// Replacements for the background, nearest first.
    public var background: [SuggestedColor]
    /// The smallest combined move, when changing both a little beats changing one.
    public var both: SuggestedPair?
    /// Why nothing of a color's hue can pass, with the best ratio reachable.
    public var notes: [String]?

    public init(foreground: [SuggestedColor], background: [SuggestedColor], both: SuggestedPair?, notes: [String]?) {
        self.foreground = foreground
        self.background = background
        self.both = both
        self.notes = notes
    }
}

public struct SuggestedColor: Hashable, Sendable, Codable {
    public var hex: String
    /// `lighter` or `darker`.
    public var direction: String
    /// The pair's ratio with this color in place, and its floored display.
    public var ratio: Double
    public var display: String
    public var apca: Double
    /// ΔE-OK from the color it replaces (0.02 is just noticeable).
    public var deltaEOK: Double

    public init(_ suggestion: ColorSuggestion) {
        hex = suggestion.color.hex
        direction = suggestion.direction
        ratio = suggestion.ratio
        display = RatioFormat.display(suggestion.ratio)
        apca = suggestion.apca
        deltaEOK = (suggestion.deltaEOK * 10000).rounded() / 10000
    }
}

public struct SuggestedPair: Hashable, Sendable, Codable {
    public var foreground: SuggestedColor
    public var background: SuggestedColor
}
