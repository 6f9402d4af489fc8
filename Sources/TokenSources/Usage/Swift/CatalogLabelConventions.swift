import ColorScience

/// iOS's convention for an asset catalog's text colors: a color set named as a label or text
/// (`Colors/Label/primary`, `TextColor`, `secondaryText`) is drawn on the system backgrounds,
/// plain and grouped (Apple's HIG, "Color": labels on `systemBackground` and its secondary
/// layer, in grouped lists on `systemGroupedBackground` and its cells'
/// `secondarySystemGroupedBackground`). Where no Swift source of the run shows what a catalog's
/// labels sit on (Mastodon's 79 color sets, whose labels "have no background" by their names
/// alone), these are its pairs, each proposed as a convention, with the color set's file as
/// evidence.
///
/// Reads each color set's `Contents.json`, as the run's walk hands it over; the color set's
/// name is the catalog reader's (folders that provide a namespace included). A set named for
/// what it sits on (`on-X`), for an inverted or selected state (`reverse`, `inverse`,
/// `selected`, `highlighted`, `pressed`), or disabled, is not a label on the system background;
/// every other color set it meets is noted as not paired.
public struct CatalogLabelConventions: UsageReader {
    public init() {}

    public var name: String { "iOS label conventions (asset catalog color sets)" }

    /// The system backgrounds labels are drawn on, as checks name Apple's built-in colors.
    static let backgrounds = ["ios.systemBackground", "ios.secondarySystemBackground", "ios.systemGroupedBackground", "ios.secondarySystemGroupedBackground"]

    /// Words that say a text color is meant for another background than the system's.
    static let otherBackgroundWords: Set<String> = ["reverse", "reversed", "inverse", "inverted", "selected", "highlighted", "pressed", "on"]

    /// Words that make `Text` a component's name (`TextField`, `TextView`).
    static let componentWords: Set<String> = ["field", "view", "box", "area", "input", "editor"]

    public func reads(path: String, head: ArraySlice<UInt8>) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count >= 2 && parts[parts.count - 1] == "Contents.json" && parts[parts.count - 2].hasSuffix(".colorset")
    }

    public func read(file: String, bytes: [UInt8], context: UsageContext) -> UsageRead {
        var read = UsageRead()
        let tokens = UsageTokens.of(context)
        let index = context.memo.value("catalog.files") { CatalogFiles(context.palettes) }
        guard let name = index.name(of: file) else {
            read.notRead.append(UsageEvidence(file: file, line: 1, what: "a color set that no asset catalog read holds as a color (it may not be read: the audit says why)"))
            return read
        }
        let role = TokenNameRole(name: name)
        let split = TokenNameRole.words(of: name)
        let words = Set(split.map { $0.text.lowercased() })
        // `TextField`, `TextView`: a component's name, not a text color.
        let component = split.firstIndex { $0.range == role.wordRange }.map { index in
            index + 1 < split.count && Self.componentWords.contains(split[index + 1].text.lowercased())
        } ?? false
        guard role.role == .foreground, !role.disabled, !component, words.isDisjoint(with: Self.otherBackgroundWords) else {
            let why = role.disabled ? "a disabled color, never proposed"
                : component ? "\"\(role.word ?? "")\" names a component here (\(name.excerpt(60))), not a text color"
                : role.role == .foreground ? "named for another background than the system's (\(words.intersection(Self.otherBackgroundWords).sorted().joined(separator: ", ")))"
                : "not named as a label or text"
            read.notRead.append(UsageEvidence(file: file, line: 1, what: "color set \(name.excerpt(60)): \(why): no iOS convention pairs it"))
            return read
        }
        for background in Self.backgrounds {
            let what = "color set \(name.excerpt(60)) is named as a label (\"\(role.word ?? "")\"): iOS draws labels on the system backgrounds, here \(background.dropFirst(4))"
            if let reason = tokens.reasonNotToPropose(foreground: name, background: background) {
                read.notRead.append(UsageEvidence(file: file, line: 1, what: "\(what): not proposed, \(reason)"))
                continue
            }
            read.pairs.append(UsagePair(foreground: name, background: background, usage: .text,
                                        evidence: UsageEvidence(file: file, line: 1, what: what), confidence: .convention))
        }
        return read
    }
}

/// The catalogs' color sets by their `Contents.json`, to name the set a file is: keyed by the
/// path from the `.xcassets` folder on, so that a file the run names relatively (or the loader
/// did) is still found.
struct CatalogFiles: Sendable {
    var byTail: [String: [(file: String, name: String)]] = [:]

    init(_ palettes: [Palette]) {
        for palette in palettes where palette.format?.hasPrefix("Xcode asset catalog") == true {
            var seen: Set<String> = []
            for theme in palette.themes {
                for token in theme.tokens {
                    guard let file = token.file, seen.insert(file).inserted else { continue }
                    byTail[Self.tail(file), default: []].append((file, token.name))
                }
            }
        }
    }

    /// `Assets.xcassets/Colors/Label/primary.colorset/Contents.json` of a longer path.
    static func tail(_ path: String) -> String {
        let parts = path.split(separator: "/")
        guard let catalog = parts.lastIndex(where: { $0.hasSuffix(".xcassets") }) else { return path }
        return parts[catalog...].joined(separator: "/")
    }

    func name(of file: String) -> String? {
        guard let candidates = byTail[Self.tail(file)] else { return nil }
        if candidates.count == 1 { return candidates[0].name }
        return candidates.first { $0.file == file || $0.file.hasSuffix("/" + file) || file.hasSuffix("/" + $0.file) }?.name
    }
}
