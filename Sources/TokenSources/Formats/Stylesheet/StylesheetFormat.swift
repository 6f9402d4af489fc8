/// A stylesheet's custom properties, read the way a browser resolves them for the root element
/// (see `Formats/Stylesheet.swift`).
struct StylesheetFormat: SourceFormat {
    let identity = FormatIdentity(id: "css", displayName: "CSS custom properties", summary: "a stylesheet's custom properties (.css, text/css)",
                                  suffixes: [".css"], mediaTypes: ["text/css"], isText: true)

    func detect(_ document: SourceDocument) -> Detection? { nil }  // chosen by its suffix or media type

    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        // `@import`s are read through the context's reader, inside the directory the read
        // started from (or the stylesheet's own); a posted body has no file, and imports none.
        let imports = document.file.map { file in
            ImportSource(reader: context.reader, root: context.importRoot.map(FileSystem.trimmed) ?? SourcePath.folder(of: file))
        }
        return PaletteDecoder.budgeted(inputBytes: document.bytes.count) {
            PaletteDecoder.decodeStylesheetWithinBudget(bytes: document.bytes, file: document.file,
                                                        name: document.file.map(PaletteDecoder.baseName) ?? context.defaultName,
                                                        limits: context.limits, imports: imports)
        }
    }
}

extension PaletteDecoder {
    /// Decodes a posted stylesheet that is to replace `file`, a stylesheet the service reads from
    /// `directory` (a proposal): read as that file, so its `@import`s resolve beside it as the
    /// served file's do, through a file system confined to `directory` (an import that leads
    /// out of it is not read, and says so). A stylesheet posted on its own has no directory:
    /// ``decode(bytes:mediaType:defaultName:limits:)`` lists its imports as not read.
    public static func decodeStylesheet(bytes: [UInt8], replacing file: String, in directory: String, name: String,
                                        limits: Limits = Limits()) -> (palette: Palette?, problems: [PaletteProblem]) {
        let root = FileSystem.trimmed(directory)
        let imports = ImportSource(reader: PaletteLoader.confined(to: root), root: root)
        return budgeted(inputBytes: bytes.count) {
            decodeStylesheetWithinBudget(bytes: bytes, file: file, name: name, limits: limits, imports: imports)
        }
    }
}
