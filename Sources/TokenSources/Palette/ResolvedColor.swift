public import ColorScience

/// A color as resolved in one theme: where it came from and what it is.
public struct ResolvedColor: Hashable, Sendable, Codable {
    /// The reference as written (a token name, `{alias}` or a CSS color).
    public var reference: String
    /// The token it names, when it names one.
    public var token: String?
    /// Tokens followed through aliases after the first, in order.
    public var aliases: [String]?
    /// The CSS text that was finally parsed.
    public var css: String
    /// Canonical hex (`#rrggbb`, or `#rrggbbaa` when translucent).
    public var hex: String
    /// Present when the text described a color outside sRGB, which was gamut-mapped.
    public var outOfGamut: Bool?
    /// Why the value is an assumption, when it is one.
    public var assumed: String?
    /// Where the parsed value is in the file.
    public var pointer: JSONPointer?
    /// Its line in the file.
    public var line: Int?
    /// The file that holds the parsed value (the end of the alias chain), when the palette
    /// spans several files.
    public var file: String?
    /// Where the token the reference names is declared (the start of the alias chain, where
    /// ``file`` and ``line`` are its end): what an annotation points at. Not part of the JSON.
    public var declaredFile: String?
    public var declaredLine: Int?
    /// The token whose value ``pointer`` is, when it is not the end of the alias chain: a chain
    /// that ends at an iOS system color (`{ios.secondaryLabel}`, whose value is built in) has
    /// its value written at the last token that names it. Not part of the JSON.
    public var valueToken: String?
    /// Present when the token is `$deprecated`: the reason given, or "deprecated".
    public var deprecated: String?
    /// What the source format did to the value after resolving it (a Tokens Studio
    /// modifier, Primer's `alpha`), in the order applied.
    public var operations: [String]?

    /// The full-precision color (not encoded: `hex` is its display form). For a gradient, its
    /// first stop; only ``ThemeResolver/resolveBackground(_:at:location:referenceFile:)``
    /// returns gradients, and the audit judges them at their worst point.
    public var color: SRGB
    /// Present when the value is a gradient (a background only).
    public var gradient: Gradient? = nil

    enum CodingKeys: String, CodingKey {
        case reference, token, aliases, css, hex, outOfGamut, assumed, pointer, line, file, deprecated, operations
    }

    public init(reference: String, token: String?, aliases: [String]?, css: String, color: SRGB,
                outOfGamut: Bool, assumed: String?, pointer: JSONPointer?, line: Int? = nil) {
        self.reference = reference
        self.token = token
        self.aliases = aliases
        self.css = css
        self.color = color
        self.hex = color.hex
        self.outOfGamut = outOfGamut ? true : nil
        self.assumed = assumed
        self.pointer = pointer
        self.line = line
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reference = try c.decode(String.self, forKey: .reference)
        token = try c.decodeIfPresent(String.self, forKey: .token)
        aliases = try c.decodeIfPresent([String].self, forKey: .aliases)
        css = try c.decode(String.self, forKey: .css)
        hex = try c.decode(String.self, forKey: .hex)
        outOfGamut = try c.decodeIfPresent(Bool.self, forKey: .outOfGamut)
        assumed = try c.decodeIfPresent(String.self, forKey: .assumed)
        pointer = try c.decodeIfPresent(JSONPointer.self, forKey: .pointer)
        line = try c.decodeIfPresent(Int.self, forKey: .line)
        file = try c.decodeIfPresent(String.self, forKey: .file)
        deprecated = try c.decodeIfPresent(String.self, forKey: .deprecated)
        operations = try c.decodeIfPresent([String].self, forKey: .operations)
        color = (try? SRGB(css: hex)) ?? .black
    }
}
