import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// What a request builds from what it read (an audit's checks and results, a token listing)
/// is charged to the request's budget, up to its cap (`--max-request-memory`), before or as
/// it is built: past it, the work stops with one problem that names what grew.
@Suite struct RequestMemoryTests {
    /// A palette of 120 foregrounds and 120 backgrounds and one rule over them: 14,400 checks.
    static func pairs(_ count: Int = 120) throws -> Palette {
        let tokens = (0..<count).map { "\"fg.\($0)\": \"#\(String(format: "%06x", $0 * 311))\", \"bg.\($0)\": \"#\(String(format: "%06x", 0xffffff - $0 * 977))\"" }.joined(separator: ", ")
        let text = "{\"name\": \"pairs\", \"themes\": {\"light\": {\"tokens\": {\(tokens)}}}, \"checks\": [{\"id\": \"all\", \"foreground\": \"fg.*\", \"background\": \"bg.*\"}]}"
        let (palette, problems) = PaletteDecoder.decode(text, file: "pairs.json")
        #expect(problems.isEmpty)
        return try #require(palette)
    }

    @Test func chargesCountAgainstTheReadOrTheRequest() {
        // A kilobyte's read may build 8 MiB; the request, its cap.
        let budget = ReadBudget(inputBytes: 1_000, maximumBytes: 64 << 20)
        #expect(budget.charge(6 << 20, for: "six", against: .read))
        #expect(!budget.charge(3 << 20, for: "the ledger", against: .read))
        #expect(budget.problem?.message.hasPrefix("the ledger would take more than 8 MiB, the memory a read of this size may build") == true)
        let request = ReadBudget(inputBytes: 1_000, maximumBytes: 64 << 20)
        #expect(request.charge(60 << 20, for: "sixty"))
        #expect(!request.charge(5 << 20, for: "the results"))
        #expect(request.problem?.message == "the results would take more than 64 MiB, the memory one request may build (64 MiB, --max-request-memory); it is refused rather than built")
        #expect(request.isExhausted)
        // With no budget installed, nothing is charged.
        #expect(ReadBudget.charge(1 << 40, for: "anything"))
    }

    @Test func theAuditsChecksAndResultsAreCharged() throws {
        let palette = try Self.pairs()
        let roomy = ReadBudget(maximumSteps: .max, maximumBytes: 1 << 30)
        let whole = ReadBudget.withBudget(roomy) { Auditor().audit(palette) }
        #expect(whole.problems.isEmpty && whole.summary.checks == 14_400)
        #expect(roomy.builtBytes > 14_400 * MemoryLayout<CheckResult>.stride)
        // The plan is charged before any check is measured ...
        let small = ReadBudget(maximumSteps: .max, maximumBytes: 64 << 10)
        let planned = ReadBudget.withBudget(small) { Auditor().audit(palette) }
        #expect(planned.themes.count == 0 && planned.problems.map(\.code) == [.limitExceeded])
        #expect(planned.problems.first?.message.hasPrefix("the audit's checks (14400 planned by theme 'light', themes × checks × expanded rules) would take more than 64 KiB") == true, "\(planned.problems)")
        // ... and the results as they are measured: half of what the audit takes in all stops
        // it part way through its results.
        let short = ReadBudget(maximumSteps: .max, maximumBytes: roomy.builtBytes / 2)
        let measured = ReadBudget.withBudget(short) { Auditor().audit(palette) }
        #expect(measured.themes.count == 0)
        let message = measured.problems.first?.message ?? ""
        #expect(message.hasPrefix("the audit's results (") && message.contains(" measured of 14400) would take more than"), "\(message)")
    }

    /// The listing charges each theme before it builds it; it refuses before any theme when
    /// its themes would resolve more tokens than an audit may, or when its JSON, at the least,
    /// would be larger than the answer's ceiling.
    @Test func aTokenListingIsBoundedBeforeItIsBuilt() throws {
        func inheriting(themes: Int, tokens: Int) throws -> Palette {
            var text = "{\"name\": \"bomb\", \"themes\": {\"base\": {\"tokens\": {"
            text += (0..<tokens).map { "\"t\($0)\": \"#\(String(format: "%06x", $0 * 37))\"" }.joined(separator: ",") + "}}"
            for i in 0..<themes { text += ", \"x\(i)\": {\"extends\": \"base\", \"tokens\": {}}" }
            let (palette, _) = PaletteDecoder.decode(text + "}}", file: "bomb.json")
            return try #require(palette)
        }
        let wide = try inheriting(themes: 300, tokens: 1_000)
        let ceiling = OutputCeiling(limit: 1 << 20)
        let capped = OutputCeiling.with(ceiling) { TokenListing(wide) }
        #expect(capped.themes.isEmpty && ceiling.isExceeded && ceiling.largest > 1 << 20)
        #expect(capped.stopped?.message.hasPrefix("the listing would be more than 1 MiB of JSON; the limit is 1 MiB") == true, "\(String(describing: capped.stopped))")
        // Under the ceiling, the request's budget: charged theme by theme.
        let budget = ReadBudget(maximumSteps: .max, maximumBytes: 1 << 20)
        let charged = ReadBudget.withBudget(budget) { TokenListing(wide) }
        #expect(charged.themes.isEmpty && charged.stopped == budget.problem)
        #expect(budget.problem?.message.hasPrefix("the token listing (theme 'x") == true, "\(String(describing: budget.problem))")
        // More tokens resolved across themes than an audit may: refused whatever the caller.
        let many = try inheriting(themes: 200, tokens: 3_000)
        let refused = TokenListing(many)
        #expect(refused.themes.isEmpty)
        #expect(refused.stopped?.message.hasPrefix("the listing would resolve more than 500000 tokens across its themes (each theme lists the tokens it inherits again; 167 of 201 themes reach 501000)") == true,
                "\(String(describing: refused.stopped))")
        // A listing within every bound is whole.
        let fits = try inheriting(themes: 3, tokens: 100)
        let listing = OutputCeiling.with(OutputCeiling(limit: 1 << 20)) { TokenListing(fits) }
        #expect(listing.stopped == nil && listing.themes.count == 4 && listing.themes[1].inherited.count == 100)
    }
}
