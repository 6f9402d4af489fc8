import ColorScience

/// Custom properties as colors: `var()` substituted per theme as CSS does (through chains and
/// fallbacks, within the read's budget), then each value read as a color, an alias, a gradient,
/// bare HSL channels, or listed as not a color.
extension StylesheetReader {
    /// The most characters of a block's selector and queries a token's pointer quotes.
    static let pointerBlockLimit = 1_000

    /// Why a `var()` could not be substituted.
    struct SubstitutionFailure: Error {
        var message: String
        /// Set when the named property itself is not defined (the first `var()` to name it says
        /// whether it has a fallback).
        var undefined: String?
        /// The undefined property is declared nowhere in the read (in no theme either).
        var nowhere = false
    }

    /// The names (without `--`) of the custom properties a value's `var()`s name.
    static func varNames(_ value: String) -> [String] {
        var names: [String] = []
        let bytes = Array(value.utf8)
        var i = 0
        while i + 6 <= bytes.count {
            if (bytes[i] | 0x20) == 0x76, (bytes[i + 1] | 0x20) == 0x61, (bytes[i + 2] | 0x20) == 0x72, bytes[i + 3] == 0x28, bytes[i + 4] == 0x2D, bytes[i + 5] == 0x2D {
                var j = i + 6
                while j < bytes.count {
                    if bytes[j] == 0x5C {
                        j = CSSTokenizer.endOfEscape(bytes, at: j)
                    } else if CSSTokenizer.isNameByte(bytes[j]) {
                        j += 1
                    } else {
                        break
                    }
                }
                if j > i + 6 { names.append(CSSTokenizer.unescapedName(String(decoding: bytes[(i + 6)..<min(j, bytes.count)], as: UTF8.self))) }
                i = j
            } else {
                i += 1
            }
        }
        return names
    }

