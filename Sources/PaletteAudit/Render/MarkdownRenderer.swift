import ColorScience
import TokenSources

/// The audit as Markdown, for pull-request comments, `$GITHUB_STEP_SUMMARY` and the nightly
/// report's `summary.md`: at most ``defaultLimit`` bytes by construction (GitHub refuses a job
/// summary over 1 MiB). What matters comes first, so what a limit leaves out is the least of it:
/// the totals and coverage, the regressions, where the failures come from (rules, tokens,
/// themes), then each failing check once with the themes it fails in alike, then the details.
/// What does not fit is counted ("… and 212 more failing checks"), never cut mid-line.
public enum MarkdownRenderer {
    /// GitHub's limit for a step's job summary.
    public static let defaultLimit = 1 << 20
    /// How many rules and tokens the triage lists.
    public static let triageRows = 10

    /// Appends what fits under the limit, keeping room for the closing notes.
    struct Writer {
        var out = ""
        let limit: Int
        /// Room kept for the "and N more" notes and the closing line.
        let reserve = 2_048
        var full = false

        /// Appends `text` when it fits; false (and nothing appended) when it does not.
        mutating func add(_ text: String) -> Bool {
            if full { return false }
            if out.utf8.count + text.utf8.count > limit - reserve {
                full = true
                return false
            }
            out += text
            return true
        }

        /// Appends a note past the limit's reserve (the "and N more" lines).
        mutating func note(_ text: String) {
            if out.utf8.count + text.utf8.count <= limit { out += text }
        }
    }

