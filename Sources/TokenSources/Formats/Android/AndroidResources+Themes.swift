import ColorScience

/// App themes: the `<style>`s of `values*/*.xml` that are themes (see ``role(of:)``). Each one
/// that sets a color itself is a theme of the palette, named after the style, whose tokens are
/// its color attributes with what it inherits from the app's styles applied, resolved in its
/// configuration (`values/` with the day colors; `values-night/`, and a `values/` theme whose
/// colors differ at night, as `NAME-night` with the night colors). Every `<item>` of every style
/// is accounted for in the read ledger: a token, not a color (with its kind), or not read (why).
/// See docs/palette-format.md, "Android app themes".
extension AndroidResourceReader {
    /// One `<style>` as written.
    struct StyleResource {
        var name: String
        /// The `parent` attribute as written; nil when there is none (then a dotted name's prefix
        /// is the parent), "" when it says there is none.
        var parent: String?
        var items: [StyleItem]
        var file: String
        var location: SourceLocation
        var apiLevel: Int

        var key: String { AndroidResourceReader.key(file, location) }
    }

    /// One `<item name="…">value</item>` of a style.
    struct StyleItem {
        var name: String
        var value: String
        var file: String
        var location: SourceLocation

        var key: String { AndroidResourceReader.key(file, location) }
        var trimmedValue: String { String(value.trimmingSpaces) }
    }

    /// What a style is for.
    enum StyleRole: Equatable {
        /// An app theme: its chain reaches a `Theme.*` style, or sets `android:isLightTheme` or
        /// an attribute the app declares in `attrs.xml` outside `<declare-styleable>`.
        case theme
        /// A theme overlay: its chain reaches a `ThemeOverlay.*` style (named here).
        case overlay(String)
        /// A widget or text appearance style: anything else.
        case widget
    }

    /// A style and the app's styles it inherits, nearest first.
    struct StyleChain {
        var styles: [StyleResource]
        /// The first parent that is not one of the app's styles (a library's or the framework's),
        /// as written without `@style/`; its attributes are not known.
        var outside: String?
    }

    /// What an item's value turned out to be in a theme.
    enum Outcome {
        /// A color: the token's value (CSS, or `{attribute}` for `?attr/attribute`), and the
        /// color it finally is (to compare configurations).
        case color(value: String, final: String)
        case notColor(String)
        case notRead(String)
    }

    static func key(_ file: String, _ location: SourceLocation) -> String {
        "\(file)\u{0}\(location.line)\u{0}\(location.column)"
    }

    // MARK: Styles

    /// The styles a configuration defines itself, as a device picks them: the highest API level
    /// wins. A style replaced that way, or by a later one of its name at its level (a problem:
    /// Android's build refuses it), is recorded in `replaced` with why.
    mutating func chosenStyles(_ configuration: String, replaced: inout [String: String]) -> [String: StyleResource] {
        var chosen: [String: StyleResource] = [:]
        let ordered = (styles[configuration] ?? []).enumerated().filter { !$0.element.name.isEmpty }
            .sorted { ($0.element.apiLevel, $0.offset) < ($1.element.apiLevel, $1.offset) }.map(\.element)
        for style in ordered {
            if let earlier = chosen[style.name] {
                let by = Self.place(style.file, style.location)
                if earlier.apiLevel < style.apiLevel {
                    replaced[earlier.key] = "in style \(style.name), which \(by) replaces on API \(style.apiLevel) and up, and the audit reads the highest API level"
                } else {
                    replaced[earlier.key] = "in style \(style.name), which another of its name in the same configuration replaces (\(by))"
                    problems.append(PaletteProblem(.duplicateName, "style \(style.name) is defined twice in one configuration (also at \(Self.place(earlier.file, earlier.location))); Android's build refuses that",
                                                   file: style.file, location: style.location))
                }
            }
            chosen[style.name] = style
        }
        return chosen
    }

    /// A `parent` as a style name, and whether it is the framework's (`@android:style/X`,
    /// `android:X`, which are never the app's).
    static func parentName(_ written: String) -> (name: String, framework: Bool) {
        var rest = written.trimmingSpaces
        if rest.hasPrefix("@") { rest = rest.dropFirst() }
        if rest.hasPrefix("*") { rest = rest.dropFirst() }
        let framework = rest.hasPrefix("android:")
        if framework { rest = rest.dropFirst("android:".count) }
        if rest.hasPrefix("style/") { rest = rest.dropFirst("style/".count) }
        return (framework ? "android:" + rest : String(rest), framework)
    }

