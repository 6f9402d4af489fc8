public import ColorScience
import TokenSources
import Synchronization

/// A bounded memory of computed suggestions and of the lightness ladders their searches walked.
/// Audits share ``shared`` unless given their own; a new cache starts cold.
public final class SuggestionCache: Sendable {
    struct Key: Hashable, Sendable {
        var foreground: SRGB
        var background: SRGB
        var target: ContrastTarget
    }

    /// The cache every audit in the process uses unless it is given another.
    public static let shared = SuggestionCache()
    /// How many pairs' suggestions are kept before the table starts over.
    public let capacity: Int
    private let entries = Mutex<[Key: Suggestions]>([:])
    /// The searches' ladders, kept for the next pair that shares a color.
    let ladders: NearestPassing.Ladders

    public init(capacity: Int = 4096, ladderCapacity: Int = 1024) {
        self.capacity = max(1, capacity)
        ladders = NearestPassing.Ladders(capacity: ladderCapacity)
    }

    func value(for key: Key) -> Suggestions? {
        entries.withLock { $0[key] }
    }

    func store(_ value: Suggestions, for key: Key) {
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = value
        }
    }
}

/// Nearest passing colors for failing checks: computed in place or deferred and computed in
/// parallel, remembered across audits.
extension Auditor {
    /// A failing check whose suggestions are computed after every check is evaluated.
    struct PendingSuggestion: Sendable {
        var theme: Int
        var result: Int
        var foreground: SRGB
        var background: SRGB
        var target: ContrastTarget
    }

    /// The colors and target a failing check's suggestions are computed for; nil when it gets
    /// none (it passes, or its ratio is a range over an unknown backdrop). The background is the
    /// one seen (a translucent one over its backdrop); the foreground is as given, translucent
    /// or not, so that a background suggested for it is measured with it painted over that
    /// background rather than over the one it replaces.
    static func suggestionInputs(verdict: Verdict, measurement m: ContrastMeasurement, required: Double?, apca: Double?)
        -> (foreground: SRGB, background: SRGB, target: ContrastTarget)? {
        guard verdict == .fail, !m.isRange, let f = m.effectiveForeground, let b = m.effectiveBackground else { return nil }
        return (m.foreground.isOpaque ? f : m.foreground, b, ContrastTarget(ratio: required, lc: apca))
    }

    static func fixes(_ suggestions: Suggestions, foreground: ResolvedColor, background: ResolvedColor, kind: CheckKind,
                      pointer: JSONPointer, theme: String) -> [SuggestedFix]? {
        if sharesValue(foreground, background) { return nil }
        let fixes = SuggestedFix.fixes(suggestions, foreground: foreground, background: background, kind: kind, pointer: pointer, theme: theme)
        return fixes.isEmpty ? nil : fixes
    }

    /// Whether both sides are one value of the document (two aliases of one token, or one
    /// token): a change to it moves both, so no change to it can fix the pair.
    static func sharesValue(_ foreground: ResolvedColor, _ background: ResolvedColor) -> Bool {
        guard let pointer = foreground.pointer else { return false }
        return pointer == background.pointer && foreground.file == background.file
    }

    /// The suggestions as a result shows them: when both sides are one value, with a note that
    /// says so (the colors are still what each side would need, once it has a value of its own).
    static func noted(_ suggestions: Suggestions?, foreground: ResolvedColor, background: ResolvedColor) -> Suggestions? {
        guard var s = suggestions, sharesValue(foreground, background) else { return suggestions }
        let names = [foreground.reference, background.reference].map { "\"\($0)\"" }.joined(separator: " and ")
        let value = foreground.valueToken ?? foreground.aliases?.last ?? foreground.token ?? foreground.reference
        s.notes = (s.notes ?? []) + ["\(names) are one value (\(value)), so these are the colors each side needs once it has a value of its own (or its alias points elsewhere); changing \(value) itself moves both sides, and no fix to it is offered"]
        return s
    }

