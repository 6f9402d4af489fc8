/// A checks document (`{"checks": […], "badges": […]}`): the checks of a token source, given
/// with `--checks` or as `NAME.checks.json` beside it; not a palette on its own.
struct ChecksDocumentFormat: SourceFormat {
    let identity = FormatIdentity(id: "checks", displayName: "checks document", summary: "a checks document ({\"checks\": …}), beside a token source",
                                  suffixes: [".checks.json"], role: .companion("a checks document (give it with --checks, or name it NAME.checks.json beside NAME.tokens.json)"))

    /// The members a checks document holds: what its reader reads (``PaletteDecoder``), and so
    /// what detection accepts. Members beginning `$` or `x-` are passed over by both.
    static let members = ["checks", "badges", "themeNames", "ignoreProperties"]

    func detect(_ document: SourceDocument) -> Detection? {
        let own = document.shape.keys.filter { !$0.hasPrefix("$") && !$0.hasPrefix("x-") }
        return (own.contains("checks") || own.contains("badges")) && own.isSubset(of: Self.members) ? .certain : nil
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        (nil, [PaletteProblem(.unknownFormat, "this is a checks document, not a palette: give it with --checks, or name it NAME.checks.json beside NAME.tokens.json", file: document.file)])
    }
}