    /// A style and its parents among the app's styles of `table`: the explicit `parent`, else the
    /// prefix of a dotted name (`ThemeDark.Translucent` → `ThemeDark`).
    mutating func chain(of style: StyleResource, in table: [String: StyleResource]) -> StyleChain {
        var chain = StyleChain(styles: [style])
        var seen: Set<String> = [style.name]
        var current = style
        while chain.styles.count <= ReadBudget.maximumDepth {
            guard ReadBudget.spend(on: "the parents of style \(style.name)", file: current.file, location: current.location) else { break }
            let parent: (name: String, framework: Bool)
            if let written = current.parent {
                guard !written.trimmingSpaces.isEmpty else { break }
                parent = Self.parentName(written)
            } else if let dot = current.name.lastIndex(of: ".") {
                parent = (String(current.name[..<dot]), false)
            } else {
                break
            }
            guard !parent.framework, let next = table[parent.name] else {
                chain.outside = parent.name
                break
            }
            guard seen.insert(parent.name).inserted else {
                if reported.insert(style.name).inserted {
                    problems.append(PaletteProblem(.extendsCycle, "style \(style.name)'s parents make a cycle: \((chain.styles.map(\.name) + [parent.name]).joined(separator: " → ")); Android's build refuses that",
                                                   file: style.file, location: style.location))
                }
                break
            }
            chain.styles.append(next)
            current = next
        }
        return chain
    }

    /// What a style is for (``StyleRole``): the names along its chain first (`ThemeOverlay`, then
    /// `Theme`, as a dotted part of a name), then what its chain sets.
    func role(of chain: StyleChain) -> StyleRole {
        let names = chain.styles.map(\.name) + (chain.outside.map { [$0] } ?? [])
        func parts(_ name: String) -> [Substring] {
            (name.hasPrefix("android:") ? name.dropFirst("android:".count) : Substring(name)).split(separator: ".")
        }
        if let overlay = names.first(where: { parts($0).contains("ThemeOverlay") }) { return .overlay(overlay) }
        if names.contains(where: { parts($0).contains("Theme") }) { return .theme }
        let items = chain.styles.lazy.flatMap(\.items)
        guard ReadBudget.spend(chain.styles.reduce(0) { $0 + $1.items.count }, on: "the items of style \(chain.styles[0].name)'s parents",
                               file: chain.styles[0].file, location: chain.styles[0].location) else { return .widget }
        if items.contains(where: { $0.name == "android:isLightTheme" || $0.name == "isLightTheme" || attributeFormats[$0.name] != nil }) { return .theme }
        // By what it sets: theme attributes, and none of a view's own (a widget style that also
        // sets `colorPrimary` sets `android:layout_width` or `android:ellipsize` too), along a
        // chain that names no widget or text appearance.
        if !names.contains(where: { parts($0).contains("Widget") || parts($0).contains("TextAppearance") }),
           items.contains(where: { Self.isThemeAttribute($0.name) }), !items.contains(where: { Self.isViewAttribute($0.name) }) { return .theme }
        return .widget
    }

    /// Whether an attribute belongs to a view (its size, layout, text or input), which a style
    /// for widgets sets and a theme does not.
    static func isViewAttribute(_ name: String) -> Bool {
        guard name.hasPrefix("android:") else { return false }
        let bare = name.dropFirst("android:".count)
        return bare.hasPrefix("layout_") || bare.hasPrefix("padding") || bare.hasPrefix("max") || bare.hasPrefix("min")
            || ["gravity", "inputType", "ellipsize", "textSize", "textStyle", "hint", "lines", "singleLine", "digits", "numeric", "password",
                "cursorVisible", "textAllCaps", "fontFamily", "drawablePadding", "text", "src", "scaleType", "orientation", "elevation"].contains(String(bare))
    }

    /// Whether an attribute is one that only a theme sets: Material's and AppCompat's color roles
    /// (`colorPrimary`, `colorOnSurface`, `colorSurfaceContainerHigh`…, and the platform's
    /// `android:colorBackground`, `android:colorAccent`…), the platform's theme text colors
    /// (`android:textColorPrimary`…) and window colors. A widget or text style sets a view's own
    /// attributes instead (`android:textColor`, `android:background`, `backgroundTint`). So a
    /// style is an app theme by what it sets, whatever its parent's name, even when that parent is
    /// in another module (Thunderbird's `Theme2.K9.Light`, whose parent is in `theme2/common`).
    static func isThemeAttribute(_ name: String) -> Bool {
        let bare = name.hasPrefix("android:") ? name.dropFirst("android:".count) : Substring(name)
        if bare.hasPrefix("color"), let next = bare.dropFirst("color".count).first, next.isUppercase { return true }
        if name.hasPrefix("android:"), bare.hasPrefix("textColor"), bare != "textColor",
           !["textColorHint", "textColorLink", "textColorHighlight"].contains(bare) { return true }  // a TextAppearance's own
        return ["android:windowBackground", "android:statusBarColor", "android:navigationBarColor", "android:windowLightStatusBar"].contains(name)
    }

