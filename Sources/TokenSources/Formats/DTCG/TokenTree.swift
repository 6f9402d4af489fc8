import ColorScience

/// How token objects are written in a document.
public enum TokenDialect: String, Sendable {
    /// This project's palette format: every token is a color (string or DTCG object).
    case palette
    /// W3C Design Tokens (DTCG) 2025.10: `$value`, `$type`, `$root`, `$extends`, `$deprecated`.
    case dtcg
    /// Tokens Studio for Figma: `value`, `type`, `$extensions["studio.tokens"]`.
    case tokensStudio
    /// Style Dictionary's classic format (`value`, `comment`, `attributes`) and its built
    /// `json`/`docs` outputs (`original`, `path`, `filePath`).
    case styleDictionary

    /// The member that holds a token's value.
    var valueKey: String { self == .dtcg || self == .palette ? "$value" : "value" }
    var typeKey: String { self == .dtcg || self == .palette ? "$type" : "type" }

    /// Token members that are understood (and so never warned about).
    var knownTokenMembers: Set<String> {
        switch self {
        case .palette, .dtcg: ["$value", "$type", "$description", "$extensions", "$deprecated"]
        case .tokensStudio: ["value", "type", "description", "$extensions", "$description", "$type", "$value", "id", "name"]
        case .styleDictionary: ["value", "type", "comment", "attributes", "original", "name", "path", "filePath", "isSource",
                                "themeable", "description", "$type", "$description", "key", "$extensions", "deprecated",
                                "deprecated_comment", "docs", "group",
                                // Metadata exporters write beside the value: Tokens Studio's legacy
                                // `parent` (the set), a copy of the value as written (`rawValue`).
                                "parent", "rawValue"]
        }
    }
}

/// A group's `"$extends": "{other.group}"`: the group inherits every token of the other group
/// that it does not define itself.
public struct GroupExtension: Sendable {
    var group: String
    var target: String
    var file: String?
    var pointer: JSONPointer
    var location: SourceLocation?
}

/// What enclosing groups pass down to their tokens.
struct GroupContext {
    var type: String?
    var deprecated: String?
}

/// `$extensions` whose content is metadata for other tools and cannot change a color.
let metadataExtensions: Set<String> = [
    "org.primer.figma", "org.primer.llm", "com.figma", "com.figma.scopes", "com.figma.codesyntax", "figma",
    "org.figma", "com.github.primer", "mode", "org.contrast",
]

extension PaletteDecoder {
    /// Says each warning once for its place in the text: a group that `$ref`s name many times
    /// is walked once per name, and what is wrong with it is said once, where it is written
    /// (the pointer names the first path it was met by).
    mutating func warn(_ code: PaletteProblem.Code, _ message: String, at pointer: JSONPointer, _ location: SourceLocation?) {
        if let location, !warnedAt.insert(WarningPlace(code: code, file: file, location: location, message: message)).inserted { return }
        problems.append(PaletteProblem(code, message, file: file, pointer: pointer, location: location, severity: .warning))
    }

    /// Reports a limit that stops the whole read (a nesting too deep to follow): the problem
    /// is the read's, so no palette is made from what was read before it.
    mutating func stopRead(_ message: String, at pointer: JSONPointer, _ location: SourceLocation?) {
        let stop = PaletteProblem(.limitExceeded, message, file: file, pointer: pointer, location: location)
        ReadBudget.current?.stop(stop)
        if !problems.contains(stop) { problems.append(stop) }
    }

    /// Whether an object is a token (rather than a group) in the current dialect.
    func isTokenObject(_ members: [JSONMember]) -> Bool {
        if members.contains(where: { $0.key == "$value" }) { return true }
        guard dialect == .tokensStudio || dialect == .styleDictionary,
              let value = members.first(where: { $0.key == "value" })?.value else { return false }
        // A group that happens to be called "value" holds groups or tokens, not a value.
        if let inner = value.members {
            return !inner.contains { $0.value.members?.contains { $0.key == "value" || $0.key == "$value" } ?? false }
        }
        return true
    }

