import ColorScience

/// Theme classification: which theme a block's custom properties belong to, from its selector
/// (`:root`, `.dark`, `[data-theme="dark"]`, `:where()`/`:is()` opened) and its media queries, and
/// what it constrains when the stylesheet's themes are axes (`Stylesheet+Axes.swift`).
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

    /// The selectors inside a selector's `:not(…)` arguments (top level of the compound).
    static func negations(_ selector: String) -> [String] {
        guard selector.lowercasedContains(":not(") else { return [] }
        var found: [String] = []
        let characters = Array(selector)
        var i = 0
        while i + 5 <= characters.count {
            guard String(characters[i..<(i + 5)]).lowercased() == ":not(" else { i += 1; continue }
            var depth = 1, j = i + 5
            while j < characters.count {
                if characters[j] == "(" { depth += 1 } else if characters[j] == ")" { depth -= 1; if depth == 0 { break } }
                j += 1
            }
            found += splitList(String(characters[(i + 5)..<j]))
            i = j + 1
        }
        return found
    }

    /// The axes one compound selector on the root pins: each attribute by its name (to its value,
    /// or "*" when it has none), classes as the axis "class"; `:root` alone pins none.
    static func selectorConstraints(_ selector: String) -> [(axis: String, value: String)] {
        var rest = Substring(selector.cssTrimmed)
        for root in [":root", "html", ":host", "body"] where rest.lowercased().hasPrefix(root) {
            rest = rest.dropFirst(root.count)
            break
        }
        var pinned: [(axis: String, value: String)] = []
        func pin(_ axis: String, _ value: String) {
            if let i = pinned.firstIndex(where: { $0.axis == axis }) {
                if value != "*" { pinned[i].value = value }
            } else {
                pinned.append((axis, value))
            }
        }
        while !rest.isEmpty {
            if rest.hasPrefix(".") {
                let word = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                pin("class", String(word))
                rest = rest.dropFirst(1 + word.count)
            } else if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { break }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let equals = inside.firstIndex(of: "=") {
                    let axis = inside[..<equals].filter { !"~|^$*".contains($0) }.cssTrimmed.lowercased()
                    var value = inside[inside.index(after: equals)...].cssTrimmed
                    if value.hasSuffix(" i") || value.hasSuffix(" s") { value = String(value.dropLast(2)).cssTrimmed }
                    value = value.trimmingCharacters(in: ["\"", "'"])
                    // A partial match (`*=`, `^=`, `$=`, `|=`) pins no one value.
                    let partial = equals > inside.startIndex && "*^$|".contains(inside[inside.index(before: equals)])
                    pin(axis, value.isEmpty || partial ? "*" : value)
                } else {
                    pin(inside.cssTrimmed.lowercased(), "*")
                }
                rest = rest[rest.index(after: close)...]
            } else if rest.hasPrefix(":") {
                let i = Self.endOfPseudoClass(rest, from: rest.index(after: rest.startIndex))
                if i == rest.startIndex { break }
                rest = rest[i...]
            } else {
                break
            }
        }
        return pinned
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

    /// "" for a query every screen matches, a theme name for a color-scheme or contrast
    /// preference, nil for any other condition.
    static func mediaTheme(_ query: String) -> String? {
        let q = collapse(query.lowercased())
        if q.isEmpty || q == "screen" || q == "all" { return "" }
        var names: [String] = []
        var rest = q.replacing("only screen and", with: "").replacing("screen and", with: "")
        for (feature, name) in [("prefers-color-scheme: dark", "dark"), ("prefers-color-scheme:dark", "dark"),
                                ("prefers-color-scheme: light", ""), ("prefers-color-scheme:light", ""),
                                ("prefers-contrast: more", "high-contrast"), ("prefers-contrast:more", "high-contrast"),
                                ("prefers-contrast: high", "high-contrast"), ("prefers-contrast:high", "high-contrast")]
        where rest.contains("(" + feature + ")") {
            rest = rest.replacing("(" + feature + ")", with: "")
            if !name.isEmpty { names.append(name) }
        }
        rest = rest.replacing("and", with: "").cssTrimmed
        guard rest.isEmpty else { return nil }
        return names.joined(separator: "-")
    }

    static let themeWords = ["dark", "light", "theme", "contrast", "dim", "mode", "scheme"]

    /// A selector of two compound selectors joined by a descendant or child combinator, whose
    /// ancestor is the root or a theme on it and whose element carries a theme class or
    /// attribute (`.dark .theme-zinc`, `[data-mode="dark"] > .theme-blue`): the themes they
    /// name. shadcn/ui's theme registry writes its dark variants so, for a page whose root is
    /// `.dark` and whose wrapper is `.theme-zinc`. The element inherits what the root's theme
    /// sets and declares its own over it, so the theme stands on both.
    static func descendantTheme(_ selector: String) -> (ancestor: String, element: String)? {
        let (compounds, sibling) = Self.compounds(selector)
        guard !sibling else { return nil }  // sibling combinators: not the root and an element inside it
        guard compounds.count == 2, let ancestor = selectorTheme(compounds[0]), let element = selectorTheme(compounds[1]), !element.isEmpty else { return nil }
        // The inner element is not the root itself, and says it carries a theme: a class or an
        // attribute named with a theme word (`.theme-zinc`, `[data-theme]`), not any class or
        // attribute (`.btn[disabled]`, `[type="submit"]` inside Open Props' `:root`).
        let inner = compounds[1].lowercased()
        if [":root", "html", ":host", "body"].contains(where: { inner.hasPrefix($0) }) { return nil }
        let markers = inner.split(whereSeparator: { $0 == "[" || $0 == "." || $0 == ":" }).map { $0.split(separator: "=").first ?? "" }
        guard markers.contains(where: { marker in themeWords.contains { marker.contains($0) } }) else { return nil }
        return (ancestor, element)
    }

    /// A selector's compound selectors, split at descendant and child combinators (a space,
    /// `>`) outside brackets, parentheses and strings, where they are part of a value or an
    /// argument; `sibling` when it also has a `+` or `~` combinator.
    static func compounds(_ selector: String) -> (parts: [String], sibling: Bool) {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        for character in selector.cssTrimmed {
            if let open = quote {
                if character == open { quote = nil }
                current.append(character)
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case " " where depth == 0, ">" where depth == 0:
                if !current.isEmpty { parts.append(current) }
                current = ""
                continue
            case "+" where depth == 0, "~" where depth == 0:
                return (parts, true)
            default: break
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        return (parts, false)
    }

    /// The theme a selector names: "" for `:root`/`html`/`:host`/`body` alone, the last class or
    /// attribute value on one of them (or alone) for a theme, nil for any other element.
    static func selectorTheme(_ selector: String) -> String? {
        let s = selector.cssTrimmed
        // One compound selector: no combinators (outside brackets, parentheses and strings,
        // where a space or a `>` is part of a value or an argument).
        let split = compounds(s)
        guard !split.sibling, split.parts.count <= 1 else { return nil }
        var rest = Substring(s)
        var name = ""
        var sawRoot = false
        var classes: [Substring] = [], attributes: [String] = []
        for root in [":root", "html", ":host", "body"] where rest.lowercased().hasPrefix(root) {
            rest = rest.dropFirst(root.count)
            sawRoot = true
            break
        }
        while !rest.isEmpty {
            if rest.hasPrefix(".") {
                let word = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                guard !word.isEmpty else { return nil }
                name = String(word)
                classes.append(word)
                rest = rest.dropFirst(1 + word.count)
            } else if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                attributes.append(String(inside.prefix { !"=~|^$*".contains($0) }).cssTrimmed.lowercased())
                if let equals = inside.firstIndex(of: "=") {
                    // `[class*="theme-"]`, `^=`, `$=`, `|=` match many values: no one theme.
                    if equals > inside.startIndex, "*^$|".contains(inside[inside.index(before: equals)]) { return nil }
                    var value = inside[inside.index(after: equals)...].cssTrimmed
                    if value.hasSuffix(" i") || value.hasSuffix(" s") { value = String(value.dropLast(2)).cssTrimmed }
                    value = value.trimmingCharacters(in: ["\"", "'"])
                    if !value.isEmpty { name = value }
                }
                rest = rest[rest.index(after: close)...]
            } else if rest.hasPrefix(":") {
                // A pseudo-class (:not(…), :where(…), :hover…) does not name a theme.
                let start = rest.index(after: rest.startIndex)
                if start < rest.endIndex, rest[start] == ":" { return nil }  // a pseudo-element
                let i = Self.endOfPseudoClass(rest, from: start)
                rest = rest[i...]
            } else {
                return nil  // an element other than the root
            }
        }
        guard sawRoot || !name.isEmpty else { return nil }
        if !sawRoot {
            func saysTheme(_ word: some StringProtocol) -> Bool { themeWords.contains { word.lowercased().contains($0) } }
            // Classes alone name a theme when each says so (`.dark`, `.light-theme`,
            // `.high-contrast`); `.btn` or `.navbar.is-light` is a component whose properties
            // are scoped to it.
            if !classes.isEmpty && !classes.allSatisfy(saysTheme) { return nil }
            // An attribute alone names a theme when it is a data attribute or says so
            // (`[data-theme=dark]`, `[data-color=brand]`); `[type=checkbox]`, `[role=search]` or
            // `[aria-invalid=true]` marks an element or a state, whose properties are scoped to it.
            if !attributes.allSatisfy({ $0.hasPrefix("data-") || saysTheme($0) }) { return nil }
        }
        return name
    }

    /// Where a pseudo-class that starts at `start` (after its `:`) ends: past its name and its
    /// balanced `(…)` argument, if it has one.
    /// The specificity of a selector list: the highest of its selectors' (the one that matches
    /// is not known here; a theme's alternatives match the same root element), as
    /// `a × 1,000,000 + b × 1,000 + c` (IDs, classes/attributes/pseudo-classes, types/pseudo-
    /// elements; Selectors 4, 17). `:where()` counts nothing; `:is()`, `:not()` and `:has()`
    /// count their most specific argument; `&` (nesting) counts nothing here.
    static func specificity(ofList selector: String) -> Int {
        specificity(ofList: selector, depth: 0)
    }

    /// How deep `:is(:is(…))` is followed: past it an argument counts as one pseudo-class, so
    /// a selector nested a hundred thousand deep takes no more stack than one nested 16 deep.
    static let maximumSpecificityDepth = 16

    static func specificity(ofList selector: String, depth: Int) -> Int {
        splitList(selector).map { specificity(of: Substring($0), depth: depth) }.max() ?? 0
    }

    /// Whether a selector list sets `body`'s properties: one of its selectors' last compound
    /// is `body` (`body`, `body.dark`, `html > body`).
    static func setsBody(_ selector: String) -> Bool {
        splitList(selector).contains { alternative in
            var depth = 0
            var start = alternative.startIndex
            var i = alternative.startIndex
            while i < alternative.endIndex {
                let ch = alternative[i]
                if ch == "(" || ch == "[" { depth += 1 } else if ch == ")" || ch == "]" { depth -= 1 } else if depth == 0, ch == " " || ch == ">" || ch == "+" || ch == "~" || ch == "\t" || ch == "\n" {
                    start = alternative.index(after: i)
                }
                i = alternative.index(after: i)
            }
            let last = alternative[start...].lowercased()
            guard last.hasPrefix("body") else { return false }
            let next = last.dropFirst(4).first
            return next == nil || next == "." || next == "#" || next == "[" || next == ":"
        }
    }

    static func specificity(of selector: Substring, depth: Int = 0) -> Int {
        var a = 0, b = 0, c = 0
        var i = selector.startIndex
        func name(from start: Substring.Index) -> Substring.Index {
            var j = start
            while j < selector.endIndex, selector[j].isLetter || selector[j].isNumber || selector[j] == "-" || selector[j] == "_" || selector[j] == "\\" || !selector[j].isASCII {
                j = selector.index(after: j)
            }
            return j
        }
        while i < selector.endIndex {
            let ch = selector[i]
            switch ch {
            case "#":
                a += 1
                i = name(from: selector.index(after: i))
            case ".":
                b += 1
                i = name(from: selector.index(after: i))
            case "[":
                b += 1
                var depth = 0
                while i < selector.endIndex {
                    if selector[i] == "[" { depth += 1 } else if selector[i] == "]" { depth -= 1; if depth == 0 { break } }
                    i = selector.index(after: i)
                }
                if i < selector.endIndex { i = selector.index(after: i) }
            case ":":
                var j = selector.index(after: i)
                let element = j < selector.endIndex && selector[j] == ":"
                if element { j = selector.index(after: j) }
                let end = name(from: j)
                let pseudo = selector[j..<end].lowercased()
                var next = end
                var argument: Substring?
                if next < selector.endIndex, selector[next] == "(" {
                    next = endOfPseudoClass(selector, from: next)
                    let inner = selector[selector.index(after: end)..<next]
                    argument = inner.hasSuffix(")") ? inner.dropLast() : inner
                }
                if element || ["before", "after", "first-line", "first-letter"].contains(pseudo) {
                    c += 1
                } else if pseudo == "where" {
                    // nothing
                } else if ["is", "not", "has", "matches", "-webkit-any", "-moz-any"].contains(pseudo), let argument, depth < maximumSpecificityDepth {
                    let inner = specificity(ofList: String(argument), depth: depth + 1)
                    a += inner / 1_000_000; b += inner / 1_000 % 1_000; c += inner % 1_000
                } else {
                    b += 1
                }
                i = next
            case "*", "&", " ", "\t", "\n", ">", "+", "~", ",", ")", "(":
                i = selector.index(after: i)
            default:
                if ch.isLetter || ch == "-" || ch == "_" || !ch.isASCII {
                    c += 1
                    i = name(from: i)
                } else {
                    i = selector.index(after: i)
                }
            }
        }
        return min(a, 999) * 1_000_000 + min(b, 999) * 1_000 + min(c, 999)
    }

    static func endOfPseudoClass(_ rest: Substring, from start: Substring.Index) -> Substring.Index {
        var i = start
        while i < rest.endIndex, rest[i].isLetter || rest[i] == "-" { i = rest.index(after: i) }
        guard i < rest.endIndex, rest[i] == "(" else { return i }
        var depth = 0
        while i < rest.endIndex {
            if rest[i] == "(" { depth += 1 } else if rest[i] == ")" { depth -= 1; if depth == 0 { return rest.index(after: i) } }
            i = rest.index(after: i)
        }
        return i
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

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
