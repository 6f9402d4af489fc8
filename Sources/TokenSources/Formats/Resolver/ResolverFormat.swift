/// A DTCG Resolver Module 2025.10 document: `sets`, `modifiers` and a `resolutionOrder`; each
/// combination of modifier contexts is a theme (see `Formats/ResolverDocument.swift`).
struct ResolverFormat: SourceFormat {
    let identity = FormatIdentity(id: "dtcg-resolver", displayName: "DTCG resolver 2025.10", summary: "a DTCG resolver (resolutionOrder)",
                                  suffixes: [".resolver.json"], role: .set)

    func detect(_ document: SourceDocument) -> Detection? {
        let keys = document.shape.keys
        if keys.contains("resolutionOrder") { return .certain }
        if document.baseName.hasSuffix(".resolver.json") && (keys.contains("sets") || keys.contains("modifiers")) { return .certain }
        return nil
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        var decoder = PaletteDecoder(limits: context.limits)
        decoder.file = document.file
        guard let json = document.json else { return (nil, []) }
        var palette = decoder.resolverPalette(json, name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName, reader: context.reader)
        palette?.ledger.merge(decoder.ledger)
        return (palette, decoder.problems)
    }
}
