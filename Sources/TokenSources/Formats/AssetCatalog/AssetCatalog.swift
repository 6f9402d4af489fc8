import ColorScience
import Foundation

/// An Xcode asset catalog (`*.xcassets`) as a palette: every `.colorset`, in the light, dark and
/// high-contrast appearances Xcode writes, as iOS resolves them.
///
/// - Token names are Xcode's asset names with `/` written `.`: the color set's name, behind the
///   names of the folders that provide a namespace (`"provides-namespace": true` in their own
///   `Contents.json`); other folders only organize, as in Xcode.
/// - Components in every form Xcode writes: floats (`"0.145"`), 8-bit integers (`"37"`) and
///   hex bytes (`"0x25"`), in `srgb`, `display-p3`, `extended-srgb`, `extended-linear-srgb`,
///   `gray-gamma-22` and `extended-gray` (`white`); outside sRGB they are gamut-mapped as CSS
///   maps them, and flagged.
/// - Themes: `light` (any or light luminosity), `dark`, `light-high-contrast`,
///   `dark-high-contrast` (`"contrast": "high"`), each present when some color set defines it. A
///   theme takes what a set does not define the way iOS falls back: the same luminosity without
///   high contrast, then high contrast without a luminosity, then the set's any appearance.
/// - The `universal` idiom, else the idiom asked for, else the only one a set has.
/// - A system color (`"reference": "systemBlueColor"`) resolves to Apple's published value
///   for that appearance (``AppleSystemColors``); one not in the table is a problem.
/// - Findings: a color set a check uses that has no dark appearance, in a catalog that has
///   them (iOS shows its light color in dark mode); a set with high contrast for one luminosity.
extension JSONValue {
    /// The elements of an array (nil for anything else).
    fileprivate var elements: [JSONValue]? {
        if case .array(let items, _) = self { return items }
        return nil
    }
}

struct AssetCatalogReader {
    let root: String
    var idiom: String
    var problems: [PaletteProblem] = []
    /// The color sets that were not read, and why.
    var ledger = ReadLedger()
    /// Color sets without a dark appearance in a catalog that has them: a warning for each one
    /// a check uses (``warnLightOnly(checks:)``), once the checks are known.
    var lightOnly: [(name: String, file: String)] = []

    /// One color set as read: its appearances' colors (CSS text) and where it is.
    struct ColorSet {
        var name: String
        var file: String
        var entries: [Appearance: Entry] = [:]
    }

    struct Entry {
        var css: String
        var location: SourceLocation?
        /// Where in `Contents.json` the entry is (`/colors/1`), to name it.
        var pointer = JSONPointer([])
        /// Why the value is an assumption rather than written, if it is one.
        var assumed: String?
        /// Why the entry's color could not be read, when it could not (its problem is reported):
        /// the set is unresolved in the themes that show this entry, not measured with another.
        var unreadable: String?
    }

    struct Appearance: Hashable {
        /// nil for "any" (no luminosity given).
        var luminosity: String?
        var highContrast: Bool

        /// "any", "dark", "light high contrast": as Xcode's attribute inspector names it.
        var description: String { (luminosity ?? "any") + (highContrast ? " high contrast" : "") }
    }

    static let themes: [(name: String, luminosity: String, highContrast: Bool)] = [
        ("light", "light", false), ("dark", "dark", false), ("light-high-contrast", "light", true), ("dark-high-contrast", "dark", true),
    ]

    /// Where the catalog's folders and files are read.
    let fileSystem: FileSystem

