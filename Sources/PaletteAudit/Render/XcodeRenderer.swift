import ColorScience
import TokenSources

/// The audit as compiler-style diagnostics, `PATH:LINE:COL: error: …`, one line per finding
/// (``AuditReport/annotations``): what Xcode shows inline when a Run Script build phase prints
/// them, and what editors' problem matchers (VS Code's `$gcc`-style patterns, Vim's
/// `errorformat`, Emacs' compilation mode) read.
///
/// Paths are absolute, as Xcode needs them to place an issue; a color set's path is its
/// `Contents.json`. A finding without a column has `PATH:LINE:`, one without a line `PATH:`, and
/// one without a file (a regression of a palette that is gone) starts with its severity.
/// Severities are `error`, `warning` and `note`. A line break in a message becomes a space, so
/// every finding stays one line.
public enum XcodeRenderer {
    public static func render(_ report: AuditReport, workingDirectory: String) -> String {
        var out = ""
        for annotation in report.annotations { out += diagnostic(annotation, workingDirectory: workingDirectory) + "\n" }
        out += "contrast: " + report.summary.line + "\n"
        return out
    }

    static func diagnostic(_ a: AuditAnnotation, workingDirectory: String) -> String {
        var place = ""
        if let file = a.file {
            place = AnnotationPath.absolute(file, workingDirectory: workingDirectory)
            if let line = a.line { place += ":\(line)" }
            if let column = a.column { place += ":\(column)" }
            place += ": "
        }
        let severity = a.severity == .notice ? "note" : a.severity.description
        return oneLine("\(place)\(severity): \(a.title): \(a.message) [\(a.rule)]").terminalSafe
    }

    /// The text with each line break (CR, LF, CR LF, and the Unicode line and paragraph
    /// separators) replaced by one space.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" }) else { return text }
        return text.replacingLineBreaks()
    }
}

extension String {
    fileprivate func replacingLineBreaks() -> String {
        var out = ""
        var previousWasCR = false
        for scalar in unicodeScalars {
            if scalar == "\n" && previousWasCR { previousWasCR = false; continue }
            previousWasCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" { out += " " } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
