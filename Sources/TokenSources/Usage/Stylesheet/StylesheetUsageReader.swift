import ColorScience

/// Component stylesheets as usage: where a UI's rules put one color on another.
///
/// - A rule's `color` on its own `background-color` (or the color of `background`), through
///   `var(--token, fallback)`: a `var()` naming a token of the run's palettes is that token.
/// - Component-scoped custom properties: a rule that sets properties no palette defines
///   (Bootstrap's `.btn-primary { --bs-btn-color; --bs-btn-bg }`) is read through every rule that
///   draws with them (`.btn { color: var(--bs-btn-color); background-color: var(--bs-btn-bg) }`,
///   and the states `.btn:hover`, `.btn:active` with their `--bs-btn-hover-…`), the consuming
///   rule's own values filling what the variant does not set. The evidence is the variant's line.
/// - A rule with no fill of its own is on the fill of the same element's resting state
///   (`.btn:hover` on `.btn`), else of the nearest ancestor its selector names
///   (`.Box-header .Box-title` on `.Box-header`), else of the page (`body`, `html`, `:root`).
///   A fill with no text color of its own is under the nearest ancestor's, else the page's.
/// - `border*` and `outline*` (focus indicators), `fill` and `stroke` are non-text (SC 1.4.11),
///   against what the element sits on (its ancestors' fill or the page's), never its own fill.
/// - What is the page's is a convention, not usage: the stylesheet says what the page paints,
///   not that nothing between paints over it (a card, a header, a dialog usually does). An
///   ancestor's fill is usage: the selector says the element is inside it.
/// - Custom properties that are tokens of the palettes are the palette's, not usage (the rules
///   that define the themes: `:root`, `[data-theme=dark]`). Disabled states (`:disabled`,
///   `.disabled`, `[disabled]`, `aria-disabled`) are never proposed: WCAG exempts them (SC
///   1.4.3). A literal color (`#fff`) is named by its exact hex: the checks format reads CSS
///   colors, and Bootstrap's variants are compiled to literals; two literals are proposed too
///   (a component that draws `#fff` on `#0d6efd` is a pair to check), unless they are one color
///   or the fill is translucent. Transparent, `currentColor`, `inherit`, system colors, images
///   and computed colors (`color-mix()`) are not read, each said with its line.
///
/// Linear in the file: rules are indexed by selector (canonical text) and custom property, and
/// each rule looks up its ancestors and consumers there (at most ``maximumConsumers`` each),
/// never matching selector against selector.
public struct StylesheetUsageReader: UsageReader {
    public init() {}

    /// The most rules one variant is read through (a variable many rules draw with).
    static let maximumConsumers = 32

    public var name: String { "stylesheet rules" }

    public func reads(path: String, head: ArraySlice<UInt8>) -> Bool {
        path.lowercased().hasSuffix(".css")
    }

    public func read(file: String, bytes: [UInt8], context: UsageContext) -> UsageRead {
        var reading = StylesheetUsageReading(file: file, bytes: bytes, context: context)
        return reading.read()
    }
}
