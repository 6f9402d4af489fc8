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
    /// What the reader met that did not become a color token.
    var ledger = ReadLedger()
    /// A checks document's `ignoreProperties`: token properties declared harmless.
    var ignoredProperties: [String] = []
    /// `$extends` found on groups, applied once every file of a set is read.
    var groupExtensions: [GroupExtension] = []
    /// What each `$ref` target (`file#/pointer`) resolved to, so that a target named many
    /// times is resolved once (a tree that names each level twice is not expanded).
    var resolvedReferences: [String: JSONValue] = [:]
    /// A resolver's sets already expanded into their sources, by name: a set that other sets
    /// name many times is expanded once (its problems reported once).
    var expandedSets: [String: [TokenSource]] = [:]
    /// The members of wide objects of a set's files by name (`file#/pointer` → members), so
    /// that following many `$ref`s into one object does not scan it once per reference.
    var memberIndexes: [String: [String: JSONValue]] = [:]
    /// The places already warned about (see ``warn(_:_:at:_:)``).
    var warnedAt: Set<WarningPlace> = []
    /// Whether the token file being flattened says a bare color keyword is a color (see
    /// ``keywordIsColor(_:siblings:)``); nil outside one.
    var keywordsAreColors: Bool?

    struct WarningPlace: Hashable {
        var code: PaletteProblem.Code
        var file: String?
        var location: SourceLocation
        var message: String
    }

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

    /// Decodes a file a directory walk found: a stylesheet's `@import`s are followed inside
    /// `importRoot`, the directory walked.
    static func decode(bytes: [UInt8], file: String, reader: DocumentReader, importRoot: String?) -> (palette: Palette?, problems: [PaletteProblem]) {
        budgeted(inputBytes: bytes.count) {
            decodeWithinBudget(bytes: bytes, file: file, defaultName: nil, limits: Limits(), reader: reader, importRoot: importRoot)
        }
    }

    /// Runs a read under the current ``ReadBudget`` (or a new one for `inputBytes`). A read the
    /// budget stopped yields no palette: what it did read is incomplete, and is never measured.
    static func budgeted(inputBytes: Int, _ body: () -> (palette: Palette?, problems: [PaletteProblem])) -> (palette: Palette?, problems: [PaletteProblem]) {
        let (result, ownStop) = ReadBudget.ensuring(inputBytes: inputBytes, body)
        guard let stop = ownStop ?? ReadBudget.current?.problem else { return result }
        return (nil, result.problems.contains(stop) ? result.problems : result.problems + [stop])
    }

    static func decodeWithinBudget(bytes: [UInt8], file: String?, defaultName: String?, limits: Limits,
                                   reader: DocumentReader, mediaType: String? = nil, importRoot: String? = nil) -> (palette: Palette?, problems: [PaletteProblem]) {
        let context = SourceContext(reader: reader.forReferences(of: file, root: importRoot), defaultName: defaultName, limits: limits, importRoot: importRoot)
        if let text = SourceRegistry.textFormat(file: file, mediaType: mediaType) {
            return text.read(SourceDocument(file: file, bytes: bytes, json: nil), in: context)
        }
        let document: JSONValue
        var warnings: [PaletteProblem] = []
        do {
            document = try JSONParser.parseTokens(bytes, file: file, warnings: &warnings)
        } catch {
            return (nil, [PaletteProblem(.invalidJSON, error.message, file: file, location: error.location)])
        }
        let read = decode(SourceDocument(file: file, bytes: bytes, json: document), in: context)
        return (read.palette, warnings + read.problems)
    }

    /// Decodes a posted body: a text format when its media type names one (`text/css`), else
    /// JSON of any format.
    public static func decode(bytes: [UInt8], mediaType: String?, defaultName: String?, limits: Limits = Limits()) -> (palette: Palette?, problems: [PaletteProblem]) {
        budgeted(inputBytes: bytes.count) {
            decodeWithinBudget(bytes: bytes, file: nil, defaultName: defaultName, limits: limits, reader: .none, mediaType: mediaType)
        }
    }

    /// For the palette fuzzer: `bytes` read as an Xcode color set's `Contents.json` and as an
    /// Android `values/colors.xml` (with the app themes of its styles); the CSS each read color
    /// became (problems are dropped).
    public static func fuzzNativeColors(bytes: [UInt8]) -> [String] {
        var catalog = AssetCatalogReader(root: "/fuzz.xcassets")
        // An appearance whose color cannot be read has no color (its problem says why).
        var colors = catalog.readColorSet(bytes: bytes, file: "fuzz.colorset/Contents.json", name: "fuzz")?.entries.values.filter { $0.unreadable == nil }.map(\.css) ?? []
        var android = AndroidResourceReader(root: "/fuzz/res")
        android.readData(Data(bytes), path: "/fuzz/res/values/colors.xml", theme: "light", apiLevel: 0)
        for resource in android.colors["light"] ?? [] {
            if let css = AndroidResourceReader.css(resource.value).css { colors.append(css) }
        }
        for theme in android.build(name: "fuzz")?.themes ?? [] {
            colors += theme.tokens.filter { $0.aliasTarget == nil }.map(\.value)
        }
        return colors
    }

    /// A stylesheet's custom properties (``StylesheetReader``) as a palette.
    public static func decodeStylesheet(bytes: [UInt8], file: String?, name: String?, limits: Limits = Limits()) -> (palette: Palette?, problems: [PaletteProblem]) {
        budgeted(inputBytes: bytes.count) { decodeStylesheetWithinBudget(bytes: bytes, file: file, name: name, limits: limits) }
    }

    static func decodeStylesheetWithinBudget(bytes: [UInt8], file: String?, name: String?, limits: Limits,
                                             imports: ImportSource? = nil) -> (palette: Palette?, problems: [PaletteProblem]) {
        var reader = StylesheetReader(bytes: bytes, file: file)
        reader.imports = imports
        var palette = reader.palette(name: name ?? "stylesheet")
        var problems = reader.problems
        // A read stopped half-way (a depth limit, the budget, the deadline) says why it stopped,
        // and nothing about what it did not read.
        if palette?.themes.isEmpty ?? true, !reader.stopped {
            problems.append(PaletteProblem(.unknownFormat, "the stylesheet defines no custom properties on :root, html, body, their classes and attributes, a color-scheme or contrast @media, or Tailwind's @theme", file: file))
        }
        for theme in palette?.themes ?? [] where theme.tokens.count > limits.maximumTokensPerTheme {
            problems.append(PaletteProblem(.limitExceeded, "theme \"\(theme.name)\" has \(theme.tokens.count) color custom properties; the limit is \(limits.maximumTokensPerTheme)", file: file))
            palette = nil
        }
        return (palette, problems)
    }

    /// Decodes a parsed document of any format this tool reads (``SourceRegistry``).
    public static func decode(document: JSONValue, file: String? = nil, defaultName: String? = nil, limits: Limits = Limits(),
                              reader: DocumentReader = .none) -> (palette: Palette?, problems: [PaletteProblem]) {
        decode(SourceDocument(file: file, bytes: [], json: document), in: SourceContext(reader: reader, defaultName: defaultName, limits: limits))
    }

    /// Reads a JSON document with the format the registry detects for it.
    static func decode(_ document: SourceDocument, in context: SourceContext) -> (palette: Palette?, problems: [PaletteProblem]) {
        guard let json = document.json else { return (nil, []) }
        var palette: Palette?
        var problems: [PaletteProblem] = []
        if let format = SourceRegistry.detect(document) {
            (palette, problems) = format.read(document, in: context)
            if palette != nil && palette?.format == nil { palette?.format = format.displayName }
        } else if json.members == nil {
            problems.append(PaletteProblem(.wrongType, "a palette must be a JSON object, found \(json.typeName)", file: document.file, location: json.location))
        } else {
            problems.append(PaletteProblem(.unknownFormat, "not a palette or token file: it is \(SourceRegistry.describe(json)). Accepted: \(SourceRegistry.accepted)", file: document.file, location: json.location))
        }
        var unique: [PaletteProblem] = []
        var seen: Set<PaletteProblem> = []
        for p in problems where !seen.contains(p) {
            seen.insert(p)
            unique.append(p)
        }
        return (palette, unique)
    }

    /// The file name without folders and `.json` / `.tokens.json`.
    static func baseName(_ path: String) -> String {
        SourceRegistry.stem(of: String(path.split(separator: "/").last ?? Substring(path)))
    }

    // MARK: Problems

    mutating func problem(_ code: PaletteProblem.Code, _ message: String, at pointer: JSONPointer, _ value: JSONValue?) {
        problems.append(PaletteProblem(code, message, file: file, pointer: pointer, location: value?.location))
    }

    /// Reads an object's fields, reporting unknown ones (typos like "forground") at the end.
    struct Fields {
        let members: [JSONMember]
        let pointer: JSONPointer
        /// Which members were asked for, by position: one bit each for the first 64 (an
        /// object's fields, without hashing their names), a list beyond.
        private var usedBits: UInt64 = 0
        private var usedBeyond: [Int] = []

        init(_ members: [JSONMember], _ pointer: JSONPointer) {
            self.members = members
            self.pointer = pointer
        }

        /// The value of the member `key` (the first, if a built object repeats it); every
        /// member of that name counts as used.
        mutating func value(_ key: String) -> JSONValue? {
            var found: JSONValue?
            for index in members.indices where members[index].key == key {
                if index < 64 { usedBits |= 1 << UInt64(index) } else { usedBeyond.append(index) }
                if found == nil { found = members[index].value }
            }
            return found
        }

        /// Whether the member at `index` was asked for.
        func isUsed(_ index: Int) -> Bool {
            index < 64 ? usedBits & (1 << UInt64(index)) != 0 : usedBeyond.contains(index)
        }
    }

    mutating func finish(_ fields: Fields, allowed: [String], what: String) {
        for (index, member) in fields.members.enumerated() where !fields.isUsed(index) && !member.key.hasPrefix("$") && !member.key.hasPrefix("x-") {
            var message = "unknown field \"\(member.key)\" in \(what)"
            if let close = allowed.first(where: { PaletteDecoder.similar($0, member.key) }) { message += " (did you mean \"\(close)\"?)" }
            message += "; expected one of: \(allowed.joined(separator: ", "))"
            problems.append(PaletteProblem(.unknownField, message, file: file, pointer: fields.pointer.appending(member.key), location: member.keyLocation))
        }
    }

    static func similar(_ a: String, _ b: String) -> Bool {
        editDistance(a, b, atMost: 2) != nil
    }

    /// The Levenshtein distance between `a` and `b` (case-insensitive), or nil when it is more
    /// than `limit`.
    static func editDistance(_ a: String, _ b: String, atMost limit: Int) -> Int? {
        guard limit >= 0 else { return nil }
        let x = Array(a.lowercased().utf8), y = Array(b.lowercased().utf8)
        if abs(x.count - y.count) > limit { return nil }
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) <= limit ? max(x.count, y.count) : nil }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[y.count] <= limit ? previous[y.count] : nil
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
    public static func format(_ value: Double) -> String { RatioFormat.trimmed(value) }
}
