/// The Android resources a layout names beside the palette's tokens: the app's styles (across
/// modules: Thunderbird's layouts use `@style/Widget.App.AppBarLayout` from `theme2/common`),
/// the attributes it declares, and its color state lists. Read with the palette's own reader
/// (``AndroidResourceReader``), once per `res/` directory per run (``UsageMemo``), so each
/// layout's look-ups cost nothing more.
struct AndroidUsageResources: Sendable {
    /// The day configuration's styles, by name (the highest API level wins, as on a device).
    var styles: [String: AndroidResourceReader.StyleResource] = [:]
    /// `<attr name format>` the app declares, by name.
    var attributeFormats: [String: String] = [:]
    /// Color state lists (`res/color*/NAME.xml`) by name: the file to read.
    var stateLists: [String: String] = [:]

    /// One `res/` directory's resources.
    static func of(root: String, context: UsageContext) -> AndroidUsageResources {
        context.memo.value("android.res\u{0}" + root) {
            var reader = AndroidResourceReader(root: root, fileSystem: context.fileSystem)
            reader.read()
            var replaced: [String: String] = [:]
            var resources = AndroidUsageResources()
            resources.styles = reader.chosenStyles("light", replaced: &replaced)
            resources.attributeFormats = reader.attributeFormats
            resources.stateLists = reader.stateLists.mapValues { root + "/" + $0 }
            return resources
        }
    }

    /// The resources of every Android palette of the run, merged (the first module read wins a
    /// name defined in two), with `own` (the layout's module) first.
    static func visible(from own: String?, context: UsageContext) -> AndroidUsageResources {
        let roots = UsageTokens.of(context).androidRoots
        let merged = context.memo.value("android.res.all") {
            var all = AndroidUsageResources()
            for root in roots { all.add(of(root: root, context: context)) }
            return all
        }
        guard let own, !roots.contains(own) else { return merged }
        var mine = of(root: own, context: context)
        mine.add(merged)
        return mine
    }

    /// Adds what `other` defines that this does not.
    mutating func add(_ other: AndroidUsageResources) {
        styles.merge(other.styles) { mine, _ in mine }
        attributeFormats.merge(other.attributeFormats) { mine, _ in mine }
        stateLists.merge(other.stateLists) { mine, _ in mine }
    }

    /// A style and the app's styles it inherits, nearest first, and the first parent that is
    /// not one of the app's (a library's or the framework's), as the palette reader chains them.
    func chain(of name: String) -> (styles: [AndroidResourceReader.StyleResource], outside: String?)? {
        guard let style = styles[name] else { return nil }
        var scratch = AndroidResourceReader(root: "")
        let chain = scratch.chain(of: style, in: styles)
        return (chain.styles, chain.outside)
    }

    /// The item `attribute` of a style chain: the nearest style that sets it wins.
    static func item(_ attribute: String, in chain: [AndroidResourceReader.StyleResource]) -> AndroidResourceReader.StyleItem? {
        for style in chain {
            if let item = style.items.last(where: { $0.name == attribute }) { return item }
        }
        return nil
    }
}
