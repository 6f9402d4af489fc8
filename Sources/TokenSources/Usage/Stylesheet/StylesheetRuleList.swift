import ColorScience

/// A stylesheet's style rules as a flat list, in document order: each with its selectors (CSS
/// nesting resolved, so `.Box { .title { … } }` is `.Box .title`), the line its selector starts
/// on, whether a condition (`@media`, `@supports`, `@container`) is around it, and its
/// declarations. Walked once over ColorScience's ``CSSTokenizer`` tokens; `@layer`, `@scope` and
/// the condition rules are opened, every other at-rule (`@keyframes`, `@font-face`, `@property`,
/// `@page`) is passed over: it holds no rule that draws an element.
struct StylesheetRuleList {
    struct Declaration {
        /// Lowercased, except a custom property's name, which is kept as written (unescaped).
        var property: String
        var value: String
        var line: Int
    }

    struct Rule {
        /// The selector list's alternatives, each in canonical form (``StylesheetSelector``).
        var selectors: [StylesheetSelector]
        var line: Int
        /// Inside `@media`, `@supports` or `@container`: it applies to some pages only.
        var conditional: Bool
        var declarations: [Declaration]
    }

    /// The most selectors a nested rule opens into (each selector of its list under each of its
    /// parent's): more is not read, and said so.
    static let maximumSelectors = 64

    private(set) var rules: [Rule] = []
    /// What was passed over, with its line and why.
    private(set) var skipped: [(line: Int, what: String)] = []

    private let bytes: [UInt8]
    private let tokens: [CSSToken]
    private var index = 0
    /// The line of ``lineOffset``: lines are counted on as the walk goes forward, never again.
    private var lineOffset = 0
    private var lineNumber = 1
    private var depth = 0
    private var stopped = false

    init(_ bytes: [UInt8], file: String) {
        self.bytes = bytes
        tokens = CSSTokenizer.tokenize(bytes, comments: .dropped)
        _ = ReadBudget.spend(2 * tokens.count, on: "the tokens of a stylesheet", file: file, location: nil)
        readRules(parents: nil, conditional: false)
    }

