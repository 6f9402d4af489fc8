public import ColorScience
import TokenSources
import Dispatch

/// Many pairs measured at once, on every core, the answers in the order of the pairs: the one
/// batch engine behind `contrast check --batch` (JSON Lines in, one JSON object a line out)
/// and `POST /v1/contrast` (`{"pairs": [...]}` in, `{"results": [...]}` out).
///
/// A pair that cannot be measured is an error object in its place, and the rest go on: on a
/// line, `{"code", "error", "line"}`; in a list, `{"code", "error", "id", "pointer"}`. The code
/// is the ``RequestError/Code`` (or ``JSONParser/SyntaxError/Code``, or `line-too-long`).
public struct PairBatch: Sendable {
    /// The requirement of a pair that names none (`--usage`, `--level`).
    public var requirement: ContrastRequirement
    /// The color scheme of a pair that names none (`--scheme`).
    public var scheme: ColorScheme?
    /// The threads a long batch is split among.
    public var threads: Int

    public init(requirement: ContrastRequirement = ContrastRequirement(usage: .text), scheme: ColorScheme? = nil, threads: Int = 1) {
        self.requirement = requirement
        self.scheme = scheme
        self.threads = max(1, threads)
    }

    /// The code of a line longer than ``maximumLineBytes``.
    public static let lineTooLong = "line-too-long"
    /// The longest line a JSON Lines batch reads; a longer one is reported once and skipped.
    public static let maximumLineBytes = 1 << 20

    /// What a batch found, for the exit status: whether any pair failed its requirement, and
    /// whether any line or pair was an error.
    public struct Outcome: Hashable, Sendable {
        public var anyFail = false
        public var anyError = false
        public var lines = 0

        public init() {}
    }

    // MARK: A list

