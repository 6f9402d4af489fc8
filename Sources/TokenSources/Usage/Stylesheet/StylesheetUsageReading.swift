import ColorScience

/// One stylesheet read for pairs (see ``StylesheetUsageReader``).
struct StylesheetUsageReading {
    typealias Declaration = StylesheetRuleList.Declaration

    let file: String
    let list: StylesheetRuleList
    let tokens: UsageTokens
    let resolver: StylesheetColorResolver

    /// A declaration and the rule it is in.
    struct Placed {
        var declaration: Declaration
        var rule: Int
    }

    /// Each selector's custom properties (unconditional rules, the last of a name wins).
    var varsOf: [String: [String: String]] = [:]
    /// Each selector's fill and text color: the last unconditional one, else the last one.
    var backgroundOf: [String: Placed] = [:]
    var colorOf: [String: Placed] = [:]
    /// The rules that draw with each custom property no palette defines, in document order.
    var consumers: [String: [Int]] = [:]
    /// The page's custom properties, fill and text color (`html`, `:root`, `body`; `body`'s win).
    var pageVars: [String: String] = [:]
    var pageBackground: (selector: String, placed: Placed)?
    var pageColor: (selector: String, placed: Placed)?

    var result = UsageRead()
    /// Pairs kept by foreground, background and usage: the best confidence, then the first.
    var kept: [String: Int] = [:]
    /// Colors of properties this reader does not pair, by property: how many, and the first line.
    var unpaired: [String: (count: Int, line: Int)] = [:]

    static let backgroundProperties: Set<String> = ["background-color", "background"]
    static let nonTextProperties: Set<String> = ["border", "border-color", "border-top", "border-right", "border-bottom", "border-left",
                                                 "border-top-color", "border-right-color", "border-bottom-color", "border-left-color",
                                                 "border-block", "border-inline", "border-block-color", "border-inline-color",
                                                 "border-block-start", "border-block-end", "border-inline-start", "border-inline-end",
                                                 "border-block-start-color", "border-block-end-color", "border-inline-start-color", "border-inline-end-color",
                                                 "outline", "outline-color", "fill", "stroke"]
    /// Properties that hold a color this reader does not pair: said once per property.
    static let unpairedProperties: Set<String> = ["box-shadow", "text-shadow", "text-decoration", "text-decoration-color", "caret-color",
                                                  "accent-color", "column-rule", "column-rule-color", "text-emphasis-color",
                                                  "-webkit-text-fill-color", "-webkit-text-stroke-color", "background-image", "scrollbar-color"]

    init(file: String, bytes: [UInt8], context: UsageContext) {
        self.file = file
        list = StylesheetRuleList(bytes, file: file)
        tokens = UsageTokens.of(context)
        resolver = StylesheetColorResolver(tokens: tokens, names: StylesheetColorResolver.cssNames(context))
    }

    var rules: [StylesheetRuleList.Rule] { list.rules }

    func isToken(_ property: String) -> Bool { resolver.names[String(property.dropFirst(2))] != nil }

    /// Whether a declaration is one this reader pairs (text, fill, or non-text).
    static func paints(_ property: String) -> Bool {
        property == "color" || backgroundProperties.contains(property) || nonTextProperties.contains(property)
    }

    // MARK: Index

