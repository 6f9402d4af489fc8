public import ColorScience
public import TokenSources

/// What happened to one token in a derived theme.
public struct DerivedToken: Hashable, Sendable, Codable {
    public var token: String
    /// Its color in the source theme, and in the derived one.
    public var from: String
    public var to: String
    /// The value written: a hex color, or an alias `{token}` kept because its target fits.
    public var value: String
    /// `surface` (the given surface), `mirrored` (a surface or decoration moved to keep its
    /// contrast with the surface), `adjusted` (moved to pass its checks), `unchanged`.
    public var change: String
    /// ΔE-OK from the source color.
    public var deltaEOK: Double
    public var reason: String
}

/// A theme derived from another for a new surface (dark, high-contrast…).
public struct Derivation: Sendable {
    public var from: String
    public var to: String
    public var surface: String
    public var tokens: [DerivedToken]
    /// The palette with the new theme in place.
    public var palette: Palette
    /// The audit of the new theme.
    public var report: PaletteReport
    /// Checks that still fail (no color of the token's hue can pass), with why.
    public var unresolved: [String]
}

/// A theme that cannot be derived.
public enum DeriveErrors: ErrorFamily {}
public typealias DeriveError = CodedError<DeriveErrors>

extension CodedError.Code where Family == DeriveErrors {
    /// The theme to derive from is not in the palette.
    public static var unknownTheme: Self { Self("unknown-theme") }
    /// The new surface is not opaque.
    public static var translucentSurface: Self { Self("translucent-surface") }
    /// A token of the source theme does not resolve.
    public static var unresolvedTheme: Self { Self("unresolved-theme") }
    /// A check of the palette cannot be applied (an empty rule, an unknown token).
    public static var invalidCheck: Self { Self("invalid-check") }
    /// No check has a token as its background: there is no surface to replace.
    public static var noSurface: Self { Self("no-surface") }
}

