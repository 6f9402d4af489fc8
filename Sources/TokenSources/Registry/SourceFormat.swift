/// One input a source format is asked about: a file's bytes (or a posted body), with the JSON
/// they parse to when they are JSON. The facts every JSON format's detection uses are gathered
/// in one walk of the document (``DocumentShape``), not once per format.
public struct SourceDocument {
    /// The file, or nil for a posted body.
    public var file: String?
    public var bytes: [UInt8]
    /// The parsed document, for JSON and JSON5 input.
    public var json: JSONValue?
    /// What the JSON looks like, for detection.
    public let shape: DocumentShape

    public init(file: String?, bytes: [UInt8], json: JSONValue?) {
        self.file = file
        self.bytes = bytes
        self.json = json
        self.shape = json.map { DocumentShape($0, path: file) } ?? DocumentShape()
    }

    /// The file's own name, without its folders.
    public var baseName: String { file.map { String($0.split(separator: "/").last ?? "") } ?? "" }
}

/// What the caller gives a format to read with: the file system beside the document, the name
/// a palette takes when it names none, and the decoder's limits.
public struct SourceContext: Sendable {
    public var reader: DocumentReader
    public var defaultName: String?
    public var limits: PaletteDecoder.Limits
    /// The directory the read started from (the one named, when a walk found the document):
    /// a stylesheet's `@import`s are followed only inside it. Nil: the document's own directory.
    public var importRoot: String?

    public init(reader: DocumentReader = .none, defaultName: String? = nil, limits: PaletteDecoder.Limits = PaletteDecoder.Limits(),
                importRoot: String? = nil) {
        self.reader = reader
        self.defaultName = defaultName
        self.limits = limits
        self.importRoot = importRoot
    }
}

/// How sure a format is that a document is its own. A structural marker at the top level
/// (`resolutionOrder`, `$themes`) is certain; markers found deep in the tree (`$value`) are
/// likely. The registry takes the first certain format, else the first likely one.
public enum Detection: Int, Comparable, Sendable {
    case likely = 1
    case certain = 2
    public static func < (a: Detection, b: Detection) -> Bool { a.rawValue < b.rawValue }
}

/// What a document of a format is in a directory of sources.
public enum SourceRole: Sendable, Equatable {
    /// A palette on its own.
    case palette
    /// A token file: merged with the directory's other token files into one palette, unless a
    /// `NAME.checks.json` beside it makes it a palette of its own.
    case tokens
    /// A document that names other files (a resolver): it is one palette, and the files it
    /// names are not read again on their own.
    case set
    /// Part of another source (a checks document, Tokens Studio's `$themes.json`): passed over
    /// on its own, with this reason.
    case companion(String)
}

/// One format this tool reads. Each format is one type conforming to this protocol, in its own
/// folder under `Formats/` with its reader, and one line in ``SourceRegistry/formats``: every edge (the CLI's
/// loader and directory walk, the service's palette store, posted bodies, the designers' page)
/// reads through the registry.
public protocol SourceFormat: Sendable {
    /// What the format is called and where it is found.
    var identity: FormatIdentity { get }
    /// Whether the format reads a document (a file, a posted body); a folder format may not.
    var readsDocuments: Bool { get }
    /// Whether `document` is of this format, and how sure that is (nil: it is not).
    func detect(_ document: SourceDocument) -> Detection?
    /// Reads a document of this format into a palette, with its problems and warnings.
    func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem])
}

/// A format read from a folder (an asset catalog, an Android `res/`, a Tokens Studio folder).
public protocol FolderSourceFormat: SourceFormat {
    /// The folders of this format among the files a walk found below `directory`.
    func roots(among files: [String], fileSystem: FileSystem) -> [String]
    /// Whether `path`, a folder named on its own, is one of this format.
    func claims(folder path: String, fileSystem: FileSystem) -> Bool
    /// Reads one such folder (its `files`, as the walk found them).
    func read(folder: String, files: [String], loader: PaletteLoader) -> LoadedPalette
    /// Whether `file`, which the walk found, belongs to the folder `root` of this format.
    func owns(_ file: String, root: String) -> Bool
}

/// A token-file format whose files, merged in a folder, make themes of their own (Spectrum's
/// `sets`): the merge asks it to prepare each document and to make the themes of the tokens.
protocol MergedTokenFormat: SourceFormat {
    /// The document as the Style Dictionary reader takes it.
    func prepared(_ document: JSONValue) -> JSONValue
    /// The themes of the folder's merged tokens, and what the format line says of them.
    func themes(of tokens: [Token], decoder: inout PaletteDecoder) -> (themes: [Theme], note: String)
}

