import ColorScience

/// The proposal as a checks document, and as the words `contrast init` prints.
extension ChecksProposal {
    /// The checks document: JSON5 (which every reader of checks accepts), with a comment per
    /// palette saying what was read; each check's `description` says why it was proposed.
    /// `ignoredProperties` (declared harmless by the operator) are written as `ignoreProperties`.
    public func checksDocument(source: String, toolVersion: String, ignoredProperties: [String] = []) -> String {
        var out = "// Checks proposed by `contrast init` \(toolVersion) from \(source).\n"
        out += "// Each check's \"description\" says why it was proposed: keep, narrow (\"except\", \"themes\") or delete them.\n"
        out += "// Audit with: contrast audit \(source) --checks <this file>\n"
        out += "{\n  \"checks\": [\n"
        let all = checks
        var written = 0
        for proposal in palettes {
            out += "    // \(proposal.palette) (\(proposal.format ?? "palette")): \(proposal.themes.count) theme\(proposal.themes.count == 1 ? "" : "s"), \(proposal.checks.count) proposed\n"
            for note in proposal.notes { out += "    //   \(note.replacing("\n", with: " "))\n" }
            for check in proposal.checks {
                written += 1
                out += "    " + ChecksProposal.json(check) + (written < all.count ? "," : "") + "\n"
            }
        }
        out += "  ]"
        if !ignoredProperties.isEmpty {
            out += ",\n  // Declared harmless with --ignore-property when this was written.\n"
            out += "  \"ignoreProperties\": [" + ignoredProperties.map(JSONWriter.quoted).joined(separator: ", ") + "]"
        }
        out += "\n}\n"
        return out
    }

    /// One check as a JSON object on one line, its fields in the order docs/palette-format.md lists them.
    static func json(_ check: ProposedCheck) -> String {
        var fields = [("id", JSONWriter.quoted(check.id)), ("description", JSONWriter.quoted(check.description)),
                      ("foreground", JSONWriter.quoted(check.foreground)), ("background", JSONWriter.quoted(check.background))]
        if check.usage != .text { fields.append(("usage", JSONWriter.quoted(check.usage.name))) }
        if !check.except.isEmpty { fields.append(("except", "[" + check.except.map(JSONWriter.quoted).joined(separator: ", ") + "]")) }
        if let themes = check.themes { fields.append(("themes", "[" + themes.map(JSONWriter.quoted).joined(separator: ", ") + "]")) }
        if let palettes = check.palettes { fields.append(("palettes", "[" + palettes.map(JSONWriter.quoted).joined(separator: ", ") + "]")) }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// What was found and guessed, for a person: per palette its themes, what the names read
    /// as, the proposed checks and the notes.
    public func summary() -> String {
        var out = ""
        for proposal in palettes {
            out += "\(proposal.palette) — \(proposal.file)\(proposal.format.map { " (\($0))" } ?? "")\n"
            out += "  themes: \(proposal.themes.joined(separator: ", "))\n"
            let counts = ["foreground", "background", "non-text", "disabled"].map { "\(proposal.counts[$0] ?? 0) \($0)" }
            out += "  names read as: \(counts.joined(separator: ", "))\n"
            if proposal.ownChecks > 0 { out += "  its own checks: \(proposal.ownChecks)\n" }
            for note in proposal.notes { out += "  note: \(note)\n" }
            let shown = proposal.checks.prefix(20)
            for check in shown {
                let usage = check.usage == .text ? "" : " (\(check.usage.name))"
                let themes = check.themes.map { " [themes: \($0.joined(separator: ", "))]" } ?? ""
                out += "  + \(check.foreground) on \(check.background)\(usage)\(themes)\n"
            }
            if proposal.checks.count > shown.count { out += "  … and \(proposal.checks.count - shown.count) more in the checks document\n" }
        }
        return out
    }
}
