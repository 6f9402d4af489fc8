/// Adobe Spectrum's design tokens (`spectrum-design-data`, formerly `spectrum-tokens`): a flat
/// map of token names, each token naming its kind with a `$schema` URL
/// (`…/schemas/token-types/color.json`, `alias.json`, `color-set.json`, `scale-set.json`) and
/// holding a `value`, or `sets` of values by theme: `{"sets": {"light": {…}, "dark": {…},
/// "wireframe": {…}}}` for colors, `{"desktop": …, "mobile": …}` for sizes.
///
/// The names of one `sets` object are the values of one axis. Each axis whose values hold a
/// color is a theme axis (light, dark, wireframe); the others are fixed to their first value
/// (desktop), as a resolver fixes modifiers that define no color. A token's `{name}` alias takes
/// the named token's value in the same theme. In a directory, Spectrum's files are merged into
/// one palette like other token files.
struct SpectrumTokensFormat: MergedTokenFormat {
    let identity = FormatIdentity(id: "spectrum-tokens", displayName: "Adobe Spectrum tokens", summary: "Adobe Spectrum tokens ($schema token-types, sets by theme)",
                                  suffixes: [".json"], role: .tokens)

    func detect(_ document: SourceDocument) -> Detection? {
        guard let members = document.json?.members else { return nil }
        for member in members.prefix(64) {
            if let schema = member.value["$schema"]?.stringValue, Self.isTokenType(schema) { return .certain }
        }
        return nil
    }

    static func isTokenType(_ schema: String) -> Bool {
        schema.contains("/schemas/token-types/") && (schema.contains("spectrum-tokens") || schema.contains("spectrum-design-data"))
    }

    /// Spectrum's own members of a token, which say what it is and where it is used and never
    /// change its value: its schema, id, component, privacy and new name.
    static let metadata: Set<String> = ["$schema", "uuid", "component", "private", "renamed"]

    /// The document as the Style Dictionary reader takes it: Spectrum's metadata members taken
    /// out of every token and every value of its `sets`; the kind its `$schema` names given as
    /// `type` (`dimension.json` → `dimension`; `color.json` → `color`; an alias or a set keeps
    /// none, as its value decides); and a set-valued token's `deprecated`, `deprecated_comment`
    /// and `description` given as `$deprecated` and `$description` of the group its values are.
    static func withoutMetadata(_ json: JSONValue) -> JSONValue {
        guard case .object(let tokens, let location) = json else { return json }
        func kind(_ members: [JSONMember]) -> JSONMember? {
            guard let schema = members.first(where: { $0.key == "$schema" }), let url = schema.value.stringValue,
                  let name = url.split(separator: "/").last.map({ String($0.dropLast($0.hasSuffix(".json") ? 5 : 0)) }),
                  !["alias", "color-set", "scale-set"].contains(name), !name.isEmpty else { return nil }
            return JSONMember(key: "type", keyLocation: schema.keyLocation, value: .string(name, schema.value.location))
        }
        func token(_ value: JSONValue) -> JSONValue {
            guard case .object(let members, let at) = value else { return value }
            var kept = members.filter { !metadata.contains($0.key) }
            if !kept.contains(where: { $0.key == "type" }), let type = kind(members) { kept.append(type) }
            guard let setsMember = kept.first(where: { $0.key == "sets" }), case .object(let sets, let setsAt) = setsMember.value else {
                return .object(kept, at)
            }
            // A set-valued token is a group of its values to the reader: its deprecation and
            // description are the group's, which every value inherits.
            var group: [JSONMember] = []
            if let flag = kept.first(where: { $0.key == "deprecated" }), case .bool(true, let flagAt) = flag.value {
                let comment = kept.first { $0.key == "deprecated_comment" }?.value.stringValue
                group.append(JSONMember(key: "$deprecated", keyLocation: flag.keyLocation, value: comment.map { .string($0, flagAt) } ?? .bool(true, flagAt)))
            }
            if let description = kept.first(where: { $0.key == "description" }) {
                group.append(JSONMember(key: "$description", keyLocation: description.keyLocation, value: description.value))
            }
            kept.removeAll { ["deprecated", "deprecated_comment", "description"].contains($0.key) }
            return .object(group + kept.map { member in
                guard member.key == "sets" else { return member }
                return JSONMember(key: "sets", keyLocation: member.keyLocation,
                                  value: .object(sets.map { JSONMember(key: $0.key, keyLocation: $0.keyLocation, value: token($0.value)) }, setsAt))
            }, at)
        }
        return .object(tokens.map { JSONMember(key: $0.key, keyLocation: $0.keyLocation, value: $0.key.hasPrefix("$") ? $0.value : token($0.value)) }, location)
    }

    func prepared(_ document: JSONValue) -> JSONValue { Self.withoutMetadata(document) }

    func themes(of tokens: [Token], decoder: inout PaletteDecoder) -> (themes: [Theme], note: String) {
        decoder.dialect = .styleDictionary
        return decoder.spectrumThemes(tokens)
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        guard let json = document.json.map(Self.withoutMetadata) else { return (nil, []) }
        var decoder = PaletteDecoder(limits: context.limits)
        decoder.file = document.file
        let file = document.file ?? "tokens.json"
        var cache: [String: JSONValue?] = [file: json]
        let resolved = decoder.resolveReferences(json, file: file, pointer: JSONPointer(), reader: context.reader, cache: &cache, setFiles: [])
        decoder.dialect = .styleDictionary
        var tokens = decoder.flatten(TokenSource(file: file, root: resolved, pointer: JSONPointer()), dialect: .styleDictionary)
        if document.file == nil { for i in tokens.indices { tokens[i].file = nil } }
        let (themes, note) = decoder.spectrumThemes(tokens)
        var palette = Palette(name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName ?? "tokens", file: document.file, themes: themes)
        palette.format = displayName + note
        palette.ledger.merge(decoder.ledger)
        return (palette, decoder.problems)
    }
}