    // MARK: Themes

    /// One app theme in one configuration.
    struct BuiltTheme {
        var style: StyleResource
        var tokens: [Token]
        /// Every attribute's declaration and what it finally is, to compare configurations.
        var outcomes: [String: String]
        var scheme: ColorScheme?
        /// The last of the app's styles in its chain, and the parent outside the app it names.
        var root: StyleResource
        var outside: String?
    }

    /// The app themes of every configuration read, as palette themes, in the order their styles
    /// are written (a `-night` variant after its day theme). `colors` are the day (`light`) and
    /// night (`dark`) color tables; `taken` the theme names already used.
    mutating func appThemes(colors: [String: [String: ColorResource]], taken: Set<String>) -> [Theme] {
        var replaced: [String: String] = [:]
        let day = chosenStyles("light", replaced: &replaced)
        let hasNight = colors["dark"] != nil || styles["dark"] != nil
        let night = hasNight ? day.merging(chosenStyles("dark", replaced: &replaced)) { $1 } : [:]
        var roles: [String: StyleRole] = [:]
        var outcomes: [String: Outcome] = [:]
        var overridden: [String: String] = [:]
        var built: [String: [BuiltTheme]] = [:]
        // Styles are taken in the order they are first written (a style an API level replaces,
        // where its first definition is), so that a base theme comes before its children.
        var written: [String: Int] = [:]
        for (index, style) in ((styles["light"] ?? []) + (styles["dark"] ?? [])).enumerated() where written[style.name] == nil { written[style.name] = index }
        for (configuration, table) in [("light", day), ("dark", night)] where !table.isEmpty {
            for style in table.values.sorted(by: { (written[$0.name] ?? 0) < (written[$1.name] ?? 0) }) {
                let chain = chain(of: style, in: table)
                let role = role(of: chain)
                if roles[style.key] == nil { roles[style.key] = role }
                guard role == .theme, style.items.contains(where: { mayBeColor($0.value) }) else { continue }
                built[configuration, default: []].append(theme(style, chain: chain, configuration: configuration, colors: colors[configuration] ?? [:],
                                                              outcomes: &outcomes, overridden: &overridden))
                if ReadBudget.isExhausted { break }
            }
        }
        // A day theme's night variant is a theme of its own only when it differs.
        var themes: [Theme] = []
        var names = taken
        var tokenKeys: Set<String> = []
        func add(_ theme: BuiltTheme, night: Bool) {
            var name = theme.style.name + (night ? "-night" : "")
            if names.contains(name) { name += " (style)" }
            names.insert(name)
            var palette = Theme(name: name, tokens: theme.tokens, pointer: JSONPointer([name]))
            palette.colorScheme = theme.scheme
            // The theme sees its configuration's color resources too, as an app does, so a check
            // may name `@color/x` beside `?attr/x`; an attribute of the same name comes first.
            palette.extends = night && self.colors["dark"] != nil ? "dark" : self.colors["light"] != nil ? "light" : nil
            themes.append(palette)
            for token in theme.tokens { tokenKeys.insert(Self.key(token.file ?? "", token.location ?? SourceLocation(offset: 0, line: 0, column: 0))) }
        }
        var nightThemes = Dictionary((built["dark"] ?? []).map { ($0.style.name, $0) }, uniquingKeysWith: { $1 })
        for theme in built["light"] ?? [] {
            add(theme, night: false)
            if let variant = nightThemes.removeValue(forKey: theme.style.name), variant.outcomes != theme.outcomes { add(variant, night: true) }
        }
        for theme in built["dark"] ?? [] where nightThemes[theme.style.name] != nil { add(theme, night: true) }
        // What the app themes inherit from outside the app is not known: said once per parent.
        var warned: Set<String> = []
        for theme in (built["light"] ?? []) + (built["dark"] ?? []) {
            guard let outside = theme.outside, warned.insert(outside).inserted else { continue }
            let root = theme.root
            problems.append(PaletteProblem(.unsupportedProperty, "style \(root.name)'s parent \(outside) is not in this tree (a library's or the framework's theme): the attributes it sets are not known, so they are not tokens of the themes that inherit it, and ?attr/ references to them are not read",
                                           file: root.file, location: root.location, severity: .warning))
        }
        accountForStyles(tokens: tokenKeys, outcomes: outcomes, overridden: overridden, replaced: replaced, roles: roles)
        return themes
    }

