import ColorScience

/// Figma variables as export plugins write them, read through the one model of Figma variables
/// (``FigmaVariables``: themes from modes, aliases resolved in the theme). Two shapes:
///
/// - an array of collections close to the plugin API's own objects:
///   `[{id, name, modes: [{name, modeId}], variables: [{id, name, type: "COLOR"|"FLOAT"…,
///   values: {modeId: {r, g, b, a} | number | {"type": "VARIABLE_ALIAS", "id": …}}}]}]`;
/// - collections → modes → variables, by name:
///   `{collections: [{name, modes: [{name, variables: [{name, type: "color"|"number", isAlias,
///   value}]}]}]}`, a color written `#RRGGBB` or `#RRGGBBAA` and an alias as
///   `{"collection": …, "name": …}`; every mode repeats the variables.
///
/// Variables of other types are not colors, counted as such in the ledger.
struct FigmaPluginExportFormat: SourceFormat {
    let identity = FormatIdentity(id: "figma-plugin-variables", displayName: "Figma variables (plugin export)", summary: "Figma variables exported by a plugin (collections with modes and variables)",
                                  suffixes: [".json"])

    func detect(_ document: SourceDocument) -> Detection? {
        guard let json = document.json else { return nil }
        if case .array(let items, _) = json, let first = items.first,
           first["modes"]?.pluginItems != nil, first["variables"]?.pluginItems != nil, first["name"] != nil { return .certain }
        if case .array(let collections, _)? = json["collections"], let first = collections.first,
           case .array(let modes, _)? = first["modes"], modes.first?["variables"]?.pluginItems != nil { return .certain }
        return nil
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        guard let json = document.json else { return (nil, []) }
        var problems: [PaletteProblem] = []
        var ledger = ReadLedger()
        let file = document.file
        var variables = FigmaVariables()
        if case .array(let items, _) = json {
            for (index, c) in items.enumerated() {
                let collection = c["id"]?.stringValue ?? c["name"]?.stringValue ?? String(index)
                let modes = (c["modes"]?.pluginItems ?? []).compactMap { m in m["modeId"]?.stringValue.map { ($0, m["name"]?.stringValue ?? $0) } }
                variables.collections[collection] = FigmaVariables.Collection(id: collection, name: c["name"]?.stringValue ?? collection, modes: modes,
                                                                             defaultMode: modes.first?.0, remote: false)
                for (j, v) in (c["variables"]?.pluginItems ?? []).enumerated() {
                    guard ReadBudget.spend(on: "Figma variables", file: file, location: v.location) else { return (nil, problems) }
                    let name = v["name"]?.stringValue ?? "?"
                    guard v["type"]?.stringValue?.uppercased() == "COLOR" else {
                        ledger.notColor(name, type: v["type"]?.stringValue ?? "no type", file: file, location: v.location)
                        continue
                    }
                    let pointer = JSONPointer([String(index), "variables", String(j), "values"])
                    let values = (v["values"]?.members ?? []).map { mode in
                        FigmaVariables.ModeValue(mode: mode.key, value: FigmaVariablesFormat.value(mode.value, of: name), file: file,
                                                 pointer: pointer.appending(mode.key), location: mode.value.location)
                    }
                    variables.colors.append(FigmaVariables.Variable(id: v["id"]?.stringValue ?? "\(collection)/\(name)", name: name, collection: collection,
                                                                    values: values, file: file, location: v.location))
                }
            }
        } else {
            // By name: a variable's ID is its collection and name; its values gather across modes.
            var order: [String] = []
            var byID: [String: FigmaVariables.Variable] = [:]
            var counted: Set<String> = []
            for (index, c) in (json["collections"]?.pluginItems ?? []).enumerated() {
                let collection = c["name"]?.stringValue ?? String(index)
                let modes = (c["modes"]?.pluginItems ?? []).enumerated().map { (j, m) in (m["name"]?.stringValue ?? String(j), m["name"]?.stringValue ?? String(j)) }
                variables.collections[collection] = FigmaVariables.Collection(id: collection, name: collection, modes: modes, defaultMode: modes.first?.0, remote: false)
                for (j, mode) in (c["modes"]?.pluginItems ?? []).enumerated() {
                    let modeName = mode["name"]?.stringValue ?? String(j)
                    for (k, v) in (mode["variables"]?.pluginItems ?? []).enumerated() {
                        guard ReadBudget.spend(on: "Figma variables", file: file, location: v.location) else { return (nil, problems) }
                        let name = v["name"]?.stringValue ?? "?"
                        let id = collection + "/" + name
                        guard v["type"]?.stringValue?.lowercased() == "color" else {
                            if counted.insert(id).inserted { ledger.notColor(name, type: v["type"]?.stringValue ?? "no type", file: file, location: v.location) }
                            continue
                        }
                        let raw = v["value"]
                        let value: FigmaVariables.Value
                        if let target = raw?["name"]?.stringValue {
                            value = .alias((raw?["collection"]?.stringValue ?? collection) + "/" + target)
                        } else if let text = raw?.stringValue, CSSColor.isColor(text) {
                            value = .color(text)
                        } else {
                            value = .invalid(reason: "its value is neither a color nor an alias {collection, name}",
                                             message: "\(name): a color value must be #RRGGBB, #RRGGBBAA or {\"collection\", \"name\"}, found \(raw.map { $0.stringValue.map { "\"\($0.prefix(40))\"" } ?? $0.typeName } ?? "nothing")")
                        }
                        let modeValue = FigmaVariables.ModeValue(mode: modeName, value: value, file: file,
                                                                  pointer: JSONPointer(["collections", String(index), "modes", String(j), "variables", String(k), "value"]),
                                                                  location: raw?.location ?? v.location, declaration: "\(id)\u{0}\(modeName)")
                        if byID[id] == nil {
                            order.append(id)
                            byID[id] = FigmaVariables.Variable(id: id, name: name, collection: collection, values: [], file: file, location: v.location)
                        }
                        byID[id]?.values.append(modeValue)
                    }
                }
            }
            variables.colors = order.compactMap { byID[$0] }
        }
        guard let (themes, axes) = variables.themes(file: file, unread: "this export does not include", limits: context.limits,
                                                     ledger: &ledger, problems: &problems) else { return (nil, problems) }
        var palette = Palette(name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName ?? "figma", file: file, themes: themes)
        palette.ledger = ledger
        palette.format = "\(displayName); \(variables.colors.count) color variables in \(variables.collections.count) collections"
            + FigmaVariables.describeThemes(axes)
        return (palette, problems)
    }
}

private extension JSONValue {
    /// The items of an array (nil for anything else).
    var pluginItems: [JSONValue]? {
        if case .array(let items, _) = self { return items }
        return nil
    }
}
