import ColorScience
import Foundation

/// Turns a palette document into a ``Palette``, collecting every problem with its JSON pointer
/// instead of stopping at the first.
public struct PaletteDecoder {
    /// Caps that keep a hostile palette cheap to refuse.
    public struct Limits: Sendable {
        public var maximumThemes = 1_000
        public var maximumTokensPerTheme = 100_000
        public var maximumChecks = 100_000
        public var maximumNameBytes = 256

        public init() {}
    }

    public var limits = Limits()
    var problems: [PaletteProblem] = []
    /// A checks document's `themeNames`: themes to rename (a stylesheet's `dark_dimmed` to
    /// `dimmed`), with where each was written.
    var themeRenames: [(from: String, to: String, pointer: JSONPointer, location: SourceLocation?)] = []
    var file: String?
    /// How token objects are written in the document being read.
    var dialect: TokenDialect = .palette
    /// `$extends` found on groups, applied once every file of a set is read.
    var groupExtensions: [GroupExtension] = []

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Decodes palette text. Always returns what could be read; `problems` says what could not.
    public static func decode(_ text: String, file: String? = nil, limits: Limits = Limits()) -> (palette: Palette?, problems: [PaletteProblem]) {
        decode(bytes: Array(text.utf8), file: file, limits: limits)
    }

    public static func decode(bytes: [UInt8], file: String? = nil, defaultName: String? = nil, limits: Limits = Limits(),
                              reader: DocumentReader = .none) -> (palette: Palette?, problems: [PaletteProblem]) {
        budgeted(inputBytes: bytes.count) { decodeWithinBudget(bytes: bytes, file: file, defaultName: defaultName, limits: limits, reader: reader) }
    }

    /// Runs a read under the current ``ReadBudget`` (or a new one for `inputBytes`). A read the
    /// budget stopped yields no palette: what it did read is incomplete, and is never measured.
    static func budgeted(inputBytes: Int, _ body: () -> (palette: Palette?, problems: [PaletteProblem])) -> (palette: Palette?, problems: [PaletteProblem]) {
        let (result, ownStop) = ReadBudget.ensuring(inputBytes: inputBytes, body)
        guard let stop = ownStop ?? ReadBudget.current?.problem else { return result }
        return (nil, result.problems.contains(stop) ? result.problems : result.problems + [stop])
    }

    static func decodeWithinBudget(bytes: [UInt8], file: String?, defaultName: String?, limits: Limits,
                                   reader: DocumentReader) -> (palette: Palette?, problems: [PaletteProblem]) {
        if let file, file.lowercased().hasSuffix(".css") {
            return decodeStylesheet(bytes: bytes, file: file, name: baseName(file), limits: limits)
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            return (nil, [PaletteProblem(.invalidJSON, error.message, file: file, location: error.location)])
        }
        return decode(document: document, file: file, defaultName: defaultName, limits: limits, reader: reader)
    }

    /// For the palette fuzzer: `bytes` read as an Xcode color set's `Contents.json` and as an
    /// Android `values/colors.xml`; the CSS each read color became (problems are dropped).
    public static func fuzzNativeColors(bytes: [UInt8]) -> [String] {
        var catalog = AssetCatalogReader(root: "/fuzz.xcassets")
        var colors = catalog.readColorSet(bytes: bytes, file: "fuzz.colorset/Contents.json", name: "fuzz")?.entries.values.map(\.css) ?? []
        var android = AndroidResourceReader(root: "/fuzz/res")
        android.readData(Data(bytes), path: "/fuzz/res/values/colors.xml", theme: "light", apiLevel: 0)
        for resource in android.colors["light"] ?? [] {
            if let css = AndroidResourceReader.css(resource.value).css { colors.append(css) }
        }
        return colors
    }

    /// A stylesheet's custom properties (``StylesheetReader``) as a palette.
    public static func decodeStylesheet(bytes: [UInt8], file: String?, name: String?, limits: Limits = Limits()) -> (palette: Palette?, problems: [PaletteProblem]) {
        budgeted(inputBytes: bytes.count) { decodeStylesheetWithinBudget(bytes: bytes, file: file, name: name, limits: limits) }
    }

