import ColorScience

/// Rules (CSS Syntax §5 as a stylesheet uses it): the reader walks the stylesheet's tokens once,
/// keeping each custom-property declaration with where it stands (its at-rules and selector), and
/// passing over every other rule and declaration. What a block means as a theme is worked out in
/// `Stylesheet+Themes.swift`; `@import` in `Stylesheet+Imports.swift`; a block's declarations in
/// `Stylesheet+Declarations.swift`.
extension StylesheetReader {
    var current: CSSToken? { index < tokens.count ? tokens[index] : nil }

    mutating func skipWhitespace() {
        while let t = current, t.kind == .whitespace || t.kind == .cdo || t.kind == .cdc { index += 1 }
    }

    /// Past a balanced block or function whose opening token was just consumed; false when the
    /// file ends first.
    @discardableResult
    mutating func skipBalanced(closing: Kind) -> Bool {
        var stack: [Kind] = [closing]
        while let t = current, !stack.isEmpty {
            index += 1
            switch t.kind {
            case .leftBrace: stack.append(.rightBrace)
            case .leftBracket: stack.append(.rightBracket)
            case .leftParen, .function: stack.append(.rightParen)
            case .rightBrace, .rightBracket, .rightParen:
                if t.kind == stack.last { stack.removeLast() }
            default: break
            }
        }
        return stack.isEmpty
    }

    /// The tokens up to (not including) a `{` or `;` at depth 0: an at-rule's or a rule's prelude.
    mutating func prelude() -> Range<Int> {
        let start = current?.offset ?? bytes.count
        var end = start
        while let t = current, t.kind != .leftBrace, t.kind != .semicolon, t.kind != .rightBrace {
            index += 1
            if t.kind == .leftParen || t.kind == .function { skipBalanced(closing: .rightParen) } else if t.kind == .leftBracket { skipBalanced(closing: .rightBracket) }
            end = tokens[index - 1].end
        }
        return start..<end
    }

    /// Reads the stylesheet and those it imports, in cascade order.
    mutating func read() {
        guard let main = makeSheet(file: file, bytes: bytes, media: []) else { return }
        // The stylesheets the read takes: each imported one before the one importing it.
        var sheets: [Sheet] = []
        var visited: Set<String> = []
        if let file { visited.insert(file) }
        collectImports(of: main, chain: file.map { [$0] } ?? [], visited: &visited, into: &sheets)
        guard !stopped else { return }
        // Custom media queries apply wherever they are defined, before or after their use,
        // in any stylesheet of the read.
        for sheet in sheets {
            enter(sheet)
            collectCustomMedia()
        }
        for sheet in sheets where !stopped {
            enter(sheet)
            var context = Context()
            // The media queries of the @imports that brought the stylesheet.
            context.media = sheet.media.map { mediaQuery($0, at: 0) }
            // The layer an `@import … layer(name)` put it in.
            if let layer = sheet.layer {
                context.layer = layerPath(nil, name: layer)
                registerLayer(parent: nil, name: layer)
            }
            readRules(context, topLevel: true)
            warnUnclosed()
            unclosed = nil
            flushSteps(on: "the stylesheet's rules", at: current?.offset ?? bytes.count)
        }
        // Each theme's declarations in cascade order (the last of a name is the one that applies).
        for key in declarations.keys { declarations[key]!.sort(by: Declaration.cascades) }
        enter(main)
        // The palette's own stylesheet first, then the imported ones in cascade order.
        if sheets.count > 1 { files = ([main] + sheets.dropLast()).compactMap(\.file) }
    }

    mutating func readRules(_ context: Context, topLevel: Bool) {
        while !stopped {
            skipWhitespace()
            guard let t = current else {
                if !topLevel { noteUnclosed() }
                return
            }
            guard spend(on: "a rule", at: t.offset) else { return }
            switch t.kind {
            case .rightBrace:
                index += 1
                if !topLevel { return }
            case .atKeyword:
                readAtRule(context)
            case .semicolon:
                index += 1
            default:
                readQualifiedRule(context)
            }
        }
    }

