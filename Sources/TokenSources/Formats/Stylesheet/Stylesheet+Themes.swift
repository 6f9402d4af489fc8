import ColorScience

/// Theme classification: which theme a block's custom properties belong to, from its selector
/// (`:root`, `.dark`, `[data-theme="dark"]`, `:where()`/`:is()` opened) and its media queries, and
/// what it constrains when the stylesheet's themes are axes (`Stylesheet+Axes.swift`); selectors
/// themselves are read in `Stylesheet+Selectors.swift`.
extension StylesheetReader {
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }

    /// A selector list split at its top-level commas.
    static func splitList(_ selector: String) -> [String] {
        var parts: [String] = [], depth = 0, currentPart = ""
        for c in selector {
            if c == "(" || c == "[" { depth += 1 } else if c == ")" || c == "]" { depth -= 1 }
            if c == "," && depth == 0 {
                parts.append(currentPart.cssTrimmed)
                currentPart = ""
            } else {
                currentPart.append(c)
            }
        }
        parts.append(currentPart.cssTrimmed)
        return parts.filter { !$0.isEmpty }
    }

    /// The most alternatives one selector of a list opens into (`:is(a, b):is(c, d)` is four).
    static let maximumSelectorAlternatives = 256

    /// A selector list's alternatives, each `:is(…)` and `:where(…)` in them opened: the
    /// selector with the pseudo-class replaced by each selector of its argument list, so
    /// `:where(html)` is `html` and `html:is(.dark, [data-theme=dark])` is `html.dark` and
    /// `html[data-theme=dark]`. Neither changes which element a selector matches, only its
    /// specificity, which ``specificity(ofList:)`` works out from the selector as written. What
    /// opening builds is spent; a selector that would open into more than
    /// ``maximumSelectorAlternatives`` is kept as written (and read as today: scoped).
    mutating func selectorAlternatives(_ selector: String, at offset: Int) -> [String] {
        var result: [String] = []
        for part in Self.splitList(selector) {
            var pending = [part], opened: [String] = []
            var steps = 0, tooMany = false
            while let next = pending.popLast() {
                steps += 1
                if opened.count + pending.count >= Self.maximumSelectorAlternatives || steps > 4 * Self.maximumSelectorAlternatives {
                    tooMany = true
                    break
                }
                guard let (before, argument, after) = Self.firstMatchesPseudoClass(next) else {
                    opened.append(next)
                    continue
                }
                let inner = Self.splitList(argument)
                let built = inner.count * (before.utf8.count + after.utf8.count) + argument.utf8.count
                guard spend(1 + built, bytes: built, on: "the selector '\(selector.prefix(40))'", at: offset) else { return [] }
                // Pushed in reverse, so the alternatives come out in the order written.
                for alternative in inner.reversed() { pending.append(before + alternative + after) }
            }
            if tooMany { result.append(part) } else { result += opened }
        }
        return result
    }

    /// The first `:is(…)` or `:where(…)` of a selector outside brackets, strings and other
    /// pseudo-classes' arguments: the text before it, its argument, and the text after it.
    static func firstMatchesPseudoClass(_ selector: String) -> (String, String, String)? {
        let characters = Array(selector)
        var i = 0, parens = 0, brackets = 0
        var quote: Character?
        while i < characters.count {
            let c = characters[i]
            if let q = quote {
                if c == "\\" { i += 1 } else if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "[" {
                brackets += 1
            } else if c == "]" {
                brackets -= 1
            } else if c == "(" {
                parens += 1
            } else if c == ")" {
                parens -= 1
            } else if c == ":", parens == 0, brackets == 0, i + 1 < characters.count, characters[i + 1] != ":" {
                var j = i + 1
                while j < characters.count, characters[j].isLetter || characters[j] == "-" { j += 1 }
                let name = String(characters[(i + 1)..<j]).lowercased()
                if (name == "is" || name == "where"), j < characters.count, characters[j] == "(" {
                    var depth = 0, k = j
                    while k < characters.count {
                        if characters[k] == "(" { depth += 1 } else if characters[k] == ")" { depth -= 1; if depth == 0 { break } }
                        k += 1
                    }
                    guard k < characters.count else { return nil }
                    return (String(characters[..<i]), String(characters[(j + 1)..<k]), String(characters[(k + 1)...]))
                }
            }
            i += 1
        }
        return nil
    }

    /// The themes a block's custom properties belong to ("" for the base), or nil when they are
    /// scoped to elements or devices (reported once per block). A selector list that names the
    /// root and a theme (`:root, [data-color="accent"]`, Designsystemet's built CSS) sets the
    /// root's values in the base and in that theme.
    mutating func theme(of context: Context, alternatives: [String], at offset: Int) -> [String]? {
        if let container = context.containers.first {
            report(context, at: offset, "custom properties under @container \(container.excerpt()) apply to some elements only (those in a matching container); not read as a theme")
            return nil
        }
        var mediaNames: [String] = []
        for query in context.media {
            guard let expanded = query.expanded else {
                report(context, at: offset, (query.failure ?? "@media \(query.written.excerpt()) is not read") + "; not read as a theme")
                return nil
            }
            guard let name = Self.mediaTheme(expanded) else {
                let shown = expanded == query.written ? query.written.excerpt() : "\(query.written.excerpt()), that is @media \(expanded.excerpt()),"
                report(context, at: offset, "custom properties under @media \(shown) apply to some devices only; not read as a theme")
                return nil
            }
            if !name.isEmpty { mediaNames.append(name) }
        }
        var selectorName: String?
        var alsoRoot = false
        if !context.tailwindTheme, let selector = context.selector {
            var found: String?
            for part in alternatives {
                var name = Self.selectorTheme(part)
                if name == nil, let nested = Self.descendantTheme(part) {
                    // `.dark .theme-zinc`: the theme class on an element inside a dark root,
                    // a theme of its own standing on both (see ``descendantThemes``).
                    let combined = nested.ancestor.isEmpty ? nested.element : nested.element + "-" + nested.ancestor
                    if !nested.ancestor.isEmpty { descendantThemes[combined] = nested }
                    name = combined
                }
                guard let name else { continue }
                if name.isEmpty { alsoRoot = true }
                found = found.map { $0.isEmpty ? name : $0 } ?? name
            }
            guard let found else {
                report(context, at: offset, "custom properties of '\(selector.excerpt())' are scoped to those elements; not read as tokens (themes come from :root, html, body and their classes and attributes)")
                return nil
            }
            if !found.isEmpty { selectorName = found }
        }
        // A selector's name that already says the scheme (`dark_dimmed` under a dark query) is
        // the name; otherwise the parts join (`dark-high-contrast`, `dark-dim`).
        // A selector that names a theme names it outright: under a color-scheme query it is the
        // theme chosen for that scheme (Primer's `auto` mode), not a new one; a contrast query
        // still adds `high-contrast`. Without one, the queries name the theme.
        func named(_ selectorName: String?) -> String {
            var parts: [String] = []
            if let selectorName {
                parts = [selectorName]
                if mediaNames.contains("high-contrast") && !selectorName.contains("contrast") { parts.append("high-contrast") }
            } else {
                for name in mediaNames where !parts.contains(name) { parts.append(name) }
            }
            for variant in context.variants where !parts.contains(variant) { parts.append(variant) }
            return parts.joined(separator: "-")
        }
        lastThemeFromPreference = selectorName == nil && !mediaNames.isEmpty
        let name = named(selectorName)
        guard alsoRoot, selectorName != nil, case let root = named(nil), root != name else { return [name] }
        return [root, name]
    }

    /// What a theme block constrains, as axes (see ``BlockSpec``).
    static func spec(of context: Context, alternatives selectorAlternatives: [String], file: String?, location: SourceLocation) -> BlockSpec {
        var preferences: [String] = []
        for media in context.media {
            guard let query = media.expanded, let name = mediaTheme(query) else { continue }
            if !name.isEmpty {
                preferences.append(name)
            } else if collapse(query.lowercased()).replacing(" ", with: "").contains("prefers-color-scheme:light") {
                preferences.append("light")
            }
        }
        preferences += context.variants
        var alternatives: [[(axis: String, value: String)]] = []
        var selectors: [String] = []
        if !context.tailwindTheme, context.selector != nil {
            for part in selectorAlternatives where selectorTheme(part) != nil {
                alternatives.append(selectorConstraints(part))
                selectors.append(part)
            }
        } else {
            alternatives = [[]]
            selectors = [""]
        }
        var spec = BlockSpec(alternatives: alternatives, preference: preferences.isEmpty ? nil : preferences.joined(separator: "-"), file: file, location: location)
        spec.selectors = selectors
        return spec
    }

    /// The specificity with which a block applies to the root in a theme whose root carries
    /// `state` (the attributes and class its selector pins), nil when none of its selectors
    /// matches there: `[data-theme=light]` needs that attribute, and `:root:not([data-theme=dark])`
    /// does not match a dark root (Pico writes its light base so).
    func specificity(ofSpec index: Int, in state: [(axis: String, value: String)]) -> Int? {
        guard index >= 0, index < specs.count else { return nil }
        let spec = specs[index]
        var best: Int?
        for (i, pins) in spec.alternatives.enumerated() {
            let held = pins.allSatisfy { pin in state.contains { $0.axis == pin.axis && (pin.value == "*" || $0.value == pin.value) } }
            guard held else { continue }
            let selector = i < spec.selectors.count ? spec.selectors[i] : ""
            if Self.negations(selector).contains(where: { negated in
                let pinned = Self.selectorConstraints(negated)
                return !pinned.isEmpty && pinned.allSatisfy { pin in state.contains { $0.axis == pin.axis && (pin.value == "*" || $0.value == pin.value) } }
            }) { continue }
            best = max(best ?? 0, Self.specificity(of: Substring(selector)))
        }
        return best
    }

    /// A block of the stylesheet being read, as a key: blocks written alike in two stylesheets
    /// of a read are two blocks.
    func blockKey(_ description: String) -> String { (file ?? "") + "\u{0}" + description }

    mutating func report(_ context: Context, at offset: Int, _ message: String) {
        let key = blockKey(context.description)
        unreadBlocks[key] = message
        guard !reportedScopes.contains(key) else { return }
        reportedScopes.insert(key)
        problems.append(PaletteProblem(.unsupportedProperty, message, file: file, location: location(offset), severity: .warning))
    }
}

extension StringProtocol {
    /// Without surrounding whitespace, as a String.
    var cssTrimmed: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
