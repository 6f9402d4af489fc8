import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit

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
    @Option(help: "A checks document whose checks apply to the palette (for token files without checks).") var checks: String?

    func validate() throws {
        if output == nil && !inPlace { throw ValidationError("Say where to write the result: --output FILE (or - for standard output), or --in-place.") }
        if output != nil && inPlace { throw ValidationError("Use --output or --in-place, not both.") }
    }

    func run() throws {
        let loaded = PaletteLoader.loadSources(paths: [palette], checks: checks).palettes.first ?? PaletteLoader.loadFile(palette)
        for warning in loaded.problems where warning.isWarning { Terminal.writeError("warning: \(warning)") }
        guard let decoded = loaded.palette, !loaded.problems.contains(where: { !$0.isWarning }) else {
            for problem in loaded.problems where !problem.isWarning { Terminal.writeError("error: \(problem)") }
            throw ExitCode(2)
        }
        let surfaceColor = try CheckCommand.parse(surface, what: "surface", scheme: nil).color
        let minimum = level
        let derivation: Derivation
        do {
            derivation = try ThemeDeriver.derive(decoded, from: from, to: to, surface: surfaceColor, minimumLevel: minimum)
        } catch {
            throw InputError("\(palette): \(error)")
        }
        // Write the copy: the original document with the theme set, in its own key order.
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: palette))) ?? Data())
        guard let document = try? JSONParser.parse(bytes), let themes = document["themes"] else {
            throw InputError("\(palette): the palette must have a \"themes\" object to add a theme to")
        }
        let location = document.location
        let tokens: [JSONMember] = derivation.tokens.map { t in
            JSONMember(key: t.token, keyLocation: location, value: .object([
                JSONMember(key: "$type", keyLocation: location, value: .string("color", location)),
                JSONMember(key: "$value", keyLocation: location, value: .string(t.value, location)),
                JSONMember(key: "$description", keyLocation: location, value: .string("derived from \(derivation.from) \(t.from): \(t.reason)", location)),
            ], location))
        }
        let theme = JSONValue.object([
            JSONMember(key: "description", keyLocation: location, value: .string(derivation.palette.theme(named: to)?.description ?? "", location)),
            JSONMember(key: "tokens", keyLocation: location, value: .object(tokens, location)),
        ], location)
        let text = document.setting("themes", to: themes.setting(to, to: theme)).serialized()
        let destination = inPlace ? palette : output
        if destination == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
        } else {
            try Terminal.emit(text, to: destination)
        }
        let reportToStdout = destination != "-"
        if format == .json {
            struct Output: Encodable {
                var from: String, to: String, surface: String
                var tokens: [DerivedToken]
                var summary: AuditSummary
                var unresolved: [String]
            }
            let data = try Targets.json(Output(from: from, to: to, surface: derivation.surface, tokens: derivation.tokens,
                                               summary: derivation.report.summary, unresolved: derivation.unresolved))
            if reportToStdout { FileHandle.standardOutput.write(data) } else { FileHandle.standardError.write(data) }
        } else {
            var out = "theme \(to) derived from \(from) for the surface \(derivation.surface)\(minimum.map { " at \($0.name) or better" } ?? ""):\n"
            let width = max(5, derivation.tokens.map(\.token.count).max() ?? 5)
            for t in derivation.tokens {
                out += "  " + t.token.padding(toLength: width) + "  \(t.from) → \(t.value.padding(toLength: 9))  \(t.change.padding(toLength: 9))  ΔE-OK \(String(format: "%.3f", t.deltaEOK))  \(t.reason)\n"
            }
            out += "audit of \(to): \(derivation.report.summary.line)\n"
            for line in derivation.unresolved { out += "  unresolved: \(line)\n" }
            if destination != "-" { out += "wrote \(destination ?? palette)\n" }
            if reportToStdout { print(out, terminator: "") } else { Terminal.writeError(out) }
        }
        if !derivation.unresolved.isEmpty { throw ExitCode(1) }
    }
}
