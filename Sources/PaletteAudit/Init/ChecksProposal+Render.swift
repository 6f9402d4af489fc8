import ColorScience
import TokenSources

/// The proposal as a checks document, and as the words `contrast init` prints.
extension ChecksProposal {
    /// The checks document: strict JSON (`jq` reads it), each check's `description` its
    /// evidence (for a pair read from usage, `file:line: what` of the first place that draws it),
    /// `x-confidence` how sure it is (`usage`, `convention`, `name`) and `x-proposedBy` what
    /// proposed it; `x-notes` says what was read, how many checks of each confidence were
    /// proposed, and what was left out and why, with counts. Checks come best confidence first.
    /// `ignoredProperties` (declared harmless by the operator) are written as `ignoreProperties`.
    public func checksDocument(source: String, toolVersion: String, ignoredProperties: [String] = []) -> String {
        var out = "{\n  \"x-notes\": {\n"
        var members: [String] = []
        members.append("\"proposedBy\": " + JSONWriter.quoted("contrast init \(toolVersion) from \(source)"))
        members.append("\"audit\": " + JSONWriter.quoted("contrast audit \(source) --checks <this file>"))
        members.append("\"howToRead\": " + JSONWriter.quoted(ChecksProposal.howToRead))
        let counts = byConfidence
        members.append("\"proposed\": {" + UsageConfidence.allCases.map { "\"\($0.name)\": \(counts[$0] ?? 0)" }.joined(separator: ", ") + "}")
        members.append("\"leftOut\": [" + leftOutEntries().map { entry in
            "\n      {\"reason\": \(JSONWriter.quoted(entry.reason.rawValue)), \"why\": \(JSONWriter.quoted(entry.reason.words)), \"count\": \(entry.count), \"examples\": [" + entry.examples.map(JSONWriter.quoted).joined(separator: ", ") + "]}"
        }.joined(separator: ",") + (leftOut.isEmpty ? "]" : "\n    ]"))
        var usageMembers = ["\"filesLookedAt\": \(usage.files)",
                            "\"filesRead\": {" + usage.filesRead.sorted { $0.key < $1.key }.map { "\(JSONWriter.quoted($0.key)): \($0.value)" }.joined(separator: ", ") + "}",
                            "\"pairsFound\": \(usage.pairs.count)",
                            "\"pairsOfNoPaletteRead\": \(unmatchedPairs)",
                            "\"colorsNotPaired\": \(usage.notPaired)"]
        if !unmatchedSamples.isEmpty { usageMembers.append("\"pairsOfNoPaletteReadExamples\": [" + unmatchedSamples.map(JSONWriter.quoted).joined(separator: ", ") + "]") }
        if !usage.notPairedSamples.isEmpty { usageMembers.append("\"colorsNotPairedExamples\": [" + usage.notPairedSamples.map { JSONWriter.quoted($0.text) }.joined(separator: ", ") + "]") }
        if !usage.limits.isEmpty { usageMembers.append("\"limitsReached\": [" + usage.limits.map(JSONWriter.quoted).joined(separator: ", ") + "]") }
        members.append("\"usageSources\": {" + usageMembers.joined(separator: ", ") + "}")
        members.append("\"palettes\": [" + palettes.map { proposal in
            var fields = ["\"name\": \(JSONWriter.quoted(proposal.palette))", "\"file\": \(JSONWriter.quoted(proposal.file))"]
            if let format = proposal.format { fields.append("\"format\": \(JSONWriter.quoted(format))") }
            fields.append("\"themes\": \(proposal.themes.count)")
            fields.append("\"proposed\": \(proposal.checks.count)")
            fields.append("\"notes\": [" + proposal.notes.map(JSONWriter.quoted).joined(separator: ", ") + "]")
            return "\n      {" + fields.joined(separator: ", ") + "}"
        }.joined(separator: ",") + (palettes.isEmpty ? "]" : "\n    ]"))
        out += members.map { "    " + $0 }.joined(separator: ",\n") + "\n  },\n"
        out += "  \"checks\": ["
        let all = checks
        out += all.map { "\n    " + ChecksProposal.json($0) }.joined(separator: ",")
        out += all.isEmpty ? "]" : "\n  ]"
        if !ignoredProperties.isEmpty {
            out += ",\n  \"ignoreProperties\": [" + ignoredProperties.map(JSONWriter.quoted).joined(separator: ", ") + "]"
        }
        out += "\n}\n"
        return out
    }

