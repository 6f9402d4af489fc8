import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// How much of a palette its checks measure (``Coverage``), and the run's pass/fail policy
/// (``AuditPolicy``) that every edge applies.
@Suite struct CoverageTests {
    static func audit(_ json: String, file: String = "brand.json", themes: [String]? = nil) throws -> PaletteReport {
        let (palette, problems) = PaletteDecoder.decode(json, file: file)
        return Auditor(themeFilter: themes).audit(try #require(palette), problems: problems)
    }

    static let brand = """
        {"name": "brand", "themes": {
          "light": {"tokens": {"gray.900": "#1f2328", "gray.500": "#6e7781", "text.primary": "{gray.900}", "text.muted": "{gray.500}",
                               "text.disabled": "#8c959f", "bg.page": "#ffffff", "bg.inset": "#f6f8fa", "brand": "#0969da"}},
          "dark": {"extends": "light", "tokens": {"bg.page": "#0d1117", "text.primary": "#f0f6fc"}}},
         "checks": [%@]}
        """

    /// A check measures the tokens it names and the tokens their aliases lead through; the
    /// unmeasured text-like and surface-like names are listed (a disabled one is not missing).
    @Test func aCheckMeasuresItsTokensAndTheirAliases() throws {
        let checks = ##"{"id": "body", "foreground": "text.primary", "background": "bg.page", "themes": ["light"]}"##
        let report = try Self.audit(Self.brand.replacingOccurrences(of: "%@", with: checks), themes: ["light"])
        let coverage = try #require(report.coverage)
        // text.primary → gray.900, and bg.page: 3 of the 8 color tokens.
        #expect(coverage.tokens == 8)
        #expect(coverage.measured == 3)
        #expect(coverage.percent == 37.5)
        #expect(coverage.unmeasuredText == Coverage.TokenNames(count: 1, names: ["text.muted"]))
        #expect(coverage.unmeasuredSurfaces == Coverage.TokenNames(count: 1, names: ["bg.inset"]))
        #expect(coverage.line == "3 of 8 color tokens measured (37.5%)")
        #expect(coverage.gapLine == "1 text-like and 1 surface-like tokens no check measures")
        // One theme audited: its coverage is the palette's, so it carries none of its own.
        #expect(report.themes.map(\.coverage) == [nil])
    }

    /// A token measured in one theme and not in another is not covered; the theme whose
    /// coverage differs from the palette's carries its own.
    @Test func aTokenCountsWhenItIsMeasuredInEveryThemeThatDefinesIt() throws {
        let checks = ##"{"id": "body", "foreground": "text.primary", "background": "bg.page", "themes": ["light"]}, {"id": "muted", "foreground": "text.muted", "background": "bg.page"}"##
        let report = try Self.audit(Self.brand.replacingOccurrences(of: "%@", with: checks))
        let coverage = try #require(report.coverage)
        // gray.500, text.muted and bg.page in both themes; text.primary and gray.900 in light only.
        #expect(coverage.measured == 3)
        #expect(coverage.unmeasuredText == Coverage.TokenNames(count: 1, names: ["text.primary"]))
        #expect(report.themes[0].name == "light")
        #expect(report.themes[0].coverage?.measured == 5)
        #expect(report.themes[0].coverage?.percent == 62.5)
        #expect(report.themes[0].coverage?.unmeasuredText == Coverage.TokenNames(count: 0, names: []))
        #expect(report.themes[1].coverage == nil, "dark's coverage is the palette's")
    }

    @Test func theShareIsFlooredAndTheThresholdIsExact() {
        let twoOfThree = Coverage(tokens: 3, measured: 2)
        #expect(twoOfThree.percent == 66.6)
        #expect(twoOfThree.isBelow(66.7))
        #expect(!twoOfThree.isBelow(66.6))
        #expect(!twoOfThree.isBelow(200.0 / 3))
        #expect(Coverage(tokens: 0, measured: 0).percent == nil)
        #expect(!Coverage(tokens: 0, measured: 0).isBelow(100), "no color tokens: nothing to cover")
        #expect(Coverage(tokens: 7, measured: 7).line == "7 of 7 color tokens measured (100%)")
    }

    /// The lists hold the first 20 names; the count says how many there are.
    @Test func longListsAreCutAndCounted() throws {
        let tokens = (0..<45).map { "\"text.t\($0)\": \"#222222\"" } + ["\"bg.page\": \"#ffffff\""]
        let json = ##"{"name": "many", "themes": {"light": {"tokens": {"## + tokens.joined(separator: ",") + ##"}}}, "checks": [{"foreground": "text.t0", "background": "bg.page"}]}"##
        let coverage = try #require(try Self.audit(json).coverage)
        #expect(coverage.tokens == 46)
        #expect(coverage.measured == 2)
        #expect(coverage.unmeasuredText.count == 44)
        #expect(coverage.unmeasuredText.names == (1...20).map { "text.t\($0)" })
        #expect(AuditReport(palettes: [try Self.audit(json)]).coverage.unmeasuredText == Coverage.TokenNames(count: 44, names: nil))
    }

    /// The hand-written JSON carries coverage, outcome and the checks files as JSONEncoder writes them.
    @Test func theJSONIsWhatTheEncoderWrites() throws {
        let checks = ##"{"id": "body", "foreground": "text.primary", "background": "bg.page", "themes": ["light"]}"##
        var report = AuditReport(palettes: [try Self.audit(Self.brand.replacingOccurrences(of: "%@", with: checks)), try Self.audit(##"{"name": "empty", "themes": {"light": {"tokens": {"x": "#000000"}}}}"##)])
        report.outcome = AuditPolicy(minimumCoverage: 90, edge: .commandLine(paths: ["tokens/"])).judge(report)
        report.checksFiles = [ChecksFile(file: "tokens/contrast.checks.json", origin: ChecksFile.found, paths: ["tokens/"])]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        #expect(report.prettyJSON() == String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        let decoded = try JSONDecoder().decode(AuditReport.self, from: Data(report.compactJSON()))
        #expect(decoded.coverage == report.coverage)
        #expect(decoded.outcome == report.outcome)
        #expect(decoded.palettes[0].themes[0].coverage == report.palettes[0].themes[0].coverage)
    }
}

@Suite struct AuditPolicyTests {
    static func report(_ json: String, file: String? = "tokens/brand.tokens.json") throws -> AuditReport {
        let (palette, problems) = PaletteDecoder.decode(json, file: file)
        return AuditReport(palettes: [Auditor().audit(try #require(palette), problems: problems)])
    }

    static let empty = ##"{"text": {"$value": "#222222", "$type": "color"}, "bg": {"$value": "#ffffff", "$type": "color"}}"##
    static let failing = ##"{"name": "brand", "themes": {"light": {"tokens": {"fg": "#777777", "bg": "#ffffff", "link": "#0969da"}}}, "checks": [{"id": "body", "foreground": "fg", "background": "bg"}]}"##

    /// Colors and no check: nothing was measured, and that is not a pass.
    @Test func colorsAndNoChecksIsNotAPass() throws {
        let report = try Self.report(Self.empty)
        let outcome = AuditPolicy(edge: .commandLine(paths: ["tokens/"])).judge(report)
        #expect(outcome.status == .empty)
        #expect(outcome.exitCode == 2)
        #expect(outcome.reasons == [AuditOutcome.Reason(.nothingMeasured,
            "tokens/brand.tokens.json has 2 color tokens and no checks: nothing was measured. Run `contrast init tokens/` to propose checks, or pass --allow-empty.")])
        #expect(AuditPolicy(allowEmpty: true, edge: .commandLine(paths: ["tokens/"])).judge(report) == AuditOutcome(status: .pass, reasons: []))
        // The service says it the same way, with its own advice, and the verdict is not a pass.
        #expect(AuditPolicy(edge: .service).judge(report).reasons.first?.message
            == "tokens/brand.tokens.json has 2 color tokens and no checks: nothing was measured. Run `contrast init` on its tokens to propose checks, or add \"checks\" to the document (docs/palette-format.md).")
        #expect(report.summary.verdict(coverage: report.coverage) == ("no checks: 2 color tokens, none measured", false))
        // A path that needs quoting is quoted for the shell.
        #expect(AuditPolicy(edge: .commandLine(paths: ["my tokens/"])).judge(report).reasons.first?.message.contains("`contrast init 'my tokens/'`") == true)
    }

    /// Several palettes without checks are named together, and a run with some measured says
    /// which were not.
    @Test func severalUnmeasuredPalettesAreNamedTogether() throws {
        let a = try Self.report(Self.empty, file: "a.tokens.json"), b = try Self.report(Self.empty, file: "b.tokens.json")
        let measured = try Self.report(Self.failing, file: "c.json")
        let all = AuditReport(palettes: a.palettes + b.palettes + measured.palettes)
        #expect(AuditPolicy(failOn: .never, edge: .commandLine(paths: ["."])).judge(all).reasons.map(\.message) == [
            "2 palettes have color tokens and no checks, so nothing was measured in them: a.tokens.json (2 color tokens), b.tokens.json (2 color tokens). Run `contrast init .` to propose checks, or pass --allow-empty.",
        ])
        let one = AuditReport(palettes: a.palettes + measured.palettes)
        #expect(AuditPolicy(failOn: .never, edge: .commandLine(paths: ["."])).judge(one).reasons.map(\.message) == [
            "a.tokens.json has 2 color tokens and no checks: nothing was measured in it. Run `contrast init .` to propose checks, or pass --allow-empty.",
        ])
    }

    /// What fails: failures without a baseline, regressions with one, never with never.
    @Test func failuresRegressionsAndNever() throws {
        let report = try Self.report(Self.failing)
        #expect(AuditPolicy().judge(report) == AuditOutcome(status: .fail, reasons: [.init(.failingChecks, "1 of 1 checks fail")]))
        #expect(AuditPolicy().judge(report).exitCode == 1)
        #expect(AuditPolicy(failOn: .never).judge(report).status == .pass)
        // With a baseline the default is regressions: the same failure, known to the baseline, passes.
        var compared = report
        compared.comparison = Baseline(report).compare(with: report)
        #expect(AuditPolicy(comparesWithBaseline: true).judge(compared).status == .pass)
        #expect(AuditPolicy(failOn: .failures, comparesWithBaseline: true).judge(compared).status == .fail)
        // A report history's first run: nothing to regress from, so it passes.
        #expect(AuditPolicy(failOn: .regressions, comparesWithBaseline: true).judge(report).status == .pass)
        // A regression fails.
        let passing = try Self.report(Self.failing.replacingOccurrences(of: "#777777", with: "#000000"))
        var regressed = report
        regressed.comparison = Baseline(passing).compare(with: report)
        #expect(AuditPolicy(comparesWithBaseline: true).judge(regressed) == AuditOutcome(status: .fail, reasons: [.init(.regressions, "1 check regressed against the baseline")]))
    }

    @Test func belowTheMinimumCoverageFailsWithTheFigureAndTheThreshold() throws {
        let report = try Self.report(Self.failing.replacingOccurrences(of: "#777777", with: "#000000"))
        // fg and bg of fg, bg and link: 66.6%.
        #expect(AuditPolicy(minimumCoverage: 66.6).judge(report).status == .pass)
        let outcome = AuditPolicy(minimumCoverage: 80, edge: .commandLine(paths: ["x"])).judge(report)
        #expect(outcome == AuditOutcome(status: .fail, reasons: [.init(.coverageBelow,
            "coverage 66.6% is below --min-coverage 80%: 2 of 3 color tokens are measured by some check")]))
        #expect(outcome.exitCode == 1)
    }

    @Test func problemsAreBrokenAndWeighMost() throws {
        let report = try Self.report(##"{"name": "brand", "themes": {"light": {"tokens": {"fg": "#12", "bg": "#fff"}}}, "checks": [{"foreground": "fg", "background": "bg"}]}"##)
        let outcome = AuditPolicy().judge(report)
        #expect(outcome.status == .broken)
        #expect(outcome.exitCode == 2)
        #expect(outcome.reasons.first?.code == .problems)
    }
}

