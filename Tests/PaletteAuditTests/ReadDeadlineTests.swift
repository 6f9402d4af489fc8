import Foundation
import PaletteAudit
import TokenSources
import Testing

/// A run's deadline (the CLI's `--deadline`) stops every read that makes its own budget, as a
/// request's deadline stops a posted document's read, and names itself and the place.
@Suite struct ReadDeadlineTests {
    /// A `$ref` fan-out: 2^22 paths to one color, a kilobyte of JSON.
    static let fanOut: String = {
        var tree = ["l22": "{\"$type\": \"color\", \"$value\": \"#000000\"}"]
        for level in (0..<22).reversed() {
            let next = "{\"$ref\": \"#/l\(level + 1)\"}"
            tree["l\(level)"] = "{\"x\": \(next), \"y\": \(next)}"
        }
        return "{" + tree.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    }()

    @Test func aPassedDeadlineStopsTheReadAndNamesItselfAndThePlace() throws {
        let deadline = ReadBudget.Deadline(seconds: 0, name: "the --deadline of 0 s")
        #expect(deadline.hasPassed)
        let (palette, problems) = ReadBudget.withDeadline(deadline) {
            PaletteDecoder.decode(Self.fanOut, file: "fan-out.tokens.json")
        }
        #expect(palette == nil)
        let stop = try #require(deadline.firstStop)
        #expect(problems.contains(stop))
        #expect(stop.file == "fan-out.tokens.json" && stop.location != nil)
        #expect(stop.message.hasPrefix("the --deadline of 0 s passed while reading "), "\(stop.message)")
    }

    @Test func aDeadlineNotYetPassedChangesNothing() {
        let deadline = ReadBudget.Deadline(seconds: 3600, name: "the --deadline of 3600 s")
        let bounded = ReadBudget.withDeadline(deadline) { PaletteDecoder.decode(Self.fanOut, file: "f.json") }
        let plain = PaletteDecoder.decode(Self.fanOut, file: "f.json")
        #expect(deadline.firstStop == nil)
        #expect(bounded.problems.map(\.message) == plain.problems.map(\.message))
        // Without a deadline the read budget stops it, as before.
        #expect(plain.problems.contains { $0.message.contains("the budget for an input of this size") })
    }

    @Test func anOuterBudgetKeepsItsOwnStop() {
        // A request's read installs its budget first: the run's deadline is not asked there.
        let deadline = ReadBudget.Deadline(seconds: 0, name: "the --deadline of 0 s")
        let budget = ReadBudget(inputBytes: Self.fanOut.utf8.count)
        _ = ReadBudget.withDeadline(deadline) {
            ReadBudget.withBudget(budget) { PaletteDecoder.decode(Self.fanOut, file: "f.json") }
        }
        #expect(deadline.firstStop == nil)
        #expect(budget.problem?.message.contains("--deadline") == false)
    }
}