    init(root: String, idiom: String = "universal", fileSystem: FileSystem = .unconfined) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.idiom = idiom
        self.fileSystem = fileSystem
    }

    // MARK: Reading

    mutating func read() -> [ColorSet] {
        var sets: [ColorSet] = []
        walk(root: root, into: &sets)
        // Two sets with one name: Xcode refuses the catalog; so does this.
        var seen: [String: String] = [:]
        for set in sets {
            if let other = seen[set.name] {
                problems.append(PaletteProblem(.duplicateName, "two color sets are named \(set.name) (\(other) and \(set.file)); Xcode refuses such a catalog: rename one, or give a folder a namespace",
                                               file: set.file))
            }
            seen[set.name] = set.file
        }
        return sets
    }

    /// The catalog's folders, walked without recursion, each directory once (a link back to one
    /// already read is reported, not followed), at most ``FileSystem/maximumDepth`` deep and
    /// over at most ``FileSystem/maximumEntries`` entries.
    mutating func walk(root: String, into sets: inout [ColorSet]) {
        struct Frame {
            var entries: [FileSystem.Entry]
            var next = 0
            var namespace: [String]
            var depth: Int
        }
        var visited: Set<FileSystem.DirectoryID> = []
        var seen = 0
        var stack: [Frame] = []
        func enter(_ directory: String, namespace: [String], depth: Int, problems: inout [PaletteProblem]) -> Frame? {
            guard let id = fileSystem.directoryID(directory) else { return nil }
            guard visited.insert(id).inserted else {
                problems.append(PaletteProblem(.unreadableFile, "a folder already read (a symbolic link loops back to it): not read again", file: directory, severity: .warning))
                return nil
            }
            let (entries, refused) = fileSystem.list(directory)
            for skipped in refused {
                problems.append(PaletteProblem(.unreadableFile, skipped.reason, file: skipped.file, severity: .warning))
            }
            return Frame(entries: entries.filter(\.isDirectory), namespace: namespace, depth: depth)
        }
        if let first = enter(root, namespace: [], depth: 0, problems: &problems) { stack.append(first) }
        // Depth first, in name order: the order Xcode lists the catalog in.
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].entries.count else {
                stack.removeLast()
                continue
            }
            let entry = stack[top].entries[stack[top].next]
            stack[top].next += 1
            let (namespace, depth) = (stack[top].namespace, stack[top].depth)
            seen += 1
            if seen > fileSystem.maximumEntries {
                problems.append(PaletteProblem(.limitExceeded, "the catalog has more than \(fileSystem.maximumEntries) folders; the rest are not read", file: root))
                return
            }
            if entry.name.hasSuffix(".colorset") {
                let name = (namespace + [String(entry.name.dropLast(".colorset".count))]).joined(separator: ".")
                let before = problems.count
                if let set = readColorSet(entry.path + "/Contents.json", name: name) {
                    sets.append(set)
                } else {
                    let reason = problems.count > before ? problems[before].message : "the color set holds no color"
                    ledger.notRead(name, reason: reason, file: entry.path + "/Contents.json", location: problems.count > before ? problems[before].location : nil)
                }
            } else if !entry.name.contains(".") || entry.name.hasSuffix(".xcassets") {
                guard depth < fileSystem.maximumDepth else {
                    problems.append(PaletteProblem(.limitExceeded, "deeper than \(fileSystem.maximumDepth) folders: not read", file: entry.path))
                    continue
                }
                // A folder: part of the name only when it provides a namespace.
                let provides = (try? fileSystem.read(entry.path + "/Contents.json").get()).flatMap { try? JSONParser.parse($0) }
                    .flatMap { $0["properties"]?["provides-namespace"] }.map { if case .bool(true, _) = $0 { true } else { false } } ?? false
                let inner = entry.name.hasSuffix(".xcassets") ? namespace : provides ? namespace + [entry.name] : namespace
                if let frame = enter(entry.path, namespace: inner, depth: depth + 1, problems: &problems) { stack.append(frame) }
            }
            // Other asset types (.imageset, .appiconset…) hold no colors.
        }
    }

    mutating func readColorSet(_ file: String, name: String) -> ColorSet? {
        switch fileSystem.read(file) {
        case .failure(let problem):
            problems.append(PaletteProblem(.unreadableFile, "the color set's Contents.json is not read: \(problem.message)", file: file))
            return nil
        case .success(let bytes):
            return readColorSet(bytes: bytes, file: file, name: name)
        }
    }

    /// A color set's `Contents.json` (also what the palette fuzzer feeds).
    mutating func readColorSet(bytes: [UInt8], file: String, name: String) -> ColorSet? {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            problems.append(PaletteProblem(.invalidJSON, error.message, file: file, location: error.location))
            return nil
        }
        guard let colors = document["colors"]?.elements else {
            problems.append(PaletteProblem(.missingField, "a color set needs \"colors\" (an array of appearances)", file: file, pointer: JSONPointer(["colors"]), location: document.location))
            return nil
        }
        // The idiom: the one asked for, else universal, else the only one the set has.
        let idioms = Set(colors.compactMap { $0["idiom"]?.stringValue })
        let chosen = idioms.contains(idiom) ? idiom : idioms.contains("universal") ? "universal" : idioms.sorted().first ?? "universal"
        var set = ColorSet(name: name, file: file)
        for (index, item) in colors.enumerated() where (item["idiom"]?.stringValue ?? "universal") == chosen {
            let pointer = JSONPointer(["colors", String(index)])
            var appearance = Appearance(luminosity: nil, highContrast: false)
            var skip = false
            for (j, a) in (item["appearances"]?.elements ?? []).enumerated() {
                let kind = a["appearance"]?.stringValue, value = a["value"]?.stringValue
                switch (kind, value) {
                case ("luminosity", "light"?), ("luminosity", "dark"?): appearance.luminosity = value
                case ("contrast", "high"): appearance.highContrast = true
                default:
                    // Other appearances (gamut, display-gamut on macOS) do not pick a theme here.
                    problems.append(PaletteProblem(.unsupportedProperty, "appearance \(kind ?? "?")=\(value ?? "?") of \(name) is not a theme here (light, dark and high contrast are); this entry is not read",
                                                   file: file, pointer: pointer.appending("appearances").appending(String(j)), location: a.location, severity: .warning))
                    skip = true
                }
            }
            if skip { continue }
            guard let color = item["color"] else { continue }  // an unassigned appearance slot
            if let earlier = set.entries[appearance] {
                // Two colors for one appearance: which one the built app shows is not something
                // Xcode documents, so neither is measured.
                let reason = "color set \(name) has two colors for the \(appearance.description) appearance (\(earlier.pointer) and \(pointer)); which one the app shows is not defined, so neither is measured. Keep one"
                problems.append(PaletteProblem(.duplicateName, reason, file: file, pointer: pointer, location: item.location))
                set.entries[appearance] = Entry(css: "", location: color.location, pointer: pointer, unreadable: reason)
                continue
            }
            let before = problems.count
            if let css = css(color, name: name, file: file, pointer: pointer.appending("color"), appearance: appearance) {
                set.entries[appearance] = Entry(css: css, location: color.location, pointer: pointer)
            } else {
                // The slot is assigned but its color cannot be read: the themes that show this
                // appearance have no color for the set (iOS would not fall back to another).
                let reason = problems.count > before ? problems[before].message : "its color could not be read"
                set.entries[appearance] = Entry(css: "", location: color.location, pointer: pointer, unreadable: reason)
            }
        }
        if set.entries.values.allSatisfy({ $0.unreadable != nil }) { set.entries = [:] }
        if set.entries.isEmpty {
            // Xcode's template makes AccentColor with no color: the app then uses the system
            // accent, which iOS shows as its default tint, system blue.
            let slots = colors.filter { ($0["idiom"]?.stringValue ?? "universal") == chosen }
            if name == "AccentColor" && !slots.isEmpty && slots.allSatisfy({ $0["color"] == nil && $0["appearances"] == nil }) {
                set.entries[Appearance(luminosity: nil, highContrast: false)] = Entry(
                    css: "system:systemBlueColor", location: document.location,
                    assumed: "color set \(name) has no color, so the app uses the system accent color, which iOS shows as its default tint: system blue")
                return set
            }
            if !slots.isEmpty && slots.allSatisfy({ $0["color"] == nil }) {
                // Every slot unassigned, as Xcode's templates leave WidgetBackground: a valid
                // catalog whose set gives the app no color. Not read, and said so; a check that
                // names it is then a problem of its own.
                problems.append(PaletteProblem(.missingField, "color set \(name) has no color assigned to any \(chosen) slot (Xcode shows it empty and the app gets no color from it); it is not read",
                                               file: file, location: document.location, severity: .warning))
                return nil
            }
            problems.append(PaletteProblem(.missingField, "color set \(name) defines no color for the \(chosen) idiom", file: file))
            return nil
        }
        return set
    }

    /// A color entry as CSS text at full precision.
    mutating func css(_ color: JSONValue, name: String, file: String, pointer: JSONPointer, appearance: Appearance) -> String? {
        if let reference = color["reference"]?.stringValue {
            return "system:" + reference
        }
        let space = color["color-space"]?.stringValue ?? "srgb"
        guard let components = color["components"] else {
            problems.append(PaletteProblem(.missingField, "color of \(name) has neither \"components\" nor a system color \"reference\"", file: file, pointer: pointer, location: color.location))
            return nil
        }
        func component(_ key: String) -> Double? {
            guard let value = components[key] else { return nil }
            let text: String
            switch value {
            case .string(let s, _): text = s.trimmingCharacters(in: .whitespaces)
            // A JSON number is read as the string Xcode would write for it: 37 is "37", an
            // 8-bit value (it was read as 37.0 and measured as white).
            case .number(let n, _): text = n.isFinite && n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            default: return nil
            }
            if text.lowercased().hasPrefix("0x") {
                guard let byte = Int(text.dropFirst(2), radix: 16), (0...255).contains(byte) else { return nil }
                return Double(byte) / 255
            }
            if !text.contains("."), let integer = Int(text) {
                // Xcode writes 8-bit values as integers ("37"); 0 and 1 are the same either way.
                return integer <= 1 ? Double(integer) : Double(integer) / 255
            }
            // A decimal number: not "inf", "nan", "1e400" (infinite) or a hexadecimal float
            // ("-0x10"), which Swift's parser would otherwise take.
            guard !text.contains(where: { $0 == "x" || $0 == "X" }), let number = Double(text), number.isFinite else { return nil }
            return number
        }
        // Outside the extended spaces (and for alpha) a component is 0 to 1: Xcode shows no color
        // for 1.5 in sRGB, and a clipped guess is not measured.
        let extended = space.hasPrefix("extended")
        /// A component, or nil with its problem reported: missing or unreadable, or outside
        /// 0 to 1 where the space (or alpha) takes no more.
        func read(_ key: String) -> Double? {
            guard let value = component(key) else {
                problems.append(PaletteProblem(.invalidColor, "component \"\(key)\" of \(name) is \(components[key].map { $0.stringValue ?? $0.typeName } ?? "missing"); expected a number like \"0.145\", \"37\" or \"0x25\"",
                                               file: file, pointer: pointer.appending("components").appending(key), location: components[key]?.location ?? components.location))
                return nil
            }
            if (!extended || key == "alpha") && !(0...1).contains(value) {
                problems.append(PaletteProblem(.invalidColor, "component \"\(key)\" of \(name) is \(components[key].map { $0.stringValue ?? CSSNumber.format(value) } ?? "?"), outside 0 to 1 (or 0 to 255 as an integer), which \(key == "alpha" ? "an alpha" : "the \(space) color space") takes",
                                               file: file, pointer: pointer.appending("components").appending(key), location: components[key]?.location))
                return nil
            }
            return value
        }
        guard let alpha = components["alpha"] == nil ? 1 : read("alpha") else { return nil }
        func number(_ v: Double) -> String { String(v) }
        switch space {
        case "gray-gamma-22", "extended-gray":
            guard let white = read("white") else { return nil }
            // A gamma-2.2 gray: its linear light is white^2.2 (sign kept for extended values).
            let linear = white < 0 ? -Foundation.pow(-white, 2.2) : Foundation.pow(white, 2.2)
            return "color(srgb-linear \(number(linear)) \(number(linear)) \(number(linear)) / \(number(alpha)))"
        case "srgb", "extended-srgb", "display-p3", "extended-linear-srgb":
            guard let r = read("red"), let g = read("green"), let b = read("blue") else { return nil }
            let cssSpace = space == "display-p3" ? "display-p3" : space == "extended-linear-srgb" ? "srgb-linear" : "srgb"
            return "color(\(cssSpace) \(number(r)) \(number(g)) \(number(b)) / \(number(alpha)))"
        default:
            problems.append(PaletteProblem(.invalidColor, "color space \"\(space)\" of \(name) is not one Xcode writes for colors; expected srgb, display-p3, extended-srgb, extended-linear-srgb, gray-gamma-22 or extended-gray",
                                           file: file, pointer: pointer.appending("color-space"), location: color["color-space"]?.location))
            return nil
        }
    }

    /// The warnings for light-only color sets that `checks` use (by name or by rule).
    func warnLightOnly(checks: [Check]) -> [PaletteProblem] {
        lightOnly.filter { set in
            checks.contains { check in
                [check.foreground, check.background, check.backdrop ?? ""].contains { reference in
                    reference == set.name || (CheckRule.isPattern(reference) && CheckRule.matches(set.name, reference))
                }
            }
        }.map { set in
            PaletteProblem(.unsupportedProperty, "color set \(set.name) has no dark appearance while the catalog has them: iOS shows its light color in dark mode",
                           file: set.file, severity: .warning)
        }
    }

    // MARK: The palette

    /// The entry iOS shows for a theme: the exact appearance, then the same luminosity without
    /// high contrast, then high contrast with any luminosity, then any.
    static func entry(_ set: ColorSet, luminosity: String, highContrast: Bool) -> Entry? {
        let order: [Appearance] = (luminosity == "light"
            ? [Appearance(luminosity: "light", highContrast: highContrast), Appearance(luminosity: nil, highContrast: highContrast),
               Appearance(luminosity: "light", highContrast: false), Appearance(luminosity: nil, highContrast: false)]
            : [Appearance(luminosity: luminosity, highContrast: highContrast), Appearance(luminosity: luminosity, highContrast: false),
               Appearance(luminosity: nil, highContrast: highContrast), Appearance(luminosity: nil, highContrast: false)])
        for appearance in order { if let e = set.entries[appearance] { return e } }
        return nil
    }

    mutating func palette(name: String) -> Palette? {
        let sets = read()
        guard !sets.isEmpty else { return nil }
        let hasDark = sets.contains { $0.entries.keys.contains { $0.luminosity == "dark" } }
        let hasContrast = sets.contains { $0.entries.keys.contains { $0.highContrast } }
        var themes: [Theme] = []
        for theme in Self.themes where (theme.luminosity == "light" || hasDark) && (!theme.highContrast || hasContrast) {
            var tokens: [Token] = []
            for set in sets {
                guard let entry = Self.entry(set, luminosity: theme.luminosity, highContrast: theme.highContrast) else { continue }
                var value = entry.css
                if entry.unreadable == nil, value.hasPrefix("system:") {
                    let reference = String(value.dropFirst("system:".count))
                    guard let resolved = AppleSystemColors.value(reference, dark: theme.luminosity == "dark", highContrast: theme.highContrast) else {
                        problems.append(PaletteProblem(.unknownToken, "color set \(set.name) refers to the system color \(reference), which is not in the table of iOS system colors (\(AppleSystemColors.names.count) colors; see docs/palette-format.md)",
                                                       file: set.file, location: entry.location, theme: theme.name))
                        continue
                    }
                    value = resolved
                }
                var token = Token(name: set.name, value: value, assumed: entry.assumed, pointer: JSONPointer([set.name]), location: entry.location, file: set.file)
                token.declaration = set.file  // the color set, whose appearances are its themes
                token.unreadable = entry.unreadable
                token.type = "color"
                tokens.append(token)
            }
            var built = Theme(name: theme.name, tokens: tokens, pointer: JSONPointer([theme.name]))
            built.colorScheme = theme.luminosity == "dark" ? .dark : .light
            themes.append(built)
        }
        // Findings that are iOS defects in waiting.
        for set in sets {
            let keys = set.entries.keys
            if hasDark && !keys.contains(where: { $0.luminosity == "dark" }) && !set.entries.values.allSatisfy({ $0.css.hasPrefix("system:") }) {
                lightOnly.append((set.name, set.file))
            }
            let lightHC = keys.contains { $0.highContrast && $0.luminosity != "dark" }, darkHC = keys.contains { $0.highContrast && $0.luminosity == "dark" }
            if keys.contains(where: { $0.luminosity == "dark" }) && lightHC != darkHC {
                problems.append(PaletteProblem(.unsupportedProperty, "color set \(set.name) defines high contrast for \(lightHC ? "light" : "dark") only: with Increase Contrast on, \(lightHC ? "dark" : "light") mode shows its ordinary color",
                                               file: set.file, severity: .warning))
            }
        }
        var palette = Palette(name: name, file: root, themes: themes)
        palette.format = "Xcode asset catalog (\(idiom == "universal" ? "universal" : idiom) idiom), \(sets.count) color set\(sets.count == 1 ? "" : "s")"
        palette.ledger = ledger
        return palette
    }
}
