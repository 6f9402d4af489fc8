import ColorScience
@testable import PaletteAudit
@testable import TokenSources

/// Token name → hex, per theme, as the auditor resolves them (tokens that do not resolve are
/// left out): what the source-format tests compare.
func resolvedColors(_ palette: Palette) -> [String: [String: String]] {
    var out: [String: [String: String]] = [:]
    for theme in palette.themes {
        var resolver = ThemeResolver(palette: palette, theme: theme)
        for name in resolver.tokenNames {
            if case .success(let c) = resolver.resolve(name) { out[theme.name, default: [:]][name] = c.color.hex }
        }
    }
    return out
}