    static func decodeStylesheetWithinBudget(bytes: [UInt8], file: String?, name: String?, limits: Limits) -> (palette: Palette?, problems: [PaletteProblem]) {
        var reader = StylesheetReader(bytes: bytes, file: file)
        var palette = reader.palette(name: name ?? "stylesheet")
        var problems = reader.problems
        // A read stopped half-way (a depth limit, the budget, the deadline) says why it stopped,
        // and nothing about what it did not read.
        if palette == nil && !reader.stopped {
            problems.append(PaletteProblem(.unknownFormat, "the stylesheet defines no custom properties on :root, html, body, their classes and attributes, a color-scheme or contrast @media, or Tailwind's @theme", file: file))
        }
        for theme in palette?.themes ?? [] where theme.tokens.count > limits.maximumTokensPerTheme {
            problems.append(PaletteProblem(.limitExceeded, "theme \"\(theme.name)\" has \(theme.tokens.count) color custom properties; the limit is \(limits.maximumTokensPerTheme)", file: file))
            palette = nil
        }
        return (palette, problems)
    }

    /// Decodes a parsed document of any format this tool reads (see ``SourceFormat``).
    public static func decode(document: JSONValue, file: String? = nil, defaultName: String? = nil, limits: Limits = Limits(),
                              reader: DocumentReader = .none) -> (palette: Palette?, problems: [PaletteProblem]) {
        var decoder = PaletteDecoder(limits: limits)
        decoder.file = file
        let name = file.map(PaletteDecoder.baseName) ?? defaultName
        let format = SourceFormat.detect(document, path: file)
        var palette: Palette?
        switch format {
        case .palette:
            palette = decoder.palette(from: document, defaultName: name)
        case .resolver:
            palette = decoder.resolverPalette(document, name: name, reader: reader)
        case .tokensStudio:
            let sets = (document["values"]?.members ?? document.members ?? []).filter { !$0.key.hasPrefix("$") && $0.value.members != nil }
            let pointerBase = document["values"] == nil ? JSONPointer() : JSONPointer(["values"])
            palette = decoder.tokensStudioPalette(sets: sets.map { ($0.key, file ?? "tokens.json", $0.value, pointerBase.appending($0.key)) },
                                                  themes: document["$themes"], themesFile: nil, metadata: document["$metadata"],
                                                  name: name ?? "tokens", reader: reader)
        case .dtcg, .styleDictionary, .plainTokens:
            let dialect: TokenDialect = format == .dtcg ? .dtcg : .styleDictionary
            var cache: [String: JSONValue?] = [file ?? "tokens.json": document]
            let resolved = decoder.resolveReferences(document, file: file ?? "tokens.json", pointer: JSONPointer(), reader: reader, cache: &cache, setFiles: [])
            decoder.dialect = dialect
            let tokens = decoder.flatten(TokenSource(file: file ?? "tokens.json", root: resolved, pointer: JSONPointer()), dialect: dialect)
            let finished = decoder.finishTokens(tokens.map { token in
                var t = token
                if file == nil { t.file = nil }
                return t
            })
            palette = Palette(name: name ?? "tokens", file: file, themes: [Theme(name: "default", tokens: finished, pointer: JSONPointer())])
            palette?.format = format.displayName
        case .tokensStudioMetadata:
            decoder.problems.append(PaletteProblem(.unknownFormat, "this is Tokens Studio's \(file.map { String($0.split(separator: "/").last ?? "") } ?? "$themes/$metadata") document, which belongs to a folder of token sets: audit the folder that holds it", file: file))
        case .checks:
            decoder.problems.append(PaletteProblem(.unknownFormat, "this is a checks document, not a palette: give it with --checks, or name it NAME.checks.json beside NAME.tokens.json", file: file))
        case .unknown where document.members == nil:
            decoder.problems.append(PaletteProblem(.wrongType, "a palette must be a JSON object, found \(document.typeName)", file: file, location: document.location))
        case .unknown:
            decoder.problems.append(PaletteProblem(.unknownFormat, "not a palette or token file: it is \(SourceFormat.describe(document)). Accepted: \(SourceFormat.accepted)", file: file, location: document.location))
        }
        if palette != nil && palette?.format == nil { palette?.format = format.displayName }
        var unique: [PaletteProblem] = []
        var seen: Set<PaletteProblem> = []
        for p in decoder.problems where !seen.contains(p) {
            seen.insert(p)
            unique.append(p)
        }
        return (palette, unique)
    }

