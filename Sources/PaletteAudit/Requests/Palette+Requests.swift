extension Palette {
    /// The names in `requested` that are no theme of this palette, or nil when all are.
    public func unknownThemes(_ requested: [String]) -> String? {
        let missing = requested.filter { name in !themes.contains { $0.name == name } }
        guard !missing.isEmpty else { return nil }
        return "\(missing.count == 1 ? "there is no theme" : "there are no themes") \(missing.map { "\"\($0)\"" }.joined(separator: ", ")) in palette \"\(name)\"; themes: \(themes.map(\.name).joined(separator: ", "))"
    }

    /// Takes the checks and badges of `other` when this palette has none: a tokens file is
    /// audited with the checks of its sidecar (or of the served palette it proposes to replace).
    public mutating func adoptChecks(from other: Palette) {
        ignoredProperties.formUnion(other.ignoredProperties)
        guard checks.isEmpty && badges.isEmpty else { return }
        checks = other.checks
        badges = other.badges
        badgeBordersCarryMeaning = other.badgeBordersCarryMeaning
    }
}
