import ColorScience
import TokenSources

/// The proposal's notes: what it says before any check (what it cannot pair, and why) and
/// after them (when it proposes nothing, or leaves a theme unmeasured).
extension PaletteProposer {
    /// What the proposal says before any check: the tokens it cannot pair and why, the counts
    /// of each role, and the disabled globs every rule leaves out.
    func readingNotes() -> (notes: [String], counts: [String: Int], disabledGlobs: [String]) {
        var notes: [String] = []
        var counts: [String: Int] = [:]
        for role in roles.values {
            if let r = role.role { counts[r.rawValue, default: 0] += 1 }
            if role.disabled { counts["disabled", default: 0] += 1 }
        }
        if !unresolved.isEmpty {
            notes.append("\(unresolved.count) token\(unresolved.count == 1 ? " has" : "s have") no color the audit can tell in some theme (\(unresolved.sorted().prefix(3).joined(separator: ", "))\(unresolved.count > 3 ? ", …" : "")) and are paired only where they have one; `contrast audit` says why")
            // Properties the tool cannot apply are the usual cause (a plugin's metadata on every
            // token): name them, and how to declare them harmless.
            var properties: [String: Int] = [:]
            for theme in palette.themes {
                for token in theme.tokens where unresolved.contains(token.name) {
                    for property in Set(token.unappliedProperties.map(\.name)) where !palette.ignoredProperties.contains(property) {
                        properties[property, default: 0] += 1
                    }
                }
            }
            if !properties.isEmpty {
                let names = properties.keys.sorted()
                notes.append("tokens carry properties this tool cannot apply (\(names.map { "\"\($0)\"" }.joined(separator: ", "))); if they do not change the color, run init again with \(names.map { "--ignore-property \($0)" }.joined(separator: " "))")
            }
        }
        let disabledGlobs = Array(Set(roles.values.compactMap { $0.disabledWord.map { "*\($0)*" } })).sorted()
        if !disabledGlobs.isEmpty {
            notes.append("\(counts["disabled"] ?? 0) disabled tokens are left out of every rule (\(disabledGlobs.joined(separator: ", "))): WCAG exempts the text of inactive components (SC 1.4.3)")
        }
        return (notes, counts, disabledGlobs)
    }

    /// The note that closes a palette's proposal when it proposes nothing, or leaves a theme
    /// unmeasured, and the themes no proposed check measures.
    func closingNote(_ checks: [ProposedCheck], ownChecks: Int, anyLeftOut: Bool, translucentScalesOnly: Bool) -> (note: String?, uncovered: [String]) {
        let covered = Set(checks.flatMap { $0.themes ?? themeNames.map(\.theme) })
        let uncovered = ownChecks > 0 ? [] : themeNames.map(\.theme).filter { !covered.contains($0) }
        if checks.isEmpty && anyLeftOut && ownChecks == 0 {
            return ("no checks proposed: every pair found for it is one never proposed (below, by reason)", uncovered)
        } else if checks.isEmpty {
            return (ownChecks > 0 ? "no checks proposed: the palette's own \(ownChecks) check\(ownChecks == 1 ? "" : "s") stay\(ownChecks == 1 ? "s" : "")" : translucentScalesOnly
                         ? "no checks proposed: no token name says what it is for, and its numbered scales are translucent. Write its checks by hand (docs/palette-format.md)"
                         : "no checks proposed: no token name says what it is for, and there are no numbered scales. Write its checks by hand (docs/palette-format.md)", uncovered)
        } else if !uncovered.isEmpty {
            return ("no proposed check measures theme\(uncovered.count == 1 ? "" : "s") \(uncovered.joined(separator: ", "))", uncovered)
        }
        return (nil, uncovered)
    }
}
