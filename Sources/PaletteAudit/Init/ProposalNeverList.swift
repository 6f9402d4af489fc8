import ColorScience
import TokenSources

/// What `contrast init` never proposes, whoever found the pair (a usage reader, a convention, the
/// names): each is a check that could only fail or measures nothing a person sees. Every pair
/// left out is counted by its reason, in the printed summary and the document's `x-notes`.
public enum NeverReason: String, CaseIterable, Sendable, Hashable {
    /// A token on itself, or on its own alias (both end at the same token).
    case itself
    /// A border (outline, stroke) on the fill of the same element (`button.borderColor.rest`
    /// on `button.bgColor.rest`): a border is seen against what is around the element.
    case borderOnOwnFill = "border-on-own-fill"
    /// A fully transparent color: nothing is drawn, or what shows through is not known.
    case transparent
    /// A translucent background in a theme that names no backdrop: its contrast is a range over
    /// every surface it could be drawn on.
    case translucentOverUnknown = "translucent-over-unknown"
    /// A text color on a fill that has its own text token (`on-X`, `X-foreground`): only that
    /// text is drawn there.
    case fillHasOwnText = "fill-has-own-text"
    /// A disabled color: WCAG exempts the text of inactive components (SC 1.4.3).
    case disabled

    /// Why, in words, for the summary and the document.
    public var words: String {
        switch self {
        case .itself: "a token on itself or on its own alias"
        case .borderOnOwnFill: "a border on its own fill"
        case .transparent: "a fully transparent color"
        case .translucentOverUnknown: "a translucent background with nothing known behind it (the theme names no backdrop)"
        case .fillHasOwnText: "a text token on a fill whose own text token exists (on-X, X-foreground)"
        case .disabled: "a disabled token (WCAG exempts inactive components, SC 1.4.3)"
        }
    }
}

/// Judges explicit pairs for one palette: in which of its themes the pair can be measured, or
/// the never-list reason it is not proposed. Built once per palette from its resolved colors, so
/// each question is a few look-ups.
struct PairJudge {
    let tokens: UsageTokens
    let themeNames: [String]
    /// Each fill's own text tokens (`primary` → `on-primary`, `card` → `card-foreground`).
    let ownText: [String: Set<String>]

    init(palette: Palette, ownText: [String: Set<String>]) {
        tokens = UsageTokens(palettes: [palette])
        themeNames = tokens.themes.map(\.theme)
        self.ownText = ownText
    }

    enum Verdict: Equatable {
        /// The palette does not have both colors in any theme.
        case notInPalette
        case never(NeverReason)
        /// The themes it applies to (nil: every theme of the palette).
        case propose(themes: [String]?)
    }

    func judge(foreground: String, background: String, usage: ContrastUsage) -> Verdict {
        let fgKnown = tokens.isToken(foreground), bgKnown = tokens.isToken(background)
        guard fgKnown || bgKnown, fgKnown || UsageTokens.isBuiltIn(foreground), bgKnown || UsageTokens.isBuiltIn(background) else { return .notInPalette }
        let fgRole = TokenNameRole(name: foreground), bgRole = TokenNameRole(name: background)
        if fgRole.disabled || bgRole.disabled { return .never(.disabled) }
        if foreground == background { return .never(.itself) }
        if usage != .nonText, fgRole.role == .foreground, let own = ownText[background], !own.contains(foreground),
           !Self.sitsOnAVariant(foreground, of: background) { return .never(.fillHasOwnText) }
        if Self.isBorderOnOwnFill(foreground, fgRole, background, bgRole) { return .never(.borderOnOwnFill) }
        var kept: [String] = []
        var first: NeverReason?
        var present = false
        for theme in tokens.themes {
            guard let fg = tokens.color(foreground, in: theme), let bg = tokens.color(background, in: theme) else { continue }
            present = true
            let reason: NeverReason? = fg.final == bg.final ? .itself
                : fg.alpha <= 0 || bg.alpha <= 0 ? .transparent
                : bg.alpha < 1 && !theme.hasBackdrop ? .translucentOverUnknown
                : nil
            if let reason { first = first ?? reason } else { kept.append(theme.theme) }
        }
        guard present else { return .notInPalette }
        if kept.isEmpty { return .never(first ?? .itself) }
        return .propose(themes: kept.count == themeNames.count ? nil : kept)
    }