@Suite struct ChecksDiscoveryTests {
    static func project() throws -> URL {
        let directory = Scratch.directory("discovery")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ##"{"color": {"text": {"$value": "#222222", "$type": "color"}, "bg": {"$value": "#ffffff", "$type": "color"}}}"##
            .write(to: directory.appendingPathComponent("colors.tokens.json"), atomically: true, encoding: .utf8)
        return directory
    }

    /// DIR/contrast.checks.json for a directory, the one in a file's folder for a file; none
    /// for a file with a sidecar of its own, or where there is none.
    @Test func theChecksFileIsFoundBesideThePathNamed() throws {
        let directory = try Self.project()
        let loader = PaletteLoader()
        #expect(loader.checksFile(beside: directory.path) == nil)
        let checks = directory.appendingPathComponent("contrast.checks.json")
        try ##"{"checks": [{"id": "body", "foreground": "color.text", "background": "color.bg"}]}"##.write(to: checks, atomically: true, encoding: .utf8)
        #expect(loader.checksFile(beside: directory.path) == checks.path)
        #expect(loader.checksFile(beside: directory.path + "/") == checks.path)
        let file = directory.appendingPathComponent("colors.tokens.json").path
        #expect(loader.checksFile(beside: file) == checks.path)
        try ##"{"checks": []}"##.write(to: directory.appendingPathComponent("colors.checks.json"), atomically: true, encoding: .utf8)
        #expect(loader.checksFile(beside: file) == nil, "the file's own sidecar is nearer")
    }

