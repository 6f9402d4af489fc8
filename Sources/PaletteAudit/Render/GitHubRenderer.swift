/// The audit as GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line
/// per finding (``AuditReport/annotations``), each at its file, line and column relative to the
/// repository, then the summary as a plain line.
///
/// The runner turns each command into an annotation on the file and line it names (in the
/// pull request's diff and the run's summary). Messages and properties are escaped as the
/// runner's command parser unescapes them (actions/toolkit `packages/core/src/command.ts`).
/// The runner shows at most 10 errors and 10 warnings of a step, so regressions come right after
/// problems and before the failures a baseline already knows.
public enum GitHubRenderer {
    /// - Parameters:
    ///   - workingDirectory: the directory relative paths in the report are relative to.
    ///   - repositoryRoot: the checkout annotations are relative to (`$GITHUB_WORKSPACE`);
    ///     the working directory when nil.
    public static func render(_ report: AuditReport, workingDirectory: String, repositoryRoot: String? = nil) -> String {
        var out = ""
        // What fails the run without a line of its own comes first: an audit that measured
        // nothing, a coverage below the minimum.
        for reason in report.outcome?.reasons ?? [] where reason.code == .nothingMeasured || reason.code == .coverageBelow {
            let title = reason.code == .nothingMeasured ? "contrast: nothing measured" : "contrast: coverage"
            out += "::error title=" + escapeProperty(title) + "::" + escapeData(reason.message) + "\n"
        }
        for file in report.checksFiles ?? [] where file.origin == ChecksFile.found {
            out += "::notice title=contrast::" + escapeData(file.line) + "\n"
        }
        for annotation in report.annotations {
            out += command(annotation, workingDirectory: workingDirectory, repositoryRoot: repositoryRoot ?? workingDirectory) + "\n"
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
