/// Tokens Studio for Figma: a file with its sets at the top level (and `$themes`,
/// `$metadata`), or a folder of one file per set beside `$themes.json` and `$metadata.json`
/// (see `Formats/TokensStudio.swift`).
struct TokensStudioFormat: FolderSourceFormat {
    let identity = FormatIdentity(id: "tokens-studio", displayName: "Tokens Studio", summary: "Tokens Studio (value/type, $themes, $metadata)",
                                  suffixes: [".json"])
    let readsDocuments = true

    /// Tokens Studio's own extension, `$extensions["studio.tokens"]`.
    static let studioExtension = DocumentMarker.member("studio.tokens")
    var markers: [DocumentMarker] { [Self.studioExtension, TokenFileFormat.value, TokenFileFormat.dollarValue] }

    func detect(_ document: SourceDocument) -> Detection? {
        let shape = document.shape
        guard shape.isObject else { return nil }
        if (shape.keys.contains("$themes") || Self.hasMetadataTokenSetOrder(document)) && !TokensStudioCompanionFormat.names.contains(document.baseName) { return .certain }
        let value = shape.saw(TokenFileFormat.value.name), dollarValue = shape.saw(TokenFileFormat.dollarValue.name)
        if shape.saw(Self.studioExtension.name) && (value || dollarValue) { return .likely }
        if value && !dollarValue, let json = document.json, Self.referencesAreSetScoped(json) { return .likely }
        return nil
    }

    /// `$metadata.tokenSetOrder` at the top level.
    static func hasMetadataTokenSetOrder(_ document: SourceDocument) -> Bool {
        document.json?["$metadata"]?["tokenSetOrder"] != nil
    }

    /// Whether a file of `value`/`type` tokens is a Tokens Studio file without `$themes` (the
    /// plugin's single-file export: `{"global": {...}, "light": {...}, "dark": {...}}`): its
    /// top-level keys are sets, so its references name tokens without the set
    /// (`{palette.white}` for `global.palette.white`). True when more of its references resolve
    /// inside one of its top-level objects than from the root, and at least one does. Looks at
    /// the first 200,000 nodes and 2,000 references.
    static func referencesAreSetScoped(_ json: JSONValue) -> Bool {
        let (atRoot, inSet) = referenceScopes(json)
        return inSet > 0 && inSet > atRoot
    }

