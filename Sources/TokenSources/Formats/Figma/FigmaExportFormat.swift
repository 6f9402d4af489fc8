import ColorScience

/// Figma variables as Figma exports them to files, one file per collection and mode:
///
/// - Figma's native export (`<Mode>.tokens.json`, DTCG): the root's `$extensions` names the
///   mode (`com.figma.modeName`); nothing names the collection, so files whose variables share
///   `com.figma.variableId`s are the modes of one collection. A color is
///   `{"colorSpace", "components", "alpha", "hex"}`. An alias to another collection keeps the
///   value resolved at export time and names its target in `com.figma.aliasData` (collection and
///   variable by name); one within the collection is a DTCG `{group.token}` reference.
/// - The files of Figma's sample GitHub Action (`<Collection>.<Mode>.json`): extensions under
///   `$extensions["com.figma"]`, colors as hex strings, aliases as `{group.token}` naming a token
///   of any collection.
///
/// The files of one folder are read together (a file of the export names the others, as a
/// resolver names its sets), and their variables become themes as every Figma source's do
/// (``FigmaVariables``). An alias whose target is in none of the files (a library variable)
/// takes the value Figma exported, with an assumption that says so; an exported value that no
/// longer matches its target in the files (files exported at different times) gives way to the
/// target, with a warning.
struct FigmaExportFormat: SourceFormat {
    let identity = FormatIdentity(id: "figma-export", displayName: "Figma variables export", summary: "Figma's variables export (one <Mode>.tokens.json per collection and mode)",
                                  suffixes: [".tokens.json", ".json"], role: .set)
    /// The most files one export is read from (each is a collection in one mode).
    static let maximumFiles = 1_000

    func detect(_ document: SourceDocument) -> Detection? {
        guard let json = document.json, Self.isExport(json, file: document.file) else { return nil }
        return .certain
    }

    /// Whether a parsed file is one of an export: its root names its mode, or its name is
    /// `<Collection>.<Mode>.json` and a token carries `$extensions["com.figma"]`.
    static func isExport(_ json: JSONValue, file: String?) -> Bool {
        json["$extensions"]?["com.figma.modeName"]?.stringValue != nil
            || (modeFromName(file) != nil && hasFigmaExtension(json, budget: 256))
    }

    /// `<Collection>.<Mode>.json`, the sample Action's file names: (collection, mode).
    static func modeFromName(_ file: String?) -> (collection: String, mode: String)? {
        guard let file, file.hasSuffix(".json"), !file.hasSuffix(".tokens.json") else { return nil }
        let base = String(file.split(separator: "/").last ?? "")
        let stem = String(base.dropLast(".json".count))
        guard let dot = stem.lastIndex(of: "."), dot != stem.startIndex, stem.index(after: dot) != stem.endIndex else { return nil }
        return (String(stem[..<dot]), String(stem[stem.index(after: dot)...]))
    }

    /// Whether a token in the first `budget` nodes carries `$extensions["com.figma"]`.
    static func hasFigmaExtension(_ value: JSONValue, budget: Int) -> Bool {
        var stack = [value], seen = 0
        while let node = stack.popLast(), seen < budget {
            seen += 1
            guard let members = node.members else { continue }
            if node["$value"] != nil { if node["$extensions"]?["com.figma"]?.members != nil { return true } else { continue } }
            stack.append(contentsOf: members.reversed().map(\.value))
        }
        return false
    }

