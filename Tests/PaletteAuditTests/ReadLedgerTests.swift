import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Issue #46, bounded output: the declarations of one rule that are not read for one reason
/// are one entry of the ledger's summary (what every report shows), with their count, their
/// lines and their first names, instead of one entry each that repeats the reason; every
/// declaration is still counted, and each is still in the ledger itself.
@Suite struct ReadLedgerTests {
    static let css = """
    :root { --bg: #ffffff; --fg: #111111; }
    .card .title {
      --a: #000; --b: #111;
      --c: #222;
    }
    .card .title { --d: #333; }
    @container sidebar (min-width: 400px) {
      .panel { --e: #444; --f: #555; }
    }
    @font-face { --g: #666;
      --h: #777; }
    .card p { --i: #888; --j: 4px; }
    """

    static func read(_ css: String) throws -> Palette {
        let (palette, _) = PaletteDecoder.decode(bytes: Array(css.utf8), file: "theme.css")
        return try #require(palette)
    }

    @Test func aRulesDeclarationsNotReadForOneReasonAreOneEntry() throws {
        let palette = try Self.read(Self.css)
        let summary = palette.ledger.completed(with: palette).summary
        #expect(summary.notRead.map { "\($0.name) \($0.line ?? 0):\($0.column ?? 0) \($0.count.map(String.init) ?? "-") \($0.lines ?? []) \($0.names ?? [])" } == [
            "a 3:3 3 [3, 4] [\"a\", \"b\", \"c\"]",
            "d 6:16 - [] []",
            "e 8:12 2 [8] [\"e\", \"f\"]",
            "g 10:14 2 [10, 11] [\"g\", \"h\"]",
            "i 12:11 - [] []",
        ])
        // Two rules of one selector are two entries: one per rule, not one per reason.
        #expect(summary.notRead[0].reason == summary.notRead[1].reason)
        // Every declaration is counted: the entries' counts add up to those not read.
        #expect(summary.notRead.reduce(0) { $0 + $1.declarations } == summary.colorDeclarations - summary.read)
        #expect(summary.read == 2 && summary.colorDeclarations == 11 && summary.notColors == 1)
        #expect(summary.headline == "read 2 of 11 color declarations; 9 not read (and 1 declaration that is not a color)")
        // The ledger itself keeps each declaration at its own line and column.
        #expect(palette.ledger.notReadEntries.map { "\($0.name) \($0.line ?? 0)" } == ["a 3", "b 3", "c 4", "d 6", "e 8", "f 8", "g 10", "h 11", "i 12"])
    }

    /// Each output says the entry the same way: its place, how many declarations, their first
    /// names and their lines, then the reason once.
    @Test func everyRenderingSaysHowManyAndWhere() throws {
        let palette = try Self.read(Self.css)
        let report = AuditReport(palettes: [Auditor().audit(palette)])
        let text = TextRenderer(color: false).render(report)
        let reason = "custom properties of '.card .title' are scoped to those elements; not read as tokens (themes come from :root, html, body and their classes and attributes)"
        #expect(text.contains("  not read  theme.css:3:3: 3 declarations (a, b, c) on lines 3–4: \(reason)\n"), "\(text)")
        #expect(text.contains("  not read  theme.css:6:16: d: \(reason)\n"), "\(text)")
        let html = HTMLReport(title: "t", generated: "now").render(report)
        #expect(html.contains("<li><code>theme.css:10:14: 2 declarations (g, h) on lines 10–11</code>: inside @font-face, which is not read as a theme</li>"), "\(html)")
        let sarif = String(decoding: try SARIFRenderer.render(report, toolVersion: "test"), as: UTF8.self)
        #expect(sarif.contains("2 declarations (e, f) on line 8 are not read: custom properties under @container"), "\(sarif)")
        let annotation = try #require(report.annotations.first { $0.line == 3 && $0.rule == "contrast/not-read" })
        #expect(annotation.message.hasPrefix("theme: 3 declarations (a, b, c) on lines 3–4 are not read, so nothing that uses them is measured: custom properties of"))
        // The JSON carries the count, the lines and the names beside the first one's place.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.prettyJSON().utf8)) as? [String: Any])
        let ledger = try #require(((json["palettes"] as? [[String: Any]])?.first?["ledger"]) as? [String: Any])
        let first = try #require((ledger["notRead"] as? [[String: Any]])?.first)
        #expect(first["count"] as? Int == 3 && first["lines"] as? [Int] == [3, 4] && first["names"] as? [String] == ["a", "b", "c"] && first["line"] as? Int == 3)
    }

    /// Thousands of scoped declarations in a few rules: as many entries as rules, a summary in
    /// proportion to the input (it was 21 times the input, a reason per declaration), and the
    /// names listed are the first ten.
    @Test func thousandsOfDeclarationsInAFewRulesAreAFewEntries() throws {
        let properties = (0..<5_000).map { "--p\($0): #\(String(format: "%03x", $0 % 4096));" }.joined(separator: "\n")
        let css = ":root { --bg: #fff; }\n.card .x {\n\(properties)\n}\n@container sidebar (min-width: 400px) { .a {\n\(properties)\n} }\n@font-face {\n\(properties)\n}\n"
        let palette = try Self.read(css)
        let summary = palette.ledger.completed(with: palette).summary
        #expect(summary.notRead.count == 3)
        #expect(summary.notRead.map(\.declarations) == [5_000, 5_000, 5_000])
        #expect(summary.notRead.allSatisfy { $0.names?.count == ReadLedger.listedNames && $0.lines?.count == 5_000 })
        #expect(summary.notRead[0].subject == "5000 declarations (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, …) on lines 3–5002")
        let json = JSONWriter.compact { summary.write(&$0) }
        #expect(json.count < css.utf8.count, "\(json.count) bytes of ledger for \(css.utf8.count) of input")
    }

    @Test func lineSpansSayRunsOfLines() {
        #expect(ReadLedger.lineSpans([7]) == "line 7")
        #expect(ReadLedger.lineSpans([4, 5, 6]) == "lines 4–6")
        #expect(ReadLedger.lineSpans([2, 3, 9, 12, 13]) == "lines 2–3, 9, 12–13")
        #expect(ReadLedger.lineSpans([1, 3, 5, 7, 9, 11, 13]) == "lines 1, 3, 5, 7, 9, …")
    }

    /// Each entry is charged to the read's budget as it is recorded: a reader that recorded
    /// past what a read of its size may build stops with one problem naming the ledger.
    @Test func theLedgerIsChargedToTheReadsBudget() throws {
        let css = ":root { --bg: #fff; }\n.card .x {" + (0..<20_000).map { "--p\($0): #000;" }.joined() + "}"
        let budget = ReadBudget(maximumSteps: 10_000_000, maximumBytes: 1 << 20)
        let (palette, problems) = ReadBudget.withBudget(budget) { PaletteDecoder.decode(bytes: Array(css.utf8), file: "theme.css") }
        #expect(palette == nil)
        let problem = try #require(budget.problem)
        #expect(problem.code == .limitExceeded && problems.contains(problem))
        #expect(problem.message == "the ledger of what the read met would take more than 1 MiB, the memory a read of this size may build (512 bytes a byte, at least 8 MiB, at most 1 MiB); it is refused rather than built", "\(problem.message)")
        // Under a budget it fits, the same file is read, and what its ledger holds was charged.
        let roomy = ReadBudget(maximumSteps: 10_000_000, maximumBytes: 64 << 20)
        let (read, _) = ReadBudget.withBudget(roomy) { PaletteDecoder.decode(bytes: Array(css.utf8), file: "theme.css") }
        #expect(read != nil && roomy.problem == nil && roomy.builtBytes > 20_000 * MemoryLayout<ReadLedger.Entry>.stride)
    }

    /// Found by fuzz-tokens (fuzz/slow/tokens-extends-long-names-ea4f8e): a read whose budget had
    /// stopped it went on recording every declaration it still met, each with its key, so a
    /// 2.4 KB token file whose `$extends` copies passed its 8 MiB held 97 MB of ledger at its
    /// peak (1.2 s, 114 MB RSS in the release CLI) before it was refused. Once the budget stops
    /// the read, the ledger records nothing more.
    @Test func theLedgerRecordsNothingOnceTheReadIsStopped() {
        let budget = ReadBudget(maximumSteps: 10_000_000, maximumBytes: 64 << 10)
        let ledger = ReadBudget.withBudget(budget) { () -> ReadLedger in
            var ledger = ReadLedger()
            for i in 0..<10_000 {
                ledger.notColor("size.t\(i)", type: "dimension", file: "t.tokens.json", location: SourceLocation(offset: i, line: i + 1, column: 1))
            }
            return ledger
        }
        #expect(budget.problem?.code == .limitExceeded)
        // 64 KiB holds a few hundred entries at most; past it, none is added.
        #expect(ledger.entries.count < 1_000, "\(ledger.entries.count) entries recorded under a 64 KiB budget")
        #expect(budget.builtBytes < 2 * (64 << 10), "\(budget.builtBytes) bytes charged after the read was stopped")
    }

    /// The fuzz input itself (read alone, without the file its `$ref` names). Its copies came
    /// from groups extending the groups that hold them, a cycle the format forbids: that is now
    /// reported at once and nothing is copied, so the read no longer reaches its budget; what it
    /// built stays far within it.
    @Test func theExtendsInputTheFuzzerFoundIsReadWithoutGrowing() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../fuzz/slow/tokens-extends-long-names.json")
        let bytes = try [UInt8](Data(contentsOf: url))
        let budget = ReadBudget(inputBytes: bytes.count)
        let (palette, problems) = ReadBudget.withBudget(budget) { PaletteDecoder.decode(bytes: bytes, file: "tokens.json") }
        #expect(problems.contains { $0.code == .extendsCycle }, "\(problems.map(\.message))")
        #expect(budget.problem == nil && (palette?.themes.first?.tokens.count ?? 0) < 100)
        #expect(budget.builtBytes < budget.maximumBytes / 8, "\(budget.builtBytes) bytes charged under \(budget.maximumBytes)")
    }
}
