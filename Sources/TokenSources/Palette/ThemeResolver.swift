public import ColorScience
import Synchronization

/// The tokens of one theme with inheritance applied, resolving references to colors.
public struct ThemeResolver: Sendable {
    public let palette: String
    public let theme: Theme
    public let file: String?
    /// Effective tokens by name (inherited ones included), and their order.
    public let tokens: [String: Token]
    public let tokenNames: [String]
    /// The color scheme `light-dark()` values take: the theme's own (``Theme/scheme``), else the
    /// one of the theme it extends, nearest first.
    public let scheme: ColorScheme?
    private var cache: [String: Result<ResolvedColor, PaletteProblem>] = [:]
    /// The theme's colors made ready for `distinct` checks, each once: a color meets several
    /// others in a group.
    package var distinguishable = Distinguishability.PreparedColors()
    /// Properties the palette declares harmless (``Palette/ignoredProperties``).
    let ignoredProperties: Set<String>
    /// Declarations the reader met that are not color tokens (not colors, not read), by name:
    /// a check that names one is told why, at the declaration's line.
    let unread: [String: ReadLedger.Entry]
    /// The iOS system colors the tokens refer to, joined to ``tokens`` from the built-in table:
    /// their values are not in the document.
    let builtIn: Set<String>

    /// What this resolver's copies share, worked out once: the tokens' positions, to begin an
    /// alias cycle's message at its first member (rebuilt for every cycle, 5,000 cycles took
    /// 140 s).
    final class Shared: Sendable {
        let order = Mutex<[String: Int]?>(nil)
    }
    let shared = Shared()
    /// "Did you mean" searches left, shared by every theme of an audit (``Auditor`` hands one
    /// allowance to all its resolvers: 100 modes of 1,000 unknown aliases took minutes when each
    /// theme had its own).
    public final class Allowance: Sendable {
        let left: Atomic<Int>
        public init(_ count: Int = ThemeResolver.maximumNameSuggestions) { left = Atomic(count) }
        func take() -> Bool { left.subtract(1, ordering: .relaxed).newValue >= 0 }
    }
    public var suggestions = Allowance()
    /// "Did you mean" searches per resolver, or per audit; later unknown names are reported
    /// without one.
    public static let maximumNameSuggestions = 64

    /// How many aliases may be followed before giving up. Real design systems chain a handful;
    /// a chain longer than this is generated wrongly or hostile, and is refused with a problem.
    public static let maximumAliasDepth = 1_000

    public init(palette: Palette, theme: Theme, suggestions: Allowance = Allowance()) {
        self.suggestions = suggestions
        self.palette = palette.name
        self.ignoredProperties = palette.ignoredProperties
        var unread: [String: ReadLedger.Entry] = [:]
        for entry in palette.ledger.entries where unread[entry.name] == nil { unread[entry.name] = entry }
        self.unread = unread
        self.theme = theme
        self.file = palette.file
        let chain = ThemeResolver.chain(palette: palette, theme: theme)
        scheme = chain.lazy.compactMap(\.scheme).first
        var tokens: [String: Token] = [:]
        var names: [String] = []
        for layer in chain.reversed() {
            for token in layer.tokens {
                if tokens[token.name] == nil { names.append(token.name) }
                tokens[token.name] = token
            }
        }
        // Apple's system colors the tokens refer to ({ios.label}) join the theme's tokens, in
        // its appearance, so aliases to them resolve like any other (they are not listed).
        // (Most values hold no brace, and are passed over at once.)
        var referenced: Set<String> = []
        for token in tokens.values where token.value.utf8.contains(UInt8(ascii: "{")) {
            for name in Token.embeddedReferences(in: token.value) + (token.aliasTarget.map { [$0] } ?? [])
            where name.hasPrefix("ios.") && tokens[name] == nil { referenced.insert(name) }
        }
        var builtIn: Set<String> = []
        for name in referenced {
            guard let system = ThemeResolver.systemColor(String(name.dropFirst(4)), theme: theme, scheme: scheme) else { continue }
            var token = Token(name: name, value: system.css, assumed: system.assumed)
            token.type = "color"
            tokens[name] = token
            builtIn.insert(name)
        }
        self.builtIn = builtIn
        self.tokens = tokens
        self.tokenNames = names
    }

