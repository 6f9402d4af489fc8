public import ColorScience

/// A design-system palette: named themes of color tokens, and the pairs that must contrast.
/// See docs/palette-format.md for the file format.
public struct Palette: Sendable {
    public var name: String
    public var description: String?
    /// Where the values come from (a document, a Figma file…).
    public var source: String?
    /// The file it was read from, for messages.
    public var file: String?
    public var themes: [Theme]
    public var checks: [Check]
    public var badges: [Badge]
    /// Whether badge borders carry meaning (then each border gets a non-text check).
    public var badgeBordersCarryMeaning: Bool
    /// What the source was read as (`DTCG resolver`, `Tokens Studio`…), for report headers.
    public var format: String?
    /// Every file the palette was read from, when it spans several.
    public var files: [String] = []
    /// What the reader met that did not become a color token (not colors, not read).
    public var ledger = ReadLedger()
    /// Token properties declared harmless (`"ignoreProperties"` in a checks document,
    /// `--ignore-property`): a token carrying only these is measured, with an assumption that
    /// says so, instead of being unresolved.
    public var ignoredProperties: Set<String> = []

    public init(name: String, description: String? = nil, source: String? = nil, file: String? = nil,
                themes: [Theme], checks: [Check] = [], badges: [Badge] = [], badgeBordersCarryMeaning: Bool = false) {
        self.name = name
        self.description = description
        self.source = source
        self.file = file
        self.themes = themes
        self.checks = checks
        self.badges = badges
        self.badgeBordersCarryMeaning = badgeBordersCarryMeaning
    }

    public func theme(named name: String) -> Theme? {
        themes.first { $0.name == name }
    }

    /// Renames themes as a checks document's `themeNames` says (`{"dark_dimmed": "dimmed"}`),
    /// with the themes that extend them; a name that is not a theme, or a new name already
    /// taken, is a problem at the entry.
    mutating func renameThemes(_ renames: [(from: String, to: String, pointer: JSONPointer, location: SourceLocation?)], file: String?) -> [PaletteProblem] {
        var problems: [PaletteProblem] = []
        for rename in renames {
            guard let index = themes.firstIndex(where: { $0.name == rename.from }) else {
                problems.append(PaletteProblem(.unknownTheme, "themeNames renames \"\(rename.from)\", which is not a theme of \(name) (themes: \(themes.map(\.name).joined(separator: ", ")))",
                                               file: file, pointer: rename.pointer, location: rename.location))
                continue
            }
            if themes.contains(where: { $0.name == rename.to }) && rename.to != rename.from {
                problems.append(PaletteProblem(.duplicateName, "themeNames renames \"\(rename.from)\" to \"\(rename.to)\", which another theme of \(name) is already called",
                                               file: file, pointer: rename.pointer, location: rename.location))
                continue
            }
            // The scheme a theme had by its old name stays with it.
            if themes[index].colorScheme == nil { themes[index].colorScheme = themes[index].scheme }
            themes[index].name = rename.to
            for i in themes.indices where themes[i].extends == rename.from { themes[i].extends = rename.to }
        }
        return problems
    }

    /// Stylesheet palettes name tokens without the custom property's `--`; checks may write
    /// either form (`--fgColor-default`, `fgColor-*`), and are read without it. Android palettes
    /// name tokens as resources and attributes are named: checks may write them as Android
    /// refers to them (`@color/ink`, `?attr/paper_color`, `?paper_color`,
    /// `?android:attr/textColorPrimary`).
    /// Adds the checks of a checks document given for every palette (`--checks FILE`). A check
    /// whose id the palette already has would be two results under one name, and one would
    /// hide the other in a baseline: it is refused, with both places. The palette's own sidecar
    /// given again as `--checks` adds nothing twice.
    mutating func addChecks(_ added: [Check], from file: String) -> [PaletteProblem] {
        func absolute(_ path: String?) -> String? { path.map { FileSystem.resolve($0) ?? $0 } }
        var problems: [PaletteProblem] = []
        var byID: [String: Check] = [:]
        for check in checks { byID[check.id] = byID[check.id] ?? check }
        for check in added {
            guard let twin = byID[check.id] else {
                checks.append(check)
                byID[check.id] = check
                continue
            }
            if absolute(twin.file) == absolute(check.file ?? file), twin.pointer == check.pointer { continue }
            // The same check twice (an organization's rules and the palette's own): run once.
            if Self.sameRequirement(twin, check) { continue }
            let place = [twin.file, twin.location.map { "\($0.line):\($0.column)" }].compactMap { $0 }.joined(separator: ":")
            let made = check.id == "\(check.foreground)-on-\(check.background)" ? " (the id made from its foreground and background, as none is written)" : ""
            problems.append(PaletteProblem(.duplicateName, "check id \"\(check.id)\"\(made) is also a check of palette '\(name)'\(place.isEmpty ? "" : " (\(place))") that asks otherwise; give each check a unique \"id\" (this one is not run)",
                                           file: file, pointer: check.pointer, location: check.location))
        }
        return problems
    }

