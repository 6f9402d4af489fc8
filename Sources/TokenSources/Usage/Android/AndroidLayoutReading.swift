import ColorScience

/// One layout file read for pairs (see ``AndroidUsageReader``): its views in order, each with
/// what is behind it.
struct AndroidLayoutReading {
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

    /// An attribute's value and where it comes from when not from the view itself.
    struct Attribute {
        var value: String
        /// `@style/ComposeTextLabel (values/styles.xml:6)`; nil for the view's own attribute.
        var from: String?
    }

    /// What a view draws behind its children and its own text.
    enum Background {
        case color(name: String, what: String)
        case transparent
        case unknown(String)
    }

    struct Frame {
        var view: String
        var line: Int
        var background: Background
        /// The nearest frame, this one or one around it, whose background is not transparent
        /// (so that a view finds what it sits on in one step, however deep the layout).
        var opaque: Int?
    }

    func read(_ bytes: [UInt8]) -> UsageRead {
        var read = UsageRead()
        let parsed = AndroidXMLElements(bytes: bytes)
        if let failure = parsed.failure {
            read.notRead.append(UsageEvidence(file: file, line: failure.line, what: "the layout is not read: \(failure.reason.excerpt(160))"))
            return read
        }
        var seen: Set<String> = []
        var stack: [Frame] = []
        var styles: [String: StyleAttributes] = [:]
        for element in parsed.elements {
            while stack.count > element.depth { stack.removeLast() }
            let view = Self.describe(element)
            var notes: [AndroidStateNote] = []
            let attributes = effectiveAttributes(of: element, styles: &styles)
            let background = background(of: element, attributes: attributes.values, styleUnknown: attributes.styleUnknown, view: view, notes: &notes)
            var opaque: Int? = stack.count
            if case .transparent = background { opaque = stack.last?.opaque }
            stack.append(Frame(view: view, line: element.line, background: background, opaque: opaque))
            guard ReadBudget.spend(on: "the views of a layout", file: file, location: nil) else {
                read.notRead.append(UsageEvidence(file: file, line: element.line, what: "the read stopped here: \(ReadBudget.current?.problem?.message.excerpt(160) ?? "its budget ran out")"))
                return read
            }
            for (key, usage) in AndroidColorAttributes.foregrounds {
                guard let attribute = attributes.values[key] else { continue }
                let written = "\(key) \(attribute.value.trimmingSpaces.excerpt(60))" + (attribute.from.map { " (from \($0))" } ?? "")
                switch colors.resolve(attribute.value, notes: &notes) {
                case .transparent(let why):
                    read.notRead.append(UsageEvidence(file: file, line: element.line, what: "\(view): \(written) draws nothing (\(why))"))
                case .unknown(let why):
                    read.notRead.append(UsageEvidence(file: file, line: element.line, what: "\(view): \(written): \(why)"))
                case .color(let foreground, let via):
                    let shown = written + (via.map { ", \($0)" } ?? "")
                    pair(foreground, shown: shown, usage: usage, view: view, line: element.line, stack: stack, into: &read, seen: &seen)
                }
            }
            for note in notes { read.notRead.append(UsageEvidence(file: note.file, line: note.line, what: note.what)) }
        }
        return read
    }

    /// Pairs a foreground with the nearest background up the stack (the view's own first), else
    /// with the window's.
    func pair(_ foreground: String, shown: String, usage: ContrastUsage, view: String, line: Int, stack: [Frame], into read: inout UsageRead, seen: inout Set<String>) {
        var found: (name: String, what: String, confidence: UsageConfidence)?
        if let index = stack.last?.opaque {
            let frame = stack[index], own = index == stack.count - 1
            switch frame.background {
            case .transparent: break
            case .unknown(let why):
                let whose = own ? "its own background" : "\(frame.view)'s background (line \(frame.line))"
                read.notRead.append(UsageEvidence(file: file, line: line, what: "\(view): \(shown) sits on \(whose), which is not known: \(why)"))
                return
            case .color(let name, let what):
                let whose = own ? "its own \(what)" : "\(frame.view) (line \(frame.line)): \(what)"
                found = (name, "\(view): \(shown) on \(whose)", .usage)
            }
        }
        if found == nil {
            guard let window = AndroidUsageReader.windowBackground(tokens) else {
                read.notRead.append(UsageEvidence(file: file, line: line, what: "\(view): \(shown) has no background up its layout, and no app theme read sets android:windowBackground, android:colorBackground or colorSurface for the window"))
                return
            }
            found = (window.name, "\(view): \(shown) with no background up its layout: on the window, \(window.how)", .convention)
        }
        guard let found else { return }
        if let reason = tokens.reasonNotToPropose(foreground: foreground, background: found.name) {
            read.notRead.append(UsageEvidence(file: file, line: line, what: "\(found.what): not proposed, \(reason)"))
            return
        }
        AndroidUsageReader.add(UsagePair(foreground: foreground, background: found.name, usage: usage,
                                         evidence: UsageEvidence(file: file, line: line, what: found.what), confidence: found.confidence),
                               to: &read, seen: &seen)
    }

    /// `TextView @id/subject`: the tag's last part and its id.
    static func describe(_ element: AndroidXMLElements.Element) -> String {
        let tag = element.name.split(separator: ".").last.map(String.init) ?? element.name
        guard let id = element.attributes["android:id"] else { return tag.excerpt(60) }
        let bare = id.hasPrefix("@+id/") ? "@id/" + id.dropFirst("@+id/".count) : id
        return "\(tag.excerpt(60)) \(bare.excerpt(60))"
    }

