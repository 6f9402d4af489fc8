import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit
import TokenSources

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Audit palettes: every check in every theme, against WCAG and a baseline.",
        discussion: """
            PATH is a palette or token file of any format contrast reads (its palette format, DTCG tokens and resolvers, Tokens Studio, Style Dictionary, JSON5), or a directory searched recursively: a resolver document or a Tokens Studio folder ($themes.json) is one palette, other token files are merged into one, and every skipped file is listed with its reason. A broken palette is reported and the others are still audited. Warnings (an ignored property, a hex that disagrees with its components) are shown but never change the exit code.

            Without --checks, contrast.checks.json in each directory named (or in a named file's folder) is used when there is one, as `contrast init` writes it; the report's first line names it.

            Without --baseline the audit fails (exit 1) when any check fails. With --baseline it fails only on regressions against it (a check that met its level and no longer does, or fell to a lower WCAG level), so a team can migrate gradually; --fail-on changes that. --min-coverage P also fails it when checks measure less than P percent of the color tokens (every report gives the coverage). Exit 2 means the input is broken (unreadable file, bad palette, bad baseline), or a palette has color tokens and no checks, so nothing was measured (run `contrast init PATH` to propose checks, or pass --allow-empty).

            Examples:
              contrast audit palettes/
              contrast audit palettes/ --write-baseline contrast-baseline.json
              contrast audit palettes/ --baseline contrast-baseline.json --format junit --output contrast.xml
              contrast audit palettes/peptide-fox.json --theme dark --format markdown >> "$GITHUB_STEP_SUMMARY"
              contrast audit tokens/sds.resolver.json --checks contrast-rules.json
              contrast audit tokens/ --baseline contrast-baseline.json --format github   # annotations, and the job summary
              contrast audit tokens/ --format github --also json=audit.json --also sarif=audit.sarif   # one run, three outputs
              contrast audit Assets.xcassets --format xcode                              # issues in Xcode (Run Script phase)
            """
    )

    @OptionGroup var sources: SourceOptions

    @Option(help: "Output format.") var format: AuditFormat = .text

    @Option(help: "Write the report to FILE instead of standard output.") var output: String?

    @Option(help: "Compare with this baseline (written by --write-baseline).") var baseline: String?

    @Option(help: "Write the audit as a baseline to FILE (sorted, diff-friendly JSON to commit).") var writeBaseline: String?

    @Option(name: .customLong("also"), help: ArgumentHelp("Also write the same audit as FORMAT to FILE (repeatable: json=audit.json, sarif=audit.sarif, markdown=summary.md, junit, html, xcode, text), from this one run.", valueName: "FORMAT=FILE"))
    var also: [String] = []

    @Option(help: "What fails the run. Default: regressions with --baseline, failures without.") var failOn: FailOn?

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var limit: DeadlineOption

    func validate() throws {
        if failOn == .regressions && baseline == nil {
            throw ValidationError("--fail-on regressions needs a --baseline to compare with.")
        }
        _ = try alsoOutputs()
    }

    /// `--also FORMAT=FILE`, each a format other than github (whose annotations go to standard
    /// output and the job summary) and a file.
    func alsoOutputs() throws -> [(format: AuditFormat, file: String)] {
        try also.map { value in
            guard let equals = value.firstIndex(of: "="), case let name = String(value[..<equals]), case let file = String(value[value.index(after: equals)...]), !file.isEmpty else {
                throw ValidationError("--also \(value): expected FORMAT=FILE, for example --also sarif=contrast.sarif")
            }
            guard let format = AuditFormat(rawValue: name), format != .github else {
                throw ValidationError("--also \(value): '\(name)' is not a format --also writes (one of \(AuditFormat.allCases.filter { $0 != .github }.map(\.rawValue).joined(separator: ", ")))")
            }
            return (format, file)
        }
    }

    func run() throws {
        try limit.run("reading and auditing \(sources.paths.joined(separator: ", "))") { deadline in try audit(deadline) }
    }

    func audit(_ deadline: RunDeadline?) throws {
        var report = AuditRun.audit(paths: sources.paths, themes: sources.themeFilter, checks: sources.checks,
                                    threads: ProcessInfo.processInfo.activeProcessorCount, idiom: sources.idiom,
                                    ignoredProperties: sources.ignoredProperties, cvdPolicy: sources.cvdPolicy,
                                    maximumChecks: max(1, sources.maxPairs), referenceRoot: sources.root)
        try deadline?.check()
        let unknownThemes = AuditRun.unknownThemes(sources.themes, in: report)
        if !unknownThemes.isEmpty {
            throw InputError("no palette has a theme named \(unknownThemes.map { "'\($0)'" }.joined(separator: ", "))")
        }
        if let baseline {
            let data = Data(try Terminal.readFile(baseline, what: "baseline"))
            do {
                report.comparison = try Baseline.decode(data).compare(with: report)
            } catch {
                throw InputError("\(baseline): \(error)")
            }
        }
        let outcome = policy.policy(failOn: failOn, comparesWithBaseline: baseline != nil, paths: sources.paths).judge(report)
        report.outcome = outcome
        try deadline?.check()
        deadline?.now("writing the audit of \(sources.paths.joined(separator: ", "))")
        if let writeBaseline {
            try Terminal.emit(try Baseline(report).encoded(), to: writeBaseline)
        }
        try write(report, as: format, to: output)
        // The other formats from the same run: one read, one audit, one outcome.
        for (format, file) in try alsoOutputs() { try write(report, as: format, to: file) }
        // Standard error gets the first warnings; the report holds every one (a system of
        // thousands of untyped tokens would otherwise bury its errors).
        let shownWarnings = 20
        for warning in report.warnings.prefix(shownWarnings) { Terminal.writeError("warning: \(warning)") }
        if report.warnings.count > shownWarnings {
            Terminal.writeError("warning: … and \(report.warnings.count - shownWarnings) more warnings, every one in the report\(output.map { " (\($0))" } ?? "")")
        }
        for problem in report.problems { Terminal.writeErrorLine("\(problem)") }
        try outcome.exit()
    }

    func write(_ report: AuditReport, as format: AuditFormat, to output: String?) throws {
        switch format {
        case .json: try Terminal.emitPieces(to: output, report.writePrettyJSON)
        case .junit: try Terminal.emit(JUnitRenderer.render(report), to: output)
        case .markdown: try Terminal.emit(MarkdownRenderer.render(report), to: output)
        case .html:
            // The nightly report's page on its own (`contrast report` adds the JSON, the summary
            // and a history).
            try Terminal.emit(HTMLReport(title: "Contrast audit", generated: ISO8601DateFormatter().string(from: Date()), history: []).render(report), to: output)
        case .sarif: try Terminal.emit(try SARIFRenderer.render(report, toolVersion: Contrast.version), to: output)
        case .github: try GitHubActions.annotate(report, baseline: baseline, to: output)
        case .xcode:
            try Terminal.emit(XcodeRenderer.render(report, workingDirectory: FileManager.default.currentDirectoryPath), to: output)
        case .text:
            let color = output == nil && Terminal.stdoutWantsColor
            try Terminal.emit(TextRenderer(color: color).render(report), to: output)
        }
    }
}