    /// What the document's `x-notes.howToRead` says.
    static let howToRead = "Each check's \"description\" is its evidence: for a pair read from usage, the file:line that draws it (and how many more places do). \"x-confidence\" is usage (a usage source draws the pair), convention (a platform's or the palette's naming convention says it is drawn: on-X and X-foreground on X, Material's role pairs, iOS labels on the system backgrounds) or name (a guess from the token names alone). Keep, narrow (\"except\", \"themes\") or delete them; \"leftOut\" counts what was never proposed, by reason."

    /// The reasons pairs were left out for, in the never list's order, with counts and examples.
    func leftOutEntries() -> [(reason: NeverReason, count: Int, examples: [String])] {
        let counts = leftOut
        return NeverReason.allCases.compactMap { reason in
            guard let count = counts[reason], count > 0 else { return nil }
            var examples: [String] = []
            for proposal in palettes { for example in proposal.leftOutExamples[reason] ?? [] where examples.count < 3 && !examples.contains(example) { examples.append(example) } }
            return (reason, count, examples)
        }
    }

    /// One check as a JSON object on one line, its fields in the order docs/palette-format.md lists them.
    static func json(_ check: ProposedCheck) -> String {
        var fields = [("id", JSONWriter.quoted(check.id)), ("description", JSONWriter.quoted(check.description)),
                      ("foreground", JSONWriter.quoted(check.foreground)), ("background", JSONWriter.quoted(check.background))]
        if check.usage != .text { fields.append(("usage", JSONWriter.quoted(check.usage.name))) }
        if !check.except.isEmpty { fields.append(("except", "[" + check.except.map(JSONWriter.quoted).joined(separator: ", ") + "]")) }
        if let themes = check.themes { fields.append(("themes", "[" + themes.map(JSONWriter.quoted).joined(separator: ", ") + "]")) }
        if let palettes = check.palettes { fields.append(("palettes", "[" + palettes.map(JSONWriter.quoted).joined(separator: ", ") + "]")) }
        fields.append(("x-confidence", JSONWriter.quoted(check.confidence.name)))
        fields.append(("x-proposedBy", JSONWriter.quoted(check.proposedBy)))
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// What was found and guessed, for a person: per palette its themes, what the names read
    /// as, the proposed checks and the notes.
    public func summary() -> String {
        var out = ""
        if usage.files > 0 {
            let readers = usage.filesRead.sorted { $0.key < $1.key }.map { "\($0.value) by \($0.key)" }
            out += "usage sources: \(usage.files) file\(usage.files == 1 ? "" : "s") looked at\(readers.isEmpty ? ", none a usage reader reads" : ", read: " + readers.joined(separator: ", ")); \(usage.pairs.count) pair\(usage.pairs.count == 1 ? "" : "s") found\(unmatchedPairs > 0 ? ", \(unmatchedPairs) naming no palette's tokens" : ""), \(usage.notPaired) color\(usage.notPaired == 1 ? "" : "s") not paired\n"
            for limit in usage.limits { out += "usage sources: limit reached: \(limit)\n" }
        }
        for file in withoutTokens { out += "\(file): no color tokens; read as a usage source only\n" }
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
                out += "  + \(check.foreground) on \(check.background)\(usage)\(themes) [\(check.confidence.name)]\n"
            }
            if proposal.checks.count > shown.count { out += "  … and \(proposal.checks.count - shown.count) more in the checks document\n" }
            let left = NeverReason.allCases.compactMap { reason in proposal.leftOut[reason].map { "\($0) \(reason.words)" } }
            if !left.isEmpty { out += "  left out: \(left.joined(separator: "; "))\n" }
        }
        let counts = byConfidence
        out += "proposed: \(checks.count) check\(checks.count == 1 ? "" : "s"): " + UsageConfidence.allCases.map { "\(counts[$0] ?? 0) \($0.name)" }.joined(separator: ", ") + "\n"
        let entries = leftOutEntries()
        if !entries.isEmpty {
            out += "left out: " + entries.map { "\($0.count) \($0.reason.words)" }.joined(separator: "; ") + "\n"
        }
        return out
    }
}
