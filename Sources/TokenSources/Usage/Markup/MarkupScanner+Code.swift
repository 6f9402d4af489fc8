/// The scanner's JavaScript side: code between markup, its string, template and regular
/// expression literals, and the class lists in them.
extension MarkupScanner {
    /// JavaScript from `i` until `closer` at its own level (then past it), or `end`. Literals
    /// go to `collector` (and to the collectors of class calls inside); a literal directly
    /// inside, first or after a comma, applies always when `unconditional`.
    mutating func code(end: Int, closer: UInt8?, collector: Int?, unconditional: Bool, jsx: Bool, depth: Int) {
        var nests: [Nest] = []
        previous = 0x28  // a literal first in an expression is first in its list
        while i < end {
            let c = b[i]
            if c == 0x0A { line += 1; i += 1; continue }
            if Self.isSpace(c) { i += 1; continue }
            if c == 0x2F /* / */ {
                if at(i + 1) == 0x2F { while i < end, b[i] != 0x0A { i += 1 }; continue }
                if at(i + 1) == 0x2A { skip(past: Array("*/".utf8)); continue }
                if Self.startsExpression(previous, lastIdentifier) { regex(end: end); previous = 0x41; continue }
                previous = c
                i += 1
                continue
            }
            let nest = nests.last
            let target = nest?.collector ?? collector
            let direct = (nest?.unconditional ?? unconditional) && (previous == 0x28 || previous == 0x2C || previous == 0x5B)
            if c == 0x22 || c == 0x27 {
                let start = i + 1
                var k = start
                while k < end, b[k] != c, b[k] != 0x0A { if b[k] == 0x5C { k += 1 }; k += 1 }
                let stop = min(k, end)
                if let target { literal(start: start, end: stop, to: target, nest: nest, direct: direct, dropFirst: false, dropLast: false) }
                i = min(stop + 1, end)
                // A string is a value, and may be a key (`"icon-xs": "…"`): kept short.
                lastIdentifier = Substring(decoding: b[start..<min(stop, start + 40)], as: UTF8.self)
                previous = 0x41
                continue
            }
            if c == 0x60 /* ` */ {
                guard !refuse(depth) else { return }
                template(end: end, to: target, nest: nest, direct: direct, jsx: jsx, depth: depth + 1)
                previous = 0x41
                continue
            }
            if c == 0x28 || c == 0x5B || c == 0x7B {
                guard nests.count < ReadBudget.maximumDepth else { _ = refuse(.max); return }
                let closing: UInt8 = c == 0x28 ? 0x29 : c == 0x5B ? 0x5D : 0x7D
                var next = Nest(closer: closing, collector: target, opened: false, unconditional: false)
                if c == 0x28, previous == 0x41, Self.classCalls.contains(String(lastIdentifier)) {
                    let name = String(lastIdentifier)
                    if Self.variantCalls.contains(name) || target == nil {
                        collectors.append(Collector(kind: Self.variantCalls.contains(name) ? .variants(name) : .call(name), line: line))
                        next.collector = collectors.count - 1
                        next.opened = true
                    }
                    next.unconditional = true
                } else if c == 0x5B, direct {
                    next.unconditional = true  // `cn(["a", "b"])`, `:class="['a', x && 'b']"`
                }
                nests.append(next)
                previous = c
                i += 1
                continue
            }
            if c == 0x29 || c == 0x5D || c == 0x7D {
                i += 1
                // A closer pops the innermost bracket whichever it is: a stray one in broken code
                // costs one level, never the scan.
                if let last = nests.popLast() {
                    if last.opened, let index = last.collector, index == collectors.count - 1 {
                        finish(collectors.removeLast(), enclosing: nil)
                    }
                    previous = 0x29
                    continue
                }
                if c == closer { return }
                previous = 0x29
                continue
            }
            if c == 0x3C /* < */ && jsx, let next = at(i + 1), Self.isLetter(next) || next == 0x3E,
               Self.startsExpression(previous, lastIdentifier) {
                guard !refuse(depth) else { return }
                element(jsx: true, braces: true, depth: depth + 1)
                previous = 0x29
                continue
            }
            if Self.isIdentifier(c) {
                let start = i
                while i < end, Self.isIdentifier(b[i]) { i += 1 }
                lastIdentifier = Substring(decoding: b[start..<i], as: UTF8.self)
                previous = 0x41
                continue
            }
            if c == 0x3A { key = previous == 0x41 ? lastIdentifier : nil }
            previous = c
            i += 1
        }
    }