extension SourceFormat {
    /// A stable identifier, for APIs (`dtcg`, `css`).
    public var id: String { identity.id }
    /// The format's name as outputs show it (`DTCG tokens`).
    public var displayName: String { identity.displayName }
    /// What the format looks like, for the message that lists what is accepted.
    public var summary: String { identity.summary }
    /// File or folder name endings that name the format, most specific first.
    public var suffixes: [String] { identity.suffixes }
    /// Media types a posted body of the format is sent as.
    public var mediaTypes: [String] { identity.mediaTypes ?? (identity.isText ? [] : ["application/json"]) }
    /// Whether the format is text other than JSON (read without parsing JSON first).
    public var isText: Bool { identity.isText }
    /// What a document of this format is in a directory.
    public var role: SourceRole { identity.role }
    public var readsDocuments: Bool { true }
}

/// What a format is called and where it is found, in one value: each format states it once,
/// and every edge (the registry's detection, the directory walk, `GET /v1/formats`, the
/// designers' page) reads it from there.
public struct FormatIdentity: Sendable {
    /// A stable identifier, for APIs (`dtcg`, `css`).
    public var id: String
    /// The format's name as outputs show it (`DTCG tokens`).
    public var displayName: String
    /// What the format looks like, for the message that lists what is accepted.
    public var summary: String
    /// File or folder name endings that name the format, most specific first. A text format
    /// (``isText``) is chosen by these alone; for JSON formats they are only what a directory
    /// walk and the designers' page offer.
    public var suffixes: [String]
    /// Media types a posted body of the format is sent as; nil for the default (JSON's, or
    /// none for a text format).
    public var mediaTypes: [String]?
    /// Whether the format is text other than JSON (read without parsing JSON first).
    public var isText: Bool
    /// What a document of this format is in a directory.
    public var role: SourceRole

    public init(id: String, displayName: String, summary: String, suffixes: [String], mediaTypes: [String]? = nil, isText: Bool = false,
                role: SourceRole = .palette) {
        self.id = id
        self.displayName = displayName
        self.summary = summary
        self.suffixes = suffixes
        self.mediaTypes = mediaTypes
        self.isText = isText
        self.role = role
    }
}

extension FolderSourceFormat {
    public var readsDocuments: Bool { false }
    public func owns(_ file: String, root: String) -> Bool { file.hasPrefix(root + "/") }
    public func detect(_ document: SourceDocument) -> Detection? { nil }
    public func read(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        (nil, [PaletteProblem(.unknownFormat, "\(displayName) is read from a folder: audit the folder", file: document.file)])
    }
}

/// The facts about a JSON document that formats detect it by, gathered in one walk.
public struct DocumentShape: Sendable {
    /// The file's own name.
    public var baseName = ""
    public var isArray = false
    public var isObject = false
    /// The top-level keys of an object.
    public var keys: Set<String> = []
    /// An array holding objects with `selectedTokenSets` (Tokens Studio's `$themes`).
    public var hasSelectedTokenSets = false
    /// `$metadata.tokenSetOrder` at the top level.
    public var hasMetadataTokenSetOrder = false
    /// `themes` and `tokens` at the top level are objects.
    public var themesIsObject = false
    public var tokensIsObject = false
    /// Anywhere in the tree (the first 200,000 nodes): a `$value`; a `value` beside `type`,
    /// `comment` or `original`, or holding a string; a `studio.tokens` extension; a string that
    /// could be a color.
    public var sawDollarValue = false
    public var sawValue = false
    public var sawStudio = false
    public var sawColorString = false

    init() {}

    init(_ document: JSONValue, path: String?) {
        baseName = path.map { String($0.split(separator: "/").last ?? "") } ?? ""
        if case .array(let items, _) = document {
            isArray = true
            hasSelectedTokenSets = items.contains { $0["selectedTokenSets"] != nil }
            return
        }
        guard let members = document.members else { return }
        isObject = true
        keys = Set(members.map(\.key))
        hasMetadataTokenSetOrder = document["$metadata"]?["tokenSetOrder"] != nil
        themesIsObject = document["themes"]?.members != nil
        tokensIsObject = document["tokens"]?.members != nil
        var stack = [document]
        var visited = 0
        while let next = stack.popLast(), visited < 200_000 {
            visited += 1
            switch next {
            case .object(let inner, _):
                for member in inner {
                    switch member.key {
                    case "$value": sawDollarValue = true
                    case "value" where inner.contains(where: { $0.key == "type" || $0.key == "comment" || $0.key == "original" }) || member.value.stringValue != nil:
                        sawValue = true
                    case "studio.tokens": sawStudio = true
                    default: break
                    }
                    stack.append(member.value)
                }
            case .string(let text, _):
                if !sawColorString && PaletteDecoder.couldBeColor(text) { sawColorString = true }
            default: break
            }
        }
    }
}
