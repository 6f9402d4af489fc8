import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// `--format github` (workflow commands) and `--format xcode` (compiler diagnostics): the
/// escaping each ecosystem defines, and every finding at its token's file and line.
@Suite struct AnnotationRendererTests {
    // actions/toolkit `command.ts`: data escapes %, CR, LF; properties also : and ,.
    @Test(arguments: [
        ("plain", "plain", "plain"),
        ("100% sure", "100%25 sure", "100%25 sure"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("p › dark › badge:red, AA", "p › dark › badge:red, AA", "p › dark › badge%3Ared%2C AA"),
        ("%0A stays text", "%250A stays text", "%250A stays text"),
        ("::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"),
    ])
    func gitHubEscaping(text: String, data: String, property: String) {
        #expect(GitHubRenderer.escapeData(text) == data)
        #expect(GitHubRenderer.escapeProperty(text) == property)
    }

    @Test(arguments: [
        ("tokens/a.json", "/repo", "/repo", "tokens/a.json"),
        ("a.json", "/repo/tokens", "/repo", "tokens/a.json"),
        ("../shared/a.json", "/repo/app", "/repo", "shared/a.json"),
        ("./x/./../a.json", "/repo", "/repo", "a.json"),
        ("/elsewhere/a.json", "/repo", "/repo", "/elsewhere/a.json"),
        ("/repository/a.json", "/repo", "/repo", "/repository/a.json"),
    ])
    func pathsAreRelativeToTheRepository(file: String, workingDirectory: String, root: String, expected: String) {
        #expect(AnnotationPath.relative(file, to: root, workingDirectory: workingDirectory) == expected)
    }

    /// A palette on disk: one failing check (line 4 holds its foreground), a false claim,
    /// a deprecated token and a bad color.
    static func report(baseline: AuditReport? = nil, foreground: String = "#777777") throws -> (AuditReport, String) {
        let directory = Scratch.directory("annotations")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("brand, v2.json").path
        let text = """
            {"name": "brand", "themes": {"light": {"tokens": {
              "bg": "#ffffff",
              "old": {"$value": "#000000", "$deprecated": "use fg"},
              "fg": "\(foreground)",
              "bad": "#12"
            }}},
            "checks": [
              {"id": "body", "foreground": "fg", "background": "bg", "claim": {"ratio": 7, "level": "AAA"}},
              {"id": "legacy", "foreground": "old", "background": "bg"}
            ]}
            """
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        var report = AuditRun.audit(paths: [file])
        if let baseline { report.comparison = Baseline(baseline).compare(with: report) }
        return (report, directory.path)
    }

    /// A token that is an alias: the annotation points at the token the check names, in its
    /// own file, not at the value its chain ends at in another file.
    @Test func anAliasIsAnnotatedWhereTheTokenIsDeclared() throws {
        let directory = Scratch.directory("annotations-alias")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ##"{"gray": {"light": {"$type": "color", "$value": "#eeeeee"}, "white": {"$type": "color", "$value": "#ffffff"}}}"##
            .write(to: directory.appendingPathComponent("base.tokens.json"), atomically: true, encoding: .utf8)
        try "{\n  \"text\": {\"$type\": \"color\", \"$value\": \"{gray.light}\"},\n  \"surface\": {\"$type\": \"color\", \"$value\": \"{gray.white}\"}\n}\n"
            .write(to: directory.appendingPathComponent("semantic.tokens.json"), atomically: true, encoding: .utf8)
        let checks = directory.appendingPathComponent("checks.json")
        try #"{"checks": [{"foreground": "text", "background": "surface"}]}"#.write(to: checks, atomically: true, encoding: .utf8)
        let report = AuditRun.audit(paths: [directory.path], checks: checks.path)
        let line = try #require(GitHubRenderer.render(report, workingDirectory: directory.path).split(separator: "\n").first { $0.hasPrefix("::error") })
        #expect(line.hasPrefix("::error file=semantic.tokens.json,line=2,"), "\(line)")
    }

    @Test func gitHubCommandsPointAtTheTokens() throws {
        let (report, directory) = try Self.report()
        let lines = GitHubRenderer.render(report, workingDirectory: directory).split(separator: "\n").map(String.init)
        // The bad color: a problem, with its line and column; then the failure at fg's line.
        #expect(lines[0].hasPrefix("::error file=brand%2C v2.json,line=5,col=10,title=Palette problem::/themes/light/tokens/bad "))
        #expect(lines[1].hasPrefix("::error file=brand%2C v2.json,line=4,title=Insufficient contrast%3A light › body::brand › light › body: fg #777777 on bg #ffffff: 4.47:1"))
        #expect(lines[1].contains("fix: foreground #"))
        #expect(lines[2].hasPrefix("::warning file=brand%2C v2.json,line=4,title=False contrast claim%3A light › body::brand › light › body: claimed 7:1 AAA"))
        #expect(lines[3] == "::notice file=brand%2C v2.json,line=3,title=Deprecated token%3A light › legacy::brand › light › legacy: token old is deprecated: use fg")
        #expect(lines.last == "contrast: " + report.summary.line + " · coverage: 3 of 4 color tokens measured (75%)")
        #expect(lines.count == 5)
        // From a subdirectory of the repository, the paths are still the repository's.
        let parent = URL(fileURLWithPath: directory).deletingLastPathComponent().path
        let inRepository = GitHubRenderer.render(report, workingDirectory: directory, repositoryRoot: parent)
        #expect(inRepository.hasPrefix("::error file=" + GitHubRenderer.escapeProperty(URL(fileURLWithPath: directory).lastPathComponent) + "/brand%2C v2.json,line=5,col=10,"))
    }

    @Test func regressionsComeFirstAtTheirCheck() throws {
        let (before, _) = try Self.report(foreground: "#000000")
        let (report, directory) = try Self.report(baseline: before)
        let lines = GitHubRenderer.render(report, workingDirectory: directory).split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("::error file=brand%2C v2.json,line=4,title=Contrast regression%3A light › body::regressed: brand › light › body: AAA → AA-large (21.00:1 → 4.47:1, pass → fail)"))
        #expect(lines[1].hasPrefix("::error file=brand%2C v2.json,line=5,col=10,title=Palette problem::"))
        // The regressed check fails, and the baseline never accepted that failure: an error.
        #expect(lines[2].hasPrefix("::error file=brand%2C v2.json,line=4,title=Insufficient contrast"))
    }

