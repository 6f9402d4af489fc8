import Foundation

/// One values file read for pairs (see ``AndroidUsageReader``): its widget styles' text on their
/// backgrounds, and its app themes' colors by Material's roles. Parsed by the palette's reader
/// (``AndroidResourceReader/readData(_:path:theme:apiLevel:)``), styles chained and told apart
/// (theme, overlay, widget) as it tells them.
struct AndroidValuesReading {
    let file: String
    let context: UsageContext
    let tokens: UsageTokens
    let resources: AndroidUsageResources
    let colors: AndroidColorResolver

    init(file: String, context: UsageContext) {
        self.file = file
        self.context = context
        tokens = UsageTokens.of(context)
        resources = AndroidUsageResources.visible(from: AndroidUsageReader.resRoot(of: file, context: context), context: context)
        colors = AndroidColorResolver(tokens: tokens, resources: resources, context: context)
    }

    func read(_ bytes: [UInt8]) -> UsageRead {
        var read = UsageRead()
        var scratch = AndroidResourceReader(root: "", fileSystem: context.fileSystem)
        scratch.readData(Data(bytes), path: file, theme: "light", apiLevel: 0)
        if let broken = scratch.problems.first(where: { $0.code == .invalidJSON }) {
            read.notRead.append(UsageEvidence(file: file, line: broken.location?.line ?? 1, what: "the file is not read: \(broken.message.excerpt(160))"))
            return read
        }
        scratch.attributeFormats.merge(resources.attributeFormats) { mine, _ in mine }
        var seen: Set<String> = []
        for style in scratch.styles["light"] ?? [] where !style.name.isEmpty {
            let chain = scratch.chain(of: style, in: resources.styles)
            switch scratch.role(of: chain) {
            case .theme: themePairs(style, chain: chain.styles, reader: scratch, into: &read, seen: &seen)
            case .widget: widgetPairs(style, chain: chain.styles, reader: scratch, into: &read, seen: &seen)
            case .overlay(let overlay):
                for item in style.items where scratch.mayBeColor(item.value) {
                    read.notRead.append(UsageEvidence(file: file, line: item.location.line, what: "style \(style.name.excerpt(60)) is a theme overlay (\(overlay.excerpt(60))): its \(item.name.excerpt(60)) applies over whichever theme is current, which is not known here"))
                }
            }
        }
        return read
    }

    /// An app theme's colors by Material's role pairs: each pair with a role the theme sets
    /// itself, whose two roles are tokens of a theme read.
    func themePairs(_ style: AndroidResourceReader.StyleResource, chain: [AndroidResourceReader.StyleResource], reader: AndroidResourceReader,
                    into read: inout UsageRead, seen: inout Set<String>) {
        var own: [String: AndroidResourceReader.StyleItem] = [:]
        for item in style.items { own[item.name] = item }
        var paired: Set<String> = []
        var why: [String: String] = [:]
        for item in style.items {
            for pair in MaterialRolePairs.byAttribute[item.name] ?? [] where own[pair.foreground] != nil || own[pair.background] != nil {
                let at = own[pair.foreground] ?? own[pair.background] ?? item
                let missing = [pair.foreground, pair.background].filter { !tokens.androidNames.contains($0) }
                if !missing.isEmpty {
                    if why[item.name] == nil {
                        why[item.name] = "Material pairs it with \(pair.foreground == item.name ? pair.background : pair.foreground), which no app theme read sets as a color"
                    }
                    continue
                }
                let sets = [pair.foreground, pair.background].map { name in own[name].map { "\(name) (line \($0.location.line))" } ?? "\(name) (inherited)" }
                let what = "theme \(style.name.excerpt(60)) sets \(sets.joined(separator: " and ")): Material's \(pair.spec)"
                if let reason = tokens.reasonNotToPropose(foreground: pair.foreground, background: pair.background) {
                    if why[item.name] == nil { why[item.name] = "\(what): not proposed, \(reason)" }
                    continue
                }
                paired.insert(pair.foreground)
                paired.insert(pair.background)
                AndroidUsageReader.add(UsagePair(foreground: pair.foreground, background: pair.background, usage: pair.usage,
                                                 evidence: UsageEvidence(file: file, line: at.location.line, what: what), confidence: .convention),
                                       to: &read, seen: &seen)
            }
        }
        for item in style.items where !paired.contains(item.name) && reader.mayBeColor(item.value) {
            let reason = why[item.name] ?? "no Material role pair has \(item.name.excerpt(60)), and a theme's colors are paired by their roles (a layout that uses it pairs it)"
            read.notRead.append(UsageEvidence(file: file, line: item.location.line, what: "theme \(style.name.excerpt(60)): \(item.name.excerpt(60)): \(reason)"))
        }
    }