/// Derives a theme in which every check passes at its level, each token as close (ΔE-OK) to its
/// counterpart in the source theme as the checks allow, keeping its hue and chroma.
///
/// The background most checks use becomes the given surface. Other surfaces, and tokens only
/// checked as decoration, keep their lightness offset from the surface (mirrored when the
/// surface changes from light to dark or back). Every token checked as a foreground (or as the
/// background of a literal foreground) then moves, along OKLCH lightness, to the nearest color
/// that meets all of its checks against the new colors.
public enum ThemeDeriver {
    public static func derive(_ palette: Palette, from source: String, to target: String, surface: SRGB,
                              minimumLevel: WCAGLevel? = nil) throws(DeriveError) -> Derivation {
        guard let sourceTheme = palette.theme(named: source) else {
            throw DeriveError(.unknownTheme, palette.unknownThemes([source]) ?? "the palette has no theme \"\(source)\"")
        }
        guard surface.isOpaque else { throw DeriveError(.translucentSurface, "the surface must be opaque, not \(surface.hex)") }
        var resolver = ThemeResolver(palette: palette, theme: sourceTheme)
        let (original, gradients) = try resolvedColors(&resolver, theme: source)
        func tokenName(_ reference: String) -> String? {
            let name = Token.aliasTarget(of: reference) ?? reference
            return original[name] != nil ? name : nil
        }
        var ruleProblems: [PaletteProblem] = []
        var ruleMatches: [String: Int] = [:]
        // (No room is given, so nothing is thrown.)
        let items = (try? Auditor.items(of: palette, theme: target, tokens: resolver.tokenNames, problems: &ruleProblems, ruleMatches: &ruleMatches)) ?? []
        if let problem = ruleProblems.first { throw DeriveError(.invalidCheck, "\(problem)") }
        func requirement(_ item: Auditor.Item) -> ContrastTarget? {
            // A distinct pair is kept apart below (not by contrast); an exempt relation asks nothing.
            if item.kind == .distinct || item.exempt { return nil }
            if let fixed = item.fixed { return ContrastTarget(ratio: max(fixed.ratio, item.minimumRatio ?? 0), lc: item.apcaMinimum) }
            var level = item.level
            if let minimumLevel, minimumLevel > level { level = minimumLevel }
            guard let wcag = ContrastRequirement(usage: item.usage, level: level).minimumRatio ?? item.minimumRatio else { return nil }
            return ContrastTarget(ratio: max(wcag, item.minimumRatio ?? 0), lc: item.apcaMinimum)
        }

        // The main surface: the background most checks use.
        var backgroundUses: [String: Int] = [:]
        for item in items where item.kind != .distinct { if let name = tokenName(item.background) { backgroundUses[name, default: 0] += 1 } }
        guard let surfaceToken = resolver.tokenNames.filter({ backgroundUses[$0] != nil }).max(by: { backgroundUses[$0, default: 0] < backgroundUses[$1, default: 0] }),
              let oldSurface = original[surfaceToken] else {
            throw DeriveError(.noSurface, "no check of theme \"\(source)\" has a token as its background, so there is no surface to replace")
        }
        let newSurface = surface.quantized
        var colors = original
        var change: [String: (String, String)] = [:]
        colors[surfaceToken] = newSurface
        change[surfaceToken] = ("surface", "the main surface (the background of \(backgroundUses[surfaceToken] ?? 0) checks), set to \(newSurface.hex)")

        let oldL = OKLCH(oldSurface).l, newL = OKLCH(newSurface).l
        let flips = (oldL >= 0.5) != (newL >= 0.5)
        func mirrored(_ color: SRGB) -> SRGB {
            let offset = OKLCH(color).l - oldL
            return NearestPassing.atLightness(color, newL + (flips ? -offset : offset))
        }

        /// The other members of every distinct pair `name` is in that was told apart in the source
        /// theme, with their group's settings.
        /// Translucent members are weighed as the audit's check weighs them
        /// (``Auditor/seenInGroup(_:over:)``): in the source theme over its backdrop or white;
        /// in the derived theme, which names no backdrop, over white.
        let sourceGroupSurface = Auditor.distinctSurface(&resolver) ?? .white
        func distinctPartners(of name: String) -> [(String, CheckRelation.Distinct)] {
            items.compactMap { item -> (String, CheckRelation.Distinct)? in
                guard item.kind == .distinct, let group = item.distinct, let a = tokenName(item.foreground), let b = tokenName(item.background),
                      a == name || b == name, let ca = original[a], let cb = original[b] else { return nil }
                let before = Distinguishability.assess(Auditor.seenInGroup(ca, over: sourceGroupSurface), Auditor.seenInGroup(cb, over: sourceGroupSurface),
                                                       threshold: group.threshold ?? Distinguishability.defaultThreshold,
                                                       under: group.deficiencies ?? ColorVisionDeficiency.audited)
                guard !before.confusable && !before.indistinctInNormalVision else { return nil }
                return (a == name ? b : a, group)
            }
        }
        let foregroundTokens = Set(items.filter { $0.kind != .distinct }.compactMap { tokenName($0.foreground) })
        let strictItems = items.filter { requirement($0) != nil }
        for name in resolver.tokenNames where name != surfaceToken {
            guard let color = original[name] else { continue }
            let isBackground = backgroundUses[name] != nil
            let strictlyChecked = strictItems.contains { tokenName($0.foreground) == name }
            if !color.isOpaque {
                change[name] = ("unchanged", "translucent (a shadow or overlay): left as it is")
                continue
            }
            if (isBackground && !foregroundTokens.contains(name)) || (foregroundTokens.contains(name) && !strictlyChecked) {
                colors[name] = mirrored(color)
                change[name] = ("mirrored", isBackground ? "a surface: keeps its lightness offset from the main surface" : "checked only as decoration: keeps its lightness offset from the surface")
            }
        }

        // Foregrounds (and backgrounds of literal foregrounds) move until their checks pass.
        let (moved, unresolved) = movedUntilPassing(resolver.tokenNames.filter { $0 != surfaceToken }, original: original, items: strictItems,
                                                    requirement: requirement, tokenName: tokenName, distinctPartners: distinctPartners,
                                                    colors: colors, change: &change)
        colors = moved

        return written(palette, from: source, to: target, surface: newSurface, minimumLevel: minimumLevel, resolver: resolver,
                       colors: (original, colors, gradients), change: change, unresolved: unresolved)
    }

