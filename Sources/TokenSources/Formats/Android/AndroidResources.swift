import ColorScience
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An Android module's `res/` directory as a palette: the `<color>` resources of every
/// `values*/*.xml` file, by configuration, then the app themes its `<style>`s define (see
/// `AndroidResources+Themes.swift`).
///
/// - Values: `#RGB`, `#ARGB`, `#RRGGBB`, `#AARRGGBB` (alpha first, as Android writes it), and
///   references `@color/name` and `@android:color/name` (the framework's fixed colors).
/// - Themes: `values` is `light`, `values-night` is `dark` (`values-notnight` is light too). API
///   levels (`-v31`) merge into their configuration as Android resolves them (the higher level
///   wins on devices that have it: this audit takes the highest). Qualifiers that do not change
///   colors by theme (`-land`, `-sw600dp`, a locale…) are not read, and each such folder is listed;
///   so are the color state lists of `color/`.
/// - `?attr/…` in a `<color>` cannot be resolved without a theme: a located warning (in an app
///   theme's item it is resolved in the theme).
/// - The XML is read with `XMLParser`; broken XML is a problem at its line and column.
struct AndroidResourceReader {
    let root: String
    var problems: [PaletteProblem] = []
    /// The colors and style items that were not read or are not colors, and why.
    var ledger = ReadLedger()

    /// One `<color>` as written.
    struct ColorResource {
        var name: String
        var value: String
        var file: String
        var location: SourceLocation
        var apiLevel: Int
    }

    /// Where the resource folders and files are read.
    let fileSystem: FileSystem

