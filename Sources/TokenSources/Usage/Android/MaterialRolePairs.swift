import ColorScience

/// The color roles Material Design 3 puts one on another, as app-theme attributes: what an app
/// theme that sets them draws by the spec, whatever its layouts show.
///
/// Source: Material 3's color roles (m3.material.io, "Color roles"): each `on-X` role is for text
/// and icons on `X` (primary, its container, secondary, tertiary, error and their containers,
/// the fixed accents on the fixed colors and their dim variants); `on-surface` and
/// `on-surface-variant` are for text and icons on every surface and surface container;
/// `inverse-on-surface` and `inverse-primary` on `inverse-surface`; primary, secondary, tertiary
/// and error are for text and icons against surface too; `outline` marks important boundaries
/// (a text field's outline) against surface, a non-text contrast (SC 1.4.11). Material
/// Components names them as theme attributes (`colorOnPrimary`, `colorSurfaceContainerHigh`,
/// `colorSurfaceInverse`); the older `colorOnBackground` is on `android:colorBackground`, and the
/// framework's default text colors (`android:textColorPrimary`, `…Secondary`) are drawn on the
/// window, whose background is `android:colorBackground`.
enum MaterialRolePairs {
    struct Pair: Hashable, Sendable {
        var foreground: String
        var background: String
        var usage: ContrastUsage
        /// The spec's words for it (`on-primary on primary`).
        var spec: String
    }

    static let surfaces = ["colorSurface", "colorSurfaceDim", "colorSurfaceBright", "colorSurfaceContainerLowest", "colorSurfaceContainerLow",
                           "colorSurfaceContainer", "colorSurfaceContainerHigh", "colorSurfaceContainerHighest"]

    static let all: [Pair] = {
        var pairs: [Pair] = []
        func spell(_ attribute: String) -> String {
            // colorOnPrimaryContainer → on-primary-container
            var words: [String] = []
            var word = ""
            for c in attribute.hasPrefix("android:") ? attribute.dropFirst("android:".count) : Substring(attribute) {
                if c.isUppercase, !word.isEmpty { words.append(word); word = "" }
                word.append(Character(c.lowercased()))
            }
            words.append(word)
            if words.first == "color" { words.removeFirst() }
            return words.joined(separator: "-")
        }
        func add(_ fg: String, _ bg: String, _ usage: ContrastUsage = .text) {
            pairs.append(Pair(foreground: fg, background: bg, usage: usage, spec: "\(spell(fg)) on \(spell(bg))"))
        }
        for accent in ["Primary", "Secondary", "Tertiary", "Error"] {
            add("colorOn\(accent)", "color\(accent)")
            add("colorOn\(accent)Container", "color\(accent)Container")
        }
        for accent in ["Primary", "Secondary", "Tertiary"] {
            for fill in ["color\(accent)Fixed", "color\(accent)FixedDim"] {
                add("colorOn\(accent)Fixed", fill)
                add("colorOn\(accent)FixedVariant", fill)
            }
        }
        for surface in surfaces {
            add("colorOnSurface", surface)
            add("colorOnSurfaceVariant", surface)
        }
        add("colorOnSurfaceVariant", "colorSurfaceVariant")
        add("colorOnSurfaceInverse", "colorSurfaceInverse")
        add("colorPrimaryInverse", "colorSurfaceInverse")
        for accent in ["colorPrimary", "colorSecondary", "colorTertiary", "colorError"] { add(accent, "colorSurface") }
        add("colorOnBackground", "android:colorBackground")
        add("android:textColorPrimary", "android:colorBackground")
        add("android:textColorSecondary", "android:colorBackground")
        add("colorOutline", "colorSurface", .nonText)
        return pairs
    }()

    /// The pairs each attribute is part of.
    static let byAttribute: [String: [Pair]] = {
        var map: [String: [Pair]] = [:]
        for pair in all {
            map[pair.foreground, default: []].append(pair)
            map[pair.background, default: []].append(pair)
        }
        return map
    }()
}
