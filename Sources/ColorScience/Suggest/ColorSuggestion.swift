/// Which side of a pair a suggestion changes.
public struct PairRole: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    private init(_ name: String) { self.name = name }
    public static let foreground = PairRole("foreground")
    public static let background = PairRole("background")
    public var description: String { name }
}

/// A color that meets a contrast target, near the one it replaces.
public struct ColorSuggestion: Hashable, Sendable {
    /// The suggested color, already rounded to the 8-bit value its hex shows.
    public var color: SRGB
    /// The side of the pair it replaces.
    public var role: PairRole
    /// `lighter` or `darker` than the original.
    public var direction: String
    /// The WCAG ratio of the pair with the suggestion in place (measured on the 8-bit color).
    public var ratio: Double
    /// APCA Lc of the pair with the suggestion in place.
    public var apca: Double
    /// ΔE-OK from the original color.
    public var deltaEOK: Double
}