    init(root: String, fileSystem: FileSystem = .unconfined) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.fileSystem = fileSystem
    }

    /// The names of `directory`'s files (or folders), with the entries refused reported.
    mutating func names(in directory: String, folders: Bool) -> [String] {
        let (entries, refused) = fileSystem.list(directory)
        for skipped in refused {
            problems.append(PaletteProblem(.unreadableFile, skipped.reason, file: skipped.file, severity: .warning))
        }
        return entries.filter { $0.isDirectory == folders }.map(\.name)
    }

    /// Colors by configuration ("light" for values/, "dark" for values-night/).
    var colors: [String: [ColorResource]] = [:]
    /// Styles by configuration, as written (see `AndroidResources+Themes.swift`).
    var styles: [String: [StyleResource]] = [:]
    /// The app's theme attributes (`<attr>` outside `<declare-styleable>`), with their format.
    var attributeFormats: [String: String] = [:]
    /// The color state lists of `color*/`, by name: where each is.
    var stateLists: [String: String] = [:]
    /// The bytes of the files read, which the read's budget is proportional to.
    var bytesRead = 0
    /// The declarations and styles a problem was reported for (each is reported once).
    var reported: Set<String> = []

    mutating func read() {
        let folders = names(in: root, folders: true)
        // Color state lists (res/color/) choose a color by state (pressed, disabled…): there is no
        // one color to measure, so they are listed, and a reference to one is a problem where used.
        for folder in folders.sorted() where folder == "color" || folder.hasPrefix("color-") {
            let lists = names(in: root + "/" + folder, folders: false).filter { $0.hasSuffix(".xml") }.sorted()
            for list in lists {
                stateLists[String(list.dropLast(".xml".count))] = folder + "/" + list
                ledger.notRead(String(list.dropLast(".xml".count)), reason: "a color state list (\(folder)/\(list)): it picks a color by state, so there is no one color to measure",
                               file: root + "/" + folder + "/" + list, location: nil)
            }
            if !lists.isEmpty {
                problems.append(PaletteProblem(.unsupportedProperty, "\(folder)/ holds color state lists (\(lists.joined(separator: ", "))), which pick a color by state; they are not read, and a @color/ reference to one is reported where it is used",
                                               file: root + "/" + folder, severity: .warning))
            }
        }
        for folder in folders.sorted() where folder == "values" || folder.hasPrefix("values-") {
            var theme = "light"
            var apiLevel = 0
            var ignored: [String] = []
            for qualifier in folder.split(separator: "-").dropFirst() {
                switch qualifier {
                case "night": theme = "dark"
                case "notnight": theme = "light"
                case let q where q.hasPrefix("v") && Int(q.dropFirst()) != nil: apiLevel = Int(q.dropFirst()) ?? 0
                default: ignored.append(String(qualifier))
                }
            }
            if !ignored.isEmpty {
                problems.append(PaletteProblem(.unsupportedProperty, "\(folder)/ is not read: its qualifier\(ignored.count == 1 ? "" : "s") \(ignored.joined(separator: ", ")) select\(ignored.count == 1 ? "s" : "") devices or languages, not a light or dark theme",
                                               file: root + "/" + folder, severity: .warning))
                // Its colors are listed as not read, each where it is.
                var scratch = AndroidResourceReader(root: root, fileSystem: fileSystem)
                for file in names(in: root + "/" + folder, folders: false).sorted() where file.hasSuffix(".xml") {
                    scratch.readFile(root + "/" + folder + "/" + file, theme: "skipped", apiLevel: 0)
                }
                let reason = "in \(folder)/, whose qualifier\(ignored.count == 1 ? "" : "s") \(ignored.joined(separator: ", ")) select\(ignored.count == 1 ? "s" : "") devices or languages, not a light or dark theme"
                for resource in scratch.colors["skipped"] ?? [] {
                    ledger.notRead(resource.name, reason: reason, file: resource.file, location: resource.location)
                }
                for style in scratch.styles["skipped"] ?? [] {
                    for item in style.items { account(item, reason: reason) }
                }
                continue
            }
            let directory = root + "/" + folder
            for file in names(in: directory, folders: false).sorted() where file.hasSuffix(".xml") {
                readFile(directory + "/" + file, theme: theme, apiLevel: apiLevel)
            }
        }
    }

    mutating func readFile(_ path: String, theme: String, apiLevel: Int) {
        switch fileSystem.read(path) {
        case .failure(let problem): problems.append(problem)
        case .success(let bytes): readData(Data(bytes), path: path, theme: theme, apiLevel: apiLevel)
        }
    }

    /// Where the first `<!ENTITY` is, if the file declares one.
    static func firstEntityDeclaration(_ data: Data) -> SourceLocation? {
        let needle = Array("<!ENTITY".utf8)
        let bytes = [UInt8](data)
        guard bytes.count >= needle.count else { return nil }
        var line = 1, lineStart = 0
        for offset in 0...(bytes.count - needle.count) {
            if bytes[offset] == 0x0A { line += 1; lineStart = offset + 1 }
            if bytes[offset] == 0x3C && bytes[offset..<offset + needle.count].elementsEqual(needle) {
                let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
                return SourceLocation(offset: offset, line: line, column: column)
            }
        }
        return nil
    }

    /// One resource file's bytes (also what the palette fuzzer feeds).
    mutating func readData(_ data: Data, path: String, theme: String, apiLevel: Int) {
        bytesRead += data.count
        // Resource files are UTF-8. XMLParser is only given valid UTF-8: Foundation's parser
        // traps on some invalid sequences in element names instead of reporting them.
        if let bad = Self.firstInvalidUTF8(data) {
            let prefix = data.prefix(bad.offset)
            let line = prefix.filter { $0 == 0x0A }.count + 1
            let column = String(decoding: prefix.reversed().prefix { $0 != 0x0A }.reversed(), as: UTF8.self).count + 1
            problems.append(PaletteProblem(.invalidJSON, "not valid UTF-8 at byte \(bad.offset) (\(bad.length) byte\(bad.length == 1 ? "" : "s") that are not a character); Android resource files are UTF-8",
                                           file: path, location: SourceLocation(offset: bad.offset, line: line, column: column)))
            return
        }
        // An entity declared in the file's DOCTYPE: Foundation's parser drops the text of its
        // references (`#ff&x;ff` came out as `#ffff`, another color), so the file is not read.
        if let declaration = Self.firstEntityDeclaration(data) {
            problems.append(PaletteProblem(.invalidJSON, "the DOCTYPE declares an XML entity (<!ENTITY …>); its references are not expanded by this reader, so the file is not read (write the colors out, or use @color/ references)",
                                           file: path, location: declaration))
            return
        }
        let collector = ResourceCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if !parsed || collector.error != nil {
            // The first error the parser reported (it may recover and carry on), where it was.
            let line = collector.error?.line ?? parser.lineNumber, column = collector.error?.column ?? parser.columnNumber
            let reason = collector.error?.reason ?? parser.parserError.map { ($0 as NSError).localizedDescription } ?? "the XML is not well formed"
            problems.append(PaletteProblem(.invalidJSON, "not well-formed XML: \(reason)", file: path,
                                           location: SourceLocation(offset: 0, line: max(1, line), column: max(1, column))))
            return
        }
        for found in collector.colors {
            colors[theme, default: []].append(ColorResource(name: found.name, value: found.value, file: path,
                                                            location: SourceLocation(offset: 0, line: found.line, column: found.column), apiLevel: apiLevel))
        }
        for missing in collector.unnamed {
            let within = missing.style.map { $0.isEmpty ? " in a <style> without a name" : " in style \($0)" } ?? ""
            problems.append(PaletteProblem(.missingField, "\(missing.element)\(within) without a name attribute", file: path, location: SourceLocation(offset: 0, line: missing.line, column: missing.column)))
        }
        for found in collector.styles {
            let items = found.items.map { StyleItem(name: $0.name, value: $0.value, file: path, location: SourceLocation(offset: 0, line: $0.line, column: $0.column)) }
            styles[theme, default: []].append(StyleResource(name: found.name, parent: found.parent, items: items, file: path,
                                                            location: SourceLocation(offset: 0, line: found.line, column: found.column), apiLevel: apiLevel))
        }
        for attribute in collector.attributes { attributeFormats[attribute.name] = attribute.format ?? "" }
    }

    /// Where the first byte sequence that is not UTF-8 starts, and how long it is.
    static func firstInvalidUTF8(_ data: Data) -> (offset: Int, length: Int)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error(let length): return (offset, length)
            }
        }
    }

    /// The framework's fixed colors (`@android:color/…`), from AOSP's
    /// `core/res/res/values/colors.xml`; the others there are state lists or theme-dependent.
    static let framework: [String: String] = [
        "white": "#ffffffff", "black": "#ff000000", "transparent": "#00000000", "darker_gray": "#ffaaaaaa",
        "background_dark": "#ff000000", "background_light": "#ffffffff",
        "holo_blue_light": "#ff33b5e5", "holo_blue_dark": "#ff0099cc", "holo_blue_bright": "#ff00ddff",
        "holo_green_light": "#ff99cc00", "holo_green_dark": "#ff669900",
        "holo_red_light": "#ffff4444", "holo_red_dark": "#ffcc0000",
        "holo_orange_light": "#ffffbb33", "holo_orange_dark": "#ffff8800", "holo_purple": "#ffaa66cc",
    ]

    /// An Android color value as CSS (`#AARRGGBB` → `#RRGGBBAA`), or a `{name}` alias.
    static func css(_ value: String) -> (css: String?, problem: String?) {
        let v = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if v.hasPrefix("@color/") { return ("{\(v.dropFirst("@color/".count))}", nil) }
        if v.hasPrefix("@android:color/") {
            let name = String(v.dropFirst("@android:color/".count))
            guard let fixed = framework[name] else {
                return (nil, "@android:color/\(name) is not one of the framework's fixed colors (\(framework.keys.sorted().joined(separator: ", "))); it may depend on the theme")
            }
            return (css(fixed).css, nil)
        }
        if v.hasPrefix("?") { return (nil, "\(v) is a theme attribute: its color depends on the app's theme, which a resource file does not say") }
        guard v.hasPrefix("#"), v.dropFirst().allSatisfy(\.isHexDigit) else {
            return (nil, "\"\(v)\" is not an Android color (#RGB, #ARGB, #RRGGBB, #AARRGGBB, @color/…, @android:color/…)")
        }
        let digits = Array(v.dropFirst())
        switch digits.count {
        case 3, 6: return ("#" + String(digits), nil)
        case 4: return ("#" + String(digits[1...]) + String(digits[0]), nil)  // #ARGB → #RGBA
        case 8: return ("#" + String(digits[2...]) + String(digits[0...1]), nil)  // #AARRGGBB → #RRGGBBAA
        default: return (nil, "\"\(v)\" has \(digits.count) hex digits; Android colors have 3, 4, 6 or 8 (alpha first: #ARGB, #AARRGGBB)")
        }
    }

    /// `folder/file.xml:line`, how messages name a place in the tree.
    static func place(_ file: String, _ location: SourceLocation?) -> String {
        file.split(separator: "/").suffix(2).joined(separator: "/") + (location.map { ":\($0.line)" } ?? "")
    }

    /// The colors a configuration defines itself, as a device picks them: the highest API level
    /// wins, and nothing else. A color replaced by a higher level is listed as not read, saying
    /// what replaces it; two colors of one name at one level are a problem (Android's build
    /// refuses them), and the later one is read.
    mutating func chosenColors(_ configuration: String) -> [String: ColorResource] {
        var chosen: [String: ColorResource] = [:]
        var replaced: [(resource: ColorResource, reason: String)] = []
        let ordered = (colors[configuration] ?? []).enumerated().sorted { ($0.element.apiLevel, $0.offset) < ($1.element.apiLevel, $1.offset) }.map(\.element)
        for resource in ordered {
            if let earlier = chosen[resource.name] {
                let by = Self.place(resource.file, resource.location)
                if earlier.apiLevel < resource.apiLevel {
                    replaced.append((earlier, "replaced on API \(resource.apiLevel) and up by \(by), and the audit reads the highest API level"))
                } else {
                    replaced.append((earlier, "replaced by another <color name=\"\(resource.name)\"> of the same configuration (\(by))"))
                    problems.append(PaletteProblem(.duplicateName, "color \(resource.name) is defined twice in one configuration (also at \(Self.place(earlier.file, earlier.location))); Android's build refuses that",
                                                   file: resource.file, location: resource.location))
                }
            }
            chosen[resource.name] = resource
        }
        for (resource, reason) in replaced.sorted(by: { ($0.resource.file, $0.resource.location.line) < ($1.resource.file, $1.resource.location.line) }) {
            ledger.notRead(resource.name, reason: reason, file: resource.file, location: resource.location)
        }
        return chosen
    }

    /// The name a `@color/` chain ends at when the tree holds no color of that name and no
    /// color state list (a library's color); nil when the value is no such reference.
    func libraryColor(_ value: String, in table: [String: ColorResource]) -> String? {
        var written = String(value.trimmingSpaces)
        var hops = 0
        while written.hasPrefix("@color/"), hops <= ReadBudget.maximumDepth {
            let name = String(written.dropFirst("@color/".count))
            guard let resource = table[name] else { return stateLists[name] == nil ? name : nil }
            written = String(resource.value.trimmingSpaces)
            hops += 1
        }
        return nil
    }

    mutating func palette(name: String) -> Palette? {
        read()
        return build(name: name)
    }

    /// The palette of what was read: the themes of the colors (`light`, `dark`), then the app
    /// themes of the styles; nil when there are neither.
    mutating func build(name: String) -> Palette? {
        var themes: [Theme] = []
        var notRead: Set<String> = []
        // The colors each configuration sees: night falls back to the day colors, as on a device.
        var tables: [String: [String: ColorResource]] = [:]
        for themeName in ["light", "dark"] where colors[themeName] != nil {
            let chosen = chosenColors(themeName)
            tables[themeName] = themeName == "dark" ? (tables["light"] ?? [:]).merging(chosen) { $1 } : chosen
            var tokens: [Token] = []
            for resource in chosen.values.sorted(by: { ($0.file, $0.location.line) < ($1.file, $1.location.line) }) {
                let (css, problem) = Self.css(resource.value)
                let pointer = JSONPointer(resource.file.split(separator: "/").suffix(2).map(String.init) + [resource.name])
                if let problem {
                    if !notRead.contains(resource.name) {
                        notRead.insert(resource.name)
                        ledger.notRead(resource.name, reason: problem, file: resource.file, location: resource.location)
                    }
                    problems.append(PaletteProblem(resource.value.hasPrefix("?") ? .unsupportedProperty : .invalidColor, "color \(resource.name): \(problem)",
                                                   file: resource.file, pointer: pointer, location: resource.location, theme: themeName,
                                                   severity: resource.value.hasPrefix("?") ? .warning : .error))
                    continue
                }
                if let missing = libraryColor(resource.value, in: tables[themeName] ?? [:]) {
                    // A library's color (Nextcloud's @color/high_emphasis_text, from its
                    // dependency): the resource is valid, but its color is not in this tree. It is
                    // not read, and only the checks that use it are unresolved.
                    if !notRead.contains(resource.name) {
                        notRead.insert(resource.name)
                        let via = missing == String(resource.value.trimmingSpaces.dropFirst("@color/".count)) ? "" : " (through \(resource.value.trimmingSpaces))"
                        ledger.notRead(resource.name, reason: "@color/\(missing)\(via) names no <color> in values*/ and no color state list in color/: a library's color, or one this tree does not hold; checks that use it are unresolved",
                                       file: resource.file, location: resource.location)
                        if via.isEmpty {
                            problems.append(PaletteProblem(.unknownToken, "color \(resource.name): @color/\(missing) is not in this tree (a library's color, or one this tree does not hold); the color is not read, and checks that use it are unresolved",
                                                           file: resource.file, pointer: pointer, location: resource.location, theme: themeName, severity: .warning))
                        }
                    }
                    continue
                }
                var token = Token(name: resource.name, value: css!, pointer: pointer, location: resource.location, file: resource.file)
                token.type = "color"
                if token.aliasTarget != nil { token.writtenReference = resource.value.trimmingCharacters(in: .whitespacesAndNewlines) }
                tokens.append(token)
            }
            var theme = Theme(name: themeName, tokens: tokens, pointer: JSONPointer([themeName]))
            theme.colorScheme = themeName == "dark" ? .dark : .light
            // values-night holds only what changes: the rest comes from values, as on a device.
            if themeName == "dark" && colors["light"] != nil { theme.extends = "light" }
            themes.append(theme)
        }
        if tables["dark"] == nil && styles["dark"] != nil { tables["dark"] = tables["light"] ?? [:] }
        if !styles.isEmpty {
            let taken = Set(themes.map(\.name))
            let (appThemes, stopped): ([Theme], PaletteProblem?) = ReadBudget.ensuring(inputBytes: bytesRead) {
                self.appThemes(colors: tables, taken: taken)
            }
            if let stopped { problems.append(stopped) }
            themes += appThemes
        }
        guard !themes.isEmpty else { return nil }
        var palette = Palette(name: name, file: root, themes: themes)
        palette.format = "Android color resources"
        palette.ledger = ledger
        return palette
    }
}