    /// The theme and the themes it extends, nearest first (a cycle is cut where it closes).
    static func chain(palette: Palette, theme: Theme) -> [Theme] {
        var chain: [Theme] = [theme]
        var seen: Set<String> = [theme.name]
        while let base = chain.last?.extends, !seen.contains(base), let next = palette.theme(named: base) {
            chain.append(next)
            seen.insert(base)
        }
        return chain
    }

    /// ``tokenNames`` without building the resolver: the names, in order, of the theme's tokens
    /// with inheritance applied.
    package static func tokenNames(palette: Palette, theme: Theme) -> [String] {
        var seen: Set<String> = []
        var names: [String] = []
        for layer in chain(palette: palette, theme: theme).reversed() {
            for token in layer.tokens where seen.insert(token.name).inserted { names.append(token.name) }
        }
        return names
    }

    package func problem(_ code: PaletteProblem.Code, _ message: String, _ pointer: JSONPointer?, _ location: SourceLocation?, file: String? = nil) -> PaletteProblem {
        PaletteProblem(code, message, file: file ?? self.file, pointer: pointer ?? JSONPointer(), location: location, theme: theme.name)
    }

    func problem(_ code: PaletteProblem.Code, _ message: String, at token: Token) -> PaletteProblem {
        problem(code, message, token.pointer, token.location, file: token.file)
    }

    /// Resolves a token name, `{alias}` or CSS color. `at` locates the reference for messages.
    /// `referenceFile` is the file that holds the reference (a sidecar's check), for messages.
    public mutating func resolve(_ reference: String, at pointer: JSONPointer? = nil, location: SourceLocation? = nil,
                                 referenceFile: String? = nil) -> Result<ResolvedColor, PaletteProblem> {
        let result = resolve(reference, at: pointer, location: location, referenceFile: referenceFile, depth: 0)
        if case .success(let color) = result, color.gradient != nil {
            let name = color.token.map { "token \"\($0)\"" } ?? "\"\(reference.prefix(80))\""
            return .failure(problem(.notAColor, "\(name) is a gradient, not one color; a gradient can only be a check's background (text on it is judged at its worst point)",
                                    pointer, location, file: referenceFile))
        }
        return result
    }

    /// Resolves a background: a color, or a gradient (``ResolvedColor/gradient``).
    public mutating func resolveBackground(_ reference: String, at pointer: JSONPointer? = nil, location: SourceLocation? = nil,
                                           referenceFile: String? = nil) -> Result<ResolvedColor, PaletteProblem> {
        resolve(reference, at: pointer, location: location, referenceFile: referenceFile, depth: 0)
    }

    mutating func resolve(_ reference: String, at pointer: JSONPointer?, location: SourceLocation?, referenceFile: String?, depth: Int) -> Result<ResolvedColor, PaletteProblem> {
        if let cached = cache[reference] { return cached.mapError { error in
            var e = error
            if e.pointer.segments.isEmpty {
                e.pointer = pointer ?? e.pointer
                e.location = e.location ?? location
                if referenceFile != nil { e.file = referenceFile }
            }
            return e
        } }
        guard depth <= 64 else {
            return .failure(problem(.limitExceeded, "references inside \"\(reference.prefix(80))\" nest more than 64 deep", pointer, location, file: referenceFile))
        }
        let result = resolveUncached(reference, at: pointer, location: location, referenceFile: referenceFile, depth: depth)
        cache[reference] = result
        return result
    }

