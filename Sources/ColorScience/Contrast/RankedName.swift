/// The closed set of values of one ``RankedName`` type: a scale (WCAG levels, achieved
/// levels, an annotation's severity).
public protocol RankScale: Sendable {
    /// Every value of the scale, in the order it lists them (what a decoding error names).
    static var all: [RankedName<Self>] { get }
}

/// A name with a rank on its scale: compared by rank, written (in JSON, text and `--help`) as
/// its name. A WCAG level, the level a ratio achieves and an annotation's severity are the same
/// thing over different scales, so they are one type over the scale (``WCAGLevel``,
/// ``AchievedLevel``).
public struct RankedName<Scale: RankScale>: NamedValue, Comparable, CustomStringConvertible {
    public let name: String
    @usableFromInline let rank: Int

    @inlinable
    package init(_ name: String, rank: Int) {
        self.name = name
        self.rank = rank
    }

    public static var all: [RankedName] { Scale.all }

    @inlinable
    public static func < (lhs: RankedName, rhs: RankedName) -> Bool { lhs.rank < rhs.rank }

    /// Names of one scale have ranks of their own, so the rank alone tells them apart (an
    /// integer compared, not two strings).
    @inlinable
    public static func == (lhs: RankedName, rhs: RankedName) -> Bool { lhs.rank == rhs.rank }

    public func hash(into hasher: inout Hasher) { hasher.combine(rank) }
    public var description: String { name }
}