    /// Moves each of `names` checked as a foreground (or as the background of a literal
    /// foreground), along OKLCH lightness, to the nearest color that meets all of its checks
    /// against the others' current colors (and stays distinguishable from its group), in rounds
    /// until none moves (at most four): the new colors, and why a token could not be moved.
    static func movedUntilPassing(_ names: [String], original: [String: SRGB], items strictItems: [Auditor.Item],
                                  requirement: (Auditor.Item) -> ContrastTarget?, tokenName: (String) -> String?,
                                  distinctPartners: (String) -> [(String, CheckRelation.Distinct)],
                                  colors: [String: SRGB], change: inout [String: (String, String)]) -> (colors: [String: SRGB], unresolved: [String: String]) {
        var colors = colors
        var unresolved: [String: String] = [:]
        for _ in 0..<4 {
            var moved = false
            for name in names {
                guard let start = original[name] else { continue }
                var constraints: [(SRGB, PairRole, ContrastTarget, String)] = []
                for item in strictItems {
                    guard let goal = requirement(item) else { continue }
                    if tokenName(item.foreground) == name {
                        let bg = tokenName(item.background).flatMap { colors[$0] } ?? (try? SRGB(css: item.background))
                        if let bg { constraints.append((bg, .foreground, goal, item.id)) }
                    } else if tokenName(item.background) == name, tokenName(item.foreground) == nil, let fg = try? SRGB(css: item.foreground) {
                        constraints.append((fg, .background, goal, item.id))
                    }
                }
                guard !constraints.isEmpty else { continue }
                func accepts(_ c: SRGB) -> Bool {
                    constraints.allSatisfy { other, role, goal, _ in
                        role == .foreground ? goal.isMet(foreground: c, background: other.opaque) : goal.isMet(foreground: other.opaque, background: c)
                    }
                }
                // Members of a group that must stay distinguishable stay so, where they were.
                let partners = distinctPartners(name)
                func keepsApart(_ c: SRGB) -> Bool {
                    partners.allSatisfy { other, group in
                        guard let color = colors[other] else { return true }
                        let a = Distinguishability.assess(c, Auditor.seenInGroup(color, over: .white), threshold: group.threshold ?? Distinguishability.defaultThreshold,
                                                          under: group.deficiencies ?? ColorVisionDeficiency.audited)
                        return !a.confusable && !a.indistinctInNormalVision
                    }
                }
                var found = NearestPassing.nearest(to: start, satisfying: { accepts($0) && keepsApart($0) })
                if found == nil, !partners.isEmpty, let apart = NearestPassing.nearest(to: start, satisfying: accepts) {
                    found = apart
                    unresolved[name + " (distinct)"] = "no color of \(name)'s hue meets its checks and stays distinguishable from \(partners.map(\.0).joined(separator: ", ")); \(apart.hex) meets the checks but is confusable with one of them"
                }
                guard let found else {
                    unresolved[name] = "no color of \(name)'s hue meets all of its checks (\(constraints.map(\.3).joined(separator: ", "))) against the derived colors"
                    continue
                }
                unresolved[name] = nil
                if colors[name] != found {
                    colors[name] = found
                    moved = true
                }
                let ids = constraints.map(\.3).joined(separator: ", ")
                change[name] = found == start.quantized ? ("unchanged", "already meets its checks (\(ids))") : ("adjusted", "moved to meet \(ids)")
            }
            if !moved { break }
        }
        return (colors, unresolved)
    }

