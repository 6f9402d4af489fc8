/// A checks document (`{"checks": […], "badges": […]}`): the checks of a token source, given
/// with `--checks` or as `NAME.checks.json` beside it; not a palette on its own.
struct ChecksDocumentFormat: SourceFormat {
    let identity = FormatIdentity(id: "checks", displayName: "checks document", summary: "a checks document ({\"checks\": …}), beside a token source",
                                  suffixes: [".checks.json"], role: .companion("a checks document (give it with --checks, or name it NAME.checks.json beside NAME.tokens.json)"))

    func detect(_ document: SourceDocument) -> Detection? {
        let keys = document.shape.keys
        return keys.contains("checks") && keys.isSubset(of: ["checks", "badges", "$schema"]) ? .certain : nil
    }

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        (nil, [PaletteProblem(.unknownFormat, "this is a checks document, not a palette: give it with --checks, or name it NAME.checks.json beside NAME.tokens.json", file: document.file)])
    }
}
