import ColorScience
import TokenSources

/// The audit as an aligned table for a terminal: failures first, then the rest, and a summary.
public struct TextRenderer: Sendable {
    /// Whether to draw color swatches and colored verdicts (true-color ANSI).
    public var color: Bool

    public init(color: Bool) {
        self.color = color
    }

    public func render(_ report: AuditReport) -> String {
        var out = ""
        // The checks the audit found by itself (given ones the operator knows).
        for file in report.checksFiles ?? [] where file.origin == ChecksFile.found { out += t(file.line) + "\n" }
        for skipped in report.skipped {
            out += paint("skipped", ANSI.yellow) + "  \(t(skipped.file)): \(t(skipped.reason))\n"
        }
        if !report.skipped.isEmpty { out += "\n" }
        for palette in report.palettes {
            out += heading(t(palette.name) + (palette.file.map { "  (\(t($0)))" } ?? "")) + "\n"
            if let format = palette.format {
                out += "  read as \(t(format))\(palette.files.map { " from \($0.count) file\($0.count == 1 ? "" : "s")" } ?? "")\n"
            }
            if let ledger = palette.ledger {
                out += "  \(t(ledger.headline))\n"
                for entry in ledger.notRead {
                    let place = [entry.file.map(t), entry.line.map(String.init), entry.column.map(String.init)].compactMap { $0 }.joined(separator: ":")
                    out += "  " + paint("not read", ANSI.yellow) + "  \(place.isEmpty ? "" : place + ": ")\(t(entry.subject)): \(t(entry.reason ?? ""))\n"
                }
            }
            if let coverage = palette.coverage { out += coverageLines(coverage, indent: "  ") }
            for problem in palette.problems {
                out += "  " + paint("problem", ANSI.red) + "  \(t(problem.description))\n"
            }
            for warning in palette.warnings ?? [] {
                out += "  " + paint("warning", ANSI.yellow) + "  \(t(warning.description))\n"
            }
            for assumption in palette.assumptions {
                let subject = assumption.token.map { "token \(t($0))" } ?? assumption.check.map { "check \(t($0))" } ?? "value"
                out += "  " + paint("assumed", ANSI.yellow) + "  \(subject)\(assumption.value.map { " = \(t($0))" } ?? ""): \(t(assumption.reason))\n"
            }
            for theme in palette.themes {
                out += "\n  " + heading("theme \(t(theme.name))") + "  " + theme.summary.line + "\n"
                if let coverage = theme.coverage { out += coverageLines(coverage, indent: "    ") }
                for u in theme.unresolved ?? [] {
                    out += "    " + paint("UNRESOLVED", ANSI.red) + "  \(t(u.id))  \(t(u.foreground)) on \(t(u.background)): see the problem above\n"
                }
                let ordered = theme.results.filter { $0.verdict == .fail } + theme.results.filter { $0.verdict != .fail }
                let rows = ordered.map { row($0) }
                let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
                for (result, cells) in zip(ordered, rows) {
                    var line = "    "
                    line += pad(verdictLabel(result), plain: cells[0], to: widths[0]) + "  "
                    if color { line += ANSI.swatch(foreground: displayForeground(result), background: displayBackground(result)) + " " }
                    for column in 1..<5 {
                        line += cells[column].padding(toLength: widths[column]) + "  "
                    }
                    out += line.trimmingTrailingSpaces() + "\n"
                    for reason in result.reasons ?? [] { out += "        " + t(reason) + "\n" }
                    for note in result.deprecations { out += "        " + paint("deprecated", ANSI.yellow) + ": \(t(note))\n" }
                    if let fix = fixLine(result) { out += "        " + fix + "\n" }
                    if let claim = result.claim, !claim.supported {
                        out += "        " + paint("false claim", ANSI.yellow) + ": " + t(claim.message) + "\n"
                    }
                    if let cvd = result.cvd, let verdict = cvd.verdict, verdict != "pass" {
                        let label = verdict == "fail" ? paint("color vision", ANSI.red) : paint("color vision", ANSI.yellow)
                        out += "        \(label): \(cvd.display) under simulated \(cvd.deficiency) (\(cvd.foreground) on \(cvd.background)), below the \(CSSNumber.format(result.required ?? 0)):1 required\(verdict == "warn" ? " (a warning; \"cvd\": \"fail\" makes it a failure)" : "")\n"
                    }
                    if let gradient = result.gradient {
                        out += "        gradient (\(t(gradient.interpolation))): worst \(gradient.worst.display) at \(Auditor.percent(gradient.worst.position)) (\(gradient.worst.color)), best \(gradient.best.display) at \(Auditor.percent(gradient.best.position)) (\(gradient.best.color))\(gradient.lengthPositions == true ? "; some stops are placed in lengths, so every segment was judged in full" : "")\n"
                    }
                    if let range = result.range {
                        out += "        translucent background over an unknown backdrop: \(RatioFormat.display(range.worst)) (on \(range.worstBackdrop)) to \(RatioFormat.display(range.best)) (on \(range.bestBackdrop))\n"
                    }
                }
            }
            out += "\n"
        }
        if let comparison = report.comparison {
            out += heading("against the baseline") + "  \(comparison.regressions.count) regression\(comparison.regressions.count == 1 ? "" : "s") · \(comparison.improvements.count) improvement\(comparison.improvements.count == 1 ? "" : "s") · \(comparison.added.count) added · \(comparison.removed.count) removed\n"
            for change in comparison.regressions {
                out += "  " + paint("regressed", ANSI.red) + "  " + t(change.message) + "\n"
                if let result = result(for: change.key, in: report), let fix = fixLine(result) { out += "             " + fix + "\n" }
            }
            for change in comparison.improvements { out += "  " + paint("improved", ANSI.green) + "   " + t(change.message) + "\n" }
            for key in comparison.added { out += "  added      \(t(key))\n" }
            for key in comparison.removed { out += "  removed    \(t(key))\n" }
            out += "\n"
        }
        out += report.summary.line + "\n"
        if !report.palettes.isEmpty { out += "coverage: " + report.coverage.line + (report.coverage.gapLine.map { "; \($0)" } ?? "") + "\n" }
        let refused = report.outcome?.reasons.contains { $0.code == .nothingMeasured } ?? false
        if report.summary.checks == 0 && !report.palettes.isEmpty && report.problems.isEmpty && !refused {
            // Tokens read and nothing asked of them: say how to ask.
            out += "no checks: `contrast init PATH` proposes checks from the token names (text on surfaces, borders, icons); or give --checks FILE\n"
        }
        return out
    }