    /// The 1-based line of a byte offset at or after the last one asked about.
    private mutating func line(_ offset: Int) -> Int {
        let target = min(offset, bytes.count)
        if target < lineOffset { return lineNumber }
        while lineOffset < target {
            if bytes[lineOffset] == 0x0A { lineNumber += 1 }
            lineOffset += 1
        }
        return lineNumber
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private var current: CSSToken? { index < tokens.count ? tokens[index] : nil }

    private mutating func skipWhitespace() {
        while let t = current, t.kind == .whitespace || t.kind == .cdo || t.kind == .cdc || t.kind == .semicolon { index += 1 }
    }

    /// Past a balanced block or function whose opening token was just consumed.
    private mutating func skipBalanced(closing: CSSToken.Kind) {
        var stack: [CSSToken.Kind] = [closing]
        while let t = current, !stack.isEmpty {
            index += 1
            switch t.kind {
            case .leftBrace: stack.append(.rightBrace)
            case .leftBracket: stack.append(.rightBracket)
            case .leftParen, .function: stack.append(.rightParen)
            case .rightBrace, .rightBracket, .rightParen: if t.kind == stack.last { stack.removeLast() }
            default: break
            }
        }
    }

    /// The tokens up to a `{`, `;` or `}` at depth 0, as text with white space collapsed.
    private mutating func prelude() -> String {
        var written = ""
        while let t = current, t.kind != .leftBrace, t.kind != .semicolon, t.kind != .rightBrace {
            let start = index
            index += 1
            if t.kind == .leftParen || t.kind == .function { skipBalanced(closing: .rightParen) } else if t.kind == .leftBracket { skipBalanced(closing: .rightBracket) }
            for token in tokens[start..<index] { written += token.kind == .whitespace ? " " : text(token.offset..<token.end) }
        }
        return StylesheetReader.collapse(written)
    }

    /// Rules up to the end of the file, or the `}` closing a group.
    private mutating func readRules(parents: [StylesheetSelector]?, conditional: Bool) {
        while !stopped {
            skipWhitespace()
            guard let t = current else { return }
            switch t.kind {
            case .rightBrace:
                index += 1
                return
            case .atKeyword:
                readAtRule(parents: parents, conditional: conditional)
            default:
                readStyleRule(parents: parents, conditional: conditional)
            }
        }
    }

    private mutating func readAtRule(parents: [StylesheetSelector]?, conditional: Bool) {
        guard let keyword = current else { return }
        let name = text(keyword.offset + 1..<keyword.end).lowercased()
        let at = line(keyword.offset)
        index += 1
        _ = prelude()
        guard let t = current, t.kind == .leftBrace else {
            if current?.kind == .semicolon { index += 1 }
            return
        }
        index += 1
        guard enter(at: at) else { return }
        defer { depth -= 1 }
        switch name {
        case "media", "supports", "container":
            group(parents: parents, conditional: true)
        case "layer", "scope", "document", "starting-style":
            group(parents: parents, conditional: conditional)
        default:
            skipBalanced(closing: .rightBrace)
        }
    }

    /// A group rule's block: rules, or inside a style rule (nesting) that rule's declarations.
    private mutating func group(parents: [StylesheetSelector]?, conditional: Bool) {
        if let parents {
            var declarations: [Declaration] = []
            readBlock(selectors: parents, conditional: conditional, into: &declarations)
            let first = declarations.first?.line ?? lineNumber
            if !declarations.isEmpty { rules.append(Rule(selectors: parents, line: first, conditional: conditional, declarations: declarations)) }
        } else {
            readRules(parents: nil, conditional: conditional)
        }
    }

    private mutating func enter(at line: Int) -> Bool {
        guard depth < ReadBudget.maximumDepth else {
            skipped.append((line, "blocks nest more than \(ReadBudget.maximumDepth) deep here; what is inside is not read"))
            stopped = true
            return false
        }
        depth += 1
        return true
    }

    private mutating func readStyleRule(parents: [StylesheetSelector]?, conditional: Bool) {
        guard let first = current else { return }
        let at = line(first.offset)
        let written = prelude()
        guard let t = current, t.kind == .leftBrace else {
            if current?.kind == .semicolon { index += 1 }
            return
        }
        index += 1
        guard enter(at: at) else { return }
        defer { depth -= 1 }
        var selectors: [StylesheetSelector] = []
        var tooMany = false
        for part in StylesheetReader.splitList(written) {
            if let parents {
                for parent in parents {
                    let resolved = part.contains("&") ? part.replacing("&", with: parent.text) : parent.text + " " + part
                    selectors.append(StylesheetSelector(resolved))
                    if selectors.count >= Self.maximumSelectors { tooMany = true; break }
                }
            } else {
                selectors.append(StylesheetSelector(part))
            }
            if tooMany || selectors.count >= Self.maximumSelectors { tooMany = true; break }
        }
        if tooMany {
            skipped.append((at, "the rule '\(written.excerpt(60))' opens into more than \(Self.maximumSelectors) selectors (its list under its parents'); the rest are not read"))
        }
        // A nested rule's selectors repeat their parents': what they build is spent.
        let built = selectors.reduce(0) { $0 + $1.text.utf8.count }
        _ = ReadBudget.spend(written.utf8.count + built, bytes: built, on: "the rule '\(written.excerpt(40))'", file: nil, location: nil)
        var declarations: [Declaration] = []
        let slot = rules.count
        rules.append(Rule(selectors: selectors, line: at, conditional: conditional, declarations: []))
        readBlock(selectors: selectors, conditional: conditional, into: &declarations)
        rules[slot].declarations = declarations
    }

    /// A style rule's declarations and nested rules, up to its `}`.
    private mutating func readBlock(selectors: [StylesheetSelector], conditional: Bool, into declarations: inout [Declaration]) {
        while !stopped {
            skipWhitespace()
            guard let t = current else { return }
            switch t.kind {
            case .rightBrace:
                index += 1
                return
            case .atKeyword:
                readAtRule(parents: selectors, conditional: conditional)
            case .ident where isDeclaration():
                let name = CSSTokenizer.unescapedName(text(t.offset..<t.end))
                let at = line(t.offset)
                while let c = current, c.kind != .colon { index += 1 }
                index += 1
                let value = readValue()
                declarations.append(Declaration(property: name.hasPrefix("--") ? name : name.lowercased(), value: value, line: at))
            default:
                readStyleRule(parents: selectors, conditional: conditional)
            }
        }
    }

    /// Whether the identifier at the walk is a declaration's name: a colon follows it, and
    /// (unless it is a custom property) a `;` or `}` comes before any `{` at depth 0, so
    /// `a:hover { … }` nested in a rule is a rule.
    private func isDeclaration() -> Bool {
        var look = index + 1
        while look < tokens.count, tokens[look].kind == .whitespace { look += 1 }
        guard look < tokens.count, tokens[look].kind == .colon else { return false }
        if text(tokens[index].offset..<tokens[index].end).hasPrefix("--") { return true }
        var depth = 0
        look += 1
        while look < tokens.count {
            switch tokens[look].kind {
            case .leftParen, .function, .leftBracket: depth += 1
            case .rightParen, .rightBracket: depth -= 1
            case .semicolon where depth <= 0, .rightBrace where depth <= 0: return true
            case .leftBrace where depth <= 0: return false
            default: break
            }
            look += 1
        }
        return true
    }

    /// A declaration's value, up to its `;` or the block's `}`, trimmed, without `!important`.
    private mutating func readValue() -> String {
        var start: Int?
        var end = current?.offset ?? bytes.count
        while let t = current, t.kind != .semicolon, t.kind != .rightBrace {
            index += 1
            if start == nil && t.kind != .whitespace { start = t.offset }
            switch t.kind {
            case .leftParen, .function: skipBalanced(closing: .rightParen)
            case .leftBracket: skipBalanced(closing: .rightBracket)
            case .leftBrace: skipBalanced(closing: .rightBrace)
            default: break
            }
            if tokens[index - 1].kind != .whitespace { end = tokens[index - 1].end }
        }
        guard let start, end > start else { return "" }
        var value = text(start..<end)
        if let bang = value.lastIndex(of: "!"), value[value.index(after: bang)...].cssTrimmed.lowercased() == "important" {
            value = String(value[..<bang])
        }
        return value.cssTrimmed
    }
}

/// One selector of a list, split into compound selectors at its combinators, and written in one
/// canonical form (`.a>.b` and `.a > .b` are both `.a > .b`), by which the reader indexes rules.
struct StylesheetSelector: Hashable {
    enum Combinator: String { case descendant = " ", child = " > ", next = " + ", subsequent = " ~ " }