    mutating func readAtRule(_ context: Context) {
        guard let keyword = current else { return }
        let name = text(keyword.offset + 1..<keyword.end).lowercased()
        index += 1
        let preludeText = text(prelude()).cssTrimmed
        guard let t = current, t.kind == .leftBrace else {
            // `@layer base, components;` names the layers, in their order.
            if name == "layer" {
                for layer in preludeText.split(separator: ",") { registerLayer(parent: context.layer, name: String(layer)) }
            }
            if current?.kind == .semicolon { index += 1 }
            return
        }
        let atName = name
        guard enterBlock(at: t.offset, "@\(atName)", prelude: keyword.offset..<t.offset) else { return }
        defer { leaveBlock() }
        index += 1
        var inner = context
        inner.theme = BlockTheme()
        switch name {
        case "media":
            // The queries around a block are kept as text: what they cost is spent.
            guard spend(preludeText.utf8.count, bytes: preludeText.utf8.count, on: "@media \(preludeText.prefix(40))", at: t.offset) else { return }
            inner.media.append(mediaQuery(preludeText, at: t.offset))
            guard !stopped else { return }
            readGroup(inner)
        case "container":
            // A container query applies to the elements inside a matching container only.
            inner.containers.append(Self.collapse(preludeText))
            readGroup(inner)
        case "layer":
            // A layer orders its declarations below those outside every layer (and above the
            // layers named before it); it makes no theme.
            inner.layer = layerPath(context.layer, name: preludeText)
            registerLayer(parent: context.layer, name: preludeText)
            readGroup(inner)
        case "supports", "scope", "document", "starting-style":
            // Conditions that do not make a theme: their rules apply where they hold.
            readGroup(inner)
        case "theme":
            // Tailwind v4: `@theme { --color-…: … }` (also `@theme inline`, `@theme static`).
            inner.tailwindTheme = true
            readDeclarations(inner)
        case "property":
            // `@property --x { syntax: …; inherits: …; initial-value: … }`: the value --x has
            // where no rule sets it.
            readPropertyRule(preludeText, context)
        case "variant" where preludeText.lowercased() == "dark":
            // Tailwind v4's `@variant dark { … }` in a theme's block: that theme in dark mode.
            inner.variants.append("dark")
            readDeclarations(inner)
        default:
            // @font-face, @keyframes, @property, @page, other variants…: no custom properties of a
            // theme. Any custom property inside is listed as not read, with its line.
            let from = index
            if !skipBalanced(closing: .rightBrace) { noteUnclosed() }
            let reason = "inside @\(atName.excerpt(40))\(preludeText.isEmpty ? "" : " " + preludeText.excerpt(40)), which is not read as a theme"
            var i = from
            while i < index {
                let token = tokens[i]
                if token.kind == .ident, case let name = CSSTokenizer.unescapedName(text(token.offset..<token.end)), name.hasPrefix("--") {
                    var look = i + 1
                    while look < index, tokens[look].kind == .whitespace { look += 1 }
                    if look < index, tokens[look].kind == .colon {
                        declaredAnywhere.insert(String(name.dropFirst(2)))
                        ledger.notRead(String(name.dropFirst(2)), reason: reason, file: file, location: location(token.offset), rule: t.offset)
                    }
                }
                i += 1
            }
        }
    }

    /// An `@property` rule's block, whose `{` was just read: its descriptors up to its `}`. A
    /// valid rule at the top level (`@supports` and `@layer` around it count as everywhere)
    /// makes its `initial-value` the property's value where no rule sets it. An initial value
    /// browsers would ignore (the rule lacks `syntax` or `inherits`, or the value uses
    /// `var()`), or one of a rule inside a style rule or a query, is listed as not read.
    mutating func readPropertyRule(_ prelude: String, _ context: Context) {
        var descriptors: [String: (value: String, offset: Int)] = [:]
        descriptors: while !stopped {
            skipWhitespace()
            guard let t = current else {
                noteUnclosed()
                break
            }
            guard spend(on: "an @property descriptor", at: t.offset) else { return }
            switch t.kind {
            case .rightBrace:
                index += 1
                break descriptors
            case .semicolon:
                index += 1
            case .ident:
                var look = index + 1
                while look < tokens.count, tokens[look].kind == .whitespace { look += 1 }
                guard look < tokens.count, tokens[look].kind == .colon else {
                    _ = readValue(from: t.offset)  // not a descriptor: passed over to its end
                    continue
                }
                index = look + 1
                descriptors[text(t.offset..<t.end).lowercased()] = (readValue(from: t.offset).value, t.offset)
            default:
                _ = readValue(from: t.offset)
            }
        }
        let name = CSSTokenizer.unescapedName(Self.collapse(prelude))
        // Without a custom property's name or an initial value, the rule declares no value.
        guard name.hasPrefix("--"), name.count > 2, !name.contains(" "), let initial = descriptors["initial-value"] else { return }
        let property = String(name.dropFirst(2))
        declaredAnywhere.insert(property)
        let at = location(initial.offset)
        func unread(_ reason: String) {
            if Self.looksLikeColor(initial.value) || initial.value.lowercased().contains("var(") {
                ledger.notRead(property, reason: reason, file: file, location: at)
            } else {
                ledger.notColor(property, type: "\"\(initial.value.prefix(40))\" (\(reason))", file: file, location: at)
            }
        }
        guard context.selector == nil, context.media.isEmpty, context.containers.isEmpty, !context.tailwindTheme, context.variants.isEmpty else {
            unread("@property \(name.excerpt(60)) is inside \(context.description.excerpt()); its initial value is read only from a rule at the top level")
            return
        }
        let missing = ["syntax", "inherits"].filter { descriptors[$0] == nil }
        guard missing.isEmpty else {
            unread("@property \(name) has no \(missing.joined(separator: " or ")) descriptor, without which browsers ignore the rule")
            return
        }
        guard !initial.value.lowercased().contains("var(") else {
            unread("the initial-value of @property \(name) uses var(), which it may not (it must not depend on other properties), so browsers ignore the rule")
            return
        }
        order += 1
        initialValues.append(Declaration(name: property, value: initial.value, important: false, location: at,
                                         block: "@property \(name)", order: order, initial: true, file: file))
    }