    /// The file name without folders and `.json` / `.tokens.json`.
    static func baseName(_ path: String) -> String {
        var name = String(path.split(separator: "/").last ?? Substring(path))
        for suffix in [".resolver.json", ".tokens.json", ".tokens.json5", ".tokens", ".json5", ".json", ".css"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name
    }

    // MARK: Problems

    mutating func problem(_ code: PaletteProblem.Code, _ message: String, at pointer: JSONPointer, _ value: JSONValue?) {
        problems.append(PaletteProblem(code, message, file: file, pointer: pointer, location: value?.location))
    }

    /// Reads an object's fields, reporting unknown ones (typos like "forground") at the end.
    struct Fields {
        let members: [JSONMember]
        let pointer: JSONPointer
        var used: Set<String> = []

        init(_ members: [JSONMember], _ pointer: JSONPointer) {
            self.members = members
            self.pointer = pointer
        }

        mutating func value(_ key: String) -> JSONValue? {
            used.insert(key)
            return members.first { $0.key == key }?.value
        }
    }

    mutating func finish(_ fields: Fields, allowed: [String], what: String) {
        for member in fields.members where !fields.used.contains(member.key) && !member.key.hasPrefix("$") && !member.key.hasPrefix("x-") {
            var message = "unknown field \"\(member.key)\" in \(what)"
            if let close = allowed.first(where: { PaletteDecoder.similar($0, member.key) }) { message += " (did you mean \"\(close)\"?)" }
            message += "; expected one of: \(allowed.joined(separator: ", "))"
            problems.append(PaletteProblem(.unknownField, message, file: file, pointer: fields.pointer.appending(member.key), location: member.keyLocation))
        }
    }

    static func similar(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().utf8), y = Array(b.lowercased().utf8)
        if abs(x.count - y.count) > 2 { return false }
        var previous = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...max(y.count, 1) where !y.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count] <= 2
    }

    mutating func string(_ fields: inout Fields, _ key: String, required: Bool = false, what: String) -> String? {
        guard let value = fields.value(key) else {
            if required {
                problems.append(PaletteProblem(.missingField, "\(what) needs a \"\(key)\"", file: file, pointer: fields.pointer, location: nil))
            }
            return nil
        }
        guard let text = value.stringValue else {
            problem(.wrongType, "\"\(key)\" must be a string, found \(value.typeName)", at: fields.pointer.appending(key), value)
            return nil
        }
        return text
    }

    mutating func name(_ text: String, at pointer: JSONPointer, _ value: JSONValue?, what: String) -> Bool {
        if text.isEmpty {
            problem(.invalidValue, "\(what) cannot be empty", at: pointer, value)
            return false
        }
        if text.utf8.count > limits.maximumNameBytes {
            problem(.limitExceeded, "\(what) is \(text.utf8.count) bytes long; the limit is \(limits.maximumNameBytes)", at: pointer, value)
            return false
        }
        return true
    }

    // MARK: Palette

    static let paletteFields = ["name", "description", "source", "themes", "checks", "badges", "badgeBordersCarryMeaning", "tokens"]

    mutating func palette(from document: JSONValue, defaultName: String?) -> Palette? {
        let root = JSONPointer()
        guard let members = document.members else {
            problem(.wrongType, "a palette must be a JSON object, found \(document.typeName)", at: root, document)
            return nil
        }
        var fields = Fields(members, root)
        var name = string(&fields, "name", what: "a palette") ?? defaultName ?? ""
        if name.isEmpty {
            problems.append(PaletteProblem(.missingField, "a palette needs a \"name\"", file: file, pointer: root))
            name = "unnamed"
        } else if !self.name(name, at: root.appending("name"), fields.value("name"), what: "the palette name") {
            name = "unnamed"
        }
        var palette = Palette(name: name, file: file, themes: [])
        palette.description = string(&fields, "description", what: "a palette")
        palette.source = string(&fields, "source", what: "a palette")
        if let flag = fields.value("badgeBordersCarryMeaning") {
            if case .bool(let b, _) = flag { palette.badgeBordersCarryMeaning = b } else {
                problem(.wrongType, "\"badgeBordersCarryMeaning\" must be true or false, found \(flag.typeName)", at: root.appending("badgeBordersCarryMeaning"), flag)
            }
        }
        if let themes = fields.value("themes") {
            palette.themes = decodeThemes(themes, at: root.appending("themes"))
        } else if let tokens = fields.value("tokens") {
            // A palette with one theme may give its tokens directly.
            var list: [Token] = []
            var seen: Set<String> = []
            flattenTokens(tokens, prefix: "", pointer: root.appending("tokens"), into: &list, seen: &seen)
            palette.themes = [Theme(name: "default", tokens: finishTokens(list), pointer: root)]
        } else {
            problems.append(PaletteProblem(.missingField, "a palette needs \"themes\" (an object of named themes, each with \"tokens\")", file: file, pointer: root))
        }
        if let checks = fields.value("checks") {
            palette.checks = decodeChecks(checks, at: root.appending("checks"))
        }
        if let badges = fields.value("badges") {
            palette.badges = decodeBadges(badges, at: root.appending("badges"))
        }
        finish(fields, allowed: PaletteDecoder.paletteFields, what: "a palette")
        validateReferences(&palette)
        return palette
    }

    static let themeFields = ["extends", "description", "tokens", "backdrop", "colorScheme"]

    mutating func decodeThemes(_ value: JSONValue, at pointer: JSONPointer) -> [Theme] {
        guard let members = value.members else {
            problem(.wrongType, "\"themes\" must be an object of named themes, found \(value.typeName)", at: pointer, value)
            return []
        }
        if members.isEmpty {
            problem(.invalidValue, "\"themes\" is empty; a palette needs at least one theme", at: pointer, value)
        }
        if members.count > limits.maximumThemes {
            problem(.limitExceeded, "the palette has \(members.count) themes; the limit is \(limits.maximumThemes)", at: pointer, value)
            return []
        }
        var themes: [Theme] = []
        for member in members {
            let themePointer = pointer.appending(member.key)
            guard name(member.key, at: themePointer, member.value, what: "a theme name") else { continue }
            guard let themeMembers = member.value.members else {
                problem(.wrongType, "theme \"\(member.key)\" must be an object with \"tokens\", found \(member.value.typeName)", at: themePointer, member.value)
                continue
            }
            var fields = Fields(themeMembers, themePointer)
            var theme = Theme(name: member.key, tokens: [], pointer: themePointer)
            theme.extends = string(&fields, "extends", what: "a theme")
            theme.description = string(&fields, "description", what: "a theme")
            theme.backdrop = string(&fields, "backdrop", what: "a theme")
            if let scheme = string(&fields, "colorScheme", what: "a theme") {
                if let known = ColorScheme(rawValue: scheme) {
                    theme.colorScheme = known
                } else {
                    problems.append(PaletteProblem(.wrongType, "\"colorScheme\" of theme \"\(member.key)\" must be \"light\" or \"dark\", found \"\(scheme)\"",
                                                   file: file, pointer: themePointer.appending("colorScheme"), location: member.value.location))
                }
            }
            if let tokens = fields.value("tokens") {
                var seen: Set<String> = []
                flattenTokens(tokens, prefix: "", pointer: themePointer.appending("tokens"), into: &theme.tokens, seen: &seen)
                theme.tokens = finishTokens(theme.tokens, theme: member.key)
                if theme.tokens.count > limits.maximumTokensPerTheme {
                    problem(.limitExceeded, "theme \"\(member.key)\" has \(theme.tokens.count) tokens; the limit is \(limits.maximumTokensPerTheme)", at: themePointer.appending("tokens"), tokens)
                    theme.tokens = []
                }
            } else if theme.extends == nil {
                problems.append(PaletteProblem(.missingField, "theme \"\(member.key)\" needs \"tokens\" (or \"extends\" another theme)", file: file, pointer: themePointer, location: member.value.location))
            }
            finish(fields, allowed: PaletteDecoder.themeFields, what: "a theme")
            themes.append(theme)
        }
        return themes
    }

    // MARK: Cross-references

    /// Theme `extends` and check `themes` must name existing themes; `extends` must not loop.
    mutating func validateReferences(_ palette: inout Palette) {
        let names = Set(palette.themes.map(\.name))
        for (index, theme) in palette.themes.enumerated() {
            guard let base = theme.extends else { continue }
            if !names.contains(base) {
                problems.append(PaletteProblem(.unknownTheme, "theme \"\(theme.name)\" extends \"\(base)\", which is not a theme of this palette (themes: \(palette.themes.map(\.name).joined(separator: ", ")))", file: file, pointer: theme.pointer.appending("extends")))
                palette.themes[index].extends = nil
                continue
            }
            var seen: [String] = [theme.name]
            var current: String? = base
            while let next = current {
                if seen.contains(next) {
                    problems.append(PaletteProblem(.extendsCycle, "theme \"\(theme.name)\" extends itself through \(seen.joined(separator: " → ")) → \(next)", file: file, pointer: theme.pointer.appending("extends")))
                    palette.themes[index].extends = nil
                    break
                }
                seen.append(next)
                current = palette.theme(named: next)?.extends
            }
        }
        for check in palette.checks {
            for name in check.themes ?? [] where !names.contains(name) {
                problems.append(PaletteProblem(.unknownTheme, "check \"\(check.id)\" names theme \"\(name)\", which is not a theme of this palette", file: file, pointer: check.pointer.appending("themes"), location: check.location))
            }
        }
        for badge in palette.badges {
            for name in badge.themes ?? [] where !names.contains(name) {
                problems.append(PaletteProblem(.unknownTheme, "badge \"\(badge.name)\" names theme \"\(name)\", which is not a theme of this palette", file: file, pointer: badge.pointer.appending("themes"), location: badge.location))
            }
        }
    }
}

/// Numbers written the short way CSS accepts (`0.5`, `1`, `-0.25`).
public enum CSSNumber {
    public static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
