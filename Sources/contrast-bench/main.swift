// The benchmark driver behind `make bench` (release builds only). Each measurement prints one
// line: what, how many, the median time over repeats, and the rate.
import ColorScience
import Dispatch
import Foundation
import PaletteAudit
import TokenSources

/// Results are added here so the optimizer cannot drop the work.
nonisolated(unsafe) var accumulated = 0.0

@inline(never)
func consume(_ value: Double) { accumulated += value }

@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Runs `body` `repeats` times and returns the median seconds.
func median(_ repeats: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<repeats {
        let start = now()
        body()
        times.append(Double(now() - start) / 1e9)
    }
    times.sort()
    return times[times.count / 2]
}

func report(_ name: String, count: Int, seconds: Double, unit: String = "pairs") {
    let rate = Double(count) / seconds
    print(String(format: "%-34@ %12d %@ in %9.4f s  %14.0f %@/s  %7.2f ns each", name as NSString, count, unit as NSString, seconds, rate, unit as NSString, seconds / Double(count) * 1e9))
}

/// Deterministic pseudo-random bytes (xorshift), the same sequence as bench/core.c.
struct XorShift {
    var state: UInt32 = 2463534242
    mutating func next() -> UInt32 {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return state
    }
}

func peakMemoryMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = Double(line.split(separator: " ").dropFirst().first { !$0.isEmpty }.map(String.init) ?? "0") ?? 0
        return kb / 1024
    }
    return 0
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "core":
    let n = 10_000_000
    var random = XorShift()
    var colors = [UInt32](repeating: 0, count: 2 * n)
    for i in colors.indices { colors[i] = random.next() & 0xFFFFFF }
    let table = SRGBTransfer.linearTable
    // (a) precomputed luminances
    let luminances = colors.map { c in
        WCAG.relativeLuminance(red8: UInt8(c >> 16 & 0xFF), green8: UInt8(c >> 8 & 0xFF), blue8: UInt8(c & 0xFF))
    }
    let a = median(7) {
        var total = 0.0
        luminances.withUnsafeBufferPointer { l in
            var i = 0
            while i < 2 * n {
                total += WCAG.contrastRatio(luminance: l[i], l[i + 1])
                i += 2
            }
        }
        consume(total)
    }
    report("(a) ratio from luminances", count: n, seconds: a)
    // (b) 8-bit sRGB values
    let b = median(7) {
        var total = 0.0
        colors.withUnsafeBufferPointer { c in
            table.withUnsafeBufferPointer { t in
                var i = 0
                while i < 2 * n {
                    let x = c[i], y = c[i + 1]
                    let l1 = 0.2126 * t[Int(x >> 16 & 0xFF)] + 0.7152 * t[Int(x >> 8 & 0xFF)] + 0.0722 * t[Int(x & 0xFF)]
                    let l2 = 0.2126 * t[Int(y >> 16 & 0xFF)] + 0.7152 * t[Int(y >> 8 & 0xFF)] + 0.0722 * t[Int(y & 0xFF)]
                    total += WCAG.contrastRatio(luminance: l1, l2)
                    i += 2
                }
            }
        }
        consume(total)
    }
    report("(b) ratio from 8-bit sRGB", count: n, seconds: b)
    // (c) hex strings parsed end to end
    let hexCount = 1_000_000
    let hexes = colors.prefix(2 * hexCount).map { c -> String in
        let digits = String(c, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
    let c = median(3) {
        var total = 0.0
        var i = 0
        while i < 2 * hexCount {
            if let f = try? CSSColor.parse(hexes[i]).color, let g = try? CSSColor.parse(hexes[i + 1]).color {
                total += f.contrastRatio(with: g)
            }
            i += 2
        }
        consume(total)
    }
    report("(c) ratio from hex strings", count: hexCount, seconds: c)
    // Parse rates per syntax family.
    let families: [(String, [String])] = [
        ("hex", ["#1a2b3c", "#abc", "#11223344"]),
        ("named", ["rebeccapurple", "white", "lightgoldenrodyellow"]),
        ("rgb()", ["rgb(37, 99, 235)", "rgb(37 99 235 / 50%)", "rgba(10%, 20%, 30%, 0.5)"]),
        ("hsl()/hwb()", ["hsl(221 83% 53%)", "hsla(120, 50%, 50%, 0.3)", "hwb(90 10% 20%)"]),
        ("lab()/lch()", ["lab(54 80 69)", "lch(29 66 292)", "lab(50% 20 -30 / 0.5)"]),
        ("oklab()/oklch()", ["oklch(0.628 0.258 29.2)", "oklab(0.5 0.1 -0.1)", "oklch(70% 0.1 250 / 0.8)"]),
        ("color()", ["color(display-p3 0.5 0.4 0.3)", "color(srgb-linear 0.2 0.3 0.4)", "color(rec2020 0.1 0.2 0.3)"]),
        ("out of gamut", ["color(display-p3 1 0 0)", "oklch(0.7 0.4 150)", "lab(50 100 -100)"]),
    ]
    for (name, samples) in families {
        let count = 300_000
        let t = median(9) {
            var checksum = 0.0
            for i in 0..<count { checksum += (try? CSSColor.parse(samples[i % samples.count]).color.red) ?? 0 }
            consume(checksum)
        }
        report("parse \(name)", count: count, seconds: t, unit: "colors")
    }
    print("(checksum \(accumulated))")

case "hex-ratio":
    // (c) of `core` alone, for profiling: `perf record contrast-bench hex-ratio`.
    var random = XorShift()
    let hexes = (0..<2_000_000).map { _ -> String in
        let digits = String(random.next() & 0xFFFFFF, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
    let t = median(5) {
        var total = 0.0
        var i = 0
        while i < hexes.count {
            if let f = try? CSSColor.parse(hexes[i]).color, let g = try? CSSColor.parse(hexes[i + 1]).color {
                total += f.contrastRatio(with: g)
            }
            i += 2
        }
        consume(total)
    }
    report("(c) ratio from hex strings", count: hexes.count / 2, seconds: t)

case "parse":
    // One color text parsed over and over, for profiling: `perf record contrast-bench parse 'rgb(1 2 3)'`.
    let text = arguments.dropFirst().first ?? "rgb(37 99 235 / 50%)"
    let count = 1_000_000
    let t = median(3) {
        var checksum = 0.0
        for _ in 0..<count { checksum += (try? CSSColor.parse(text).color.red) ?? 0 }
        consume(checksum)
    }
    report("parse \(text)", count: count, seconds: t, unit: "colors")

case "matrix":
    let n = Int(arguments.dropFirst().first ?? "1000") ?? 1000
    var random = XorShift()
    let entries = (0..<n).map { i -> ContrastMatrix.Entry in
        ContrastMatrix.Entry(name: "token.\(i)", color: SRGB(rgb24: random.next() & 0xFFFFFF))
    }
    let matrix = ContrastMatrix(entries: entries)
    let start = now()
    let summary = matrix.summarize(partners: 3)
    let seconds = Double(now() - start) / 1e9
    blackHole(summary)
    print(String(format: "matrix %6d tokens %12d pairs  %8.3f s  %6.1f M pairs/s  peak RSS %6.1f MB", n, matrix.pairCount, seconds,
                 Double(matrix.pairCount) / seconds / 1e6, peakMemoryMB()))

case "css":
    // A stylesheet of N color custom properties in 4 themes (:root, a dark query, a contrast
    // query, .dark with both), half of them var() chains, read and audited with 1,000 checks.
    let n = Int(arguments.dropFirst().first ?? "2000") ?? 2000
    var random = XorShift()
    func hex() -> String {
        let digits = String(random.next() & 0xFFFFFF, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
    func block(_ selector: String, _ count: Int) -> String {
        var lines: [String] = []
        for i in 0..<count {
            lines.append(i % 2 == 1 ? "  --c\(i): var(--c\(i - 1));" : "  --c\(i): \(hex());")
        }
        return selector + " {\n" + lines.joined(separator: "\n") + "\n}\n"
    }
    let css = block(":root", n) + "@media (prefers-color-scheme: dark) {\n" + block(":root", n / 2) + "}\n"
        + "@media (prefers-contrast: more) {\n" + block(":root", n / 4) + "}\n" + block("[data-theme=\"dim\"]", n / 4)
    let bytes = Array(css.utf8)
    func read() -> (Palette?, [PaletteProblem]) {
        var (palette, problems) = PaletteDecoder.decodeStylesheet(bytes: bytes, file: "bench.css", name: "bench")
        palette?.checks = (0..<250).map { Check(id: "k\($0)", foreground: "c\($0 * 2)", background: "c\(($0 * 7 + 4) % n)") }
        return (palette, problems)
    }
    // The first audit computes every failing check's suggestions; later ones recall them (as a
    // re-audit does), so the suggestions' cost is the cold figure's, once.
    let coldStart = now()
    let (coldPalette, coldProblems) = read()
    let coldReport = Auditor().audit(coldPalette!, problems: coldProblems)
    let cold = Double(now() - coldStart) / 1e9
    let tRead = median(11) { blackHole(read()) }
    let (palette, problems) = read()
    var noSuggestions = Auditor.Limits()
    noSuggestions.maximumSuggestions = 0
    let tAudit = median(11) { blackHole(Auditor(limits: noSuggestions).audit(palette!, problems: problems)) }
    print(String(format: "stylesheet %d properties in %d themes (%.0f KB): read %.1f ms, audit of %d checks (%d failing) without suggestions %.1f ms, both %.1f ms (medians of 11; target < 50 ms); first audit with every suggestion computed %.0f ms",
                 n, coldReport.themes.count, Double(bytes.count) / 1e3, tRead * 1000, coldReport.summary.checks, coldReport.summary.fail, tAudit * 1000,
                 (tRead + tAudit) * 1000, cold * 1000))

case "dtcg":
    let n = Int(arguments.dropFirst().first ?? "10000") ?? 10_000
    var random = XorShift()
    var groups: [String] = []
    for g in 0..<(n / 100) {
        var tokens: [String] = []
        for t in 0..<100 {
            let c = random.next() & 0xFFFFFF
            let digits = String(c, radix: 16)
            tokens.append("\"t\(t)\": {\"$value\": \"#\(String(repeating: "0", count: 6 - digits.count) + digits)\"}")
        }
        groups.append("\"group\(g)\": {\"$type\": \"color\", \(tokens.joined(separator: ", "))}")
    }
    let checks = (0..<1000).map { i in "{\"id\": \"c\(i)\", \"foreground\": \"group\(i % (n / 100)).t\(i % 100)\", \"background\": \"group\((i + 1) % (n / 100)).t\((i * 7) % 100)\"}" }
    let document = "{\"name\": \"big\", \"tokens\": {\(groups.joined(separator: ", "))}, \"checks\": [\(checks.joined(separator: ", "))]}"
    let bytes = Array(document.utf8)
    var checked = 0
    let t = median(5) {
        let (palette, problems) = PaletteDecoder.decode(bytes: bytes)
        if let palette {
            let report = Auditor().audit(palette, problems: problems)
            checked = report.summary.checks
        }
    }
    print(String(format: "DTCG file %d tokens (%.1f MB), %d checks: decode + audit %.3f s (median of 5)", n, Double(bytes.count) / 1e6, checked, t))

case "palettes":
    let path = arguments.dropFirst().first ?? "palettes"
    var checks = 0
    let t = median(21) {
        let reports = PaletteLoader.load(paths: [path]).compactMap { loaded in loaded.palette.map { Auditor().audit($0, problems: loaded.problems) } }
        checks = reports.reduce(0) { $0 + $1.summary.checks }
    }
    print(String(format: "palettes/: load + audit %d checks in %.2f ms (median of 21)", checks, t * 1000))

case "audit-request":
    let path = arguments.dropFirst().first ?? "palettes/peptide-fox.json"
    let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
    var decoded: Palette?
    var problems: [PaletteProblem] = []
    let tDecode = median(51) { (decoded, problems) = PaletteDecoder.decode(bytes: bytes) }
    guard let palette = decoded else { print("cannot decode \(path)"); exit(2) }
    var report = Auditor().audit(palette, problems: problems)
    let tAudit = median(51) { report = Auditor().audit(palette, problems: problems) }
    var encoded: [UInt8] = []
    let tFast = median(51) { encoded = AuditReport(palettes: [report]).compactJSON() }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let tFoundation = median(51) { encoded = (try? [UInt8](encoder.encode(AuditReport(palettes: [report])))) ?? [] }
    print(String(format: "one audit request for %@: decode %.3f ms, audit %.3f ms, encode %.3f ms by hand (%.3f ms with JSONEncoder), %d bytes",
                 path as NSString, tDecode * 1000, tAudit * 1000, tFast * 1000, tFoundation * 1000, encoded.count))

case "suggest":
    var random = XorShift()
    var pairs: [(SRGB, SRGB)] = []
    while pairs.count < 200 {
        let a = SRGB(rgb24: random.next() & 0xFFFFFF), b = SRGB(rgb24: random.next() & 0xFFFFFF)
        if a.contrastRatio(with: b) < 4.5 { pairs.append((a, b)) }
    }
    // Cold: every search starts without kept ladders (each pair's colors are new to it).
    var t = median(9) {
        let ladders = NearestPassing.Ladders()
        for (a, b) in pairs { blackHole(NearestPassing.suggest(for: a, against: b, role: .foreground, target: .ratio(4.5), ladders: ladders)) }
    }
    report("nearest passing (one side), cold", count: pairs.count, seconds: t, unit: "pairs")
    t = median(9) {
        let ladders = NearestPassing.Ladders()
        for (a, b) in pairs { blackHole(NearestPassing.suggestBoth(foreground: a, background: b, target: .ratio(4.5), ladders: ladders)) }
    }
    report("smallest combined move, cold", count: pairs.count, seconds: t, unit: "pairs")
    var warm = SuggestionCache()
    t = median(9) {
        warm = SuggestionCache()
        for (a, b) in pairs { blackHole(Auditor.suggestions(foreground: a, background: b, target: .ratio(4.5), cache: warm)) }
    }
    report("all suggestions, computed cold", count: pairs.count, seconds: t, unit: "pairs")
    // In an audit each token meets many others: the same 200 pairs' colors against new partners,
    // with the ladders of their colors kept from a cold pass over the pairs (the three searches
    // an audit's suggestions make, through ColorScience's API with one kept set of ladders).
    let rotated = pairs.indices.map { (pairs[$0].0, pairs[($0 + 1) % pairs.count].1) }.filter { $0.0.contrastRatio(with: $0.1) < 4.5 }
    let kept = NearestPassing.Ladders()
    func allThree(_ a: SRGB, _ b: SRGB) {
        blackHole(NearestPassing.suggest(for: a, against: b, role: .foreground, target: .ratio(4.5), ladders: kept))
        blackHole(NearestPassing.suggest(for: b, against: a, role: .background, target: .ratio(4.5), ladders: kept))
        blackHole(NearestPassing.suggestBoth(foreground: a, background: b, target: .ratio(4.5), ladders: kept))
    }
    for (a, b) in pairs { allThree(a, b) }
    t = median(9) {
        for (a, b) in rotated { allThree(a, b) }
    }
    report("all suggestions, colors seen before", count: rotated.count, seconds: t, unit: "pairs")
    t = median(3) {
        for (a, b) in pairs { blackHole(Auditor.suggestions(foreground: a, background: b, target: .ratio(4.5), cache: warm)) }
    }
    report("all suggestions, remembered", count: pairs.count, seconds: t, unit: "pairs")

case "edit":
    // One keystroke on the designers' page: the server work behind POST /v1/tokens and the two
    // POST /v1/palettes/{name}/proposals calls (JSON and HTML) for an edited palette.
    let path = arguments.dropFirst().first ?? "palettes/peptide-fox.json"
    let original = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    guard let served = PaletteDecoder.decode(original, file: path).palette, let token = served.themes.first?.tokens.first else {
        print("cannot decode \(path)"); exit(2)
    }
    let current = Auditor().audit(served)
    var random = XorShift()
    var bytes = 0
    func edited() -> [UInt8] {
        // A different pale color each time, so no suggestion is remembered from the last edit.
        let value = String(format: "#%06x", 0xC0C0C0 | (random.next() & 0x3F3F3F))
        return Array(original.replacing("\"\(token.value)\"", with: "\"\(value)\"").utf8)
    }
    let tTokens = median(51) {
        let (palette, problems) = PaletteDecoder.decode(bytes: edited())
        guard let palette else { return }
        blackHole(TokenListing(palette, problems: Auditor().audit(palette, problems: problems).problems))
    }
    let tProposal = median(51) {
        let (palette, problems) = PaletteDecoder.decode(bytes: edited())
        guard let palette else { return }
        let proposed = Auditor().audit(palette, problems: problems)
        let comparison = Baseline(AuditReport(palettes: [current])).compare(with: AuditReport(palettes: [proposed]))
        let json = AuditReport.proposalJSON(palette: served.name, current: current.summary, proposed: proposed.summary, comparison: comparison,
                                            audit: AuditReport(palettes: [proposed], comparison: comparison))
        let html = HTMLReport(title: "t", generated: "now", comparison: (comparison, against: "Against the served palette"))
            .render(AuditReport(palettes: [proposed], comparison: comparison))
        bytes = json.count + html.utf8.count
    }
    print(String(format: "one designer edit of %@ (%@ made pale): tokens %.3f ms, proposal JSON + HTML %.3f ms (%d bytes), %.3f ms in all; target < 10 ms",
                 path as NSString, token.name as NSString, tTokens * 1000, tProposal * 1000, bytes, (tTokens + tProposal) * 1000))

case "gradient":
    // A text color judged on a gradient background at its worst point (target < 50 µs for 3-4
    // stops): the search alone on parsed gradients, against text colors that differ each time.
    var random = XorShift()
    let texts = (0..<1000).map { _ in SRGB(rgb24: random.next() & 0xFFFFFF) }
    let cases: [(String, String)] = [
        ("gradient worst point, 3 stops", "linear-gradient(to right, #0969da, #f6f8fa 40%, #cf222e)"),
        ("gradient worst point, 3 stops oklab", "linear-gradient(oklch(0.55 0.15 250), #f6f8fa, lab(45 60 40))"),
        ("gradient worst point, 4 stops oklch", "linear-gradient(in oklch, #0969da, #1a7f37, #bf8700, #cf222e)"),
        ("gradient worst point, 3 stops hint", "radial-gradient(circle, #0969da, 30%, #f6f8fa, #cf222e 90%)"),
        ("gradient worst point, 3 translucent", "linear-gradient(rgb(9 105 218 / 60%), #f6f8fa80, transparent)"),
    ]
    for (name, css) in cases {
        guard let gradient = try? Gradient(css: css) else { fatalError("\(css) does not parse") }
        let t = median(9) {
            var total = 0.0
            for text in texts { total += gradient.contrast(foreground: text, backdrop: nil).worst.ratio }
            consume(total)
        }
        report(name, count: texts.count, seconds: t, unit: "gradients")
    }
    let css = cases[0].1
    let t = median(9) {
        var total = 0.0
        for text in texts { total += (try? Gradient(css: css).contrast(foreground: text, backdrop: nil).worst.ratio) ?? 0 }
        consume(total)
    }
    report("gradient parse + worst, 3 stops", count: texts.count, seconds: t, unit: "gradients")
    print("(checksum \(accumulated))")

case "distinct":
    // A `distinct` group of 50 tokens: every pair (1,225) assessed in normal vision and under
    // protanopia, deuteranopia and tritanopia, as the audit does. Target < 5 ms.
    var random = XorShift()
    let colors = (0..<50).map { _ in SRGB(rgb24: random.next() & 0xFFFFFF) }
    var confusable = 0
    let t = median(21) {
        confusable = 0
        for i in colors.indices {
            for j in (i + 1)..<colors.count where Distinguishability.assess(colors[i], colors[j]).confusable { confusable += 1 }
        }
    }
    report("distinct group of 50 (all pairs, 3 CVD)", count: 1_225, seconds: t, unit: "pairs")
    print(String(format: "a distinct group of 50 tokens under every audited deficiency: %.3f ms (%d of 1,225 pairs confusable); target < 5 ms", t * 1000, confusable))

default:
    print("usage: contrast-bench core | matrix N | dtcg N | palettes DIR | audit-request FILE | suggest | edit FILE | gradient | distinct")
    exit(2)
}