    /// A conditional group rule's block: rules at the top level; inside a style rule (CSS
    /// nesting: `:root { @supports (…) { --x: …; } }`) declarations of that rule, and nested rules.
    mutating func readGroup(_ context: Context) {
        if context.selector != nil { readDeclarations(context) } else { readRules(context, topLevel: false) }
    }

    mutating func readQualifiedRule(_ context: Context) {
        let first = index
        let range = prelude()
        guard let t = current, t.kind == .leftBrace else {
            if current?.kind == .semicolon { index += 1 }
            return
        }
        let shown = text(range.lowerBound..<min(range.upperBound, range.lowerBound + 40))
        guard enterBlock(at: t.offset, "the rule '\(shown)'", prelude: range) else { return }
        defer { leaveBlock() }
        index += 1
        var inner = context
        inner.theme = BlockTheme()
        // The selector as its tokens say it: comments (`:root /* small */`) are not part of it.
        var written = ""
        for token in tokens[first..<(index - 1)] { written += token.kind == .whitespace ? " " : text(token.offset..<token.end) }
        let selector = Self.collapse(written)
        if let parent = context.selector {
            // CSS nesting: `&` stands for the parent; without one the rule is a descendant.
            inner.selector = Self.splitList(selector).map { part in
                part.contains("&") ? part.replacing("&", with: parent) : parent + " " + part
            }.joined(separator: ", ")
        } else {
            inner.selector = selector
        }
        // A nested selector list repeats its parent for each of its selectors: what it builds
        // is spent, so nesting lists cannot multiply beyond the budget.
        let built = inner.selector?.utf8.count ?? 0
        guard spend(built, bytes: built, on: "the nested rule '\(selector.prefix(40))'", at: t.offset) else { return }
        readDeclarations(inner)
    }

    /// The dotted path of a layer named `name` inside `parent` (an unnamed one gets a name of
    /// its own, which no other rule can name).
    mutating func layerPath(_ parent: String?, name: String) -> String {
        let trimmed = Self.collapse(name)
        let own = trimmed.isEmpty ? "\u{0}\(unnamedLayers)" : trimmed
        return parent.map { $0 + "." + own } ?? own
    }

    /// Names a layer (and each layer its dotted path passes through) the first time it is met:
    /// its place among its siblings.
    mutating func registerLayer(parent: String?, name: String) {
        let path = layerPath(parent, name: name)
        if Self.collapse(name).isEmpty { unnamedLayers += 1 }
        var prefix = ""
        for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
            let above = prefix
            prefix = prefix.isEmpty ? String(segment) : prefix + "." + segment
            if layerRanks[prefix] == nil {
                let index = layerChildren[above, default: 0]
                layerChildren[above] = index + 1
                layerRanks[prefix] = index
            }
        }
    }

    /// Where a layer's own rules stand in the layer tree (``Declaration/layer``).
    func layerKey(_ path: String?) -> [Int] {
        guard let path else { return Declaration.unlayered }
        var key: [Int] = []
        var prefix = ""
        for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
            prefix = prefix.isEmpty ? String(segment) : prefix + "." + segment
            key.append(layerRanks[prefix] ?? 0)
        }
        return key + [Int.max]
    }
}
