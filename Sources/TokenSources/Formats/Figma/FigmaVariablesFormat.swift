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
    let identity = FormatIdentity(id: "figma-variables", displayName: "Figma variables (REST API)", summary: "Figma's local variables (the REST API's variables/local response)",
                                  suffixes: [".json"])

    func detect(_ document: SourceDocument) -> Detection? {
        guard document.shape.keys.contains("meta"), let meta = document.json?["meta"] else { return nil }
        return meta["variableCollections"]?.members != nil && meta["variables"]?.members != nil ? .certain : nil
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        guard let meta = document.json?["meta"] else { return (nil, []) }
        var problems: [PaletteProblem] = []
        var ledger = ReadLedger()
        let file = document.file
        var variables = FigmaVariables()
        for member in meta["variableCollections"]?.members ?? [] {
            let c = member.value
            var modes: [(String, String)] = []
            if case .array(let items, _)? = c["modes"] {
                for mode in items { if let id = mode["modeId"]?.stringValue { modes.append((id, mode["name"]?.stringValue ?? id)) } }
            }
            var remote = false
            if case .bool(let flag, _)? = c["remote"] { remote = flag }
            variables.collections[member.key] = FigmaVariables.Collection(id: member.key, name: c["name"]?.stringValue ?? member.key, modes: modes,
                                                                         defaultMode: c["defaultModeId"]?.stringValue, remote: remote,
                                                                         file: file, pointer: JSONPointer(["meta", "variableCollections", member.key, "modes"]))
        }
        let variablesPointer = JSONPointer(["meta", "variables"])
        for member in meta["variables"]?.members ?? [] {
            guard ReadBudget.spend(on: "Figma variables", file: file, location: member.value.location) else { return (nil, problems) }
            let v = member.value
            let name = v["name"]?.stringValue ?? member.key
            guard v["resolvedType"]?.stringValue == "COLOR" else {
                ledger.notColor(name, type: v["resolvedType"]?.stringValue ?? "no resolvedType", file: file, location: v.location)
                continue
            }
            let pointer = variablesPointer.appending(member.key).appending("valuesByMode")
            let values = (v["valuesByMode"]?.members ?? []).map { mode -> FigmaVariables.ModeValue in
                FigmaVariables.ModeValue(mode: mode.key, value: Self.value(mode.value, of: name), file: file, pointer: pointer.appending(mode.key), location: mode.value.location)
            }
            variables.colors.append(FigmaVariables.Variable(id: member.key, name: name, collection: v["variableCollectionId"]?.stringValue ?? "",
                                                            values: values, file: file, location: v.location))
        }
        guard let (themes, axes) = variables.themes(file: file, unread: "this response does not include", limits: context.limits,
                                                     ledger: &ledger, problems: &problems) else { return (nil, problems) }
        var palette = Palette(name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName ?? "figma", file: file, themes: themes)
        palette.ledger = ledger
        let local = variables.collections.values.filter { !$0.remote }.count
        palette.format = "\(displayName); \(variables.colors.count) color variables in \(variables.collections.count) collections (\(local) local)"
            + FigmaVariables.describeThemes(axes)
        return (palette, problems)
    }

    /// A COLOR variable's value in one mode, as the plugin API and the REST API write it:
    /// `{r, g, b, a}` in 0…1, or `{"type": "VARIABLE_ALIAS", "id": …}`.
    static func value(_ value: JSONValue, of name: String) -> FigmaVariables.Value {
        if value["type"]?.stringValue == "VARIABLE_ALIAS", let target = value["id"]?.stringValue { return .alias(target) }
        if let range = outOfRange(value) {
            return .invalid(reason: "its \(range)", message: "\(name): a COLOR value's \(range); the variable is not read (a clipped color would be measured in its place)")
        }
        if let css = css(value) { return .color(css) }
        return .invalid(reason: "its value is neither {r, g, b, a} nor an alias",
                        message: "\(name): a COLOR value must be {r, g, b, a} in 0…1 or a VARIABLE_ALIAS, found \(value.typeName)")
    }

    /// Which channel of `{r, g, b, a}` is outside 0…1, and how (nil: none is).
    static func outOfRange(_ value: JSONValue) -> String? {
        for key in ["r", "g", "b", "a"] {
            guard case .number(let v, _)? = value[key], let outside = PaletteDecoder.outsideUnit(v, channel: key != "a") else { continue }
            return "channel \"\(key)\" \(outside)"
        }
        return nil
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
