import ColorScience

/// Android layouts and styles as usage: where an app puts a text or icon color on a background.
///
/// - Layouts (`res/layout*/*.xml`): a view's `android:textColor` (and `textColorHint`,
///   `textColorLink`, as text; `android:tint`, `app:tint`, `app:iconTint`, `drawableTint`, as
///   non-text) on its own background, else its nearest ancestor's in the same layout
///   (`app:cardBackgroundColor`, `app:backgroundTint`, `android:backgroundTint`,
///   `android:background`, in that order). A view's `style="@style/X"` gives what it does not set
///   itself (X and the app's styles it inherits, through `parent=` or a dotted name, across the
///   run's modules), and `android:textAppearance="@style/Y"` its text color after that. A view
///   with nothing known behind it up its layout sits on the window: the app theme's
///   `android:windowBackground`, else `android:colorBackground` (which Material's themes draw the
///   window with), else `colorSurface`, proposed as a convention and said so in the evidence.
/// - Values (`res/values*/*.xml`): a widget style that sets a text color and a background is a
///   pair; an app theme's colors are paired by Material's roles (``MaterialRolePairs``), as a
///   convention.
/// - Names: `?attr/x` is the app theme's attribute `x`, `?android:attr/x` is `android:x`,
///   `@color/x` the color resource `x`, as the palette reader names them; a color state list's
///   resting state is paired and its other states, disabled among them, never are; colors written
///   in the file (`#d55`, `@android:color/white`) are CSS colors. A background that is a ripple
///   (`?attr/selectableItemBackground`), `@null` or transparent shows what is behind it; a
///   drawable, a library's style or an attribute no theme read sets is not known, and the colors
///   on it are not paired.
///
/// Every color met that is not paired is in the read's `notRead`, with its line and why.
public struct AndroidUsageReader: UsageReader {
    public init() {}

    public var name: String { "Android layouts and styles" }

    public func reads(path: String, head: ArraySlice<UInt8>) -> Bool {
        guard path.hasSuffix(".xml"), let folder = Self.folder(of: path) else { return false }
        return folder == "layout" || folder.hasPrefix("layout-") || folder == "values" || folder.hasPrefix("values-")
    }

    public func read(file: String, bytes: [UInt8], context: UsageContext) -> UsageRead {
        let folder = Self.folder(of: file) ?? ""
        if folder == "layout" || folder.hasPrefix("layout-") {
            return AndroidLayoutReading(file: file, context: context).read(bytes)
        }
        return AndroidValuesReading(file: file, context: context).read(bytes)
    }

    /// The folder a file is in (`layout`, `values-night`).
    static func folder(of path: String) -> Substring? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        return parts.count >= 2 ? parts[parts.count - 2] : nil
    }

    /// The `res/` directory of a file in `res/FOLDER/`: the Android palette's root it is (the
    /// loader's spelling of it, which reads), else the file's own.
    static func resRoot(of file: String, context: UsageContext) -> String {
        var parts = file.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 2 { parts.removeLast(2) }
        let own = parts.joined(separator: "/")
        let bare = own.hasPrefix("./") ? String(own.dropFirst(2)) : own
        for root in UsageTokens.of(context).androidRoots {
            if root == own || (!bare.isEmpty && (root.hasSuffix("/" + bare) || bare.hasSuffix("/" + root))) { return root }
        }
        return own
    }

    /// Keeps one pair of each foreground, background and usage per file: the first seen.
    static func add(_ pair: UsagePair, to read: inout UsageRead, seen: inout Set<String>) {
        if seen.insert("\(pair.foreground)\u{0}\(pair.background)\u{0}\(pair.usage)").inserted { read.pairs.append(pair) }
    }

    /// The window's background as the app themes read name it, and how.
    static func windowBackground(_ tokens: UsageTokens) -> (name: String, how: String)? {
        if tokens.androidNames.contains("android:windowBackground") { return ("android:windowBackground", "the app theme's android:windowBackground") }
        if tokens.androidNames.contains("android:colorBackground") {
            return ("android:colorBackground", "the app theme's android:colorBackground, which the platform's themes draw the window with")
        }
        if tokens.androidNames.contains("colorSurface") { return ("colorSurface", "the app theme's colorSurface (it sets no android:colorBackground)") }
        return nil
    }
}

/// The attributes that color a view's text or icons, and its background.
enum AndroidColorAttributes {
    static let text = ["android:textColor", "android:textColorHint", "android:textColorLink"]
    static let nonText = ["android:tint", "app:tint", "app:iconTint", "android:drawableTint", "app:drawableTint"]
    static let background = ["app:cardBackgroundColor", "app:backgroundTint", "android:backgroundTint", "android:background"]
    static var foregrounds: [(String, ContrastUsage)] { text.map { ($0, .text) } + nonText.map { ($0, .nonText) } }

    /// Views whose own fill comes from their default widget style when a layout sets none:
    /// what their text sits on is not in the layout.
    static func fillsItself(_ tag: String) -> Bool {
        let short = tag.split(separator: ".").last.map(String.init) ?? tag
        if short.hasSuffix("RadioButton") || short.hasSuffix("CheckBox") { return false }
        return short.hasSuffix("Button") || short.hasSuffix("Chip") || short.hasSuffix("CardView")
    }
}