    /// Whether `foreground` is named to sit on a variant of `background` (`colorOnSurfaceVariant`
    /// on `colorSurface`, `on-primary-fixed-variant` on `primary-fixed`): Material draws a role's
    /// variant text on the role itself, so it is not another fill's text.
    static func sitsOnAVariant(_ foreground: String, of background: String) -> Bool {
        guard let on = TokenNameRole.words(of: foreground).first(where: { $0.text.lowercased() == "on" }) else { return false }
        var bytes = Array(foreground.utf8)
        var end = on.range.upperBound
        if end < bytes.count, [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/")].contains(bytes[end]) { end += 1 }
        bytes.removeSubrange(on.range.lowerBound..<end)
        let target = String(decoding: bytes, as: UTF8.self).lowercased(), fill = background.lowercased()
        return target.count > fill.count && target.hasPrefix(fill)
    }

    /// The words that make a non-text color a border (an icon on its own fill is drawn on it).
    static let borderWords: Set<String> = ["border", "outline", "stroke", "divider", "separator"]

    /// A border and a fill named alike but for their role word (`button.primary.borderColor.rest`
    /// and `button.primary.bgColor.rest`; `--borderColor-accent-emphasis` and
    /// `--bgColor-accent-emphasis`): the same element's border and fill.
    static func isBorderOnOwnFill(_ foreground: String, _ fgRole: TokenNameRole, _ background: String, _ bgRole: TokenNameRole) -> Bool {
        guard fgRole.role == .nonText, let word = fgRole.word, borderWords.contains(word.lowercased()), bgRole.role == .background,
              let fgStem = stem(foreground, fgRole), let bgStem = stem(background, bgRole) else { return false }
        // Named alike in more than the generic words (`colorOutline` and `colorSurface` share
        // only `color`: Material's outline on its surface, not a fill's own border).
        // A border named for no state is the element's in every state: its fill of a state
        // (`label.blue.borderColor` and `label.blue.bgColor.rest`) is its own.
        guard fgStem == bgStem || isStateOf(bgStem, fgStem) else { return false }
        let specific = TokenNameRole.words(of: fgStem).filter { !genericWords.contains($0.text.lowercased()) }
        return !specific.isEmpty
    }

    /// The words that name an interactive state of one element (`rest`, `hover`, …).
    static let stateWords: Set<String> = ["rest", "resting", "default", "hover", "hovered", "active", "pressed", "focus", "focused", "selected", "checked"]

    /// Whether `stem` is `base` followed by state words only (`label.blue.color.rest` of
    /// `label.blue.color`).
    static func isStateOf(_ stem: String, _ base: String) -> Bool {
        guard stem.count > base.count, stem.hasPrefix(base) else { return false }
        let rest = stem.dropFirst(base.count)
        guard let first = rest.first, NameIndex.isSeparator(first) else { return false }
        let words = TokenNameRole.words(of: String(rest))
        return !words.isEmpty && words.allSatisfy { stateWords.contains($0.text.lowercased()) }
    }

    /// The last word of `name` when it names a state (`rest` of `label.blue.fgColor.rest`).
    static func state(of name: String) -> String? {
        guard let last = TokenNameRole.words(of: name).last?.text.lowercased(), stateWords.contains(last) else { return nil }
        return last
    }

    /// Words every token of a system may share, which do not make two names one element's.
    static let genericWords: Set<String> = ["color", "colors", "default", "token", "tokens", "sys", "ref", "md", "theme", "base", "semantic"]

    /// The name without its role word, lower-cased.
    static func stem(_ name: String, _ role: TokenNameRole) -> String? {
        guard let range = role.wordRange else { return nil }
        let bytes = Array(name.utf8)
        return (String(decoding: bytes[..<range.lowerBound], as: UTF8.self) + String(decoding: bytes[range.upperBound...], as: UTF8.self)).lowercased()
    }
}