    /// Every token's color in the source theme, and the tokens whose value is a gradient (kept
    /// as written: a gradient is not one color).
    static func resolvedColors(_ resolver: inout ThemeResolver, theme source: String) throws(DeriveError) -> (colors: [String: SRGB], gradients: Set<String>) {
        var original: [String: SRGB] = [:]
        var gradients: Set<String> = []
        for name in resolver.tokenNames {
            switch resolver.resolveBackground(name) {
            case .success(let c) where c.gradient != nil: gradients.insert(name)  // kept as written: a gradient is not one color
            case .success(let c): original[name] = c.color
            case .failure(let p): throw DeriveError(.unresolvedTheme, "theme \"\(source)\" cannot be resolved: \(p)")
            }
        }
        return (original, gradients)
    }

    /// The derived palette, with the target theme written (an alias kept where its target's
    /// new color is the same), each token's change, and what still fails in it, judged at the
    /// raised level.
    static func written(_ palette: Palette, from source: String, to target: String, surface newSurface: SRGB, minimumLevel: WCAGLevel?,
                        resolver: ThemeResolver, colors all: (original: [String: SRGB], new: [String: SRGB], gradients: Set<String>),
                        change: [String: (String, String)], unresolved: [String: String]) -> Derivation {
        let (original, colors, gradients) = all
        var tokens: [Token] = []
        var derived: [DerivedToken] = []
        for name in resolver.tokenNames {
            if gradients.contains(name), let token = resolver.tokens[name] {
                tokens.append(Token(name: name, value: token.value, description: "derived from \(source): a gradient, kept as written (derive moves single colors only)"))
                continue
            }
            guard let old = original[name], let new = colors[name], let token = resolver.tokens[name] else { continue }
            var value = new.hex
            if let alias = token.aliasTarget, colors[alias] == new { value = "{\(alias)}" }
            let (kind, reason) = change[name] ?? ("unchanged", "no check constrains it")
            tokens.append(Token(name: name, value: value, description: "derived from \(source) (\(old.hex)): \(reason)"))
            derived.append(DerivedToken(token: name, from: old.hex, to: new.hex, value: value, change: kind,
                                        deltaEOK: (ColorDifference.deltaEOK(old, new) * 10000).rounded() / 10000, reason: reason))
        }
        var result = palette
        let theme = Theme(name: target, description: "Derived from \"\(source)\" for the surface \(newSurface.hex) by contrast derive\(minimumLevel.map { " at \($0.name) or better" } ?? "").", tokens: tokens)
        if let index = result.themes.firstIndex(where: { $0.name == target }) {
            result.themes[index] = theme
        } else {
            result.themes.append(theme)
        }
        // The written palette keeps its checks; the report judges the new theme at the raised level.
        var judged = result
        if let minimumLevel {
            for index in judged.checks.indices where judged.checks[index].level < minimumLevel {
                judged.checks[index].level = minimumLevel
            }
            for index in judged.badges.indices where judged.badges[index].level < minimumLevel {
                judged.badges[index].level = minimumLevel
            }
        }
        let report = Auditor(themeFilter: [target]).audit(judged)
        var stillFailing = Array(unresolved.values).sorted()
        for theme in report.themes {
            for r in theme.results where r.verdict == .fail {
                let literal = r.foreground.token == nil && r.background.token == nil
                // A group's pair is told apart by color difference, not contrast: its reason says so.
                let what = r.distinction != nil ? r.failureSummary : "\(r.display) (\(r.foreground.reference) on \(r.background.reference))"
                stillFailing.append("\(r.id) still fails: \(what)" + (literal ? ": both are literal colors, not tokens, so derive cannot change them" : ""))
            }
        }
        return Derivation(from: source, to: target, surface: newSurface.hex, tokens: derived, palette: result, report: report, unresolved: stillFailing)
    }
}