    static let maximumAncestors = 8

    /// The compounds, each with the combinator before it (nil for the first).
    var parts: [(combinator: Combinator?, compound: String)]
    /// The canonical text.
    var text: String

    init(_ written: String) {
        var parts: [(Combinator?, String)] = []
        var compound = "", pending: Combinator?, depth = 0
        var sawSpace = false
        func flush() {
            if !compound.isEmpty {
                parts.append((parts.isEmpty ? nil : (pending ?? .descendant), compound))
                compound = ""
                pending = nil
            }
        }
        for c in written {
            if depth == 0 && (c == " " || c == "\n" || c == "\t") {
                sawSpace = true
                continue
            }
            if depth == 0, let combinator: Combinator = c == ">" ? .child : c == "+" ? .next : c == "~" ? .subsequent : nil {
                flush()
                pending = combinator
                sawSpace = false
                continue
            }
            if sawSpace {
                flush()
                sawSpace = false
            }
            if c == "(" || c == "[" { depth += 1 } else if c == ")" || c == "]" { depth = max(0, depth - 1) }
            compound.append(c)
        }
        flush()
        self.parts = parts
        text = parts.map { ($0.0?.rawValue ?? "") + $0.1 }.joined()
    }

    private init(parts: [(combinator: Combinator?, compound: String)]) {
        self.parts = parts
        text = parts.map { ($0.combinator?.rawValue ?? "") + $0.compound }.joined()
    }

