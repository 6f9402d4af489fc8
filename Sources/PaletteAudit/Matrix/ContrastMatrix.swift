public import ColorScience
import TokenSources

/// Every token of a theme against every other: the question "which text colors may go on which
/// surfaces?", fast for thousands of tokens.
///
/// Luminances are computed once per token, so each of the N² pairs costs one division; rows are
/// split across cores. Memory is linear in N: the summary keeps per-token counts and the best
/// partners, and the full pair list is only ever streamed through `visit`.
public struct ContrastMatrix: Sendable {
    public struct Entry: Sendable {
        public var name: String
        public var color: SRGB
        public init(name: String, color: SRGB) {
            self.name = name
            self.color = color
        }
    }

    /// Per token, as a foreground on every other token.
    public struct TokenSummary: Sendable, Codable {
        public var token: String
        public var hex: String
        /// On how many other tokens it reaches AAA, AA (but not AAA), AA-large only, or none.
        public var aaa = 0
        public var aa = 0
        public var aaLarge = 0
        public var none = 0
        /// Its best backgrounds, highest ratio first.
        public var bestPartners: [Partner] = []
    }

    public struct Partner: Sendable, Codable {
        public var token: String
        public var ratio: Double
    }

    public let entries: [Entry]
    /// The theme the matrix was built from, when it came from a palette.
    public internal(set) var theme: String?
    /// Tokens left out, with why (translucent tokens with no backdrop to sit on, gradients).
    public internal(set) var skipped: [(token: String, reason: String)]

    /// The matrix of `entries`. Translucent tokens are composited over `backdrop` when one is
    /// given, and left out (listed in ``skipped``) otherwise.
    public init(entries: [Entry], backdrop: SRGB? = nil) {
        var kept: [Entry] = []
        var skipped: [(String, String)] = []
        for entry in entries {
            if entry.color.isOpaque {
                kept.append(entry)
            } else if let backdrop, backdrop.isOpaque {
                kept.append(Entry(name: entry.name, color: entry.color.composited(over: backdrop)))
            } else {
                skipped.append((entry.name, "translucent (\(entry.color.hex)) and the theme names no backdrop to composite it over"))
            }
        }
        self.entries = kept
        self.skipped = skipped
    }

    /// The number of ordered pairs (N × (N − 1)).
    public var pairCount: Int { entries.count * max(0, entries.count - 1) }

    /// Per-token counts and best partners. `partners` is how many best partners to keep.
    public func summarize(partners: Int = 3) -> [TokenSummary] {
        let n = entries.count
        let luminance = entries.map { $0.color.relativeLuminance + 0.05 }
        let chunk = max(1, (n + 63) / 64)
        let chunks = (n + chunk - 1) / chunk
        let entries = self.entries
        // Rows in 64 parts on the cores (each row reads every luminance and writes its own summary).
        let parts = Parallel.map(chunks) { c in
            luminance.withUnsafeBufferPointer { lum in
                (c * chunk..<min(n, (c + 1) * chunk)).map { i in
                    ContrastMatrix.row(i, lum, names: entries, partners: partners, summary: TokenSummary(token: entries[i].name, hex: entries[i].color.hex))
                }
            }
        }
        return parts.flatMap { $0 }
    }

    static func row(_ i: Int, _ lum: UnsafeBufferPointer<Double>, names: [Entry], partners: Int, summary: TokenSummary) -> TokenSummary {
        var s = summary
        var aaa = 0, aa = 0, large = 0, none = 0
        var bestIndex = [Int](repeating: -1, count: partners)
        var bestRatio = [Double](repeating: 0, count: partners)
        let li = lum[i]
        for j in 0..<lum.count where j != i {
            let lj = lum[j]
            let ratio = li > lj ? li / lj : lj / li
            if ratio >= 7 { aaa += 1 } else if ratio >= 4.5 { aa += 1 } else if ratio >= 3 { large += 1 } else { none += 1 }
            if partners > 0 && ratio > bestRatio[partners - 1] {
                var k = partners - 1
                while k > 0 && bestRatio[k - 1] < ratio {
                    bestRatio[k] = bestRatio[k - 1]
                    bestIndex[k] = bestIndex[k - 1]
                    k -= 1
                }
                bestRatio[k] = ratio
                bestIndex[k] = j
            }
        }
        s.aaa = aaa
        s.aa = aa
        s.aaLarge = large
        s.none = none
        s.bestPartners = zip(bestIndex, bestRatio).filter { $0.0 >= 0 }.map { Partner(token: names[$0.0].name, ratio: $0.1) }
        return s
    }

    /// Streams every ordered pair (foreground index, background index, ratio), row by row.
    public func forEachPair(_ visit: (Int, Int, Double) throws -> Void) rethrows {
        let luminance = entries.map { $0.color.relativeLuminance + 0.05 }
        for i in luminance.indices {
            let li = luminance[i]
            for j in luminance.indices where j != i {
                let lj = luminance[j]
                try visit(i, j, li > lj ? li / lj : lj / li)
            }
        }
    }
}

