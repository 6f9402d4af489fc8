public import TokenSources

extension Palette {
    /// The names in `requested` that are no theme of this palette, or nil when all are.
    public func unknownThemes(_ requested: [String]) -> String? {
        let missing = requested.filter { name in !themes.contains { $0.name == name } }
        guard !missing.isEmpty else { return nil }
        return "\(missing.count == 1 ? "there is no theme" : "there are no themes") \(missing.map { "\"\($0)\"" }.joined(separator: ", ")) in palette \"\(name)\"; themes: \(themes.map(\.name).joined(separator: ", "))"
    }
}
