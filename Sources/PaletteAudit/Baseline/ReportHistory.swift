import Foundation
public import TokenSources

/// The runs of `contrast report --history`: a JSON Lines file, one ``HistoryEntry`` a line,
/// oldest first. Read it, compare an audit with the last run, and append the new run.
public struct ReportHistory: Sendable {
    /// The runs read, oldest first.
    public var entries: [HistoryEntry] = []
    /// Lines that are not entries, skipped: `history.jsonl:3: not a history entry, skipped (…)`.
    public var warnings: [String] = []
    /// The file as read (a new run is appended to these bytes).
    public private(set) var bytes: [UInt8] = []
    /// Where each entry's line begins and ends (its newline excluded) in `bytes`, in the order
    /// of `entries`.
    private var entryLines: [Range<Int>] = []

    /// Runs a history keeps by default (`contrast report --history-runs`): a year of nightly
    /// runs and a month over. Appending past it drops the oldest runs, so the file is bounded.
    public static let defaultRuns = 400

    /// No earlier runs.
    public init() {}

    /// The runs in `bytes`, the text of `file` (named in warnings). Blank lines are skipped
    /// silently; a line that is not an entry is skipped with a warning, so a hand-edited or
    /// half-copied file still gives the runs it has.
    public init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        let decoder = JSONDecoder()
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do {
                entries.append(try decoder.decode(HistoryEntry.self, from: Data(line)))
                entryLines.append(line.startIndex..<line.endIndex)
            } catch {
                warnings.append("\(file):\(lineNumber): not a history entry, skipped (\(error.localizedDescription))")
            }
        }
    }

    /// The history in the file at `path`; no runs when there is no file yet.
    public static func read(path: String) -> Result<ReportHistory, PaletteProblem> {
        var files = FileSystem.unconfined
        files.maximumFileSize = 1 << 30  // a year of nightly runs of a large design system
        guard files.exists(path) else { return .success(ReportHistory()) }
        return files.read(path).map { ReportHistory(bytes: $0, file: path) }
    }

    /// How `report` differs from the last run, or nil when there is none.
    public func comparison(with report: AuditReport) -> BaselineComparison? {
        entries.last.map { Baseline(entries: Baseline.keyed($0.checks ?? [:])).compare(with: report) }
    }

    /// The file with `entry` appended as its last line (compact JSON, sorted keys), after a
    /// newline if the file did not end with one: what to write back (atomically). At most
    /// `runs` entries are kept (the new one among them): past that the oldest are dropped, and
    /// every line before the first one kept, so a nightly history stays bounded.
    ///
    /// Only the last line keeps every check's verdict (all the next run compares with): the
    /// line that was last is written again without them, so each earlier run is its summary and
    /// per-theme counts, a few kilobytes however many checks the system has, and a history of
    /// ``defaultRuns`` runs of Primer's 7,425 checks is megabytes, not a gigabyte. Lines that
    /// are not entries are kept as they were.
    public func appending(_ entry: HistoryEntry, keeping runs: Int = ReportHistory.defaultRuns) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let dropped = max(0, entries.count + 1 - max(1, runs))
        var out: [UInt8] = []
        if dropped < entryLines.count {
            let start = dropped == 0 ? 0 : entryLines[dropped].lowerBound
            let last = entryLines[entryLines.count - 1]
            out = Array(bytes[start..<last.lowerBound])
            var previous = entries[entries.count - 1]
            if previous.checks == nil {
                out += bytes[last]
            } else {
                previous.checks = nil
                out += try encoder.encode(previous)
            }
            out += bytes[last.upperBound...]
        } else if dropped == 0 {
            out = bytes  // no entries yet: whatever the file holds is kept
        }
        if let last = out.last, last != 0x0A { out.append(0x0A) }
        out.append(contentsOf: try encoder.encode(entry))
        out.append(0x0A)
        return out
    }
}
