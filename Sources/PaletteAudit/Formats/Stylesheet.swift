import ColorScience

/// A stylesheet's custom properties as a palette: `globals.css` with `:root` and `.dark`
/// blocks, Tailwind v4's `@theme`, the CSS builds of Primer and Radix, Open Props.
///
/// The file is read with a CSS Syntax Level 3 tokenizer (comments, strings, escapes, `url()`,
/// nested blocks) and only custom-property declarations are kept; every other rule and
/// declaration is skipped. Where a property is defined decides its theme:
/// - `:root`, `html`, `:host` and Tailwind's `@theme` are the base theme (`light`, or `dark`
///   when its `color-scheme` is dark only);
/// - `@media (prefers-color-scheme: dark)` is `dark`, `(prefers-contrast: more)` is
///   `high-contrast`, both `dark-high-contrast`;
/// - classes and attributes on `:root`/`html`/`body` (`.dark`, `[data-theme="dark"]`,
///   `[data-color-mode="dark"][data-dark-theme="dark_dimmed"]`) are themes named by the last of
///   them (`dark`, `dark_dimmed`), extending the base; so are attribute selectors alone, and a
///   class alone whose name says it is a theme (`dark`, `light`, `theme`, `contrast`, `dim`,
///   `mode`, `scheme` in it: `.dark`, `.light-theme`); a selector that names a theme inside a
///   color-scheme query is that theme (Primer's `auto` mode);
/// - `:where(X)` and `:is(X)` are `X` (Open Props' `:where(html)`), and `@media (--OSdark)` is
///   the query `@custom-media --OSdark` defines;
/// - an `@property` rule's `initial-value` is its property's value where no rule sets it: the
///   lowest layer of every theme;
/// - `@import`ed stylesheets are read first, as if their rules stood where the `@import` is
///   (see `Stylesheet+Imports.swift`).
/// Properties on other selectors, or under other media queries, are scoped to elements or
/// devices: each such block is reported once, never read as tokens.
///
/// Attributes of different names on the root (and classes, one axis) are axes: when two or
/// more are pinned each on its own (Designsystemet's `[data-color-scheme="dark"]` and
/// `[data-color="brand1"]`), the themes are their product (`dark-brand1`), each taking every block
/// whose constraints it meets; axes without colors stay at their default, and a value under
/// color-scheme queries (`auto`) is one theme per preference (`auto-light`, `auto-dark`). See
/// ``axisThemes(baseScheme:)``.
///
/// Each theme gets its effective properties (the base's, then its own, in cascade order), with
/// `var()` substituted as CSS does, per theme, through chains and fallbacks. A value that is a
/// color is a token named without its `--`; a value that is exactly `var(--x)` stays an alias
/// of `x`. Other values are not colors and are left alone; a value that looks like a color
/// (`#…` or a color function) and is not one is a problem at its line and column.
struct StylesheetReader {
    /// The stylesheet being read now: the one named, or one it imports (see
    /// `Stylesheet+Imports.swift`).
    private(set) var bytes: [UInt8]
    private(set) var file: String?
    /// The stylesheet the read is of: the palette's file.
    let mainFile: String?
    var problems: [PaletteProblem] = []
    private(set) var lineStarts: [Int]
    /// Where `@import`s are read from; nil when the stylesheet came without a folder.
    var imports: ImportSource?