    /// A widget or text style's text or icon color on its background, when the style (or the
    /// app's styles it inherits) sets both and itself sets one of them.
    func widgetPairs(_ style: AndroidResourceReader.StyleResource, chain: [AndroidResourceReader.StyleResource], reader: AndroidResourceReader,
                     into read: inout UsageRead, seen: inout Set<String>) {
        var notes: [AndroidStateNote] = []
        let ownNames = Set(style.items.map(\.name))
        var background: (name: String, item: AndroidResourceReader.StyleItem)?
        var backgroundWhy: String?
        for key in AndroidColorAttributes.background {
            guard let item = AndroidUsageResources.item(key, in: chain) else { continue }
            switch colors.resolve(item.value, notes: &notes) {
            case .color(let name, _): background = (name, item)
            case .transparent(let why): backgroundWhy = "its \(key) draws nothing (\(why))"
            case .unknown(let why): backgroundWhy = "its \(key) is not known: \(why)"
            }
            break
        }
        var handled: Set<String> = []
        for (key, usage) in AndroidColorAttributes.foregrounds {
            guard let item = AndroidUsageResources.item(key, in: chain) else { continue }
            guard ownNames.contains(key) || background.map({ ownNames.contains($0.item.name) }) == true else { continue }
            let written = "\(key) \(item.trimmedValue.excerpt(60))"
            let line = ownNames.contains(key) ? item.location.line : style.location.line
            if ownNames.contains(key) { handled.insert(key) }
            guard case .color(let foreground, let via) = colors.resolve(item.value, notes: &notes) else {
                if ownNames.contains(key) {
                    read.notRead.append(UsageEvidence(file: file, line: line, what: "style \(style.name.excerpt(60)): \(written) is not a color known here"))
                }
                continue
            }
            guard let background else {
                read.notRead.append(UsageEvidence(file: file, line: line, what: "style \(style.name.excerpt(60)): \(written)" + (via.map { ", \($0)" } ?? "")
                    + ": " + (backgroundWhy ?? "the style sets no background, so a layout that uses the style pairs it with what is behind the view")))
                continue
            }
            handled.insert(background.item.name)
            let what = "style \(style.name.excerpt(60)): \(written)" + (via.map { ", \($0)" } ?? "")
                + " on \(background.item.name) \(background.item.trimmedValue.excerpt(60))" + (ownNames.contains(background.item.name) ? "" : " (inherited)")
            if let reason = tokens.reasonNotToPropose(foreground: foreground, background: background.name) {
                read.notRead.append(UsageEvidence(file: file, line: line, what: "\(what): not proposed, \(reason)"))
                continue
            }
            AndroidUsageReader.add(UsagePair(foreground: foreground, background: background.name, usage: usage,
                                             evidence: UsageEvidence(file: file, line: line, what: what), confidence: .usage),
                                   to: &read, seen: &seen)
        }
        for item in style.items where !handled.contains(item.name) && reader.mayBeColor(item.value) {
            let isBackground = AndroidColorAttributes.background.contains(item.name)
            let reason = isBackground ? "a background with no text or icon color in the style: a layout that uses the style pairs it with the colors on the view"
                : "not a text, icon or background color of a view"
            read.notRead.append(UsageEvidence(file: file, line: item.location.line, what: "style \(style.name.excerpt(60)): \(item.name.excerpt(60)) \(item.trimmedValue.excerpt(60)): \(reason)"))
        }
        for note in notes { read.notRead.append(UsageEvidence(file: note.file, line: note.line, what: note.what)) }
    }
}
