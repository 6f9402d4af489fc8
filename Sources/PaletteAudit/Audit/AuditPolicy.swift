public import TokenSources

/// What fails a run of the audit, decided in one place for every edge: the exit status of
/// `contrast audit` and `contrast report` (and so of the GitHub Action, the pre-commit hooks and
/// the SwiftPM plugin, which run them), and the `outcome` of the HTTP API's audits.
///
/// In order of weight:
/// - **broken**: a palette problem (a bad color, an unknown token, a limit) kept checks from
///   running;
/// - **empty**: a palette has color tokens and no check measured any of them, so the audit
///   says nothing about it (unless ``allowEmpty``);
/// - **fail**: a check fails (``FailOn/failures``), or regressed against the baseline
///   (``FailOn/regressions``), or the coverage is below ``minimumCoverage``;
/// - **pass**: none of these.
public struct AuditPolicy: Sendable {
    /// What findings fail the run (`--fail-on`).
    public enum FailOn: String, CaseIterable, Sendable {
        case failures, regressions, never
    }

    /// nil: regressions when the run compares with a baseline, failures otherwise.
    public var failOn: FailOn?
    /// Whether the run compares with a baseline (`--baseline`, a report's `--history`): the
    /// default of ``failOn``. A history's first run has nothing to regress from, and passes.
    public var comparesWithBaseline: Bool
    /// A palette with colors and no checks passes (`--allow-empty`).
    public var allowEmpty: Bool
    /// The least share of color tokens, in percent, that checks must measure (`--min-coverage`).
    public var minimumCoverage: Double?
    /// Where the run comes from, for the advice its reasons give.
    public var edge: Edge

    public enum Edge: Sendable, Equatable {
        /// The command line, with the paths it audits (`contrast init PATH` proposes their checks).
        case commandLine(paths: [String])
        /// The HTTP API: a posted or served palette.
        case service
    }

    public init(failOn: FailOn? = nil, comparesWithBaseline: Bool = false, allowEmpty: Bool = false, minimumCoverage: Double? = nil,
                edge: Edge = .service) {
        self.failOn = failOn
        self.comparesWithBaseline = comparesWithBaseline
        self.allowEmpty = allowEmpty
        self.minimumCoverage = minimumCoverage
        self.edge = edge
    }

    /// The findings that fail the run: ``failOn``, or its default.
    public var effectiveFailOn: FailOn { failOn ?? (comparesWithBaseline ? .regressions : .failures) }

    /// The palettes with color tokens that no check measured (none ran and none was unresolved).
    public static func unmeasured(_ report: AuditReport) -> [PaletteReport] {
        report.palettes.filter { palette in
            guard let coverage = palette.coverage, coverage.tokens > 0 else { return false }
            return palette.themes.allSatisfy { $0.results.isEmpty && ($0.unresolved ?? []).isEmpty }
        }
    }

    /// The run's outcome: its status and every reason it does not pass.
    public func judge(_ report: AuditReport) -> AuditOutcome {
        var reasons: [AuditOutcome.Reason] = []
        var status = AuditOutcome.Status.pass
        func worsen(_ to: AuditOutcome.Status) { if to.weight > status.weight { status = to } }
        let problems = report.problems.count
        if problems > 0 {
            worsen(.broken)
            reasons.append(.init(.problems, "\(problems) problem\(problems == 1 ? "" : "s") in the input kept checks from running"))
        }
        let unmeasured = AuditPolicy.unmeasured(report)
        if !unmeasured.isEmpty && !allowEmpty {
            worsen(.empty)
            reasons.append(.init(.nothingMeasured, emptyMessage(unmeasured, of: report.palettes.count)))
        }
        switch effectiveFailOn {
        case .failures where report.summary.fail > 0:
            worsen(.fail)
            let fail = report.summary.fail
            reasons.append(.init(.failingChecks, "\(fail) of \(report.summary.checks) checks fail"))
        case .regressions where !(report.comparison?.regressions.isEmpty ?? true):
            worsen(.fail)
            let count = report.comparison?.regressions.count ?? 0
            reasons.append(.init(.regressions, "\(count) check\(count == 1 ? "" : "s") regressed against the baseline"))
        default: break
        }
        if let minimum = minimumCoverage, report.coverage.isBelow(minimum) {
            worsen(.fail)
            let coverage = report.coverage
            let shown = coverage.percent.map { "\(Coverage.format($0))%" } ?? "0%"
            let option = edge == .service ? "the minimum" : "--min-coverage"
            let gaps = coverage.gapLine.map { "; \($0) (the report lists them)" } ?? ""
            reasons.append(.init(.coverageBelow, "coverage \(shown) is below \(option) \(Coverage.format(minimum))%: \(coverage.measured) of \(coverage.tokens) color tokens are measured by some check\(gaps)"))
        }
        return AuditOutcome(status: status, reasons: reasons)
    }

