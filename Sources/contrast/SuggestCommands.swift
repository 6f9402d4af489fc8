import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit
import TokenSources

struct SuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "The nearest colors that make a pair pass: for the foreground, the background, and both.",
        discussion: """
            Keeps each color's OKLCH hue and chroma and moves its lightness (chroma is reduced only where sRGB forces it), judging every candidate after rounding to the hex it is reported as. When no color of that hue can pass, says so and gives the best ratio reachable.

            The foreground may be translucent: the pair is measured as drawn, the foreground painted over the background, and so is each suggested background (a foreground suggestion is the opaque color to use instead). The background must be opaque.

            Examples:
              contrast suggest '#777' white
              contrast suggest '#6b21a8' '#e9d5ff' --level AAA
              contrast suggest '#2563eb' '#0f172a' --target Lc60 --format json
            """
    )

    @Argument(help: "Foreground color (may be translucent).") var foreground: String
    @Argument(help: "Background color.") var background: String
    @Option(help: "Usage.") var usage: ContrastUsage = .text
    @Option(help: "Level.") var level: WCAGLevel = .AA
    @Option(help: "A target instead of usage/level: 4.5, AAA, Lc60, AA+Lc60.") var target: String?
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() throws {
        let goal: ContrastTarget, fg: SRGB, bg: SRGB
        do {
            goal = try SuggestionTarget.parse(target: target, usage: usage.name, level: level.name)
            fg = try SuggestionTarget.foregroundColor(foreground, field: "foreground")
            bg = try SuggestionTarget.opaqueColor(background, field: "background")
        } catch {
            throw InputError(error.message)
        }
        let result = SuggestionResult(foreground: fg, background: bg, target: goal)
        if format == .json {
            try Terminal.emit(try JSONWriter.prettyEncoded(result), to: nil)
        } else {
            print(result.text(goal: goal, color: Terminal.stdoutWantsColor), terminator: "")
        }
        if !result.passes { throw ExitCode(1) }
    }
}

struct VariantsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "variants",
        abstract: "A color's nearest variant that meets a target on each of several backgrounds.",
        discussion: """
            For light and dark surfaces alike: the same hue, moved in lightness just enough to pass on each background (or unchanged where it already does).

            Examples:
              contrast variants '#2563eb' --on white --on '#0f172a'
              contrast variants '#0f7a6b' --on '#f5f5f5' --on '#1a1a1a' --target AAA --format json
            """
    )

    @Argument(help: "The color to adapt.") var color: String
    @Option(name: .customLong("on"), help: "A background (repeatable).") var backgrounds: [String] = []
    @Option(help: "The target: 4.5, AA, AAA, AA-large, Lc60, AA+Lc60.") var target: String = "AA"
    @Option(help: "Output format.") var format: OutputFormat = .text

    func validate() throws {
        guard !backgrounds.isEmpty else { throw ValidationError("Give at least one background with --on.") }
    }

    func run() throws {
        let goal: ContrastTarget, base: SRGB, surfaces: [SRGB]
        do {
            goal = try SuggestionTarget.parse(target: target, usage: nil, level: nil)
            base = try SuggestionTarget.opaqueColor(color, field: "color")
            surfaces = try backgrounds.enumerated().map { index, text throws(RequestError) in try SuggestionTarget.opaqueColor(text, field: "--on \(text)") }
        } catch {
            throw InputError(error.message)
        }
        let result = VariantsResult(color: base, on: surfaces, target: goal)
        if format == .json {
            try Terminal.emit(try JSONWriter.prettyEncoded(result), to: nil)
        } else {
            print(result.text(goal: goal, color: Terminal.stdoutWantsColor), terminator: "")
        }
        if !result.allReached { throw ExitCode(1) }
    }
}


struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Colors as people with each color-vision deficiency see them.",
        discussion: """
            The simulation the audit uses (docs/color-vision.md): Viénot 1999 for protanopia and deuteranopia, Brettel 1997 for tritanopia, Machado 2009 for the anomalous trichromacies, luminance for achromatopsia. The same answer as POST /v1/simulate.

            Examples:
              contrast simulate '#cf222e' '#2da44e'
              contrast simulate '#cf222e' '#2da44e' --deficiency deuteranopia --format json
            """
    )

    @Argument(help: "The colors (CSS).") var colors: [String]
    @Option(name: .customLong("deficiency"), help: "A deficiency to simulate (repeatable; default every one): protanopia, deuteranopia, tritanopia, protanomaly, deuteranomaly, tritanomaly, achromatopsia.")
    var deficiencies: [String] = []
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() throws {
        let simulation: VisionSimulation
        do {
            simulation = try VisionSimulation.request(colors: colors, deficiencies: deficiencies.isEmpty ? nil : deficiencies)
        } catch {
            throw InputError(error.message)
        }
        if format == .json {
            try Terminal.emit(try JSONWriter.prettyEncoded(simulation), to: nil)
            return
        }
        print(simulation.text(color: Terminal.stdoutWantsColor), terminator: "")
    }
}
