import ColorScience
import TokenSources

/// The audit as JUnit XML: one `<testsuite>` per palette and theme, one `<testcase>` per check,
/// so every CI system shows contrast failures natively.
public enum JUnitRenderer {
    public static func render(_ report: AuditReport) -> String {
        let regressions = Dictionary(grouping: report.comparison?.regressions ?? [], by: \.key)
        let total = report.summary.checks + report.summary.problems
        let failures = report.summary.fail
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"contrast\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(report.summary.problems)\">\n"
        for palette in report.palettes {
            if !palette.problems.isEmpty {
                out += "  <testsuite name=\"\(xml(palette.name)) › problems\" tests=\"\(palette.problems.count)\" failures=\"0\" errors=\"\(palette.problems.count)\">\n"
                for (index, problem) in palette.problems.enumerated() {
                    out += "    <testcase classname=\"\(xml(palette.name)).problems\" name=\"\(xml(problem.pointer.description.isEmpty ? "problem \(index + 1)" : problem.pointer.description))\"\(palette.file.map { " file=\"\(xml($0))\"" } ?? "")>\n"
                    out += "      <error type=\"\(xml(problem.code.rawValue))\" message=\"\(xml(problem.message))\">\(xml(problem.description))</error>\n"
                    out += "    </testcase>\n"
                }
                out += "  </testsuite>\n"
            }
            for theme in palette.themes {
                let s = theme.summary
                out += "  <testsuite name=\"\(xml(palette.name)) › \(xml(theme.name))\" tests=\"\(s.checks)\" failures=\"\(s.fail)\" errors=\"0\" skipped=\"\(s.exempt)\">\n"
                for r in theme.results {
                    let key = "\(palette.name)/\(theme.name)/\(r.id)"
                    out += "    <testcase classname=\"\(xml(palette.name)).\(xml(theme.name))\" name=\"\(xml(r.id))\"\(palette.file.map { " file=\"\(xml($0))\"" } ?? "")\(r.line.map { " line=\"\($0)\"" } ?? "")>\n"
                    let detail = r.measuredLine
                    if r.verdict == .fail {
                        out += "      <failure type=\"\(r.kind == .distinct ? "distinct" : "contrast")\" message=\"\(xml(r.failureSummary))\">\(xml(([detail] + (r.reasons ?? []) + [TextRenderer(color: false).fixLine(r)].compactMap { $0 }).joined(separator: "\n")))</failure>\n"
                    } else if r.verdict == .exempt {
                        out += "      <skipped message=\"\(xml("exempt (\(r.usage)): \(r.display)"))\"/>\n"
                    }
                    if let change = regressions[key]?.first {
                        out += "      <system-err>\(xml("regressed against the baseline: " + change.message))</system-err>\n"
                    }
                    let notes = (r.claim.flatMap { $0.supported ? nil : ["false claim: " + $0.message] } ?? []) + r.deprecations + (r.colorVisionWarning.map { [$0] } ?? [])
                    if !notes.isEmpty {
                        out += "      <system-out>\(xml(notes.joined(separator: "\n")))</system-out>\n"
                    }
                    out += "    </testcase>\n"
                }
                out += "  </testsuite>\n"
            }
        }
        out += "</testsuites>\n"
        return out
    }

    /// Escapes text for XML attributes and content, dropping characters XML 1.0 cannot hold.
    static func xml(_ text: String) -> String {
        text.escaped { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\n": "&#10;"
            case "\t", "\r": nil
            default: scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) ? "\u{FFFD}" : nil
            }
        }
    }
}
