import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit
import TokenSources

struct DeriveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "derive",
        abstract: "Derive a theme (dark, high-contrast…) in which every check passes, as close to the source theme as it can be.",
        discussion: """
            The background most checks use becomes --surface; other surfaces and decorations keep their lightness offset from it; every checked foreground moves, keeping its hue and chroma, to the nearest color that meets all of its checks. The new theme is written into a copy of the palette (--output), never over the input unless --in-place is given. Each token's change is reported.

            Exit status: 0 when every check of the new theme passes, 1 when some cannot (the report says which and why), 2 for bad input.

            Examples:
              contrast derive palettes/peptide-fox.json --from light --to dark --surface '#0f172a' --output peptide-fox.dark.json
              contrast derive palettes/train.json --from light --to high-contrast --surface black --level AAA --output -
            """
    )

    @Argument(help: "The palette file.") var palette: String
    @Option(help: "The theme to start from.") var from: String = "light"
    @Option(help: "The theme to write (replaced when it exists).") var to: String = "dark"
    @Option(help: "The new main surface color.") var surface: String
    @Option(help: "Raise every check to at least this level in the new theme (AAA for high contrast).") var level: WCAGLevel?
    @Option(help: "Where to write the palette with the new theme (- for standard output).") var output: String?
    @Flag(help: "Overwrite the input palette.") var inPlace = false
    @Option(help: "The report of changes.") var format: OutputFormat = .text
    @Option(help: "A checks document whose checks apply to the palette (for a palette file without checks of its own; derive writes a theme into a palette file, so token files are not read).") var checks: String?
    @OptionGroup var limit: DeadlineOption

    func validate() throws {
        if output == nil && !inPlace { throw ValidationError("Say where to write the result: --output FILE (or - for standard output), or --in-place.") }
        if output != nil && inPlace { throw ValidationError("Use --output or --in-place, not both.") }
    }

    func run() throws {
        try limit.run("reading \(palette)") { deadline in try derive(deadline) }
    }

    func derive(_ deadline: RunDeadline?) throws {
        let loaded = PaletteLoader.loadSources(paths: [palette], checks: checks).palettes.first ?? PaletteLoader.loadFile(palette)
        try deadline?.check()
        for warning in loaded.problems where warning.isWarning { Terminal.writeError("warning: \(warning)") }
        guard let decoded = loaded.palette, !loaded.problems.contains(where: { !$0.isWarning }) else {
            for problem in loaded.problems where !problem.isWarning { Terminal.writeErrorLine("\(problem)") }
            throw ExitCode(2)
        }
        let surfaceColor = try CheckCommand.parse(surface, what: "surface", scheme: nil).color
        let minimum = level
        let derivation: Derivation
        deadline?.now("deriving the theme \(to) of \(palette)")
        do {
            derivation = try ThemeDeriver.derive(decoded, from: from, to: to, surface: surfaceColor, minimumLevel: minimum)
        } catch {
            throw InputError("\(palette): \(error)")
        }
        try deadline?.check()
        // Write the copy: the original document with the theme set, in its own key order.
        // The bytes the palette was read from, kept by the loader (not a second read, which a
        // file changed meanwhile would make disagree with the derivation).
        let bytes = try loaded.document ?? Terminal.readFile(palette, what: "palette")
        // A repeated key was said when the palette was read; the copy keeps the value read.
        var repeated: [JSONParser.DuplicateKey] = []
        guard let document = try? JSONParser.parse(bytes, duplicates: &repeated), let text = derivation.written(into: document) else {
            throw InputError("\(palette): the palette must have a \"themes\" object to add a theme to")
        }
        let destination = inPlace ? palette : output
        try Terminal.emit(text, to: destination)
        // The report goes to standard error when the palette took standard output.
        let reportToStdout = destination != "-"
        if format == .json {
            let data = try derivation.reportJSON()
            if reportToStdout { try Terminal.emit(data, to: nil) } else { Terminal.writeError(String(decoding: data.dropLast(), as: UTF8.self)) }
        } else {
            let out = derivation.text(minimumLevel: minimum, wrote: destination == "-" ? nil : destination ?? palette)
            if reportToStdout { print(out, terminator: "") } else { Terminal.writeError(out) }
        }
        if !derivation.unresolved.isEmpty { throw ExitCode(1) }
    }
}
