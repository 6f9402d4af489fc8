import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit
import TokenSources

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

    @Argument(help: "Foreground (text) color.") var foreground: String?

    @Argument(help: "Background color.") var background: String?

    @Option(help: "Font size, like 16px or 12pt: decides large text with --weight.") var size: String?

    @Option(help: "Font weight (400 regular, 700 bold).") var weight: Int = 400

    @Option(help: "What the pair is used for.") var usage: ContrastUsage = .text

    @Option(help: "Required level.") var level: WCAGLevel = .AA

    @Option(help: "The opaque surface a translucent background sits on. Without it, a translucent background gives the range over every backdrop.") var backdrop: String?

    @Option(help: "The color scheme light-dark() colors are read in (light or dark); without it, a pair that uses light-dark() is measured in both.") var scheme: ColorScheme?

    @Option(help: "Output format: text (the default) or json. --batch always writes JSON Lines.") var format: OutputFormat?

    @Option(help: "Read JSON Lines {\"fg\": …, \"bg\": …} from FILE (or - for standard input) and write one JSON object per line.") var batch: String?

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
        if batch != nil, let format, format != .json {
            throw ValidationError("--batch writes one JSON object per line; --format \(format.rawValue) is not available with it (leave --format out, or give --format json).")
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
        let reports: [(scheme: ColorScheme?, report: PairReport)]
        do throws(RequestError) {
            reports = try request.evaluateInEveryScheme(defaults: requirement)
        } catch {
            // Named as the command line names them.
            let names = ["fg": "foreground", "bg": "background"]
            var message = error.message
            if let name = names[error.field], message.hasPrefix(error.field + ":") { message = name + message.dropFirst(error.field.count) }
            throw InputError(message)
        }
        if (format ?? .text) == .json {
            try Terminal.emit(Data(PairReport.prettyJSON(reports)), to: nil)
        } else {
            print(PairReport.text(reports, requirement: requirement, color: Terminal.stdoutWantsColor), terminator: "")
        }
        if reports.contains(where: { !$0.report.pass }) { throw ExitCode(1) }
    }

    /// `--batch`: JSON Lines from the file or standard input, answers on standard output
    /// (``PairBatch``); exit 2 when a line is an error, else 1 when a pair fails.
    func runBatch(_ path: String, requirement: ContrastRequirement) throws {
        let input: Int32
        if path == "-" {
            input = 0
        } else {
            switch FileSystem.unconfined.openStream(path) {
            case .success(let fd): input = fd
            case .failure(let problem): throw InputError(.unreadableFile, "\(path): \(problem.message)")
            }
        }
        defer { if input > 0 { close(input) } }
        let engine = PairBatch(requirement: requirement, scheme: scheme, threads: ProcessInfo.processInfo.activeProcessorCount)
        let outcome = try engine.runLines(read: { buffer in
            while true {
                let count = read(input, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                if errno != EINTR { throw InputError(.unreadableFile, "\(path == "-" ? "standard input" : path): cannot read (\(String(cString: strerror(errno))))") }
            }
        }, write: Terminal.writeStandardOutput)
        if outcome.anyError { throw ExitCode(2) }
        if outcome.anyFail { throw ExitCode(1) }
    }
}