extension PaletteDecoder {
    /// Spectrum's tokens (flattened, so a set's value is the token `name.sets.light`) as themes:
    /// one per combination of the values of the axes that hold colors, each with every token
    /// under its own name, finished (aliases checked) in that theme. The note says which axes
    /// are themes and which are fixed.
    mutating func spectrumThemes(_ tokens: [Token]) -> (themes: [Theme], note: String) {
        /// A token's name without its `sets.X` pairs, and the X of each pair.
        func split(_ name: String) -> (base: String, selectors: [String]) {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            var base: [Substring] = [], selectors: [String] = []
            var i = 0
            while i < parts.count {
                if parts[i] == "sets" && i + 1 < parts.count && i > 0 {
                    selectors.append(String(parts[i + 1]))
                    i += 2
                } else {
                    base.append(parts[i])
                    i += 1
                }
            }
            return (base.joined(separator: "."), selectors)
        }
        // Axes: the names that stand side by side in one `sets` object are one axis.
        var axisOf: [String: Int] = [:]
        var axes: [[String]] = []
        var siblings: [String: [String]] = [:]  // the prefix up to a `sets` → the names under it
        for token in tokens {
            let parts = token.name.split(separator: ".", omittingEmptySubsequences: false)
            for i in parts.indices where parts[i] == "sets" && i + 1 < parts.count && i > 0 {
                let key = parts[..<i].joined(separator: ".")
                let name = String(parts[i + 1])
                if !(siblings[key]?.contains(name) ?? false) { siblings[key, default: []].append(name) }
            }
        }
        for names in siblings.values.sorted(by: { $0.joined() < $1.joined() }) {
            let known = names.compactMap { axisOf[$0] }
            let axis = known.first ?? { axes.append([]); return axes.count - 1 }()
            for other in Set(known) where other != axis {
                // Two axes that turn out to share a name are one.
                for name in axes[other] { axisOf[name] = axis; axes[axis].append(name) }
                axes[other] = []
            }
            for name in names where axisOf[name] == nil {
                axisOf[name] = axis
                axes[axis].append(name)
            }
        }
        axes = axes.filter { !$0.isEmpty }
        axisOf = [:]
        for (index, axis) in axes.enumerated() { for name in axis { axisOf[name] = index } }
        if axes.isEmpty {
            return ([Theme(name: "default", tokens: finishTokens(tokens), pointer: JSONPointer())], "")
        }
        // An axis is a theme axis when one of its values is a color (or an alias, in a token
        // whose other values are colors).
        var colored = Set<Int>()
        for token in tokens {
            let selectors = split(token.name).selectors
            guard !selectors.isEmpty, token.type == nil || token.type == "color", !token.value.contains("{"),
                  PaletteDecoder.couldBeColor(token.value) else { continue }
            for selector in selectors { if let axis = axisOf[selector] { colored.insert(axis) } }
        }
        let themed = axes.indices.filter { colored.contains($0) }
        let fixed = axes.indices.filter { !colored.contains($0) }
        guard let combinations = PaletteDecoder.combinations(of: themed.map { axes[$0] }) else {
            problem(.limitExceeded, "the theme sets \(themed.map { axes[$0].joined(separator: "/") }.joined(separator: " × ")) make \(PaletteDecoder.describeProduct(themed.map { axes[$0].count })) themes; the limit is \(PaletteDecoder.maximumThemeCombinations)", at: JSONPointer(), nil)
            return ([], "")
        }
        var themes: [Theme] = []
        let all = Set(fixed.map { axes[$0][0] })
        for (index, combination) in combinations.enumerated() {
            guard ReadBudget.spend(1 + tokens.count, on: "the themes of Spectrum's sets", file: file, location: nil) else { return ([], "") }
            let chosen = all.union(combination)
            var list: [Token] = []
            for token in tokens {
                let (base, selectors) = split(token.name)
                guard selectors.allSatisfy({ chosen.contains($0) }) else {
                    // A value of a fixed axis other than its first (mobile): in no theme.
                    let unused = selectors.filter { s in axisOf[s].map { fixed.contains($0) } == true && !all.contains(s) }
                    if index == 0 && !unused.isEmpty {
                        ledger.notColor(token.name, type: "its value for \(unused.joined(separator: ", ")), on an axis that holds no color and is fixed to \(fixed.map { axes[$0][0] }.joined(separator: ", "))", file: token.file ?? file, location: token.location)
                    }
                    continue
                }
                var named = token
                named.name = base
                list.append(named)
            }
            let name = combination.isEmpty ? "default" : combination.joined(separator: "-")
            themes.append(Theme(name: name, tokens: finishTokens(list, theme: name), pointer: JSONPointer()))
        }
        var note = "; themes from its sets: " + (themed.isEmpty ? "none hold a color" : themed.map { axes[$0].joined(separator: ", ") }.joined(separator: " × "))
        if !fixed.isEmpty { note += "; fixed: " + fixed.map { "\(axes[$0][0]) (of \(axes[$0].joined(separator: ", ")); no color)" }.joined(separator: ", ") }
        return (themes, note)
    }
}
