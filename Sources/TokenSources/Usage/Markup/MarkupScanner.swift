/// One markup or script file walked once for its class lists (see ``MarkupUsageReader``): the
/// elements of its HTML or JSX, each with the class lists of its `class`/`className` attributes,
/// and the string literals of `cn(…)`, `clsx(…)`, `cva(…)` and `tv(…)` calls. Each element's
/// lists are handed to ``MarkupPairing`` when its start tag ends, with the elements around it,
/// so that what it sits on is known from the enclosing ones.
///
/// It reads as much of JavaScript as finding those needs (strings, template literals,
/// comments, regular expressions, brackets, and where JSX starts), not its grammar: text in
/// JSX and HTML is never read as code, so an apostrophe in it does not start a string.
struct MarkupScanner {
    enum Dialect {
        /// HTML and the templates built on it (Vue, Svelte, Astro): markup at the top, code in
        /// `<script>` and, for templates, in `{…}`.
        case markup(templates: Bool)
        /// JavaScript or TypeScript with JSX.
        case jsx
        /// TypeScript without JSX (`<T>` is a type there).
        case script
    }

    /// A class-list word: a range of the file's bytes and its line.
    struct Word {
        var start: Int
        var end: Int
        var line: Int
    }

    /// The class lists of one element or one call.
    struct Collector {
        enum Kind {
            /// An element's `class`, `className`, `:class`, `class:x` attributes.
            case element(String)
            /// `cn(…)`, `clsx(…)` outside an element's class attribute.
            case call(String)
            /// `cva(base, { variants })`, `tv({ base, variants })`: each variant merged with the base.
            case variants(String)
        }
        var kind: Kind
        var line: Int
        /// The words every state has: an attribute's value, a call's unconditional arguments,
        /// a cva's base.
        var base: [Word] = []
        /// Lists that apply on a condition (`cond && "…"`, `{ "…": cond }`, a cva variant), each
        /// merged with the base.
        var alternatives: [[Word]] = []
        /// Each alternative's key, when it is an object property's value (`default` of a cva's
        /// `variant: { default: "…" }`), for the evidence.
        var labels: [String?] = []
        var baseTaken = false
    }

    /// An element whose start tag was read and whose end is not yet met.
    struct Frame {
        var name: String
        var line: Int
        var behind: MarkupPairing.Backgrounds
        /// The nearest frame, this one or one around it, whose background in light (dark)
        /// themes is its own: what is inside it sits on that one, found in one step however
        /// deep the markup.
        var nearestLight: Int?
        var nearestDark: Int?
    }

    /// A bracket open in code.
    struct Nest {
        var closer: UInt8
        /// The collector literals inside go to.
        var collector: Int?
        /// Whether this bracket opened the collector's call.
        var opened: Bool
        /// Whether a literal directly inside, first or after a comma, applies always.
        var unconditional: Bool
    }