    /// One file of the export: its collection (known by name in the Action's files), its mode,
    /// and its tokens.
    struct ExportFile {
        var file: String?
        var collectionName: String?
        var mode: String
        var tokens: [(path: [String], node: JSONValue, pointer: JSONPointer, type: String?)]
        var variableIDs: Set<String>
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        var problems: [PaletteProblem] = []
        var ledger = ReadLedger()
        // The export's other files, beside this one.
        var documents: [(file: String?, json: JSONValue)] = []
        if let json = document.json { documents.append((document.file, json)) }
        if let file = document.file, let fileSystem = context.reader.fileSystem {
            let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            let siblings = fileSystem.list(directory.isEmpty ? "." : directory).entries.filter { !$0.isDirectory && $0.name.hasSuffix(".json") }
            // Counted before any is read: each may be up to the file system's size limit.
            guard siblings.count <= Self.maximumFiles else {
                return (nil, [PaletteProblem(.limitExceeded, "the folder holds \(siblings.count) JSON files beside this Figma export file; an export is read from at most \(Self.maximumFiles)", file: document.file)])
            }
            for entry in siblings {
                let path = directory.isEmpty ? entry.name : directory + "/" + entry.name
                guard path != file else { continue }
                let bytes: [UInt8]
                switch context.reader.read(path) {
                case .success(let read): bytes = read
                case .failure(let problem):
                    problems.append(PaletteProblem(.unreadableFile, "\(problem.message); not read as part of the Figma export", file: path, severity: .warning))
                    continue
                }
                // What is read is spent, so a request's budget bounds the files read beside it.
                guard ReadBudget.spend(bytes: bytes.count, on: "the files of the Figma export", file: path, location: nil) else { return (nil, problems) }
                let json: JSONValue
                do { json = try JSONParser.parseTokens(bytes, file: path, warnings: &problems) } catch {
                    problems.append(PaletteProblem(.invalidJSON, "\(error.message); not read as part of the Figma export beside it", file: path, location: error.location, severity: .warning))
                    continue
                }
                if Self.isExport(json, file: path) { documents.append((path, json)) }
            }
            documents.sort { ($0.file ?? "") < ($1.file ?? "") }
        }
        var files: [ExportFile] = []
        for (file, json) in documents {
            let named = Self.modeFromName(file)
            let mode = json["$extensions"]?["com.figma.modeName"]?.stringValue ?? named?.mode ?? "default"
            var export = ExportFile(file: file, collectionName: json["$extensions"]?["com.figma.modeName"] == nil ? named?.collection : nil,
                                    mode: mode, tokens: [], variableIDs: [])
            // The tokens, depth first in document order, with the group's $type inherited.
            var stack: [(JSONValue, [String], JSONPointer, String?)] = [(json, [], JSONPointer(), nil)]
            while let (node, path, pointer, inherited) = stack.popLast() {
                guard path.count < ReadBudget.maximumDepth, ReadBudget.spend(on: "the Figma export's tokens", file: file, location: node.location) else {
                    return (nil, problems + [PaletteProblem(.limitExceeded, "the groups nest deeper than \(ReadBudget.maximumDepth) levels", file: file, pointer: pointer, location: node.location)])
                }
                guard let members = node.members else { continue }
                let type = node["$type"]?.stringValue ?? inherited
                if node["$value"] != nil {
                    export.tokens.append((path, node, pointer, type))
                    if let id = node["$extensions"]?["com.figma.variableId"]?.stringValue { export.variableIDs.insert(id) }
                    continue
                }
                for member in members.reversed() where !member.key.hasPrefix("$") {
                    stack.append((member.value, path + [member.key], pointer.appending(member.key), type))
                }
            }
            files.append(export)
        }
        // Collections: the Action's by name; the native export's by shared variable IDs.
        func normalized(_ text: String) -> String { String(text.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init)) }
        var collectionOf: [Int] = Array(files.indices)
        func find(_ i: Int) -> Int { var i = i; while collectionOf[i] != i { i = collectionOf[i] }; return i }
        // Each file joins the first file that shares a variable ID with it (or, for the Action's
        // files, its collection's name): linear in the IDs, not pairwise.
        var ownerOfID: [String: Int] = [:], ownerOfName: [String: Int] = [:]
        func join(_ i: Int, _ j: Int) { let a = find(i), b = find(j); if a != b { collectionOf[max(a, b)] = min(a, b) } }
        for i in files.indices {
            if let name = files[i].collectionName {
                if let j = ownerOfName[name] { join(i, j) } else { ownerOfName[name] = i }
                continue
            }
            for id in files[i].variableIDs.sorted() {
                if let j = ownerOfID[id] { join(i, j) } else { ownerOfID[id] = i }
            }
        }
        var members: [Int: [Int]] = [:]
        for i in files.indices { members[find(i), default: []].append(i) }
        let groups = members.keys.sorted().map { members[$0]! }
        func stem(_ file: String?) -> String {
            let base = file.map { String($0.split(separator: "/").last ?? "") } ?? "tokens"
            return base.hasSuffix(".tokens.json") ? String(base.dropLast(".tokens.json".count)) : String(base.dropLast(".json".count))
        }
        var variables = FigmaVariables()
        var collectionIndex: [Int: String] = [:]
        // What aliasData's collection names are matched against: every file's name.
        var matchedName: [String: String] = [:]
        for (n, group) in groups.enumerated() {
            let first = files[group[0]]
            // Named by its files, three at most: the name qualifies token names and is quoted
            // in messages, and a collection may be a thousand files.
            let stems = group.map { stem(files[$0].file) }
            let name = first.collectionName ?? (stems.prefix(3).joined(separator: " + ") + (stems.count > 3 ? " + \(stems.count - 3) more" : ""))
            let id = "collection \(n + 1)"
            var modes: [(String, String)] = [], seenModes: Set<String> = []
            for i in group where seenModes.insert(files[i].mode).inserted { modes.append((files[i].mode, files[i].mode)) }
            variables.collections[id] = FigmaVariables.Collection(id: id, name: name, modes: modes, defaultMode: modes.first?.0, remote: false, file: first.file, pointer: JSONPointer())
            matchedName[id] = normalized(first.collectionName ?? stems.joined(separator: " + "))
            for i in group { collectionIndex[i] = id }
        }
        // Variables by collection and Figma name (`group/token`).
        var byName: [String: [String: Int]] = [:]  // collection → name → index in variables.colors
        var pendingAliases: [(variable: Int, value: Int, file: Int, alias: Alias)] = []
        for (i, export) in files.enumerated() {
            let collection = collectionIndex[i]!
            for (path, node, pointer, type) in export.tokens {
                let name = path.joined(separator: "/")
                let displayName = path.joined(separator: ".")
                guard type == "color" else {
                    ledger.notColor(displayName, type: type ?? "no $type", file: export.file, location: node.location)
                    continue
                }
                let variableIndex: Int
                if let known = byName[collection]?[name] {
                    variableIndex = known
                } else {
                    variableIndex = variables.colors.count
                    byName[collection, default: [:]][name] = variableIndex
                    variables.colors.append(FigmaVariables.Variable(id: "\(collection)\u{0}\(name)", name: name, collection: collection, values: [],
                                                                    file: export.file, location: node.location))
                }
                let valuePointer = pointer.appending("$value")
                let raw = node["$value"]!
                var value = FigmaVariables.ModeValue(mode: export.mode, value: .invalid(reason: "", message: ""), file: export.file, pointer: valuePointer,
                                                     location: raw.location, declaration: "\(export.file ?? "")\u{0}\(valuePointer)")
                let exported = Self.css(raw)
                if let aliasData = node["$extensions"]?["com.figma.aliasData"], let target = aliasData["targetVariableName"]?.stringValue {
                    pendingAliases.append((variableIndex, variables.colors[variableIndex].values.count, i,
                                           Alias(target: target, collection: aliasData["targetVariableSetName"]?.stringValue, exported: exported, written: "\(aliasData["targetVariableSetName"]?.stringValue ?? "?")/\(target)")))
                } else if let text = raw.stringValue, let reference = Token.aliasTarget(of: text) {
                    let target = reference.split(separator: ".").joined(separator: "/")
                    pendingAliases.append((variableIndex, variables.colors[variableIndex].values.count, i, Alias(target: target, collection: nil, exported: nil, written: text)))
                } else if let range = Self.outOfRange(raw) {
                    value.value = .invalid(reason: "its \(range)", message: "\(displayName): the color's \(range); the variable is not read (a clipped color would be measured in its place)")
                } else if let css = exported {
                    value.value = .color(css)
                } else if let space = raw["colorSpace"]?.stringValue, !["srgb", "display-p3"].contains(space) {
                    value.value = .invalid(reason: "its colorSpace \"\(space)\" is not one this tool reads (srgb, display-p3)",
                                           message: "\(displayName): the colorSpace \"\(space.prefix(40))\" is not one this tool reads; expected srgb or display-p3")
                } else {
                    value.value = .invalid(reason: "its value is not a color Figma exports ({colorSpace, components, alpha} or a hex string)",
                                           message: "\(displayName): a Figma color value must be {\"colorSpace\", \"components\": [r, g, b], \"alpha\"} or a hex string, found \(raw.typeName)")
                }
                variables.colors[variableIndex].values.append(value)
            }
        }
        // Aliases, once every variable is known.
        var stale: [String: Int] = [:]
        let collectionIDs = variables.collections.keys.sorted()
        // The candidates of each (collection named, target, own collection), found once: a
        // thousand aliases to one name held by a thousand collections matched every name again.
        var candidatesOf: [String: [String]] = [:]
        var indexOfID: [String: Int] = [:]
        for (index, v) in variables.colors.enumerated() { indexOfID[v.id] = index }
        // The collections that hold each name, in collection order.
        var holders: [String: [String]] = [:]
        for id in collectionIDs { for name in (byName[id] ?? [:]).keys { holders[name, default: []].append(id) } }
        for pending in pendingAliases {
            let alias = pending.alias
            let own = collectionIndex[pending.file]!
            var candidates: [String] = []
            if let set = alias.collection {
                // aliasData names the target's collection, whose files do not name it: match it
                // against the collections' file names, else any other collection with the name.
                let memo = "\(set)\u{0}\(alias.target)\u{0}\(own)"
                if let known = candidatesOf[memo] {
                    candidates = known
                } else {
                    let wanted = normalized(set)
                    let holding = holders[alias.target] ?? []
                    candidates = holding.filter { matchedName[$0]!.contains(wanted) }
                    if candidates.isEmpty { candidates = holding.filter { $0 != own } }
                    candidatesOf[memo] = candidates
                }
            } else if byName[own]?[alias.target] != nil {
                candidates = [own]
            } else {
                candidates = holders[alias.target] ?? []
            }
            var value = variables.colors[pending.variable].values[pending.value]
            let name = variables.colors[pending.variable].name.split(separator: "/").joined(separator: ".")
            if candidates.count == 1, let target = byName[candidates[0]]?[alias.target] {
                value.value = .alias(variables.colors[target].id)
                if let exported = alias.exported, let current = Self.resolvedLiteral(target, variables: variables, indexOfID: indexOfID), current != exported {
                    stale[value.file ?? "", default: 0] += 1
                }
            } else if let exported = alias.exported, candidates.isEmpty {
                value.value = .color(exported)
                value.assumed = "\(name) is an alias to \(alias.written), which none of the exported files holds (a library's); the value Figma exported with it is used"
            } else if candidates.count > 1 {
                // Three collections named at most, each abridged: said for every such alias (one
                // alias listing 800 collections was 205 MB of output from 828 KB).
                let named = candidates.prefix(3).map { variables.collections[$0]!.name.excerpt(40) }.joined(separator: ", ") + (candidates.count > 3 ? " and \(candidates.count - 3) more" : "")
                value.value = .invalid(reason: "an alias to \(alias.written.excerpt(40)), which \(candidates.count) collections hold (\(named))",
                                       message: "\(name): the alias \(alias.written.excerpt(40)) is ambiguous: \(candidates.count) collections of the export hold \(alias.target.excerpt(40))")
            } else {
                value.value = .alias("\(alias.written) (not in the exported files)")
            }
            variables.colors[pending.variable].values[pending.value] = value
        }
        for (file, count) in stale.sorted(by: { $0.key < $1.key }) {
            problems.append(PaletteProblem(.staleValue, "\(count) alias\(count == 1 ? "" : "es") in this file carr\(count == 1 ? "ies" : "y") a value exported earlier that no longer matches the target in the other files (the files were exported at different times); the targets' values are used",
                                           file: file.isEmpty ? nil : file, severity: .warning))
        }
        guard let (themes, axes) = variables.themes(file: document.file, unread: "the exported files do not include", limits: context.limits,
                                                     ledger: &ledger, problems: &problems) else { return (nil, problems) }
        let directoryName = document.file.flatMap { $0.split(separator: "/").dropLast().last.map(String.init) }
        var palette = Palette(name: documents.count > 1 ? directoryName ?? "figma" : document.file.map(PaletteDecoder.baseName) ?? context.defaultName ?? "figma",
                              file: document.file, themes: themes)
        palette.ledger = ledger
        palette.files = documents.compactMap(\.file)
        palette.format = "\(displayName); \(variables.colors.count) color variables in \(variables.collections.count) collection\(variables.collections.count == 1 ? "" : "s")"
            + FigmaVariables.describeThemes(axes)
        return (palette, problems)
    }

    struct Alias {
        /// The target's Figma name (`group/token`).
        var target: String
        /// The target's collection, when the export names it.
        var collection: String?
        /// The value Figma exported with the alias, as CSS.
        var exported: String?
        /// The alias as written, for messages.
        var written: String
    }

    /// The color a variable's alias chain ends at in each collection's first mode, if it ends
    /// at a color.
    static func resolvedLiteral(_ start: Int, variables: FigmaVariables, indexOfID: [String: Int]) -> String? {
        var index = start
        for _ in 0..<ReadBudget.maximumDepth {
            let v = variables.colors[index]
            guard let first = v.values.first else { return nil }
            switch first.value {
            case .color(let css): return css
            case .alias(let id):
                guard let next = indexOfID[id] else { return nil }
                index = next
            case .invalid: return nil
            }
        }
        return nil
    }

    /// A Figma color value as CSS: `{"colorSpace", "components", "alpha"}` exactly as stored, or
    /// a hex string.
    /// Which of an exported `{colorSpace, components, alpha}`'s numbers is outside 0…1, and
    /// how (nil: none is).
    static func outOfRange(_ value: JSONValue) -> String? {
        if case .array(let items, _)? = value["components"] {
            for (index, item) in items.enumerated() {
                guard case .number(let v, _) = item, let outside = PaletteDecoder.outsideUnit(v) else { continue }
                return "component \(index) \(outside)"
            }
        }
        if case .number(let a, _)? = value["alpha"], let outside = PaletteDecoder.outsideUnit(a, channel: false) { return "alpha \(outside)" }
        return nil
    }

    static func css(_ value: JSONValue) -> String? {
        if let text = value.stringValue {
            return text.hasPrefix("#") && CSSColor.isColor(text) ? text : nil
        }
        guard case .array(let items, _)? = value["components"], items.count == 3 else { return nil }
        let channels = items.compactMap { item -> Double? in if case .number(let v, _) = item { return v } else { return nil } }
        guard channels.count == 3 else { return nil }
        let space = value["colorSpace"]?.stringValue ?? "srgb"
        guard ["srgb", "display-p3"].contains(space) else { return nil }
        var alpha = 1.0
        if case .number(let a, _)? = value["alpha"] { alpha = a }
        let parts = channels.map { CSSNumber.format($0) }.joined(separator: " ")
        return alpha == 1 ? "color(\(space) \(parts))" : "color(\(space) \(parts) / \(CSSNumber.format(alpha)))"
    }
}
