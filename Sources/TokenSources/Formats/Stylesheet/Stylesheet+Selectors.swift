import ColorScience

/// Reading selectors: the theme a selector or media query names, what a selector constrains
/// when the themes are axes, and CSS specificity.
extension StylesheetReader {
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

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