    /// `{"results": [...]}` for `pairs`, in their order; a list of at least `minimumPart`
    /// pairs a thread is split among the threads.
    /// With `cancelled` (a request's deadline), a list whose parts have not all started when it
    /// says yes is not finished: the answer is nil.
    public func results(_ pairs: [PairRequest], minimumPart: Int = 1_000, cancelled: @Sendable () -> Bool = { false }) -> [UInt8]? {
        let parts = Parallel.parts(items: pairs.count, minimum: minimumPart, threads: threads)
        let measured = Parallel.map(parts, cancelled: cancelled) { k in
            let range = (k * pairs.count / parts)..<((k + 1) * pairs.count / parts)
            // Each entry laid out at the end of the part's bytes, separated by commas: the part
            // is the array the answer joins, not a copy of a writer's buffer.
            var part: [UInt8] = []
            for index in range {
                if index > range.lowerBound { part.append(0x2C) }
                listEntry(pairs[index], index: index, to: &part)
            }
            return part
        }
        guard let answers = measured else { return nil }
        // `{"results":[…]}`, the parts joined with commas into the one buffer reserved for the
        // whole answer (through a writer, the answer would be built whole twice).
        var out: [UInt8] = []
        out.reserveCapacity(answers.reduce(16) { $0 + $1.count + 1 })
        out.append(contentsOf: #"{"results":["#.utf8)
        var first = true
        for part in answers where !part.isEmpty {
            if !first { out.append(0x2C) }
            out.append(contentsOf: part)
            first = false
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// One pair of a list, or its error entry, appended to a part's bytes (a part's values are
    /// joined with commas, so the parts join into one array).
    private func listEntry(_ pair: PairRequest, index: Int, to part: inout [UInt8]) {
        do throws(RequestError) {
            try measure(pair).appendJSON(to: &part, id: pair.id)
        } catch {
            JSONWriter.append(to: &part) { w in
                w.object { w in
                    w.key("code"); w.string(error.code.rawValue)
                    w.key("error"); w.string(error.message)
                    if let id = pair.id { w.key("id"); w.string(id) }
                    w.key("pointer"); w.string("/pairs/\(index)/\(error.field)")
                }
            }
        }
    }

    /// The pair, in ``scheme`` when it names no scheme of its own.
    private func measure(_ pair: PairRequest) throws(RequestError) -> PairReport {
        var pair = pair
        if pair.scheme == nil, let scheme { pair.scheme = scheme.rawValue }
        return try pair.evaluate(defaults: requirement)
    }

    // MARK: JSON Lines

    /// Reads JSON Lines with `read` and hands the answers, one line each, in the order of the
    /// lines, to `write`, which runs on a thread of its own while the next lines are read and
    /// measured (at most two blocks wait for it, so memory stays bounded however fast the
    /// input comes). Every answer already measured is written before this returns, whatever
    /// ends the batch.
    ///
    /// - Parameters:
    ///   - read: fills the start of the buffer it is given and returns how many bytes it put
    ///     there; 0 at the end of the input.
    ///   - write: takes the next block of answers.
    public func runLines(read: (UnsafeMutableBufferPointer<UInt8>) throws -> Int,
                         write: @escaping @Sendable ([UInt8]) -> Void) rethrows -> Outcome {
        var lines = LineWriter(batch: self, output: OrderedOutput(write))
        defer {
            lines.flush()
            lines.output?.finish()
        }
        // Lines are found in place in one buffer; what remains of a chunk moves to the front
        // once per read, not once per line.
        var buffer = [UInt8](repeating: 0, count: PairBatch.maximumLineBytes)
        var filled = 0
        var skippingLongLine = false
        while true {
            if filled == buffer.count {
                // A whole buffer without a newline: the line is too long. Report it once and
                // skip to its end.
                if !skippingLongLine {
                    lines.lineNumber += 1
                    lines.error(PairBatch.lineTooLong, "the line is longer than 1 MiB")
                }
                skippingLongLine = true
                filled = 0
            }
            let count = try buffer.withUnsafeMutableBufferPointer { try read(UnsafeMutableBufferPointer(rebasing: $0[filled...])) }
            if count <= 0 { break }
            var start = 0
            let end = filled + count
            if skippingLongLine {
                guard let newline = buffer[filled..<end].firstIndex(of: 0x0A) else {
                    filled = 0
                    continue
                }
                skippingLongLine = false
                start = newline + 1
            }
            // Every complete line of what was read goes to the writer at once.
            if let last = buffer[start..<end].lastIndex(of: 0x0A) {
                buffer.withUnsafeBufferPointer { lines.processLines(UnsafeBufferPointer(rebasing: $0[start..<last])) }
                start = last + 1
            }
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    base.copyMemory(from: base + start, byteCount: end - start)  // (a memmove: they may overlap)
                }
            }
            filled = end - start
        }
        if filled > 0 && !skippingLongLine {
            buffer.withUnsafeBufferPointer { lines.processLines(UnsafeBufferPointer(rebasing: $0[0..<filled])) }
        }
        return lines.outcome
    }
}

/// The answers of JSON Lines, buffered and written in large blocks. A large block of lines is
/// split among the threads, at line ends; the answers keep the order of the lines.
private struct LineWriter: Sendable {
    let batch: PairBatch
    var lineNumber = 0
    var anyFail = false
    var anyError = false
    private var out: [UInt8] = []
    /// Where the answers go, in order; nil in a part measured on another thread, which keeps
    /// its answers for its caller.
    let output: OrderedOutput?

    init(batch: PairBatch, output: OrderedOutput?) {
        self.batch = batch
        self.output = output
        out.reserveCapacity(1 << 17)
    }

    var outcome: PairBatch.Outcome {
        var outcome = PairBatch.Outcome()
        outcome.anyFail = anyFail
        outcome.anyError = anyError
        outcome.lines = lineNumber
        return outcome
    }