    static let classCalls: Set<String> = ["cn", "clsx", "cx", "classnames", "classNames", "twMerge", "twJoin", "cva", "tv", "ctl"]
    static let variantCalls: Set<String> = ["cva", "tv"]
    static let closingReach = 64
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "!doctype"]

    let b: [UInt8]
    let dialect: Dialect
    var pairing: MarkupPairing
    var i = 0
    var line = 1
    var collectors: [Collector] = []
    var frames: [Frame] = []
    var tooDeep = false
    /// The last significant byte in code (`A` after an identifier), and the identifier.
    var previous: UInt8 = 0
    var lastIdentifier: Substring = ""
    /// The identifier or string before the last `:` in code: an object property's key.
    var key: Substring?

    init(bytes: [UInt8], dialect: Dialect, pairing: MarkupPairing) {
        b = bytes
        self.dialect = dialect
        self.pairing = pairing
    }

    mutating func scan() {
        switch dialect {
        case .markup(let templates): markup(stop: nil, jsx: false, braces: templates, depth: 0)
        case .jsx: code(end: b.count, closer: nil, collector: nil, unconditional: false, jsx: true, depth: 0)
        case .script: code(end: b.count, closer: nil, collector: nil, unconditional: false, jsx: false, depth: 0)
        }
        // Calls left open at the file's end are still read.
        while !collectors.isEmpty { finish(collectors.removeLast(), enclosing: nil) }
    }

    func at(_ offset: Int) -> UInt8? { offset < b.count ? b[offset] : nil }

    static func isIdentifier(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x24 || c >= 0x80
    }

    static func isLetter(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }

    /// Whether nesting this deep is refused (once, with a note): the scan then ends.
    mutating func refuse(_ depth: Int) -> Bool {
        guard depth > ReadBudget.maximumDepth else { return false }
        if !tooDeep {
            tooDeep = true
            pairing.note(line: line, "the file nests elements, brackets or template literals deeper than \(ReadBudget.maximumDepth) levels here: the rest of it is not read")
        }
        i = b.count
        return true
    }

    /// Past `\n`s in `range`, counting lines.
    mutating func advance(to end: Int) {
        while i < end {
            if b[i] == 0x0A { line += 1 }
            i += 1
        }
    }

    /// Past the first `marker` from `i` (the file's end when there is none).
    mutating func skip(past marker: [UInt8]) {
        while i < b.count {
            if b[i] == marker[0], i + marker.count <= b.count, Array(b[i..<(i + marker.count)]) == marker {
                advance(to: i + marker.count)
                return
            }
            if b[i] == 0x0A { line += 1 }
            i += 1
        }
    }

    // MARK: Markup

    /// HTML text, or a JSX element's children: tags, closing tags, comments and `{…}`
    /// expressions, until the element at `stop` frames closes (or the file ends).
    mutating func markup(stop: Int?, jsx: Bool, braces: Bool, depth: Int) {
        while i < b.count {
            let c = b[i]
            if c == 0x0A { line += 1; i += 1; continue }
            if c == 0x3C /* < */ {
                if at(i + 1) == 0x21 /* ! */ {
                    if at(i + 2) == 0x2D && at(i + 3) == 0x2D { skip(past: Array("-->".utf8)) } else { skip(past: [0x3E]) }
                    continue
                }
                if at(i + 1) == 0x2F /* / */ {
                    i += 2
                    let start = i
                    while i < b.count, b[i] != 0x3E, !Self.isSpace(b[i]) { i += 1 }
                    let name = String(decoding: b[start..<i], as: UTF8.self)
                    skip(past: [0x3E])
                    close(name, jsx: jsx)
                    if let stop, frames.count <= stop { return }
                    continue
                }
                if let next = at(i + 1), Self.isLetter(next) || (jsx && next == 0x3E) {
                    guard !refuse(depth) else { return }
                    element(jsx: jsx, braces: braces, depth: depth + 1)
                    continue
                }
            }
            if c == 0x7B /* { */ && (jsx || braces) {
                guard !refuse(depth) else { return }
                i += 1
                code(end: b.count, closer: 0x7D, collector: nil, unconditional: false, jsx: jsx, depth: depth + 1)
                continue
            }
            i += 1
        }
    }

    /// A closing tag: the frames down to the nearest one of its name are closed (HTML leaves
    /// some open); one of no open element is passed over.
    mutating func close(_ name: String, jsx: Bool) {
        // HTML closes a few elements it leaves open (`<p>`, `<li>`), never hundreds: a closing
        // tag looks that far down, so that stray ones cost a constant each.
        let lowered = name.lowercased()
        let lowest = max(0, frames.count - Self.closingReach)
        guard let k = frames[lowest...].lastIndex(where: { jsx ? $0.name == name : $0.name.lowercased() == lowered }) else { return }
        frames.removeSubrange(k...)
    }

    /// A start tag at `i` (`<`): its attributes, its class lists paired, then its children
    /// when in JSX (in HTML the caller's loop reads on).
    mutating func element(jsx: Bool, braces: Bool, depth: Int) {
        let tagLine = line
        i += 1
        let nameStart = i
        while i < b.count, !Self.isSpace(b[i]), b[i] != 0x3E, b[i] != 0x2F, b[i] != 0x7B { i += 1 }
        let name = String(decoding: b[nameStart..<i], as: UTF8.self)
        let collector = collectors.count
        collectors.append(Collector(kind: .element(name), line: tagLine))
        var selfClosing = false
        // The `style` attribute's text: custom properties it sets change what the element's
        // utilities that read them draw.
        var styled: [Range<Int>] = []
        attributes: while i < b.count {
            let c = b[i]
            if Self.isSpace(c) { if c == 0x0A { line += 1 }; i += 1; continue }
            if c == 0x3E { i += 1; break }
            if c == 0x2F && at(i + 1) == 0x3E { i += 2; selfClosing = true; break }
            if c == 0x7B {
                // `{...props}` (JSX), `{attr}` (Svelte).
                i += 1
                code(end: b.count, closer: 0x7D, collector: nil, unconditional: false, jsx: jsx, depth: depth + 1)
                continue
            }
            let attrStart = i
            while i < b.count, !Self.isSpace(b[i]), b[i] != 0x3D, b[i] != 0x3E, b[i] != 0x7B, b[i] != 0x22, b[i] != 0x27,
                  !(b[i] == 0x2F && at(i + 1) == 0x3E) { i += 1 }
            if i == attrStart { i += 1; continue }
            let attribute = String(decoding: b[attrStart..<i], as: UTF8.self)
            let kind = Self.classAttribute(attribute)
            if kind == .directive {
                // Svelte's `class:NAME`: the class NAME, on a condition.
                collectors[collector].alternatives.append([Word(start: attrStart + "class:".utf8.count, end: i, line: line)])
                collectors[collector].labels.append(nil)
            }
            var look = i
            while look < b.count, Self.isSpace(b[look]) { look += 1 }
            guard look < b.count, b[look] == 0x3D else { continue attributes }
            advance(to: look + 1)
            while i < b.count, Self.isSpace(b[i]) { if b[i] == 0x0A { line += 1 }; i += 1 }
            guard i < b.count else { break }
            let quote = b[i]
            if quote == 0x22 || quote == 0x27 {
                let valueLine = line
                let start = i + 1
                var end = start
                while end < b.count, b[end] != quote { end += 1 }
                switch kind {
                case .list?: deliver(start: start, end: end, line: valueLine, to: collector, conditional: false, dropFirst: false, dropLast: false)
                case .expression?:
                    i = start
                    code(end: end, closer: nil, collector: collector, unconditional: true, jsx: false, depth: depth + 1)
                case .directive?, nil: break
                }
                if attribute == "style" { styled.append(start..<end) }
                advance(to: min(end + 1, b.count))
            } else if quote == 0x7B {
                i += 1
                switch kind {
                case .list?, .expression?: code(end: b.count, closer: 0x7D, collector: collector, unconditional: true, jsx: jsx, depth: depth + 1)
                case .directive?, nil:
                    let start = i
                    code(end: b.count, closer: 0x7D, collector: nil, unconditional: false, jsx: jsx, depth: depth + 1)
                    if attribute == "style" { styled.append(start..<i) }
                }
            } else {
                let start = i
                while i < b.count, !Self.isSpace(b[i]), b[i] != 0x3E { i += 1 }
                if case .list? = kind { deliver(start: start, end: i, line: line, to: collector, conditional: false, dropFirst: false, dropLast: false) }
            }
        }
        // Collectors opened inside the tag and left open (a broken attribute) end with it.
        while collectors.count > collector + 1 { finish(collectors.removeLast(), enclosing: nil) }
        let own = collectors.removeLast()
        let behind = pairing.pairs(of: own, in: b, enclosing: frames, overridden: Self.customProperties(in: styled, of: b))
        let lowered = name.lowercased()
        if !jsx {
            if lowered == "script" && !selfClosing {
                let start = i
                let end = Self.find(Array("</script".utf8), in: b, from: start) ?? b.count
                code(end: end, closer: nil, collector: nil, unconditional: false, jsx: false, depth: depth + 1)
                if i < end { advance(to: end) }
                skip(past: [0x3E])
                return
            }
            if lowered == "style" && !selfClosing {
                skip(past: Array("</style".utf8))
                skip(past: [0x3E])
                return
            }
            if selfClosing || Self.voidElements.contains(lowered) { return }
            push(Frame(name: name, line: tagLine, behind: behind))
            return
        }
        guard !selfClosing else { return }
        push(Frame(name: name, line: tagLine, behind: behind))
        markup(stop: frames.count - 1, jsx: true, braces: true, depth: depth + 1)
    }

    /// The custom properties (`--color-bg`, without `--`) that `ranges` of a style attribute name.
    static func customProperties(in ranges: [Range<Int>], of b: [UInt8]) -> Set<String> {
        var names: Set<String> = []
        for range in ranges {
            var k = range.lowerBound
            while k + 2 < range.upperBound {
                if b[k] == 0x2D && b[k + 1] == 0x2D && (k == range.lowerBound || !isIdentifier(b[k - 1]) && b[k - 1] != 0x2D) {
                    var e = k + 2
                    while e < range.upperBound, isIdentifier(b[e]) || b[e] == 0x2D { e += 1 }
                    if e > k + 2 { names.insert(String(decoding: b[(k + 2)..<e], as: UTF8.self)) }
                    k = e
                    continue
                }
                k += 1
            }
        }
        return names
    }

    mutating func push(_ frame: Frame) {
        var frame = frame
        if case .inherit = frame.behind.light { frame.nearestLight = frames.last?.nearestLight } else { frame.nearestLight = frames.count }
        if case .inherit = frame.behind.dark { frame.nearestDark = frames.last?.nearestDark } else { frame.nearestDark = frames.count }
        frames.append(frame)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var k = start
        while k + needle.count <= haystack.count {
            if haystack[k] == needle[0] || haystack[k] == needle[0] ^ 0x20 {
                var match = true
                for n in 1..<needle.count where haystack[k + n] | 0x20 != needle[n] | 0x20 { match = false; break }
                if match { return k }
            }
            k += 1
        }
        return nil
    }

    enum ClassAttribute: Equatable {
        /// `class="…"`, `className="…"` (a JSX `{…}` value is an expression).
        case list
        /// Vue's `:class="…"`, `v-bind:class`, Angular's `[ngClass]`, `[class]`, Astro's `class:list`.
        case expression
        /// Svelte's `class:NAME={cond}`: the class NAME on a condition.
        case directive
    }

    static func classAttribute(_ name: String) -> ClassAttribute? {
        switch name {
        case "class", "className": return .list
        case ":class", "v-bind:class", "[ngClass]", "[class]", "class:list", ":className": return .expression
        default:
            if name.hasPrefix("class:") && name.count > "class:".count { return .directive }
            return nil
        }
    }
}