    static func == (a: Self, b: Self) -> Bool { a.text == b.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The element's ancestors that the selector names, nearest first: each as the selector
    /// ending at it (`.a > .b .c` gives `.a > .b`, then `.a`). A compound before `+` or `~` is a
    /// sibling, not an ancestor, and is left out.
    /// At most the nearest ``maximumAncestors`` are given: each costs the selector's length.
    var ancestors: [StylesheetSelector] {
        var found: [StylesheetSelector] = []
        var j = parts.count - 1
        while j > 0, found.count < Self.maximumAncestors {
            if let combinator = parts[j].combinator, combinator == .descendant || combinator == .child {
                found.append(StylesheetSelector(parts: Array(parts[..<j])))
            }
            j -= 1
        }
        return found
    }

    /// The selector's last compound alone (`.b` of `.a .b`), when it has more than one.
    var subjectAlone: StylesheetSelector? {
        parts.count > 1 ? StylesheetSelector(parts: [(nil, parts[parts.count - 1].compound)]) : nil
    }

    /// The first simple selector of the last compound alone (`.btn` of `.btn.selected`, `a` of
    /// `.nav a.active`), when the compound has more: a class the element has with its state's.
    var leadingSimple: StylesheetSelector? {
        guard let last = parts.last?.compound else { return nil }
        var kept = "", depth = 0
        for (i, c) in last.enumerated() {
            if c == "(" || c == "[" { depth += 1 } else if c == ")" || c == "]" { depth -= 1 }
            if i > 0, depth == 0 || (depth == 1 && c == "["), c == "." || c == ":" || c == "[" || c == "#" { break }
            kept.append(c)
        }
        guard !kept.isEmpty, kept != last, !kept.hasPrefix(":") else { return nil }
        return StylesheetSelector(parts: [(nil, kept)])
    }

    /// The same element without the pseudo-classes and pseudo-elements of its last compound
    /// (`.btn:hover` is `.btn`, `.tab[aria-selected=true]::after` is `.tab[aria-selected=true]`):
    /// the element in its resting state, whose fill a state that sets none keeps. Nil when the
    /// compound has none, or is nothing without them.
    var restingState: StylesheetSelector? {
        guard let last = parts.last else { return nil }
        var kept = "", depth = 0, inPseudo = false
        for c in last.compound {
            if depth == 0 && c == ":" { inPseudo = true; continue }
            if inPseudo {
                if c == "(" { depth += 1 } else if c == ")" { depth -= 1; if depth == 0 { continue } }
                if depth > 0 { continue }
                if c == "." || c == "[" || c == "#" { inPseudo = false } else { continue }
            }
            kept.append(c)
        }
        guard !kept.isEmpty, kept != last.compound else { return nil }
        var parts = self.parts
        parts[parts.count - 1].compound = kept
        return StylesheetSelector(parts: parts)
    }

    /// Whether it selects a disabled control: `:disabled`, `.disabled`, `[disabled]`,
    /// `[aria-disabled=true]` in any compound (WCAG exempts inactive components, SC 1.4.3).
    /// What `:not(…)` says is absent is left out (`.btn:not(:disabled):hover` is enabled).
    var isDisabled: Bool {
        var lowered = "", depth = 0
        var rest = Substring(text.lowercased())
        while !rest.isEmpty {
            if depth == 0, rest.hasPrefix(":not(") {
                depth = 1
                rest = rest.dropFirst(5)
                continue
            }
            let c = rest.removeFirst()
            if depth > 0 {
                if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
                continue
            }
            lowered.append(c)
        }
        return lowered.contains(":disabled") || lowered.contains(".disabled") || lowered.contains("[disabled")
            || lowered.contains("aria-disabled") || lowered.contains("-disabled")
    }

    /// Whether it is the page itself: `html`, `body`, `:root`, `:host`.
    var isPage: Bool { ["html", "body", ":root", ":host"].contains(text.lowercased()) }
}
