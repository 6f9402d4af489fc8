public import TokenSources

/// The usage sources of a `contrast init` run, read once: every path the operator named is walked
/// once through one ``FileSystem`` (the confined reader), each file is handed to every usage reader
/// whose ``UsageReader/reads(path:head:)`` says yes, and all of them share one ``UsageContext``
/// (the run's palettes, its memo). The walk is bounded: at most ``Limits/maximumFiles`` files are
/// looked at, a file over ``Limits/maximumFileBytes`` is not read, and reading stops after
/// ``Limits/maximumTotalBytes``; each limit reached is said in ``limits``, with the path.
public struct UsageScan: Sendable {
    /// A pair a reader found, and which reader.
    public struct Found: Sendable, Hashable {
        public var pair: UsagePair
        /// The reader's ``UsageReader/name``.
        public var reader: String

        public init(pair: UsagePair, reader: String) {
            self.pair = pair
            self.reader = reader
        }
    }

    /// How far the walk goes.
    public struct Limits: Sendable {
        /// The most files looked at over all paths.
        public var maximumFiles = 20_000
        /// The largest usage file read, in bytes.
        public var maximumFileBytes = 4 << 20
        /// The most bytes read over all usage files.
        public var maximumTotalBytes = 256 << 20

        public init(maximumFiles: Int = 20_000, maximumFileBytes: Int = 4 << 20, maximumTotalBytes: Int = 256 << 20) {
            self.maximumFiles = maximumFiles
            self.maximumFileBytes = maximumFileBytes
            self.maximumTotalBytes = maximumTotalBytes
        }
    }

    /// Every pair found, in walk order (paths in the order named, files sorted in each).
    public var pairs: [Found] = []
    /// Files looked at.
    public var files = 0
    /// Files at least one reader read, by reader name.
    public var filesRead: [String: Int] = [:]
    /// Colors the readers met and did not pair (their `notRead`), counted.
    public var notPaired = 0
    /// The first few of them, for the notes.
    public var notPairedSamples: [UsageEvidence] = []
    /// Each limit reached, as a sentence naming the path and the limit.
    public var limits: [String] = []
    /// Files and directories the file system refused (links out, FIFOs, loops), with why.
    public var refused: [SkippedFile] = []

    public init() {}

    /// Directories no usage source lives in: version control, dependencies, build output.
    static let skippedDirectories: Set<String> = [".git", ".hg", ".svn", "node_modules", ".build", "build", "DerivedData", "Pods", ".gradle"]

    /// How many of the colors not paired are kept as samples.
    static let maximumSamples = 5

    /// Reads `paths` (files or directories) with `readers`, naming tokens as `palettes` do.
    public static func scan(paths: [String], palettes: [Palette], fileSystem: FileSystem = .unconfined,
                            readers: [any UsageReader] = UsageReaders.all, limits: Limits = Limits()) -> UsageScan {
        var scan = UsageScan()
        guard !readers.isEmpty else { return scan }
        let context = UsageContext(palettes: palettes, fileSystem: fileSystem)
        var seen: Set<String> = []
        var bytesRead = 0
        walking: for path in paths {
            let files: [String]
            switch fileSystem.kind(of: path) {
            case .failure: continue  // the palettes' loading reports it
            case .success(.directory):
                let walked = fileSystem.walk(path, skip: { skippedDirectories.contains($0) })
                files = walked.files
                scan.refused += walked.refused
            case .success: files = [path]
            }
            for file in files where seen.insert(file).inserted {
                if scan.files >= limits.maximumFiles {
                    scan.limits.append("stopped looking for usage after \(limits.maximumFiles) files, at \(file.excerpt(240)): the rest of \(path.excerpt(240)) is not read; name the folders that hold your components")
                    break walking
                }
                scan.files += 1
                guard case .success(.file(let size)) = fileSystem.kind(of: file) else { continue }
                // The readers say from the path whether they read a file; the first bytes are
                // read only for those that need them, and only for files within the limits.
                let head: [UInt8]
                if size > limits.maximumFileBytes {
                    let wanted = readers.filter { $0.reads(path: file, head: []) }
                    if !wanted.isEmpty {
                        scan.limits.append("\(file.excerpt(240)) is \(size) bytes, over the \(limits.maximumFileBytes)-byte limit for a usage source: not read by \(wanted.map(\.name).joined(separator: ", "))")
                    }
                    continue
                }
                if bytesRead + size > limits.maximumTotalBytes {
                    scan.limits.append("stopped reading usage after \(bytesRead) bytes (the limit is \(limits.maximumTotalBytes)), at \(file.excerpt(240)): the rest is not read")
                    break walking
                }
                guard case .success(let bytes) = fileSystem.read(file) else { continue }
                bytesRead += bytes.count
                head = Array(bytes.prefix(512))
                for reader in readers where reader.reads(path: file, head: head[...]) {
                    let found = reader.read(file: file, bytes: bytes, context: context)
                    scan.filesRead[reader.name, default: 0] += 1
                    for pair in found.pairs { scan.pairs.append(Found(pair: pair, reader: reader.name)) }
                    scan.notPaired += found.notRead.count
                    for evidence in found.notRead where scan.notPairedSamples.count < maximumSamples { scan.notPairedSamples.append(evidence) }
                }
            }
        }
        return scan
    }
}
