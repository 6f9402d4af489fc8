import ColorScience

/// The pairs of one file's class lists (see ``MarkupUsageReader``): for each list, in each
/// state its variants name, the text and non-text colors on the background they are drawn on.
struct MarkupPairing {
    /// What an element draws behind what is inside it, in one scheme.
    enum Behind {
        /// Nothing of its own (no `bg-`, or `bg-transparent`): what is behind it shows.
        case inherit
        case color(name: String, word: String, line: Int)
        case unknown(String)
    }

    /// An element's backgrounds, in light and in dark themes.
    struct Backgrounds {
        var light: Behind
        var dark: Behind
        static let inherit = Backgrounds(light: .inherit, dark: .inherit)
    }

    /// Where a utility applies: in dark themes only or in all, and in which state.
    struct StateKey: Hashable {
        var dark: Bool
        var state: String
    }

    /// One list's color utilities by role and state (the last of a role and state wins, as
    /// one of two classes setting one property does in a stylesheet of one order).
    struct Parsed {
        var map: [TailwindUtility.Role: [StateKey: TailwindUtility]] = [:]
        var keys: [StateKey] = []
        var known: Set<StateKey> = []
    }

    static let pseudoElements: [Substring] = ["before", "after", "backdrop"]
    static let foregroundRoles: [TailwindUtility.Role] = [.text, .border, .ring, .outline, .divide]

    let file: String
    let tokens: UsageTokens
    let theme: TailwindTheme
    var read = UsageRead()
    private var seenPairs: Set<String> = []
    private var seenNotes: Set<String> = []

    /// The names of the themes read in a dark scheme, and of the others, in the order read. A
    /// theme is dark when the stylesheet says so (`color-scheme: dark`) or its name does (the
    /// `.dark` class, which Tailwind's `dark:` variant selects: shadcn's `@custom-variant dark
    /// (&:is(.dark *))`).
    let darkThemes: [String]
    let lightThemes: [String]

    init(file: String, tokens: UsageTokens) {
        self.file = file
        self.tokens = tokens
        theme = TailwindTheme(tokens: tokens)
        var dark: [String] = [], light: [String] = [], seen: Set<String> = []
        for theme in tokens.themes where seen.insert(theme.theme).inserted {
            if theme.scheme == .dark || theme.theme.lowercased().contains("dark") { dark.append(theme.theme) } else { light.append(theme.theme) }
        }
        darkThemes = dark
        lightThemes = light
    }

    /// A note of something met and not paired, once per line and text.
    mutating func note(line: Int, _ what: String) {
        if seenNotes.insert("\(line)\u{0}\(what)").inserted { read.notRead.append(UsageEvidence(file: file, line: line, what: what)) }
    }

