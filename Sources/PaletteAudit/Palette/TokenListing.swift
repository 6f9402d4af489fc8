import ColorScience

/// Every theme's own tokens with the color each resolves to and where its value is written:
/// what an editor needs to show a palette's tokens and to change one in the document.
public struct TokenListing: Sendable, Codable {
    /// The palette's name; absent when the document is not a palette at all.
    public var palette: String?
    public var themes: [ThemeTokens]
    /// Problems that keep the palette from being audited (bad colors, unknown aliases…).
    public var problems: [PaletteProblem]

    public struct ThemeTokens: Sendable, Codable {
        public var name: String
        /// The theme whose tokens this one inherits and overrides.
        public var extends: String?
        /// The tokens written in this theme, in document order.
        public var tokens: [Entry]
        /// Tokens this theme inherits without overriding them, and the theme that defines each.
        public var inherited: [Inherited]
    }

    public struct Entry: Sendable, Codable {
        public var name: String
        /// The value as written: a CSS color or an alias `{other.token}` (DTCG color objects as CSS).
        public var value: String
        /// The color it resolves to in this theme (`#rrggbb`, or `#rrggbbaa` when translucent);
        /// absent when it does not resolve (see `problem`).
        public var hex: String?
        /// For an alias, the tokens followed to reach a color, in order.
        public var aliases: [String]?
        /// Where the value is in the document: replace it there to change the token.
        public var pointer: JSONPointer
        public var description: String?
        public var assumed: String?
        /// The value described a color outside sRGB and was gamut-mapped to `hex`.
        public var outOfGamut: Bool?
        /// Why the value does not resolve.
        public var problem: String?
    }

    public struct Inherited: Sendable, Codable {
        public var name: String
        public var from: String
        public var hex: String?
    }

    public init(_ palette: Palette?, problems: [PaletteProblem] = []) {
        self.palette = palette?.name
        self.problems = problems
        guard let palette else {
            themes = []
            return
        }
        themes = palette.themes.map { theme in
            var resolver = ThemeResolver(palette: palette, theme: theme)
            let own = Set(theme.tokens.map(\.name))
            let entries = theme.tokens.map { token -> Entry in
                var entry = Entry(name: token.name, value: token.value, pointer: token.pointer,
                                  description: token.description, assumed: token.assumed)
                switch resolver.resolve(token.name) {
                case .success(let color):
                    entry.hex = color.hex
                    entry.aliases = color.aliases
                    entry.outOfGamut = color.outOfGamut
                case .failure(let problem):
                    entry.problem = problem.message
                }
                return entry
            }
            let inherited = resolver.tokenNames.filter { !own.contains($0) }.map { name -> Inherited in
                let from = palette.themes.first { layer in layer.tokens.contains { $0.pointer == resolver.tokens[name]?.pointer } }?.name ?? ""
                let hex = try? resolver.resolve(name).get().hex
                return Inherited(name: name, from: from, hex: hex)
            }
            return ThemeTokens(name: theme.name, extends: theme.extends, tokens: entries, inherited: inherited)
        }
    }
}
