/// Token files of the three kinds that share one reader, told apart by how a token's value is
/// written: DTCG's `$value`, Style Dictionary's `value`, or plain names mapped to colors. In a
/// directory they are merged into one palette (``SourceRole/tokens``).
struct TokenFileFormat: SourceFormat {
    let identity: FormatIdentity
    /// How a token object is written in files of this kind.
    let syntax: TokenDialect
    /// What marks a file of this kind anywhere in its tree.
    let marker: DocumentMarker

    init(id: String, displayName: String, summary: String, syntax: TokenDialect, marker: DocumentMarker) {
        identity = FormatIdentity(id: id, displayName: displayName, summary: summary,
                                  suffixes: [".tokens.json", ".tokens.json5", ".tokens", ".json5", ".json"], role: .tokens)
        self.syntax = syntax
        self.marker = marker
    }

    /// A DTCG token's `$value`.
    static let dollarValue = DocumentMarker.member("$value")
    /// A Style Dictionary token's `value`: beside `type`, `comment` or `original`, or holding a
    /// string.
    static let value = DocumentMarker.member("value") { value, siblings in
        value.stringValue != nil || siblings.contains { $0.key == "type" || $0.key == "comment" || $0.key == "original" }
    }
    /// A string that could be a color, as a plain map of names holds.
    static let colorString = DocumentMarker.string(named: "color string") { PaletteDecoder.couldBeColor($0) }

    static let dtcg = TokenFileFormat(id: "dtcg", displayName: "DTCG tokens", summary: "DTCG tokens ($value)", syntax: .dtcg, marker: dollarValue)
    static let styleDictionary = TokenFileFormat(id: "style-dictionary", displayName: "Style Dictionary", summary: "Style Dictionary (value)", syntax: .styleDictionary, marker: value)
    static let plain = TokenFileFormat(id: "plain", displayName: "plain tokens (name → color)", summary: "a flat map of names to colors", syntax: .styleDictionary, marker: colorString)

    var markers: [DocumentMarker] { [marker] }

    func detect(_ document: SourceDocument) -> Detection? {
        document.shape.isObject && document.shape.saw(marker.name) ? .likely : nil
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        guard let json = document.json else { return (nil, []) }
        var decoder = PaletteDecoder(limits: context.limits)
        decoder.file = document.file
        let file = document.file ?? "tokens.json"
        var cache: [String: JSONValue?] = [file: json]
        let resolved = decoder.resolveReferences(json, file: file, pointer: JSONPointer(), reader: context.reader, cache: &cache, setFiles: [])
        decoder.dialect = syntax
        let tokens = decoder.flatten(TokenSource(file: file, root: resolved, pointer: JSONPointer()), dialect: syntax)
        let finished = decoder.finishTokens(tokens.map { token in
            var t = token
            if document.file == nil { t.file = nil }
            return t
        })
        var palette = Palette(name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName ?? "tokens", file: document.file,
                              themes: [Theme(name: "default", tokens: finished, pointer: JSONPointer())])
        palette.format = displayName
        palette.ledger.merge(decoder.ledger)
        return (palette, decoder.problems)
    }
}