    /// Flattens flat (`"text.body": "#000"`) and nested groups into dotted token names.
    /// Tokens of every type are kept (typed), so aliases to non-color tokens can be recognised;
    /// ``finishTokens(_:)`` drops the non-color ones.
    mutating func flattenTokens(_ value: JSONValue, prefix: String, pointer: JSONPointer, into tokens: inout [Token],
                                seen: inout Set<String>, context: GroupContext = GroupContext(), depth: Int = 0) {
        guard let members = value.members else {
            problem(.wrongType, "\"tokens\" must be an object, found \(value.typeName)", at: pointer, value)
            return
        }
        if ReadBudget.isExhausted { return }
        if depth >= ReadBudget.maximumDepth {
            stopRead("groups nest more than \(ReadBudget.maximumDepth) deep here; the tokens are not read", at: pointer, value.location)
            return
        }
        // Each member read is spent: a tree whose "$ref"s name the same group many times is
        // walked once per name, and stops at the budget when that is far more than its size.
        // What a member builds: a token, its dotted name and its pointer (a string a segment).
        let memberBytes = MemoryLayout<Token>.stride + prefix.utf8.count + 16 * (pointer.segments.count + 2)
        guard ReadBudget.spend(1 + members.count, bytes: members.count * memberBytes, on: "the group at \(pointer)", file: file, location: value.location) else { return }
        if depth == 0 && dialect != .palette { keywordsAreColors = Self.mostValuesAreColors(value) }
        var context = context
        if let type = members.first(where: { $0.key == "$type" })?.value.stringValue { context.type = type }
        if dialect == .tokensStudio, let type = members.first(where: { $0.key == "type" })?.value.stringValue, !isTokenObject(members) {
            context.type = type
        }
        if let deprecated = members.first(where: { $0.key == "$deprecated" }) {
            context.deprecated = deprecationReason(deprecated.value) ?? context.deprecated
        }
        if let extends = members.first(where: { $0.key == "$extends" }) {
            if let target = extends.value.stringValue.map({ Token.aliasTarget(of: $0) ?? $0 }), !prefix.isEmpty {
                groupExtensions.append(GroupExtension(group: prefix, target: target, file: file, pointer: pointer.appending("$extends"), location: extends.value.location))
            } else {
                problem(.invalidValue, "\"$extends\" must name a group like \"{color.base}\"\(prefix.isEmpty ? " and cannot be used at the top level of a file" : "")", at: pointer.appending("$extends"), extends.value)
            }
        }
        for member in members {
            let key = member.key
            let isRoot = key == "$root"
            if key.hasPrefix("$") && !isRoot {
                if !["$type", "$description", "$extensions", "$deprecated", "$extends", "$schema", "$metadata", "$themes", "$ref"].contains(key) {
                    warn(.unsupportedProperty, "group property \"\(key)\" is not part of the DTCG format and was ignored", at: pointer.appending(key), member.keyLocation)
                }
                continue
            }
            if (dialect == .tokensStudio) && (key == "type" || key == "description") && !isTokenObject(members) { continue }
            let name = prefix.isEmpty ? key : prefix + "." + key
            let memberPointer = pointer.appending(key)
            if tokens.count > limits.maximumTokensPerTheme || ReadBudget.isExhausted {
                if !ReadBudget.isExhausted { stopRead("this token set has more than \(limits.maximumTokensPerTheme) tokens, the limit for one theme; it is not read", at: memberPointer, member.value.location) }
                return
            }
            switch member.value {
            case .string(let text, let location):
                guard self.name(key, at: memberPointer, member.value, what: "a token name") else { continue }
                if seen.contains(name) {
                    problem(.duplicateName, "token \"\(name)\" is defined twice in this theme", at: memberPointer, member.value)
                    continue
                }
                seen.insert(name)
                var token = Token(name: name, value: Token.trimmingReferences(text), pointer: memberPointer, location: location, file: file)
                token.type = dialect == .palette ? "color" : context.type
                if dialect != .palette && context.type == nil && Self.isBareKeyword(text) && !keywordIsColor(key, siblings: members) {
                    // A display name ("name": "Pink" beside "hex": "#ea76cb"), not CSS pink.
                    token.type = Self.keywordNotColor
                }
                token.deprecated = context.deprecated
                tokens.append(token)
            case .object(let inner, _):
                if isRoot || isTokenObject(inner) {
                    guard self.name(key, at: memberPointer, member.value, what: "a token name") else { continue }
                    if seen.contains(name) {
                        problem(.duplicateName, "token \"\(name)\" is defined twice in this theme", at: memberPointer, member.value)
                        continue
                    }
                    let before = problems.count
                    if let token = designToken(inner, name: name, pointer: memberPointer, context: context, object: member.value) {
                        seen.insert(name)
                        tokens.append(token)
                    } else {
                        let reason = problems.count > before ? problems[before].message : "it could not be read"
                        ledger.notRead(name, reason: reason, file: file, location: member.value.location)
                    }
                } else {
                    flattenTokens(member.value, prefix: name, pointer: memberPointer, into: &tokens, seen: &seen, context: context, depth: depth + 1)
                }
            case .number, .bool, .null, .array:
                if dialect == .palette {
                    problem(.wrongType, "token \"\(name)\" must be a color string, an alias like \"{text.body}\", a DTCG token object with \"$value\", or a group; found \(member.value.typeName)", at: memberPointer, member.value)
                }
                // In token files a bare number or list is not a token (or is another tool's
                // metadata); it cannot be a color.
            }
        }
    }

