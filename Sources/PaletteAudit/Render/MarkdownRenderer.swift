import ColorScience

/// The audit as Markdown, for pull-request comments and `$GITHUB_STEP_SUMMARY`.
public enum MarkdownRenderer {
    public static func render(_ report: AuditReport, title: String = "Contrast audit", comparedWith: String = "the baseline") -> String {
        var out = "## \(escape(title))\n\n**\(report.summary.line)**\n\n"
        if !report.palettes.isEmpty {
            out += "**Coverage:** \(report.coverage.line)\(report.coverage.gapLine.map { " · \($0)" } ?? "")\n\n"
        }
        for file in report.checksFiles ?? [] where file.origin == ChecksFile.found { out += "Checks: \(code(file.file)) (\(file.placement))\n\n" }
        for reason in report.outcome?.reasons ?? [] where reason.code == .nothingMeasured || reason.code == .coverageBelow {
            out += ":x: **\(reason.code == .nothingMeasured ? "Nothing was measured" : "Coverage below the minimum"):** \(escape(reason.message))\n\n"
        }
        if let comparison = report.comparison {
            out += "### Against \(escape(comparedWith))\n\n"
            out += "\(comparison.regressions.count) regression(s), \(comparison.improvements.count) improvement(s), \(comparison.added.count) added, \(comparison.removed.count) removed.\n\n"
            for change in comparison.regressions { out += "- :x: **regressed** \(escape(change.message))\n" }
            for change in comparison.improvements { out += "- :white_check_mark: improved \(escape(change.message))\n" }
            out += "\n"
        }
        out += "| Palette | Theme | Checks | Pass | Fail | Exempt | False claims | Coverage |\n|---|---|---:|---:|---:|---:|---:|---:|\n"
        for palette in report.palettes {
            for theme in palette.themes {
                let s = theme.summary
                let coverage = (theme.coverage ?? palette.coverage).map { c in c.percent.map { "\(Coverage.format($0))% of \(c.tokens)" } ?? "no colors" } ?? ""
                out += "| \(escape(palette.name)) | \(escape(theme.name)) | \(s.checks) | \(s.pass) | \(s.fail) | \(s.exempt) | \(s.falseClaims) | \(coverage) |\n"
            }
        }
        out += "\n"
        for palette in report.palettes {
            if let coverage = palette.coverage, coverage.unmeasuredText.count + coverage.unmeasuredSurfaces.count > 0 {
                out += "<details><summary>\(escape(palette.name)): \(coverage.gapLine ?? "")</summary>\n\n"
                for (label, list) in [("Text", coverage.unmeasuredText), ("Surfaces", coverage.unmeasuredSurfaces)] where list.count > 0 {
                    let more = list.count - (list.names?.count ?? 0)
                    out += "- \(label) (\(list.count)): " + (list.names ?? []).map(code).joined(separator: ", ") + (more > 0 ? ", … and \(more) more" : "") + "\n"
                }
                out += "\n</details>\n\n"
            }
            if !palette.problems.isEmpty {
                out += "### Problems in \(escape(palette.name))\n\n"
                for problem in palette.problems { out += "- \(code(problem.description))\n" }
                out += "\n"
            }
            if let warnings = palette.warnings, !warnings.isEmpty {
                out += "<details><summary>\(warnings.count) warning(s) in \(escape(palette.name))</summary>\n\n"
                for warning in warnings { out += "- \(code(warning.description))\n" }
                out += "\n</details>\n\n"
            }
            let failing = palette.themes.flatMap { theme in theme.results.filter { $0.verdict == .fail || $0.claim?.supported == false }.map { (theme.name, $0) } }
            if !failing.isEmpty {
                out += "### \(escape(palette.name)): failures and false claims\n\n"
                out += "| Theme | Check | Foreground | Background | Ratio | Needs | Verdict | Note | Nearest fix |\n|---|---|---|---|---:|---:|---|---|---|\n"
                for (theme, r) in failing {
                    let need = r.needsShort
                    var measured = r.display
                    if let d = r.distinction {
                        measured = "\(d.metric) \(Auditor.format1(d.simulatedDifference ?? d.difference))" + (d.deficiency.map { " (\($0))" } ?? "")
                    } else if let lc = r.apcaRequired, abs(r.apca) < lc {
                        measured += ", Lc \(Auditor.formatLc(r.apca))"
                    }
                    let note = ([r.claim.flatMap { $0.supported ? nil : $0.message }] + (r.reasons ?? []).map { Optional($0) } + r.deprecations.map { Optional($0) }).compactMap { $0 }.joined(separator: "; ")
                    let fix = TextRenderer(color: false).fixLine(r).map { escape(String($0.dropFirst("fix: ".count))) } ?? ""
                    out += "| \(escape(theme)) | \(escape(r.id)) | `\(r.foreground.hex)` \(escape(r.foreground.reference)) | `\(r.background.hex)` \(escape(r.background.reference)) | \(escape(measured)) | \(need) | \(r.verdict) | \(escape(note)) | \(fix) |\n"
                }
                out += "\n"
            }
            let warned = palette.themes.flatMap { theme in theme.results.filter { $0.cvd?.verdict == "warn" }.map { (theme.name, $0) } }
            if !warned.isEmpty {
                out += "<details><summary>\(warned.count) color-vision warning(s) in \(escape(palette.name))</summary>\n\n"
                for (theme, r) in warned {
                    guard let cvd = r.cvd else { continue }
                    out += "- \(escape(theme)) › \(escape(r.id)): \(cvd.display) under simulated \(cvd.deficiency) (`\(cvd.foreground)` on `\(cvd.background)`), below the \(CSSNumber.format(r.required ?? 0)):1 it passes in normal vision\n"
                }
                out += "\n</details>\n\n"
            }
            if !palette.assumptions.isEmpty {
                out += "<details><summary>\(palette.assumptions.count) assumption(s) in \(escape(palette.name))</summary>\n\n"
                for a in palette.assumptions {
                    out += "- \(escape(a.token ?? a.check ?? "value"))\(a.value.map { " = \(code($0))" } ?? ""): \(escape(a.reason))\n"
                }
                out += "\n</details>\n\n"
            }
        }
        return out
    }

