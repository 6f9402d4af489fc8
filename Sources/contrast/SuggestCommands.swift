import ArgumentParser
import ColorScience
import Foundation
import PaletteAudit

struct SuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "The nearest colors that make a pair pass: for the foreground, the background, and both.",
        discussion: """
            Keeps each color's OKLCH hue and chroma and moves its lightness (chroma is reduced only where sRGB forces it), judging every candidate after rounding to the hex it is reported as. When no color of that hue can pass, says so and gives the best ratio reachable.

            Examples:
              contrast suggest '#777' white
              contrast suggest '#6b21a8' '#e9d5ff' --level AAA
              contrast suggest '#2563eb' '#0f172a' --target Lc60 --format json
            """
    )

    @Argument(help: "Foreground color.") var foreground: String
    @Argument(help: "Background color.") var background: String
    @Option(help: "Usage: text, large-text or non-text.") var usage: String = "text"
    @Option(help: "Level: AA or AAA.") var level: String = "AA"
    @Option(help: "A target instead of usage/level: 4.5, AAA, Lc60, AA+Lc60.") var target: String?
    @Option(help: "Output format: text or json.") var format: String = "text"

    func validate() throws {
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json, not '\(format)'.") }
    }

    func run() throws {
        let goal = try Targets.resolve(target: target, usage: usage, level: level)
        let fg = try CheckCommand.parse(foreground, what: "foreground").color
        let bg = try CheckCommand.parse(background, what: "background").color
        guard fg.isOpaque && bg.isOpaque else { throw InputError("suggest works on opaque colors; composite translucent ones first (contrast check shows the composite)") }
        let current = fg.contrastRatio(with: bg)
        if goal.isMet(foreground: fg, background: bg) {
            if format == "json" {
                try Terminal.emit(try Targets.json(SuggestOutput(foreground: fg.hex, background: bg.hex, target: goal.description, ratio: current, passes: true, suggestions: nil)), to: nil)
            } else {
                print("\(fg.hex) on \(bg.hex) is \(RatioFormat.display(current)) and already meets \(goal): nothing to change.")
            }
            return
        }
        let suggestions = Auditor.suggestions(foreground: fg, background: bg, target: goal)
        if format == "json" {
            try Terminal.emit(try Targets.json(SuggestOutput(foreground: fg.hex, background: bg.hex, target: goal.description, ratio: current, passes: false, suggestions: suggestions)), to: nil)
        } else {
            let color = Terminal.stdoutWantsColor
            print("\(fg.hex) on \(bg.hex) is \(RatioFormat.display(current)); \(goal) is needed.")
            func line(_ label: String, _ c: SuggestedColor, _ swatchFg: String, _ swatchBg: String) -> String {
                let swatch = color ? ANSI.swatch(foreground: (try? SRGB(css: swatchFg)) ?? fg, background: (try? SRGB(css: swatchBg)) ?? bg) + " " : ""
                return "  \(label.padding(toLength: 11)) \(swatch)\(c.hex)  \(c.direction.padding(toLength: 7))  ΔE-OK \(String(format: "%.3f", c.deltaEOK))  \(c.display)  Lc \(Auditor.formatLc(c.apca))"
            }
            for c in suggestions.foreground { print(line("foreground", c, c.hex, bg.hex)) }
            for c in suggestions.background { print(line("background", c, fg.hex, c.hex)) }
            if let both = suggestions.both {
                print(line("both: fg", both.foreground, both.foreground.hex, both.background.hex))
                print(line("      bg", both.background, both.foreground.hex, both.background.hex))
            }
            for note in suggestions.notes ?? [] { print("  note: \(note)") }
        }
        throw ExitCode(1)
    }
}

struct SuggestOutput: Encodable {
    var foreground: String
    var background: String
    var target: String
    var ratio: Double
    var passes: Bool
    var suggestions: Suggestions?
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
    @Option(help: "Output format: text or json.") var format: String = "text"

    func validate() throws {
        guard !backgrounds.isEmpty else { throw ValidationError("Give at least one background with --on.") }
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json, not '\(format)'.") }
    }

    func run() throws {
        guard let goal = ContrastTarget(parsing: target) else {
            throw InputError("--target must be a ratio (4.5), a level (AA, AAA, AA-large), an APCA Lc (Lc60) or both (AA+Lc60), not '\(target)'")
        }
        let base = try CheckCommand.parse(color, what: "color").color
        let surfaces = try backgrounds.map { try CheckCommand.parse($0, what: "background \($0)").color }
        let variants = NearestPassing.variants(of: base, on: surfaces, target: goal)
        var rows: [VariantOutput] = []
        for (background, variant, result) in variants {
            rows.append(VariantOutput(background: background.hex, variant: variant.map(SuggestedColor.init),
                                      alternatives: result.suggestions.dropFirst().map(SuggestedColor.init),
                                      bestReachable: result.bestReachableRatio))
        }
        if format == "json" {
            try Terminal.emit(try Targets.json(["color": AnyEncodable(base.hex), "target": AnyEncodable(goal.description), "variants": AnyEncodable(rows)]), to: nil)
        } else {
            let color = Terminal.stdoutWantsColor
            print("\(base.hex) for \(goal):")
            for row in rows {
                if let v = row.variant {
                    let swatch = color ? ANSI.swatch(foreground: (try? SRGB(css: v.hex)) ?? base, background: (try? SRGB(css: row.background)) ?? base) + " " : ""
                    print("  on \(row.background)  \(swatch)\(v.hex)  \(v.direction.padding(toLength: 9))  ΔE-OK \(String(format: "%.3f", v.deltaEOK))  \(v.display)")
                } else {
                    print("  on \(row.background)  no color of this hue reaches \(goal); the best reachable is \(RatioFormat.display(row.bestReachable ?? 1))")
                }
            }
        }
        if rows.contains(where: { $0.variant == nil }) { throw ExitCode(1) }
    }
}

struct VariantOutput: Encodable {
    var background: String
    var variant: SuggestedColor?
    var alternatives: [SuggestedColor]
    var bestReachable: Double?
}

struct AnyEncodable: Encodable {
    let encodeValue: (any Encoder) throws -> Void
    init(_ value: some Encodable) { encodeValue = value.encode }
    func encode(to encoder: any Encoder) throws { try encodeValue(encoder) }
}

enum Targets {
    static func resolve(target: String?, usage: String, level: String) throws -> ContrastTarget {
        if let target {
            guard let goal = ContrastTarget(parsing: target) else {
                throw InputError("--target must be a ratio (4.5), a level (AA, AAA, AA-large), an APCA Lc (Lc60) or both (AA+Lc60), not '\(target)'")
            }
            return goal
        }
        guard let u = ContrastUsage(name: usage), !u.isExempt else { throw InputError("--usage must be text, large-text or non-text, not '\(usage)'") }
        guard let l = WCAGLevel(name: level) else { throw InputError("--level must be AA or AAA, not '\(level)'") }
        return ContrastTarget(ratio: ContrastRequirement(usage: u, level: l).minimumRatio)
    }

    static func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data([0x0A])
    }
}