    /// Measures the lines of `block` (separated by newlines; the last one without its newline)
    /// and writes their answers.
    mutating func processLines(_ block: UnsafeBufferPointer<UInt8>) {
        // Parts of at least 64 KiB, each ending at a line's end.
        let parts = Parallel.parts(items: block.count, minimum: 1 << 16, threads: batch.threads)
        guard parts > 1 else {
            processSerially(block, streaming: true)
            return
        }
        var bounds = [0]
        for k in 1..<parts {
            let from = max(bounds[bounds.count - 1], block.count * k / parts)
            guard let newline = block[from...].firstIndex(of: 0x0A) else { break }
            bounds.append(newline + 1)
        }
        bounds.append(block.count + 1)  // the last line has no newline in the block
        // Part k is block[bounds[k] ..< bounds[k + 1] − 1], without the newline that ends it.
        var templates: [LineWriter] = []
        var firstLine = lineNumber
        for k in 0..<(bounds.count - 1) {
            var writer = LineWriter(batch: batch, output: nil)
            writer.lineNumber = firstLine
            templates.append(writer)
            firstLine += 1 + block[bounds[k]..<(bounds[k + 1] - 1)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        let partBounds = bounds, parts0 = templates
        nonisolated(unsafe) let block = block  // read only, by every thread
        let writers = Parallel.map(parts0.count) { k in
            var writer = parts0[k]
            writer.processSerially(UnsafeBufferPointer(rebasing: block[partBounds[k]..<(partBounds[k + 1] - 1)]), streaming: false)
            return writer
        }
        flush()
        for writer in writers {
            output?.send(writer.out)  // each part's answers as they are, without a copy
            anyFail = anyFail || writer.anyFail
            anyError = anyError || writer.anyError
        }
        lineNumber = firstLine
    }

    /// The lines of `block` one after the other; `streaming` writes the answers out as the
    /// buffer fills.
    private mutating func processSerially(_ block: UnsafeBufferPointer<UInt8>, streaming: Bool) {
        var start = 0
        while true {
            let end = block[start...].firstIndex(of: 0x0A) ?? block.count
            process(UnsafeBufferPointer(rebasing: block[start..<end]))
            if streaming && out.count >= 1 << 16 { flush() }
            if end == block.count { break }
            start = end + 1
        }
    }

    private mutating func process(_ line: UnsafeBufferPointer<UInt8>) {
        lineNumber += 1
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        // The common line is read in place; any other goes through the full JSON reader, which
        // words the errors.
        var pair: PairRequest
        if let simple = PairRequest(simpleLine: line) {
            pair = simple
        } else {
            let value: JSONValue
            do {
                value = try JSONParser.parse(Array(line))
            } catch {
                return self.error(error.code.rawValue, "not valid JSON at column \(error.location.column): \(error.message)")
            }
            do {
                pair = try PairRequest(json: value)
            } catch {
                return self.error(error.code.rawValue, error.message)
            }
        }
        do {
            if pair.scheme == nil, let scheme = batch.scheme { pair.scheme = scheme.rawValue }
            let report = try pair.evaluate(defaults: batch.requirement)
            if !report.pass { anyFail = true }
            report.appendJSON(to: &out, id: pair.id)
            out.append(0x0A)
        } catch {
            self.error(error.code.rawValue, error.message)
        }
    }

    /// `{"code", "error", "line"}` for the current line.
    mutating func error(_ code: String, _ message: String) {
        anyError = true
        let line = lineNumber
        JSONWriter.append(to: &out) { w in
            w.object { w in
                w.key("code"); w.string(code)
                w.key("error"); w.string(message)
                w.key("line"); w.int(line)
            }
        }
        out.append(0x0A)
    }

    mutating func flush() {
        guard !out.isEmpty, let output else { return }
        output.send(out)
        out = []
        out.reserveCapacity(1 << 17)
    }
}

/// Blocks handed to `write` on a thread of its own, in the order they are given, so a block's
/// answers are written while the next block is read and measured (the writes were a fifth of
/// a batch's time, with the cores idle). At most two blocks wait, so memory stays bounded.
private final class OrderedOutput: Sendable {
    private let queue = DispatchQueue(label: "contrast.batch.output")
    private let slots = DispatchSemaphore(value: 2)
    private let write: @Sendable ([UInt8]) -> Void

    init(_ write: @escaping @Sendable ([UInt8]) -> Void) {
        self.write = write
    }

    func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        slots.wait()
        queue.async { [slots, write] in
            write(bytes)
            slots.signal()
        }
    }

    /// Waits until everything given is written.
    func finish() {
        queue.sync {}
    }
}