    /// One app theme in one configuration: its attributes with inheritance applied (the last
    /// item of a name wins, a style's own over its parents'), each resolved.
    mutating func theme(_ style: StyleResource, chain: StyleChain, configuration: String, colors: [String: ColorResource],
                        outcomes: inout [String: Outcome], overridden: inout [String: String]) -> BuiltTheme {
        var attributes: [String: (item: StyleItem, style: String)] = [:]
        var order: [String] = []
        for owner in chain.styles.reversed() {
            for item in owner.items {
                guard ReadBudget.spend(on: "the items of style \(style.name)", file: item.file, location: item.location) else { break }
                if let earlier = attributes[item.name] {
                    if overridden[earlier.item.key] == nil {
                        overridden[earlier.item.key] = earlier.style == owner.name
                            ? "style \(owner.name) sets \(item.name) again (\(Self.place(item.file, item.location))), and the last one counts"
                            : "style \(owner.name) sets \(item.name) again (\(Self.place(item.file, item.location))) for the themes that inherit it"
                    }
                } else {
                    order.append(item.name)
                }
                attributes[item.name] = (item, owner.name)
            }
        }
        var built = BuiltTheme(style: style, tokens: [], outcomes: [:], root: chain.styles.last ?? style, outside: chain.outside)
        let name = style.name + (configuration == "dark" ? "-night" : "")
        let items = attributes.mapValues(\.item)
        var resolved: [String: String] = [:]
        var unresolved: [String: Unresolved] = [:]
        for attribute in order {
            guard let (item, owner) = attributes[attribute] else { continue }
            let outcome = evaluate(item, attributes: items, theme: name, outside: chain.outside, colors: colors, resolved: &resolved, unresolved: &unresolved)
            switch outcome {
            case .color(let value, let final):
                var token = Token(name: item.name, value: value, pointer: JSONPointer(item.file.split(separator: "/").suffix(2).map(String.init) + [owner, item.name]),
                                  location: item.location, file: item.file)
                token.type = "color"
                if token.aliasTarget != nil { token.writtenReference = item.trimmedValue }
                built.tokens.append(token)
                built.outcomes[attribute] = item.key + "\u{0}" + final
            case .notColor(let kind):
                built.outcomes[attribute] = item.key + "\u{0}not a color: " + kind
                if outcomes[item.key] == nil { outcomes[item.key] = outcome }
            case .notRead(let reason):
                built.outcomes[attribute] = item.key + "\u{0}not read: " + reason
                if outcomes[item.key] == nil { outcomes[item.key] = outcome }
            }
        }
        // android:isLightTheme says; else a framework or library parent's name does.
        if let light = attributes["android:isLightTheme"]?.item ?? attributes["isLightTheme"]?.item, ["true", "false"].contains(light.trimmedValue) {
            built.scheme = light.trimmedValue == "true" ? .light : .dark
        } else if let outside = chain.outside {
            let parts = outside.split(separator: ".")
            built.scheme = parts.contains("DayNight") ? (configuration == "dark" ? .dark : .light)
                : parts.contains("Light") ? .light : parts.contains("Dark") ? .dark : nil
        }
        return built
    }

    /// What one item is in a theme: `?attr/` references followed through the theme's
    /// attributes, then the value. `resolved` holds the colors of the theme's attributes found
    /// so far, so that each reference is followed once.
    /// Where an attribute's references end without a color, for the attributes that reach it
    /// later: the item they end at, and why (each chain is then followed once per theme, not once
    /// for every attribute that leads into it).
    struct Unresolved {
        var end: StyleItem
        var outcome: Outcome
    }