    /// "coverage: 12 of 40 color tokens measured (30%)", then the text-like and surface-like
    /// tokens no check measures, the first of each named.
    func coverageLines(_ coverage: Coverage, indent: String) -> String {
        var out = indent + "coverage: " + coverage.line + "\n"
        for (label, list) in [("text", coverage.unmeasuredText), ("surfaces", coverage.unmeasuredSurfaces)] where list.count > 0 {
            let names = (list.names ?? []).map(t).joined(separator: ", ")
            let more = list.count - (list.names?.count ?? 0)
            out += indent + paint("not measured", ANSI.yellow) + "  \(label) (\(list.count)): \(names)\(more > 0 ? ", … and \(more) more" : "")\n"
        }
        return out
    }

    /// "fix: foreground #767676 (darker, ΔE-OK 0.004, 4.54:1) · background … · both …"
    public func fixLine(_ r: CheckResult) -> String? {
        guard let s = r.suggestions else { return nil }
        func describe(_ c: SuggestedColor, _ original: SRGB) -> String {
            let swatch = color ? ANSI.swatch(foreground: (try? SRGB(css: c.hex)) ?? original, background: (try? SRGB(css: c.hex)) ?? original, text: "  ") + " " : ""
            // An APCA target is met by the Lc too: show it.
            let lc = r.apcaRequired == nil ? "" : ", Lc \(Auditor.formatLc(c.apca))"
            return "\(swatch)\(c.hex) (\(c.direction), ΔE-OK \(Auditor.format3(c.deltaEOK)), \(c.display)\(lc))"
        }
        var parts: [String] = []
        if let f = s.foreground.first { parts.append("foreground " + describe(f, r.foreground.color)) }
        if let b = s.background.first { parts.append("background " + describe(b, r.background.color)) }
        if let both = s.both { parts.append("both \(both.foreground.hex) on \(both.background.hex) (\(both.foreground.display)\(r.apcaRequired == nil ? "" : ", Lc \(Auditor.formatLc(both.foreground.apca))"))") }
        var line = parts.isEmpty ? "" : "fix: " + parts.joined(separator: " · ")
        for note in s.notes ?? [] { line += (line.isEmpty ? "" : "; ") + note }
        return line.isEmpty ? nil : line
    }

