public import TokenSources

/// A nearest passing color (or pair), with where in the palette document it goes, so an editor
/// can apply it without knowing how the palette is laid out.
///
/// A fix goes to the value of the token the color comes from (the end of an alias chain), or
/// to the check's own literal. A token the theme inherits gets an override in this theme
/// instead (`override`: the members on the way may not exist yet), so fixing dark does not
/// change light.
public struct SuggestedFix: Hashable, Sendable, Codable {
    /// `foreground`, `background` or `both`.
    public var kind: String
    public var changes: [Change]
    /// What else the fix changes, measured by auditing the palette with it applied
    /// (``Auditor/withFixEffects(_:palette:)``); nil when that was not asked for.
    public var effect: FixEffect?

    public struct Change: Hashable, Sendable, Codable {
        /// The value to set, in the palette document.
        public var pointer: JSONPointer
        /// The token whose value it is, when it is a token's.
        public var token: String?
        /// Present (true) when the theme inherits the token: the change adds an override.
        public var override: Bool?
        public var value: String
    }


    /// The fixes of a failing result in `theme`: one per suggestion kind that has a color.
    static func fixes(_ suggestions: Suggestions, foreground: ResolvedColor, background: ResolvedColor,
                      kind: CheckKind, pointer: JSONPointer, theme: String) -> [SuggestedFix] {
        func change(_ color: ResolvedColor, literal: JSONPointer, value: String) -> Change {
            let token = color.valueToken ?? color.aliases?.last ?? color.token
            guard let pointer = color.pointer else { return Change(pointer: literal, token: token, override: nil, value: value) }
            if let override = Palette.overridePointer(of: pointer, in: theme) {
                return Change(pointer: override, token: token, override: true, value: value)
            }
            return Change(pointer: pointer, token: token, override: nil, value: value)
        }
        let foregroundLiteral = pointer.appending(kind.foregroundField), backgroundLiteral = pointer.appending("background")
        var fixes: [SuggestedFix] = []
        if let f = suggestions.foreground.first {
            fixes.append(SuggestedFix(kind: "foreground", changes: [change(foreground, literal: foregroundLiteral, value: f.hex)]))
        }
        if let b = suggestions.background.first {
            fixes.append(SuggestedFix(kind: "background", changes: [change(background, literal: backgroundLiteral, value: b.hex)]))
        }
        if let both = suggestions.both {
            fixes.append(SuggestedFix(kind: "both", changes: [change(foreground, literal: foregroundLiteral, value: both.foreground.hex),
                                                              change(background, literal: backgroundLiteral, value: both.background.hex)]))
        }
        return fixes
    }
}
