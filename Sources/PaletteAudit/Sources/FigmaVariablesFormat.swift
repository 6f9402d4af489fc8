import ColorScience

/// Figma's local variables, as the REST API returns them (`GET /v1/files/:key/variables/local`):
/// `{"meta": {"variableCollections": {…}, "variables": {…}}}`, both keyed by ID.
///
/// - Every `COLOR` variable is a token, named by its Figma name with `/` written `.`
///   (`bg/primary` → `bg.primary`); where two collections hold the same name, both are
///   qualified by their collection (`Semantic Colors.bg.primary`).
/// - Themes are modes. The modes of each local collection that holds colors and has more than
///   one are an axis; every combination of the axes is a theme (named by its modes joined with
///   `-`), and every other collection (library copies, single-mode collections) takes its
///   default mode, as Figma renders a frame that sets no mode for it. Modes are resolved per
///   collection, never by mode ID alone (library copies reuse the local IDs). When the axes
///   would make more themes than the limit, each axis is read on its own and a warning says so.
/// - A component value `{r, g, b, a}` in 0…1 is `color(srgb r g b / a)`, exactly as stored.
/// - `VARIABLE_ALIAS` values are references to the target token, resolved in the theme; an
///   alias to a variable the response does not include (a library variable) is unresolved,
///   and says which ID it names.
/// - Variables of other types (`FLOAT`, `STRING`, `BOOLEAN`) are not colors and are not read.
struct FigmaVariablesFormat: SourceFormat {
    let id = "figma-variables"
    let displayName = "Figma variables (REST API)"
    let summary = "Figma's local variables (the REST API's variables/local response)"
    let suffixes = [".json"]

    func detect(_ document: SourceDocument) -> Detection? {
        guard document.shape.keys.contains("meta"), let meta = document.json?["meta"] else { return nil }
        return meta["variableCollections"]?.members != nil && meta["variables"]?.members != nil ? .certain : nil
    }

    struct Collection {
        var id: String
        var name: String
        var modes: [(id: String, name: String)]
        var defaultMode: String?
        var remote: Bool
    }