    /// How many of a document's references resolve from its root, and how many only inside one
    /// of its top-level objects. The keys compared while resolving are counted with the nodes
    /// (each step of a path scans its object's keys, and a reference is tried in every set):
    /// at most 2,000,000, so that 2,000 references over 50,000 sets cannot cost 10^8 steps.
    static func referenceScopes(_ json: JSONValue) -> (atRoot: Int, inSet: Int) {
        guard let sets = json.members?.filter({ !$0.key.hasPrefix("$") }), sets.count >= 2,
              sets.allSatisfy({ $0.value.members != nil }) else { return (0, 0) }
        var compared = 0
        func resolves(_ path: ArraySlice<Substring>, from node: JSONValue) -> Bool {
            var current = node
            for key in path {
                compared += current.members?.count ?? 1
                guard let next = current[String(key)] else { return false }
                current = next
            }
            return current.members != nil
        }
        // A path's first step, from the root and in each set, by key: only the sets that hold
        // its first key can resolve it.
        var atRootByKey: [String: JSONValue] = [:], inSetsByKey: [String: [JSONValue]] = [:]
        for member in json.members ?? [] where atRootByKey[member.key] == nil { atRootByKey[member.key] = member.value }
        for set in sets { for member in set.value.members ?? [] { inSetsByKey[member.key, default: []].append(member.value) } }
        var atRoot = 0, inSet = 0, seen = 0, visited = 0
        var stack = [json]
        while let next = stack.popLast(), visited < 200_000, seen < 2_000, compared < 2_000_000 {
            visited += 1
            switch next {
            case .object(let members, _): stack.append(contentsOf: members.map(\.value))
            case .array(let items, _): stack.append(contentsOf: items)
            case .string(let text, _):
                var rest = Substring(text)
                while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                    let path = rest[rest.index(after: open)..<close].split(separator: ".", omittingEmptySubsequences: false)
                    rest = rest[rest.index(after: close)...]
                    guard !path.isEmpty, path.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else { continue }
                    seen += 1
                    let first = String(path[0])
                    if let start = atRootByKey[first], resolves(path.dropFirst(), from: start) { atRoot += 1 }
                    else if (inSetsByKey[first] ?? []).contains(where: { resolves(path.dropFirst(), from: $0) }) { inSet += 1 }
                }
            default: break
            }
        }
        return (atRoot, inSet)
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        guard let json = document.json else { return (nil, []) }
        var decoder = PaletteDecoder(limits: context.limits)
        decoder.file = document.file
        let file = document.file ?? "tokens.json"
        var sets = (json["values"]?.members ?? json.members ?? []).filter { !$0.key.hasPrefix("$") && $0.value.members != nil }
        let pointerBase = json["values"] == nil ? JSONPointer() : JSONPointer(["values"])
        var named = sets.map { (name: $0.key, file: file, root: $0.value, pointer: pointerBase.appending($0.key)) }
        if json["$themes"] == nil && json["$metadata"] == nil && json["values"] == nil && !Self.referencesAreSetScoped(json) {
            // One set exported on its own (Telekom's telekom-design-tokens.light.json): with no
            // $themes or $metadata, its top-level keys are sets only when its references name
            // tokens inside them; else they are groups of one set.
            sets = []
            named = [(name: document.file.map(PaletteDecoder.baseName) ?? "tokens", file: file, root: json, pointer: JSONPointer())]
        }
        var palette = decoder.tokensStudioPalette(sets: named,
                                                  themes: json["$themes"], themesFile: nil, metadata: json["$metadata"],
                                                  name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName ?? "tokens", reader: context.reader)
        palette?.ledger.merge(decoder.ledger)
        return (palette, decoder.problems)
    }

    /// A folder holding `$themes.json` or `$metadata.json` (the root ends with `/`).
    func roots(among files: [String], fileSystem: FileSystem) -> [String] {
        Array(Set(files.filter { file in TokensStudioCompanionFormat.names.contains { file.hasSuffix("/" + $0) } }.map { SourcePath.directory(of: $0) })).sorted()
    }

    func claims(folder path: String, fileSystem: FileSystem) -> Bool { false }  // found by the walk of the folder

    func owns(_ file: String, root: String) -> Bool { file.hasPrefix(root) && file.hasSuffix(".json") }

    func read(folder: String, files: [String], loader: PaletteLoader) -> LoadedPalette {
        loader.loadTokensStudioFolder(root: folder, files: files)
    }
}

/// Tokens Studio's `$themes.json` and `$metadata.json`: part of a folder of token sets, not a
/// palette on their own.
struct TokensStudioCompanionFormat: SourceFormat {
    static let names = ["$themes.json", "$metadata.json"]
    let identity = FormatIdentity(id: "tokens-studio-metadata", displayName: "Tokens Studio $themes/$metadata", summary: "Tokens Studio's $themes.json and $metadata.json, in their folder",
                                  suffixes: [".json"], role: .companion("Tokens Studio $themes/$metadata outside a token folder"))

    func detect(_ document: SourceDocument) -> Detection? {
        let shape = document.shape
        if Self.names.contains(document.baseName) { return .certain }
        if shape.isArray, case .array(let items, _)? = document.json, items.contains(where: { $0["selectedTokenSets"] != nil }) { return .certain }
        if shape.keys.contains("tokenSetOrder") && shape.keys.count <= 4 && !shape.keys.contains("$themes")
            && !TokensStudioFormat.hasMetadataTokenSetOrder(document) { return .certain }
        return nil
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        let name = document.file == nil ? "$themes/$metadata" : document.baseName
        return (nil, [PaletteProblem(.unknownFormat, "this is Tokens Studio's \(name) document, which belongs to a folder of token sets: audit the folder that holds it", file: document.file)])
    }
}