    /// Whether a `/` or `<` after this is where an expression starts (a regular expression, a
    /// JSX element), not an operator after a value.
    static func startsExpression(_ previous: UInt8, _ identifier: Substring) -> Bool {
        if previous == 0x41 { return ["return", "yield", "case", "default", "do", "else", "typeof", "void", "in", "of", "await"].contains(identifier) }
        if previous == 0x29 || previous == 0x5D { return false }
        return true
    }

    /// A regular expression literal at `i` (`/`): past its closing `/` and flags.
    mutating func regex(end: Int) {
        i += 1
        var inClass = false
        while i < end, b[i] != 0x0A {
            let c = b[i]
            if c == 0x5C { i += 2; continue }
            if c == 0x5B { inClass = true } else if c == 0x5D { inClass = false } else if c == 0x2F && !inClass { i += 1; break }
            i += 1
        }
        while i < end, Self.isIdentifier(b[i]) { i += 1 }
    }

    /// A template literal at `i`: its text between `${…}` are class words (a word touching an
    /// interpolation is part of a name built at run time, not read), its expressions code.
    mutating func template(end: Int, to target: Int?, nest: Nest?, direct: Bool, jsx: Bool, depth: Int) {
        i += 1
        var start = i
        var startLine = line
        var afterInterpolation = false
        while i < end {
            let c = b[i]
            if c == 0x5C { if at(i + 1) == 0x0A { line += 1 }; i += 2; continue }
            if c == 0x0A { line += 1; i += 1; continue }
            if c == 0x60 {
                if let target { literal(start: start, end: i, line: startLine, to: target, nest: nest, direct: direct, dropFirst: afterInterpolation, dropLast: false) }
                i += 1
                return
            }
            if c == 0x24 && at(i + 1) == 0x7B {
                if let target { literal(start: start, end: i, line: startLine, to: target, nest: nest, direct: direct, dropFirst: afterInterpolation, dropLast: true) }
                i += 2
                code(end: end, closer: 0x7D, collector: target, unconditional: false, jsx: jsx, depth: depth + 1)
                start = i
                startLine = line
                afterInterpolation = true
                continue
            }
            i += 1
        }
    }

    /// A string literal for `target`: a cva's base, or a list on a condition, or always.
    mutating func literal(start: Int, end: Int, line: Int? = nil, to target: Int, nest: Nest?, direct: Bool, dropFirst: Bool, dropLast: Bool) {
        let literalLine = line ?? self.line
        var conditional = !direct
        var label: String?
        if case .variants(let call) = collectors[target].kind {
            let isBase = call == "tv" ? (previous == 0x3A && lastIdentifier == "base")
                : (!collectors[target].baseTaken && nest?.opened == true && previous == 0x28)
            if isBase { collectors[target].baseTaken = true }
            conditional = !isBase
            if !isBase && previous == 0x3A, let key { label = String(key) }
        }
        deliver(start: start, end: end, line: literalLine, to: target, conditional: conditional, dropFirst: dropFirst, dropLast: dropLast, label: label)
    }

    /// The words of `start..<end` into a collector: into its base, or as one more list.
    mutating func deliver(start: Int, end: Int, line startLine: Int, to target: Int, conditional: Bool, dropFirst: Bool, dropLast: Bool, label: String? = nil) {
        var words: [Word] = []
        var k = start
        var wordLine = startLine
        while k < end {
            while k < end, Self.isSpace(b[k]) { if b[k] == 0x0A { wordLine += 1 }; k += 1 }
            let wordStart = k
            while k < end, !Self.isSpace(b[k]) { k += 1 }
            guard k > wordStart else { break }
            if dropFirst && wordStart == start { continue }
            if dropLast && k == end { continue }
            // A word with a template's braces in it (Svelte's `class="a {x}"`) is not a class.
            if b[wordStart..<k].contains(where: { $0 == 0x7B || $0 == 0x7D || $0 == 0x22 || $0 == 0x27 }) { continue }
            words.append(Word(start: wordStart, end: k, line: wordLine))
        }
        guard !words.isEmpty else { return }
        if conditional {
            collectors[target].alternatives.append(words)
            collectors[target].labels.append(label)
        } else {
            collectors[target].base += words
        }
    }

    /// A call's or a cva's lists, read when the call ends: what it is drawn on is not known here.
    mutating func finish(_ collector: Collector, enclosing: [Frame]?) {
        _ = pairing.pairs(of: collector, in: b, enclosing: enclosing)
    }
}
