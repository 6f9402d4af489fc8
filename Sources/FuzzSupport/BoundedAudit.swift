import Foundation
import PaletteAudit
import TokenSources

/// What the structure-aware targets (fuzz-stylesheet, fuzz-tokens) do with the document they
/// made: read and audit it as the CLI and the service do, and fail (a precondition, which
/// libFuzzer reports as a crash and saves) when what is built is not bounded by what was read
/// (issue #46):
/// - every rendering (the audit's JSON, indented and compact, its text, the token listing's
///   JSON) is at most ``ratio`` times the input's bytes, or ``floorPerResult`` bytes for each
///   result it holds (a check measured or left unresolved in a theme, an entry of the listing;
///   ``indentedFloorPerResult`` in the indented JSON), whichever is more;
/// - a read the budget stopped yields no palette (what it read is incomplete, never measured),
///   and a read it did not stop built no more than the budget allows;
/// - in a fuzzing build, the heap the request holds at its largest (AddressSanitizer's count of
///   live bytes) stays within the request's memory budget, with room for the input.
public enum BoundedAudit {
    /// The most bytes a rendering may hold for each byte read.
    public static let ratio = 64
    /// The bytes a rendering may hold for each result, however small the input.
    public static let floorPerResult = 2 << 10
    /// The same for the indented JSON (`contrast audit --format json`): the same document with
    /// each line indented to its depth. Found by this target (fuzz/crashes/stylesheet-crash-fcd859…):
    /// a failing result with its suggestions, fixes and color-vision figures is 1.7 KB compact
    /// and 3.3 KB indented, with no user text in it longer than a token name.
    public static let indentedFloorPerResult = 4 << 10
    /// The memory budget of the service-like read (`--max-request-memory`).
    public static let requestBytes = 32 << 20

    /// A set of files: `entry` is the one named (a file, or a folder of them), the others are
    /// what it names (imports, sets, sources) or its checks sidecar.
    public struct Files {
        public var files: [(path: String, bytes: [UInt8])] = []
        public var entry: String
        public init(entry: String) { self.entry = entry }
        public mutating func add(_ path: String, _ text: String) { files.append((path, Array(text.utf8))) }
        public var inputBytes: Int { files.reduce(0) { $0 + $1.bytes.count } }
        public func bytes(of path: String) -> [UInt8]? { files.first { $0.path == path }?.bytes }
    }

    /// Reads `files` as `contrast audit ENTRY` does, audits every palette and renders the report
    /// in JSON and text; then posts the entry file (when it is one) as the service's
    /// `/v1/tokens` does (`mediaType` for a stylesheet), audits it and lists its tokens.
    public static func run(_ files: Files, mediaType: String? = nil) {
        let input = max(1, files.inputBytes)
        let directory = scratch.write(files)
        cli(path: directory + "/" + files.entry, input: input)
        if let posted = files.bytes(of: files.entry) { service(posted, mediaType: mediaType, input: input) }
    }

    static func cli(path: String, input: Int) {
        let loader = PaletteLoader()
        let heap = Heap()
        let loaded = loader.loadSources(paths: [path], checks: loader.checksFile(beside: path))
        heap.sample()
        let auditor = Auditor(limits: Auditor.Limits(maximumChecks: AuditRun.defaultMaximumChecks, maximumSuggestions: 8))
        let reports = loaded.palettes.map { loaded in
            loaded.palette.map { auditor.audit($0, problems: loaded.problems) }
                ?? Auditor.unreadable(name: loaded.file, file: loaded.file, problems: loaded.problems)
        }
        let report = AuditReport(palettes: reports, skipped: loaded.skipped)
        heap.sample()
        let results = report.palettes.reduce(0) { $0 + $1.themes.reduce(0) { $0 + $1.results.count + ($1.unresolved?.count ?? 0) } }
        for palette in report.palettes {
            for theme in palette.themes {
                for result in theme.results { precondition(result.ratio >= 1 && result.ratio <= 21.000001, "ratio \(result.ratio)") }
            }
        }
        var pretty = 0
        report.writePrettyJSON { pretty += $0.count }
        bound(pretty, "the audit's indented JSON", input: input, results: results, perResult: indentedFloorPerResult)
        bound(report.compactJSON().count, "the audit's compact JSON", input: input, results: results)
        bound(TextRenderer(color: false).render(report).utf8.count, "the audit's text", input: input, results: results)
        heap.sample()
        heap.bound(input: input, what: "contrast audit")
    }

