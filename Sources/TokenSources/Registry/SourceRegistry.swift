/// Every format this tool reads, in the order they are asked: the first format certain of a
/// document reads it, else the first that finds it likely. Adding a format is one folder under
/// `Formats/` (its entry, its detection and its reader) and one line here; the CLI's loader and directory walk, the service's palette store,
/// posted bodies and the designers' page (`GET /v1/formats`) all read through this list.
public enum SourceRegistry {
    public static let formats: [any SourceFormat] = [
        TokensStudioCompanionFormat(),
        TokensStudioFormat(),
        ResolverFormat(),
        FigmaVariablesFormat(),
        FigmaPluginExportFormat(),
        FigmaExportFormat(),
        MaterialThemeFormat(),
        SpectrumTokensFormat(),
        PaletteFileFormat(),
        ChecksDocumentFormat(),
        TokenFileFormat.dtcg,
        TokenFileFormat.styleDictionary,
        TokenFileFormat.plain,
        StylesheetFormat(),
        AssetCatalogFormat(),
        AndroidResourcesFormat(),
    ]

    /// Every format's markers, once each by name: what the one walk of a document looks for.
    static let markers: [DocumentMarker] = {
        var names = Set<String>()
        return formats.flatMap(\.markers).filter { names.insert($0.name).inserted }
    }()

    /// The formats read from folders, in the order a directory walk gives them their files.
    static let folderFormats: [any FolderSourceFormat] = {
        let folders = formats.compactMap { $0 as? any FolderSourceFormat }
        // Named folders (a catalog, res/) before folders found by a file inside them.
        return folders.filter { !($0 is TokensStudioFormat) } + folders.filter { $0 is TokensStudioFormat }
    }()

    /// The format of a parsed JSON document, or nil when none reads it.
    public static func detect(_ document: SourceDocument) -> (any SourceFormat)? {
        var likely: (any SourceFormat)?
        for format in formats where !format.isText {
            switch format.detect(document) {
            case .certain?: return format
            case .likely? where likely == nil: likely = format
            default: break
            }
        }
        return likely
    }

    /// The text format (read without parsing JSON) that a file's name or a body's media type
    /// names, if any.
    public static func textFormat(file: String?, mediaType: String? = nil) -> (any SourceFormat)? {
        let lowered = file?.lowercased()
        return formats.first { format in
            format.isText && ((lowered.map { name in format.suffixes.contains { name.hasSuffix($0) } } ?? false)
                || (mediaType.map { format.mediaTypes.contains($0) } ?? false))
        }
    }

    /// The folder format a path named on its own is, if any.
    static func folderFormat(of path: String, fileSystem: FileSystem) -> (any FolderSourceFormat)? {
        folderFormats.first { $0.claims(folder: path, fileSystem: fileSystem) }
    }

    /// The endings of the files a directory walk reads (the others are passed over).
    public static let fileSuffixes: [String] = {
        let all = Set(formats.filter { !($0 is any FolderSourceFormat) }.flatMap(\.suffixes))
        // `.tokens.json` is already read as `.json`.
        return all.filter { suffix in !all.contains { $0 != suffix && suffix.hasSuffix($0) } }.sorted()
    }()

    /// Every file ending a format names, longest first (`.tokens.json` before `.json`): what a
    /// file's name is without its format's ending (``stem(of:)``).
    static let fileEndings: [String] = {
        let all = Set(formats.filter { !($0 is any FolderSourceFormat) }.flatMap(\.suffixes))
        return all.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }()

    /// A file's path without the ending its format names (`tokens/light.tokens.json` is
    /// `tokens/light`), or the path itself when no format names its ending. A source's palette
    /// takes its name from it, and `NAME.checks.json` beside it is found by it.
    static func stem(of path: String) -> String {
        for ending in fileEndings where path.hasSuffix(ending) && ending != ".checks.json" {
            return String(path.dropLast(ending.count))
        }
        return path
    }

    /// What is accepted, for the message about a document no format reads.
    static var accepted: String {
        formats.filter { if case .companion = $0.role { return false } else { return true } }.map(\.summary).joined(separator: ", ")
    }

    /// A short description of what a document looked like, for "unknown format" messages.
    static func describe(_ document: JSONValue) -> String {
        switch document {
        case .object(let members, _):
            let keys = members.prefix(5).map { "\"\($0.key)\"" }.joined(separator: ", ")
            return members.isEmpty ? "an empty object" : "an object with keys \(keys)\(members.count > 5 ? ", …" : "") and no color values"
        default:
            return document.typeName
        }
    }
}
