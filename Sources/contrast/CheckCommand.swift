import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Measure one color pair (or many, with --batch).",
        discussion: """
            Prints the WCAG ratio (floored, so a failure never shows as a pass), the verdict for every usage and level, the best level reached and APCA Lc. Colors are any CSS color: '#767676', 'rebeccapurple', 'oklch(0.6 0.1 250)', 'rgb(0 0 0 / 50%)', 'color-mix(in oklch, #0969da 60%, white)', 'rgb(from #0969da r g b / 50%)'. A 'light-dark(A, B)' color is measured in the --scheme given, or else in both schemes (the pair must pass in both).

            Exit status: 0 when the pair meets the asked usage and level, 1 when it does not,
            2 for bad input.

            Examples:
              contrast check '#767676' white
              contrast check '#2563eb' '#0f172a' --usage large-text --level AAA
              contrast check 'rgb(0 0 0 / 60%)' white --format json
              contrast check white 'rgb(0 0 0 / 50%)' --backdrop '#2563eb'
              contrast check 'light-dark(#1f2328, #f0f6fc)' 'light-dark(#ffffff, #0d1117)'
              printf '{"fg":"#777","bg":"#fff"}\\n' | contrast check --batch -
            """
    )

    @Argument(help: "Foreground (text) color.")
    var foreground: String?

    @Argument(help: "Background color.")
    var background: String?

    @Option(help: "Font size, like 16px or 12pt: decides large text with --weight.")
    var size: String?

    @Option(help: "Font weight (400 regular, 700 bold).")
    var weight: Int = 400

    @Option(help: "What the pair is used for.")
    var usage: ContrastUsage = .text

    @Option(help: "Required level.")
    var level: WCAGLevel = .AA

    @Option(help: "The opaque surface a translucent background sits on. Without it, a translucent background gives the range over every backdrop.")
    var backdrop: String?

    @Option(help: "The color scheme light-dark() colors are read in (light or dark); without it, a pair that uses light-dark() is measured in both.")
    var scheme: ColorScheme?

    @Option(help: "Output format.")
    var format: OutputFormat = .text

    @Option(help: "Read JSON Lines {\"fg\": …, \"bg\": …} from FILE (or - for standard input) and write one JSON object per line.")
    var batch: String?

    func validate() throws {
        if usage.isExempt {
            throw ValidationError("--usage must be text, large-text or non-text, not '\(usage)': WCAG sets no requirement for \(usage) pairs to check against.")
        }
        if batch == nil && (foreground == nil || background == nil) {
            throw ValidationError("Give a foreground and a background color (or --batch FILE).")
        }
        if batch != nil && foreground != nil {
            throw ValidationError("--batch reads its pairs from the file; do not also give colors as arguments.")
        }
    }

    func requirement() throws -> ContrastRequirement {
        var usage = self.usage
        if let size {
            guard let fontSize = FontSize(parsing: size) else { throw InputError("--size must be a size like 16px or 12pt, not '\(size)'") }
            if usage == .text && fontSize.isLargeText(weight: weight) { usage = .largeText }
        }
        return ContrastRequirement(usage: usage, level: level)
    }

    static func parse(_ text: String, what: String, scheme: ColorScheme?) throws -> ParsedColor {
        do {
            return try CSSColor.parse(text, scheme: scheme)
        } catch {
            throw InputError("\(what): \(error)")
        }
    }

    func run() throws {
        let requirement = try requirement()
        if let batch { return try runBatch(batch, requirement: requirement) }
        guard let foreground, let background else { return }
        // The pair as the service reads it: without --scheme, a pair that uses light-dark() is
        // measured in both schemes (PairRequest.evaluateInEveryScheme).
        let request = PairRequest(foreground: foreground, background: background, backdrop: backdrop, usage: nil, level: nil, scheme: scheme?.rawValue)
        let measured: [(scheme: ColorScheme?, report: PairReport)]
        do throws(RequestError) {
            measured = try request.evaluateInEveryScheme(defaults: requirement)
        } catch {
            // Named as the command line names them.
            let names = ["fg": "foreground", "bg": "background"]
            var message = error.message
            if let name = names[error.field], message.hasPrefix(error.field + ":") { message = name + message.dropFirst(error.field.count) }
            throw InputError(message)
        }
        let reports = try measured.map { entry in
            (scheme: entry.scheme, report: entry.report,
             fg: try Self.parse(foreground, what: "foreground", scheme: entry.scheme), bg: try Self.parse(background, what: "background", scheme: entry.scheme))
        }
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            if reports.count == 1 {
                try Terminal.emit(try encoder.encode(reports[0].report) + Data([0x0A]), to: nil)
            } else {
                // One report per scheme: {"dark": {...}, "light": {...}}.
                let bySchemes = Dictionary(uniqueKeysWithValues: reports.map { ($0.scheme!.rawValue, $0.report) })
                try Terminal.emit(try encoder.encode(bySchemes) + Data([0x0A]), to: nil)
            }
        } else {
            for (index, entry) in reports.enumerated() {
                if reports.count > 1 { print((index > 0 ? "\n" : "") + "in a \(entry.scheme!.rawValue) color scheme (light-dark())") }
                print(Self.text(entry.report, fg: entry.fg, bg: entry.bg, requirement: requirement, color: Terminal.stdoutWantsColor), terminator: "")
            }
        }
        if reports.contains(where: { !$0.report.pass }) { throw ExitCode(1) }
    }

    static func text(_ r: PairReport, fg: ParsedColor, bg: ParsedColor, requirement: ContrastRequirement, color: Bool) -> String {
        func mark(_ ok: Bool) -> String {
            let word = ok ? "pass" : "fail"
            return color ? (ok ? ANSI.green : ANSI.red) + word + ANSI.reset : word
        }
        var out = ""
        let swatchFg = r.composited.flatMap { try? SRGB(css: $0.foreground) } ?? fg.color.opaque
        let swatchBg = r.composited.flatMap { try? SRGB(css: $0.background) } ?? bg.color.opaque
        out += "\(r.foreground) on \(r.background)" + (color ? "  " + ANSI.swatch(foreground: swatchFg, background: swatchBg, text: " The quick brown fox ") : "") + "\n"
        if let c = r.composited { out += "composited     \(c.foreground) on \(c.background)\n" }
        if let range = r.range {
            out += "ratio          \(RatioFormat.display(range.worst)) to \(RatioFormat.display(range.best)) depending on the backdrop (worst on \(range.worstBackdrop), best on \(range.bestBackdrop)); judged on the worst\n"
        } else {
            out += "ratio          \(r.display)\n"
        }
        let bronze = APCA.BronzeLevel.reached(by: r.apca).map { " (Bronze: Lc \(Int($0.lc))+ \($0.use))" } ?? " (below Lc 15: not readable)"
        out += "APCA           Lc \(Auditor.formatLc(r.apca))\(bronze)\n"
        out += "text           AA \(mark(r.verdicts.textAA)) (4.5)   AAA \(mark(r.verdicts.textAAA)) (7)\n"
        out += "large text     AA \(mark(r.verdicts.largeTextAA)) (3)     AAA \(mark(r.verdicts.largeTextAAA)) (4.5)\n"
        out += "non-text       AA \(mark(r.verdicts.nonTextAA)) (3)\n"
        out += "best level     \(r.achieved)\n"
        if let cvd = r.cvd {
            let warning = cvd.verdict == "warn" ? " — " + (color ? ANSI.yellow + "below the \(CSSNumber.format(requirement.minimumRatio ?? 0)):1 it meets in normal vision" + ANSI.reset : "below the \(CSSNumber.format(requirement.minimumRatio ?? 0)):1 it meets in normal vision") : ""
            out += "color vision   \(cvd.display) lowest, under simulated \(cvd.deficiency) (\(cvd.foreground) on \(cvd.background))\(warning)\n"
        }
        for name in r.outOfGamut ?? [] { out += "note           the \(name) is outside sRGB and was gamut-mapped (CSS Color 4)\n" }
        out += "\(requirement.usage) \(requirement.level): \(mark(r.pass))" + (r.pass ? "" : " — needs \(CSSNumber.format(requirement.minimumRatio ?? 0)):1") + "\n"
        return out
    }

    func runBatch(_ path: String, requirement: ContrastRequirement) throws {
        let input: Int32
        if path == "-" {
            input = 0
        } else {
            input = open(path, O_RDONLY)
            guard input >= 0 else { throw InputError("\(path): cannot open the file for reading (\(String(cString: strerror(errno))))") }
        }
        defer { if input > 0 { close(input) } }
        var batch = BatchWriter(requirement: requirement, scheme: scheme)
        // Whatever ends the batch (the input's end or an error reading it), every answer
        // already measured is written before the command returns.
        defer {
            batch.flush()
            batch.output.finish()
        }
        // Lines are found in place in one buffer; what remains of a chunk moves to the front
        // once per read, not once per line.
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var filled = 0
        var skippingLongLine = false
        while true {
            if filled == buffer.count {
                // A whole buffer without a newline: the line is too long. Report it once and
                // skip to its end.
                if !skippingLongLine { batch.error(lineNumber: batch.lineNumber + 1, "the line is longer than 1 MiB") }
                batch.lineNumber += skippingLongLine ? 0 : 1
                skippingLongLine = true
                filled = 0
            }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError("\(path == "-" ? "standard input" : path): cannot read (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
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
                buffer.withUnsafeBufferPointer { batch.processLines(UnsafeBufferPointer(rebasing: $0[start..<last])) }
                start = last + 1
            }
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    memmove(base, base + start, end - start)
                }
            }
            filled = end - start
        }
        if filled > 0 && !skippingLongLine {
            buffer.withUnsafeBufferPointer { batch.processLines(UnsafeBufferPointer(rebasing: $0[0..<filled])) }
        }
        batch.flush()
        batch.output.finish()  // (the exit code below is known only once every line is measured)
        if batch.anyError { throw ExitCode(2) }
        if batch.anyFail { throw ExitCode(1) }
    }
}

