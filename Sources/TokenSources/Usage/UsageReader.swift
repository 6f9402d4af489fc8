/// A reader of one kind of usage source: the files where a UI puts one color on another
/// (component stylesheets, markup with utility classes, Android layouts and styles, Swift views).
/// `contrast init PATH…` walks its paths once, hands each file to every reader that reads it,
/// and proposes checks from the pairs before it guesses from names.
///
/// A reader is linear in its file: it never expands what it quotes, and quotes user text short
/// (``String/excerpt(_:)``).
public protocol UsageReader: Sendable {
    /// What it reads, in messages and the proposal's notes (`stylesheet rules`, `Android layouts`).
    var name: String { get }
    /// Whether the file at `path` (its name and first bytes) is one it reads.
    func reads(path: String, head: ArraySlice<UInt8>) -> Bool
    /// The pairs `file` draws, named as the palettes in `context` name their tokens, and what of
    /// it was not read (each with its file:line and reason: nothing is passed over silently).
    func read(file: String, bytes: [UInt8], context: UsageContext) -> UsageRead
}

/// What a usage reader knows beside its file: the palettes read from the same paths, so that it
/// can name tokens as they do (`var(--fgColor-default)` → `fgColor-default`, `?attr/colorOnSurface`
/// through the app theme, `Color("Label/primary")` → the catalog's color set).
public struct UsageContext: Sendable {
    public var palettes: [Palette]
    public var fileSystem: FileSystem
    /// What readers work out once for the run from its palettes and files (the token index,
    /// Android's styles across modules), shared by every copy of this context: a reader asked
    /// about each file does not work it out again for each, so a run's work stays linear.
    public let memo = UsageMemo()

    public init(palettes: [Palette], fileSystem: FileSystem) {
        self.palettes = palettes
        self.fileSystem = fileSystem
    }
}

/// What a usage reader found in one file.
public struct UsageRead: Sendable {
    public var pairs: [UsagePair] = []
    /// Colors it met and could not pair, each with where and why (`what` says why).
    public var notRead: [UsageEvidence] = []

    public init(pairs: [UsagePair] = [], notRead: [UsageEvidence] = []) {
        self.pairs = pairs
        self.notRead = notRead
    }
}

/// The usage readers `contrast init` knows, in the order it asks them.
public enum UsageReaders {
    public static let all: [any UsageReader] = [
        StylesheetUsageReader(),
        MarkupUsageReader(),
        AndroidUsageReader(),
        SwiftUsageReader(),
        CatalogLabelConventions(),
    ]
}