    /// Whether two contrast checks of a pair ask the same of the same colors.
    static func sameRequirement(_ a: Check, _ b: Check) -> Bool {
        guard case .pair = a.relation, case .pair = b.relation else { return false }
        return a.foreground == b.foreground && a.background == b.background && a.usage == b.usage && a.level == b.level
            && a.themes == b.themes && a.backdrop == b.backdrop && a.minimumRatio == b.minimumRatio && a.apcaMinimum == b.apcaMinimum
            && a.except == b.except && a.fontSize?.description == b.fontSize?.description && a.fontWeight == b.fontWeight
    }

    mutating func normalizeCheckNames() {
        let bare: (String) -> String
        switch format {
        case "CSS custom properties": bare = { $0.hasPrefix("--") ? String($0.dropFirst(2)) : $0 }
        case "Android color resources": bare = AndroidResourceReader.tokenName
        default: return
        }
        for i in checks.indices {
            checks[i].foreground = bare(checks[i].foreground)
            checks[i].background = bare(checks[i].background)
            checks[i].backdrop = checks[i].backdrop.map(bare)
            checks[i].relation = checks[i].relation.mapReferences(bare)
        }
        for i in themes.indices { themes[i].backdrop = themes[i].backdrop.map(bare) }
    }
}

/// A named set of color tokens (`light`, `dark`, `high-contrast`…), possibly extending another.
public struct Theme: Sendable {
    public var name: String
    public var extends: String?
    public var description: String?
    /// The token that translucent backgrounds sit on, when checks do not name one.
    public var backdrop: String?
    /// The color scheme `light-dark()` values take in this theme, when set in the file
    /// (``scheme`` also knows it from the names `light` and `dark`).
    public var colorScheme: ColorScheme?
    /// This theme's own tokens, in document order (inherited ones are not repeated).
    public var tokens: [Token]
    public var pointer: JSONPointer

    public init(name: String, extends: String? = nil, description: String? = nil, backdrop: String? = nil,
                tokens: [Token], pointer: JSONPointer = JSONPointer()) {
        self.name = name
        self.extends = extends
        self.description = description
        self.backdrop = backdrop
        self.tokens = tokens
        self.pointer = pointer
    }

    /// The scheme `light-dark()` (and Apple's system colors) resolve by: `colorScheme`, else the
    /// theme's name when it says (`dark`, `dark-high-contrast`, `dark_dimmed`; `light`,
    /// `light-high-contrast`); nil for other themes, which take the scheme of the theme they
    /// extend, and where there is none `light-dark()` is a problem that says so.
    public var scheme: ColorScheme? {
        if let colorScheme { return colorScheme }
        return name.lowercasedContains("dark") ? .dark : name.lowercasedContains("light") ? .light : nil
    }
}

/// A property a token carries that may change its color and that was not applied.
public struct UnappliedProperty: Sendable, Hashable {
    public var name: String
    public var pointer: JSONPointer
    public var location: SourceLocation?
}