    mutating func index() {
        for (r, rule) in rules.enumerated() {
            var draws = false
            for declaration in rule.declarations where Self.paints(declaration.property) { draws = true }
            for selector in rule.selectors {
                let key = selector.text
                for declaration in rule.declarations {
                    let property = declaration.property
                    if property.hasPrefix("--") {
                        if !rule.conditional { varsOf[key, default: [:]][String(property.dropFirst(2))] = declaration.value }
                    } else if Self.backgroundProperties.contains(property) {
                        if !rule.conditional || backgroundOf[key].map({ rules[$0.rule].conditional }) ?? true {
                            backgroundOf[key] = Placed(declaration: declaration, rule: r)
                        }
                    } else if property == "color" {
                        if !rule.conditional || colorOf[key].map({ rules[$0.rule].conditional }) ?? true {
                            colorOf[key] = Placed(declaration: declaration, rule: r)
                        }
                    }
                }
                if selector.isPage, !rule.conditional {
                    for declaration in rule.declarations where declaration.property.hasPrefix("--") {
                        // `body`'s own properties are what the page's elements inherit.
                        let name = String(declaration.property.dropFirst(2))
                        if pageVars[name] == nil || key.lowercased() == "body" { pageVars[name] = declaration.value }
                    }
                }
            }
            // A rule that draws with a variable no palette defines is a consumer of it.
            guard draws, rule.selectors.contains(where: { !$0.isDisabled }) else { continue }
            var names: Set<String> = []
            for declaration in rule.declarations { Self.variableNames(in: declaration.value, into: &names) }
            for name in names where resolver.names[name] == nil {
                if consumers[name, default: []].count < 4 * StylesheetUsageReader.maximumConsumers { consumers[name, default: []].append(r) }
            }
        }
        // The page's fill and color: `body`'s, else `html`'s, else `:root`'s.
        for page in ["body", "html", ":root", ":host"] {
            if pageBackground == nil, let placed = backgroundOf[page] { pageBackground = (page, placed) }
            if pageColor == nil, let placed = colorOf[page] { pageColor = (page, placed) }
        }
    }

    /// The custom properties a value names in `var(--…)` (without `--`).
    static func variableNames(in value: String, into names: inout Set<String>) {
        var rest = Substring(value)
        while let start = rest.firstRange(of: "var(--") {
            var end = start.upperBound
            while end < rest.endIndex, rest[end] != ",", rest[end] != ")", rest[end] != " " { end = rest.index(after: end) }
            names.insert(CSSTokenizer.unescapedName(String(rest[start.upperBound..<end])))
            rest = rest[end...]
        }
    }

    // MARK: Reading

    mutating func read() -> UsageRead {
        index()
        for (line, what) in list.skipped { result.notRead.append(UsageEvidence(file: file, line: line, what: what)) }
        for (r, rule) in rules.enumerated() {
            guard ReadBudget.spend(1 + rule.declarations.count, on: "a stylesheet rule", file: file, location: nil) else { break }
            readRule(r, rule)
        }
        for (property, seen) in unpaired.sorted(by: { $0.value.line < $1.value.line }) {
            let more = seen.count > 1 ? " (and \(seen.count - 1) more declarations of it)" : ""
            result.notRead.append(UsageEvidence(file: file, line: seen.line, what: "\(property) holds a color\(more) that this reader does not pair: it pairs color on background-color, borders, outlines, fill and stroke"))
        }
        if let stopped = ReadBudget.current?.problem {
            result.notRead.append(UsageEvidence(file: file, line: 1, what: "the read stopped before the file's end, and what it found may be incomplete: \(stopped.message.excerpt(160))"))
        }
        return result
    }

