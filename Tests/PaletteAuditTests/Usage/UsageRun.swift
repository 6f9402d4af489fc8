import Foundation
@testable import PaletteAudit
@testable import TokenSources

/// Runs usage readers over a folder the way `contrast init` will: the palettes the loader reads
/// there form the context, and every file a reader reads is handed to it once.
enum UsageRun {
    struct Result {
        var pairs: [UsagePair] = []
        var notRead: [UsageEvidence] = []
        var files = 0
        var context: UsageContext
    }

    /// Where `../shared/NAME` is from this file, or nil when it is absent.
    static func shared(_ name: String) -> String? {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../shared/\(name)").standardizedFileURL.path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The palettes of `paths` and every file below `root` that `reader` reads, read by it.
    /// With `budget`, the readers (not the palettes' loading) read under it.
    static func read(_ root: String, with reader: any UsageReader, palettes paths: [String]? = nil, budget: ReadBudget? = nil) -> Result {
        let loaded = PaletteLoader.loadSources(paths: paths ?? [root]).palettes.compactMap(\.palette)
        let context = UsageContext(palettes: loaded, fileSystem: .unconfined)
        var result = Result(context: context)
        let (files, _) = FileSystem.unconfined.walk(root)
        for file in files.sorted() {
            guard case .success(let bytes) = FileSystem.unconfined.read(file), reader.reads(path: file, head: bytes.prefix(512)) else { continue }
            let read = budget.map { b in ReadBudget.withBudget(b) { reader.read(file: file, bytes: bytes, context: context) } }
                ?? reader.read(file: file, bytes: bytes, context: context)
            result.files += 1
            result.pairs += read.pairs
            result.notRead += read.notRead
        }
        return result
    }

    /// A folder of files written from `files` (path → text), for inline fixtures.
    static func write(_ files: [String: String], prefix: String) throws -> String {
        let root = Scratch.directory(prefix)
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root.path
    }
}
