import ColorScience

/// A requirement fixed by the relation rather than by a usage and level: the focus change of
/// SC 2.4.13, a link against its text (G183).
struct FixedRequirement: Sendable {
    var ratio: Double
    var criterion: String
    var level: WCAGLevel
    /// The WCAG technique the requirement comes from (`G183`), when one.
    var technique: String?
    /// What must contrast, for failure reasons: "the link against the text around it".
    var what: String
}