    public static func render(_ report: AuditReport, title: String = "Contrast audit", comparedWith: String = "the baseline", limit: Int = defaultLimit) -> String {
        var w = Writer(limit: max(limit, 4_096))
        var head = "## \(escape(title))\n\n**\(report.summary.line)**\n\n"
        if !report.palettes.isEmpty {
            head += "**Coverage:** \(report.coverage.line)\(report.coverage.gapLine.map { " · \($0)" } ?? "")\n\n"
        }
        for file in report.checksFiles ?? [] where file.origin == ChecksFile.found { head += "Checks: \(code(file.file)) (\(file.placement))\n\n" }
        for reason in report.outcome?.reasons ?? [] where reason.code == .nothingMeasured || reason.code == .coverageBelow {
            head += ":x: **\(reason.code == .nothingMeasured ? "Nothing was measured" : "Coverage below the minimum"):** \(escape(reason.message.excerpt(600)))\n\n"
        }
        _ = w.add(head)
        if let comparison = report.comparison {
            _ = w.add("### Against \(escape(comparedWith))\n\n\(comparison.regressions.count) regression(s), \(comparison.improvements.count) improvement(s), \(comparison.added.count) added, \(comparison.removed.count) removed.\n\n")
            list(&w, comparison.regressions.map { "- :x: **regressed** \(escape($0.message))\n" }, more: "regressions")
            list(&w, comparison.improvements.map { "- :white_check_mark: improved \(escape($0.message))\n" }, more: "improvements")
            _ = w.add("\n")
        }
        let triage = FailureTriage(report)
        // One row per theme, as many as fit (a system of a thousand themes fills the limit here).
        _ = w.add("| Palette | Theme | Checks | Pass | Fail | Exempt | False claims | Coverage |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
        var themeRows: [String] = []
        for palette in report.palettes {
            for theme in palette.themes {
                let s = theme.summary
                let coverage = (theme.coverage ?? palette.coverage).map { c in c.percent.map { "\(Coverage.format($0))% of \(c.tokens)" } ?? "no colors" } ?? ""
                themeRows.append("| \(escape(palette.name)) | \(escape(theme.name)) | \(s.checks) | \(s.pass) | \(s.fail) | \(s.exempt) | \(s.falseClaims) | \(coverage) |\n")
            }
        }
        list(&w, themeRows, more: "themes")
        _ = w.add("\n")
        if triage.failing > 0 {
            triageSection(&w, triage)
        }
        for palette in report.palettes {
            if !palette.problems.isEmpty, w.add("### Problems in \(escape(palette.name))\n\n") {
                list(&w, palette.problems.map { "- \(code($0.description))\n" }, more: "problems")
                _ = w.add("\n")
            }
        }
        let failures = triage.failures
        if !failures.isEmpty {
            var rows: [String] = []
            var palette: String?
            for failure in failures {
                if failure.palette != palette {
                    palette = failure.palette
                    rows.append("\n### \(escape(failure.palette)): failures and false claims\n\n| Themes | Check | Foreground | Background | Ratio | Needs | Verdict | Note | Nearest fix |\n|---|---|---|---|---:|---:|---|---|---|\n")
                }
                rows.append(failureRow(failure, themes: triage.themeCounts[failure.palette] ?? 0))
            }
            let listed = list(&w, rows, more: nil)
            let shown = rows[..<listed].filter { $0.hasPrefix("| ") }.count
            if shown < failures.count {
                w.note("\n… and \(failures.count - shown) more failing checks, not listed here: every one is in the audit's JSON (`audit.json` of `contrast report`, or `--format json`).\n")
            }
            _ = w.add("\n")
        }
        for palette in report.palettes {
            if let coverage = palette.coverage, coverage.unmeasuredText.count + coverage.unmeasuredSurfaces.count > 0 {
                var block = "<details><summary>\(escape(palette.name)): \(coverage.gapLine ?? "")</summary>\n\n"
                for (label, list) in [("Text", coverage.unmeasuredText), ("Surfaces", coverage.unmeasuredSurfaces)] where list.count > 0 {
                    let more = list.count - (list.names?.count ?? 0)
                    block += "- \(label) (\(list.count)): " + (list.names ?? []).map(code).joined(separator: ", ") + (more > 0 ? ", … and \(more) more" : "") + "\n"
                }
                _ = w.add(block + "\n</details>\n\n")
            }
            if let warnings = palette.warnings, !warnings.isEmpty, w.add("<details><summary>\(warnings.count) warning(s) in \(escape(palette.name))</summary>\n\n") {
                list(&w, warnings.map { "- \(code($0.description))\n" }, more: "warnings")
                w.note("\n</details>\n\n")
            }
            let warned = palette.themes.flatMap { theme in theme.results.filter { $0.cvd?.verdict == "warn" }.map { (theme.name, $0) } }
            if !warned.isEmpty, w.add("<details><summary>\(warned.count) color-vision warning(s) in \(escape(palette.name))</summary>\n\n") {
                list(&w, warned.compactMap { theme, r in
                    r.cvd.map { cvd in "- \(escape(theme)) › \(escape(r.id)): \(cvd.display) under simulated \(cvd.deficiency) (`\(cvd.foreground)` on `\(cvd.background)`), below the \(CSSNumber.format(r.required ?? 0)):1 it passes in normal vision\n" }
                }, more: "color-vision warnings")
                w.note("\n</details>\n\n")
            }
            if !palette.assumptions.isEmpty, w.add("<details><summary>\(palette.assumptions.count) assumption(s) in \(escape(palette.name))</summary>\n\n") {
                list(&w, palette.assumptions.map { a in
                    "- \(escape(a.token ?? a.check ?? "value"))\(a.value.map { " = \(code($0))" } ?? ""): \(escape(a.reason))\n"
                }, more: "assumptions")
                w.note("\n</details>\n\n")
            }
        }
        if w.full {
            w.note("\n_This summary stops at \(limit / 1024) KiB (GitHub's limit for a job summary); the audit's JSON holds everything._\n")
        }
        return w.out
    }

    /// Appends the lines that fit; past the first that does not, "… and N more THING" (when
    /// `more` names them). Returns how many were appended.
    @discardableResult
    static func list(_ w: inout Writer, _ lines: [String], more: String?) -> Int {
        for (i, line) in lines.enumerated() where !w.add(line) {
            if let more { w.note("- … and \(lines.count - i) more \(more)\n") }
            return i
        }
        return lines.count
    }

    /// Where the failures come from: the rules and tokens failing most, and the failures of
    /// each theme that has some.
    static func triageSection(_ w: inout Writer, _ triage: FailureTriage) {
        guard w.add("### Where the \(triage.failing) failures come from\n\n") else { return }
        let palettes = Set(triage.rules.map(\.palette)).count
        func named(_ palette: String, _ name: String) -> String { palettes > 1 ? "\(escape(palette)) › \(code(name))" : code(name) }
        var rules = "| Rule or check | Failing | of | Themes |\n|---|---:|---:|---|\n"
        for rule in triage.rules.prefix(triageRows) {
            rules += "| \(named(rule.palette, rule.name)) | \(rule.failing) | \(rule.checks) | \(themeList(rule.themes, of: triage.themeCounts[rule.palette] ?? 0)) |\n"
        }
        if triage.rules.count > triageRows { rules += "| … and \(triage.rules.count - triageRows) more rules | | | |\n" }
        _ = w.add(rules + "\n")
        var tokens = "| Token | Failing checks using it | Themes |\n|---|---:|---|\n"
        for token in triage.tokens.prefix(triageRows) {
            tokens += "| \(named(token.palette, token.name)) | \(token.failing) | \(themeList(token.themes, of: triage.themeCounts[token.palette] ?? 0)) |\n"
        }
        if triage.tokens.count > triageRows { tokens += "| … and \(triage.tokens.count - triageRows) more tokens | | |\n" }
        _ = w.add(tokens + "\n")
    }

    /// "all 14 themes" when they are all of the palette's (and more than two), else up to five
    /// theme names, then how many more.
    static func themeList(_ themes: [String], of total: Int = 0) -> String {
        if themes.count == total, total > 2 { return "all \(total) themes" }
        let shown = themes.prefix(5).map(escape).joined(separator: ", ")
        return themes.count > 5 ? "\(shown) and \(themes.count - 5) more" : shown
    }

    static func failureRow(_ failure: FailureTriage.Failure, themes total: Int) -> String {
        let r = failure.result
        let need = r.needsShort
        var measured = r.display
        if let d = r.distinction {
            measured = "\(d.metric) \(Auditor.format1(d.simulatedDifference ?? d.difference))" + (d.deficiency.map { " (\($0))" } ?? "")
        } else if let lc = r.apcaRequired, abs(r.apca) < lc {
            measured += ", Lc \(Auditor.formatLc(r.apca))"
        }
        let note = ([r.claim.flatMap { $0.supported ? nil : $0.message }] + (r.reasons ?? []).map { Optional($0) } + r.deprecations.map { Optional($0) }).compactMap { $0 }.joined(separator: "; ")
        let fix = TextRenderer(color: false).fixLine(r).map { escape(String($0.dropFirst("fix: ".count))) } ?? ""
        return "| \(themeList(failure.themes, of: total)) | \(escape(r.id)) | `\(r.foreground.hex)` \(escape(r.foreground.reference)) | `\(r.background.hex)` \(escape(r.background.reference)) | \(escape(measured)) | \(need) | \(r.verdict) | \(escape(note.excerpt(400))) | \(fix) |\n"
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