    mutating func readRule(_ r: Int, _ rule: StylesheetRuleList.Rule) {
        let own = rule.declarations
        for declaration in own where Self.unpairedProperties.contains(declaration.property) {
            let lowered = declaration.value.lowercased()
            if lowered.contains("var(") || lowered.contains("#") || lowered.contains("rgb") || lowered.contains("hsl") {
                unpaired[declaration.property, default: (0, declaration.line)].count += 1
            }
        }
        let draws = own.contains { Self.paints($0.property) }
        // Custom properties no palette defines: the rule is a variant read through its consumers.
        // A rule that defines palette tokens (`:root`, `[data-theme=dark]`) is the palette's, with
        // every property it sets (channels like `--bs-primary-rgb` too); so is the page's.
        let definesTheme = own.contains { $0.property.hasPrefix("--") && isToken($0.property) } || rule.selectors.contains { $0.isPage }
        let componentVars = definesTheme ? [] : own.filter { $0.property.hasPrefix("--") && !isToken($0.property) }
        guard draws || !componentVars.isEmpty else { return }
        var ownVars: [String: String] = [:]
        for declaration in own where declaration.property.hasPrefix("--") { ownVars[String(declaration.property.dropFirst(2))] = declaration.value }
        var disabled: [String] = []
        for selector in rule.selectors {
            if selector.isDisabled {
                disabled.append(selector.text)
                continue
            }
            let scopes = self.scopes(of: selector, own: ownVars)
            if draws {
                readElement(label: selector.text.excerpt(60), declarations: own, selector: selector, scopes: scopes, line: rule.line)
            }
            guard !componentVars.isEmpty else { continue }
            // Through every rule that draws with them (Bootstrap's `.btn`, `.btn:hover`).
            var through: [Int] = []
            var seen: Set<Int> = [r]
            var truncated = false
            for declaration in componentVars {
                let name = String(declaration.property.dropFirst(2))
                // A consumer that sets the property itself keeps its own value unless the variant
                // comes after it (equal specificity: the later rule wins, as `.btn-primary` after `.btn`).
                for c in consumers[name] ?? [] where (c < r || !rules[c].declarations.contains { $0.property == declaration.property }) && seen.insert(c).inserted {
                    if through.count >= StylesheetUsageReader.maximumConsumers { truncated = true; break }
                    through.append(c)
                }
            }
            if truncated {
                result.notRead.append(UsageEvidence(file: file, line: rule.line, what: "\(selector.text.excerpt(60)): its properties are drawn with by more than \(StylesheetUsageReader.maximumConsumers) rules; it is read through the first \(StylesheetUsageReader.maximumConsumers)"))
            }
            for c in through {
                let consumer = rules[c]
                // A state of the rule's own element (`.btn:hover` of `.btn`) already takes its properties.
                guard let target = consumer.selectors.first(where: { !$0.isDisabled }), target != selector, target.restingState != selector else { continue }
                // The variant's own properties first, then the consumer's defaults and what it inherits.
                let inner = [ownVars] + self.scopes(of: target, own: [:]).dropFirst()
                let consumerVars = consumer.declarations.filter { $0.property.hasPrefix("--") }
                var consumerOwn: [String: String] = [:]
                for declaration in consumerVars { consumerOwn[String(declaration.property.dropFirst(2))] = declaration.value }
                readElement(label: "\(selector.text.excerpt(60)) (through \(target.text.excerpt(40)))", declarations: consumer.declarations,
                            selector: target, scopes: [inner[0], consumerOwn] + inner.dropFirst(), line: rule.line)
            }
        }
        if !disabled.isEmpty {
            let shown = disabled.prefix(3).map { $0.excerpt(40) }.joined(separator: ", ") + (disabled.count > 3 ? ", …" : "")
            result.notRead.append(UsageEvidence(file: file, line: rule.line, what: "\(shown): a disabled state (\(disabled.count) selector\(disabled.count == 1 ? "" : "s")), never proposed: WCAG exempts the text of inactive components (SC 1.4.3)"))
        }
    }

    /// Where an element's custom properties come from, nearest first: the rule's own, its
    /// selector's other rules, its resting state's, its ancestors', the page's.
    func scopes(of selector: StylesheetSelector, own: [String: String]) -> [[String: String]] {
        var scopes = [own]
        if let vars = varsOf[selector.text] { scopes.append(vars) }
        if let resting = selector.restingState, let vars = varsOf[resting.text] { scopes.append(vars) }
        // The same element's compound alone (`.btn:active` of `:not(.btn-check) + .btn:active`),
        // its resting state, and its leading class (`.btn` of `.btn.active`).
        if let alone = selector.subjectAlone {
            if let vars = varsOf[alone.text] { scopes.append(vars) }
            if let resting = alone.restingState, let vars = varsOf[resting.text] { scopes.append(vars) }
        }
        if let leading = selector.leadingSimple, let vars = varsOf[leading.text] { scopes.append(vars) }
        for ancestor in selector.ancestors {
            if let vars = varsOf[ancestor.text] { scopes.append(vars) } else if let alone = ancestor.subjectAlone, let vars = varsOf[alone.text] { scopes.append(vars) }
        }
        scopes.append(pageVars)
        return scopes
    }