    func row(_ r: CheckResult) -> [String] {
        // "≈" marks a hex that is only the nearest 8-bit color of the one measured.
        func shown(_ c: ResolvedColor) -> String { (c.color.isExactIn8Bit ? "" : "≈") + c.hex }
        let colors = "\(shown(r.foreground)) / \(shown(r.background))"
        if let d = r.distinction {
            let pair = "\(t(r.foreground.reference)) vs \(t(r.background.reference))"
            var measured = "\(d.metric) \(Auditor.format1(d.difference))"
            if let deficiency = d.deficiency, let simulated = d.simulatedDifference { measured += "; \(Auditor.format1(simulated)) under \(deficiency)" }
            return [r.verdict.rawValue.uppercased(), t(r.id), pair + "  " + colors, measured, "needs \(CSSNumber.format(d.threshold)) apart (normal vision and \(d.deficiencies.joined(separator: ", ")))"]
        }
        let versus = r.relation == RelationName.change || r.relation == RelationName.linkVersusText
        let pair = "\(t(r.foreground.reference)) \(versus ? "vs" : "on") \(t(r.background.reference))"
        let need: String
        if let required = r.required {
            let basis = r.technique.map { "\($0), SC \(r.criterion ?? "") \(r.level)" } ?? (r.relation == RelationName.change ? "SC \(r.criterion ?? "") \(r.level)" : "\(r.usage) \(r.level)")
            need = "needs \(CSSNumber.format(required)):1\(r.apcaRequired.map { " and Lc \(CSSNumber.format($0))" } ?? "") (\(basis))"
        } else {
            need = r.relation == RelationName.change ? "SC \(r.criterion ?? "") \(r.level): exempt (level AA asked)" : "\(r.usage): exempt"
        }
        return [r.verdict.rawValue.uppercased(), t(r.id), pair + "  " + colors, "\(r.display)  Lc \(Auditor.formatLc(r.apca))  best \(r.achieved)", need]
    }

    /// User text made safe for a terminal (``Swift/String/terminalSafe``).
    func t(_ text: String) -> String { text.terminalSafe }

    func verdictLabel(_ r: CheckResult) -> String {
        switch r.verdict {
        case .fail: paint("FAIL", ANSI.red)
        case .pass: paint("PASS", ANSI.green)
        default: paint("EXEMPT", ANSI.dim)
        }
    }

    func result(for key: String, in report: AuditReport) -> CheckResult? {
        report.allResults.first { "\($0.palette.name)/\($0.theme.name)/\($0.result.id)" == key }?.result
    }

    func displayForeground(_ r: CheckResult) -> SRGB {
        r.composited.flatMap { try? SRGB(css: $0.foreground) } ?? r.foreground.color.opaque
    }

    func displayBackground(_ r: CheckResult) -> SRGB {
        r.composited.flatMap { try? SRGB(css: $0.background) } ?? r.background.color.opaque
    }

    func paint(_ text: String, _ code: String) -> String {
        color ? code + text + ANSI.reset : text
    }

    func heading(_ text: String) -> String {
        color ? ANSI.bold + text + ANSI.reset : text
    }

    func pad(_ painted: String, plain: String, to width: Int) -> String {
        painted + String(repeating: " ", count: max(0, width - plain.count))
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }

    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
