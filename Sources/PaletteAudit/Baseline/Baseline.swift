import ColorScience
public import Foundation
public import TokenSources

/// What a baseline remembers of one check: enough to tell a regression from an improvement.
public struct BaselineEntry: Hashable, Sendable, Codable {
    public var palette: String
    public var theme: String
    public var check: String
    public var usage: String
    public var level: String
    public var verdict: Verdict
    public var achieved: String
    /// The ratio floored to two decimals (stable across tiny float differences).
    public var ratio: Double
    /// `distinct` for a pair of a group that must stay distinguishable, judged by its verdict
    /// alone (its ratio and level are not what it is judged by); absent for contrast checks.
    public var kind: String?

    public init(_ palette: String, _ theme: String, _ result: CheckResult) {
        self.palette = palette
        self.theme = theme
        self.check = result.id
        self.usage = result.usage.name
        self.level = result.level.name
        self.verdict = result.verdict
        self.achieved = result.achieved.name
        self.ratio = (result.ratio * 100 + 1e-9).rounded(.down) / 100
        self.kind = result.kind == .distinct ? result.kind.name : nil
    }

    /// `palette/theme/check`, each part escaped as a JSON pointer's segment (`~` as `~0`, `/` as
    /// `~1`), so that no two checks share a key: theme `a` with check `b/c` and theme `a/b` with
    /// check `c` are `p/a/b~1c` and `p/a~1b/c`. Names without `/` or `~` read as they are.
    public var key: String { [palette, theme, check].map(JSONPointer.escaped).joined(separator: "/") }
}

/// A committed snapshot of an audit (stable, sorted, diff-friendly JSON), so CI can fail on
/// regressions while a team migrates gradually.
public struct Baseline: Sendable, Codable {
    public var schemaVersion = 1
    /// Entries keyed `palette/theme/check`.
    public var entries: [String: BaselineEntry]

    public init(_ report: AuditReport) {
        var entries: [String: BaselineEntry] = [:]
        for (palette, theme, result) in report.allResults {
            let entry = BaselineEntry(palette.name, theme.name, result)
            entries[entry.key] = entry
        }
        self.entries = entries
    }

    /// The JSON to commit: sorted keys, two-space indents, a final newline.
    public func encoded() throws -> Data {
        try JSONWriter.prettyEncoded(self)
    }

    /// Reads a baseline; errors say what is wrong with the file.
    public static func decode(_ data: Data) throws -> Baseline {
        do {
            var baseline = try JSONDecoder().decode(Baseline.self, from: data)
            // Keyed again from each entry's own fields: a baseline written before keys were
            // escaped compares as one written now.
            baseline.entries = Baseline.keyed(baseline.entries)
            return baseline
        } catch let DecodingError.dataCorrupted(context) {
            // The project's own parser says where: line, column and what was expected.
            do { _ = try JSONParser.parse([UInt8](data), dialect: .json) } catch {
                throw BaselineError(.invalidJSON, "not valid JSON at \(error.location): \(error.message)")
            }
            throw BaselineError(.invalidJSON, "not valid JSON: \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, context) {
            throw BaselineError(.missingField, "missing \"\(key.stringValue)\" at \(path(context.codingPath)); is this a baseline written by `contrast audit --write-baseline`?")
        } catch let DecodingError.typeMismatch(_, context) {
            throw BaselineError(.wrongType, "wrong type at \(path(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw BaselineError(.missingField, "missing value at \(path(context.codingPath))")
        }
    }

    /// Entries keyed again from their own fields, as ``BaselineEntry/key`` keys them now (a
    /// file written before keys were escaped keyed `a/b/c` by its parts joined as they were).
    static func keyed(_ entries: [String: BaselineEntry]) -> [String: BaselineEntry] {
        Dictionary(entries.values.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        "/" + codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
    }

    /// Compares a new audit with this baseline.
    public func compare(with report: AuditReport) -> BaselineComparison {
        let current = Baseline(report).entries
        var comparison = BaselineComparison()
        for key in current.keys.sorted() {
            guard let after = current[key] else { continue }
            guard let before = entries[key] else {
                comparison.added.append(key)
                continue
            }
            let beforeRank = AchievedLevel(name: before.achieved) ?? .none
            let afterRank = AchievedLevel(name: after.achieved) ?? .none
            let exempt = after.verdict == .exempt
            if after.kind == CheckKind.distinct.name {
                if before.verdict == .pass && after.verdict == .fail {
                    comparison.regressions.append(BaselineChange(key: key, before: before, after: after))
                } else if before.verdict == .fail && after.verdict == .pass {
                    comparison.improvements.append(BaselineChange(key: key, before: before, after: after))
                } else {
                    comparison.unchanged += 1
                }
                continue
            }
            if !exempt && ((before.verdict == .pass && after.verdict == .fail) || afterRank < beforeRank) {
                comparison.regressions.append(BaselineChange(key: key, before: before, after: after))
            } else if !exempt && ((before.verdict == .fail && after.verdict == .pass) || afterRank > beforeRank) {
                comparison.improvements.append(BaselineChange(key: key, before: before, after: after))
            } else {
                comparison.unchanged += 1
            }
        }
        comparison.removed = entries.keys.filter { current[$0] == nil }.sorted()
        return comparison
    }
}

/// A baseline that cannot be read.
public enum BaselineErrors: ErrorFamily {}
public typealias BaselineError = CodedError<BaselineErrors>

extension CodedError.Code where Family == BaselineErrors {
    /// The file is not JSON.
    public static var invalidJSON: Self { Self("invalid-json") }
    /// A field a baseline has is absent: probably not a baseline.
    public static var missingField: Self { Self("missing-field") }
    /// A field has the wrong JSON type.
    public static var wrongType: Self { Self("wrong-type") }
}

/// One check whose level changed against the baseline.
public struct BaselineChange: Hashable, Sendable, Codable {
    public var key: String
    public var before: BaselineEntry
    public var after: BaselineEntry

    /// "peptide-fox › dark › body-text-on-page: AAA → AA (15.20:1 → 6.10:1)"
    public var message: String {
        if after.kind == CheckKind.distinct.name {
            return "\(after.palette) › \(after.theme) › \(after.check): \(before.verdict == .pass ? "told apart" : "confusable") → \(after.verdict == .pass ? "told apart" : "confusable")"
        }
        let verdicts = before.verdict != after.verdict ? ", \(before.verdict) → \(after.verdict)" : ""
        return "\(after.palette) › \(after.theme) › \(after.check): \(before.achieved) → \(after.achieved) (\(RatioFormat.floored(before.ratio)):1 → \(RatioFormat.floored(after.ratio)):1\(verdicts))"
    }
}

/// How an audit differs from a baseline.
public struct BaselineComparison: Hashable, Sendable, Codable {
    /// Checks that met their level and no longer do, or fell to a lower WCAG level.
    public var regressions: [BaselineChange] = []
    /// Checks that now pass, or reach a higher level.
    public var improvements: [BaselineChange] = []
    /// Keys (`palette/theme/check`) new since the baseline.
    public var added: [String] = []
    /// Keys in the baseline that the audit no longer has.
    public var removed: [String] = []
    public var unchanged = 0

    public init() {}
}