    /// Above the path, the nearest folder's document, up to the repository's root (a folder
    /// holding `.git`) and no further; an audit names it as found above the tokens.
    @Test func theChecksFileIsFoundAboveUpToTheRepositorysRoot() throws {
        let outside = Scratch.directory("upward")
        let repository = outside.appendingPathComponent("repo")
        let tokens = repository.appendingPathComponent("design/tokens")
        try FileManager.default.createDirectory(at: tokens, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let file = tokens.appendingPathComponent("colors.tokens.json")
        try ##"{"color": {"text": {"$value": "#222222", "$type": "color"}, "bg": {"$value": "#ffffff", "$type": "color"}}}"##
            .write(to: file, atomically: true, encoding: .utf8)
        let document = ##"{"checks": [{"id": "body", "foreground": "color.text", "background": "color.bg"}]}"##
        // Above the repository's root: another project's, never read.
        try document.write(to: outside.appendingPathComponent("contrast.checks.json"), atomically: true, encoding: .utf8)
        let loader = PaletteLoader()
        #expect(loader.checksFile(beside: file.path) == nil)
        #expect(loader.checksFile(beside: tokens.path) == nil)
        // At the root, it serves every folder below it.
        let atRoot = repository.appendingPathComponent("contrast.checks.json")
        try document.write(to: atRoot, atomically: true, encoding: .utf8)
        #expect(loader.checksFile(beside: file.path) == atRoot.path)
        #expect(loader.checksFile(beside: tokens.path) == atRoot.path)
        let report = AuditRun.audit(paths: [file.path])
        #expect(report.summary.checks == 1)
        #expect(report.checksFiles?.first?.line == "checks: \(atRoot.path) (found above the tokens)")
        // A nearer one wins.
        let nearer = repository.appendingPathComponent("design/contrast.checks.json")
        try document.write(to: nearer, atomically: true, encoding: .utf8)
        #expect(loader.checksFile(beside: file.path) == nearer.path)
        // A confined reader never looks above its root.
        let confined = PaletteLoader(reader: PaletteLoader.confined(to: tokens.path))
        #expect(confined.checksFile(beside: tokens.path) == nil)
    }

    /// Folders up, spelled as the path was: relative paths stay relative.
    @Test func parentFoldersKeepThePathsSpelling() {
        #expect(PaletteLoader.parent(of: "tokens") == ".")
        #expect(PaletteLoader.parent(of: "design/tokens") == "design")
        #expect(PaletteLoader.parent(of: ".") == "..")
        #expect(PaletteLoader.parent(of: "..") == "../..")
        #expect(PaletteLoader.parent(of: "/a/b") == "/a")
        #expect(PaletteLoader.parent(of: "/a") == "/")
        #expect(PaletteLoader.parent(of: "/") == nil)
    }

    /// An audit of the directory uses it, says so, and does not list it as a file passed over.
    @Test func anAuditOfTheDirectoryUsesIt() throws {
        let directory = try Self.project()
        let before = AuditRun.audit(paths: [directory.path])
        #expect(before.summary.checks == 0)
        #expect(before.checksFiles == nil)
        #expect(AuditPolicy(edge: .commandLine(paths: [directory.path])).judge(before).status == .empty)
        let checks = directory.appendingPathComponent("contrast.checks.json")
        try ##"{"checks": [{"id": "body", "foreground": "color.text", "background": "color.bg"}]}"##.write(to: checks, atomically: true, encoding: .utf8)
        let report = AuditRun.audit(paths: [directory.path])
        #expect(report.summary.checks == 1)
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        #expect(report.checksFiles == [ChecksFile(file: checks.path, origin: ChecksFile.found, paths: [directory.path])])
        #expect(report.checksFiles?.first?.line == "checks: \(checks.path) (found beside the tokens)")
        #expect(report.coverage.measured == 2)
        #expect(AuditRun.audit(paths: [directory.path], findChecks: false).summary.checks == 0)
        // --checks wins over the document found.
        let given = AuditRun.audit(paths: [directory.path], checks: checks.path)
        #expect(given.checksFiles == [ChecksFile(file: checks.path, origin: ChecksFile.given)])
    }
}
