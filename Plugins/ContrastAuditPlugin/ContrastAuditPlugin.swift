import Foundation
import PackagePlugin

/// `swift package contrast-audit [PATH…]`: audits the package's palettes, token files,
/// stylesheets and asset catalogs with the package's `contrast` tool, and prints every failing
/// check as `FILE:LINE:COL: error: …` (`contrast audit --format xcode`), which Xcode and editors
/// show at the token.
///
/// Without PATHs the package's directory is audited (hidden folders such as `.build`, and
/// `node_modules`, are passed over); with `--target NAME` (repeatable, what Xcode passes when the
/// command is run on targets) those targets' folders are. `contrast.checks.json` at the package's root is given as
/// `--checks`, and `contrast-baseline.json` as `--baseline` (then only regressions fail), when
/// they exist; `contrast init` writes both. Other `contrast audit` options may follow the paths
/// (`--theme dark`, `--fail-on failures`, `--min-coverage 80`, `--allow-empty`). The command
/// fails when the audit does (exit 1: a failing check, a regression or a coverage below
/// `--min-coverage`; 2: input it cannot read, or color tokens and no checks, so nothing was
/// measured: `contrast init` proposes them).
@main
struct ContrastAuditPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "contrast")
        let root = context.package.directoryURL
        // Xcode (and `swift package contrast-audit --target App`) names the targets to run on:
        // their folders are the paths audited. `--target` is the plugin's, never the audit's.
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var paths: [String] = []
        for target in try context.package.targets(named: targetNames) {
            paths.append(try Self.folder(of: target))
        }
        let arguments = extractor.remainingArguments
        var options: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("-") {
                options.append(argument)
                // An option's value follows it unless written as --option=value or a flag.
                if !argument.contains("="), index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-"),
                   !["--help", "-h"].contains(argument) {
                    options.append(arguments[index + 1])
                    index += 1
                }
            } else {
                paths.append(argument.hasPrefix("/") ? argument : root.appending(path: argument).path)
            }
            index += 1
        }
        if paths.isEmpty { paths = [root.path] }
        var command = ["audit"] + paths + ["--format", "xcode"]
        let checks = root.appending(path: "contrast.checks.json")
        if FileManager.default.fileExists(atPath: checks.path), !options.contains("--checks") {
            command += ["--checks", checks.path]
        }
        let baseline = root.appending(path: "contrast-baseline.json")
        if FileManager.default.fileExists(atPath: baseline.path), !options.contains("--baseline") {
            command += ["--baseline", baseline.path]
        }
        command += options

        let process = Process()
        process.executableURL = tool.url
        process.arguments = command
        process.currentDirectoryURL = root
        try process.run()
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0:
            return
        case 1:
            Diagnostics.error("contrast audit: checks fail, regressed or cover too little (see above)")
            throw ExitStatus(code: 1)
        default:
            Diagnostics.error("contrast audit could not read its input, or measured nothing (exit \(process.terminationStatus); see above): \(command.joined(separator: " "))")
            throw ExitStatus(code: process.terminationStatus)
        }
    }
}

extension ContrastAuditPlugin {
    /// A target's folder: the one its files (sources and resources, asset catalogs among them)
    /// all sit in. (`Target.directoryURL` needs tools 6.1; this package declares 6.0.)
    static func folder(of target: any Target) throws -> String {
        guard let module = target.sourceModule else {
            throw PluginError("--target \(target.name): not a source module, so it has no files to audit")
        }
        let folders = module.sourceFiles.map { $0.url.deletingLastPathComponent().standardizedFileURL.pathComponents }
        guard var common = folders.first else {
            throw PluginError("--target \(target.name): it has no files")
        }
        for folder in folders.dropFirst() {
            common = Array(zip(common, folder).prefix { $0 == $1 }.map(\.0))
        }
        return NSString.path(withComponents: common)
    }
}

/// A message for the user, as the plugin's error.
struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The audit's exit status, passed on.
struct ExitStatus: Error, CustomStringConvertible {
    var code: Int32
    var description: String { "contrast audit exited with \(code)" }
}
