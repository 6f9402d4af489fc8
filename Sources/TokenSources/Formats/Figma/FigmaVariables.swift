/// Figma variables, whichever file they were read from (the REST API's response, or Figma's own
/// DTCG export of one file per collection and mode), and the one way they become themes.
///
/// - Every color variable is a token, named by its Figma name with `/` written `.`
///   (`bg/primary` → `bg.primary`); where two collections hold the same name, both are
///   qualified by their collection (`Semantic Colors.bg.primary`).
/// - Themes are modes. The modes of each local collection that holds colors and has more than
///   one are an axis; every combination of the axes is a theme (named by its modes joined with
///   `-`), and every other collection (library copies, single-mode collections) takes its
///   default mode, as Figma renders a frame that sets no mode for it. Modes are resolved per
///   collection, never by mode ID alone (library copies reuse the local IDs). When the axes
///   would make more themes than the limit, each axis is read on its own and a warning says so.
/// - An alias is a reference to the target token, resolved in the theme; an alias to a variable
///   that was not read (a library's) is unresolved, and says which variable it names.
struct FigmaVariables {
    struct Collection {
        var id: String
        var name: String
        var modes: [(id: String, name: String)]
        var defaultMode: String?
        var remote: Bool
        /// Where its modes are written, for a problem about them.
        var file: String? = nil
        var pointer: JSONPointer? = nil
    }

    enum Value {
        /// A CSS color, exactly as stored.
        case color(String)
        /// An alias to the variable with this ID.
        case alias(String)
        /// A value that is neither: the ledger's reason, and the problem's message.
        case invalid(reason: String, message: String)
    }

    /// A variable's value in one mode, and where it is written.
    struct ModeValue {
        var mode: String
        var value: Value
        var file: String?
        var pointer: JSONPointer
        var location: SourceLocation?
        /// What the ledger counts it as one declaration of (the variable, unless each mode's
        /// value is written apart, as in an export of one file per mode).
        var declaration: String?
        /// An assumption the value rests on, said on every check that uses it.
        var assumed: String?
    }

    struct Variable {
        var id: String
        var name: String
        var collection: String
        var values: [ModeValue]
        var file: String?
        var location: SourceLocation?
    }

    var collections: [String: Collection] = [:]
    /// The color variables, in the order read.
    var colors: [Variable] = []