    /// A fill found behind an element: its color, where it is from, and how sure that is.
    struct Behind {
        var color: StylesheetColor
        var what: String
        var confidence: UsageConfidence
    }

    /// What an element sits on: for text first its own state's and selector's other rules'
    /// fill, then its ancestors' (as its selector names them), then the page's. Transparent
    /// fills are looked through; an unknown one stops the search (what shows is not known).
    func behind(_ selector: StylesheetSelector, text: Bool, scopes: [[String: String]]) -> Behind? {
        var candidates: [(StylesheetSelector, String)] = []
        if text {
            // The same element's fill from another rule: its selector's, its resting state's, and
            // its own compound's alone (`.Box-header` for `.Box--danger .Box-header`).
            candidates.append((selector, "its other rule's"))
            if let resting = selector.restingState { candidates.append((resting, "its resting state \(resting.text.excerpt(40))'s")) }
            if let alone = selector.subjectAlone {
                candidates.append((alone, "\(alone.text.excerpt(40))'s"))
                if let resting = alone.restingState { candidates.append((resting, "\(resting.text.excerpt(40))'s")) }
            }
            if let leading = selector.leadingSimple { candidates.append((leading, "\(leading.text.excerpt(40))'s")) }
        }
        for ancestor in selector.ancestors {
            candidates.append((ancestor, "\(ancestor.text.excerpt(40))'s"))
            if let alone = ancestor.subjectAlone { candidates.append((alone, "\(alone.text.excerpt(40))'s")) }
        }
        for (candidate, how) in candidates {
            guard let placed = backgroundOf[candidate.text] else { continue }
            let color = fill(placed, scopes: self.scopes(of: candidate, own: [:]))
            switch color {
            case .clear, .notColor: continue
            default: return Behind(color: color, what: "\(how) \(placed.declaration.property) (line \(placed.declaration.line))", confidence: .usage)
            }
        }
        if let page = pageBackground, page.selector != selector.text || !text {
            // The page's fill is a convention: the stylesheet says what the page paints, not that
            // no container between the element and the page paints over it.
            let color = fill(page.placed, scopes: [pageVars])
            return Behind(color: color, what: "the page's background (\(page.selector)'s \(page.placed.declaration.property), line \(page.placed.declaration.line))",
                          confidence: selector.isPage ? .usage : .convention)
        }
        return nil
    }

    /// The color of a fill declaration.
    func fill(_ placed: Placed, scopes: [[String: String]]) -> StylesheetColor {
        let declarations = rules[placed.rule].declarations
        var vars: [String: String] = [:]
        for declaration in declarations where declaration.property.hasPrefix("--") { vars[String(declaration.property.dropFirst(2))] = declaration.value }
        return fillColor(placed.declaration, declarations: declarations, scopes: [vars] + scopes)
    }

    /// The color of a fill declaration among a rule's declarations: `none` (and a shorthand of
    /// no color) is no fill; an image drawn over it (`background-image`) makes it unknown.
    func fillColor(_ declaration: Declaration, declarations: [Declaration], scopes: [[String: String]]) -> StylesheetColor {
        if let image = declarations.last(where: { $0.property == "background-image" }), image.value.lowercased() != "none" {
            return .unresolved("background-image '\(image.value.excerpt(40))' (line \(image.line)) is drawn over the fill")
        }
        let color = resolver.colors(of: declaration.value, property: declaration.property, scopes: scopes).first ?? .clear("none")
        if color == .notColor || declaration.value.lowercased() == "none" { return .clear(declaration.value) }
        return color
    }

