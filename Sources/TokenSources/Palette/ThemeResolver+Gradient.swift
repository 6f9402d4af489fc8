import ColorScience

/// Gradient tokens: a background judged at its worst point (see Auditor+Gradient.swift).
extension ThemeResolver {
    /// A gradient token: its stops' references resolved to the CSS of their colors (so the
    /// interpolation space is the one their notations imply), then read as a CSS gradient.
    mutating func resolveGradient(_ token: Token, reference: String, firstName: String, followed: [String], depth: Int) -> Result<ResolvedColor, PaletteProblem> {
        for name in [firstName] + followed {
            guard let link = tokens[name] else { continue }
            if let unapplied = link.unappliedProperties.first(where: { !ignoredProperties.contains($0.name) }) {
                return .failure(problem(.unsupportedProperty, "token \"\(link.name)\" has the property \"\(unapplied.name)\", which may change its colors in the system's own build and which this tool cannot apply, so its gradient is unknown",
                                        unapplied.pointer, unapplied.location, file: link.file))
            }
            if !link.operations.isEmpty {
                return .failure(problem(.unsupportedProperty, "token \"\(link.name)\" is a gradient with a modifier (\(link.operations[0].origin)), which this tool does not apply to gradients, so its gradient is unknown",
                                        link.pointer, link.location, file: link.file))
            }
        }
        // Stops keep their own CSS, so the interpolation space is the one their notations imply
        // (a color changed after resolving, or gamut-mapped, is written as its hex).
        let text: String
        switch substitutingReferences(in: token, depth: depth, subject: "gradient token \"\(token.name)\"", context: "",
                                      writing: { $0.operations == nil && $0.outOfGamut == nil ? $0.css : $0.color.hex }) {
        case .success(let substituted): text = substituted
        case .failure(let p): return .failure(p)
        }
        do {
            let gradient = try Gradient(css: text, scheme: scheme)
            var resolved = ThemeResolver.gradientColor(gradient, reference: reference, token: firstName, css: text)
            resolved.aliases = followed.isEmpty ? nil : followed
            resolved.assumed = token.assumed?.excerpt(280)
            resolved.pointer = token.pointer
            resolved.line = token.location?.line
            resolved.file = token.file
            resolved.deprecated = tokens[firstName]?.deprecated.map { $0.isEmpty ? "deprecated" : $0.excerpt(280) }
            return .success(resolved)
        } catch {
            let shown = text == token.value ? "\"\(token.value.prefix(120))\"" : "\"\(token.value.prefix(120))\" (\"\(text.prefix(160))\" after references)"
            return .failure(problem(.invalidColor, "token \"\(token.name)\" has \(shown), which is not a gradient this tool can read: \(error.message) (at byte \(error.offset))", at: token))
        }
    }

    static func gradientColor(_ gradient: Gradient, reference: String, token: String?, css: String) -> ResolvedColor {
        let first = gradient.stops.first?.color.color ?? .black
        var resolved = ResolvedColor(reference: reference, token: token, aliases: nil, css: css, color: first,
                                     outOfGamut: gradient.stops.contains { $0.color.wasOutOfGamut }, assumed: nil, pointer: nil)
        resolved.gradient = gradient
        return resolved
    }
}