    struct Variable {
        var id: String
        var name: String
        var collection: String
        var values: [JSONMember]
        var pointer: JSONPointer
        var location: SourceLocation?
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        guard let meta = document.json?["meta"] else { return (nil, []) }
        var problems: [PaletteProblem] = []
        var ledger = ReadLedger()
        let file = document.file
        func warn(_ code: PaletteProblem.Code, _ message: String, _ pointer: JSONPointer, _ location: SourceLocation?) {
            problems.append(PaletteProblem(code, message, file: file, pointer: pointer, location: location, severity: .warning))
        }
        var collections: [String: Collection] = [:]
        for member in meta["variableCollections"]?.members ?? [] {
            let c = member.value
            var modes: [(String, String)] = []
            if case .array(let items, _)? = c["modes"] {
                for mode in items { if let id = mode["modeId"]?.stringValue { modes.append((id, mode["name"]?.stringValue ?? id)) } }
            }
            var remote = false
            if case .bool(let flag, _)? = c["remote"] { remote = flag }
            collections[member.key] = Collection(id: member.key, name: c["name"]?.stringValue ?? member.key, modes: modes,
                                                 defaultMode: c["defaultModeId"]?.stringValue, remote: remote)
        }
        var colors: [Variable] = []
        var byID: [String: Variable] = [:]
        let variablesPointer = JSONPointer(["meta", "variables"])
        for member in meta["variables"]?.members ?? [] {
            guard ReadBudget.spend(on: "Figma variables", file: file, location: member.value.location) else { return (nil, problems) }
            let v = member.value
            guard v["resolvedType"]?.stringValue == "COLOR" else {
                ledger.notColor(v["name"]?.stringValue ?? member.key, type: v["resolvedType"]?.stringValue ?? "no resolvedType", file: file, location: v.location)
                continue
            }
            let variable = Variable(id: member.key, name: v["name"]?.stringValue ?? member.key, collection: v["variableCollectionId"]?.stringValue ?? "",
                                    values: v["valuesByMode"]?.members ?? [], pointer: variablesPointer.appending(member.key), location: v.location)
            colors.append(variable)
            byID[member.key] = variable
        }
        // Names: Figma's, with the collection where two collections share one.
        var collectionsByName: [String: Set<String>] = [:]
        for v in colors { collectionsByName[v.name, default: []].insert(v.collection) }
        // A collection's label: its name, with its ID where two collections share the name.
        var namesTaken: [String: Int] = [:]
        for c in collections.values { namesTaken[c.name, default: 0] += 1 }
        func label(_ id: String) -> String {
            guard let c = collections[id] else { return id }
            return namesTaken[c.name, default: 0] > 1 ? "\(c.name) [\(c.id)]" : c.name
        }
        func tokenName(_ v: Variable) -> String {
            let base = v.name.split(separator: "/").map { String($0).trimmingSpaces }.joined(separator: ".")
            guard (collectionsByName[v.name]?.count ?? 0) > 1 else { return base }
            return label(v.collection) + "." + base
        }
        // The axes: local collections with colors and more than one mode.
        let colored = Set(colors.map(\.collection))
        let axes = collections.values.filter { !$0.remote && $0.modes.count > 1 && colored.contains($0.id) }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        var combinations: [[String: (id: String, name: String)]] = [[:]]
        var count = 1
        var overflow = false
        for axis in axes {
            let (product, over) = count.multipliedReportingOverflow(by: axis.modes.count)
            if over || product > context.limits.maximumThemes { overflow = true; break }
            count = product
        }
        if overflow {
            // One axis at a time, the others at their defaults.
            combinations = axes.flatMap { axis in axis.modes.map { [axis.id: $0] } }
            warn(.limitExceeded, "the modes of \(axes.map { "\($0.name) (\($0.modes.count))" }.joined(separator: ", ")) would combine into more than \(context.limits.maximumThemes) themes; each collection's modes are read on their own, with the others at their default modes",
                 JSONPointer(["meta", "variableCollections"]), nil)
        } else {
            for axis in axes {
                combinations = combinations.flatMap { partial in axis.modes.map { mode in partial.merging([axis.id: mode]) { a, _ in a } } }
            }
        }
        /// The value of `v` in a theme's modes.
        func value(of v: Variable, in combination: [String: (id: String, name: String)]) -> JSONMember? {
            guard let collection = collections[v.collection] else { return nil }
            let mode = combination[v.collection]?.id ?? collection.defaultMode ?? collection.modes.first?.id
            return v.values.first(where: { $0.key == mode }) ?? v.values.first(where: { $0.key == collection.defaultMode }) ?? v.values.first
        }
        /// The missing variable an alias chain from `v` ends at, if it ends at one.
        func missingTarget(of v: Variable, in combination: [String: (id: String, name: String)]) -> String? {
            var current = v
            for _ in 0..<ReadBudget.maximumDepth {
                guard let member = value(of: current, in: combination), member.value["type"]?.stringValue == "VARIABLE_ALIAS",
                      let target = member.value["id"]?.stringValue else { return nil }
                guard let next = byID[target] else { return target }
                current = next
            }
            return nil  // a cycle or a chain too long: the theme's resolver reports it
        }
        var warned: Set<String> = []
        var themes: [Theme] = []
        for combination in combinations {
            // Each theme copies every color variable: spent, so modes cannot multiply a small
            // file into millions of tokens.
            guard ReadBudget.spend(colors.count + 1, bytes: colors.count * 64, on: "the themes of the Figma modes", file: file, location: nil) else { return (nil, problems) }
            let name = combination.isEmpty ? "default"
                : axes.compactMap { combination[$0.id]?.name }.joined(separator: "-")
            var tokens: [Token] = []
            for v in colors {
                guard let value = value(of: v, in: combination) else {
                    if warned.insert(v.id).inserted {
                        let reason = collections[v.collection] == nil ? "its collection \(v.collection) is not in the response" : "it has no value for any mode"
                        ledger.notRead(tokenName(v), reason: reason, file: file, location: v.location)
                    }
                    continue
                }
                let pointer = v.pointer.appending("valuesByMode").appending(value.key)
                var token = Token(name: tokenName(v), value: "", pointer: pointer, location: value.value.location, file: file)
                token.declaration = v.id  // the variable, whose values by mode are its themes
                token.type = "color"
                if value.value["type"]?.stringValue == "VARIABLE_ALIAS", let target = value.value["id"]?.stringValue {
                    if let missing = missingTarget(of: v, in: combination) {
                        // Not a token: a check that names it is unresolved, never measured.
                        if warned.insert(v.id).inserted {
                            let reason = "an alias\(missing == target ? "" : " (through a chain)") to \(missing), a variable this response does not include (a library's), so its color is unknown"
                            warn(.unknownToken, "\(tokenName(v)) is not read: it is \(reason)", pointer, value.value.location)
                            ledger.notRead(tokenName(v), reason: reason, file: file, location: value.value.location)
                        }
                        continue
                    }
                    token.value = "{\(tokenName(byID[target]!))}"
                } else if let css = Self.css(value.value) {
                    token.value = css
                } else {
                    if warned.insert(v.id).inserted {
                        ledger.notRead(tokenName(v), reason: "its value is neither {r, g, b, a} nor an alias", file: file, location: value.value.location)
                        problems.append(PaletteProblem(.invalidColor, "\(v.name): a COLOR value must be {r, g, b, a} in 0…1 or a VARIABLE_ALIAS, found \(value.value.typeName)", file: file, pointer: pointer, location: value.value.location))
                    }
                    continue
                }
                tokens.append(token)
            }
            themes.append(Theme(name: name, tokens: tokens))
        }
        var palette = Palette(name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName ?? "figma", file: file, themes: themes)
        palette.ledger = ledger
        let local = collections.values.filter { !$0.remote }.count
        palette.format = "\(displayName); \(colors.count) color variables in \(collections.count) collections (\(local) local)"
            + (axes.isEmpty ? "; one theme (every collection at its default mode)" : "; themes from the modes of \(axes.map(\.name).joined(separator: " × "))")
        return (palette, problems)
    }

    /// `{r, g, b, a}` in 0…1 as CSS, exactly as stored.
    static func css(_ value: JSONValue) -> String? {
        func channel(_ key: String) -> Double? {
            if case .number(let v, _)? = value[key] { return v }
            return nil
        }
        guard let r = channel("r"), let g = channel("g"), let b = channel("b") else { return nil }
        let a = channel("a") ?? 1
        let parts = [r, g, b].map { CSSNumber.format($0) }.joined(separator: " ")
        return a == 1 ? "color(srgb \(parts))" : "color(srgb \(parts) / \(CSSNumber.format(a)))"
    }
}