    /// Puts computed suggestions (and the fixes they imply) into a result evaluated without them.
    static func attach(_ suggestions: Suggestions, to result: inout CheckResult, theme: String) {
        result.suggestions = noted(suggestions, foreground: result.foreground, background: result.background)
        result.fixes = fixes(suggestions, foreground: result.foreground, background: result.background, kind: result.kind,
                             pointer: result.pointer, theme: theme)
    }

    /// The suggestions of every pending check, on `threads` threads taking the next pending
    /// check as each finishes one; nil when `shouldStop` said to stop.
    static func computeInParallel(_ pending: [PendingSuggestion], threads: Int, shouldStop: (@Sendable () -> Bool)?) -> [Suggestions]? {
        Parallel.mapTakingTurns(pending.count, threads: threads, cancelled: shouldStop) { index in
            let p = pending[index]
            return Auditor.suggestions(foreground: p.foreground, background: p.background, target: p.target)
        }
    }

    /// Nearest passing colors for each side, and for both at once. Results are remembered in
    /// `cache` (they depend only on the two colors and the target), so re-auditing a palette is
    /// cheap.
    public static func suggestions(foreground: SRGB, background: SRGB, target: ContrastTarget,
                                   cache: SuggestionCache = .shared) -> Suggestions {
        let key = SuggestionCache.Key(foreground: foreground, background: background, target: target)
        if let known = cache.value(for: key) { return known }
        let computed = computeSuggestions(foreground: foreground, background: background, target: target, ladders: cache.ladders)
        cache.store(computed, for: key)
        return computed
    }

    /// The suggestions of one pair, computed with the ladders kept in `ladders`. `background` is
    /// opaque; `foreground` may be translucent: the foreground suggestions (and the combined
    /// move's) are then opaque colors replacing the composite seen on `background`, and each
    /// background suggestion is measured with `foreground` painted over it.
    static func computeSuggestions(foreground: SRGB, background: SRGB, target: ContrastTarget, ladders: NearestPassing.Ladders) -> Suggestions {
        let seen = ContrastMeasurement(foreground: foreground, background: background).effectiveForeground ?? foreground
        let fg = NearestPassing.suggest(for: seen, against: background, role: .foreground, target: target, ladders: ladders)
        let bg = NearestPassing.suggest(for: background, against: foreground, role: .background, target: target, ladders: ladders)
        var notes: [String] = []
        if fg.suggestions.isEmpty, let best = fg.bestReachableRatio {
            notes.append("no foreground of this hue reaches \(target) on \(background.hex); the best reachable is \(RatioFormat.display(best))")
        }
        if bg.suggestions.isEmpty, let best = bg.bestReachableRatio {
            if foreground.isOpaque {
                notes.append("no background of this hue reaches \(target) under \(foreground.hex); the best reachable is \(RatioFormat.display(best))")
            } else {
                // What the foreground lets through of any background bounds every one of them.
                let any = NearestPassing.bestBackground(under: foreground)
                let opacity = "\(Auditor.percent(foreground.alpha)) opaque, painted over the background"
                if let ratio = target.minimumRatio, any.ratio < ratio {
                    notes.append("no background reaches \(target) under \(foreground.hex) (\(opacity)): the best any background gives is \(RatioFormat.display(any.ratio)) (on \(any.background.hex)); change the foreground")
                } else {
                    notes.append("no background of this hue reaches \(target) under \(foreground.hex) (\(opacity)); the best of this hue is \(RatioFormat.display(best))")
                }
            }
        }
        let both = NearestPassing.suggestBoth(foreground: seen, background: background, target: target, ladders: ladders).map {
            SuggestedPair(foreground: SuggestedColor($0.foreground), background: SuggestedColor($0.background))
        }
        return Suggestions(foreground: fg.suggestions.map(SuggestedColor.init), background: bg.suggestions.map(SuggestedColor.init),
                           both: both, notes: notes.isEmpty ? nil : notes)
    }
}
