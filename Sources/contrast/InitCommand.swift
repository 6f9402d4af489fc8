import ArgumentParser
import Foundation
import PaletteAudit
import TokenSources

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Propose checks for a project from where its colors meet: token sources and usage sources, written to contrast.checks.json.",
        discussion: """
            Each PATH (default: the current directory) is searched for token sources as `contrast audit` searches it, and walked once for usage sources: Android layouts and styles, Swift views, asset catalogs' color sets, and every other reader of the registry. Checks are proposed best first: pairs a usage source draws (each with the file:line that draws it as its description), then conventions (on-X and X-foreground on X, Material's role pairs, iOS labels on the system backgrounds), then guesses from the names for the tokens neither measures. Never proposed: a token on itself or its alias, a border on its own fill, a fully transparent color, a translucent background with nothing known behind it, a text color on a fill that has its own text token, a disabled token; how many were left out, and why, is printed and written in the document's "x-notes".

            For the guesses, token names are read for what they are for: text, foreground, fg, label and on-X name foregrounds; background, bg, surface, canvas and page name backgrounds; border, outline, stroke, divider, separator and icon are non-text (SC 1.4.11); names with "disabled" are left out (WCAG exempts them). Foregrounds are paired with the backgrounds at their own scope (button.primary.fgColor.* with button.primary.bgColor.*); on-X and X-foreground are checked on X. A palette whose names say none of this but that has numbered scales (red-50 … red-950) gets each scale's last step checked on its first.

            The checks are written, as strict JSON, to contrast.checks.json in the first PATH (--output to change), each with a "description" (its evidence), "x-confidence" (usage, convention or name) and "x-proposedBy", and what was found is printed. Nothing is overwritten without --force (exit 2). --baseline also writes contrast-baseline.json beside it, from an audit with the proposed checks, so CI fails only on regressions from today.

            Examples:
              contrast init
              contrast init tokens/ src/
              contrast init design/tokens --baseline
              contrast init Assets.xcassets --output - 
            """
    )

    @Argument(help: "Token files and usage sources, or directories searched for both.")
    var paths: [String] = ["."]

    /// The first path: where the checks document goes, and what messages name.
    var path: String { paths.first ?? "." }

    @Option(help: "Where to write the checks document (- for standard output). Default: contrast.checks.json in PATH.")
    var output: String?

    @Flag(help: "Also write contrast-baseline.json beside the checks document: the audit with the proposed checks, to compare later audits with.")
    var baseline = false

    @Flag(help: "Replace a checks document or baseline that already exists.")
    var force = false

    @Option(help: "The Xcode idiom asset catalogs are read for (as for audit).")
    var idiom: String = "universal"

    @Option(name: .customLong("ignore-property"), help: "A token property declared harmless (repeatable), as for audit; written to the checks document as \"ignoreProperties\".")
    var ignoredProperties: [String] = []

    @OptionGroup var limit: DeadlineOption

    func run() throws {
        try limit.run("reading \(paths.joined(separator: " "))") { deadline in try propose(deadline) }
    }

    func propose(_ deadline: RunDeadline?) throws {
        let loader = PaletteLoader(catalogIdiom: idiom)
        var loaded = loader.loadSources(paths: paths)
        try deadline?.check()
        for i in loaded.palettes.indices { loaded.palettes[i].palette?.ignoredProperties.formUnion(ignoredProperties) }
        for broken in loaded.palettes where broken.palette == nil {
            for problem in broken.problems where !problem.isWarning { Terminal.writeErrorLine("\(problem)") }
        }
        guard loaded.palettes.contains(where: { $0.palette != nil }) else {
            throw InputError("\(paths.joined(separator: ", ")): no palette or token source could be read, so there is nothing to propose checks for")
        }
        let checksFile = output ?? defaultOutput
        let baselineFile = baseline ? Self.sibling(of: checksFile == "-" ? defaultOutput : checksFile, named: "contrast-baseline.json") : nil
        for file in [checksFile, baselineFile].compactMap({ $0 }) where file != "-" && !force && FileManager.default.fileExists(atPath: file) {
            throw InputError("\(file) already exists; give --force to replace it, or --output to write elsewhere")
        }

        let usage = UsageScan.scan(paths: paths, palettes: loaded.palettes.compactMap(\.palette), fileSystem: loader.fileSystem)
        try deadline?.check()
        let proposal = ChecksProposal.propose(for: loaded.palettes, usage: usage)
        try deadline?.check()
        Terminal.writeError(proposal.summary())
        guard !proposal.checks.isEmpty else {
            Terminal.writeError("nothing to write: no checks could be proposed from these sources")
            return
        }
        let document = proposal.checksDocument(source: paths.joined(separator: " "), toolVersion: Contrast.version, ignoredProperties: ignoredProperties)
        try Terminal.emit(document, to: checksFile)
        if checksFile != "-" {
            Terminal.writeError("wrote \(proposal.checks.count) check\(proposal.checks.count == 1 ? "" : "s") to \(checksFile)")
        }
        if let baselineFile {
            // The audit reads the checks as `contrast audit --checks` does: from the file written.
            let checksPath: String
            var temporary: String?
            if checksFile == "-" {
                let file = NSTemporaryDirectory() + "contrast-init-\(getpid()).checks.json"
                try Terminal.emit(document, to: file)
                temporary = file
                checksPath = file
            } else {
                checksPath = checksFile
            }
            defer { if let temporary { unlink(temporary) } }
            deadline?.now("auditing \(paths.joined(separator: " ")) for the baseline")
            let report = AuditRun.audit(paths: paths, checks: checksPath, threads: ProcessInfo.processInfo.activeProcessorCount, idiom: idiom)
            try deadline?.check()
            try Terminal.emit(try Baseline(report).encoded(), to: baselineFile)
            Terminal.writeError("wrote the baseline to \(baselineFile): \(report.summary.pass) passing, \(report.summary.fail) failing")
            if !report.problems.isEmpty {
                Terminal.writeError("note: the audit reports \(report.problems.count) problems in the sources; run contrast audit \(paths.joined(separator: " ")) --checks \(checksFile) to see them")
            }
        }
    }

    /// contrast.checks.json in PATH, or beside PATH when it is a file.
    var defaultOutput: String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return Self.sibling(of: (path.hasSuffix("/") ? path : path + "/") + "x", named: "contrast.checks.json")
        }
        return Self.sibling(of: path, named: "contrast.checks.json")
    }

    static func sibling(of file: String, named name: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return name }
        let directory = file[...slash]
        return directory == "./" ? name : directory + name
    }
}
