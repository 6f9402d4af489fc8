import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Synchronization
import Testing
import TestSupport

/// ``PairBatch``: the one batch engine of `check --batch` and `POST /v1/contrast`.
@Suite struct PairBatchTests {
    /// Feeds `input` to ``PairBatch/runLines(read:write:)`` in reads of at most `chunk` bytes
    /// and returns what it wrote, in order.
    func run(_ input: [UInt8], chunk: Int = 1 << 20, batch: PairBatch = PairBatch()) -> (String, PairBatch.Outcome) {
        let written = Mutex<[UInt8]>([])
        var offset = 0
        let outcome = batch.runLines(read: { buffer in
            let count = min(chunk, buffer.count, input.count - offset)
            for i in 0..<count { buffer[i] = input[offset + i] }
            offset += count
            return count
        }, write: { bytes in written.withLock { $0 += bytes } })
        return (String(decoding: written.withLock { $0 }, as: UTF8.self), outcome)
    }

    func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func answersEveryLineInOrderWithErrorsInPlace() throws {
        let input = """
            {"fg":"#777","bg":"#fff"}

            not json
            {"fg":"#12","bg":"#fff","id":"x"}
            {"bg":"#fff"}
            {"fg":"#000","bg":"#fff","colour":"x"}
            {"fg":"#000","bg":"#fff","id":7}
            {"fg":"#777","foreground":"#000","bg":"#fff"}
            {"fg":"#777","background":"#fff","bg":"#000"}
            """
        let (text, outcome) = run(Array(input.utf8))
        let lines = try objects(text)
        #expect(lines.count == 8)  // the blank line has no answer
        // A field under both its names is refused, never read as either.
        #expect(lines[6]["code"] as? String == "repeated-field" && lines[6]["line"] as? Int == 8)
        #expect(lines[6]["error"] as? String == #"/foreground repeats "fg": "fg" and "foreground" name one field; give it once"#)
        #expect(lines[7]["code"] as? String == "repeated-field" && lines[7]["line"] as? Int == 9)
        #expect(lines[0]["display"] as? String == "4.47:1" && lines[0]["pass"] as? Bool == false)
        #expect(lines[1]["code"] as? String == "invalid-json" && lines[1]["line"] as? Int == 3)
        #expect(lines[2]["code"] as? String == "invalid-color" && lines[2]["line"] as? Int == 4)
        #expect(lines[3]["code"] as? String == "missing-field" && lines[3]["error"] as? String == "missing \"fg\" (the foreground color)")
        #expect(lines[4]["code"] as? String == "unknown-field" && lines[4]["line"] as? Int == 6)
        #expect(lines[5]["id"] as? String == "7" && lines[5]["pass"] as? Bool == true)
        #expect(outcome.anyError && outcome.anyFail && outcome.lines == 9)
    }

    /// The parts measured on other threads join into the answers one thread gives, whatever
    /// the reads' sizes (a line split between two reads included).
    @Test func partsOnManyThreadsGiveWhatOneThreadGives() throws {
        var generator = SeededGenerator(seed: 41)
        var input: [UInt8] = []
        for index in 0..<12_000 {
            let fg = String(UInt32.random(in: 0...0xFFFFFF, using: &generator), radix: 16)
            input += Array((index % 997 == 0 ? "{\"fg\":\"#zz\",\"bg\":\"#fff\"}\n" : "{\"fg\":\"#\(fg)\",\"bg\":\"#fff\"}\n").utf8)
        }
        let (one, oneOutcome) = run(input, batch: PairBatch(threads: 1))
        for (threads, chunk) in [(4, 1 << 20), (3, 4093), (8, 65_537)] {
            let (many, outcome) = run(input, chunk: chunk, batch: PairBatch(threads: threads))
            #expect(many == one, "\(threads) threads, reads of \(chunk) bytes (\(generator.replay))")
            #expect(outcome == oneOutcome)
        }
        #expect(one.split(separator: "\n").count == 12_000)
    }

    @Test func aLineLongerThanTheBufferIsReportedOnceAndSkipped() throws {
        var input = Array("{\"fg\":\"#000\",\"bg\":\"#fff\"}\n".utf8)
        input += [UInt8](repeating: UInt8(ascii: "x"), count: PairBatch.maximumLineBytes + 10) + [0x0A]
        input += Array("{\"fg\":\"#fff\",\"bg\":\"#000\"}".utf8)  // the last line has no newline
        let (text, outcome) = run(input, chunk: 1 << 16)
        let lines = try objects(text)
        #expect(lines.count == 3)
        #expect(lines[1]["code"] as? String == PairBatch.lineTooLong && lines[1]["line"] as? Int == 2)
        #expect(lines[2]["ratio"] as? Double == 21 && outcome.lines == 3)
    }