    mutating func evaluate(_ item: StyleItem, attributes: [String: StyleItem], theme: String, outside: String?, colors: [String: ColorResource],
                           resolved: inout [String: String], unresolved: inout [String: Unresolved]) -> Outcome {
        var path = [item.name]
        var current = item
        // What the chain ends in, said from `item`, and remembered for every attribute on it.
        // `tail` is the reason as said from `end`; an item that reaches `end` through references
        // says which value it came to, and where.
        func ending(_ outcome: Outcome, at end: StyleItem, tail: String? = nil) -> Outcome {
            for name in path where unresolved[name] == nil { unresolved[name] = Unresolved(end: end, outcome: outcome) }
            guard let tail, item.name != end.name else { return outcome }
            return .notRead("\(item.trimmedValue) is \(end.trimmedValue) (\(Self.place(end.file, end.location))): " + tail)
        }
        while path.count <= ReadBudget.maximumDepth {
            if let final = resolved[current.name] {
                return .color(value: path.count > 1 ? "{\(path[1])}" : final, final: final)
            }
            if path.count > 1, let known = unresolved[current.name] {
                if case .notRead(let tail) = known.outcome { return ending(known.outcome, at: known.end, tail: tail) }
                return ending(known.outcome, at: known.end)
            }
            guard ReadBudget.spend(on: "the ?attr/ references of theme \(theme)", file: current.file, location: current.location) else {
                return .notRead("the read stopped before \(item.trimmedValue) was followed")
            }
            let value = current.trimmedValue
            if let target = Self.attributeName(value) {
                if let start = path.firstIndex(of: target) {
                    let cycle = (path[start...] + [target]).joined(separator: " → ")
                    if reported.insert(item.key).inserted {
                        problems.append(PaletteProblem(.aliasCycle, "item \(item.name) of theme \(theme): ?attr/ references make a cycle: \(cycle)",
                                                       file: item.file, location: item.location, theme: theme, severity: .warning))
                    }
                    return .notRead("?attr/ references make a cycle in theme \(theme): \(cycle)")
                }
                guard let next = attributes[target] else {
                    if let format = attributeFormats[target], !Self.formatMayBeColor(format) { return ending(.notColor(format), at: current) }
                    let tail = "\(value) is not set by theme \(theme) or the app's styles it inherits"
                        + (outside.map { " (what its parent \($0) sets is not known: it is not in this tree)" } ?? "")
                    return ending(.notRead(tail), at: current, tail: tail)
                }
                path.append(target)
                current = next
                continue
            }
            guard mayBeColor(value) else { return ending(.notColor(Self.kind(of: value)), at: current) }
            let found = color(value, colors: colors, file: current.file, location: current.location)
            if let css = found.css {
                for name in path { resolved[name] = css }
                return .color(value: path.count > 1 ? "{\(path[1])}" : css, final: css)
            }
            let reason = found.reason ?? ""
            if found.malformed && reported.insert(current.key).inserted {
                problems.append(PaletteProblem(.invalidColor, "item \(current.name) of theme \(theme): \(reason)", file: current.file, location: current.location, theme: theme))
            }
            return ending(.notRead(reason), at: current, tail: reason)
        }
        return .notRead("?attr/ references from \(item.trimmedValue) go more than \(ReadBudget.maximumDepth) deep")
    }

    // MARK: Ledger

    /// Records every style item that is not a token of an app theme: what it turned out to be in
    /// a theme, else why its style is not read.
    mutating func accountForStyles(tokens: Set<String>, outcomes: [String: Outcome], overridden: [String: String], replaced: [String: String], roles: [String: StyleRole]) {
        let all = (styles["light"] ?? []) + (styles["dark"] ?? [])
        for style in all.sorted(by: { ($0.file, $0.location.line) < ($1.file, $1.location.line) }) {
            for item in style.items where !tokens.contains(item.key) {
                switch outcomes[item.key] {
                case .notColor(let kind): ledger.notColor(item.name, type: kind, file: item.file, location: item.location)
                case .notRead(let reason): ledger.notRead(item.name, reason: reason, file: item.file, location: item.location)
                case .color, nil:
                    let reason: String
                    if let why = overridden[item.key] ?? replaced[style.key] {
                        reason = why
                    } else if style.name.isEmpty {
                        reason = "in a <style> without a name, which Android's build refuses"
                    } else {
                        switch roles[style.key] {
                        case .overlay(let overlay):
                            reason = "in style \(style.name), a theme overlay\(overlay == style.name ? "" : " (it inherits \(overlay))"): it applies over whichever app theme is current, which resource files do not say"
                        case .widget:
                            reason = "in style \(style.name), a widget or text style rather than an app theme: its colors apply where a layout uses it, which resource files do not say"
                        case .theme, nil:
                            reason = "in style \(style.name), which is not read as an app theme"
                        }
                    }
                    account(item, reason: reason)
                }
            }
        }
    }

    /// A style item that is not read: not read if it may be a color, else not a color.
    mutating func account(_ item: StyleItem, reason: String) {
        if mayBeColor(item.value) {
            ledger.notRead(item.name, reason: reason, file: item.file, location: item.location)
        } else {
            let format = Self.attributeName(item.trimmedValue).flatMap { attributeFormats[$0] }
            ledger.notColor(item.name, type: format ?? Self.kind(of: item.value), file: item.file, location: item.location)
        }
    }
}