/// `check --batch`: measures each JSON line and buffers the answers, one JSON object per line,
/// written to standard output in large blocks. A large block of lines is split among the cores;
/// the answers keep the order of the lines.
struct BatchWriter {
    let requirement: ContrastRequirement
    /// `--scheme`, for lines that give no "scheme" of their own.
    let scheme: ColorScheme?
    var lineNumber = 0
    var anyFail = false
    var anyError = false
    private var out: [UInt8] = []
    /// The threads a block of lines is split among.
    var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Where the answers go, in order, written while the next lines are measured.
    let output = OrderedOutput()

    init(requirement: ContrastRequirement, scheme: ColorScheme? = nil) {
        self.requirement = requirement
        self.scheme = scheme
        out.reserveCapacity(1 << 17)
    }

    /// Measures the lines of `block` (separated by newlines; the last one without its newline)
    /// and writes their answers.
    mutating func processLines(_ block: UnsafeBufferPointer<UInt8>) {
        // Parts of at least 64 KiB, each ending at a line's end.
        let parts = Parallel.parts(items: block.count, minimum: 1 << 16, threads: threads)
        guard parts > 1 else {
            processSerially(block)
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
        var writers: [BatchWriter] = []
        var firstLine = lineNumber
        for k in 0..<(bounds.count - 1) {
            var writer = BatchWriter(requirement: requirement, scheme: scheme)
            writer.lineNumber = firstLine
            writer.threads = 1
            writers.append(writer)
            firstLine += 1 + block[bounds[k]..<(bounds[k + 1] - 1)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        let partBounds = bounds, templates = writers
        nonisolated(unsafe) let block = block  // read only, by every thread
        writers = Parallel.map(templates.count) { k in
            var writer = templates[k]
            writer.processSerially(UnsafeBufferPointer(rebasing: block[partBounds[k]..<(partBounds[k + 1] - 1)]), streaming: false)
            return writer
        }
        flush()
        for writer in writers {
            output.send(writer.out)  // each part's answers as they are, without a copy
            anyFail = anyFail || writer.anyFail
            anyError = anyError || writer.anyError
        }
        lineNumber = firstLine
    }

    /// The lines of `block` one after the other; `streaming` writes the answers out as the
    /// buffer fills (a part measured on another thread keeps them for its caller).
    private mutating func processSerially(_ block: UnsafeBufferPointer<UInt8>, streaming: Bool = true) {
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
                return self.error(lineNumber: lineNumber, "not valid JSON at column \(error.location.column): \(error.message)")
            }
            do {
                pair = try PairRequest(json: value)
            } catch {
                return self.error(lineNumber: lineNumber, error.message)
            }
        }
        do {
            if pair.scheme == nil { pair.scheme = scheme?.rawValue }
            let report = try pair.evaluate(defaults: requirement)
            if !report.pass { anyFail = true }
            report.appendJSON(to: &out, id: pair.id)
            out.append(0x0A)
        } catch {
            self.error(lineNumber: lineNumber, error.message)
        }
    }

    mutating func error(lineNumber: Int, _ message: String) {
        anyError = true
        out.append(contentsOf: "{\"error\":\(JSONValue.quoted(message)),\"line\":\(lineNumber)}\n".utf8)
    }

    mutating func flush() {
        guard !out.isEmpty else { return }
        output.send(out)
        out = []
        out.reserveCapacity(1 << 17)
    }
}

/// Standard output written on a thread of its own, in the order the blocks are given, so a
/// block's answers are written while the next block is read and measured (the writes were a
/// fifth of a batch's time, with the cores idle). At most two blocks wait, so memory stays
/// bounded however fast the input comes.
final class OrderedOutput: @unchecked Sendable {
    private let queue = DispatchQueue(label: "contrast.batch.output")
    private let slots = DispatchSemaphore(value: 2)

    func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        slots.wait()
        queue.async { [slots] in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    break  // standard output closed (a pipe's reader left): nothing more to say
                }
                offset += written
            }
            slots.signal()
        }
    }

    /// Waits until everything given is written.
    func finish() {
        queue.sync {}
    }
}