    @Test func theSchemeAndRequirementApplyToLinesThatNameNone() throws {
        let input = Array("{\"fg\":\"light-dark(#000, #fff)\",\"bg\":\"#777\"}\n{\"fg\":\"light-dark(#000, #fff)\",\"bg\":\"#777\",\"scheme\":\"light\"}\n".utf8)
        let (text, _) = run(input, batch: PairBatch(requirement: ContrastRequirement(usage: .largeText, level: .AAA), scheme: .dark))
        let lines = try objects(text)
        #expect(lines[0]["foreground"] as? String == "#ffffff" && lines[0]["usage"] as? String == "large-text" && lines[0]["level"] as? String == "AAA")
        #expect(lines[1]["foreground"] as? String == "#000000")
    }

    @Test func aCancelledListIsNotFinished() {
        let pairs = (0..<5_000).map { PairRequest(foreground: "#777777", background: "#ffffff", id: String($0)) }
        #expect(PairBatch(threads: 4).results(pairs, minimumPart: 100, cancelled: { true }) == nil)
        #expect(PairBatch(threads: 4).results(pairs, minimumPart: 100, cancelled: { false }) != nil)
    }

    @Test func aListKeepsItsOrderAcrossPartsWithErrorEntriesInPlace() throws {
        var pairs: [PairRequest] = []
        for index in 0..<5_000 {
            pairs.append(PairRequest(foreground: index % 1_001 == 0 ? "#12" : "#\(String(format: "%06x", index * 3301 % 0xFFFFFF))", background: "#fff", id: String(index)))
        }
        let one = try #require(PairBatch(threads: 1).results(pairs, minimumPart: 100))
        let many = try #require(PairBatch(threads: 4).results(pairs, minimumPart: 100))
        #expect(one == many)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(many)) as? [String: Any])
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(results.count == 5_000)
        #expect(results.enumerated().allSatisfy { $1["id"] as? String == String($0) })
        #expect(results[1_001]["code"] as? String == "invalid-color" && results[1_001]["pointer"] as? String == "/pairs/1001/fg")
        #expect(PairBatch().results([]) == Array("{\"results\":[]}".utf8))
    }
}

/// ``Parallel``: the parallel map keeps the order of its parts, however they are scheduled.
@Suite struct ParallelTests {
    @Test func resultsComeInTheOrderOfTheParts() {
        for count in [0, 1, 2, 7, 64] {
            let results = Parallel.map(count) { k in
                // Uneven work, so later parts often finish first.
                var x = 0
                for i in 0..<((count - k) * 2_000) { x &+= i }
                return (k, x)
            }
            #expect(results.map(\.0) == Array(0..<count))
        }
    }

    @Test func everyPartRunsOnce() {
        let runs = Mutex<[Int: Int]>([:])
        _ = Parallel.map(100) { k in runs.withLock { $0[k, default: 0] += 1 } }
        #expect(runs.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, 1) }))
    }

    @Test func aCancelledMapStartsNoMorePartsAndAnswersNil() {
        let started = Atomic<Int>(0)
        // Cancelled once a part has run: the parts that had not started by then do not run.
        let answer = Parallel.map(1_000, cancelled: { started.load(ordering: .relaxed) > 0 }) { k -> Int in
            started.wrappingAdd(1, ordering: .relaxed)
            return k
        }
        #expect(answer == nil)
        #expect(started.load(ordering: .relaxed) < 1_000)
        #expect(Parallel.map(10, cancelled: { false }) { $0 } == Array(0..<10))
    }

    @Test(arguments: [(0, 1000, 4, 1), (999, 1000, 4, 1), (2000, 1000, 4, 2), (100_000, 1000, 4, 4), (5000, 0, 2, 2), (10, 1, 1, 1)])
    func partsAreOneACoreEachAtLeastTheMinimum(items: Int, minimum: Int, threads: Int, expected: Int) {
        #expect(Parallel.parts(items: items, minimum: minimum, threads: threads) == expected)
    }
}