    /// The kind the ledger gives a bare color keyword that its context does not say is a color.
    static let keywordNotColor = "text: a bare color keyword where neither its key, its siblings nor the file's other values say color"

    /// A value that is only a CSS color keyword (`pink`, `Red`, `transparent`): in a map of
    /// names it may be a color or a word.
    static func isBareKeyword(_ text: String) -> Bool {
        let trimmed = text.trimmingSpaces
        return !trimmed.isEmpty && trimmed.count <= 24 && trimmed.allSatisfy { $0.isASCII && $0.isLetter } && CSSColor.isColor(String(trimmed))
    }

    /// Whether a bare color keyword in a map without types is a color: where its context says
    /// color. Its key does (`color`, `background`, `fg`…); a key that labels a record (`name`,
    /// `label`, `title`…), or a sibling that gives the color another way (`hex`, `rgb`…), says it
    /// is a word. Else its siblings say, when each written value beside it is a color; else the
    /// file does, when most of its values are colors.
    func keywordIsColor(_ key: String, siblings: [JSONMember]) -> Bool {
        let k = key.lowercased()
        if k.contains("color") || k.contains("colour") || ["bg", "fg", "background", "foreground", "fill", "stroke", "border", "outline", "text", "ink", "paper", "surface"].contains(k) { return true }
        let labels: Set<String> = ["name", "label", "title", "displayname", "display_name", "display-name", "description", "desc", "emoji",
                                   "id", "slug", "category", "comment", "note", "group", "family", "kind", "type", "alias", "key"]
        if labels.contains(k) { return false }
        let formats: Set<String> = ["hex", "rgb", "rgba", "hsl", "hsla", "hsv", "hsb", "oklch", "oklab", "lab", "lch", "css", "srgb", "p3", "argb"]
        if siblings.contains(where: { $0.key != key && formats.contains($0.key.lowercased()) }) { return false }
        let written = siblings.filter { $0.key != key && !$0.key.hasPrefix("$") }.compactMap { $0.value.stringValue }
        if !written.isEmpty && written.allSatisfy({ Token.aliasTarget(of: $0) != nil || CSSColor.isColor($0) }) { return true }
        return keywordsAreColors ?? true
    }

    /// Whether most of a document's string values are colors (keywords too) or references (a
    /// walk of at most 100 000 values).
    static func mostValuesAreColors(_ root: JSONValue) -> Bool {
        var colors = 0, others = 0, visited = 0
        var stack = [root]
        while let next = stack.popLast(), visited < 100_000 {
            visited += 1
            switch next {
            case .string(let text, _):
                if Token.aliasTarget(of: text) != nil || CSSColor.isColor(text) { colors += 1 } else { others += 1 }
            case .object(let members, _): stack.append(contentsOf: members.map(\.value))
            case .array(let items, _): stack.append(contentsOf: items)
            default: continue
            }
        }
        return colors > others
    }

    func deprecationReason(_ value: JSONValue) -> String? {
        switch value {
        case .bool(true, _): ""
        case .string(let text, _): text
        default: nil
        }
    }