    /// The declarations of one theme whose values are colors, as tokens (`var()` substituted).
    ///
    /// Each property is substituted once per theme (its value is memoized), so a chain is read
    /// in steps proportional to its length; the text substitution builds is spent from the
    /// read's budget, so values that double at each step (`color-mix(in srgb, var(--a),
    /// var(--a))`) stop the read with a `limit-exceeded` problem at the declaration that went
    /// past it. A chain of `var()` (through values and fallbacks) deeper than
    /// ``ReadBudget/maximumDepth`` stops the read too, at its line and column.
    mutating func colorTokens(_ effective: [String: Declaration], theme: String, scheme: ColorScheme) -> [Token] {
        // Each theme holds the base's properties again: 999 attribute themes over 4,000 root
        // properties (94 KB) built 4 million before the budget stopped them, in 37 s and 900 MB.
        // The audit refuses more than this many across themes; the reader does too, before
        // building them.
        themeTokensBuilt += effective.count
        guard themeTokensBuilt <= Palette.defaultMaximumThemeTokens else {
            halt(PaletteProblem(.limitExceeded, "the stylesheet's themes would hold more than \(Palette.defaultMaximumThemeTokens) custom properties in all (each theme holds the base's again; theme '\(theme)' reaches \(themeTokensBuilt)); a stylesheet with this many themes × properties is not read",
                                file: file))
            return []
        }
        var resolved: [String: Result<String, SubstitutionFailure>] = [:]
        let declaredAnywhere = self.declaredAnywhere
        var stop: PaletteProblem?
        let budget = ReadBudget.current
        func substitute(_ name: String, stack: [String], depth: Int) -> Result<String, SubstitutionFailure> {
            if let known = resolved[name] { return known }
            guard stop == nil else { return .failure(SubstitutionFailure(message: "the read was stopped")) }
            guard let declaration = effective[name] else {
                // A property no stylesheet of the read declares anywhere (Designsystemet's
                // `*.tailwind.css` maps Tailwind's names onto `--ds-*` of the theme stylesheet a
                // page loads beside it) says so: no theme of this read can give it a value.
                let nowhere = declaredAnywhere.contains(name) ? "" : " nor in any stylesheet this one reads or imports (a stylesheet loaded beside this one must define it)"
                return .failure(SubstitutionFailure(message: "--\(name) is not defined in theme '\(theme)'\(nowhere)", undefined: name, nowhere: !declaredAnywhere.contains(name)))
            }
            let file = declaration.file
            if stack.contains(name) {
                let cycle = (stack.drop { $0 != name } + [name]).map { "--" + $0 }.joined(separator: " → ")
                return .failure(SubstitutionFailure(message: "var() cycle: \(cycle)"))
            }
            guard depth <= ReadBudget.maximumDepth else {
                stop = PaletteProblem(.limitExceeded, "a var() chain from --\(stack.first ?? name) nests more than \(ReadBudget.maximumDepth) deep at --\(name) (through values and fallbacks) in theme '\(theme)'; a stylesheet this deep is not read",
                                      file: file, location: declaration.location)
                return .failure(SubstitutionFailure(message: "the read was stopped"))
            }
            let result = StylesheetReader.substituteVars(in: declaration.value, depth: depth, spend: { scanned in
                guard let budget, stop == nil else { return stop == nil }
                if budget.spend(scanned, bytes: scanned, on: "the var() fallbacks of --\(name)", file: file, location: declaration.location) { return true }
                stop = budget.problem ?? PaletteProblem(.limitExceeded, "the read was stopped at --\(name)", file: file, location: declaration.location)
                return false
            }) { inner, innerDepth in
                substitute(inner, stack: stack + [name], depth: innerDepth)
            }
            if stop != nil { return .failure(SubstitutionFailure(message: "the read was stopped")) }
            // What substitution built is spent: one step a byte (values that only name other
            // properties are never copied more than the budget allows).
            if case .success(let text) = result, text != declaration.value, let budget {
                let built = text.utf8.count
                if !budget.spend(1 + built, bytes: built, on: "the var() substitution of --\(name)", file: file, location: declaration.location) {
                    stop = budget.problem ?? PaletteProblem(.limitExceeded, "the read was stopped at --\(name)", file: file, location: declaration.location)
                    return .failure(SubstitutionFailure(message: "the read was stopped"))
                }
            } else if let budget, !budget.spend(1, on: "a var() chain", file: file, location: declaration.location) {
                stop = budget.problem ?? PaletteProblem(.limitExceeded, "the read was stopped at --\(name)", file: file, location: declaration.location)
                return .failure(SubstitutionFailure(message: "the read was stopped"))
            }
            resolved[name] = result
            return result
        }
        var tokens: [Token] = []
        for declaration in effective.values.sorted(by: { $0.order < $1.order }) {
            let file = declaration.file
            // Each token names its block in its pointer: quoted at most ``pointerBlockLimit``
            // characters, so a nested selector list that expands to tens of kilobytes is not
            // copied into every token's pointer (fuzz/crashes/stylesheet-crash-aa75a3…: 31 KB
            // for each of 4 tokens, the listing 100× its input).
            let pointer = JSONPointer([declaration.block.excerpt(Self.pointerBlockLimit), "--" + declaration.name])
            let raw = declaration.value
            let substituted = substitute(declaration.name, stack: [], depth: 0)
            if let stop {
                halt(stop)
                return []
            }
            switch substituted {
            case .failure(let failure):
                if StylesheetReader.looksLikeColor(raw) || raw.lowercased().contains("var(") {
                    ledger.notRead(declaration.name, reason: failure.message, file: file, location: declaration.location,
                                   missing: failure.nowhere ? failure.undefined : nil)
                } else {
                    ledger.notColor(declaration.name, type: "\"\(raw.prefix(40))\"", file: file, location: declaration.location)
                }
                // Only a value that would be a color is worth a problem: other properties are
                // often defined by another stylesheet.
                if StylesheetReader.looksLikeColor(raw) || StylesheetReader.aliasTarget(raw) != nil || raw.lowercased().hasPrefix("var(") {
                    problems.append(PaletteProblem(StylesheetReader.looksLikeColor(raw) ? .invalidColor : .unknownToken,
                                                   "--\(declaration.name): \(raw): \(failure.message)\(StylesheetReader.looksLikeColor(raw) ? "" : "; not read as a color")",
                                                   file: file, pointer: pointer, location: declaration.location, theme: theme,
                                                   severity: StylesheetReader.looksLikeColor(raw) ? .error : .warning))
                }
            case .success(let text):
                let isColor = CSSColor.isColor(text, scheme: scheme)
                if !isColor, StylesheetReader.isBareHSL(text), let color = try? CSSColor.parse("hsl(\(text))", scheme: scheme) {
                    // shadcn/ui's older themes and Tailwind v3 projects write `--background: 0 0% 100%`
                    // and use it as `hsl(var(--background))`: read as that color, and said so.
                    _ = color
                    bareHSL += 1
                    var token = Token(name: declaration.name, value: "hsl(\(text))", pointer: pointer, location: declaration.location)
                    token.assumed = "\"\(text)\" is bare HSL channels, read as hsl(\(text)), as hsl(var(--\(declaration.name))) uses them"
                    tokens.append(token)
                    continue
                }
                if !isColor, Gradient.isGradient(text) {
                    // A background gradient: text on it is judged at its worst point. One this
                    // tool cannot read is listed as not read, with the reason.
                    do {
                        _ = try Gradient(css: text, scheme: scheme)
                        var token = Token(name: declaration.name, value: text, pointer: pointer, location: declaration.location)
                        token.type = "gradient"
                        tokens.append(token)
                    } catch {
                        ledger.notRead(declaration.name, reason: "a gradient this tool cannot read: \(error.message)", file: file, location: declaration.location)
                    }
                    continue
                }
                guard isColor || StylesheetReader.looksLikeColor(text) else {
                    ledger.notColor(declaration.name, type: "\"\(text.prefix(40))\"", file: file, location: declaration.location)
                    continue
                }
                // `var(--x)` alone stays an alias, so fixes point at the token that holds the color.
                var value = text
                if let target = StylesheetReader.aliasTarget(raw), effective[target] != nil { value = "{\(target)}" }
                tokens.append(Token(name: declaration.name, value: value, pointer: pointer, location: declaration.location))
            }
        }
        return tokens
    }

