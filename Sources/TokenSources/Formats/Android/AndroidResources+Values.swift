import ColorScience

/// What an Android resource value is: a color, a reference (`@color/`, `?attr/`), or another
/// kind of value, and the color it names.
extension AndroidResourceReader {

    /// The attribute a theme reference names: `?attr/x`, `?x` → `x`; `?android:attr/x`,
    /// `?android:x` → `android:x`. Nil for anything else.
    static func attributeName(_ value: String) -> String? {
        guard value.hasPrefix("?") else { return nil }
        var rest = Substring(value.dropFirst())
        if rest.hasPrefix("*") { rest = rest.dropFirst() }
        var package = ""
        if rest.hasPrefix("android:") {
            package = "android:"
            rest = rest.dropFirst("android:".count)
        }
        if rest.hasPrefix("attr/") { rest = rest.dropFirst("attr/".count) }
        return rest.isEmpty ? nil : package + rest
    }

    /// A check's name for a token as Android writes it: `?attr/x`, `?x` → `x`,
    /// `?android:attr/x` → `android:x`, `@color/x` → `x`.
    static func tokenName(_ written: String) -> String {
        if let attribute = attributeName(written) { return attribute }
        if written.hasPrefix("@color/") && written.count > "@color/".count { return String(written.dropFirst("@color/".count)) }
        return written
    }

    /// Whether a value is, or may be, a color: a literal `#…`, a `@color/` or
    /// `@android:color/` reference, or a theme attribute (`?…`) whose format the app does not
    /// declare as something else.
    func mayBeColor(_ value: String) -> Bool {
        let v = String(value.trimmingSpaces)
        if let attribute = Self.attributeName(v) { return attributeFormats[attribute].map(Self.formatMayBeColor) ?? true }
        return v.hasPrefix("#") || v.hasPrefix("@color/") || v.hasPrefix("@android:color/") || v.hasPrefix("@*android:color/")
    }

    /// Whether an `<attr format="…">` may hold a color (`color`, `reference`, or no format).
    static func formatMayBeColor(_ format: String) -> Bool {
        format.isEmpty || format.split(separator: "|").contains { $0 == "color" || $0 == "reference" }
    }

    /// The kind of a value that is not a color: `drawable`, `style`, `dimension`, `boolean`,
    /// `null`… (`@type/` references name their resource type).
    static func kind(of value: String) -> String {
        let v = String(value.trimmingSpaces)
        if v.isEmpty { return "empty" }
        if v == "@null" || v == "@empty" { return "null" }
        if v.hasPrefix("@") {
            var rest = Substring(v.dropFirst())
            if rest.hasPrefix("+") || rest.hasPrefix("*") { rest = rest.dropFirst() }
            if let colon = rest.firstIndex(of: ":"), let slash = rest.firstIndex(of: "/"), colon < slash { rest = rest[rest.index(after: colon)...] }
            guard let slash = rest.firstIndex(of: "/") else { return "text" }
            let type = String(rest[..<slash])
            return ["dimen": "dimension", "bool": "boolean", "attr": "attribute"][type] ?? type
        }
        if let attribute = attributeName(v) { return "?attr/\(attribute)" }
        let lower = v.lowercased()
        if lower == "true" || lower == "false" { return "boolean" }
        var number = Substring(lower)
        if number.hasPrefix("-") || number.hasPrefix("+") { number = number.dropFirst() }
        if number.hasPrefix("0x"), number.count > 2, number.dropFirst(2).allSatisfy(\.isHexDigit) { return "integer" }
        let digits = number.prefix { $0.isNumber || $0 == "." }
        let unit = number.dropFirst(digits.count)
        guard !digits.isEmpty, digits.contains(where: \.isNumber), digits.count(where: { $0 == "." }) <= 1 else { return "text" }
        switch unit {
        case "": return digits.contains(".") ? "float" : "integer"
        case "dp", "dip", "sp", "px", "pt", "in", "mm": return "dimension"
        case "%", "%p": return "fraction"
        default: return "text"
        }
    }

    /// A literal, `@android:color/` or `@color/` value as CSS, following `@color/` through the
    /// configuration's colors; or why not, and whether the value itself is malformed.
    func color(_ value: String, colors: [String: ColorResource], file: String, location: SourceLocation) -> (css: String?, reason: String?, malformed: Bool) {
        if value.hasPrefix("@*android:color/") {
            return (nil, "\(value) is a private color of the framework, whose value is not known", false)
        }
        guard value.hasPrefix("@color/") else {
            let (css, problem) = Self.css(value)
            return (css, problem, problem != nil)
        }
        var name = String(value.dropFirst("@color/".count))
        var seen: [String] = []
        while seen.count <= ReadBudget.maximumDepth {
            guard ReadBudget.spend(on: "@color/ references", file: file, location: location) else {
                return (nil, "the read stopped before \(value) was followed", false)
            }
            seen.append(name)
            guard let resource = colors[name] else {
                if let list = stateLists[name] {
                    return (nil, "@color/\(name) is a color state list (\(list)): it picks a color by state, so there is no one color to measure", false)
                }
                return (nil, "@color/\(name) names no <color> in values*/ and no color state list in color/ (a library's color, or one this tree does not hold)", false)
            }
            let written = String(resource.value.trimmingSpaces)
            if written.hasPrefix("@color/") {
                let next = String(written.dropFirst("@color/".count))
                if let start = seen.firstIndex(of: next) {
                    return (nil, "@color/ references make a cycle: \((seen[start...] + [next]).map { "@color/\($0)" }.joined(separator: " → "))", false)
                }
                name = next
                continue
            }
            let (css, problem) = Self.css(written)
            if let css { return (css, nil, false) }
            return (nil, "@color/\(name) (\(Self.place(resource.file, resource.location))) is not read: \(problem ?? "")", false)
        }
        return (nil, "@color/ references from \(value) go more than \(ReadBudget.maximumDepth) deep", false)
    }

}
