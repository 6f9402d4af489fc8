/// This project's palette format: `{"themes": {…}}`, or `{"tokens": {…}}` with checks.
struct PaletteFileFormat: SourceFormat {
    let identity = FormatIdentity(id: "palette", displayName: "contrast palette", summary: "a contrast palette ({\"themes\": …})",
                                  suffixes: [".json"])

    static let topLevelKeys: Set<String> = ["name", "description", "source", "tokens", "checks", "badges", "badgeBordersCarryMeaning"]

    func detect(_ document: SourceDocument) -> Detection? {
        let shape = document.shape
        guard shape.isObject, !shape.keys.contains("$value"), let json = document.json else { return nil }
        if json["themes"]?.members != nil { return .certain }
        if json["tokens"]?.members != nil && shape.keys.isSubset(of: Self.topLevelKeys) { return .certain }
        return nil
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        var decoder = PaletteDecoder(limits: context.limits)
        decoder.file = document.file
        guard let json = document.json else { return (nil, []) }
        var palette = decoder.palette(from: json, defaultName: document.file.map(PaletteDecoder.baseName) ?? context.defaultName)
        palette?.ledger.merge(decoder.ledger)
        return (palette, decoder.problems)
    }
}