/// One color token as written: a CSS color, or an alias `{other.token}`.
public struct Token: Sendable {
    /// The dotted name (`text.body`).
    public var name: String
    /// The CSS color text or the alias, as written (DTCG object values are turned into CSS).
    public var value: String
    public var description: String?
    /// Why this value is an assumption rather than a documented color, if it is one.
    public var assumed: String?
    /// Where its value is in the file.
    public var pointer: JSONPointer
    public var location: SourceLocation?
    /// The file that holds it, when it is not the palette's own file (multi-file token sets).
    public var file: String?
    /// The DTCG `$type` declared on it or inherited from its groups; nil when none is declared.
    /// Tokens of other types are kept only until aliases are typed, then dropped.
    public var type: String?
    /// Non-nil when the token is `$deprecated`: the reason given, or "" when none is.
    public var deprecated: String?
    /// Changes the source format applies to the resolved value, innermost first (Tokens Studio
    /// color modifiers, a Primer `alpha`).
    public var operations: [ColorOperation] = []
    /// Values this token takes in named themes (Primer's `org.primer.overrides`), applied when
    /// a theme of that name is built.
    public var themeValues: [String: ThemeValue] = [:]
    /// Properties written on the token that may change its color in the system's own build and
    /// that this tool cannot apply (Style Dictionary's `modify`, an unknown extension): the
    /// token is unresolved, never measured, unless the palette declares them harmless
    /// (``Palette/ignoredProperties``).
    public var unappliedProperties: [UnappliedProperty] = []
    /// Why the token's value in this theme could not be read (an asset catalog's dark
    /// appearance in a color space Xcode does not write, say), when it could not: its problem
    /// is reported where it is, and the token is unresolved in this theme, never measured with
    /// another appearance's color in its place.
    public var unreadable: String?
    /// What the read ledger counts this token as one declaration of, when that is not its
    /// value's place (an asset catalog's color set, whose appearances are one declaration; a
    /// Figma variable, whose values by mode are one).
    public var declaration: String?
    /// An alias as its source writes it, for messages (Android's `@color/ink`, which the token
    /// holds as `{ink}`).
    public var writtenReference: String?

    public init(name: String, value: String, description: String? = nil, assumed: String? = nil,
                pointer: JSONPointer = JSONPointer(), location: SourceLocation? = nil, file: String? = nil) {
        self.name = name
        self.value = value
        self.description = description
        self.assumed = assumed
        self.pointer = pointer
        self.location = location
        self.file = file
    }

    /// Whether the token is a color (declared, or untyped and not yet known otherwise).
    public var isColorTyped: Bool { type == nil || type == "color" || type == "gradient" }

    /// The token an alias value points to (`{text.body}` → `text.body`), or nil.
    public var aliasTarget: String? { Token.aliasTarget(of: value) }

    package static func aliasTarget(of value: String) -> String? {
        // Most values (colors) hold no brace: one pass over their bytes says so.
        guard value.utf8.contains(UInt8(ascii: "{")) else { return nil }
        if let ascii = asciiAliasTarget(of: value) { return ascii }
        let trimmed = value.trimmingSpaces
        guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}"), trimmed.count > 2 else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        guard !inner.contains("{") && !inner.contains("}") else { return nil }
        // Style Dictionary trims a reference: `{ color.white }` is `{color.white}`.
        let name = inner.trimmingSpaces
        return name.isEmpty ? nil : String(name)
    }

    /// The value with each `{ reference }` written as Style Dictionary reads it, trimmed:
    /// `{ color.white }` is `{color.white}`, `rgba({ ink }, 0.5)` is `rgba({ink}, 0.5)` (Wikimedia
    /// Codex writes every reference with spaces). Other text is unchanged.
    static func trimmingReferences(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "{")) else { return value }
        var out = ""
        var rest = Substring(value)
        var changed = false
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let inner = rest[rest.index(after: open)..<close]
            out += rest[..<open]
            if inner.contains("{") {
                // Not a reference (a brace inside): kept as written up to the inner brace.
                let next = inner.firstIndex(of: "{")!
                out += rest[open..<next]
                rest = rest[next...]
                continue
            }
            let trimmed = inner.trimmingSpaces
            if trimmed.count != inner.count, !trimmed.isEmpty { changed = true; out += "{" + trimmed + "}" } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return changed ? out : value
    }

    /// The names referenced inside a larger value (`rgba({brand.red}, 0.5)` → `brand.red`).
    static func embeddedReferences(in value: String) -> [String] {
        guard value.utf8.contains(UInt8(ascii: "{")) else { return [] }
        if let ascii = asciiEmbeddedReferences(in: value) { return ascii }
        var names: [String] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            if !name.trimmingSpaces.isEmpty && !name.contains("{") { names.append(String(name.trimmingSpaces)) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

// The same readings over bytes, for ASCII text (where each byte is one character, but for a
// carriage return before a line feed, which is one character of two bytes): nil when the text
// is not such text, and the readings above apply.
extension Token {
    private static func asciiBytes<R>(_ value: String, allowingCarriageReturn: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        var value = value
        return value.withUTF8 { bytes in
            bytes.contains { $0 >= 0x80 || (!allowingCarriageReturn && $0 == 0x0D) } ? nil : body(bytes)
        }
    }

    /// ``aliasTarget(of:)`` of ASCII text: `.some(nil)` when it is no alias.
    static func asciiAliasTarget(of value: String) -> String?? {
        asciiBytes(value, allowingCarriageReturn: false) { bytes -> String? in
            // White space as `Character.isWhitespace` has it in ASCII: tab to carriage return, space.
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
            var start = 0, end = bytes.count
            while start < end && isSpace(bytes[start]) { start += 1 }
            while end > start && isSpace(bytes[end - 1]) { end -= 1 }
            guard end - start > 2, bytes[start] == UInt8(ascii: "{"), bytes[end - 1] == UInt8(ascii: "}") else { return nil }
            // Style Dictionary trims a reference: `{ color.white }` is `{color.white}`.
            var from = start + 1, to = end - 1
            while from < to && isSpace(bytes[from]) { from += 1 }
            while to > from && isSpace(bytes[to - 1]) { to -= 1 }
            guard from < to else { return nil }
            let inner = UnsafeBufferPointer(rebasing: bytes[from..<to])
            guard !inner.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else { return nil }
            return String(decoding: inner, as: UTF8.self)
        }
    }

    /// ``embeddedReferences(in:)`` of ASCII text.
    static func asciiEmbeddedReferences(in value: String) -> [String]? {
        asciiBytes(value, allowingCarriageReturn: true) { bytes in
            var names: [String] = []
            var from = 0
            while let open = bytes[from...].firstIndex(of: UInt8(ascii: "{")) {
                guard let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")) else { break }
                // Trimmed, as Style Dictionary trims a reference (`{ ink }` is `{ink}`).
                func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
                var lo = open + 1, hi = close
                while lo < hi && isSpace(bytes[lo]) { lo += 1 }
                while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
                let name = UnsafeBufferPointer(rebasing: bytes[lo..<hi])
                if !name.isEmpty && !name.contains(UInt8(ascii: "{")) { names.append(String(decoding: name, as: UTF8.self)) }
                from = close + 1
            }
            return names
        }
    }
}

/// A token's value in one named theme.
public struct ThemeValue: Sendable {
    /// The new value; nil keeps the token's own (an override that only sets `alpha`).
    public var value: String?
    /// Replaces the token's own operations when set (an override object with its own `alpha`).
    public var operations: [ColorOperation]?
    public var pointer: JSONPointer
    public var location: SourceLocation?
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return s
    }
}

extension String {
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return s
    }
}