    /// An element's pairs: its text on its fill (or what is behind it), an inherited text color
    /// on its fill, its borders and outlines on what is behind it.
    mutating func readElement(label: String, declarations: [Declaration], selector: StylesheetSelector, scopes: [[String: String]], line: Int) {
        let color = declarations.last { $0.property == "color" }
        let background = declarations.last { Self.backgroundProperties.contains($0.property) }
        let fillColor = background.map { self.fillColor($0, declarations: declarations, scopes: scopes) }
        if let color {
            let foreground = resolver.colors(of: color.value, property: "color", scopes: scopes).first ?? .notColor
            if foreground.name == nil {
                notRead(line, "\(label): color \(Self.why(foreground, written: color.value))")
            } else if let fillColor, fillColor.name != nil, let background {
                propose(foreground, on: fillColor, usage: .text, confidence: .usage, line: line, what: "\(label): color on \(background.property)")
            } else if let fillColor, case .clear = fillColor {
                pairOnBehind(foreground, label: label, property: "color", selector: selector, scopes: scopes, line: line, text: true, note: " (its own \(background!.property) is transparent)")
            } else if let fillColor, let background {
                notRead(line, "\(label): color is not paired: its \(background.property) \(Self.why(fillColor, written: background.value))")
            } else {
                pairOnBehind(foreground, label: label, property: "color", selector: selector, scopes: scopes, line: line, text: true, note: "")
            }
        } else if let fillColor, let background {
            switch fillColor {
            case .token, .literal:
                // A fill under the text color the element inherits: an ancestor's, else the page's
                // (not for a pseudo-element, `::before` or a slider's thumb, which holds no text).
                guard !selector.text.contains("::"), let inherited = inheritedColor(selector) else { break }
                let foreground = resolver.colors(of: inherited.placed.declaration.value, property: "color", scopes: self.scopes(of: inherited.selector, own: [:])).first ?? .notColor
                if foreground.name != nil {
                    propose(foreground, on: fillColor, usage: .text, confidence: inherited.confidence, line: line,
                            what: "\(label): \(background.property) under \(inherited.what)")
                }
            case .clear, .notColor:
                break  // no fill: nothing is drawn on it here
            default:
                notRead(line, "\(label): \(background.property) \(Self.why(fillColor, written: background.value))")
            }
        }
        for declaration in declarations where Self.nonTextProperties.contains(declaration.property) {
            for part in resolver.colors(of: declaration.value, property: declaration.property, scopes: scopes) {
                switch part {
                case .token, .literal:
                    let what = declaration.property.hasPrefix("outline") ? "\(declaration.property) (a focus indicator)" : declaration.property
                    pairOnBehind(part, label: label, property: what, selector: selector, scopes: scopes, line: line, text: false, note: "", usage: .nonText)
                case .notColor: continue
                default: notRead(line, "\(label): \(declaration.property) \(Self.why(part, written: declaration.value))")
                }
            }
        }
    }

    /// The text color an element inherits: its nearest ancestor's (as its selector names them),
    /// else the page's.
    func inheritedColor(_ selector: StylesheetSelector) -> (selector: StylesheetSelector, placed: Placed, what: String, confidence: UsageConfidence)? {
        // The same element's color from another rule (its selector's, its resting state's, its
        // compound's alone and that one's resting state), then its ancestors'.
        var own = [selector]
        if let resting = selector.restingState { own.append(resting) }
        if let alone = selector.subjectAlone {
            own.append(alone)
            if let resting = alone.restingState { own.append(resting) }
        }
        if let leading = selector.leadingSimple { own.append(leading) }
        for candidate in own {
            if let placed = colorOf[candidate.text] {
                return (candidate, placed, "\(candidate.text.excerpt(40))'s color (line \(placed.declaration.line))", .usage)
            }
        }
        for ancestor in selector.ancestors {
            for candidate in [ancestor] + (ancestor.subjectAlone.map { [$0] } ?? []) {
                if let placed = colorOf[candidate.text] {
                    return (candidate, placed, "\(candidate.text.excerpt(40))'s color (line \(placed.declaration.line))", .usage)
                }
            }
        }
        if let page = pageColor, page.selector != selector.text {
            // The page's text color reaches the element unless a container between sets another:
            // a convention, as the page's fill is.
            return (StylesheetSelector(page.selector), page.placed, "the page's color (\(page.selector), line \(page.placed.declaration.line))", .convention)
        }
        return nil
    }