    static func service(_ body: [UInt8], mediaType: String?, input: Int) {
        let budget = ReadBudget(inputBytes: body.count, maximumBytes: requestBytes)
        let heap = Heap()
        ReadBudget.withBudget(budget) {
            let (palette, problems) = PaletteDecoder.decode(bytes: body, mediaType: mediaType ?? "application/json", defaultName: "posted")
            heap.sample()
            if budget.problem != nil {
                precondition(palette == nil, "the read was stopped (\(budget.problem?.message ?? "")) and still gave a palette")
            }
            guard let palette else {
                precondition(!problems.isEmpty, "no palette and no problem")
                return
            }
            let audited = Auditor(limits: Auditor.Limits(maximumChecks: AuditRun.defaultMaximumChecks, maximumSuggestions: 0)).audit(palette, problems: problems)
            heap.sample()
            if budget.problem != nil { return }  // refused (422), as the route does
            let listing = TokenListing(palette, problems: audited.problems, warnings: audited.warnings ?? [], ledger: audited.ledger)
            heap.sample()
            if listing.stopped != nil { return }  // refused before it is built
            let entries = listing.themes.reduce(0) { $0 + $1.tokens.count + $1.inherited.count }
            let results = audited.themes.reduce(0) { $0 + $1.results.count + ($1.unresolved?.count ?? 0) }
            bound(listing.compactJSON().count, "the token listing's JSON", input: input, results: entries + results)
            bound(AuditReport(palettes: [audited]).compactJSON().count, "the posted audit's JSON", input: input, results: results)
            heap.sample()
        }
        if budget.problem == nil {
            precondition(budget.builtBytes <= budget.maximumRequestBytes,
                         "the request built \(budget.builtBytes) bytes, past its budget of \(budget.maximumRequestBytes), and was not stopped")
        }
        heap.bound(input: input, what: "the service's read, audit and listing")
    }

    /// Fails when a rendering of `bytes` passes the bound for `input` bytes and `results`.
    static func bound(_ bytes: Int, _ what: String, input: Int, results: Int, perResult: Int = floorPerResult) {
        let limit = max(ratio * input, perResult * max(1, results))
        precondition(bytes <= limit, "\(what) is \(bytes) bytes for \(input) bytes of input and \(results) results: past \(ratio)× the input (or \(perResult) bytes a result), \(limit) bytes")
    }

    /// The live heap at its largest over a request, against the request's budget (only in a
    /// fuzzing build, where AddressSanitizer counts the heap).
    final class Heap {
        let start = Heap.live()
        var largest = 0

        func sample() { largest = max(largest, Heap.live() - start) }

        func bound(input: Int, what: String) {
            let limit = 2 * BoundedAudit.requestBytes + 2 * ReadBudget.bytesPerInputByte * input
            precondition(largest <= limit, "\(what) held \(largest) bytes of heap for \(input) bytes of input, past \(limit)")
        }

        static func live() -> Int {
            #if FUZZING
            return Int(sanitizerAllocatedBytes())
            #else
            return 0
            #endif
        }
    }

    /// Where the files of each input are written: a folder of this process's, emptied before
    /// each input.
    static let scratch = Scratch()

    final class Scratch: @unchecked Sendable {
        let root: String
        init() {
            let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
            // The same length in every process: the paths problems name are the same size on every
            // run, so a fixed seed takes the same course.
            let pid = String(getpid())
            root = base + "/contrast-fuzz-" + String(repeating: "0", count: max(0, 10 - pid.count)) + pid
            // CONTRAST_FUZZ_KEEP=1 keeps the last input's files, to look at what it made.
            if ProcessInfo.processInfo.environment["CONTRAST_FUZZ_KEEP"] == nil {
                atexit { try? FileManager.default.removeItem(atPath: BoundedAudit.scratch.root) }
            } else {
                FileHandle.standardError.write(Data("the files of each input are written to \(root)/in\n".utf8))
            }
        }

        /// Writes `files` into a fresh folder; its path.
        func write(_ files: Files) -> String {
            let directory = root + "/in"
            try? FileManager.default.removeItem(atPath: directory)
            for (path, bytes) in files.files {
                let full = directory + "/" + path
                try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: full, contents: Data(bytes))
            }
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return directory
        }
    }
}

#if FUZZING
@_silgen_name("__sanitizer_get_current_allocated_bytes")
private func sanitizerAllocatedBytes() -> Int
#endif