/// A pair's report is written two ways: laid out from literal fragments in the compact layout (a
/// batch writes millions) and through the writer's ordinary calls in the others. They must give
/// the same bytes, for every optional part of the report.
@Suite struct PairReportLayoutTests {
    @Test func theLaidOutReportIsTheOrdinaryOneByteForByte() throws {
        let pairs: [PairRequest] = [
            PairRequest(foreground: "#777", background: "#fff", id: "plain"),
            PairRequest(foreground: "rgb(0 0 0 / 0.5)", background: "#fff", backdrop: "#000", usage: "large-text", level: "AAA"),
            PairRequest(foreground: "#fff", background: "rgb(0 0 255 / 0.4)"),
            PairRequest(foreground: "color(display-p3 1 0 0)", background: "oklch(0.9 0.3 140)", usage: "non-text", id: "gamut \"quoted\"\n"),
            PairRequest(foreground: "#d32f2f", background: "#388e3c", level: "AA"),
            PairRequest(foreground: "light-dark(#000, #fff)", background: "#777", scheme: "dark"),
        ]
        var seen: Set<String> = []
        for pair in pairs {
            let report = try pair.evaluate()
            let laidOut = JSONWriter.compact { report.writeLaidOut(&$0, id: pair.id) }
            let ordinary = JSONWriter.compact { report.writeMembers(&$0, id: pair.id) }
            #expect(String(decoding: laidOut, as: UTF8.self) == String(decoding: ordinary, as: UTF8.self))
            // Appended to a batch's bytes, it is laid out there with no writer: the same bytes.
            var appended: [UInt8] = Array("x\n".utf8)
            report.appendJSON(to: &appended, id: pair.id)
            #expect(appended == Array("x\n".utf8) + ordinary)
            #expect(report.jsonBytes(id: pair.id) == ordinary)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(laidOut)) as? [String: Any])
            seen.formUnion(object.keys)
            // Inside an array, the separator comes before each report, as for any value.
            let twice = JSONWriter.compact { w in w.array { w in report.write(&w, id: pair.id); report.write(&w, id: pair.id) } }
            #expect(twice == Array("[".utf8) + laidOut + Array(",".utf8) + laidOut + Array("]".utf8))
        }
        for key in ["backdrop", "composited", "range", "outOfGamut", "id", "required"] { #expect(seen.contains(key), "no report had \(key)") }
    }

    /// The laid-out report is written into room counted beforehand: every string at its
    /// longest escaped (a control character becomes six bytes) must still fit, and still match
    /// the ordinary writer's escaping.
    @Test func everyStringAtItsLongestEscapedFitsTheRoomCounted() throws {
        let worst = String(repeating: "\u{01}\"\\", count: 30)
        let pairs: [PairRequest] = [
            PairRequest(foreground: "rgb(0 0 0 / 0.5)", background: "#fff", backdrop: "#000"),
            PairRequest(foreground: "#fff", background: "rgb(0 0 255 / 0.4)"),
            PairRequest(foreground: "color(display-p3 1 0 0)", background: "oklch(0.9 0.3 140)"),
        ]
        for pair in pairs {
            var report = try pair.evaluate()
            report.foreground = worst; report.background = worst; report.display = worst
            report.achieved = worst; report.usage = worst; report.level = worst
            if report.backdrop != nil { report.backdrop = worst }
            if report.composited != nil { report.composited = CompositedPair(foreground: worst, background: worst) }
            if report.outOfGamut != nil { report.outOfGamut = [worst, worst] }
            if let range = report.range { report.range = RatioRange(worst: range.worst, best: range.best, worstBackdrop: worst, bestBackdrop: worst) }
            report.cvd?.deficiencies = [worst, worst, worst]
            report.cvd?.deficiency = worst; report.cvd?.display = worst; report.cvd?.verdict = worst
            report.cvd?.foreground = worst; report.cvd?.background = worst
            report.apca = -1.2345678901234567e-300; report.ratio = 1.2345678901234567e-300
            let laidOut = JSONWriter.compact { report.writeLaidOut(&$0, id: worst) }
            let ordinary = JSONWriter.compact { report.writeMembers(&$0, id: worst) }
            #expect(laidOut == ordinary)
            #expect(String(decoding: laidOut, as: UTF8.self).contains(#"\u0001\"\\"#))
        }
    }

    /// A laid-out value that would pass the room counted for it stops the process instead of
    /// writing past the buffer.
    @Test func aCursorNeverWritesPastItsRoom() async {
        await #expect(processExitsWith: .failure) {
            _ = JSONWriter.compact { $0.laidOut(bound: 4) { $0.fragment("12345") } }
        }
        let fits = JSONWriter.compact { $0.laidOut(bound: 5) { $0.fragment("12345") } }
        #expect(fits == Array("12345".utf8))
    }
}