    /// The pairs of `collector`'s lists (its base, and each of its other lists merged with the
    /// base), drawn inside `enclosing` (nil: not on an element of this file); returns what the
    /// element draws behind its children. (The file's bytes are passed, never a closure over the
    /// scanner: one would copy the scanner and with it this pairing's growing read at each call.)
    @discardableResult
    mutating func pairs(of collector: MarkupScanner.Collector, in bytes: [UInt8], enclosing: [MarkupScanner.Frame]?,
                        overridden: Set<String> = []) -> Backgrounds {
        guard !collector.base.isEmpty || !collector.alternatives.isEmpty else { return .inherit }
        // How the evidence names the list: an element's needs nothing more than its line.
        let baseSource: String, source: String
        var call = ""
        switch collector.kind {
        case .element: (baseSource, source) = ("", "")
        case .call(let name): (baseSource, source) = (" in \(name)(…)", " in \(name)(…)")
        case .variants(let name): (baseSource, source, call) = (" in a \(name)(…) base", " in a \(name)(…) variant with its base", name)
        }
        let base = parse(collector.base, in: bytes, overridden: overridden, line: collector.line)
        var failures: [(key: String, line: Int, what: String)] = []
        var paired: Set<String> = []
        var context = PassContext(source: baseSource, enclosing: enclosing)
        pass(base, over: nil, context: context, failures: &failures, paired: &paired)
        var conditionalBackground: TailwindUtility?
        for (index, list) in collector.alternatives.enumerated() {
            let label = index < collector.labels.count ? collector.labels[index] : nil
            context.source = call.isEmpty || label == nil ? source : " in the \(call)(…) variant \(label!.excerpt(40)) with its base"
            let alternative = parse(list, in: bytes, overridden: overridden, line: collector.line)
            for key in [StateKey(dark: false, state: ""), StateKey(dark: true, state: "")] {
                if let background = alternative.map[.background]?[key], conditionalBackground == nil { conditionalBackground = background }
            }
            pass(alternative, over: base, context: context, failures: &failures, paired: &paired)
        }
        // One note per class that no list of the collector paired: the first reason met.
        var reported: Set<String> = []
        for failure in failures where !paired.contains(failure.key) && reported.insert(failure.key).inserted { note(line: failure.line, failure.what) }
        guard case .element = collector.kind else { return .inherit }
        if let conditional = conditionalBackground {
            let why = "its background is set on a condition (\(conditional.word.excerpt(60)), line \(conditional.line))"
            return Backgrounds(light: .unknown(why), dark: .unknown(why))
        }
        func behind(_ dark: Bool) -> Behind {
            guard let (background, _, _) = resolve(.background, StateKey(dark: dark, state: ""), in: base, over: nil) else { return .inherit }
            return Self.behind(background)
        }
        return Backgrounds(light: behind(false), dark: behind(true))
    }

    /// What tells two backgrounds apart: the token, or why it is not known.
    static func identity(_ behind: Behind?) -> String {
        switch behind {
        case .color(let name, _, _)?: name
        case .unknown(let why)?: "?" + why
        case .inherit?, nil: ""
        }
    }

    static func behind(_ background: TailwindUtility) -> Behind {
        if background.opacity != nil { return .unknown("\(background.word.excerpt(60)) (line \(background.line)) is translucent") }
        switch background.color {
        case .transparent: return .inherit
        case .unknown(let why): return .unknown("\(background.word.excerpt(60)) (line \(background.line)): \(why)")
        case .token(let name), .written(let name): return .color(name: name, word: background.word, line: background.line)
        }
    }

    /// A list's color utilities; what of them is never paired is noted here, once.
    mutating func parse(_ words: [MarkupScanner.Word], in bytes: [UInt8], overridden: Set<String>, line: Int) -> Parsed {
        var parsed = Parsed()
        for word in words {
            guard var utility = TailwindUtility.parse(Substring(decoding: bytes[word.start..<word.end], as: UTF8.self), line: word.line, theme: theme) else { continue }
            // `style="--color-bg: …"` on the element: what the utility reads there is not the palette's.
            if case .token(let name) = utility.color, overridden.contains(name) || overridden.contains("color-" + name) {
                utility.color = .unknown("the element's style attribute (line \(line)) sets --\(overridden.contains(name) ? name : "color-" + name), so its color there is not the palette's")
            }
            let shown = utility.word.excerpt(60)
            if let variant = utility.disabledVariant {
                note(line: utility.line, "\(shown): the \(variant.excerpt(40)) state, which WCAG exempts (inactive components, SC 1.4.3 and 1.4.11): never proposed")
                continue
            }
            if utility.role == .other {
                note(line: utility.line, "\(shown): a color the markup reader pairs with nothing (it pairs bg-, text-, border-, ring-, outline- and divide- colors)")
                continue
            }
            if case .unknown(let why) = utility.color {
                note(line: utility.line, "\(shown): \(why)")
                // An unknown background still hides what is behind it; an unknown foreground is
                // no color to pair.
                guard utility.role == .background else { continue }
            }
            if let opacity = utility.opacity, utility.color != .transparent {
                if utility.role == .background {
                    note(line: utility.line, "\(shown): a translucent background (/\(opacity.excerpt(20))): a check of two tokens would measure it opaque, and what the text on it is measured against is not known, so nothing is paired on it")
                } else {
                    note(line: utility.line, "\(shown): a translucent color (/\(opacity.excerpt(20))): a check of two tokens would measure it opaque, so it is not paired")
                    continue
                }
            }
            let key = StateKey(dark: utility.dark, state: utility.state)
            if parsed.known.insert(key).inserted { parsed.keys.append(key) }
            parsed.map[utility.role, default: [:]][key] = utility
        }
        return parsed
    }

