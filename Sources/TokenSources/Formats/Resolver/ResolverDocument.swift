/// The DTCG Resolver Module 2025.10: a `*.resolver.json` document becomes one palette whose
/// themes are the combinations of its modifiers' contexts.
///
/// - `resolutionOrder` is followed in order; a set contributes its `sources`, a modifier the
///   sources of the context chosen for the theme; later tokens replace earlier ones, and aliases
///   resolve over the merged tokens of every file.
/// - Every combination of contexts of the modifiers that can change a color is a theme, named
///   by its context names joined with `-` in resolution order (`dark-high-contrast`); with one
///   such modifier, the theme names are its context names. A modifier none of whose contexts
///   defines a color (a `size` modifier) is not multiplied out: its `default` context is used
///   (or its first, when it declares none), and the palette's format line says so.
extension PaletteDecoder {
    static let maximumThemeCombinations = 1_000

    /// One entry of `resolutionOrder`, with its sources.
    enum OrderItem {
        case set(name: String, sources: [TokenSource])
        case modifier(name: String, contexts: [(name: String, sources: [TokenSource])], defaultContext: String?)
    }

    mutating func resolverPalette(_ document: JSONValue, name defaultName: String?, reader: DocumentReader) -> Palette? {
        let root = JSONPointer()
        let resolverFile = file ?? "resolver.json"
        dialect = .dtcg
        guard let members = document.members else {
            problem(.wrongType, "a resolver document must be an object, found \(document.typeName)", at: root, document)
            return nil
        }
        var fields = Fields(members, root)
        let name = string(&fields, "name", what: "a resolver") ?? defaultName ?? "tokens"
        let description = string(&fields, "description", what: "a resolver")
        if let version = fields.value("version") {
            if version.stringValue != "2025.10" {
                warn(.invalidValue, "the resolver's \"version\" is \(version.stringValue.map { "\"\($0)\"" } ?? version.typeName); the DTCG Resolver Module 2025.10 requires \"2025.10\". It was read as 2025.10", at: root.appending("version"), version.location)
            }
        } else {
            warn(.missingField, "the resolver has no \"version\"; the DTCG Resolver Module requires \"2025.10\". It was read as 2025.10", at: root, document.location)
        }
        _ = fields.value("$schema")
        _ = fields.value("$defs")
        let sets = fields.value("sets")
        let modifiers = fields.value("modifiers")
        guard let order = fields.value("resolutionOrder") else {
            problem(.missingField, "a resolver needs \"resolutionOrder\": the sets and modifiers in the order they apply", at: root, document)
            return nil
        }
        finish(fields, allowed: ["name", "description", "version", "sets", "modifiers", "resolutionOrder", "$schema", "$defs"], what: "a resolver")
        guard case .array(let orderItems, _) = order, !orderItems.isEmpty else {
            problem(.invalidValue, "\"resolutionOrder\" must be a non-empty array of {\"$ref\": \"#/sets/…\"} or {\"$ref\": \"#/modifiers/…\"} (or inline sets and modifiers)", at: root.appending("resolutionOrder"), order)
            return nil
        }
        var cache: [String: JSONValue?] = [resolverFile: document]
        var items: [OrderItem] = []
        var inlineNames: Set<String> = []
        var appliedSets: Set<String> = [], appliedModifiers: Set<String> = []
        for (index, item) in orderItems.enumerated() {
            let pointer = root.appending("resolutionOrder").appending(index)
            guard let itemMembers = item.members else {
                problem(.wrongType, "a resolutionOrder entry must be an object, found \(item.typeName)", at: pointer, item)
                continue
            }
            if let ref = item["$ref"]?.stringValue {
                if ref.hasPrefix("#"), let setName = PaletteDecoder.setName(inFragment: ref.dropFirst()) {
                    guard let set = sets?[setName] else {
                        problem(.unknownToken, "\"\(ref)\" names no set of this resolver (sets: \((sets?.members ?? []).map(\.key).joined(separator: ", ")))", at: pointer.appending("$ref"), item["$ref"])
                        continue
                    }
                    let sources = setSources(set, at: root.appending("sets").appending(setName), reader: reader, cache: &cache, visiting: [ref])
                    items.append(.set(name: setName, sources: sources))
                    appliedSets.insert(setName)
                } else if ref.hasPrefix("#/modifiers/") || ref.hasPrefix("#modifiers/") {
                    let modifierName = String(ref.split(separator: "/").last ?? "")
                    guard let modifier = modifiers?[modifierName] else {
                        problem(.unknownToken, "\"\(ref)\" names no modifier of this resolver (modifiers: \((modifiers?.members ?? []).map(\.key).joined(separator: ", ")))", at: pointer.appending("$ref"), item["$ref"])
                        continue
                    }
                    if let read = modifierItem(modifier, name: modifierName, at: root.appending("modifiers").appending(modifierName), reader: reader, cache: &cache) {
                        items.append(read)
                    }
                    appliedModifiers.insert(modifierName)
                } else {
                    problem(.invalidValue, "a resolutionOrder \"$ref\" must point to \"#/sets/NAME\" or \"#/modifiers/NAME\", found \"\(ref)\"", at: pointer.appending("$ref"), item["$ref"])
                }
                continue
            }
            let type = item["type"]?.stringValue
            guard let inlineName = item["name"]?.stringValue, let type else {
                problem(.missingField, "an inline resolutionOrder entry needs \"type\" (\"set\" or \"modifier\") and \"name\"", at: pointer, item)
                continue
            }
            if inlineNames.contains(inlineName) {
                problem(.duplicateName, "\"\(inlineName)\" names two inline resolutionOrder entries; each needs a unique name", at: pointer.appending("name"), item["name"])
            }
            inlineNames.insert(inlineName)
            switch type {
            case "set":
                items.append(.set(name: inlineName, sources: setSources(.object(itemMembers.filter { $0.key != "type" && $0.key != "name" }, item.location), at: pointer, reader: reader, cache: &cache, visiting: [])))
            case "modifier":
                if let read = modifierItem(.object(itemMembers.filter { $0.key != "type" && $0.key != "name" }, item.location), name: inlineName, at: pointer, reader: reader, cache: &cache) {
                    items.append(read)
                }
            default:
                problem(.invalidValue, "an inline resolutionOrder entry has \"type\": \"\(type)\"; expected \"set\" or \"modifier\"", at: pointer.appending("type"), item["type"])
            }
        }

        // Sets and modifiers the resolver defines but resolutionOrder does not apply: their files
        // are read for the ledger (and are not audited again on their own), never applied.
        var unapplied: [(what: String, sources: [TokenSource])] = []
        for member in sets?.members ?? [] where !appliedSets.contains(member.key) {
            // Names abridged: quoted in the ledger entry of each of their tokens.
            unapplied.append(("set \(member.key.excerpt(40))", setSources(member.value, at: root.appending("sets").appending(member.key), reader: reader, cache: &cache, visiting: ["#/sets/\(member.key)"])))
        }
        for member in modifiers?.members ?? [] where !appliedModifiers.contains(member.key) {
            if case .modifier(_, let contexts, _)? = modifierItem(member.value, name: member.key, at: root.appending("modifiers").appending(member.key), reader: reader, cache: &cache) {
                unapplied.append(("modifier \(member.key.excerpt(40))", contexts.flatMap(\.sources)))
            }
        }

        // Every source flattened once.
        let setFiles = Array(cache.keys).sorted()
        var flattened: [String: [Token]] = [:]
        func key(_ s: TokenSource) -> String { "\(s.file)#\(s.pointer)" }
        var allSources: [TokenSource] = []
        for item in items {
            switch item {
            case .set(_, let sources): allSources += sources
            case .modifier(_, let contexts, _): allSources += contexts.flatMap(\.sources)
            }
        }
        for source in allSources where flattened[key(source)] == nil {
            let saved = file
            file = source.file
            let resolved = resolveReferences(source.root, file: source.file, pointer: source.pointer, reader: reader, cache: &cache, setFiles: setFiles)
            file = saved
            flattened[key(source)] = flatten(TokenSource(file: source.file, root: resolved, pointer: source.pointer), dialect: .dtcg)
        }

        for (index, (what, sources)) in unapplied.enumerated() {
            for source in sources {
                let saved = file
                file = source.file
                let resolved = resolveReferences(source.root, file: source.file, pointer: source.pointer, reader: reader, cache: &cache, setFiles: setFiles)
                for token in flatten(TokenSource(file: source.file, root: resolved, pointer: source.pointer), dialect: .dtcg) {
                    if let type = token.type, type != "color" {
                        ledger.notColor(token.name, type: "\(type.excerpt(40)), in \(what), which resolutionOrder does not apply", file: token.file ?? source.file, location: token.location)
                    } else {
                        ledger.notRead(token.name, reason: "it is in \(what), which resolutionOrder does not apply", file: token.file ?? source.file, location: token.location, rule: index)
                    }
                }
                file = saved
            }
        }

        // Which modifiers can change a color.
        var declaredType: [String: String] = [:]
        for tokens in flattened.values { for token in tokens { if let t = token.type { declaredType[token.name] = t } } }
        func mayBeColor(_ token: Token) -> Bool {
            if let type = token.type { return type == "color" }
            if let target = token.aliasTarget { return (declaredType[target] ?? "color") == "color" }
            return PaletteDecoder.couldBeColor(token.value)
        }
        var dimensions: [(name: String, contexts: [(name: String, sources: [TokenSource])])] = []
        var fixed: [String] = []
        var chosen: [String: (name: String, sources: [TokenSource])] = [:]
        for item in items {
            guard case .modifier(let modifierName, let contexts, let defaultContext) = item, !contexts.isEmpty else { continue }
            let changesColor = contexts.contains { context in context.sources.contains { (flattened[key($0)] ?? []).contains(where: mayBeColor) } }
            if changesColor && contexts.count > 1 {
                dimensions.append((modifierName, contexts))
            } else {
                let pick = contexts.first { $0.name == defaultContext } ?? contexts[0]
                chosen[modifierName] = pick
                if contexts.count > 1 {
                    fixed.append("\(modifierName) = \(pick.name) (\(defaultContext == nil ? "its first context; " : "its default; ")no context defines a color)")
                    // The other contexts' tokens are met, and are not colors: in the ledger.
                    for context in contexts where context.name != pick.name {
                        for source in context.sources {
                            for token in flattened[key(source)] ?? [] {
                                ledger.notColor(token.name, type: "\((token.type ?? "untyped").excerpt(40)), in context \(context.name.excerpt(40)) of \(modifierName.excerpt(40)), which is fixed to \(pick.name.excerpt(40))",
                                                file: token.file ?? source.file, location: token.location)
                            }
                        }
                    }
                }
            }
        }
        // Counted before anything is built, with overflow checks: 64 modifiers of 2 contexts
        // make 2^64 themes, which no Int holds.
        guard PaletteDecoder.combinationCount(dimensions.map(\.contexts.count)) != nil else {
            let product = PaletteDecoder.describeProduct(dimensions.map(\.contexts.count))
            problem(.limitExceeded, "the modifiers \(dimensions.prefix(16).map { "\($0.name) (\($0.contexts.count))" }.joined(separator: " × "))\(dimensions.count > 16 ? " × …" : "") make \(product) themes; the limit is \(PaletteDecoder.maximumThemeCombinations)", at: root.appending("resolutionOrder"), order)
            return nil
        }
        var combinations: [[(modifier: String, context: (name: String, sources: [TokenSource]))]] = [[]]
        for dimension in dimensions {
            combinations = combinations.flatMap { prefix in dimension.contexts.map { prefix + [(dimension.name, $0)] } }
        }
        var themes: [Theme] = []
        for combination in combinations {
            // Each theme merges and finishes every token again: spent, so that many themes of
            // many tokens stop at the budget (or the request's deadline).
            guard ReadBudget.spend(1 + flattened.values.reduce(0) { $0 + $1.count }, on: "the themes of a resolver's modifiers", file: file, location: order.location) else { return nil }
            var lists: [[Token]] = []
            for item in items {
                switch item {
                case .set(_, let sources):
                    lists += sources.map { flattened[key($0)] ?? [] }
                case .modifier(let modifierName, _, _):
                    let context = combination.first { $0.modifier == modifierName }?.context ?? chosen[modifierName]
                    lists += (context?.sources ?? []).map { flattened[key($0)] ?? [] }
                }
            }
            let themeName = combination.isEmpty ? "default" : combination.map(\.context.name).joined(separator: "-")
            let tokens = finishTokens(mergedTokens(lists), theme: combination.isEmpty ? nil : themeName)
            themes.append(Theme(name: themeName, tokens: tokens, pointer: root))
        }
        var palette = Palette(name: name, description: description, file: file, themes: themes)
        var format = "DTCG resolver 2025.10"
        if !dimensions.isEmpty {
            format += "; themes from \(dimensions.map { "\($0.name) (\($0.contexts.map(\.name).joined(separator: ", ")))" }.joined(separator: " × "))"
        }
        if !fixed.isEmpty { format += "; fixed: \(fixed.joined(separator: "; "))" }
        palette.format = format
        palette.files = setFiles.filter { $0 != resolverFile }
        return palette
    }

    /// A set's `sources`: files (`{"$ref": "a.tokens.json"}`, `a.json#/part`), other sets
    /// (`#/sets/x`), or token trees written inline.
    mutating func setSources(_ set: JSONValue, at pointer: JSONPointer, reader: DocumentReader, cache: inout [String: JSONValue?], visiting: [String]) -> [TokenSource] {
        guard let sourcesValue = set["sources"] else {
            problem(.missingField, "a set needs \"sources\": an array of {\"$ref\": \"file.tokens.json\"} or inline tokens", at: pointer, set)
            return []
        }
        return sourceList(sourcesValue, at: pointer.appending("sources"), reader: reader, cache: &cache, visiting: visiting)
    }

    mutating func sourceList(_ value: JSONValue, at pointer: JSONPointer, reader: DocumentReader, cache: inout [String: JSONValue?], visiting: [String]) -> [TokenSource] {
        if visiting.count >= ReadBudget.maximumDepth {
            let problem = PaletteProblem(.limitExceeded, "sets name sets more than \(ReadBudget.maximumDepth) deep (\(visiting.prefix(3).joined(separator: " → ")) → …); the resolver is not read", file: file, pointer: pointer, location: value.location)
            ReadBudget.current?.stop(problem)
            problems.append(problem)
            return []
        }
        guard case .array(let items, _) = value else {
            problem(.wrongType, "sources must be an array of {\"$ref\": …} or inline tokens, found \(value.typeName)", at: pointer, value)
            return []
        }
        let resolverFile = file ?? "resolver.json"
        var sources: [TokenSource] = []
        for (index, item) in items.enumerated() {
            let itemPointer = pointer.appending(index)
            // Sets that name other sets twice expand: each source listed is spent.
            guard ReadBudget.spend(on: "the sources of a resolver's sets", file: file, location: item.location) else { return sources }
            guard let ref = item["$ref"]?.stringValue else {
                if item.members != nil {
                    sources.append(TokenSource(file: resolverFile, root: item, pointer: itemPointer))
                } else {
                    problem(.wrongType, "a source must be {\"$ref\": \"file.tokens.json\"} or an object of tokens, found \(item.typeName)", at: itemPointer, item)
                }
                continue
            }
            let hash = ref.firstIndex(of: "#")
            let pathPart = String(hash.map { ref[..<$0] } ?? Substring(ref))
            let fragment = hash.map { String(ref[ref.index(after: $0)...]) } ?? ""
            if pathPart.isEmpty {
                let trimmed = fragment.hasPrefix("/") ? String(fragment.dropFirst()) : fragment
                if let setName = PaletteDecoder.setName(inFragment: fragment[...]) {
                    if visiting.contains(ref) {
                        problem(.refCycle, "set reference cycle: \((visiting + [ref]).joined(separator: " → "))", at: itemPointer.appending("$ref"), item["$ref"])
                        continue
                    }
                    guard let root = cache[resolverFile] ?? nil, let set = PaletteDecoder.follow("/sets/" + JSONPointer.escaped(setName), in: root) else {
                        problem(.unknownToken, "\"\(ref)\" names no set of this resolver", at: itemPointer.appending("$ref"), item["$ref"])
                        continue
                    }
                    let nested: [TokenSource]
                    if let known = expandedSets[setName] {
                        nested = known
                    } else {
                        let problemsBefore = problems.count
                        nested = setSources(set, at: JSONPointer(["sets", setName]), reader: reader, cache: &cache, visiting: visiting + [ref])
                        // A set's sources do not depend on who names it, unless a cycle was met
                        // on the way (then it is expanded again, and the cycle reported where).
                        if !problems[problemsBefore...].contains(where: { $0.code == .refCycle }) && !ReadBudget.isExhausted { expandedSets[setName] = nested }
                    }
                    guard ReadBudget.spend(nested.count, bytes: nested.count * MemoryLayout<TokenSource>.stride, on: "the sources of a resolver's sets", file: file, location: item.location) else { return sources }
                    if sources.count + nested.count > PaletteDecoder.maximumFilesPerSet {
                        stopRead("the sets named here list more than \(PaletteDecoder.maximumFilesPerSet) sources (sets that name other sets twice double at each level); the resolver is not read", at: itemPointer.appending("$ref"), item["$ref"]?.location)
                        return sources
                    }
                    sources += nested
                } else if trimmed.hasPrefix("modifiers/") || trimmed.hasPrefix("resolutionOrder") {
                    problem(.invalidValue, "a source cannot point to \"\(ref)\": only resolutionOrder may name a modifier, and nothing may point into resolutionOrder", at: itemPointer.appending("$ref"), item["$ref"])
                } else if let root = cache[resolverFile] ?? nil, let part = PaletteDecoder.follow(fragment, in: root) {
                    sources.append(TokenSource(file: resolverFile, root: part, pointer: JSONPointer(fragment.split(separator: "/").map(String.init))))
                } else {
                    problem(.unknownToken, "\"\(ref)\" points to nothing in this resolver", at: itemPointer.appending("$ref"), item["$ref"])
                }
                continue
            }
            let path = SourcePath.join(resolverFile, pathPart)
            guard let document = document(path, written: pathPart, reader: reader, cache: &cache, namedAt: itemPointer.appending("$ref"), location: item["$ref"]?.location) else { continue }
            guard let part = PaletteDecoder.follow(fragment, in: document) else {
                problem(.unknownToken, "\"\(ref)\": \"\(path)\" has no \"#\(fragment)\"", at: itemPointer.appending("$ref"), item["$ref"])
                continue
            }
            sources.append(TokenSource(file: path, root: part, pointer: JSONPointer(fragment.split(separator: "/").map(String.init))))
        }
        return sources
    }

    mutating func modifierItem(_ modifier: JSONValue, name: String, at pointer: JSONPointer, reader: DocumentReader, cache: inout [String: JSONValue?]) -> OrderItem? {
        guard let contextsValue = modifier["contexts"], let contextMembers = contextsValue.members else {
            problem(.missingField, "modifier \"\(name)\" needs \"contexts\": an object of context names, each an array of sources", at: pointer, modifier)
            return nil
        }
        if contextMembers.isEmpty {
            problem(.invalidValue, "modifier \"\(name)\" has no contexts; a modifier needs at least one (and should have two or more)", at: pointer.appending("contexts"), contextsValue)
            return nil
        }
        var contexts: [(name: String, sources: [TokenSource])] = []
        for member in contextMembers {
            contexts.append((member.key, sourceList(member.value, at: pointer.appending("contexts").appending(member.key), reader: reader, cache: &cache, visiting: [])))
        }
        var defaultContext: String?
        if let value = modifier["default"] {
            if let text = value.stringValue, contexts.contains(where: { $0.name == text }) {
                defaultContext = text
            } else {
                problem(.invalidValue, "modifier \"\(name)\" has \"default\": \(value.stringValue.map { "\"\($0)\"" } ?? value.typeName), which is not one of its contexts (\(contexts.map(\.name).joined(separator: ", ")))", at: pointer.appending("default"), value)
            }
        }
        return .modifier(name: name, contexts: contexts, defaultContext: defaultContext)
    }
}

extension PaletteDecoder {
    /// The set a same-file reference's fragment names (`/sets/NAME` or `sets/NAME`, the name
    /// escaped as RFC 6901 escapes a segment), or nil when it names no set. The whole rest is
    /// the name: `/sets/a/b` names a set `a/b` (usually none, which is said), not `b`. One
    /// reading for the resolution order's references and the sets' own.
    static func setName(inFragment fragment: Substring) -> String? {
        let trimmed = fragment.hasPrefix("/") ? fragment.dropFirst() : fragment
        guard trimmed.hasPrefix("sets/") else { return nil }
        return JSONPointer.unescaped(trimmed.dropFirst("sets/".count))
    }
}
