import ArgumentParser
import Foundation
import PaletteAudit

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Propose checks for a project: find its token sources, read what the names say, write contrast.checks.json.",
        discussion: """
            PATH (default: the current directory) is searched as `contrast audit` searches it. For each palette found, token names are read for what they are for: text, foreground, fg, label and on-X name foregrounds; background, bg, surface, canvas and page name backgrounds; border, outline, stroke, divider, separator and icon are non-text (SC 1.4.11); names with "disabled" are left out (WCAG exempts them). Foregrounds are paired with the backgrounds at their own scope (button.primary.fgColor.* with button.primary.bgColor.*); on-X and X-foreground are checked on X. A palette whose names say none of this but that has numbered scales (red-50 … red-950) gets each scale's last step checked on its first.

            The checks are written to contrast.checks.json in PATH (--output to change), each with a "description" saying why it was proposed, and what was guessed is printed. Nothing is overwritten without --force (exit 2). --baseline also writes contrast-baseline.json beside it, from an audit with the proposed checks, so CI fails only on regressions from today.

            Examples:
              contrast init
              contrast init design/tokens --baseline
              contrast init Assets.xcassets --output - 
            """
    )

    @Argument(help: "A token file, or a directory searched for them.")
    var path: String = "."

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
        try limit.run("reading \(path)") { deadline in try propose(deadline) }
    }

    func propose(_ deadline: RunDeadline?) throws {
        var loaded = PaletteLoader(catalogIdiom: idiom).loadSources(paths: [path])
        try deadline?.check()
        for i in loaded.palettes.indices { loaded.palettes[i].palette?.ignoredProperties.formUnion(ignoredProperties) }
        for broken in loaded.palettes where broken.palette == nil {
            for problem in broken.problems where !problem.isWarning { Terminal.writeError("error: \(problem)") }
        }
        guard loaded.palettes.contains(where: { $0.palette != nil }) else {
            throw InputError("\(path): no palette or token source could be read, so there is nothing to propose checks for")
        }
        let checksFile = output ?? defaultOutput
        let baselineFile = baseline ? Self.sibling(of: checksFile == "-" ? defaultOutput : checksFile, named: "contrast-baseline.json") : nil
        for file in [checksFile, baselineFile].compactMap({ $0 }) where file != "-" && !force && FileManager.default.fileExists(atPath: file) {
            throw InputError("\(file) already exists; give --force to replace it, or --output to write elsewhere")
        }

        let proposal = ChecksProposal.propose(for: loaded.palettes)
        try deadline?.check()
        Terminal.writeError(proposal.summary())
        guard !proposal.checks.isEmpty else {
            Terminal.writeError("nothing to write: no checks could be proposed from these names")
            return
        }
        let document = proposal.checksDocument(source: path, toolVersion: Contrast.version, ignoredProperties: ignoredProperties)
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
            deadline?.now("auditing \(path) for the baseline")
            let report = AuditRun.audit(paths: [path], checks: checksPath, threads: ProcessInfo.processInfo.activeProcessorCount, idiom: idiom)
            try deadline?.check()
            try Terminal.emit(try Baseline(report).encoded(), to: baselineFile)
            Terminal.writeError("wrote the baseline to \(baselineFile): \(report.summary.pass) passing, \(report.summary.fail) failing")
            if !report.problems.isEmpty {
                Terminal.writeError("note: the audit reports \(report.problems.count) problems in the sources; run contrast audit \(path) --checks \(checksFile) to see them")
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