    struct PassContext {
        var source: String
        var enclosing: [MarkupScanner.Frame]?
    }

    /// The utility of `role` that applies in state `key`: the list's own for that state, else
    /// for it in light themes, else the resting one of its scheme, else the resting one; in
    /// `own` before `base`. With the state it was written for and whether it is `own`'s.
    func resolve(_ role: TailwindUtility.Role, _ key: StateKey, in own: Parsed, over base: Parsed?) -> (TailwindUtility, StateKey, Bool)? {
        var chain = [key]
        if key.dark { chain.append(StateKey(dark: false, state: key.state)) }
        // A pseudo-element (`before:`, `after:`, `backdrop:`) is a box of its own: the
        // element's resting colors are not drawn on it, nor its on them.
        if !key.state.isEmpty && !Self.pseudoElements.contains(where: { key.state.split(separator: ":").contains($0) }) {
            chain.append(StateKey(dark: key.dark, state: ""))
            if key.dark { chain.append(StateKey(dark: false, state: "")) }
        }
        for step in chain {
            if let found = own.map[role]?[step] { return (found, step, true) }
            if let found = base?.map[role]?[step] { return (found, step, false) }
        }
        return nil
    }

    /// The pairs of each state `own` names (merged over `base`): each foreground on the
    /// background it is drawn on there.
    mutating func pass(_ own: Parsed, over base: Parsed?, context: PassContext, failures: inout [(key: String, line: Int, what: String)], paired: inout Set<String>) {
        for key in own.keys {
            let background = resolve(.background, key, in: own, over: base)
            for role in Self.foregroundRoles {
                guard let (foreground, fgKey, fgOwn) = resolve(role, key, in: own, over: base) else { continue }
                // The pair belongs to this state when one of its sides is written for it.
                let bgHere = background.map { $0.2 && $0.1 == key } ?? false
                guard (fgOwn && fgKey == key) || bgHere else { continue }
                // A pair of light themes only, when a `dark:` class of the list replaces one of
                // its sides in dark ones.
                // A `dark:` class that sets what the other scheme has (`bg-primary
                // dark:bg-primary`) replaces nothing: that pair is drawn in every theme, once.
                func same(_ a: TailwindUtility?, _ b: TailwindUtility?) -> Bool { a?.color == b?.color && a?.opacity == b?.opacity }
                let other = StateKey(dark: !key.dark, state: key.state)
                let otherForeground = resolve(role, other, in: own, over: base)?.0
                let otherBackground = resolve(.background, other, in: own, over: base)?.0
                let differs = !same(otherForeground, foreground) || !same(otherBackground, background?.0)
                if key.dark && !differs { continue }
                let lightOnly = !key.dark && differs
                pair(foreground, role: role, background: background?.0, key: key, lightOnly: lightOnly, context: context, failures: &failures, paired: &paired)
            }
        }
    }

