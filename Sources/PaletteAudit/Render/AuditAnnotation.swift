public import ColorScience
import TokenSources

/// One finding of an audit placed at its file, line and column: what the line-oriented formats
/// print, one per line (GitHub Actions workflow commands, Xcode and compiler-style diagnostics).
///
/// The findings are the ones SARIF reports (problems, failures, regressions, false claims,
/// warnings, declarations not read, deprecated tokens), each at the token's own file and line.
/// A check result carries the line of each color's value but no column, so its annotation has a
/// line and no column; problems and declarations not read have both.
public struct AuditAnnotation: Hashable, Sendable {
    /// How serious a finding is: a closed set, encoded by the renderers in their own words.
    public typealias Severity = RankedName<AnnotationSeverityScale>

    public var severity: Severity
    /// The rule, as SARIF names it (`contrast/insufficient`).
    public var rule: String
    /// A short heading (`Insufficient contrast`).
    public var title: String
    /// The whole finding, self-contained (palette › theme › check: measurement; why; fix).
    public var message: String
    /// The file as the report names it (as given on the command line, or found under a folder).
    public var file: String?
    public var line: Int?
    public var column: Int?

    public init(_ severity: Severity, rule: String, title: String, message: String, file: String?, line: Int? = nil, column: Int? = nil) {
        self.severity = severity
        self.rule = rule
        self.title = title
        self.message = message
        self.file = file
        self.line = file == nil ? nil : line
        self.column = file == nil || line == nil ? nil : column
    }
}

/// An annotation's severities, most serious first.
public enum AnnotationSeverityScale: RankScale {
    public static let all: [AuditAnnotation.Severity] = [.error, .warning, .notice]
}

extension RankedName where Scale == AnnotationSeverityScale {
    /// A problem, a failing check or a regression.
    public static var error: AuditAnnotation.Severity { AuditAnnotation.Severity("error", rank: 0) }
    /// A warning, a false claim, a color-vision warning, a declaration not read.
    public static var warning: AuditAnnotation.Severity { AuditAnnotation.Severity("warning", rank: 1) }
    /// Worth knowing, never wrong: a deprecated token.
    public static var notice: AuditAnnotation.Severity { AuditAnnotation.Severity("notice", rank: 2) }
}

extension AuditReport {
    /// Every finding of the audit, errors first (regressions, then problems, then failing
    /// checks), then warnings (the failures a baseline accepts last), then notices; in report
    /// order within each. Viewers show only the first few annotations of each kind in a step
    /// (``GitHubRenderer``), so what a change broke comes first.
    ///
    /// With a baseline, a failing check that the baseline holds as failing too, and that did not
    /// regress, is a warning: it is known and accepted, and does not fail the run. It stays an
    /// error when failures fail the run all the same (`--fail-on failures`), and a failing check
    /// new since the baseline (``BaselineComparison/added``) stays an error.
    public var annotations: [AuditAnnotation] {
        var problems: [AuditAnnotation] = [], failures: [AuditAnnotation] = [], warnings: [AuditAnnotation] = [], notices: [AuditAnnotation] = []
        var accepted: [AuditAnnotation] = []
        let acceptedKeys = acceptedFailureKeys
        for palette in palettes {
            for problem in palette.problems {
                problems.append(AuditAnnotation(.error, rule: "contrast/palette-problem", title: "Palette problem",
                                                message: problem.messageWithPlace, file: problem.file ?? palette.file,
                                                line: problem.location?.line, column: problem.location?.column))
            }
            // A declaration not read because of a problem reported at its place is that
            // problem's annotation already.
            let problemPlaces = Set(palette.problems.compactMap { p in p.location.map { "\(p.file ?? palette.file ?? "")\u{0}\($0.line)" } })
            for entry in palette.ledger?.notRead ?? [] where !problemPlaces.contains("\(entry.file ?? palette.file ?? "")\u{0}\(entry.line ?? -1)") {
                warnings.append(AuditAnnotation(.warning, rule: "contrast/not-read", title: "Declaration not read",
                                                message: entry.declarations > 1
                                                    ? "\(palette.name): \(entry.subject) are not read, so nothing that uses them is measured: \(entry.reason ?? "no reason given")"
                                                    : "\(palette.name): \(entry.name) is not read, so nothing that uses it is measured: \(entry.reason ?? "no reason given")",
                                                file: entry.file ?? palette.file, line: entry.line, column: entry.column))
            }
            for warning in palette.warnings ?? [] {
                warnings.append(AuditAnnotation(.warning, rule: "contrast/palette-warning", title: "Palette warning",
                                                message: warning.messageWithPlace, file: warning.file ?? palette.file,
                                                line: warning.location?.line, column: warning.location?.column))
            }
            for theme in palette.themes {
                for r in theme.results {
                    let place = r.place(in: palette)
                    let name = "\(palette.name) › \(theme.name) › \(r.id)"
                    func add(_ severity: AuditAnnotation.Severity, _ rule: String, _ title: String, _ message: String, to list: inout [AuditAnnotation]) {
                        list.append(AuditAnnotation(severity, rule: rule, title: "\(title): \(theme.name) › \(r.id)", message: "\(name): \(message)",
                                                    file: place.file, line: place.line))
                    }
                    // A failure the baseline accepts is a warning, said so; any other, an error.
                    let known = r.verdict == .fail && acceptedKeys.contains(BaselineEntry(palette.name, theme.name, r).key)
                    func fail(_ rule: String, _ title: String, _ message: String) {
                        if known {
                            add(.warning, rule, title, message + " (failing in the baseline too: accepted, so it does not fail the run)", to: &accepted)
                        } else {
                            add(.error, rule, title, message, to: &failures)
                        }
                    }
                    if r.verdict == .fail && r.kind == .distinct {
                        fail("contrast/confusable", "Confusable colors", "\(r.measuredLine). " + (r.reasons ?? []).joined(separator: " "))
                    } else if r.verdict == .fail {
                        let why = ([r.failureSummary] + r.reasonsBesideSummary + [TextRenderer(color: false).fixLine(r)].compactMap { $0 }).joined(separator: "; ")
                        fail("contrast/insufficient", "Insufficient contrast", "\(r.measuredLine); " + why)
                    }
                    if let warning = r.colorVisionWarning {
                        add(.warning, "contrast/color-vision", "Contrast lost to color vision", warning, to: &warnings)
                    }
                    if let claim = r.claim, !claim.supported {
                        add(.warning, "contrast/false-claim", "False contrast claim", claim.message, to: &warnings)
                    }
                    for note in r.deprecations {
                        add(.notice, "contrast/deprecated-token", "Deprecated token", note, to: &notices)
                    }
                }
            }
        }
        var regressions: [AuditAnnotation] = []
        for change in comparison?.regressions ?? [] {
            let palette = palettes.first { $0.name == change.after.palette }
            let result = palette?.themes.first { $0.name == change.after.theme }?.results.first { $0.id == change.after.check }
            let place: (file: String?, line: Int?) = palette.flatMap { p in result.map { $0.place(in: p) } } ?? (palette?.file, nil)
            regressions.append(AuditAnnotation(.error, rule: "contrast/regression", title: "Contrast regression: \(change.after.theme) › \(change.after.check)",
                                               message: "regressed: " + change.message, file: place.file, line: place.line))
        }
        return regressions + problems + failures + warnings + accepted + notices
    }

