public import ColorScience
import TokenSources

extension PairReport {
    /// What `contrast check` prints for a pair: the ratio (or its range over backdrops), APCA
    /// Lc, the verdict for every usage and level, the best level, the color-vision contrast,
    /// gamut notes, and the verdict for `requirement`. `color` adds a swatch and colored
    /// verdicts (for a terminal).
    public func text(requirement: ContrastRequirement, color: Bool) -> String {
        func mark(_ ok: Bool) -> String {
            let word = ok ? "pass" : "fail"
            return color ? (ok ? ANSI.green : ANSI.red) + word + ANSI.reset : word
        }
        let needed = CSSNumber.format(requirement.minimumRatio ?? 0)
        var out = "\(foreground) on \(background)"
        if color {
            let swatchFg = composited.flatMap { try? SRGB(css: $0.foreground) } ?? (try? SRGB(css: foreground))?.opaque ?? .black
            let swatchBg = composited.flatMap { try? SRGB(css: $0.background) } ?? (try? SRGB(css: background))?.opaque ?? .white
            out += "  " + ANSI.swatch(foreground: swatchFg, background: swatchBg, text: " The quick brown fox ")
        }
        out += "\n"
        if let c = composited { out += "composited     \(c.foreground) on \(c.background)\n" }
        if let range {
            out += "ratio          \(RatioFormat.display(range.worst)) to \(RatioFormat.display(range.best)) depending on the backdrop (worst on \(range.worstBackdrop), best on \(range.bestBackdrop)); judged on the worst\n"
        } else {
            out += "ratio          \(display)\n"
        }
        let bronze = APCA.BronzeLevel.reached(by: apca).map { " (Bronze: Lc \(Int($0.lc))+ \($0.use))" } ?? " (below Lc 15: not readable)"
        out += "APCA           Lc \(Auditor.formatLc(apca))\(bronze)\n"
        out += "text           AA \(mark(verdicts.textAA)) (4.5)   AAA \(mark(verdicts.textAAA)) (7)\n"
        out += "large text     AA \(mark(verdicts.largeTextAA)) (3)     AAA \(mark(verdicts.largeTextAAA)) (4.5)\n"
        out += "non-text       AA \(mark(verdicts.nonTextAA)) (3)\n"
        out += "best level     \(achieved)\n"
        if let cvd {
            let below = "below the \(needed):1 it meets in normal vision"
            let warning = cvd.verdict == "warn" ? " — " + (color ? ANSI.yellow + below + ANSI.reset : below) : ""
            out += "color vision   \(cvd.display) lowest, under simulated \(cvd.deficiency) (\(cvd.foreground) on \(cvd.background))\(warning)\n"
        }
        for name in outOfGamut ?? [] { out += "note           the \(name) is outside sRGB and was gamut-mapped (CSS Color 4)\n" }
        if let rounded, range == nil, composited == nil, let f = try? SRGB(css: foreground), let b = try? SRGB(css: background) {
            // The hex shown is not the color measured: say what the hex itself gives, so a
            // color copied from this output is not taken to pass when it does not.
            let hexRatio = f.contrastRatio(with: b)
            let sides = rounded.joined(separator: " and ")
            let verdict = requirement.minimumRatio == nil ? "" : " (\(requirement.usage) \(requirement.level): \(requirement.isMet(by: hexRatio) ? "pass" : "fail"))"
            out += "note           the \(sides) \(rounded.count == 1 ? "is" : "are") not 8-bit: the hex shown is the nearest 8-bit color, and the ratio above is the color's own; \(foreground) on \(background) itself is \(RatioFormat.display(hexRatio))\(verdict)\n"
        } else if let rounded {
            out += "note           the \(rounded.joined(separator: " and ")) \(rounded.count == 1 ? "is" : "are") not 8-bit: the hex shown is the nearest 8-bit color, and the ratio is the color's own\n"
        }
        out += "\(requirement.usage) \(requirement.level): \(mark(pass))" + (pass ? "" : " — needs \(needed):1") + "\n"
        return out
    }

    /// The reports of one pair in each color scheme it was measured in
    /// (``PairRequest/evaluateInEveryScheme(defaults:)``): one report as it is, several under a
    /// heading each.
    public static func text(_ reports: [(scheme: ColorScheme?, report: PairReport)], requirement: ContrastRequirement, color: Bool) -> String {
        var out = ""
        for (index, entry) in reports.enumerated() {
            if reports.count > 1 { out += (index > 0 ? "\n" : "") + "in a \(entry.scheme?.rawValue ?? "") color scheme (light-dark())\n" }
            out += entry.report.text(requirement: requirement, color: color)
        }
        return out
    }

    /// What `contrast check --format json` prints: the report, or one per scheme
    /// (`{"dark": {…}, "light": {…}}`), pretty-printed, with a final newline.
    public static func prettyJSON(_ reports: [(scheme: ColorScheme?, report: PairReport)]) -> [UInt8] {
        var w = JSONWriter(layout: .pretty)
        if reports.count == 1 {
            reports[0].report.write(&w)
        } else {
            w.object { w in
                for entry in reports.sorted(by: { ($0.scheme?.rawValue ?? "") < ($1.scheme?.rawValue ?? "") }) {
                    w.key(entry.scheme?.rawValue ?? "")
                    entry.report.write(&w)
                }
            }
        }
        w.endLine()
        return w.bytes
    }
}