    mutating func pairOnBehind(_ foreground: StylesheetColor, label: String, property: String, selector: StylesheetSelector, scopes: [[String: String]],
                               line: Int, text: Bool, note: String, usage: ContrastUsage = .text) {
        guard let found = behind(selector, text: text, scopes: scopes) else {
            notRead(line, "\(label): \(property)\(note) has nothing behind it that this stylesheet paints (no fill on it, its ancestors or the page)")
            return
        }
        guard found.color.name != nil else {
            notRead(line, "\(label): \(property)\(note) is not paired: \(found.what) \(Self.why(found.color, written: ""))")
            return
        }
        propose(foreground, on: found.color, usage: usage, confidence: found.confidence, line: line, what: "\(label): \(property)\(note) on \(found.what)")
    }

    mutating func notRead(_ line: Int, _ what: String) {
        result.notRead.append(UsageEvidence(file: file, line: line, what: what))
    }

    static func why(_ color: StylesheetColor, written: String) -> String {
        switch color {
        case .clear(let text): return "is \(text.excerpt(40)), fully transparent: it draws nothing"
        case .keyword(let text): return "is \(text.excerpt(40)): its color is another property's or the parent's, not one this reader knows"
        case .unresolved(let why): return "is not known: \(why)"
        case .notColor: return "'\(written.excerpt(40))' is not a color"
        case .token(let name), .literal(let name): return "is \(name)"
        }
    }

    mutating func propose(_ foreground: StylesheetColor, on background: StylesheetColor, usage: ContrastUsage, confidence: UsageConfidence, line: Int, what: String) {
        guard let fg = foreground.name, let bg = background.name else { return }
        let evidence = UsageEvidence(file: file, line: line, what: what.excerpt(160))
        if let reason = reasonNotToPropose(fg, bg, foreground: foreground, background: background) {
            result.notRead.append(UsageEvidence(file: file, line: line, what: "\(what.excerpt(120)): \(reason.excerpt(200))"))
            return
        }
        let pair = UsagePair(foreground: fg, background: bg, usage: usage, evidence: evidence, confidence: confidence)
        let key = "\(fg)\u{0}\(bg)\u{0}\(usage)"
        if let at = kept[key] {
            if confidence < result.pairs[at].confidence { result.pairs[at] = pair }
        } else {
            kept[key] = result.pairs.count
            result.pairs.append(pair)
        }
    }

    /// ``UsageTokens/reasonNotToPropose(foreground:background:)``, except that two colors written
    /// in the stylesheet are a pair (a component draws them), unless they are one color or the
    /// fill is translucent over nothing known.
    func reasonNotToPropose(_ fg: String, _ bg: String, foreground: StylesheetColor, background: StylesheetColor) -> String? {
        if case .literal = foreground, case .literal = background {
            if fg == bg { return "\(fg) on itself" }
            if let parsed = try? CSSColor.parse(bg), parsed.color.alpha < 1 {
                return "\(bg) is translucent (alpha \(CSSNumber.format(parsed.color.alpha))) and nothing known is behind it"
            }
            return nil
        }
        return tokens.reasonNotToPropose(foreground: fg, background: bg)
    }
}
