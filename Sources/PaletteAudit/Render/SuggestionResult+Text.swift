public import ColorScience
import TokenSources
import Foundation

extension SuggestionResult {
    /// What `contrast suggest` prints: that the pair already passes, or the nearest passing
    /// foregrounds, backgrounds and pair, each with its direction, ΔE-OK, ratio and APCA Lc.
    /// `color` adds swatches (for a terminal).
    public func text(goal: ContrastTarget, color: Bool) -> String {
        // A translucent foreground is measured as drawn: say what is seen.
        let pair = "\(foreground) on \(background)" + (composited.map { " (seen as \($0.foreground))" } ?? "")
        if passes {
            return "\(pair) is \(display) and already meets \(goal): nothing to change.\n"
        }
        let fg = (try? SRGB(css: foreground)) ?? .black, bg = (try? SRGB(css: background)) ?? .white
        func line(_ label: String, _ c: SuggestedColor, _ swatchFg: String, _ swatchBg: String) -> String {
            let under = (try? SRGB(css: swatchBg)) ?? bg
            let swatch = color ? ANSI.swatch(foreground: ((try? SRGB(css: swatchFg)) ?? fg).composited(over: under), background: under) + " " : ""
            return "  \(label.padding(toLength: 11)) \(swatch)\(c.hex)  \(c.direction.padding(toLength: 7))  ΔE-OK \(Auditor.format3(c.deltaEOK))  \(c.display)  Lc \(Auditor.formatLc(c.apca))\n"
        }
        var out = "\(pair) is \(display); \(goal) is needed.\n"
        let suggestions = self.suggestions ?? Suggestions(foreground: [], background: [], both: nil, notes: nil)
        for c in suggestions.foreground { out += line("foreground", c, c.hex, background) }
        for c in suggestions.background { out += line("background", c, foreground, c.hex) }
        if let both = suggestions.both {
            out += line("both: fg", both.foreground, both.foreground.hex, both.background.hex)
            out += line("      bg", both.background, both.foreground.hex, both.background.hex)
        }
        for note in suggestions.notes ?? [] { out += "  note: \(note)\n" }
        return out
    }
}

extension VariantsResult {
    /// What `contrast variants` prints: per background, the nearest variant that meets `goal`,
    /// or the best ratio reachable when none does.
    public func text(goal: ContrastTarget, color: Bool) -> String {
        let base = (try? SRGB(css: self.color)) ?? .black
        var out = "\(self.color) for \(goal):\n"
        for row in variants {
            if let v = row.variant {
                let swatch = color ? ANSI.swatch(foreground: (try? SRGB(css: v.hex)) ?? base, background: (try? SRGB(css: row.background)) ?? base) + " " : ""
                out += "  on \(row.background)  \(swatch)\(v.hex)  \(v.direction.padding(toLength: 9))  ΔE-OK \(Auditor.format3(v.deltaEOK))  \(v.display)\n"
            } else {
                out += "  on \(row.background)  no color of this hue reaches \(goal); the best reachable is \(RatioFormat.display(row.bestReachable ?? 1))\n"
            }
        }
        return out
    }
}

extension VisionSimulation {
    /// What `contrast simulate` prints: a row of the colors in normal vision, then one per
    /// deficiency.
    public func text(color: Bool) -> String {
        let width = max(14, visions.map(\.name.count).max() ?? 0)
        func row(_ name: String, _ hexes: [String]) -> String {
            name.padding(toLength: width) + "  " + hexes.map { hex in
                let swatch = color ? ANSI.swatch(foreground: (try? SRGB(css: hex)) ?? .black, background: (try? SRGB(css: hex)) ?? .black, text: "  ") + " " : ""
                return swatch + hex
            }.joined(separator: "  ") + "\n"
        }
        return row("normal vision", colors) + visions.map { row($0.name, $0.colors) }.joined()
    }
}

extension Derivation {
    /// What `contrast derive` prints: each token's change with its reason, the audit of the new
    /// theme, the checks left unresolved, and where the palette was written (`wrote`, when it
    /// went to a file).
    public func text(minimumLevel: WCAGLevel?, wrote: String?) -> String {
        var out = "theme \(to) derived from \(from) for the surface \(surface)\(minimumLevel.map { " at \($0.name) or better" } ?? ""):\n"
        let width = max(5, tokens.map(\.token.count).max() ?? 5)
        for t in tokens {
            out += "  " + t.token.padding(toLength: width) + "  \(t.from) → \(t.value.padding(toLength: 9))  \(t.change.padding(toLength: 9))  ΔE-OK \(Auditor.format3(t.deltaEOK))  \(t.reason)\n"
        }
        out += "audit of \(to): \(report.summary.line)\n"
        for line in unresolved { out += "  unresolved: \(line)\n" }
        if let wrote { out += "wrote \(wrote)\n" }
        return out
    }
}

extension ContrastMatrix {
    /// `contrast matrix --format summary`: per token, the count of partners at each level and
    /// its best partners (the useful view past a few dozen tokens).
    public static func summaryText(_ summaries: [TokenSummary]) -> String {
        let width = max(5, summaries.map(\.token.count).max() ?? 5)
        var out = "token".padding(toLength: width) + "  hex       AAA    AA  AA-large  none  best partners\n"
        for s in summaries {
            let partners = s.bestPartners.map { "\($0.token) \(RatioFormat.display($0.ratio))" }.joined(separator: ", ")
            out += s.token.padding(toLength: width) + "  " + s.hex.padding(toLength: 8)
                + String(s.aaa).leftPadded(5) + String(s.aa).leftPadded(6) + String(s.aaLarge).leftPadded(10) + String(s.none).leftPadded(6)
                + "  " + partners + "\n"
        }
        return out
    }

    /// `contrast matrix` as text: a grid of the level each foreground (row) reaches on each
    /// background (column).
    public func grid() -> String {
        let names = entries.map(\.name)
        let labels = names.enumerated().map { "\($0 + 1). \($1)" }
        let width = max(24, labels.map(\.count).max() ?? 0)
        let cell = 10
        var out = "foreground \\ background".padding(toLength: width) + names.indices.map { String($0 + 1).leftPadded(cell) }.joined() + "\n"
        var ratios = [[Double]](repeating: [Double](repeating: 1, count: names.count), count: names.count)
        forEachPair { i, j, r in ratios[i][j] = r }
        for (i, label) in labels.enumerated() {
            out += label.padding(toLength: width)
            for j in names.indices {
                let level = AchievedLevel(ratio: ratios[i][j])
                out += (i == j ? "—" : level == .none ? "·" : level.name).leftPadded(cell)
            }
            out += "\n"
        }
        out += "\nAAA ≥ 7:1, AA ≥ 4.5:1, AA-large ≥ 3:1 (also enough for non-text), · below 3:1\n"
        return out
    }
}

extension String {
    func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