    init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
        self.mainFile = file
        self.lineStarts = Self.lineStarts(of: bytes)
    }

    static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        return starts
    }

    /// Makes `sheet` the stylesheet being read, at its first token.
    mutating func enter(_ sheet: Sheet) {
        bytes = sheet.bytes
        file = sheet.file
        lineStarts = sheet.lineStarts
        tokens = sheet.tokens
        index = 0
        lastLocation.location = nil
    }

    /// The last location worked out: the next one on the same line counts its column on from
    /// there, so locating every declaration of a one-line stylesheet is linear, not quadratic.
    private final class LastLocation {
        var location: SourceLocation?
    }
    private let lastLocation = LastLocation()

    /// Line and column (1-based, in characters) of a byte offset.
    func location(_ offset: Int) -> SourceLocation {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let start = lineStarts[low]
        let end = min(offset, bytes.count)
        var from = start, column = 1
        // Characters are counted on from the last location when it is on this line, before
        // this one, and between two ASCII bytes (so no character spans it and counting from
        // it gives the same column).
        if let last = lastLocation.location, last.line == low + 1, last.offset > start, last.offset <= end,
           last.offset < bytes.count, bytes[last.offset - 1] < 0x80, bytes[last.offset] < 0x80 {
            from = last.offset
            column = last.column
        }
        column += String(decoding: bytes[from..<end], as: UTF8.self).count
        let location = SourceLocation(offset: offset, line: low + 1, column: column)
        lastLocation.location = location
        return location
    }

    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    // MARK: Tokens

    /// The stylesheet is tokenized by ColorScience's CSS Syntax tokenizer, the one color values
    /// go through, with comments dropped (`html/**/.dark` is one compound selector).
    typealias Kind = CSSToken.Kind

    func tokenize() -> [CSSToken] {
        CSSTokenizer.tokenize(bytes, comments: .dropped)
    }

    // MARK: Rules

    /// Where a block of declarations stands: the at-rules around it and its selector.
    struct Context {
        var media: [MediaQuery] = []
        /// The `@container` queries around the block: it applies to some elements only.
        var containers: [String] = []
        var selector: String?
        /// Tailwind's `@theme`: the base theme.
        var tailwindTheme = false
        /// Tailwind v4's `@variant dark { … }` inside a theme's block: the dark variant of that
        /// theme.
        var variants: [String] = []
        /// The block's theme, worked out at its first custom property (once per block).
        var theme = BlockTheme()
        var description: String {
            (media.map { "@media \($0.written)" } + containers.map { "@container \($0)" } + (tailwindTheme ? ["@theme"] : []) + (selector.map { [$0] } ?? []) + variants.map { "@variant \($0)" }).joined(separator: " ")
        }
    }

    /// An `@media` query around a block: as written, and as it reads once the custom media
    /// queries it names (`(--OSdark)`) are replaced by their definitions.
    struct MediaQuery {
        var written: String
        /// The query with its custom media queries replaced; nil when one could not be.
        var expanded: String?
        /// Why a custom media query it names could not be replaced (then its block is not read).
        var failure: String?
    }

    /// A custom media query (`@custom-media --OSdark (prefers-color-scheme: dark);`): its query
    /// and where it is defined.
    struct CustomMedia {
        var query: String
        var file: String?
        var location: SourceLocation
    }

    final class BlockTheme {
        var known = false
        var name: String?
        /// The block's ``Context/description``, built once (at its first custom property).
        var description: String?
        /// The block's index in ``StylesheetReader/specs``: what it constrains, for axes.
        var spec = -1
    }

    /// What a theme block constrains, read as axes: each alternative of its selector list is the
    /// attribute names (and "class") it pins, each to a value or "*" (any value); an empty
    /// alternative is the base. `preference` is the color-scheme or contrast preference its
    /// queries ask for ("light", "dark", "high-contrast", …), nil when it has none.
    struct BlockSpec {
        var alternatives: [[(axis: String, value: String)]]
        var preference: String?
        var file: String?
        var location: SourceLocation
    }

    /// One custom-property declaration as written.
    struct Declaration {
        var name: String  // without the leading "--"
        var value: String
        var important: Bool
        var location: SourceLocation
        var block: String
        var order: Int
        /// The block's index in ``specs``.
        var spec = -1
        /// An `@property` rule's `initial-value`: the lowest layer of every theme.
        var initial = false
        /// The stylesheet it is in (an imported one, or the palette's own).
        var file: String?
    }

    /// Declarations by theme name, in source order; the base theme's name is "".
    var declarations: [String: [Declaration]] = [:]
    /// The `initial-value` of each `@property` rule, in source order: the value a property has
    /// where no rule sets it, under every theme's own declarations.
    var initialValues: [Declaration] = []
    /// `color-scheme` values given in each theme's blocks.
    var colorSchemes: [String: String] = [:]
    /// What each theme block constrains, in source order (see ``BlockSpec``).
    var specs: [BlockSpec] = []
    /// The last `color-scheme` given in each block (by spec index): its order and value.
    var specColorSchemes: [Int: (order: Int, value: String)] = [:]
    /// The custom media queries the stylesheet defines, by name (with its `--`); the last
    /// definition of a name wins.
    var customMedia: [String: CustomMedia] = [:]
    /// Each custom media query once replaced, through the ones it names (or why it could not be).
    private var expandedCustomMedia: [String: Result<String, CustomMediaFailure>] = [:]
    /// Custom media cycles reported (by the name they were found at), once each.
    private var reportedMediaCycles: Set<String> = []
    /// Blocks whose custom properties were not read, reported once each.
    private var reportedScopes: Set<String> = []
    /// Why each block that is not a theme was not read (its description → the reason).
    private var unreadBlocks: [String: String] = [:]
    /// What the reader met that did not become a color token.
    var ledger = ReadLedger()
    /// Custom properties read as bare HSL channels (`0 0% 100%`), said in one warning.
    var bareHSL = 0
    private var order = 0
    private(set) var tokens: [CSSToken] = []
    var index = 0
    /// How many blocks the reader is inside (at most ``ReadBudget/maximumDepth``).
    private var depth = 0
    /// The blocks the reader is inside: where each `{` is, and the text before it.
    private var openBlocks: [(offset: Int, prelude: Range<Int>)] = []
    /// The blocks open when the file ended, if it ended inside any.
    private var unclosed: [(offset: Int, prelude: Range<Int>)]?
    /// The stylesheets read, when the stylesheet imports any: its own file and the imported ones.
    var files: [String] = []
    /// Set when the read was stopped (a depth limit, or the budget ran out or the request's
    /// deadline passed): the readers return at once, and the palette is not built.
    private(set) var stopped = false
    /// Steps spent but not yet taken from the budget: they are taken in batches, so that the
    /// location in a problem (its column costs a walk along its line) is worked out rarely.
    private var pendingSteps = 0

    /// Stops the read with `problem` (the first problem wins, in the budget too).
    mutating func halt(_ problem: PaletteProblem) {
        guard !stopped else { return }
        stopped = true
        if !problems.contains(problem) { problems.append(problem) }
        ReadBudget.current?.stop(problem)
    }

    /// Spends `cost` steps and `built` bytes on `construct` at byte `offset` from the read's
    /// budget; false (and the read stopped) when it must stop.
    @discardableResult
    mutating func spend(_ cost: Int = 1, bytes built: Int = 0, on construct: @autoclosure () -> String, at offset: Int) -> Bool {
        guard !stopped else { return false }
        pendingSteps += cost
        guard pendingSteps >= 1024 || built > 0 else { return true }
        return flushSteps(bytes: built, on: construct(), at: offset)
    }

    /// Spends `cost` steps on `construct` at `location` of `file` (a stylesheet of the read
    /// other than the one being read now).
    @discardableResult
    mutating func spend(_ cost: Int, on construct: @autoclosure () -> String, file: String?, location: SourceLocation) -> Bool {
        guard !stopped else { return false }
        pendingSteps += cost
        guard pendingSteps >= 1024 else { return true }
        let steps = pendingSteps
        pendingSteps = 0
        guard let budget = ReadBudget.current else { return true }
        if budget.spend(steps, on: construct(), file: file, location: location) && !budget.isExhausted { return true }
        stopped = true
        if let problem = budget.problem, !problems.contains(problem) { problems.append(problem) }
        return false
    }

    /// Takes the pending steps from the budget.
    @discardableResult
    mutating func flushSteps(bytes built: Int = 0, on construct: String, at offset: Int) -> Bool {
        guard !stopped else { return false }
        let cost = pendingSteps
        pendingSteps = 0
        guard let budget = ReadBudget.current else { return true }
        if budget.spend(cost, bytes: built, on: construct, file: file, location: location(min(offset, bytes.count))) && !budget.isExhausted { return true }
        stopped = true
        if let problem = budget.problem, !problems.contains(problem) { problems.append(problem) }
        return false
    }

    /// Enters a block (`{` at `offset`) of `construct`: false, with a problem at its line and
    /// column, when blocks nest deeper than ``ReadBudget/maximumDepth``.
    /// On true the block is open: the caller leaves it with ``leaveBlock()``. `prelude` is the
    /// text before its `{`, for a message about a block the file leaves open.
    mutating func enterBlock(at offset: Int, _ construct: @autoclosure () -> String, prelude: Range<Int>) -> Bool {
        guard !stopped else { return false }
        guard depth < ReadBudget.maximumDepth else {
            halt(PaletteProblem(.limitExceeded, "\(construct()) nests more than \(ReadBudget.maximumDepth) blocks deep; a stylesheet this deep is not read", file: file, location: location(offset)))
            return false
        }
        guard spend(on: construct(), at: offset) else { return false }
        depth += 1
        openBlocks.append((offset, prelude))
        return true
    }

    mutating func leaveBlock() {
        depth -= 1
        openBlocks.removeLast()
    }

    /// The file ended inside the blocks open now: remembered (the first time) for one warning at
    /// the end of the read.
    mutating func noteUnclosed() {
        if unclosed == nil && !openBlocks.isEmpty { unclosed = openBlocks }
    }

    /// One warning for blocks the file leaves open, at the outermost one's `{`: browsers close
    /// them at the end of the file, and so does the reader, so what they hold is read.
    mutating func warnUnclosed() {
        guard let blocks = unclosed, let outer = blocks.first else { return }
        func shown(_ block: (offset: Int, prelude: Range<Int>)) -> String {
            let words = Self.collapse(text(block.prelude))
            let short = words.count > 40 ? String(words.prefix(40)) + "…" : words
            return words.hasPrefix("@") ? short : "the rule '\(short)'"
        }
        let lines = blocks.dropFirst().map { location($0.offset).line }
        var inside = ""
        if lines.count == 1 {
            inside = ", nor is the block opened inside it at line \(lines[0])"
        } else if lines.count > 1 {
            let listed = lines.prefix(5).map(String.init).joined(separator: ", ") + (lines.count > 5 ? ", …" : "")
            inside = ", nor are the \(lines.count) blocks opened inside it (at lines \(listed))"
        }
        let at = location(outer.offset)
        problems.append(PaletteProblem(.unsupportedProperty, "\(shown(outer)) opened at line \(at.line) is not closed by the end of the file\(inside); what it holds is read as if it were closed there, as browsers do",
                                       file: file, location: at, severity: .warning))
    }

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
            readRules(context, topLevel: true)
            warnUnclosed()
            unclosed = nil
            flushSteps(on: "the stylesheet's rules", at: current?.offset ?? bytes.count)
        }
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
        case "supports", "layer", "scope", "document", "starting-style":
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
            var i = from
            while i < index {
                let token = tokens[i]
                if token.kind == .ident, text(token.offset..<token.end).hasPrefix("--") {
                    var look = i + 1
                    while look < index, tokens[look].kind == .whitespace { look += 1 }
                    if look < index, tokens[look].kind == .colon {
                        ledger.notRead(String(text(token.offset..<token.end).dropFirst(2)), reason: "inside @\(atName)\(preludeText.isEmpty ? "" : " " + preludeText.prefix(40)), which is not read as a theme",
                                       file: file, location: location(token.offset))
                    }
                }
                i += 1
            }
        }
    }

    // MARK: Custom media queries (Media Queries 5, §11)

    /// The most custom media queries one query goes through, nested (`--xs-phone` naming
    /// `--xs-only` and `--portrait`), before its block is not read.
    static let maximumCustomMediaDepth = 32

    /// Why a custom media query could not be replaced.
    enum CustomMediaFailure: Error {
        /// The name is not defined in the stylesheet.
        case undefined(String)
        /// The names, from the first to the one that names it again.
        case cycle([String])
        case tooDeep(String)
        /// Defined as `false`: its blocks never apply.
        case never(String)
        /// The read's budget ran out.
        case stopped
    }

    /// Records every `@custom-media --name query;` at the stylesheet's top level (one pass over
    /// its tokens); a definition without a `--name` is a warning.
    mutating func collectCustomMedia() {
        var depth = 0
        var i = 0
        while i < tokens.count, !stopped {
            let t = tokens[i]
            switch t.kind {
            case .leftBrace: depth += 1
            case .rightBrace: depth = max(0, depth - 1)
            case .atKeyword where depth == 0 && text(t.offset + 1..<t.end).lowercased() == "custom-media":
                index = i + 1
                skipWhitespace()
                let name = current.flatMap { $0.kind == .ident ? text($0.offset..<$0.end) : nil }
                let at = current?.offset ?? t.offset
                let range = prelude()
                let all = text(range).cssTrimmed
                guard spend(all.utf8.count, bytes: all.utf8.count, on: "@custom-media \(all.prefix(40))", at: t.offset) else { return }
                if let name, name.hasPrefix("--"), name.count > 2, current?.kind == .semicolon {
                    let query = Self.collapse(String(all.dropFirst(name.count)))
                    customMedia[name] = CustomMedia(query: query, file: file, location: location(at))
                } else {
                    problems.append(PaletteProblem(.unsupportedProperty, "@custom-media \(all.prefix(60)) is not a definition like @custom-media --name (query); not read",
                                                   file: file, location: location(t.offset), severity: .warning))
                }
                i = max(index, i + 1)
                continue
            default: break
            }
            i += 1
        }
    }

    /// An `@media` prelude with the custom media queries it names replaced, or why they could
    /// not be.
    mutating func mediaQuery(_ written: String, at offset: Int) -> MediaQuery {
        guard written.contains("--") else { return MediaQuery(written: written, expanded: written) }
        switch expandCustomMedia(in: written, chain: [], at: offset) {
        case .success(let expanded):
            return MediaQuery(written: written, expanded: Self.collapse(expanded))
        case .failure(let failure):
            let reason: String
            switch failure {
            case .undefined(let name):
                // `@media (--OSdark)` names the query it uses; a longer query says which one.
                let named = written.replacing(" ", with: "") == "(\(name))" ? "" : " \(name),"
                reason = "@media \(written) uses\(named) a custom media query defined elsewhere (not found in this stylesheet or those it imports)"
            case .cycle(let names):
                reason = "@media \(written) uses \(names[0]), a custom media query defined in terms of itself (\(names.joined(separator: " → ")))"
            case .tooDeep(let name):
                reason = "@media \(written) goes through more than \(Self.maximumCustomMediaDepth) custom media queries, nested (at \(name))"
            case .never(let name):
                reason = "@media \(written) never applies (\(name) is defined as false)"
            case .stopped:
                reason = "the read was stopped"
            }
            return MediaQuery(written: written, expanded: nil, failure: reason)
        }
    }

    /// `query` with each `(--name)` replaced by that custom media query's own query (itself
    /// replaced, once per name). What replacing builds is spent from the read's budget.
    mutating func expandCustomMedia(in query: String, chain: [String], at offset: Int) -> Result<String, CustomMediaFailure> {
        var out = ""
        var rest = Substring(query)
        while let open = rest.firstIndex(of: "(") {
            out += rest[..<open]
            var i = rest.index(after: open)
            while i < rest.endIndex, rest[i].isWhitespace { i = rest.index(after: i) }
            var j = i
            while j < rest.endIndex, rest[j].isLetter || rest[j].isNumber || rest[j] == "-" || rest[j] == "_" || rest[j].unicodeScalars.first.map({ $0.value >= 0x80 }) == true {
                j = rest.index(after: j)
            }
            var k = j
            while k < rest.endIndex, rest[k].isWhitespace { k = rest.index(after: k) }
            let name = String(rest[i..<j])
            guard name.hasPrefix("--"), name.count > 2, k < rest.endIndex, rest[k] == ")" else {
                out += "("
                rest = rest[rest.index(after: open)...]
                continue
            }
            switch customMediaQuery(name, chain: chain, at: offset) {
            case .success(let replaced):
                guard spend(1 + replaced.utf8.count, bytes: replaced.utf8.count, on: "the custom media query \(name)", at: offset) else {
                    return .failure(.stopped)
                }
                out += replaced
            case .failure(let failure):
                return .failure(failure)
            }
            rest = rest[rest.index(after: k)...]
        }
        out += rest
        return .success(out)
    }

    /// A custom media query's own query, replaced (memoized).
    mutating func customMediaQuery(_ name: String, chain: [String], at offset: Int) -> Result<String, CustomMediaFailure> {
        if let known = expandedCustomMedia[name] { return known }
        if let start = chain.firstIndex(of: name) {
            let cycle = Array(chain[start...]) + [name]
            if let definition = customMedia[cycle[0]], reportedMediaCycles.insert(cycle[0]).inserted {
                problems.append(PaletteProblem(.unsupportedProperty, "@custom-media \(cycle[0]) is defined in terms of itself (\(cycle.joined(separator: " → "))); the blocks that use it are not read",
                                               file: definition.file, location: definition.location, severity: .warning))
            }
            return .failure(.cycle(cycle))
        }
        guard let definition = customMedia[name] else { return .failure(.undefined(name)) }
        guard chain.count < Self.maximumCustomMediaDepth else { return .failure(.tooDeep(name)) }
        let result: Result<String, CustomMediaFailure>
        switch definition.query.lowercased() {
        case "true": result = .success("")  // matches every screen, as an empty query does
        case "false": result = .failure(.never(name))
        default: result = expandCustomMedia(in: definition.query, chain: chain + [name], at: offset)
        }
        // Too deep is said of the query where the walk started: from a query nearer the end it
        // may not be, so it is not remembered.
        if case .failure(.tooDeep) = result { return result }
        expandedCustomMedia[name] = result
        return result
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
        let name = Self.collapse(prelude)
        // Without a custom property's name or an initial value, the rule declares no value.
        guard name.hasPrefix("--"), name.count > 2, !name.contains(" "), let initial = descriptors["initial-value"] else { return }
        let property = String(name.dropFirst(2))
        let at = location(initial.offset)
        func unread(_ reason: String) {
            if Self.looksLikeColor(initial.value) || initial.value.lowercased().contains("var(") {
                ledger.notRead(property, reason: reason, file: file, location: at)
            } else {
                ledger.notColor(property, type: "\"\(initial.value.prefix(40))\" (\(reason))", file: file, location: at)
            }
        }
        guard context.selector == nil, context.media.isEmpty, context.containers.isEmpty, !context.tailwindTheme, context.variants.isEmpty else {
            unread("@property \(name) is inside \(context.description); its initial value is read only from a rule at the top level")
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
        var start: Int?
        var end = offset
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

    mutating func readDeclaration(name: String, at offset: Int, _ context: Context) {
        let isCustom = name.hasPrefix("--")
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
            context.theme.name = theme(of: context, alternatives: alternatives, at: offset)
            if context.theme.name != nil {
                context.theme.spec = specs.count
                specs.append(Self.spec(of: context, alternatives: alternatives, file: file, location: location(offset)))
            }
            context.theme.known = true
        }
        guard let theme = context.theme.name else {
            if isCustom {
                let reason = unreadBlocks[blockKey(context.theme.description ?? context.description)] ?? "its block is not read as a theme"
                if StylesheetReader.looksLikeColor(value) || value.lowercased().contains("var(") {
                    ledger.notRead(String(name.dropFirst(2)), reason: reason, file: file, location: location(offset))
                } else {
                    ledger.notColor(String(name.dropFirst(2)), type: "\"\(value.prefix(40))\" (\(reason))", file: file, location: location(offset))
                }
            }
            return
        }
        if !isCustom {
            colorSchemes[theme] = value.lowercased()
            order += 1
            specColorSchemes[context.theme.spec] = (order, value.lowercased())
            return
        }
        order += 1
        declarations[theme, default: []].append(Declaration(name: String(name.dropFirst(2)), value: value, important: important,
                                                            location: location(offset), block: context.theme.description ?? context.description, order: order,
                                                            spec: context.theme.spec, file: file))
    }

    // MARK: Themes

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
    /// specificity, which does not order custom properties on one element: the cascade keeps
    /// document order. What opening builds is spent; a selector that would open into more than
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

    /// The theme a block's custom properties belong to ("" for the base), or nil when they are
    /// scoped to elements or devices (reported once per block).
    mutating func theme(of context: Context, alternatives: [String], at offset: Int) -> String? {
        if let container = context.containers.first {
            report(context, at: offset, "custom properties under @container \(container) apply to some elements only (those in a matching container); not read as a theme")
            return nil
        }
        var mediaNames: [String] = []
        for query in context.media {
            guard let expanded = query.expanded else {
                report(context, at: offset, (query.failure ?? "@media \(query.written) is not read") + "; not read as a theme")
                return nil
            }
            guard let name = Self.mediaTheme(expanded) else {
                let shown = expanded == query.written ? query.written : "\(query.written), that is @media \(expanded),"
                report(context, at: offset, "custom properties under @media \(shown) apply to some devices only; not read as a theme")
                return nil
            }
            if !name.isEmpty { mediaNames.append(name) }
        }
        var selectorName: String?
        if !context.tailwindTheme, let selector = context.selector {
            var found: String?
            for part in alternatives {
                guard let name = Self.selectorTheme(part) else { continue }
                found = found.map { $0.isEmpty ? name : $0 } ?? name
            }
            guard let found else {
                report(context, at: offset, "custom properties of '\(selector)' are scoped to those elements; not read as tokens (themes come from :root, html, body and their classes and attributes)")
                return nil
            }
            if !found.isEmpty { selectorName = found }
        }
        // A selector's name that already says the scheme (`dark_dimmed` under a dark query) is
        // the name; otherwise the parts join (`dark-high-contrast`, `dark-dim`).
        // A selector that names a theme names it outright: under a color-scheme query it is the
        // theme chosen for that scheme (Primer's `auto` mode), not a new one; a contrast query
        // still adds `high-contrast`. Without one, the queries name the theme.
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
        if !context.tailwindTheme, context.selector != nil {
            for part in selectorAlternatives where selectorTheme(part) != nil {
                alternatives.append(selectorConstraints(part))
            }
        } else {
            alternatives = [[]]
        }
        return BlockSpec(alternatives: alternatives, preference: preferences.isEmpty ? nil : preferences.joined(separator: "-"), file: file, location: location)
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
                    pin(axis, value.isEmpty ? "*" : value)
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

    /// The theme a selector names: "" for `:root`/`html`/`:host`/`body` alone, the last class or
    /// attribute value on one of them (or alone) for a theme, nil for any other element.
    static func selectorTheme(_ selector: String) -> String? {
        let s = selector.cssTrimmed
        // One compound selector: no combinators.
        guard !s.contains(" "), !s.contains(">"), !s.contains("+"), !s.contains("~") else { return nil }
        var rest = Substring(s)
        var name = ""
        var sawRoot = false
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
                rest = rest.dropFirst(1 + word.count)
            } else if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let equals = inside.firstIndex(of: "=") {
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
        // A class alone names a theme when it says so (`.dark`, `.light-theme`, `.high-contrast`);
        // `.btn` alone is a component whose properties are scoped to it.
        if !sawRoot && !s.contains("["), !themeWords.contains(where: { name.lowercased().contains($0) }) { return nil }
        return name
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

// MARK: The palette

extension StylesheetReader {
    /// Why a `var()` could not be substituted.
    struct SubstitutionFailure: Error {
        var message: String
        /// Set when the named property itself is not defined (the first `var()` to name it says
        /// whether it has a fallback).
        var undefined: String?
    }

    /// Reads the stylesheet and builds its palette (nil when it defines no theme at all).
    mutating func palette(name: String) -> Palette? {
        read()
        // A read stopped half-way is never measured.
        guard !stopped else { return nil }
        let baseScheme: ColorScheme = {
            guard let declared = colorSchemes[""] else { return .light }
            let words = declared.split(separator: " ")
            return words.contains("dark") && !words.contains("light") ? .dark : .light
        }()
        var themes: [Theme] = []
        var format = "CSS custom properties"
        switch axisThemes(baseScheme: baseScheme) {
        case .stopped:
            return nil
        case .themes(let built, let note):
            themes = built
            format += note
        case .notAxes:
            guard let built = singleAxisThemes(baseScheme: baseScheme) else { return nil }
            themes = built
        }
        // A declaration no theme takes (a later one of the same name in its block wins) was met
        // and not read.
        let taken = Set(themes.flatMap { $0.tokens.compactMap { token in token.location.map { "\(token.file ?? file ?? "")\u{0}\($0.offset)" } } })
        let accounted = Set(ledger.entries.compactMap { entry in entry.line.map { "\(entry.file ?? "")\u{0}\($0):\(entry.column ?? 0)" } })
        // The last @property of each name: an earlier one loses to it.
        var lastInitial: [String: Int] = [:]
        for initial in initialValues { lastInitial[initial.name] = initial.order }
        for declaration in initialValues + declarations.values.flatMap({ $0 }) where !taken.contains("\(declaration.file ?? "")\u{0}\(declaration.location.offset)")
            && !accounted.contains("\(declaration.file ?? "")\u{0}\(declaration.location.line):\(declaration.location.column)") {
            let reason = !declaration.initial ? "a later declaration of --\(declaration.name) in the same theme wins"
                : (lastInitial[declaration.name] ?? 0) > declaration.order ? "a later @property --\(declaration.name) wins"
                : "every theme sets --\(declaration.name), so its @property initial value applies to none"
            ledger.notRead(declaration.name, reason: reason, file: declaration.file, location: declaration.location)
        }
        if bareHSL > 0 {
            problems.append(PaletteProblem(.unsupportedProperty, "\(bareHSL) custom propert\(bareHSL == 1 ? "y holds" : "ies hold") bare HSL channels (like `0 0% 100%`), which are not colors on their own; they are read as hsl() colors, as hsl(var(--x)) uses them (shadcn/ui's older themes, Tailwind v3), and each is listed as an assumption",
                                           file: file, severity: .warning))
        }
        var palette = Palette(name: name, file: file, themes: themes)
        palette.files = files
        palette.format = format
        palette.ledger = ledger
        return palette
    }

    /// Themes as read before axes: each class or attribute value a theme standing on the base
    /// (nil when the read stopped or there is no theme at all).
    mutating func singleAxisThemes(baseScheme: ColorScheme) -> [Theme]? {
        let baseName = baseScheme.rawValue
        // A theme named like the base ("light", ".light") adds to it.
        if let same = declarations[baseName] {
            declarations[""] = ((declarations[""] ?? []) + same).sorted { $0.order < $1.order }
            declarations[baseName] = nil
            if let scheme = colorSchemes[baseName], colorSchemes[""] == nil { colorSchemes[""] = scheme }
        }
        guard !declarations.isEmpty || !initialValues.isEmpty else { return nil }
        var themes: [Theme] = []
        let others = declarations.filter { !$0.key.isEmpty }.map { ($0.key, $0.value.first?.order ?? 0) }.sorted { $0.1 < $1.1 }.map(\.0)
        for key in (declarations[""] != nil || !initialValues.isEmpty ? [""] : []) + others {
            let themeName = key.isEmpty ? baseName : key
            // The layers a theme stands on: the @property initial values, the base, the theme a
            // "-high-contrast" variant varies, then its own.
            var layers: [[Declaration]] = [initialValues, declarations[""] ?? []]
            if !key.isEmpty {
                if key.hasSuffix("-high-contrast"), let parent = declarations[String(key.dropLast("-high-contrast".count))] { layers.append(parent) }
                // `@variant dark` inside `.theme-x` varies `.theme-x`, which it stands on.
                if key.hasSuffix("-dark"), let parent = declarations[String(key.dropLast("-dark".count))] { layers.append(parent) }
                layers.append(declarations[key] ?? [])
            }
            // Each theme repeats the base's declarations: that work is spent.
            let first = declarations[key]?.first ?? initialValues.first
            guard spend(layers.reduce(0) { $0 + $1.count }, on: "the theme '\(themeName)'", file: first?.file ?? file,
                        location: first?.location ?? location(0)) else { return nil }
            var effective: [String: Declaration] = [:]
            for layer in layers {
                for declaration in layer {
                    if let existing = effective[declaration.name], existing.important && !declaration.important { continue }
                    effective[declaration.name] = declaration
                }
            }
            let scheme: ColorScheme = {
                if let declared = colorSchemes[key]?.split(separator: " "), !declared.isEmpty {
                    return declared.contains("dark") && !declared.contains("light") ? .dark : .light
                }
                if key.isEmpty { return baseScheme }
                return key.lowercased().contains("dark") ? .dark : baseScheme
            }()
            let tokens = withFiles(colorTokens(effective, theme: themeName, scheme: scheme), effective)
            guard !stopped else { return nil }
            var theme = Theme(name: themeName, tokens: tokens, pointer: JSONPointer([themeName]))
            theme.colorScheme = scheme
            themes.append(theme)
        }
        return themes
    }

    enum AxisOutcome {
        /// Fewer than two independent axes: themes are read one class or attribute value each.
        case notAxes
        case stopped
        /// The themes, and what the palette's format says of its axes.
        case themes([Theme], String)
    }

    /// The most themes the product of a stylesheet's axes may make.
    static let maximumAxisThemes = 1_000

    /// Themes as the product of independent axes: attributes of different names (and classes,
    /// one axis "class") on the root. An axis is independent when some selector pins it alone
    /// (`[data-color="brand1"]`); a stylesheet with fewer than two such axes is read one value a
    /// theme, as before (`.dark`, Primer's `[data-color-mode][data-dark-theme]`).
    ///
    /// Axes whose blocks hold no colors are fixed to their default (the base). A value whose
    /// blocks stand under color-scheme or contrast queries (`[data-color-scheme="auto"]` in
    /// `@media (prefers-color-scheme: light)` and `(… dark)`) is one theme per preference
    /// (`auto-light`, `auto-dark`). An axis whose value shares a block with `:root`
    /// (`:root, [data-color-scheme="light"]`) has that value as its default; any other axis has
    /// the base (no value) as one of its values. Each theme's declarations are, in source order,
    /// those of every block whose selector has an alternative whose constraints all hold.
    mutating func axisThemes(baseScheme: ColorScheme) -> AxisOutcome {
        var axisOrder: [String] = []
        var values: [String: [String]] = [:]
        var independent: Set<String> = []
        var defaults: [String: String] = [:]
        var seenAxes: Set<String> = [], seenValues: Set<String> = []
        for spec in specs {
            let hasRoot = spec.alternatives.contains { $0.isEmpty }
            for alternative in spec.alternatives {
                for (axis, value) in alternative {
                    if seenAxes.insert(axis).inserted { axisOrder.append(axis) }
                    if value != "*", seenValues.insert(axis + "\u{0}" + value).inserted { values[axis, default: []].append(value) }
                }
                if alternative.count == 1, let only = alternative.first, only.value != "*" {
                    independent.insert(only.axis)
                    if hasRoot, defaults[only.axis] == nil { defaults[only.axis] = only.value }
                }
            }
        }
        guard independent.count >= 2 else { return .notAxes }
        let all = declarations.values.flatMap { $0 }.sorted { $0.order < $1.order }
        // The properties that hold colors: written as one, or naming one through var().
        var referrers: [String: [String]] = [:]
        var colorNames: Set<String> = []
        var queue: [String] = []
        for declaration in initialValues + all {
            if Self.looksLikeColor(declaration.value) || Self.isBareHSL(declaration.value) || (try? CSSColor.parse(declaration.value, scheme: .light)) != nil {
                if colorNames.insert(declaration.name).inserted { queue.append(declaration.name) }
            }
            for name in Self.varNames(declaration.value) { referrers[name, default: []].append(declaration.name) }
        }
        guard spend(all.count, on: "the stylesheet's axes", at: 0) else { return .stopped }
        while let name = queue.popLast() {
            for referrer in referrers[name] ?? [] where colorNames.insert(referrer).inserted { queue.append(referrer) }
        }
        var holdsColors: Set<String> = []
        for declaration in all where declaration.spec >= 0 && colorNames.contains(declaration.name) {
            for alternative in specs[declaration.spec].alternatives {
                for (axis, value) in alternative where value != "*" { holdsColors.insert(axis) }
            }
        }
        let axes = axisOrder.filter { holdsColors.contains($0) && values[$0] != nil }
        let fixed = axisOrder.filter { !holdsColors.contains($0) && values[$0] != nil }
        // Each axis's values: a value under preference queries splits into one per preference.
        var preferencesOf: [String: [String]] = [:]
        var constraints = specs.count
        for spec in specs {
            for alternative in spec.alternatives {
                constraints += alternative.count
                guard let preference = spec.preference else { continue }
                for (axis, value) in alternative where value != "*" && !(preferencesOf[axis + "\u{0}" + value] ?? []).contains(preference) {
                    preferencesOf[axis + "\u{0}" + value, default: []].append(preference)
                }
            }
        }
        guard spend(constraints, on: "the stylesheet's axes", at: 0) else { return .stopped }
        var entries: [[(value: String, preference: String?)]] = []
        for axis in axes {
            var list: [(value: String, preference: String?)] = defaults[axis] == nil ? [("", nil)] : []
            for value in values[axis] ?? [] {
                let preferences = preferencesOf[axis + "\u{0}" + value] ?? []
                if preferences.isEmpty { list.append((value, nil)) } else { list += preferences.map { (value, $0) } }
            }
            entries.append(list)
        }
        // The combinations are counted (with overflow checks) before any theme is built.
        var count = 1, overflow = false, pastAt: String?
        for (axis, list) in zip(axes, entries) {
            let (product, overflowed) = count.multipliedReportingOverflow(by: list.count)
            overflow = overflow || overflowed
            count = overflowed ? Int.max : product
            if pastAt == nil, overflow || count > Self.maximumAxisThemes { pastAt = axis }
        }
        if let pastAt {
            let shown = zip(axes, entries).map { "\($0.0) (\($0.1.count))" }.joined(separator: " × ")
            // Located at the first block that pins the axis which took the count past the limit.
            let at = specs.first { $0.alternatives.contains { $0.contains { $0.axis == pastAt } } }
            halt(PaletteProblem(.limitExceeded, "the stylesheet's axes \(shown) make \(overflow ? "more than \(Int.max)" : String(count)) themes, more than \(Self.maximumAxisThemes); a stylesheet this varied is not read",
                                file: at?.file ?? file, location: at?.location ?? location(0)))
            return .stopped
        }
        var bySpec: [Int: [Declaration]] = [:]
        for declaration in all { bySpec[declaration.spec, default: []].append(declaration) }
        var applied: Set<Int> = []
        var themes: [Theme] = []
        var digits = Array(repeating: 0, count: entries.count)
        for _ in 0..<count {
            var chosen: [String: String] = [:]
            var preferences: [String] = []
            var nameParts: [String] = []
            for (i, axis) in axes.enumerated() {
                let entry = entries[i][digits[i]]
                if !entry.value.isEmpty {
                    chosen[axis] = entry.value
                    nameParts.append(entry.preference.map { entry.value + "-" + $0 } ?? entry.value)
                }
                if let preference = entry.preference, !preferences.contains(preference) { preferences.append(preference) }
            }
            // The next combination (the last axis turns fastest).
            var i = entries.count - 1
            while i >= 0 {
                digits[i] += 1
                if digits[i] < entries[i].count { break }
                digits[i] = 0
                i -= 1
            }
            let preference = preferences.isEmpty ? nil : preferences.joined(separator: "-")
            let themeName = nameParts.isEmpty ? baseScheme.rawValue : nameParts.joined(separator: "-")
            // Matching every block's constraints against the theme is spent, once per theme.
            guard spend(constraints, on: "the theme '\(themeName)'", at: 0) else { return .stopped }
            var layers: [Int] = []
            for (index, spec) in specs.enumerated() {
                guard spec.preference == nil || spec.preference == preference else { continue }
                let holds = spec.alternatives.contains { alternative in
                    alternative.allSatisfy { constraint in
                        guard let value = chosen[constraint.axis] else { return false }
                        return constraint.value == "*" || constraint.value == value
                    }
                }
                if holds { layers.append(index) }
            }
            applied.formUnion(layers)
            let layered = initialValues + layers.flatMap { bySpec[$0] ?? [] }.sorted { $0.order < $1.order }
            let first = specs[layers.first ?? 0]
            guard spend(layered.count, on: "the theme '\(themeName)'", file: first.file, location: first.location) else { return .stopped }
            var effective: [String: Declaration] = [:]
            for declaration in layered {
                if let existing = effective[declaration.name], existing.important && !declaration.important { continue }
                effective[declaration.name] = declaration
            }
            let scheme: ColorScheme = {
                if let declared = layers.compactMap({ specColorSchemes[$0] }).max(by: { $0.order < $1.order })?.value.split(separator: " "), !declared.isEmpty {
                    return declared.contains("dark") && !declared.contains("light") ? .dark : .light
                }
                return themeName.lowercased().contains("dark") ? .dark : baseScheme
            }()
            let tokens = withFiles(colorTokens(effective, theme: themeName, scheme: scheme), effective)
            guard !stopped else { return .stopped }
            var theme = Theme(name: themeName, tokens: tokens, pointer: JSONPointer([themeName]))
            theme.colorScheme = scheme
            themes.append(theme)
        }
        let fixedAxes = Set(fixed)
        // Blocks no theme takes: those of fixed axes, and any other block whose constraints no
        // theme meets.
        for declaration in all where !applied.contains(declaration.spec) {
            let pinned = declaration.spec >= 0 ? specs[declaration.spec].alternatives.flatMap { $0.map(\.axis) } : []
            let reason = pinned.first { fixedAxes.contains($0) }.map { "\($0) is fixed to its default (its blocks hold no colors)" }
                ?? "its block (\(declaration.block.prefix(60))) applies to no theme of the stylesheet's axes"
            if Self.looksLikeColor(declaration.value) || declaration.value.lowercased().contains("var(") {
                ledger.notRead(declaration.name, reason: reason, file: declaration.file, location: declaration.location)
            } else {
                ledger.notColor(declaration.name, type: "\"\(declaration.value.prefix(40))\" (\(reason))", file: declaration.file, location: declaration.location)
            }
        }
        var note = "; themes are the axes " + axes.joined(separator: " × ")
        for axis in fixed { note += "; \(axis) fixed to its default (no colors)" }
        return .themes(themes, note)
    }

    /// The names (without `--`) of the custom properties a value's `var()`s name.
    static func varNames(_ value: String) -> [String] {
        var names: [String] = []
        let bytes = Array(value.utf8)
        var i = 0
        while i + 6 <= bytes.count {
            if (bytes[i] | 0x20) == 0x76, (bytes[i + 1] | 0x20) == 0x61, (bytes[i + 2] | 0x20) == 0x72, bytes[i + 3] == 0x28, bytes[i + 4] == 0x2D, bytes[i + 5] == 0x2D {
                var j = i + 6
                while j < bytes.count, CSSTokenizer.isNameByte(bytes[j]) || bytes[j] == 0x5C { j += 1 }
                if j > i + 6 { names.append(String(decoding: bytes[(i + 6)..<j], as: UTF8.self)) }
                i = j
            } else {
                i += 1
            }
        }
        return names
    }

    /// The declarations of one theme whose values are colors, as tokens (`var()` substituted).
    ///
    /// Each property is substituted once per theme (its value is memoized), so a chain is read
    /// in steps proportional to its length; the text substitution builds is spent from the
    /// read's budget, so values that double at each step (`color-mix(in srgb, var(--a),
    /// var(--a))`) stop the read with a `limit-exceeded` problem at the declaration that went
    /// past it. A chain of `var()` (through values and fallbacks) deeper than
    /// ``ReadBudget/maximumDepth`` stops the read too, at its line and column.
    mutating func colorTokens(_ effective: [String: Declaration], theme: String, scheme: ColorScheme) -> [Token] {
        var resolved: [String: Result<String, SubstitutionFailure>] = [:]
        var stop: PaletteProblem?
        let budget = ReadBudget.current
        func substitute(_ name: String, stack: [String], depth: Int) -> Result<String, SubstitutionFailure> {
            if let known = resolved[name] { return known }
            guard stop == nil else { return .failure(SubstitutionFailure(message: "the read was stopped")) }
            guard let declaration = effective[name] else {
                return .failure(SubstitutionFailure(message: "--\(name) is not defined in theme '\(theme)'", undefined: name))
            }
            let file = declaration.file
            if stack.contains(name) {
                let cycle = (stack.drop { $0 != name } + [name]).map { "--" + $0 }.joined(separator: " → ")
                return .failure(SubstitutionFailure(message: "var() cycle: \(cycle)"))
            }
            guard depth <= ReadBudget.maximumDepth else {
                stop = PaletteProblem(.limitExceeded, "a var() chain from --\(stack.first ?? name) nests more than \(ReadBudget.maximumDepth) deep at --\(name) (through values and fallbacks) in theme '\(theme)'; a stylesheet this deep is not read",
                                      file: file, location: declaration.location)
                return .failure(SubstitutionFailure(message: "the read was stopped"))
            }
            let result = StylesheetReader.substituteVars(in: declaration.value, depth: depth, spend: { scanned in
                guard let budget, stop == nil else { return stop == nil }
                if budget.spend(scanned, bytes: scanned, on: "the var() fallbacks of --\(name)", file: file, location: declaration.location) { return true }
                stop = budget.problem ?? PaletteProblem(.limitExceeded, "the read was stopped at --\(name)", file: file, location: declaration.location)
                return false
            }) { inner, innerDepth in
                substitute(inner, stack: stack + [name], depth: innerDepth)
            }
            if stop != nil { return .failure(SubstitutionFailure(message: "the read was stopped")) }
            // What substitution built is spent: one step a byte (values that only name other
            // properties are never copied more than the budget allows).
            if case .success(let text) = result, text != declaration.value, let budget {
                let built = text.utf8.count
                if !budget.spend(1 + built, bytes: built, on: "the var() substitution of --\(name)", file: file, location: declaration.location) {
                    stop = budget.problem ?? PaletteProblem(.limitExceeded, "the read was stopped at --\(name)", file: file, location: declaration.location)
                    return .failure(SubstitutionFailure(message: "the read was stopped"))
                }
            } else if let budget, !budget.spend(1, on: "a var() chain", file: file, location: declaration.location) {
                stop = budget.problem ?? PaletteProblem(.limitExceeded, "the read was stopped at --\(name)", file: file, location: declaration.location)
                return .failure(SubstitutionFailure(message: "the read was stopped"))
            }
            resolved[name] = result
            return result
        }
        var tokens: [Token] = []
        for declaration in effective.values.sorted(by: { $0.order < $1.order }) {
            let file = declaration.file
            let pointer = JSONPointer([declaration.block, "--" + declaration.name])
            let raw = declaration.value
            let substituted = substitute(declaration.name, stack: [], depth: 0)
            if let stop {
                halt(stop)
                return []
            }
            switch substituted {
            case .failure(let failure):
                if StylesheetReader.looksLikeColor(raw) || raw.lowercased().contains("var(") {
                    ledger.notRead(declaration.name, reason: failure.message, file: file, location: declaration.location)
                } else {
                    ledger.notColor(declaration.name, type: "\"\(raw.prefix(40))\"", file: file, location: declaration.location)
                }
                // Only a value that would be a color is worth a problem: other properties are
                // often defined by another stylesheet.
                if StylesheetReader.looksLikeColor(raw) || StylesheetReader.aliasTarget(raw) != nil || raw.lowercased().hasPrefix("var(") {
                    problems.append(PaletteProblem(StylesheetReader.looksLikeColor(raw) ? .invalidColor : .unknownToken,
                                                   "--\(declaration.name): \(raw): \(failure.message)\(StylesheetReader.looksLikeColor(raw) ? "" : "; not read as a color")",
                                                   file: file, pointer: pointer, location: declaration.location, theme: theme,
                                                   severity: StylesheetReader.looksLikeColor(raw) ? .error : .warning))
                }
            case .success(let text):
                let isColor = (try? CSSColor.parse(text, scheme: scheme)) != nil
                if !isColor, StylesheetReader.isBareHSL(text), let color = try? CSSColor.parse("hsl(\(text))", scheme: scheme) {
                    // shadcn/ui's older themes and Tailwind v3 projects write `--background: 0 0% 100%`
                    // and use it as `hsl(var(--background))`: read as that color, and said so.
                    _ = color
                    bareHSL += 1
                    var token = Token(name: declaration.name, value: "hsl(\(text))", pointer: pointer, location: declaration.location)
                    token.assumed = "\"\(text)\" is bare HSL channels, read as hsl(\(text)), as hsl(var(--\(declaration.name))) uses them"
                    tokens.append(token)
                    continue
                }
                if !isColor, Gradient.isGradient(text) {
                    // A background gradient: text on it is judged at its worst point. One this
                    // tool cannot read is listed as not read, with the reason.
                    do {
                        _ = try Gradient(css: text, scheme: scheme)
                        var token = Token(name: declaration.name, value: text, pointer: pointer, location: declaration.location)
                        token.type = "gradient"
                        tokens.append(token)
                    } catch {
                        ledger.notRead(declaration.name, reason: "a gradient this tool cannot read: \(error.message)", file: file, location: declaration.location)
                    }
                    continue
                }
                guard isColor || StylesheetReader.looksLikeColor(text) else {
                    ledger.notColor(declaration.name, type: "\"\(text.prefix(40))\"", file: file, location: declaration.location)
                    continue
                }
                // `var(--x)` alone stays an alias, so fixes point at the token that holds the color.
                var value = text
                if let target = StylesheetReader.aliasTarget(raw), effective[target] != nil { value = "{\(target)}" }
                tokens.append(Token(name: declaration.name, value: value, pointer: pointer, location: declaration.location))
            }
        }
        return tokens
    }

    /// `tokens` with the file of each one's declaration, when that is a stylesheet the palette's
    /// own imports.
    func withFiles(_ tokens: [Token], _ effective: [String: Declaration]) -> [Token] {
        tokens.map { token in
            var token = token
            if let declared = effective[token.name]?.file, declared != mainFile { token.file = declared }
            return token
        }
    }

    /// Whether a value is three bare HSL channels: a hue (a number, or an angle), then a
    /// saturation and a lightness in percent (`222.2 84% 4.9%`).
    static func isBareHSL(_ value: String) -> Bool {
        let parts = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard parts.count == 3, parts[1].hasSuffix("%"), parts[2].hasSuffix("%") else { return false }
        let hue = parts[0].lowercased()
        let number = ["deg", "turn", "rad", "grad"].first { hue.hasSuffix($0) }.map { String(hue.dropLast($0.count)) } ?? String(hue)
        return Double(number) != nil && Double(parts[1].dropLast()) != nil && Double(parts[2].dropLast()) != nil
    }

    /// Where a pseudo-class that starts at `start` (after its `:`) ends: past its name and its
    /// balanced `(…)` argument, if it has one.
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

    /// `x` when the value is exactly `var(--x)`.
    static func aliasTarget(_ value: String) -> String? {
        let v = value.cssTrimmed
        guard v.lowercased().hasPrefix("var("), v.hasSuffix(")") else { return nil }
        let inner = v.dropFirst(4).dropLast().cssTrimmed
        guard inner.hasPrefix("--"), !inner.contains(","), !inner.contains("("), !inner.contains(" ") else { return nil }
        return String(inner.dropFirst(2))
    }

    /// Whether text is written as a color: a hex color or a color function.
    static func looksLikeColor(_ value: String) -> Bool {
        let v = value.cssTrimmed.lowercased()
        if v.hasPrefix("#") { return true }
        for function in ["rgb(", "rgba(", "hsl(", "hsla(", "hwb(", "lab(", "lch(", "oklab(", "oklch(", "color(", "color-mix(", "light-dark("]
        where v.hasPrefix(function) { return true }
        return false
    }

    /// `value` with every `var(--name[, fallback])` replaced, as CSS substitutes them: by the
    /// named property's value (from `lookup`), else by the fallback.
    /// `depth` is how deep in a chain of `var()` the value is: each property named and each
    /// fallback is one deeper, and `lookup` is given the depth of what it looks up.
    /// `spend` is given the bytes each `var()` costs to scan (and its fallback to copy), and
    /// says whether the read may go on.
    static func substituteVars(in value: String, depth: Int = 0, spend: (Int) -> Bool = { _ in true },
                               lookup: (String, Int) -> Result<String, SubstitutionFailure>) -> Result<String, SubstitutionFailure> {
        let bytes = Array(value.utf8)
        var out: [UInt8] = []
        var i = 0
        var changed = false
        while i < bytes.count {
            let isVar = i + 4 <= bytes.count && (bytes[i] | 0x20) == 0x76 && (bytes[i + 1] | 0x20) == 0x61 && (bytes[i + 2] | 0x20) == 0x72 && bytes[i + 3] == 0x28
                && (i == 0 || !CSSTokenizer.isNameByte(bytes[i - 1]))
            guard isVar else {
                out.append(bytes[i])
                i += 1
                continue
            }
            // The arguments up to the matching ")".
            var j = i + 4, parens = 1, comma = -1
            var quote: UInt8 = 0
            while j < bytes.count {
                let b = bytes[j]
                if quote != 0 {
                    if b == 0x5C { j += 1 } else if b == quote { quote = 0 }
                } else if b == 0x22 || b == 0x27 {
                    quote = b
                } else if b == 0x28 {
                    parens += 1
                } else if b == 0x29 {
                    parens -= 1
                    if parens == 0 { break }
                } else if b == 0x2C && parens == 1 && comma < 0 {
                    comma = j
                }
                j += 1
            }
            guard j < bytes.count else { return .failure(SubstitutionFailure(message: "var( is not closed")) }
            // Nested fallbacks are scanned once per level: that work is spent.
            guard spend(j - i) else { return .failure(SubstitutionFailure(message: "the read was stopped")) }
            let nameEnd = comma >= 0 ? comma : j
            let name = String(decoding: bytes[(i + 4)..<nameEnd], as: UTF8.self).cssTrimmed
            guard name.hasPrefix("--"), name.count > 2 else {
                return .failure(SubstitutionFailure(message: "var() names a custom property (var(--name)), found var(\(name))"))
            }
            switch lookup(String(name.dropFirst(2)), depth + 1) {
            case .success(let text):
                out.append(contentsOf: text.utf8)
            case .failure(let failure):
                // An undefined or invalid property (a cycle, a var() with nothing to fall back
                // on) takes the fallback, as CSS does; without one the value is invalid too.
                guard comma >= 0 else {
                    return .failure(failure.undefined == String(name.dropFirst(2))
                        ? SubstitutionFailure(message: "\(failure.message), and var(\(name)) has no fallback") : failure)
                }
                let fallback = String(decoding: bytes[(comma + 1)..<j], as: UTF8.self).cssTrimmed
                guard depth < ReadBudget.maximumDepth else {
                    return .failure(SubstitutionFailure(message: "var() fallbacks nest more than \(ReadBudget.maximumDepth) deep"))
                }
                switch substituteVars(in: String(fallback), depth: depth + 1, spend: spend, lookup: lookup) {
                case .success(let text): out.append(contentsOf: text.utf8)
                case .failure(let inner): return .failure(inner)
                }
            }
            changed = true
            i = j + 1
        }
        return .success(changed ? String(decoding: out, as: UTF8.self) : value)
    }
}