extension String {
    /// `lowercased().contains(word)` for a `word` of lowercase ASCII letters (a theme's `dark`,
    /// `contrast`). An ASCII string is searched over its bytes, folding case as it goes, with
    /// neither string built; the answer is the same, since ASCII lowercases to ASCII and its only
    /// character of two bytes, CR LF, holds no letter. Any other string takes the general path,
    /// where Unicode lowercasing (the Kelvin sign lowers to `k`) and grapheme boundaries matter.
    func lowercasedContains(_ word: StaticString) -> Bool {
        var text = self
        let answer: Bool? = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            let count = word.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            return (0...(bytes.count - count)).contains { CSSTokenizer.bytes(bytes, at: $0, startWith: word) }
        }
        return answer ?? lowercased().contains(String(describing: word))
    }
}

extension Palette {
    /// The tokens every theme resolves, added up, that an audit allows unless its caller
    /// changes it (``Auditor/Limits/maximumThemeTokens``); readers that build themes (a
    /// stylesheet's) and the token listing stop at the same count.
    public static let defaultMaximumThemeTokens = 500_000
}

extension Palette {
    /// Where an override of the token whose value is at `pointer` goes in `theme`, when the
    /// value is written in another theme of a palette (`/themes/light/tokens/ink` overridden in
    /// dark is `/themes/dark/tokens/ink`); nil when `theme` writes it itself.
    public static func overridePointer(of pointer: JSONPointer, in theme: String) -> JSONPointer? {
        var segments = pointer.segments
        guard segments.count > 2, segments[0] == "themes", segments[1] != theme else { return nil }
        segments[1] = theme
        return JSONPointer(segments)
    }
}

extension Palette {
    /// Takes the checks and badges of `other` when this palette has none: a tokens file is
    /// audited with the checks of its sidecar (or of the served palette it proposes to replace).
    public mutating func adoptChecks(from other: Palette) {
        ignoredProperties.formUnion(other.ignoredProperties)
        guard checks.isEmpty && badges.isEmpty else { return }
        checks = other.checks
        badges = other.badges
        badgeBordersCarryMeaning = other.badgeBordersCarryMeaning
    }
}
