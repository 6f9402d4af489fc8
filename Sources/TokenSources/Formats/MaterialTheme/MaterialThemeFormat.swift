import ColorScience

/// A Material Theme Builder export (`material-theme.json`): `schemes` (light, dark, and the
/// medium- and high-contrast variants of each) map Material's color roles (`primary`,
/// `onPrimary`, `surfaceContainer`…) to hex colors, and `palettes` hold the tonal palettes
/// (`primary` at tones 0…100).
///
/// Each scheme is a theme of the roles, named as the export names it (`dark-high-contrast`);
/// the tonal palettes (`palettes.primary.40`) and the seed and core colors are tokens of every
/// theme. `extendedColors` (custom colors with their own light and dark roles) give each theme
/// their roles as `<name>.<role>`.
struct MaterialThemeFormat: SourceFormat {
    let identity = FormatIdentity(id: "material-theme-builder", displayName: "Material Theme Builder export", summary: "a Material Theme Builder export (schemes, palettes)",
                                  suffixes: [".json"])

    func detect(_ document: SourceDocument) -> Detection? {
        let keys = document.shape.keys
        guard keys.contains("schemes"), keys.contains("palettes") || keys.contains("coreColors"),
              let schemes = document.json?["schemes"]?.members, !schemes.isEmpty,
              schemes.allSatisfy({ $0.value.members != nil }) else { return nil }
        return .certain
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        guard let json = document.json, let schemes = json["schemes"]?.members else { return (nil, []) }
        let file = document.file
        var problems: [PaletteProblem] = []
        var ledger = ReadLedger()
        /// The color tokens of an object of name → hex, and the entries that are not colors.
        func tokens(_ value: JSONValue?, prefix: String, pointer: JSONPointer) -> [Token] {
            var out: [Token] = []
            for member in value?.members ?? [] {
                guard ReadBudget.spend(on: "a Material Theme Builder export", file: file, location: member.value.location) else { return out }
                let name = prefix.isEmpty ? member.key : prefix + "." + member.key
                guard let text = member.value.stringValue else {
                    ledger.notColor(name, type: member.value.typeName, file: file, location: member.value.location)
                    continue
                }
                var token = Token(name: name, value: text, pointer: pointer.appending(member.key), location: member.value.location, file: file)
                token.type = "color"
                out.append(token)
            }
            return out
        }
        var shared: [Token] = []
        if let seed = json["seed"]?.stringValue {
            var token = Token(name: "seed", value: seed, pointer: JSONPointer(["seed"]), location: json["seed"]?.location, file: file)
            token.type = "color"
            shared.append(token)
        }
        shared += tokens(json["coreColors"], prefix: "coreColors", pointer: JSONPointer(["coreColors"]))
        for palette in json["palettes"]?.members ?? [] {
            shared += tokens(palette.value, prefix: "palettes." + palette.key, pointer: JSONPointer(["palettes", palette.key]))
        }
        // As many schemes as every format keeps themes (20,000 were read), counted before any
        // is built.
        guard schemes.count <= context.limits.maximumThemes else {
            problems.append(PaletteProblem(.limitExceeded, "the export has \(schemes.count) schemes; the limit is \(context.limits.maximumThemes)",
                                           file: file, pointer: JSONPointer(["schemes"]), location: json["schemes"]?.location))
            return (nil, problems)
        }
        // Each custom color's name and members by key, found once: a lookup per scheme was a scan
        // of the custom color's keys, which may be one per scheme (965 KB took 8 s).
        var customs: [(index: Int, name: String?, location: SourceLocation?, roles: [String: JSONValue])] = []
        if case .array(let extended, _)? = json["extendedColors"] {
            for (index, custom) in extended.enumerated() {
                guard ReadBudget.spend(1 + (custom.members?.count ?? 0), on: "a Material Theme Builder export", file: file, location: custom.location) else { return (nil, problems) }
                var roles: [String: JSONValue] = [:]
                for member in custom.members ?? [] where roles[member.key] == nil { roles[member.key] = member.value }
                customs.append((index, roles["name"]?.stringValue, custom.location, roles))
            }
        }
        var themes: [Theme] = []
        for scheme in schemes {
            // Each scheme repeats the tonal palettes: spent, so schemes cannot multiply them.
            guard ReadBudget.spend(shared.count + 1, bytes: shared.count * ReadBudget.bytesPerThemeToken, on: "the schemes of a Material Theme Builder export", file: file, location: scheme.value.location) else { return (nil, problems) }
            var own = tokens(scheme.value, prefix: "", pointer: JSONPointer(["schemes", scheme.key]))
            // Custom colors: each has roles per scheme (`light`, `dark`…), or by the scheme's
            // luminosity when it has no entry for this contrast.
            for custom in customs {
                guard let name = custom.name else {
                    if scheme.key == schemes.first?.key {
                        ledger.notRead("extendedColors/\(custom.index)", reason: "a custom color without a \"name\"", file: file, location: custom.location)
                    }
                    continue
                }
                let luminosity = scheme.key.hasPrefix("dark") ? "dark" : "light"
                let roles = custom.roles[scheme.key] ?? custom.roles[luminosity]
                let key = custom.roles[scheme.key] != nil ? scheme.key : luminosity
                own += tokens(roles, prefix: name, pointer: JSONPointer(["extendedColors", String(custom.index), key]))
            }
            var theme = Theme(name: scheme.key, tokens: own + shared, pointer: JSONPointer(["schemes", scheme.key]))
            theme.colorScheme = scheme.key.hasPrefix("dark") ? .dark : .light
            themes.append(theme)
        }
        if themes.isEmpty {
            problems.append(PaletteProblem(.missingField, "the export's \"schemes\" is empty", file: file, pointer: JSONPointer(["schemes"]), location: json["schemes"]?.location))
            return (nil, problems)
        }
        var palette = Palette(name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName ?? "material-theme", file: file, themes: themes)
        palette.description = json["description"]?.stringValue.map { $0.split(separator: "\n").map { String($0).trimmingSpaces }.joined(separator: "; ") }
        palette.format = "\(displayName); \(themes.count) schemes (\(themes.map(\.name).joined(separator: ", "))) as themes, tonal palettes as tokens"
        palette.ledger = ledger
        return (palette, problems)
    }
}
