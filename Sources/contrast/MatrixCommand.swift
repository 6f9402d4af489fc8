import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit

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

    @Argument(help: "A palette file.")
    var palette: String

    @Option(help: "The theme (default: the first).")
    var theme: String?

    @Option(help: "Output format.")
    var format: MatrixFormat = .text

    @Option(help: "Write to FILE instead of standard output.")
    var output: String?

    @Option(help: "Refuse matrices with more pairs than this (a guard against accidents).")
    var maxPairs: Int = 1_000_000_000

    func run() throws {
        let loaded = PaletteLoader.loadFile(palette)
        guard let decoded = loaded.palette, loaded.problems.isEmpty else {
            for problem in loaded.problems { Terminal.writeError("error: \(problem)") }
            throw ExitCode(2)
        }
        let matrix: ContrastMatrix
        do {
            matrix = try ContrastMatrix(palette: decoded, theme: theme)
        } catch {
            for problem in error.problems { Terminal.writeError("error: \(problem)") }
            if error.problems.isEmpty { throw InputError("\(palette): \(error.message)") }
            throw ExitCode(2)
        }
        if matrix.pairCount > maxPairs {
            throw InputError("\(palette): \(matrix.entries.count) tokens make \(matrix.pairCount) pairs, over the limit of \(maxPairs) (--max-pairs)")
        }
        for (token, reason) in matrix.skipped { Terminal.writeError("note: \(token) left out: \(reason)") }
        let sink = try OutputSink(path: output)
        switch format {
        case .csv:
            matrix.writeCSV(sink.write)
        case .json:
            matrix.writeJSON(palette: decoded.name, sink.write)
        case .summary:
            sink.write(MatrixCommand.summaryText(matrix.summarize()))
        case .text:
            sink.write(MatrixCommand.grid(matrix))
        }
        sink.close()
    }

    static func summaryText(_ summaries: [ContrastMatrix.TokenSummary]) -> String {
        let width = max(5, summaries.map(\.token.count).max() ?? 5)
        var out = "token".padding(toLength: width) + "  hex       AAA    AA  AA-large  none  best partners\n"
        for s in summaries {
            let partners = s.bestPartners.map { "\($0.token) \(RatioFormat.display($0.ratio))" }.joined(separator: ", ")
            out += s.token.padding(toLength: width) + "  " + s.hex.padding(toLength: 8)
                + String(s.aaa).leftPadded(5) + String(s.aa).leftPadded(6) + String(s.aaLarge).leftPadded(10) + String(s.none).leftPadded(6)
                + "  " + partners + "\n"
        }
        return out
    }

    static func grid(_ matrix: ContrastMatrix) -> String {
        let names = matrix.entries.map(\.name)
        let labels = names.enumerated().map { "\($0 + 1). \($1)" }
        let width = max(24, labels.map(\.count).max() ?? 0)
        let cell = 10
        var out = "foreground \\ background".padding(toLength: width) + names.indices.map { String($0 + 1).leftPadded(cell) }.joined() + "\n"
        var ratios = [[Double]](repeating: [Double](repeating: 1, count: names.count), count: names.count)
        matrix.forEachPair { i, j, r in ratios[i][j] = r }
        for (i, label) in labels.enumerated() {
            out += label.padding(toLength: width)
            for j in names.indices {
                let level = AchievedLevel(ratio: ratios[i][j])
                out += (i == j ? "—" : level == .none ? "·" : level.name).leftPadded(cell)
            }
            out += "\n"
        }
        out += "\nAAA ≥ 7:1, AA ≥ 4.5:1, AA-large ≥ 3:1 (also enough for non-text), · below 3:1\n"
        return out
    }

}

/// Buffered streaming output to a file or standard output.
final class OutputSink {
    private let handle: FileHandle
    private var buffer = Data()
    private let temporary: String?
    private let destination: String?

    init(path: String?) throws {
        if let path, path != "-" {
            let temp = path + ".partial"
            guard FileManager.default.createFile(atPath: temp, contents: nil), let h = FileHandle(forWritingAtPath: temp) else {
                throw InputError("cannot write \(path)")
            }
            handle = h
            temporary = temp
            destination = path
        } else {
            handle = FileHandle.standardOutput
            temporary = nil
            destination = nil
        }
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        handle.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        if let temporary, let destination {
            try? handle.close()
            _ = try? FileManager.default.removeItem(atPath: destination)
            try? FileManager.default.moveItem(atPath: temporary, toPath: destination)
        }
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }

    func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
