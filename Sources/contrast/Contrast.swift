import ArgumentParser

struct Contrast: ParsableCommand {
    static let version = "0.1.0"

    /// ArgumentParser's usage errors begin as every other error line does (`error: `), not
    /// with its own `Error: `.
    static var _errorPrefix: String { Terminal.errorPrefix }

    static let configuration = CommandConfiguration(
        commandName: "contrast",
        abstract: "WCAG contrast and color auditing for design-system palettes.",
        discussion: """
            Checks color pairs and whole palettes against WCAG 2.2 (AA/AAA) and reports APCA Lc.

            Exit codes:
              0  nothing to fail on
              1  a pair or check fails, or a check regressed against the baseline
              2  invalid input or usage (unreadable file, bad palette, unknown flag)

            Examples:
              contrast check '#767676' white
              contrast audit palettes/ --format junit --output contrast.xml
              contrast matrix palettes/peptide-fox.json --theme dark --format summary
            """,
        version: version,
        subcommands: [CheckCommand.self, AuditCommand.self, MatrixCommand.self, SuggestCommand.self, VariantsCommand.self, SimulateCommand.self, DeriveCommand.self, ReportCommand.self, ServeCommand.self, InitCommand.self]
    )
}