    /// The view's own attributes (not `tools:`, which only the layout editor shows), then what
    /// its style and its app's parents of it set, then its text appearance's text colors; and
    /// why its style's background is not known, when it is not.
    /// What a style written as `style="…"` gives the views that name it (worked out once per
    /// style per file).
    struct StyleAttributes {
        var values: [String: Attribute] = [:]
        /// Why the views' background is not known, when the style may set one this tree lacks.
        var unknown: String?
    }

    static let wanted = AndroidColorAttributes.text + AndroidColorAttributes.nonText + AndroidColorAttributes.background + ["android:textAppearance"]

    /// The color attributes a style written as `value` sets, through the app's styles it inherits.
    func styleAttributes(_ value: Substring, keys: [String], from label: String) -> StyleAttributes {
        var result = StyleAttributes()
        if value.hasPrefix("?") {
            result.unknown = "its style \(value.excerpt(60)) comes from the app theme, which may set its background"
            return result
        }
        let (name, framework) = AndroidResourceReader.parentName(String(value))
        if framework {
            result.unknown = "its style \(value.excerpt(60)) is the framework's, which may set its background"
            return result
        }
        guard let chain = resources.chain(of: name) else {
            result.unknown = "its style @style/\(name.excerpt(60)) is not in this tree (a library's), and may set its background"
            return result
        }
        _ = ReadBudget.spend(chain.styles.reduce(1) { $0 + $1.items.count }, on: "the styles a layout names", file: file, location: nil)
        for key in keys {
            if let item = AndroidUsageResources.item(key, in: chain.styles) {
                result.values[key] = Attribute(value: item.value, from: "\(label)@style/\(name.excerpt(60)), \(AndroidResourceReader.place(item.file, item.location))")
            }
        }
        if let outside = chain.outside, Self.mayFill(outside) {
            result.unknown = "its style @style/\(name.excerpt(60)) inherits \(outside.excerpt(60)), which is not in this tree and may set its background"
        }
        return result
    }

    func effectiveAttributes(of element: AndroidXMLElements.Element, styles: inout [String: StyleAttributes]) -> (values: [String: Attribute], styleUnknown: String?) {
        var values: [String: Attribute] = [:]
        for key in Self.wanted { if let value = element.attributes[key] { values[key] = Attribute(value: value) } }
        var styleUnknown: String?
        if let written = element.attributes["style"] {
            let value = written.trimmingSpaces
            let style = styles["style\u{0}" + value] ?? styleAttributes(value, keys: Self.wanted, from: "")
            styles["style\u{0}" + value] = style
            values.merge(style.values) { own, _ in own }
            styleUnknown = style.unknown
        }
        // The text appearance's text colors come last: the view's and its style's win.
        if let appearance = values["android:textAppearance"]?.value.trimmingSpaces, appearance.hasPrefix("@style/") || appearance.hasPrefix("@android:style/") {
            let style = styles["appearance\u{0}" + appearance] ?? styleAttributes(appearance, keys: AndroidColorAttributes.text, from: "android:textAppearance ")
            styles["appearance\u{0}" + appearance] = style
            values.merge(style.values) { own, _ in own }
        }
        return (values, styleUnknown)
    }

    /// Whether a library's or the framework's parent style may give a view a fill: a widget's
    /// or an overlay's may; a text appearance never sets a background.
    static func mayFill(_ style: String) -> Bool {
        let parts = style.split(separator: ".")
        return !parts.contains("TextAppearance") && (parts.contains { $0.hasSuffix("Widget") || $0 == "ThemeOverlay" })
    }

    /// What the view draws behind its content.
    func background(of element: AndroidXMLElements.Element, attributes: [String: Attribute], styleUnknown: String?, view: String, notes: inout [AndroidStateNote]) -> Background {
        if element.name == "merge" { return .unknown("a <merge> layout's views sit on the layout that includes it") }
        for key in AndroidColorAttributes.background {
            guard let attribute = attributes[key] else { continue }
            let value = attribute.value.trimmingSpaces
            let what = "\(key) \(value.excerpt(60))" + (attribute.from.map { " (from \($0))" } ?? "")
            if AndroidResourceReader.attributeName(String(value)) == "android:windowBackground", !tokens.androidNames.contains("android:windowBackground"),
               let window = AndroidUsageReader.windowBackground(tokens) {
                return .color(name: window.name, what: "\(what), the window's background: \(window.how)")
            }
            switch colors.resolve(attribute.value, notes: &notes) {
            case .color(let name, _) where tokens.isTransparentEverywhere(name): return .transparent
            case .color(let name, let via): return .color(name: name, what: what + (via.map { ", \($0)" } ?? ""))
            case .transparent: return .transparent
            case .unknown(let why): return .unknown("\(what): \(why)")
            }
        }
        if let styleUnknown { return .unknown(styleUnknown) }
        if AndroidColorAttributes.fillsItself(element.name) {
            return .unknown("a \(element.name.split(separator: ".").last.map(String.init)?.excerpt(60) ?? "view") with no background in the layout: its fill comes from its widget style, which the layout does not name")
        }
        return .transparent
    }
}