    /// User text as inline Markdown that cannot become markup: no HTML (`<` and `&` as
    /// entities), no links, images, emphasis or code (their characters backslash-escaped), no
    /// table cells (`|`), and one line (a newline cannot start a heading or a list).
    ///
    /// GitHub turns some plain text into links after the Markdown is read, where escapes no
    /// longer count: URLs, `www.` hosts, e-mail addresses, `@mentions` and `#123` references.
    /// Text that could hold one is a code span instead, which GitHub shows as written.
    static func escape(_ text: String) -> String {
        // A table cell ends at a `|` even inside a code span unless it is escaped (GFM).
        if couldAutolink(text) { return code(text.replacing("|", with: "\\|")) }
        return text.escaped { scalar in
            switch scalar {
            case "<": "&lt;"
            case ">": "&gt;"
            case "&": "&amp;"
            case "\\", "`", "*", "_", "[", "]", "|", "~", "!", "#": "\\" + String(scalar)
            case "\n", "\r", "\u{2028}", "\u{2029}": " "
            default: String.needsTerminalEscape(scalar) ? " " : nil
            }
        }
    }

    /// Whether GitHub could make a link or a mention of some of `text`.
    static func couldAutolink(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.contains("@") || lower.contains("://") || lower.contains("www.") || lower.contains("mailto:") || lower.contains("xmpp:") { return true }
        // `#12`, `GH-12`, `owner/repo#12`
        var previous: Character = " "
        for ch in lower {
            if ch.isNumber && (previous == "#" || previous == "-" && lower.contains("gh-")) { return true }
            previous = ch
        }
        return false
    }

    /// User text as a code span, whatever it holds: fenced with more backticks than it contains
    /// (CommonMark), on one line. A code span renders its content literally, so no escaping
    /// beyond that is needed.
    static func code(_ text: String) -> String {
        let oneLine = text.escaped { scalar in
            String.needsTerminalEscape(scalar) ? " " : nil
        }
        var longest = 0, run = 0
        for ch in oneLine { if ch == "`" { run += 1; longest = max(longest, run) } else { run = 0 } }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = oneLine.hasPrefix("`") || oneLine.hasSuffix("`") || longest > 0 ? " " : ""
        return fence + pad + oneLine + pad + fence
    }
}
