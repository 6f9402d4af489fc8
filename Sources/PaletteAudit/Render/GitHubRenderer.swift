import TokenSources

/// The audit as GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line
/// per finding (``AuditReport/annotations``), each at its file, line and column relative to the
/// repository, then the summary as a plain line.
///
/// The runner turns each command into an annotation on the file and line it names (in the
/// pull request's diff and the run's summary). Messages and properties are escaped as the
/// runner's command parser unescapes them (actions/toolkit `packages/core/src/command.ts`).
///
/// GitHub keeps at most ``limit`` annotations of each kind (error, warning, notice) of a step
/// and drops the rest without a word (actions/toolkit `docs/problem-matchers.md`). So the
/// commands come in the order of ``AuditReport/annotations`` (regressions, then the other
/// errors, then warnings, then notices), at most ``limit`` of each kind, and when some are left
/// out one last notice says how many of each, and that the job summary and SARIF hold them all.
public enum GitHubRenderer {
    /// The annotations of each kind GitHub shows for one step.
    public static let limit = 10

    /// - Parameters:
    ///   - workingDirectory: the directory relative paths in the report are relative to.
    ///   - repositoryRoot: the checkout annotations are relative to (`$GITHUB_WORKSPACE`);
    ///     the working directory when nil.
    public static func render(_ report: AuditReport, workingDirectory: String, repositoryRoot: String? = nil) -> String {
        var errors: [String] = [], warnings: [String] = [], notices: [String] = []
        // What fails the run without a line of its own comes first: an audit that measured
        // nothing, a coverage below the minimum.
        for reason in report.outcome?.reasons ?? [] where reason.code == .nothingMeasured || reason.code == .coverageBelow {
            let title = reason.code == .nothingMeasured ? "contrast: nothing measured" : "contrast: coverage"
            errors.append("::error title=" + escapeProperty(title) + "::" + escapeData(reason.message))
        }
        for file in report.checksFiles ?? [] where file.origin == ChecksFile.found {
            notices.append("::notice title=contrast::" + escapeData(file.line))
        }
        for annotation in report.annotations {
            let line = command(annotation, workingDirectory: workingDirectory, repositoryRoot: repositoryRoot ?? workingDirectory)
            if annotation.severity == .error {
                errors.append(line)
            } else if annotation.severity == .warning {
                warnings.append(line)
            } else {
                notices.append(line)
            }
        }
        // The notice that says what was left out is a notice too: it takes the last place.
        let overflows = errors.count > limit || warnings.count > limit || notices.count > limit
        let shown = (errors: min(errors.count, limit), warnings: min(warnings.count, limit), notices: min(notices.count, overflows ? limit - 1 : limit))
        var out = ""
        for line in errors.prefix(shown.errors) + warnings.prefix(shown.warnings) + notices.prefix(shown.notices) { out += line + "\n" }
        if overflows {
            let left = [(errors.count - shown.errors, "error"), (warnings.count - shown.warnings, "warning"), (notices.count - shown.notices, "notice")]
                .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
            out += "::notice title=contrast%3A more findings::" + escapeData(
                "\(left.joined(separator: ", ")) more not annotated: GitHub shows \(limit) annotations of each kind per step. "
                    + "The job summary and the SARIF report (--format sarif) hold all \(errors.count + warnings.count + notices.count).") + "\n"
        }
        out += "contrast: " + report.summary.line + (report.palettes.isEmpty ? "" : " · coverage: " + report.coverage.line) + "\n"
        return out
    }

    static func command(_ a: AuditAnnotation, workingDirectory: String, repositoryRoot: String) -> String {
        var properties: [String] = []
        if let file = a.file {
            properties.append("file=" + escapeProperty(AnnotationPath.relative(file, to: repositoryRoot, workingDirectory: workingDirectory)))
            if let line = a.line { properties.append("line=\(line)") }
            if let column = a.column { properties.append("col=\(column)") }
        }
        properties.append("title=" + escapeProperty(a.title))
        return "::\(a.severity)" + " " + properties.joined(separator: ",") + "::" + escapeData(a.message)
    }

    /// A command's message: `%` as `%25`, carriage return as `%0D`, line feed as `%0A`.
    public static func escapeData(_ text: String) -> String {
        text.escaped {
            switch $0 {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            // Escape codes and bidi overrides, which the log would render, are shown as text
            // (the runner splits lines at CR and LF only, so the line separators stay as written).
            default: String.needsTerminalEscape($0) && $0 != "\u{2028}" && $0 != "\u{2029}" ? String($0).terminalSafe : nil
            }
        }
    }

    /// A property value: as a message, and `:` as `%3A`, `,` as `%2C`.
    public static func escapeProperty(_ text: String) -> String {
        text.escaped {
            switch $0 {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            case ":": "%3A"
            case ",": "%2C"
            default: String.needsTerminalEscape($0) && $0 != "\u{2028}" && $0 != "\u{2029}" ? String($0).terminalSafe : nil
            }
        }
    }
}