    mutating func pair(_ foreground: TailwindUtility, role: TailwindUtility.Role, background own: TailwindUtility?, key: StateKey, lightOnly: Bool,
                       context: PassContext, failures: inout [(key: String, line: Int, what: String)], paired: inout Set<String>) {
        let fgID = "\(foreground.line)\u{0}\(foreground.word)"
        guard foreground.opacity == nil else { return }  // noted when parsed
        let fgName: String
        switch foreground.color {
        case .token(let name), .written(let name): fgName = name
        case .transparent, .unknown: return  // draws nothing; noted when parsed
        }
        let fgShown = foreground.word.excerpt(60)
        var states = ""
        if !key.state.isEmpty { states += ", in the \(key.state.excerpt(40)) state" }
        if key.dark { states += ", in dark themes (dark:)" }
        if lightOnly { states += ", in light themes (a dark: class replaces it in dark ones)" }
        func fail(_ why: String) {
            failures.append((fgID, foreground.line, "\(fgShown)\(states)\(context.source): \(why)"))
        }
        // Text sits on its element's own fill; a border, ring or outline is drawn at its edge
        // or outside it, on what the element sits on; dividers are drawn inside it.
        var behind: Behind = .inherit
        var bgWord = "", bgLine = foreground.line, whose = ""
        if role == .text || role == .divide, let own {
            behind = Self.behind(own)
            if case .unknown = behind, own.opacity != nil { return }  // the translucent background is noted
            if case .color(_, let word, let line) = behind { bgWord = word; bgLine = line }
        }
        if case .inherit = behind {
            guard let frames = context.enclosing else {
                fail("not on an element of this file (a class list of a call): what it is drawn on is set where it is used")
                return
            }
            // An enclosing background that a `dark:` class changes: a pair in light themes on
            // the one, and in dark themes on the other.
            if !key.dark && !lightOnly, let last = frames.last,
               Self.identity(last.nearestLight.map { frames[$0].behind.light }) != Self.identity(last.nearestDark.map { frames[$0].behind.dark }) {
                pair(foreground, role: role, background: own, key: key, lightOnly: true, context: context, failures: &failures, paired: &paired)
                pair(foreground, role: role, background: own, key: StateKey(dark: true, state: key.state), lightOnly: false, context: context, failures: &failures, paired: &paired)
                return
            }
            guard let nearest = key.dark ? frames.last?.nearestDark : frames.last?.nearestLight else {
                let what = role == .text || role == .divide ? "its class list has no bg- and no" : "it is drawn on what its element sits on, and no"
                fail("\(what) enclosing element of this file has a background (it is set where the component is used)")
                return
            }
            let frame = frames[nearest]
            behind = key.dark ? frame.behind.dark : frame.behind.light
            whose = " of the enclosing <\(frame.name.excerpt(40))> (line \(frame.line))"
            if case .color(_, let word, _) = behind { bgWord = word }
        }
        let bgName: String
        switch behind {
        case .color(let name, _, _): bgName = name
        case .unknown(let why):
            fail("the background it is drawn on is not known: \(why)")
            return
        case .inherit: return
        }
        if let reason = tokens.reasonNotToPropose(foreground: fgName, background: bgName) {
            fail("on \(bgWord.excerpt(60))\(whose): \(reason)")
            return
        }
        var themes: [String]?
        if key.dark || lightOnly {
            themes = key.dark ? darkThemes : lightThemes
            guard themes?.isEmpty == false else {
                fail("on \(bgWord.excerpt(60))\(whose): it is drawn in \(key.dark ? "dark" : "light") themes only, and the palettes read have none")
                return
            }
        }
        paired.insert(fgID)
        let usage: ContrastUsage = role == .text ? .text : .nonText
        guard seenPairs.insert("\(fgName)\u{0}\(bgName)\u{0}\(usage.name)\u{0}\(themes?.joined(separator: ",") ?? "")").inserted else { return }
        let what = "\(fgShown) on \(bgWord.excerpt(60))\(whose)\(states)\(context.source)"
        read.pairs.append(UsagePair(foreground: fgName, background: bgName, usage: usage,
                                    evidence: UsageEvidence(file: file, line: max(foreground.line, bgLine), what: what), confidence: .usage, themes: themes))
    }
}
