import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit
import TokenSources

struct MatrixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "Every token of a theme against every other: which colors may go on which.",
        discussion: """
            text shows a grid of the level each foreground (row) reaches on each background (column); summary gives per token the counts per level and its best partners (the useful view past a few dozen tokens); csv and json stream every pair.

            Examples:
              contrast matrix palettes/peptide-fox.json --theme light
              contrast matrix tokens.json --format summary
              contrast matrix palettes/train.json --format csv --output pairs.csv
            """
    )

    @Argument(help: "A palette file.") var palette: String

    @Option(help: "The theme (default: the first).") var theme: String?

    @Option(help: "Output format.") var format: MatrixFormat = .text

    @Option(help: "Write to FILE instead of standard output.") var output: String?

    @Option(help: "Refuse matrices with more pairs than this (a guard against accidents).") var maxPairs: Int = 1_000_000_000

    @OptionGroup var limit: DeadlineOption

    func run() throws {
        try limit.run("reading \(palette)") { deadline in try measure(deadline) }
    }

    func measure(_ deadline: RunDeadline?) throws {
        // A folder source (an asset catalog, a Tokens Studio folder) as well as a file, as derive reads.
        let loaded = PaletteLoader.loadSources(paths: [palette]).palettes.first ?? PaletteLoader.loadFile(palette)
        try deadline?.check()
        // Warnings (bare HSL channels read as hsl(), an ignored property) are said and do not
        // stop the matrix, as they do not stop an audit.
        let errors = loaded.problems.filter { !$0.isWarning }
        guard let decoded = loaded.palette, errors.isEmpty else {
            for problem in errors { Terminal.writeErrorLine("\(problem)") }
            throw ExitCode(2)
        }
        for warning in loaded.problems where warning.isWarning { Terminal.writeError("warning: \(warning)") }
        let matrix: ContrastMatrix
        do {
            matrix = try ContrastMatrix(palette: decoded, theme: theme)
        } catch {
            for problem in error.problems { Terminal.writeErrorLine("\(problem)") }
            if error.problems.isEmpty { throw InputError("\(palette): \(error.message)") }
            throw ExitCode(2)
        }
        if matrix.pairCount > maxPairs {
            throw InputError("\(palette): \(matrix.entries.count) tokens make \(matrix.pairCount) pairs, over the limit of \(maxPairs) (--max-pairs)")
        }
        try deadline?.check()
        for (token, reason) in matrix.skipped { Terminal.writeError("note: \(token) left out: \(reason)".terminalSafe) }
        // The pairs are measured as they are written: the watchdog bounds that.
        deadline?.now("measuring the pairs of \(palette)")
        // Written in pieces of 64 KiB through the one output writer (a temporary file renamed
        // at the end): a 20,000-token matrix is never whole in memory.
        try Terminal.emitPieces(to: output) { send in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 16)
            func write(_ bytes: some Sequence<UInt8>) {
                buffer.append(contentsOf: bytes)
                if buffer.count >= 1 << 16 {
                    send(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            switch format {
            case .csv: matrix.writeCSV { write($0.utf8) }
            case .json: matrix.writeJSON(palette: decoded.name) { write($0) }
            case .summary: write(ContrastMatrix.summaryText(matrix.summarize()).utf8)
            case .text: write(matrix.grid().utf8)
            }
            send(buffer)
        }
    }
}