    private mutating func resolveUncached(_ reference: String, at pointer: JSONPointer?, location: SourceLocation?, referenceFile: String?, depth: Int) -> Result<ResolvedColor, PaletteProblem> {
        let explicitAlias = Token.aliasTarget(of: reference)
        let firstName = explicitAlias ?? reference
        guard var token = tokens[firstName] else {
            // Apple's system colors, built in: {ios.systemBackground}, {ios.secondaryLabel}…
            if firstName.hasPrefix("ios."), let system = ThemeResolver.systemColor(String(firstName.dropFirst(4)), theme: theme, scheme: scheme) {
                return .success(system)
            }
            // A declaration the reader met that is not a color token: why, where it is.
            let bare = firstName.hasPrefix("--") ? String(firstName.dropFirst(2)) : firstName
            if let entry = unread[bare] {
                let why = entry.disposition == .notColor ? "is not a color: it is \(entry.type ?? "another type")" : "was not read: \(entry.reason ?? "")"
                let place = [entry.file, entry.line.map(String.init)].compactMap { $0 }.joined(separator: ":")
                return .failure(PaletteProblem(.notAColor, "\"\(bare)\" \(why)\(place.isEmpty ? "" : " (\(place))")", file: entry.file ?? referenceFile ?? file, pointer: pointer ?? JSONPointer(),
                                               location: entry.line.map { SourceLocation(offset: 0, line: $0, column: entry.column ?? 1) } ?? location, theme: theme.name))
            }
            if let explicitAlias {
                return .failure(problem(.unknownToken, "\"{\(explicitAlias)}\" names no color token of theme '\(theme.name)'\(suggestion(for: explicitAlias))", pointer, location, file: referenceFile))
            }
            // Not a token: a literal CSS gradient or color.
            if Gradient.isGradient(reference) {
                do {
                    let gradient = try Gradient(css: reference, scheme: scheme)
                    return .success(ThemeResolver.gradientColor(gradient, reference: reference, token: nil, css: reference))
                } catch {
                    return .failure(problem(.invalidColor, "\"\(reference.prefix(120))\" is not a gradient this tool can read: \(error.message) (at byte \(error.offset))", pointer, location, file: referenceFile))
                }
            }
            do {
                let parsed = try CSSColor.parse(reference, scheme: scheme)
                return .success(ResolvedColor(reference: reference, token: nil, aliases: nil, css: reference, color: parsed.color,
                                              outOfGamut: parsed.wasOutOfGamut, assumed: nil, pointer: nil))
            } catch {
                let dotted = reference.contains(".")
                let looksLikeName = dotted || error.code == .unknownName
                let message = dotted
                    ? "\"\(reference)\" is neither a token of theme '\(theme.name)'\(suggestion(for: reference)) nor a CSS color"
                    : looksLikeName
                    ? "\"\(reference)\" is neither a token of theme '\(theme.name)'\(suggestion(for: reference)) nor a CSS color (\(error.message))"
                    : error.code == .schemeDependent
                    ? "\"\(reference)\" is not one color here: \(error.message) (theme '\(theme.name)' is neither named light or dark nor has a \"colorScheme\")"
                    : "\"\(reference)\" is not a valid color: \(error.message) (at byte \(error.offset))"
                return .failure(problem(looksLikeName ? .unknownToken : .invalidColor, message, pointer, location, file: referenceFile))
            }
        }
        var followed: [String] = []
        var visited: Set<String> = [token.name]
        while let target = token.aliasTarget {
            guard let next = tokens[target] else {
                return .failure(problem(.unknownToken, "token \"\(token.name)\" is an alias of \"\(token.writtenReference ?? "{\(target)}")\", which names no color token of theme '\(theme.name)'\(suggestion(for: target, excluding: token.name))", at: token))
            }
            if visited.contains(target) {
                let path = [firstName] + followed
                let start = path.firstIndex(of: target) ?? 0
                return .failure(cycleProblem(Array(path[start...])))
            }
            if followed.count >= ThemeResolver.maximumAliasDepth {
                return .failure(problem(.limitExceeded, "alias chain from \"\(firstName)\" is longer than \(ThemeResolver.maximumAliasDepth) tokens", at: token))
            }
            visited.insert(target)
            followed.append(target)
            token = next
        }
        for name in [firstName] + followed {
            guard let link = tokens[name], let reason = link.unreadable else { continue }
            return .failure(problem(.invalidColor, "token \"\(link.name)\" has no color in theme '\(theme.name)' that could be read (\(reason)), so it is unresolved there", at: link))
        }
        if token.type == "gradient" || Gradient.isGradient(token.value) {
            return resolveGradient(token, reference: reference, firstName: firstName, followed: followed, depth: depth)
        }
        var parsed: ParsedColor
        var css = token.value
        switch parseValue(of: token, depth: depth) {
        case .success(let (color, text)):
            parsed = color
            css = text
        case .failure(let p):
            return .failure(p)
        }
        // A property that may change the color and was not applied leaves the value unknown:
        // unresolved, never measured, unless the palette declares the property harmless.
        for name in [firstName] + followed {
            guard let link = tokens[name] else { continue }
            if let unapplied = link.unappliedProperties.first(where: { !ignoredProperties.contains($0.name) }) {
                return .failure(problem(.unsupportedProperty, "token \"\(link.name)\" has the property \"\(unapplied.name)\", which may change its color in the system's own build and which this tool cannot apply, so its color is unknown; if the property does not change the color, declare it harmless: \"ignoreProperties\": [\"\(unapplied.name)\"] in the checks document, or --ignore-property \(unapplied.name)",
                                        unapplied.pointer, unapplied.location, file: link.file))
            }
        }
        // What the format does to each value, from the innermost token of the chain outward.
        var applied: [String] = []
        for name in ([firstName] + followed).reversed() {
            guard let link = tokens[name] else { continue }
            for operation in link.operations {
                guard operation.amount != nil else {
                    return .failure(problem(.invalidValue, "token \"\(link.name)\": the modifier amount \"\(operation.amountText)\" is not a number from 0 to 1 (nor a reference to one)", operation.pointer, operation.location, file: link.file))
                }
                var mixColor: SRGB?
                if let other = operation.color {
                    switch resolve(other, at: operation.pointer, location: operation.location, referenceFile: link.file, depth: depth + 1) {
                    case .success(let c) where c.gradient != nil:
                        return .failure(problem(.notAColor, "token \"\(link.name)\" mixes with \"\(other)\", which is a gradient, not one color", operation.pointer, operation.location, file: link.file))
                    case .success(let c): mixColor = c.color
                    case .failure(let p): return .failure(p)
                    }
                }
                parsed.color = operation.apply(to: parsed.color, mixColor: mixColor)
                applied.append("\(link.name): \(operation.origin)")
            }
        }
        let first = tokens[firstName]
        var resolved = ResolvedColor(reference: reference, token: firstName, aliases: followed.isEmpty ? nil : followed,
                                     css: css, color: parsed.color, outOfGamut: parsed.wasOutOfGamut,
                                     assumed: token.assumed, pointer: token.pointer, line: token.location?.line)
        resolved.file = token.file
        if builtIn.contains(token.name) {
            // The chain ends at an iOS system color, whose value is not in the document: the
            // value the document writes is the last token of the chain that names it (its
            // `{ios.…}` is what a fix replaces), or none when the check names it itself. Two
            // tokens naming the same system color are two values, not one.
            let link = ([firstName] + followed).last { !builtIn.contains($0) }.flatMap { tokens[$0] }
            resolved.pointer = link?.pointer
            resolved.line = link?.location?.line
            resolved.file = link?.file
            resolved.valueToken = link?.name
        }
        resolved.declaredFile = first?.file
        resolved.declaredLine = first?.location?.line
        let ignored = ([firstName] + followed).compactMap { tokens[$0] }.flatMap { link in link.unappliedProperties.map { "\"\(link.name)\"'s \"\($0.name)\"" } }
        if !ignored.isEmpty {
            let note = "\(ignored.joined(separator: ", ")) not applied: declared harmless (ignoreProperties)"
            resolved.assumed = resolved.assumed.map { $0 + "; " + note } ?? note
        }
        // A deprecation note and an assumption are quoted short: they are written with every
        // result that uses the token (the whole assumption is in the report's assumptions, once).
        resolved.deprecated = first?.deprecated.map { $0.isEmpty ? "deprecated" : $0.excerpt(280) }
        resolved.assumed = resolved.assumed?.excerpt(280)
        resolved.operations = applied.isEmpty ? nil : applied
        return .success(resolved)
    }

