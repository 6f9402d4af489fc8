public import Foundation
public import PaletteAudit
public import TokenSources
import Synchronization

/// The palettes the service holds, loaded from a directory and reloaded atomically.
///
/// A reload reads every file again; a file that no longer decodes cleanly keeps its previous
/// version (and the problem is reported by ``status``), so a bad edit never takes a palette away.
public final class PaletteStore: Sendable {
    public struct Entry: Sendable {
        public var palette: Palette
        /// The file's bytes, served as they are by `GET /v1/palettes/{name}`.
        public var document: [UInt8]
        public var file: String
        /// The audit of the palette as loaded.
        public var report: PaletteReport
    }

    public struct Status: Sendable {
        public var directory: String?
        public var names: [String]
        /// Problems of the last load: files that failed keep their previous version.
        public var problems: [PaletteProblem]
        public var loadedAt: Date?
        public var generation: Int
    }

    struct Snapshot: Sendable {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var problems: [PaletteProblem] = []
        var directory: String?
        var checks: String?
        var loadedAt: Date?
        var generation = 0
    }

    private let snapshot = Mutex(Snapshot())
    /// The limits every audit of a loaded palette runs under, as a posted one does: a file of
    /// the palettes directory with one `distinct: ["*"]` check over 1,414 tokens (a million
    /// pairs) took 45 s and 3.7 GB at start-up, and its report held /v1/report past its deadline.
    let auditLimits: Auditor.Limits

    public init(auditLimits: Auditor.Limits = Auditor.Limits(maximumChecks: 200_000, maximumSuggestions: 1_000)) {
        self.auditLimits = auditLimits
    }

    /// Holds the given palettes (for tests and embedding); no directory.
    public init(palettes: [(palette: Palette, document: [UInt8])]) {
        auditLimits = .unlimited
        var s = Snapshot()
        for (palette, document) in palettes {
            let entry = Entry(palette: palette, document: document, file: palette.file ?? palette.name, report: Auditor().audit(palette))
            s.entries[palette.name] = entry
            s.order.append(palette.name)
        }
        s.loadedAt = Date()
        s.generation = 1
        snapshot.withLock { $0 = s }
    }

    /// Loads (or reloads) every palette of `directory` (read as ``PaletteLoader`` reads a
    /// directory), with the checks of `checks` (or else of `directory/contrast.checks.json`)
    /// added to each. Returns the problems found;
    /// warnings are not among them.
    @discardableResult
    public func load(directory: String, checks: String? = nil) -> [PaletteProblem] {
        let previous = snapshot.withLock { $0 }
        var next = Snapshot()
        next.directory = directory
        next.checks = checks
        // A directory that is gone or unreadable keeps the palettes served until now.
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue
            || (try? FileManager.default.contentsOfDirectory(atPath: directory)) == nil {
            var kept = previous
            kept.directory = directory
            kept.checks = checks
            kept.problems = [PaletteProblem(.unreadableFile, "the palettes directory cannot be read (it is missing, not a directory, or not readable); the \(previous.order.count) palette(s) loaded before are still served")]
            kept.loadedAt = Date()
            kept.generation = previous.generation + 1
            snapshot.withLock { $0 = kept }
            return kept.problems
        }
        var byFile: [String: Entry] = [:]
        for entry in previous.entries.values { byFile[entry.file] = entry }
        let loader = PaletteLoader(reader: PaletteLoader.confined(to: directory))
        // Without --checks, the directory's contrast.checks.json, as `contrast audit DIR` uses it.
        let result = loader.loadSources(paths: [directory], checks: checks ?? loader.checksFile(beside: directory))
        next.problems += result.refused
        for loaded in result.palettes {
            // The reader's warnings go to the audit, which keeps them apart from its problems:
            // what the reader could not fully apply shows in the served audit, as in the CLI's.
            var problems = loaded.problems.filter { !$0.isWarning }
            var report: PaletteReport?
            if let palette = loaded.palette {
                let audited = Auditor(limits: auditLimits).audit(palette, problems: loaded.problems)
                problems = audited.problems
                report = audited
            }
            if let palette = loaded.palette, let report, problems.isEmpty {
                if next.entries[palette.name] != nil {
                    next.problems.append(PaletteProblem(.duplicateName, "another file already defines a palette named \"\(palette.name)\"; this one is not served", file: loaded.file))
                    continue
                }
                // What was read and audited is what is served: the file is not read again. The
                // report names files relative to the directory, as /readyz does.
                next.entries[palette.name] = Entry(palette: palette, document: loaded.document ?? [], file: loaded.file,
                                                   report: PaletteStore.relative(report, to: directory))
                next.order.append(palette.name)
            } else {
                next.problems += problems
                if let kept = byFile[loaded.file], next.entries[kept.palette.name] == nil {
                    next.entries[kept.palette.name] = kept
                    next.order.append(kept.palette.name)
                }
            }
        }
        next.loadedAt = Date()
        next.generation = previous.generation + 1
        next.problems = next.problems.map { PaletteStore.relative($0, to: directory) }
        let problems = next.problems
        snapshot.withLock { $0 = next }
        return problems
    }

    /// A problem as `/readyz` and the log show it: paths relative to the palettes directory, so
    /// the answer does not reveal where the service runs.
    static func relative(_ problem: PaletteProblem, to directory: String) -> PaletteProblem {
        var p = problem
        let prefixes = [directory, URL(fileURLWithPath: directory).standardizedFileURL.path, URL(fileURLWithPath: directory).resolvingSymlinksInPath().path]
            .map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        for prefix in prefixes {
            if let file = p.file, file.hasPrefix(prefix) { p.file = String(file.dropFirst(prefix.count)) }
            p.message = p.message.replacing(prefix, with: "")
        }
        return p
    }

    /// A report as the API shows it: its file, files, problems and warnings named relative to
    /// the palettes directory.
    static func relative(_ report: PaletteReport, to directory: String) -> PaletteReport {
        var r = report
        let root = directory.hasSuffix("/") ? directory : directory + "/"
        let resolved = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/"
        func strip(_ file: String) -> String {
            for prefix in [root, resolved] where file.hasPrefix(prefix) { return String(file.dropFirst(prefix.count)) }
            return file
        }
        r.file = r.file.map(strip)
        r.files = r.files?.map(strip)
        r.problems = r.problems.map { relative($0, to: directory) }
        r.warnings = r.warnings?.map { relative($0, to: directory) }
        for t in r.themes.indices {
            for i in r.themes[t].results.indices {
                r.themes[t].results[i].foreground.file = r.themes[t].results[i].foreground.file.map(strip)
                r.themes[t].results[i].background.file = r.themes[t].results[i].background.file.map(strip)
            }
        }
        return r
    }

    /// Reloads the directory last loaded.
    @discardableResult
    public func reload() -> [PaletteProblem] {
        guard let (directory, checks) = snapshot.withLock({ s in s.directory.map { ($0, s.checks) } }) else { return [] }
        return load(directory: directory, checks: checks)
    }

    public func entry(named name: String) -> Entry? {
        snapshot.withLock { $0.entries[name] }
    }

    public var entries: [Entry] {
        snapshot.withLock { s in s.order.compactMap { s.entries[$0] } }
    }

    public var status: Status {
        snapshot.withLock { Status(directory: $0.directory, names: $0.order, problems: $0.problems, loadedAt: $0.loadedAt, generation: $0.generation) }
    }
}
