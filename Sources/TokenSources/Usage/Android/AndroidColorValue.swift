import ColorScience

/// What a color attribute of a layout or style names, as a pair names it: a palette's token
/// (spelled as the palette reader names it: `?attr/colorOnSurface` → `colorOnSurface`,
/// `?android:attr/colorBackground` → `android:colorBackground`, `@color/ink` → `ink`), a CSS
/// color written in the file (`#d55`, `@android:color/white` → `#ffffff`), nothing (a
/// transparent background), or something whose color is not known, and why.
enum AndroidColorValue: Equatable {
    /// A token or CSS color; `via` says what it came through when it is not what was written
    /// (`the default state of @color/button_text`).
    case color(String, via: String?)
    /// No color: the view shows what is behind it.
    case transparent(String)
    case unknown(String)
}

/// A state list's item that is not its resting state (disabled, pressed…), for the read's
/// `notRead`.
struct AndroidStateNote {
    var file: String
    var line: Int
    var what: String
}

/// Reads color values against the run's tokens and resources.
struct AndroidColorResolver {
    let tokens: UsageTokens
    let resources: AndroidUsageResources
    let context: UsageContext

    /// Attributes whose drawable is a ripple over nothing: transparent until pressed.
    static let ripples: Set<String> = ["selectableItemBackground", "selectableItemBackgroundBorderless",
                                       "android:selectableItemBackground", "android:selectableItemBackgroundBorderless"]

    func resolve(_ written: String, notes: inout [AndroidStateNote], depth: Int = 0) -> AndroidColorValue {
        let value = String(written.trimmingSpaces)
        let shown = "\"\(value.excerpt(60))\""
        if value == "@null" || value == "@empty" { return .transparent("\(value): no drawable") }
        if let attribute = AndroidResourceReader.attributeName(value) {
            if Self.ripples.contains(attribute) { return .transparent("\(value.excerpt(60)), a ripple over nothing until pressed") }
            if tokens.androidNames.contains(attribute) { return .color(attribute, via: nil) }
            if let format = resources.attributeFormats[attribute], !AndroidResourceReader.formatMayBeColor(format) {
                return .unknown("\(shown) is a \(format), not a color")
            }
            return .unknown("\(shown) is not set by any app theme read (a library's or the framework's theme sets it, and is not in this tree)")
        }
        if value.hasPrefix("@color/") {
            let name = String(value.dropFirst("@color/".count))
            if tokens.androidNames.contains(name) { return .color(name, via: nil) }
            if let list = resources.stateLists[name] {
                guard depth < 4 else { return .unknown("\(shown): color state lists nest more than 4 deep") }
                return stateList(list, named: name, notes: &notes, depth: depth)
            }
            return .unknown("\(shown) names no color of the palettes read and no color state list")
        }
        if value.hasPrefix("@android:color/") || value.hasPrefix("#") {
            let (css, problem) = AndroidResourceReader.css(value)
            guard let css, let parsed = try? CSSColor.parse(css) else { return .unknown(problem.map { $0.excerpt(120) } ?? "\(shown) is not a color") }
            if parsed.color.alpha <= 0 { return .transparent("\(value.excerpt(60)), fully transparent") }
            return .color(css, via: nil)
        }
        if value.hasPrefix("@drawable/") || value.hasPrefix("@mipmap/") || value.hasPrefix("@android:drawable/") {
            return .unknown("\(shown) is a drawable, whose colors are not read")
        }
        return .unknown("\(shown) is not a color")
    }

    /// A color state list's resting color (enabled, not pressed, focused, checked or selected:
    /// the first item whose states all hold then, as Android picks it). Its disabled items, and
    /// the others, are noted: never proposed.
    func stateList(_ path: String, named name: String, notes: inout [AndroidStateNote], depth: Int) -> AndroidColorValue {
        let parsed: AndroidXMLElements = context.memo.value("android.statelist\u{0}" + path) {
            switch context.fileSystem.read(path) {
            case .success(let bytes): AndroidXMLElements(bytes: bytes)
            case .failure(let problem): AndroidXMLElements(failure: problem.message.excerpt(160))
            }
        }
        if let failure = parsed.failure { return .unknown("@color/\(name) is a color state list (\(path)) that is not read: \(failure.reason)") }
        var resting: AndroidXMLElements.Element?
        for item in parsed.elements where item.depth == 1 && item.name == "item" {
            let states = item.attributes.filter { $0.key.hasPrefix("android:state_") || $0.key.hasPrefix("app:state_") }
            let holds = states.allSatisfy { key, value in
                let state = key.split(separator: ":").last.map { $0.dropFirst("state_".count) } ?? ""
                let wanted = state == "enabled" || state == "window_focused"
                return (value.trimmingSpaces == "true") == wanted
            }
            if resting == nil && holds {
                resting = item
                continue
            }
            let color = (item.attributes["android:color"] ?? "?").excerpt(60)
            let disabled = states["android:state_enabled"]?.trimmingSpaces == "false"
            notes.append(AndroidStateNote(file: path, line: item.line, what: disabled
                ? "@color/\(name): the disabled state's \(color), never proposed (WCAG exempts inactive components, SC 1.4.3)"
                : "@color/\(name): the state \(states.keys.sorted().joined(separator: " ").excerpt(80))'s \(color) is not the resting state, which is the one paired"))
        }
        guard let resting, let color = resting.attributes["android:color"] else {
            return .unknown("@color/\(name) is a color state list (\(path)) with no item for the resting state")
        }
        if let alpha = resting.attributes["android:alpha"] ?? resting.attributes["app:alpha"], let a = Double(alpha.trimmingSpaces), a < 1 {
            return .unknown("@color/\(name)'s resting state draws \(color.excerpt(60)) at alpha \(alpha.excerpt(12)) (\(path):\(resting.line)): no token holds that color")
        }
        switch resolve(color, notes: &notes, depth: depth + 1) {
        case .color(let token, _): return .color(token, via: "the resting state of @color/\(name) (\(path):\(resting.line))")
        case .transparent(let why): return .transparent("the resting state of @color/\(name): \(why)")
        case .unknown(let why): return .unknown("the resting state of @color/\(name): \(why)")
        }
    }
}
