import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Measure one color pair (or many, with --batch).",
        discussion: """
            Prints the WCAG ratio (floored, so a failure never shows as a pass), the verdict for every usage and level, the best level reached and APCA Lc. Colors are any CSS color: '#767676', 'rebeccapurple', 'oklch(0.6 0.1 250)', 'rgb(0 0 0 / 50%)'.

            Exit status: 0 when the pair meets the asked usage and level, 1 when it does not,
            2 for bad input.

            Examples:
              contrast check '#767676' white
              contrast check '#2563eb' '#0f172a' --usage large-text --level AAA
              contrast check 'rgb(0 0 0 / 60%)' white --format json
              contrast check white 'rgb(0 0 0 / 50%)' --backdrop '#2563eb'
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

    static func parse(_ text: String, what: String) throws -> ParsedColor {
        do {
            return try CSSColor.parse(text)
        } catch {
            throw InputError("\(what): \(error)")
        }
    }

    func run() throws {
        let requirement = try requirement()
        if let batch { return try runBatch(batch, requirement: requirement) }
        guard let foreground, let background else { return }
        let fg = try Self.parse(foreground, what: "foreground")
        let bg = try Self.parse(background, what: "background")
        let backdropColor = try backdrop.map { try Self.parse($0, what: "backdrop") }
        if let backdropColor, !backdropColor.color.isOpaque {
            throw InputError("backdrop: \(backdropColor.color.hex) is translucent; the backdrop is the opaque surface underneath")
        }
        let report = PairReport(foreground: fg, background: bg, backdrop: backdropColor, requirement: requirement)
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try Terminal.emit(try encoder.encode(report) + Data([0x0A]), to: nil)
        } else {
            print(Self.text(report, fg: fg, bg: bg, requirement: requirement, color: Terminal.stdoutWantsColor), terminator: "")
        }
        if !report.pass { throw ExitCode(1) }
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
        out += "text           AA \(mark(r.verdicts["text"]?["AA"] ?? false)) (4.5)   AAA \(mark(r.verdicts["text"]?["AAA"] ?? false)) (7)\n"
        out += "large text     AA \(mark(r.verdicts["large-text"]?["AA"] ?? false)) (3)     AAA \(mark(r.verdicts["large-text"]?["AAA"] ?? false)) (4.5)\n"
        out += "non-text       AA \(mark(r.verdicts["non-text"]?["AA"] ?? false)) (3)\n"
        out += "best level     \(r.achieved)\n"
        for name in r.outOfGamut ?? [] { out += "note           the \(name) is outside sRGB and was gamut-mapped (CSS Color 4)\n" }
        out += "\(requirement.usage) \(requirement.level): \(mark(r.pass))" + (r.pass ? "" : " — needs \(CSSNumber.format(requirement.minimumRatio ?? 0)):1") + "\n"
        return out
    }

    func runBatch(_ path: String, requirement: ContrastRequirement) throws {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let file = FileHandle(forReadingAtPath: path) else { throw InputError("\(path): cannot open the file for reading") }
            handle = file
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var anyFail = false, anyError = false
        var lineNumber = 0
        var pending = Data()
        let output = FileHandle.standardOutput
        func process(_ lineData: Data) {
            lineNumber += 1
            guard let line = String(data: lineData, encoding: .utf8) else {
                anyError = true
                output.write(Self.errorLine(lineNumber, "the line is not valid UTF-8"))
                return
            }
            if line.allSatisfy(\.isWhitespace) { return }
            do {
                let report = try BatchLine.evaluate(line, requirement: requirement)
                if !report.pass { anyFail = true }
                var data = try encoder.encode(report)
                data.append(0x0A)
                output.write(data)
            } catch {
                anyError = true
                output.write(Self.errorLine(lineNumber, "\(error)"))
            }
        }
        while true {
            let chunk = handle.readData(ofLength: 1 << 16)
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                process(pending[pending.startIndex..<newline])
                pending.removeSubrange(pending.startIndex...newline)
            }
            if pending.count > 1 << 20 {
                anyError = true
                output.write(Self.errorLine(lineNumber + 1, "the line is longer than 1 MiB"))
                pending.removeAll()
                // Skip the rest of that line.
                while true {
                    let rest = handle.readData(ofLength: 1 << 16)
                    if rest.isEmpty { break }
                    if let newline = rest.firstIndex(of: 0x0A) {
                        pending.append(rest[(newline + 1)...])
                        break
                    }
                }
                lineNumber += 1
            }
        }
        if !pending.isEmpty { process(pending) }
        if anyError { throw ExitCode(2) }
        if anyFail { throw ExitCode(1) }
    }

    static func errorLine(_ line: Int, _ message: String) -> Data {
        let object: [String: Any] = ["line": line, "error": message]
        var data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        data.append(0x0A)
        return data
    }
}

/// One line of `check --batch`: a ``PairRequest`` as JSON, read as `POST /v1/contrast` reads one.
enum BatchLine {
    static func evaluate(_ line: String, requirement defaults: ContrastRequirement) throws -> BatchResult {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw InputError("not valid JSON at column \(error.location.column): \(error.message)")
        }
        do {
            let pair = try PairRequest(json: value)
            var result = BatchResult(try pair.evaluate(defaults: defaults))
            result.id = pair.id
            return result
        } catch {
            throw InputError(error.message)
        }
    }
}

/// A batch output line: the pair report, plus the caller's `id` when given.
struct BatchResult: Encodable {
    var report: PairReport
    var id: String?
    var pass: Bool { report.pass }

    init(_ report: PairReport) { self.report = report }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        if let id {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: Key(stringValue: "id"))
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
