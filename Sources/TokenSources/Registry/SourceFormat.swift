/// One input a source format is asked about: a file's bytes (or a posted body), with the JSON
/// they parse to when they are JSON. What the formats' detection looks for in its tree is
/// gathered in one walk of the document (``DocumentShape``), not once per format.
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
    /// What the format's detection looks for anywhere in a document's tree (none by default).
    var markers: [DocumentMarker] { get }
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
    public var markers: [DocumentMarker] { [] }
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

/// Something a format looks for anywhere in a JSON document (a member named `$value`, a
/// string that could be a color), declared by the format that detects by it
/// (``SourceFormat/markers``). The registry gathers every format's markers, and one walk of a
/// document records which were met (``DocumentShape``): each format states its own facts, and
/// the document is still walked once, not once per format.
public struct DocumentMarker: Sendable {
    /// The marker's name, which ``DocumentShape/saw(_:)`` takes.
    public let name: String
    let kind: Kind

    enum Kind: Sendable {
        /// A member with this key whose value and siblings pass the test.
        case member(key: String, test: @Sendable (_ value: JSONValue, _ siblings: [JSONMember]) -> Bool)
        /// A string value that passes the test.
        case string(@Sendable (String) -> Bool)
    }

    /// A member named `key` anywhere in the tree (`when`: a further condition on its value and
    /// the members beside it).
    public static func member(_ key: String, named name: String? = nil,
                              when test: @escaping @Sendable (_ value: JSONValue, _ siblings: [JSONMember]) -> Bool = { _, _ in true }) -> DocumentMarker {
        DocumentMarker(name: name ?? key, kind: .member(key: key, test: test))
    }

    /// A string value anywhere in the tree that passes `test`.
    public static func string(named name: String, _ test: @escaping @Sendable (String) -> Bool) -> DocumentMarker {
        DocumentMarker(name: name, kind: .string(test))
    }
}

/// What a JSON document looks like at its top level, and which of the registry's markers
/// (``DocumentMarker``) its tree holds: gathered in one walk, for detection.
public struct DocumentShape: Sendable {
    /// The file's own name.
    public var baseName = ""
    public var isArray = false
    public var isObject = false
    /// The top-level keys of an object.
    public var keys: Set<String> = []
    /// The names of the markers met in the tree (its first 200,000 nodes; objects are walked
    /// into, arrays are not: no format's marker lives in one).
    public private(set) var seen: Set<String> = []

    init() {}

    init(_ document: JSONValue, path: String?, markers: [DocumentMarker] = SourceRegistry.markers) {
        baseName = path.map { String($0.split(separator: "/").last ?? "") } ?? ""
        if case .array = document { isArray = true }
        if let members = document.members {
            isObject = true
            keys = Set(members.map(\.key))
        }
        var memberMarkers: [(key: String, name: String, test: @Sendable (JSONValue, [JSONMember]) -> Bool)] = []
        var stringMarkers: [(name: String, test: @Sendable (String) -> Bool)] = []
        for marker in markers {
            switch marker.kind {
            case .member(let key, let test): memberMarkers.append((key, marker.name, test))
            case .string(let test): stringMarkers.append((marker.name, test))
            }
        }
        var stack = [document]
        var visited = 0
        while let next = stack.popLast(), visited < 200_000 {
            visited += 1
            switch next {
            case .object(let inner, _):
                for member in inner {
                    for marker in memberMarkers where marker.key == member.key && !seen.contains(marker.name) && marker.test(member.value, inner) {
                        seen.insert(marker.name)
                    }
                    stack.append(member.value)
                }
            case .string(let text, _):
                for marker in stringMarkers where !seen.contains(marker.name) && marker.test(text) {
                    seen.insert(marker.name)
                }
            default: break
            }
        }
    }

    /// Whether the tree holds the marker named `name`.
    public func saw(_ name: String) -> Bool { seen.contains(name) }
}