    /// `tokens` with the file of each one's declaration, when that is a stylesheet the palette's
    /// own imports.
    func withFiles(_ tokens: [Token], _ effective: [String: Declaration]) -> [Token] {
        tokens.map { token in
            var token = token
            if let declared = effective[token.name]?.file, declared != mainFile { token.file = declared }
            return token
        }
    }

    /// Whether a value is three bare HSL channels: a hue (a number, or an angle), then a
    /// saturation and a lightness in percent (`222.2 84% 4.9%`).
    static func isBareHSL(_ value: String) -> Bool {
        let parts = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard parts.count == 3, parts[1].hasSuffix("%"), parts[2].hasSuffix("%") else { return false }
        let hue = parts[0].lowercased()
        let number = ["deg", "turn", "rad", "grad"].first { hue.hasSuffix($0) }.map { String(hue.dropLast($0.count)) } ?? String(hue)
        return Double(number) != nil && Double(parts[1].dropLast()) != nil && Double(parts[2].dropLast()) != nil
    }

    /// `x` when the value is exactly `var(--x)`.
    static func aliasTarget(_ value: String) -> String? {
        let v = value.cssTrimmed
        guard v.lowercased().hasPrefix("var("), v.hasSuffix(")") else { return nil }
        let inner = CSSTokenizer.unescapedName(v.dropFirst(4).dropLast().cssTrimmed)
        guard inner.hasPrefix("--"), !inner.contains(","), !inner.contains("("), !inner.contains(" ") else { return nil }
        return String(inner.dropFirst(2))
    }

