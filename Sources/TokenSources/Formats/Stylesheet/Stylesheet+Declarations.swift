import ColorScience

/// Declarations: a block's declarations read one by one, a custom property's value kept with
/// where it stands, and what is not read said at its place.
extension StylesheetReader {
    /// A block's declarations (and nested rules), up to its `}`.
    mutating func readDeclarations(_ context: Context) {
        while !stopped {
            skipWhitespace()
            guard let t = current else {
                noteUnclosed()
                return
            }
            guard spend(on: "a declaration", at: t.offset) else { return }
            switch t.kind {
            case .rightBrace:
                index += 1
                return
            case .semicolon:
                index += 1
            case .atKeyword:
                readAtRule(context)
            case .ident:
                // A declaration is an identifier and a colon; anything else is a nested rule.
                var look = index + 1
                while look < tokens.count, tokens[look].kind == .whitespace { look += 1 }
                if look < tokens.count, tokens[look].kind == .colon {
                    index = look + 1
                    readDeclaration(name: text(t.offset..<t.end), at: t.offset, context)
                } else {
                    readQualifiedRule(context)
                }
            default:
                readQualifiedRule(context)
            }
        }
    }

    /// The value of the declaration whose colon was just read (its name at `offset`): up to its
    /// `;` or the block's `}` at depth 0 (custom properties may hold their own {} blocks), trimmed,
    /// and whether it is `!important`.
    mutating func readValue(from offset: Int) -> (value: String, important: Bool) {
        let (start, end) = readValueTokens(from: offset)
        var value = start.map { text($0..<max($0, end)) } ?? ""
        var important = false
        if let bang = value.lastIndex(of: "!") {
            let tail = value[value.index(after: bang)...].cssTrimmed.lowercased()
            if tail == "important" {
                important = true
                value = String(value[..<bang])
            }
        }
        return (value.cssTrimmed, important)
    }

    /// Reads the tokens of a declaration's value (see ``readValue(from:)``): the offset of its
    /// first token that is not white space, if any, and the end of its last one.
    mutating func readValueTokens(from offset: Int) -> (start: Int?, end: Int) {
        unclosedValue = nil
        var start: Int?
        var end = offset
        while let t = current, t.kind != .semicolon, t.kind != .rightBrace {
            index += 1
            if start == nil && t.kind != .whitespace { start = t.offset }
            let closed: Bool
            switch t.kind {
            case .leftParen, .function: closed = skipBalanced(closing: .rightParen)
            case .leftBracket: closed = skipBalanced(closing: .rightBracket)
            case .leftBrace: closed = skipBalanced(closing: .rightBrace)
            default: closed = true
            }
            if !closed && unclosedValue == nil { unclosedValue = (text(t.offset..<t.end), t.offset) }
            if tokens[index - 1].kind != .whitespace { end = tokens[index - 1].end }
        }
        return (start, end)
    }