    /// One token object, of any type. Returns nil when it cannot be read (after a problem).
    mutating func designToken(_ members: [JSONMember], name: String, pointer: JSONPointer, context: GroupContext, object: JSONValue) -> Token? {
        var fields = Fields(members, pointer)
        let valueKey = members.contains(where: { $0.key == "$value" }) ? "$value" : dialect.valueKey
        let declaredType = fields.value("$type")?.stringValue ?? (dialect == .tokensStudio || dialect == .styleDictionary ? fields.value("type")?.stringValue : nil)
        let type = declaredType ?? context.type
        guard let raw = fields.value(valueKey) else {
            problem(.missingField, "token \"\(name)\" has no \"\(valueKey)\"", at: pointer, object)
            return nil
        }
        let valuePointer = pointer.appending(valueKey)
        var token = Token(name: name, value: "", pointer: valuePointer, location: raw.location, file: file)
        token.type = type
        token.description = (fields.value("$description") ?? fields.value("description") ?? fields.value("comment"))?.stringValue
        token.deprecated = context.deprecated
        if let deprecated = fields.value("$deprecated") {
            if case .bool(false, _) = deprecated { token.deprecated = nil } else { token.deprecated = deprecationReason(deprecated) ?? token.deprecated }
        }
        if type == "gradient" {
            if case .string(let text, _) = raw {
                token.value = text  // an alias of another gradient
            } else {
                guard let css = cssFromDesignTokenGradient(raw, pointer: valuePointer, token: name) else { return nil }
                token.value = css
            }
            token.type = "gradient"
            return token
        }
        if let type, type != "color" {
            // Not a color: kept only so that aliases to it are known not to be colors.
            token.value = raw.stringValue ?? ""
            return token
        }
        switch raw {
        case .string(let text, _):
            token.value = Token.trimmingReferences(text)
        case .object(let object, _) where object.contains(where: { $0.key == "colorSpace" }) || type == "color":
            let channels = Set(object.map(\.key))
            if !channels.contains("colorSpace"), dialect != .dtcg && dialect != .palette, !channels.isEmpty,
               channels.isSubset(of: ["h", "s", "l", "v", "r", "g", "b", "a"]) {
                // Style Dictionary's built-in color transforms (color/css, color/hex…) hand such an
                // object to tinycolor2, which reads it with its own scales. With literal channels
                // the color is read that way, and an assumption says so; channels written as
                // references name values the build substitutes first, which are not read here.
                let written = "{" + object.map(\.key).joined(separator: ", ") + "}"
                guard let css = Self.tinycolorObject(object) else {
                    problem(.unsupportedProperty, "the value of color token \"\(name)\" is an object \(written) whose channels are not all numbers (references or text, which the project's Style Dictionary build substitutes first); it is not read", at: valuePointer, raw)
                    return nil
                }
                token.value = css
                token.assumed = "the object \(written) is read as Style Dictionary's built-in color transforms read it (tinycolor2: hue in degrees; saturation, lightness and value as fractions when at most 1, else percentages; r, g and b 0–255); a custom transform in the project's build may read it otherwise"
            } else {
                guard let css = cssFromDesignTokenColor(object, pointer: valuePointer, raw, token: name) else { return nil }
                token.value = css
            }
            token.type = "color"
        default:
            if type == "color" || dialect == .palette {
                problem(.wrongType, "the \"\(valueKey)\" of color token \"\(name)\" must be a color string, an alias or a DTCG color object {\"colorSpace\", \"components\", \"alpha\"}; found \(raw.typeName)", at: valuePointer, raw)
                return nil
            }
            // An untyped composite (a shadow, a typography object…): not a color.
            token.type = "(\(raw.typeName))"
            return token
        }
        readExtensions(&fields, into: &token, pointer: pointer)
        // Members this dialect does not define, on a color token: some tools give them meaning
        // that changes the color in their build, so each is applied or reported.
        for (index, member) in members.enumerated() where !fields.isUsed(index) && !dialect.knownTokenMembers.contains(member.key) {
            if member.key == "alpha", case .number(let alpha, _) = member.value, alpha >= 0, alpha <= 1 {
                // Primer's token property: its build sets the color's alpha to this value.
                token.operations.append(.setAlpha(alpha, origin: "\"alpha\": \(CSSNumber.format(alpha)) (Primer's token property)"))
                continue
            }
            warn(.unsupportedProperty, "color token \"\(name)\" has a property \"\(member.key)\" that is not part of the \(dialect.displayName) format; it may change the color in the system's own build and cannot be applied here, so checks that use the token are unresolved (if it does not change the color, declare it harmless: \"ignoreProperties\": [\"\(member.key)\"] in the checks document, or --ignore-property \(member.key))", at: pointer.appending(member.key), member.keyLocation)
            token.unappliedProperties.append(UnappliedProperty(name: member.key, pointer: pointer.appending(member.key), location: member.keyLocation))
        }
        return token
    }