    /// Whether text is written as a color: a hex color or a color function.
    static func looksLikeColor(_ value: String) -> Bool {
        let v = value.cssTrimmed.lowercased()
        if v.hasPrefix("#") { return true }
        for function in ["rgb(", "rgba(", "hsl(", "hsla(", "hwb(", "lab(", "lch(", "oklab(", "oklch(", "color(", "color-mix(", "light-dark("]
        where v.hasPrefix(function) { return true }
        return false
    }

    /// `value` with every `var(--name[, fallback])` replaced, as CSS substitutes them: by the
    /// named property's value (from `lookup`), else by the fallback.
    /// `depth` is how deep in a chain of `var()` the value is: each property named and each
    /// fallback is one deeper, and `lookup` is given the depth of what it looks up.
    /// `spend` is given the bytes each `var()` costs to scan (and its fallback to copy), and
    /// says whether the read may go on.
    static func substituteVars(in value: String, depth: Int = 0, spend: (Int) -> Bool = { _ in true },
                               lookup: (String, Int) -> Result<String, SubstitutionFailure>) -> Result<String, SubstitutionFailure> {
        let bytes = Array(value.utf8)
        var out: [UInt8] = []
        var i = 0
        var changed = false
        while i < bytes.count {
            let isVar = i + 4 <= bytes.count && (bytes[i] | 0x20) == 0x76 && (bytes[i + 1] | 0x20) == 0x61 && (bytes[i + 2] | 0x20) == 0x72 && bytes[i + 3] == 0x28
                && (i == 0 || !CSSTokenizer.isNameByte(bytes[i - 1]))
            guard isVar else {
                out.append(bytes[i])
                i += 1
                continue
            }
            // The arguments up to the matching ")".
            var j = i + 4, parens = 1, comma = -1
            var quote: UInt8 = 0
            while j < bytes.count {
                let b = bytes[j]
                if quote != 0 {
                    if b == 0x5C { j += 1 } else if b == quote { quote = 0 }
                } else if b == 0x22 || b == 0x27 {
                    quote = b
                } else if b == 0x28 {
                    parens += 1
                } else if b == 0x29 {
                    parens -= 1
                    if parens == 0 { break }
                } else if b == 0x2C && parens == 1 && comma < 0 {
                    comma = j
                }
                j += 1
            }
            guard j < bytes.count else { return .failure(SubstitutionFailure(message: "var( is not closed")) }
            // Nested fallbacks are scanned once per level: that work is spent.
            guard spend(j - i) else { return .failure(SubstitutionFailure(message: "the read was stopped")) }
            let nameEnd = comma >= 0 ? comma : j
            let name = CSSTokenizer.unescapedName(String(decoding: bytes[(i + 4)..<nameEnd], as: UTF8.self).cssTrimmed)
            guard name.hasPrefix("--"), name.count > 2 else {
                return .failure(SubstitutionFailure(message: "var() names a custom property (var(--name)), found var(\(name))"))
            }
            switch lookup(String(name.dropFirst(2)), depth + 1) {
            case .success(let text):
                out.append(contentsOf: text.utf8)
            case .failure(let failure):
                // An undefined or invalid property (a cycle, a var() with nothing to fall back
                // on) takes the fallback, as CSS does; without one the value is invalid too.
                guard comma >= 0 else {
                    return .failure(failure.undefined == String(name.dropFirst(2))
                        ? SubstitutionFailure(message: "\(failure.message), and var(\(name)) has no fallback", undefined: failure.undefined, nowhere: failure.nowhere) : failure)
                }
                let fallback = String(decoding: bytes[(comma + 1)..<j], as: UTF8.self).cssTrimmed
                guard depth < ReadBudget.maximumDepth else {
                    return .failure(SubstitutionFailure(message: "var() fallbacks nest more than \(ReadBudget.maximumDepth) deep"))
                }
                switch substituteVars(in: String(fallback), depth: depth + 1, spend: spend, lookup: lookup) {
                case .success(let text): out.append(contentsOf: text.utf8)
                case .failure(let inner): return .failure(inner)
                }
            }
            changed = true
            i = j + 1
        }
        return .success(changed ? String(decoding: out, as: UTF8.self) : value)
    }
}
