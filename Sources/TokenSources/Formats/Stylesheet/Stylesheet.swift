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
/// color is a token named without its `--` (and with its escapes read: `--c\6f lor` is
/// `color`, as a browser compares names); a value that is exactly `var(--x)` stays an alias
/// of `x`. Other values are not colors and are left alone; a value that looks like a color
/// (`#…` or a color function) and is not one is a problem at its line and column.
///
/// The reader is one value spread over files by concept: this one holds its state, the
/// declarations it keeps and the read's budget; `+Rules` walks the tokens (ColorScience's
/// ``CSSTokenizer``); `+CustomMedia`, `+Imports` and `+Themes` say what a block's at-rules and
/// selector make of it; `+Palette` and `+Axes` build the themes; `+Variables` substitutes `var()`
/// and reads each value as a color.
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

    /// Where the values of the declarations whose names start at `offsets` are written in
    /// `bytes`: the bytes ``readValue(from:)`` reads, without `!important` and the white space
    /// around it, so replacing exactly that range changes the value and nothing else. Offsets
    /// that start no declaration (`name:`) are left out.
    static func valueRanges(in bytes: [UInt8], declarationsAt offsets: Set<Int>) -> [Int: Range<Int>] {
        var reader = StylesheetReader(bytes: bytes, file: nil)
        reader.tokens = reader.tokenize()
        var ranges: [Int: Range<Int>] = [:]
        for offset in offsets.sorted() {
            // The token that starts at `offset` (tokens are in document order).
            var low = 0, high = reader.tokens.count
            while low < high {
                let mid = (low + high) / 2
                if reader.tokens[mid].offset < offset { low = mid + 1 } else { high = mid }
            }
            guard low < reader.tokens.count, reader.tokens[low].offset == offset, reader.tokens[low].kind == .ident else { continue }
            var look = low + 1
            while look < reader.tokens.count, reader.tokens[look].kind == .whitespace { look += 1 }
            guard look < reader.tokens.count, reader.tokens[look].kind == .colon else { continue }
            reader.index = look + 1
            let (first, last) = reader.readValueTokens(from: offset)
            guard let first, last > first else { continue }
            var end = last
            // `!important` is not part of the value.
            if let bang = bytes[first..<end].lastIndex(of: UInt8(ascii: "!")),
               reader.text(bang + 1..<end).cssTrimmed.lowercased() == "important" {
                end = bang
            }
            let kept = reader.text(first..<end)
            var trimmed = Substring(kept), leading = 0, trailing = 0
            while let c = trimmed.first, c.isWhitespace { leading += c.utf8.count; trimmed.removeFirst() }
            while let c = trimmed.last, c.isWhitespace { trailing += c.utf8.count; trimmed.removeLast() }
            guard first + leading <= end - trailing else { continue }
            ranges[offset] = first + leading..<end - trailing
        }
        return ranges
    }

    // MARK: Where a declaration stands

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
        /// The cascade layer around the block, as a dotted path (`base`, `base.reset`); nil
        /// outside every layer.
        var layer: String?
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
        /// The themes the block sets (the base is ""), nil when it is scoped to elements or
        /// devices.
        var names: [String]?
        /// The block's ``Context/description``, built once (at its first custom property).
        var description: String?
        /// The block's index in ``StylesheetReader/specs``: what it constrains, for axes.
        var spec = -1
        /// The specificity of its selector (the highest of its list's), worked out once, and
        /// whether it sets `body`'s properties (1) rather than the root's (0).
        var specificity = 0
        var element = 0
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
        /// Each alternative's selector as written (`:is()` and `:where()` opened).
        var selectors: [String] = []
        /// Where the block's `{` is (``currentBlock``): the ledger's key of its rule.
        var opening: Int?
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
        /// The cascade layer it is in, as the layer tree orders it: each layer's place among
        /// its siblings (in the order they are first named), from the outermost, then `Int.max`
        /// for the layer's own rules, which come after its sublayers; ``unlayered`` outside
        /// every layer. Its block's selector's specificity, and 1 when the block is `body`'s
        /// (0: the root element's).
        var layer = Declaration.unlayered
        var specificity = 0
        var element = 0

        static let unlayered = [Int.max]

        /// Whether the cascade puts `a` below `b` among the declarations of one property read
        /// as one theme (CSS Cascade 5, 6.1). First the element: `body`'s own declaration is what
        /// the page's text inherits, over the root's. Then on one element: `!important` above
        /// normal; among normal ones, layers in their order and unlayered last; among important
        /// ones the reverse, unlayered first; then specificity; then document order.
        static func cascades(_ a: Declaration, _ b: Declaration) -> Bool {
            if a.element != b.element { return a.element < b.element }
            if a.important != b.important { return !a.important }
            if a.layer != b.layer {
                return a.important ? b.layer.lexicographicallyPrecedes(a.layer) : a.layer.lexicographicallyPrecedes(b.layer)
            }
            if a.specificity != b.specificity { return a.specificity < b.specificity }
            return a.order < b.order
        }
    }

    /// Declarations by theme name, in source order; the base theme's name is "".
    var declarations: [String: [Declaration]] = [:]
    /// Themes of an element inside a themed root (`.dark .theme-zinc` is `theme-zinc-dark`), by
    /// name: the root's theme and the element's, which the theme stands on.
    var descendantThemes: [String: (ancestor: String, element: String)] = [:]
    /// The theme blocks (by spec index) named by their color-scheme or contrast query alone
    /// (`@media (prefers-color-scheme: dark) { :root:not([data-theme]) { … } }`), not by their
    /// selector: where a selector names a theme of the same name (`[data-theme=dark]`), the two
    /// are different states of the page (a dark system preference, a chosen dark theme) and
    /// are read as two themes (``separatingPreferenceThemes()``).
    var preferenceNamedSpecs: Set<Int> = []
    /// Whether the last block ``theme(of:alternatives:at:)`` named was named by its queries alone.
    var lastThemeFromPreference = false
    /// The `initial-value` of each `@property` rule, in source order: the value a property has
    /// where no rule sets it, under every theme's own declarations.
    var initialValues: [Declaration] = []
    /// `color-scheme` values given in each theme's blocks.
    var colorSchemes: [String: String] = [:]
    /// The `color-scheme` declarations of each theme's blocks, cascaded with the base's as
    /// custom properties are: the used color scheme, by which `light-dark()` resolves.
    var schemeDeclarations: [String: [Declaration]] = [:]
    /// Themes added for a dark system preference where no block names one
    /// (``addingColorSchemeThemes(baseScheme:)``).
    var darkPreferenceThemes: Set<String> = []
    /// Each declaration (by file and offset) that lost the cascade in the theme it was written
    /// for, and the declaration that won there.
    var cascadeWinners: [String: Declaration] = [:]
    /// Set by ``readValueTokens(from:)`` when a value opens a function or bracket the file never
    /// closes: its text and offset.
    var unclosedValue: (text: String, offset: Int)?
    /// What each theme block constrains, in source order (see ``BlockSpec``).
    var specs: [BlockSpec] = []
    /// The custom media queries the stylesheet defines, by name (with its `--`); the last
    /// definition of a name wins.
    var customMedia: [String: CustomMedia] = [:]
    /// Each custom media query once replaced, through the ones it names (or why it could not be).
    var expandedCustomMedia: [String: Result<String, CustomMediaFailure>] = [:]
    /// How many custom media queries deep each one nests (itself included), capped one past the
    /// limit: worked out once per name.
    var customMediaHeights: [String: Int] = [:]
    /// Custom media cycles reported (by the name they were found at), once each.
    var reportedMediaCycles: Set<String> = []
    /// Blocks whose custom properties were not read, reported once each.
    var reportedScopes: Set<String> = []
    /// Why each block that is not a theme was not read (its description → the reason).
    var unreadBlocks: [String: String] = [:]
    /// Every custom property declared anywhere in the stylesheets read (without `--`), in a
    /// theme or not: a `var()` naming one outside this set names another stylesheet's.
    var declaredAnywhere: Set<String> = []
    /// What the reader met that did not become a color token.
    var ledger = ReadLedger()
    /// Custom properties read as bare HSL channels (`0 0% 100%`), said in one warning.
    var bareHSL = 0
    /// Properties the themes built so far hold, added up (every theme holds the base's again).
    var themeTokensBuilt = 0
    var order = 0
    /// Each cascade layer's place among its siblings, by its dotted path, in the order they are
    /// first named (`@layer a, b;`, `@layer a { … }`, `@import … layer(a)`); an unnamed
    /// `@layer { … }` is a layer of its own. And how many children each path has named.
    var layerRanks: [String: Int] = [:]
    var layerChildren: [String: Int] = [:]
    var unnamedLayers = 0
    private(set) var tokens: [CSSToken] = []
    var index = 0
    /// How many blocks the reader is inside (at most ``ReadBudget/maximumDepth``).
    var depth = 0
    /// The blocks the reader is inside: where each `{` is, and the text before it.
    var openBlocks: [(offset: Int, prelude: Range<Int>)] = []
    /// Where the innermost block open now has its `{`: the key of its rule in the ledger
    /// (``ReadLedger/Entry/rule``), whose declarations not read for one reason are one entry.
    var currentBlock: Int? { openBlocks.last?.offset }
    /// The blocks open when the file ended, if it ended inside any.
    var unclosed: [(offset: Int, prelude: Range<Int>)]?
    /// The stylesheets read, when the stylesheet imports any: its own file and the imported ones.
    var files: [String] = []
    /// Set when the read was stopped (a depth limit, or the budget ran out or the request's
    /// deadline passed): the readers return at once, and the palette is not built.
    var stopped = false
    /// Steps spent but not yet taken from the budget: they are taken in batches, so that the
    /// location in a problem (its column costs a walk along its line) is worked out rarely.
    var pendingSteps = 0
}