    /// `$extensions` that change a color are applied (ours, Tokens Studio's modifiers) or reported.
    mutating func readExtensions(_ fields: inout Fields, into token: inout Token, pointer: JSONPointer) {
        guard let extensions = fields.value("$extensions") else { return }
        let extPointer = pointer.appending("$extensions")
        guard let members = extensions.members else {
            problem(.wrongType, "\"$extensions\" must be an object, found \(extensions.typeName)", at: extPointer, extensions)
            return
        }
        for member in members {
            let key = member.key
            let memberPointer = extPointer.appending(key)
            switch key {
            case "org.contrast":
                if let assumed = member.value["assumed"] {
                    if let text = assumed.stringValue { token.assumed = text } else {
                        problem(.wrongType, "\"assumed\" must be a string giving the assumption and its reason", at: memberPointer.appending("assumed"), assumed)
                    }
                }
            case "studio.tokens":
                for inner in member.value.members ?? [] {
                    if inner.key == "modify" {
                        if let operation = studioModifier(inner.value, at: memberPointer.appending("modify"), token: token.name) {
                            token.operations.append(operation)
                        } else {
                            // A modifier that cannot be read (its problem is reported) would still
                            // change the color in Tokens Studio: the token is unresolved, never
                            // measured without it.
                            token.unappliedProperties.append(UnappliedProperty(name: "modify", pointer: memberPointer.appending("modify"), location: inner.keyLocation))
                        }
                    } else if !["id", "originalType", "description"].contains(inner.key) {
                        warn(.unsupportedProperty, "token \"\(token.name)\": Tokens Studio extension \"\(inner.key)\" is not understood and cannot be applied, so checks that use the token are unresolved (if it does not change the color, declare it harmless: \"ignoreProperties\": [\"\(inner.key)\"])", at: memberPointer.appending(inner.key), inner.keyLocation)
                        token.unappliedProperties.append(UnappliedProperty(name: inner.key, pointer: memberPointer.appending(inner.key), location: inner.keyLocation))
                    }
                }
            case "org.primer.overrides":
                // Primer's build gives the token this value when it builds the theme of that name.
                guard let overrides = member.value.members else {
                    problem(.wrongType, "\"org.primer.overrides\" must be an object of theme names, found \(member.value.typeName)", at: memberPointer, member.value)
                    continue
                }
                for override in overrides {
                    let overridePointer = memberPointer.appending(override.key)
                    switch override.value {
                    case .string(let text, let location):
                        token.themeValues[override.key] = ThemeValue(value: Token.trimmingReferences(text), operations: nil, pointer: overridePointer, location: location)
                    case .object(let inner, _):
                        let object = override.value
                        let value = object["$value"]?.stringValue.map(Token.trimmingReferences)
                        if object["$value"] != nil && value == nil {
                            warn(.unsupportedProperty, "token \"\(token.name)\": the override for theme \"\(override.key)\" has a \"$value\" that is not a string; it was ignored", at: overridePointer, override.value.location)
                            continue
                        }
                        var operations: [ColorOperation]?
                        if case .number(let alpha, _)? = object["alpha"], alpha >= 0, alpha <= 1 {
                            operations = [.setAlpha(alpha, origin: "\"alpha\": \(CSSNumber.format(alpha)) (Primer's override for \(override.key))")]
                        }
                        for other in inner where !["$value", "alpha", "$type", "$description"].contains(other.key) {
                            warn(.unsupportedProperty, "token \"\(token.name)\": the override for theme \"\(override.key)\" has a property \"\(other.key)\" that was ignored", at: overridePointer.appending(other.key), other.keyLocation)
                        }
                        token.themeValues[override.key] = ThemeValue(value: value, operations: operations, pointer: value == nil ? overridePointer : overridePointer.appending("$value"), location: object["$value"]?.location ?? override.value.location)
                    default:
                        warn(.unsupportedProperty, "token \"\(token.name)\": the override for theme \"\(override.key)\" must be a string or {\"$value\": …}; it was ignored", at: overridePointer, override.value.location)
                    }
                }
            default:
                if metadataExtensions.contains(key) { continue }
                if PaletteDecoder.mayChangeColor(member.value) {
                    warn(.unsupportedProperty, "token \"\(token.name)\" has the extension \"\(key)\", which this tool does not understand and which may change the color; it cannot be applied, so checks that use the token are unresolved (if it does not change the color, declare it harmless: \"ignoreProperties\": [\"\(key)\"])", at: memberPointer, member.keyLocation)
                    token.unappliedProperties.append(UnappliedProperty(name: key, pointer: memberPointer, location: member.keyLocation))
                }
            }
        }
    }

    /// Whether an extension's content looks like it transforms or replaces a color.
    static func mayChangeColor(_ value: JSONValue) -> Bool {
        let words: Set<String> = ["modify", "alpha", "opacity", "mix", "lighten", "darken", "tint", "shade", "saturate",
                                  "desaturate", "$value", "value", "color", "overrides", "modes", "hue", "lightness", "blend"]
        var stack = [value]
        var visited = 0
        while let next = stack.popLast(), visited < 1_000 {
            visited += 1
            for member in next.members ?? [] {
                if words.contains(member.key.lowercased()) { return true }
                stack.append(member.value)
            }
        }
        return false
    }
}

extension TokenDialect {
    var displayName: String {
        switch self {
        case .palette: "palette"
        case .dtcg: "DTCG"
        case .tokensStudio: "Tokens Studio"
        case .styleDictionary: "Style Dictionary"
        }
    }
}