    /// A failure the baseline holds too is known: a warning that says so, after the other
    /// warnings; unless failures fail the run all the same (`--fail-on failures`).
    @Test func aFailureTheBaselineAcceptsIsAWarning() throws {
        let (before, _) = try Self.report()
        var (report, directory) = try Self.report(baseline: before)
        report.outcome = AuditPolicy(comparesWithBaseline: true).judge(report)
        var lines = GitHubRenderer.render(report, workingDirectory: directory).split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("::error") }.count == 1, "\(lines)")
        #expect(lines[0].hasPrefix("::error file=brand%2C v2.json,line=5,col=10,title=Palette problem::"))
        #expect(lines[1].hasPrefix("::warning file=brand%2C v2.json,line=4,title=False contrast claim"))
        #expect(lines[2].hasPrefix("::warning file=brand%2C v2.json,line=4,title=Insufficient contrast%3A light › body::brand › light › body: fg #777777 on bg #ffffff: 4.47:1"))
        #expect(lines[2].hasSuffix(" (failing in the baseline too: accepted, so it does not fail the run)"))
        #expect(lines[3].hasPrefix("::notice file=brand%2C v2.json,line=3,title=Deprecated token"))

        report.outcome = AuditPolicy(failOn: .failures, comparesWithBaseline: true).judge(report)
        lines = GitHubRenderer.render(report, workingDirectory: directory).split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("::error file=brand%2C v2.json,line=4,title=Insufficient contrast%3A light › body::"), "\(lines)")
        #expect(!lines[1].contains("accepted"))
    }

    /// `count` failing checks `f0`…, each with a false claim; `deprecated` passing checks on
    /// deprecated tokens; the check on `f\(count - 1)` passes when `lastPasses`.
    static func manyFindings(count: Int, deprecated: Int, lastPasses: Bool = false, baseline: AuditReport? = nil) throws -> (AuditReport, String) {
        let directory = Scratch.directory("annotations-many")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("many.json").path
        var tokens: [String] = ["\"bg\": \"#ffffff\""]
        var checks: [String] = []
        for i in 0..<count {
            let color = lastPasses && i == count - 1 ? "#000000" : "#777777"
            tokens.append("\"f\(i)\": \"\(color)\"")
            checks.append("{\"id\": \"c\(i)\", \"foreground\": \"f\(i)\", \"background\": \"bg\", \"claim\": {\"ratio\": 7, \"level\": \"AAA\"}}")
        }
        for i in 0..<deprecated {
            tokens.append("\"d\(i)\": {\"$value\": \"#000000\", \"$deprecated\": \"use f0\"}")
            checks.append("{\"id\": \"d\(i)\", \"foreground\": \"d\(i)\", \"background\": \"bg\"}")
        }
        let head = "{\"name\": \"many\", \"themes\": {\"light\": {\"tokens\": {\n"
        let text: String = head + tokens.joined(separator: ",\n") + "\n}}},\n\"checks\": [" + checks.joined(separator: ",\n") + "]}\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        var report = AuditRun.audit(paths: [file])
        if let baseline { report.comparison = Baseline(baseline).compare(with: report) }
        report.outcome = AuditPolicy(comparesWithBaseline: baseline != nil).judge(report)
        return (report, directory.path)
    }

    /// GitHub keeps 10 annotations of each kind per step: the first 10 of each are written, 9
    /// notices, and one notice that counts the rest.
    @Test func annotationsAreCappedAtTenOfEachKindAndTheRestCounted() throws {
        let (report, directory) = try Self.manyFindings(count: 15, deprecated: 12)
        let lines = GitHubRenderer.render(report, workingDirectory: directory).split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("::error ") }, warnings = lines.filter { $0.hasPrefix("::warning ") }
        let notices = lines.filter { $0.hasPrefix("::notice ") }
        #expect(errors.count == 10 && warnings.count == 10 && notices.count == 10)
        #expect(lines.count == 31)
        // In report order: the first ten failures, the first ten false claims, nine deprecations.
        #expect(errors.first?.contains("title=Insufficient contrast%3A light › c0::") == true)
        #expect(errors.last?.contains("title=Insufficient contrast%3A light › c9::") == true)
        #expect(warnings.last?.contains("title=False contrast claim%3A light › c9::") == true)
        #expect(notices[8].contains("title=Deprecated token%3A light › d8::"))
        #expect(lines[29] == "::notice title=contrast%3A more findings::5 errors, 5 warnings, 3 notices more not annotated: GitHub shows 10 annotations of each kind per step. The job summary and the SARIF report (--format sarif) hold all 42.")
        #expect(lines[30].hasPrefix("contrast: 27 checks"))
    }

    @Test func atTheCapsNothingIsCounted() throws {
        let (report, directory) = try Self.manyFindings(count: 10, deprecated: 10)
        let lines = GitHubRenderer.render(report, workingDirectory: directory).split(separator: "\n").map(String.init)
        #expect(lines.count == 31 && !lines.contains { $0.contains("more findings") })
        #expect(lines.filter { $0.hasPrefix("::notice ") }.count == 10)
        let (one, _) = try Self.manyFindings(count: 11, deprecated: 0)
        let more = GitHubRenderer.render(one, workingDirectory: directory).split(separator: "\n").map(String.init)
        #expect(more.filter { $0.hasPrefix("::error ") }.count == 10)
        #expect(more[20] == "::notice title=contrast%3A more findings::1 error, 1 warning more not annotated: GitHub shows 10 annotations of each kind per step. The job summary and the SARIF report (--format sarif) hold all 22.")
    }

    /// Past the caps, the regression still comes first, and the failures the baseline accepts
    /// are warnings after the false claims.
    @Test func aRegressionIsAnnotatedPastTheCaps() throws {
        let (before, _) = try Self.manyFindings(count: 15, deprecated: 0, lastPasses: true)
        let (report, directory) = try Self.manyFindings(count: 15, deprecated: 0, baseline: before)
        let lines = GitHubRenderer.render(report, workingDirectory: directory).split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("::error ") }
        #expect(errors.count == 2, "\(errors)")
        #expect(errors[0].contains("title=Contrast regression%3A light › c14::regressed: many › light › c14"))
        #expect(errors[1].contains("title=Insufficient contrast%3A light › c14::"))
        let warnings = lines.filter { $0.hasPrefix("::warning ") }
        #expect(warnings.count == 10 && warnings.allSatisfy { $0.contains("title=False contrast claim") })
        #expect(lines.contains("::notice title=contrast%3A more findings::19 warnings more not annotated: GitHub shows 10 annotations of each kind per step. The job summary and the SARIF report (--format sarif) hold all 31."))
    }

    @Test func xcodeDiagnosticsAreAbsoluteAndOneLineEach() throws {
        let (report, directory) = try Self.report()
        let lines = XcodeRenderer.render(report, workingDirectory: directory).split(separator: "\n").map(String.init)
        let path = directory + "/brand, v2.json"
        #expect(lines[0].hasPrefix("\(path):5:10: error: Palette problem: /themes/light/tokens/bad "))
        #expect(lines[0].hasSuffix("[contrast/palette-problem]"))
        #expect(lines[1].hasPrefix("\(path):4: error: Insufficient contrast: light › body: brand › light › body: fg #777777 on bg #ffffff: 4.47:1"))
        #expect(lines[2].hasPrefix("\(path):4: warning: False contrast claim: light › body: "))
        #expect(lines[3] == "\(path):3: note: Deprecated token: light › legacy: brand › light › legacy: token old is deprecated: use fg [contrast/deprecated-token]")
        #expect(lines.count == 5)
    }

    @Test func aFindingWithoutAPlaceAndLineBreaks() {
        let a = AuditAnnotation(.warning, rule: "r", title: "T, x", message: "one\r\ntwo\nthree\u{2028}four", file: nil, line: 3, column: 2)
        #expect(a.line == nil && a.column == nil)
        #expect(GitHubRenderer.command(a, workingDirectory: "/w", repositoryRoot: "/w") == "::warning title=T%2C x::one%0D%0Atwo%0Athree\u{2028}four")
        #expect(XcodeRenderer.diagnostic(a, workingDirectory: "/w") == "warning: T, x: one two three four [r]")
        let b = AuditAnnotation(.error, rule: "r", title: "T", message: "m", file: "a.json")
        #expect(GitHubRenderer.command(b, workingDirectory: "/w", repositoryRoot: "/w") == "::error file=a.json,title=T::m")
        #expect(XcodeRenderer.diagnostic(b, workingDirectory: "/w") == "/w/a.json: error: T: m [r]")
    }
}