    /// The color a token's own value gives: CSS, or (Tokens Studio, Style Dictionary) a value
    /// with references inside it, like `rgba({brand.red}, 0.5)`.
    private mutating func parseValue(of token: Token, depth: Int) -> Result<(ParsedColor, String), PaletteProblem> {
        if let parsed = try? CSSColor.parse(token.value, scheme: scheme) { return .success((parsed, token.value)) }
        var text: String
        switch substitutingReferences(in: token, depth: depth, subject: "token \"\(token.name)\"", context: " inside \"\(token.value)\"", writing: { $0.color.hex }) {
        case .success(let substituted): text = substituted
        case .failure(let p): return .failure(p)
        }
        text = StudioExpression.rewriteRGBAWithColor(text)
        do {
            return .success((try CSSColor.parse(text, scheme: scheme), text))
        } catch {
            if error.code == .schemeDependent {
                return .failure(problem(.invalidColor, "token \"\(token.name)\" is \"\(token.value)\": \(error.message) (theme '\(theme.name)' is neither named light or dark nor has a \"colorScheme\")", at: token))
            }
            let shown = text == token.value ? "\"\(error.input)\"" : "\"\(token.value)\" (\"\(text)\" after references)"
            return .failure(problem(.invalidColor, "token \"\(token.name)\" has \(shown), which is not a valid color: \(error.message) (at byte \(error.offset))", at: token))
        }
    }

