public import ArgumentParser
public import ColorScience
import PaletteAudit
import TokenSources

// Options that take one of a few words are enumerations, so --help lists the words and a wrong
// one is refused with them, before any work (swift-argument-parser's `Examples/math` idiom).

/// `--format` of `check`, `suggest`, `variants` and `derive`.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}

/// `--format` of `audit`.
enum AuditFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json, junit, markdown, sarif, github, xcode, html
}

/// `--format` of `matrix`.
enum MatrixFormat: String, CaseIterable, ExpressibleByArgument {
    case text, summary, json, csv
}

/// `--fail-on` of `audit`: the library's policy decides what each word fails.
typealias FailOn = AuditPolicy.FailOn
extension AuditPolicy.FailOn: ExpressibleByArgument {}

/// What else fails `audit` and `report` (``AuditPolicy``): nothing measured, too little measured.
struct PolicyOptions: ParsableArguments {
    @Flag(help: "Let a palette with color tokens and no checks pass (exit 0). Without it, an audit that measured nothing of a palette exits 2, naming `contrast init`, which proposes checks.")
    var allowEmpty = false

    @Option(name: .customLong("min-coverage"), help: ArgumentHelp("Fail (exit 1) when checks measure less than P percent of the color tokens (the report's coverage, added up over every palette).", valueName: "P"))
    var minimumCoverage: Double?

    func validate() throws {
        if let minimumCoverage, !(0...100).contains(minimumCoverage) {
            throw ValidationError("--min-coverage \(CSSNumber.format(minimumCoverage)): give a percentage from 0 to 100")
        }
    }

    /// The policy of a run over `paths`.
    func policy(failOn: AuditPolicy.FailOn? = nil, comparesWithBaseline: Bool, paths: [String]) -> AuditPolicy {
        AuditPolicy(failOn: failOn, comparesWithBaseline: comparesWithBaseline, allowEmpty: allowEmpty, minimumCoverage: minimumCoverage,
                    edge: .commandLine(paths: paths))
    }
}

extension AuditOutcome {
    /// Says on standard error what the report alone would not make plain (the problems are
    /// said one by one before), and exits with the outcome's status.
    func exit() throws {
        for reason in reasons where reason.code == .nothingMeasured || reason.code == .coverageBelow {
            Terminal.writeErrorLine("\(reason.message)")
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}

extension ColorScheme: ExpressibleByArgument {}

extension WCAGLevel: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { WCAGLevel.requestable.map(\.name) }
}

extension ContrastUsage: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    /// The usages a requirement can ask for (decorative and disabled are exempt: they ask nothing).
    public static var allValueStrings: [String] { ContrastUsage.all.filter { !$0.isExempt }.map(\.name) }
}

/// What `audit` and `report` read: paths, the checks to add, the themes to keep.
struct SourceOptions: ParsableArguments {
    @Argument(help: "Palette or token files, or directories of them.")
    var paths: [String]

    @Option(help: "A checks document ({\"checks\": [...]}) whose checks apply to every palette read. Default: contrast.checks.json in each directory named, or in a named file's folder, when there is one (`contrast init` writes it there).")
    var checks: String?

    @Option(name: .customLong("theme"), help: "Only these themes (repeatable).")
    var themes: [String] = []

    @Option(help: "The Xcode idiom asset catalogs are read for: universal (default), iphone, ipad, mac, tv, watch, vision, car. A color set without it uses universal.")
    var idiom: String = "universal"

    @Option(name: .customLong("ignore-property"), help: "A token property declared harmless (repeatable): a token carrying it is measured, with an assumption that says so, instead of unresolved (as \"ignoreProperties\" in a checks document).")
    var ignoredProperties: [String] = []

    @Option(help: "What a check that passes in normal vision and not under a simulated color-vision deficiency (protanopia, deuteranopia, tritanopia) is: warn (the default) or fail. A check's own \"cvd\" wins.")
    var cvd: CVDOption = .warn

    @Option(help: "Checks one run may measure at most (themes × checks × expanded rules); more is refused before any work, naming the palette. A rule of every text token on every surface grows as the product of the two.")
    var maxPairs: Int = AuditRun.defaultMaximumChecks

    @Option(help: "The directory the files a token file names ($ref, a resolver's sources, Tokens Studio's sets, @import) may be read from. Default: each directory named, or a named file's own folder; a reference that leads outside is not read, so a token file from a pull request cannot make CI read another file.")
    var root: String?

    var themeFilter: [String]? { themes.isEmpty ? nil : themes }

    mutating func validate() throws {
        if let root, !FileSystem.unconfined.isDirectory(root) {
            throw ValidationError("--root \(root): not a directory (give the directory the files a token file names may be read from)")
        }
    }

    /// The `--cvd` policy.
    var cvdPolicy: CVDPolicy { cvd == .fail ? .fail : .warn }
}

/// `--cvd` of `audit` and `report`.
enum CVDOption: String, CaseIterable, ExpressibleByArgument {
    case warn, fail
}