    /// The keys (``BaselineEntry/key``) of the failing checks a baseline accepts: failing in the
    /// baseline too, not regressed, while failures alone do not fail the run. Empty without a
    /// baseline.
    var acceptedFailureKeys: Set<String> {
        guard let comparison else { return [] }
        if outcome?.reasons.contains(where: { $0.code == .failingChecks }) == true { return [] }
        let regressed = Set(comparison.regressions.map(\.key))
        let added = Set(comparison.added)
        var keys: Set<String> = []
        for (palette, theme, result) in allResults where result.verdict == .fail {
            let key = BaselineEntry(palette.name, theme.name, result).key
            if !regressed.contains(key) && !added.contains(key) { keys.insert(key) }
        }
        return keys
    }
}

extension CheckResult {
    /// Where a result points: the foreground token's own declaration (what the check names),
    /// else the background's, else the value the foreground's alias chain ends at, else the
    /// background's, else the check itself, each with the file that holds that line.
    func place(in palette: PaletteReport) -> (file: String?, line: Int?) {
        // The token's own declaration, then the value its alias chain ends at.
        if let line = foreground.declaredLine { return (foreground.declaredFile ?? palette.file, line) }
        if let line = background.declaredLine { return (background.declaredFile ?? palette.file, line) }
        if let line = foreground.line { return (foreground.file ?? palette.file, line) }
        if let line = background.line { return (background.file ?? palette.file, line) }
        return (palette.file, line)
    }
}

extension PaletteProblem {
    /// The message with its JSON pointer and theme, without the file and line (an annotation
    /// carries those itself).
    var messageWithPlace: String {
        let at = pointer.segments.isEmpty ? "" : "\(pointer) "
        let inTheme = theme.map { "(theme '\($0)') " } ?? ""
        return at + inTheme + message
    }
}

/// Paths as the line-oriented formats need them.
public enum AnnotationPath {
    /// `file` as an absolute path, lexically normalized (`.` and `..` segments folded, no
    /// symbolic link followed): relative paths are taken from `workingDirectory`.
    public static func absolute(_ file: String, workingDirectory: String) -> String {
        let joined = file.hasPrefix("/") ? file : workingDirectory + "/" + file
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// `file` relative to `root` (a repository's checkout) when it lies under it; otherwise
    /// absolute. Both are normalized as ``absolute(_:workingDirectory:)`` does.
    public static func relative(_ file: String, to root: String, workingDirectory: String) -> String {
        let path = absolute(file, workingDirectory: workingDirectory)
        let base = absolute(root, workingDirectory: workingDirectory)
        if path == base { return "." }
        let prefix = base == "/" ? "/" : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