    /// The themes the variables make (see the type's comment), with what was not read entered
    /// in `ledger` and the problems in `problems`; nil when the read budget ran out.
    /// `unread` completes "a variable … (a library's)": what the source does not include.
    func themes(file: String?, unread: String, limits: PaletteDecoder.Limits, ledger: inout ReadLedger,
                problems: inout [PaletteProblem]) -> (themes: [Theme], axes: [Collection])? {
        var byID: [String: Variable] = [:]
        for v in colors { byID[v.id] = v }
        // Each variable's values by mode, for a lookup per theme instead of a scan.
        var valuesByMode: [String: [String: ModeValue]] = [:]
        for v in colors { valuesByMode[v.id] = Dictionary(v.values.map { ($0.mode, $0) }, uniquingKeysWith: { first, _ in first }) }
        // Names: Figma's, with the collection where two collections share one.
        var collectionsByName: [String: Set<String>] = [:]
        for v in colors { collectionsByName[v.name, default: []].insert(v.collection) }
        // A collection's label: its name, with its ID where two collections share the name.
        var namesTaken: [String: Int] = [:]
        for c in collections.values { namesTaken[c.name, default: 0] += 1 }
        func label(_ id: String) -> String {
            guard let c = collections[id] else { return id }
            return namesTaken[c.name, default: 0] > 1 ? "\(c.name) [\(c.id)]" : c.name
        }
        // Each variable's token name, made once (not once per theme).
        var tokenNames: [String: String] = [:]
        for v in colors where tokenNames[v.id] == nil {
            let base = v.name.split(separator: "/").map { String($0).trimmingSpaces }.joined(separator: ".")
            tokenNames[v.id] = (collectionsByName[v.name]?.count ?? 0) > 1 ? label(v.collection) + "." + base : base
        }
        func tokenName(_ v: Variable) -> String { tokenNames[v.id]! }
        // Each collection's default mode, found once: looked up for every variable in every
        // theme, a scan of the modes made a library collection of many modes cost
        // themes × variables × modes (449 KB took 9 s).
        var defaults: [String: (id: String, name: String)] = [:]
        for c in collections.values {
            guard let id = c.defaultMode ?? c.modes.first?.id else { continue }
            defaults[c.id] = (id, c.modes.first { $0.id == id }?.name ?? id)
        }
        // The axes: local collections with colors and more than one mode.
        let colored = Set(colors.map(\.collection))
        let axes = collections.values.filter { !$0.remote && $0.modes.count > 1 && colored.contains($0.id) }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        var combinations: [[String: (id: String, name: String)]] = [[:]]
        var count = 1
        var overflow = false
        for axis in axes {
            let (product, over) = count.multipliedReportingOverflow(by: axis.modes.count)
            if over || product > limits.maximumThemes { overflow = true; break }
            count = product
        }
        func describe(_ axes: [Collection]) -> String {
            axes.prefix(16).map { "\($0.name.excerpt(40)) (\($0.modes.count))" }.joined(separator: ", ") + (axes.count > 16 ? " and \(axes.count - 16) more" : "")
        }
        if overflow {
            // One axis at a time, the others at their defaults: as many themes as the axes have
            // modes, added up, which is held to the limit every format keeps (a collection of
            // 20,000 modes made 20,000 themes).
            let total = axes.reduce(0) { $0 + $1.modes.count }
            guard total <= limits.maximumThemes else {
                let largest = axes.max { $0.modes.count < $1.modes.count }
                problems.append(PaletteProblem(.limitExceeded, "the modes of \(describe(axes)) make \(total) themes even read one collection at a time; the limit is \(limits.maximumThemes)",
                                               file: largest?.file ?? file, pointer: largest?.pointer ?? JSONPointer(["meta", "variableCollections"]), location: nil))
                return nil
            }
            combinations = axes.flatMap { axis in axis.modes.map { [axis.id: $0] } }
            problems.append(PaletteProblem(.limitExceeded, "the modes of \(describe(axes)) would combine into more than \(limits.maximumThemes) themes; each collection's modes are read on their own, with the others at their default modes",
                                           file: file, pointer: JSONPointer(["meta", "variableCollections"]), location: nil, severity: .warning))
        } else {
            for axis in axes {
                combinations = combinations.flatMap { partial in axis.modes.map { mode in partial.merging([axis.id: mode]) { a, _ in a } } }
            }
        }
        /// The mode of `v`'s collection in a theme: the theme's, else the collection's default.
        func mode(of v: Variable, in combination: [String: (id: String, name: String)]) -> (id: String, name: String)? {
            guard collections[v.collection] != nil else { return nil }
            return combination[v.collection] ?? defaults[v.collection]
        }
        /// The value of `v` in a theme's modes: the one it has for that mode, and no other (a value
        /// of another mode, or of a mode the collection does not have, was measured in its place).
        func value(of v: Variable, in combination: [String: (id: String, name: String)]) -> ModeValue? {
            mode(of: v, in: combination).flatMap { valuesByMode[v.id]?[$0.id] }
        }
        var lacking: [String: String] = [:]  // variable → the first mode it has no value for
        var made: Set<String> = []
        /// The missing variable an alias chain from `v` ends at, if it ends at one. Each chain is
        /// walked once per theme: where it ends is remembered for every variable on it (`ends`),
        /// and each link is spent from the read's budget (chains and cycles in every mode took
        /// 34 s from 138 KB).
        func missingTarget(of v: Variable, in combination: [String: (id: String, name: String)], ends: inout [String: String?]) -> String? {
            var current = v
            var path: [String] = []
            var onPath: Set<String> = []
            var end: String?
            walk: for _ in 0..<ReadBudget.maximumDepth {
                if let known = ends[current.id] {
                    end = known
                    break walk
                }
                guard ReadBudget.spend(on: "the Figma alias chains", file: current.file, location: current.location) else { break walk }
                path.append(current.id)
                onPath.insert(current.id)
                guard let found = value(of: current, in: combination), case .alias(let target) = found.value else { break walk }
                guard let next = byID[target] else {
                    end = target
                    break walk
                }
                if onPath.contains(next.id) { break walk }  // a cycle
                current = next
            }
            // A cycle or a chain too long ends at nothing missing: the theme's resolver reports it.
            for id in path { ends[id] = .some(end) }
            return end
        }
        var warned: Set<String> = []
        var themes: [Theme] = []
        for combination in combinations {
            var ends: [String: String?] = [:]
            // Each theme copies every color variable: spent, so modes cannot multiply a small
            // file into millions of tokens.
            guard ReadBudget.spend(colors.count + 1, bytes: colors.count * ReadBudget.bytesPerThemeToken, on: "the themes of the Figma modes", file: file, location: nil) else { return nil }
            let name = combination.isEmpty ? "default"
                : axes.compactMap { combination[$0.id]?.name }.joined(separator: "-")
            var tokens: [Token] = []
            for v in colors {
                guard let found = value(of: v, in: combination) else {
                    if collections[v.collection] == nil || v.values.isEmpty {
                        if warned.insert(v.id).inserted {
                            let reason = collections[v.collection] == nil ? "its collection \(v.collection) is not in the response" : "it has no value for any mode"
                            ledger.notRead(tokenName(v), reason: reason, file: v.file, location: v.location)
                        }
                    } else if lacking[v.id] == nil {
                        lacking[v.id] = mode(of: v, in: combination)?.name ?? "?"
                    }
                    continue
                }
                var token = Token(name: tokenName(v), value: "", assumed: found.assumed, pointer: found.pointer, location: found.location, file: found.file)
                token.declaration = found.declaration ?? v.id
                token.type = "color"
                switch found.value {
                case .alias(let target):
                    // (A walk the budget stopped ends at nothing known; the direct target is still
                    // looked up, so a missing one is never taken for a variable.)
                    if let missing = missingTarget(of: v, in: combination, ends: &ends) ?? (byID[target] == nil ? target : nil) {
                        // Not a token: a check that names it is unresolved, never measured.
                        if warned.insert(v.id).inserted {
                            let reason = "an alias\(missing == target ? "" : " (through a chain)") to \(missing), a variable \(unread) (a library's), so its color is unknown"
                            problems.append(PaletteProblem(.unknownToken, "\(tokenName(v)) is not read: it is \(reason)", file: found.file, pointer: found.pointer, location: found.location, severity: .warning))
                            ledger.notRead(tokenName(v), reason: reason, file: found.file, location: found.location)
                        }
                        continue
                    }
                    token.value = "{\(tokenName(byID[target]!))}"
                case .color(let css):
                    token.value = css
                case .invalid(let reason, let message):
                    if warned.insert(v.id).inserted {
                        ledger.notRead(tokenName(v), reason: reason, file: found.file, location: found.location)
                        problems.append(PaletteProblem(.invalidColor, message, file: found.file, pointer: found.pointer, location: found.location))
                    }
                    continue
                }
                tokens.append(token)
                made.insert(v.id)
            }
            themes.append(Theme(name: name, tokens: tokens))
        }
        // A variable without a value for a theme's mode is not a token of that theme: said once,
        // and not read at all when no theme has it.
        for v in colors {
            guard let missing = lacking[v.id] else { continue }
            let reason = "it has no value for mode \(missing) of its collection (valuesByMode holds \(v.values.prefix(8).map { $0.mode.excerpt(40) }.joined(separator: ", "))\(v.values.count > 8 ? " and \(v.values.count - 8) more" : "")), so it has no color in the themes of that mode"
            problems.append(PaletteProblem(.missingField, "\(tokenName(v)): \(reason)", file: v.file, location: v.location, severity: .warning))
            if !made.contains(v.id) && warned.insert(v.id).inserted { ledger.notRead(tokenName(v), reason: reason, file: v.file, location: v.location) }
        }
        return (themes, axes)
    }

    /// How the themes were made, for the palette's format line.
    static func describeThemes(_ axes: [Collection]) -> String {
        axes.isEmpty ? "; one theme (every collection at its default mode)" : "; themes from the modes of \(axes.map(\.name).joined(separator: " × "))"
    }
}