    /// "tokens has 42 color tokens and no checks: nothing was measured. Run `contrast init
    /// tokens/` to propose checks, or pass --allow-empty."
    func emptyMessage(_ palettes: [PaletteReport], of all: Int) -> String {
        func tokens(_ p: PaletteReport) -> Int { p.coverage?.tokens ?? 0 }
        func subject(_ p: PaletteReport) -> String {
            if let file = p.file { return file.excerpt(200) }
            return "palette '\(p.name.excerpt(80))'"
        }
        var fact: String
        if palettes.count == 1, let only = palettes.first {
            fact = "\(subject(only)) has \(tokens(only)) color token\(tokens(only) == 1 ? "" : "s") and no checks: nothing was measured"
            if all > 1 { fact += " in it" }
        } else {
            let shown = palettes.prefix(5).map { "\(subject($0)) (\(tokens($0)) color token\(tokens($0) == 1 ? "" : "s"))" }
            let more = palettes.count > 5 ? ", and \(palettes.count - 5) more" : ""
            fact = "\(palettes.count) palettes have color tokens and no checks, so nothing was measured in \(palettes.count == all ? "any of them" : "them"): "
                + shown.joined(separator: ", ") + more
        }
        switch edge {
        case .commandLine(let paths):
            let named = paths.isEmpty ? palettes.compactMap(\.file) : paths
            let command = (["contrast", "init"] + named.prefix(8).map(AuditPolicy.shellWord)).joined(separator: " ")
            return fact + ". Run `\(command)` to propose checks, or pass --allow-empty."
        case .service:
            return fact + ". Run `contrast init` on its tokens to propose checks, or add \"checks\" to the document (docs/palette-format.md)."
        }
    }

    /// A path as a shell word: as it is when it is plain, else in single quotes.
    static func shellWord(_ path: String) -> String {
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || "/._-+,:@=%".unicodeScalars.contains(s)
        }
        let excerpt = path.excerpt(200)
        return plain ? excerpt : "'" + excerpt.replacing("'", with: "'\\''") + "'"
    }
}

/// Whether a run passes, and why not: what ``AuditPolicy/judge(_:)`` returns, and what the audit
/// JSON carries as `outcome`.
public struct AuditOutcome: Hashable, Sendable, Codable {
    public var status: Status
    /// Every reason the run does not pass, weightiest first (empty for a pass).
    public var reasons: [Reason]

    public init(status: Status, reasons: [Reason]) {
        self.status = status
        self.reasons = reasons
    }

    /// The CLI's exit status: 0 pass, 1 fail, 2 empty or broken (input that cannot be judged).
    public var exitCode: Int32 {
        switch status {
        case .pass: 0
        case .fail: 1
        default: 2
        }
    }

    public var passed: Bool { status == .pass }

    /// `pass`, `fail`, `empty` or `broken`: a closed set, written as a string.
    public struct Status: Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String
        let weight: Int
        private init(_ rawValue: String, _ weight: Int) {
            self.rawValue = rawValue
            self.weight = weight
        }

        public static let pass = Status("pass", 0)
        public static let fail = Status("fail", 1)
        /// Colors and no check: nothing was measured.
        public static let empty = Status("empty", 2)
        /// Problems in the input kept checks from running.
        public static let broken = Status("broken", 3)
        public static let all: [Status] = [.pass, .fail, .empty, .broken]

        public var description: String { rawValue }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let known = Status.all.first(where: { $0.rawValue == text }) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not one of pass, fail, empty, broken")
            }
            self = known
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// One reason a run does not pass.
    public struct Reason: Hashable, Sendable, Codable {
        public var code: Code
        public var message: String

        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }

        /// What the reason is, for programs: stable across releases.
        public struct Code: ErrorCode {
            public let rawValue: String
            public init(_ rawValue: String) { self.rawValue = rawValue }

            /// Palette problems kept checks from running (each is listed among the problems).
            public static let problems = Code("problems")
            /// A palette has color tokens and no checks.
            public static let nothingMeasured = Code("nothing-measured")
            /// Checks fail (without a baseline, or with `--fail-on failures`).
            public static let failingChecks = Code("failing-checks")
            /// Checks regressed against the baseline.
            public static let regressions = Code("regressions")
            /// The coverage is below the minimum asked for.
            public static let coverageBelow = Code("coverage-below")
        }
    }
}