    /// A value with `{name}` references inside it, each resolved to one color in this theme and
    /// written in its place by `writing`. `subject` and `context` name the value in problems.
    mutating func substitutingReferences(in token: Token, depth: Int, subject: String, context: String,
                                         writing: (ResolvedColor) -> String) -> Result<String, PaletteProblem> {
        var text = token.value
        for name in Token.embeddedReferences(in: token.value) {
            guard tokens[name] != nil else {
                return .failure(problem(.unknownToken, "\(subject) refers to \"{\(name)}\"\(context), which names no color token of theme '\(theme.name)'\(suggestion(for: name))", at: token))
            }
            if name == token.name {
                return .failure(problem(.aliasCycle, "\(subject) refers to itself\(context)", at: token))
            }
            switch resolve(name, at: token.pointer, location: token.location, referenceFile: token.file, depth: depth + 1) {
            case .success(let c) where c.gradient != nil:
                return .failure(problem(.notAColor, "\(subject) uses \"{\(name)}\"\(context) as a color, but it is a gradient", at: token))
            case .success(let c): text = text.replacing("{\(name)}", with: writing(c))
            case .failure(let p): return .failure(p)
            }
        }
        return .success(text)
    }

    /// An iOS system color in this theme's appearance: dark by its scheme, high contrast when
    /// its name says so. Values Apple does not publish carry an assumption saying where they
    /// come from.
    static func systemColor(_ name: String, theme: Theme, scheme: ColorScheme?) -> ResolvedColor? {
        let highContrast = theme.name.lowercasedContains("contrast")
        guard let css = AppleSystemColors.value(name, dark: scheme == .dark, highContrast: highContrast),
              let parsed = try? CSSColor.parse(css) else { return nil }
        let published = AppleSystemColors.table[name]?.applePublished ?? false
        let assumed = published ? nil
            : "ios.\(name) is the iOS 13-era UIKit value from community transcriptions (Apple publishes no number for it; docs/data/apple-system-colors.json)"
        return ResolvedColor(reference: "{ios.\(name)}", token: "ios.\(name)", aliases: nil, css: css, color: parsed.color,
                             outOfGamut: false, assumed: assumed, pointer: nil)
    }

    /// One problem per cycle, however it was entered: listed from the member that comes first
    /// in the file, located at the token whose alias closes the loop.
    func cycleProblem(_ members: [String]) -> PaletteProblem {
        // The tokens' positions are worked out once per theme, not once per cycle.
        let order = shared.order.withLock { cached in
            if let cached { return cached }
            let built = Dictionary(tokenNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            cached = built
            return built
        }
        let first = members.indices.min { (order[members[$0]] ?? .max) < (order[members[$1]] ?? .max) } ?? 0
        let rotated = Array(members[first...] + members[..<first])
        let closing = tokens[rotated.last ?? ""]
        let shown = rotated.count > 12 ? Array(rotated.prefix(6)) + ["…"] + Array(rotated.suffix(5)) : rotated
        return problem(.aliasCycle, "alias cycle: \((shown + [rotated[0]]).joined(separator: " → "))", closing?.pointer, closing?.location, file: closing?.file)
    }
}