    mutating func readDeclaration(name written: String, at offset: Int, _ context: Context) {
        // A custom property's name as a browser compares it: `--c\6f lor` is `--color`.
        let name = CSSTokenizer.unescapedName(written)
        let isCustom = name.hasPrefix("--")
        if isCustom { declaredAnywhere.insert(String(name.dropFirst(2))) }
        let (value, important) = readValue(from: offset)
        let lowered = name.lowercased()
        guard isCustom || lowered == "color-scheme" else { return }
        if !context.theme.known {
            // Working out the theme reads the block's queries and selector once.
            let description = context.description
            guard spend(description.utf8.count, bytes: description.utf8.count, on: "the block '\(description.prefix(40))'", at: offset) else { return }
            context.theme.description = description
            // The selector's alternatives, with each `:is()` and `:where()` opened.
            let alternatives = context.selector.map { selectorAlternatives($0, at: offset) } ?? []
            guard !stopped else { return }
            context.theme.names = theme(of: context, alternatives: alternatives, at: offset)
            if context.theme.names != nil {
                if lastThemeFromPreference { preferenceNamedSpecs.insert(specs.count) }
                context.theme.spec = specs.count
                specs.append(Self.spec(of: context, alternatives: alternatives, file: file, location: location(offset)))
                specs[specs.count - 1].opening = currentBlock
            }
            context.theme.specificity = context.selector.map(Self.specificity(ofList:)) ?? 0
            context.theme.element = context.selector.map(Self.setsBody) == true ? 1 : 0
            context.theme.known = true
        }
        guard let themes = context.theme.names else {
            if isCustom {
                let reason = unreadBlocks[blockKey(context.theme.description ?? context.description)] ?? "its block is not read as a theme"
                // Whatever the block would make a color (a color, a var(), bare HSL channels, a
                // color name) is not read, never "not a color".
                if StylesheetReader.looksLikeColor(value) || value.lowercased().contains("var(") || StylesheetReader.isBareHSL(value)
                    || (value.utf8.count <= 64 && CSSColor.isColor(value)) {
                    ledger.notRead(String(name.dropFirst(2)), reason: reason, file: file, location: location(offset), rule: currentBlock)
                } else {
                    ledger.notColor(String(name.dropFirst(2)), type: "\"\(value.prefix(40))\" (\(reason))", file: file, location: location(offset))
                }
            }
            return
        }
        // A value whose function or bracket the file never closes holds the rest of the file,
        // as a browser reads it: not read, at its own line, and neither is what it swallowed.
        if let open = unclosedValue {
            unclosedValue = nil
            notReadingUnclosed(isCustom ? String(name.dropFirst(2)) : name, open: open, at: offset)
            return
        }
        order += 1
        var declaration = Declaration(name: isCustom ? String(name.dropFirst(2)) : lowered, value: isCustom ? value : value.lowercased(), important: important,
                                      location: location(offset), block: context.theme.description ?? context.description, order: order,
                                      spec: context.theme.spec, file: file)
        declaration.layer = layerKey(context.layer)
        declaration.specificity = context.theme.specificity
        declaration.element = context.theme.element
        // A selector list that names the root and a theme (`:root, [data-theme=light]`) sets both.
        for theme in themes {
            if isCustom {
                declarations[theme, default: []].append(declaration)
            } else {
                // `color-scheme` takes part in each theme's cascade as a custom property does.
                colorSchemes[theme] = declaration.value
                schemeDeclarations[theme, default: []].append(declaration)
            }
        }
    }

    /// A declaration whose value opens a function, a parenthesis or a bracket that the file
    /// never closes (`--fg: rgb(1 2 3;`): the rest of the stylesheet is inside the value, as
    /// CSS Syntax reads it, so the declaration is not a color, and the custom properties written
    /// after it are no declarations at all. Each is listed as not read, at its own line.
    mutating func notReadingUnclosed(_ name: String, open: (text: String, offset: Int), at offset: Int) {
        let opened = location(open.offset)
        let reason = "its value opens \(open.text) at line \(opened.line), column \(opened.column) and the file never closes it, so the rest of the stylesheet is part of the value (as browsers read it) and the value is not a color"
        ledger.notRead(name, reason: reason, file: file, location: location(offset))
        let closing = open.text == "[" ? "]" : open.text == "{" ? "}" : ")"
        problems.append(PaletteProblem(.invalidColor, "--\(name): \(reason); close it with '\(closing)'",
                                       file: file, location: location(offset), severity: .warning))
        // The custom properties written inside the open value.
        var i = tokens.firstIndex { $0.offset > open.offset } ?? tokens.count
        let swallowedReason = "it is written inside the value of --\(name.excerpt(60)) (line \(location(offset).line)), whose \(open.text) the file never closes, so it is no declaration"
        while i < tokens.count {
            let token = tokens[i]
            if token.kind == .ident, case let written = CSSTokenizer.unescapedName(text(token.offset..<token.end)), written.hasPrefix("--") {
                var look = i + 1
                while look < tokens.count, tokens[look].kind == .whitespace { look += 1 }
                if look < tokens.count, tokens[look].kind == .colon {
                    declaredAnywhere.insert(String(written.dropFirst(2)))
                    ledger.notRead(String(written.dropFirst(2)), reason: swallowedReason, file: file, location: location(token.offset), rule: open.offset)
                }
            }
            i += 1
        }
    }
}
