import ColorScience

/// `@custom-media` (Media Queries 5, §11): the named queries an `@media` may use, replaced by their
/// definitions before the query is read as a theme.
extension StylesheetReader {
    /// The most custom media queries one query goes through, nested (`--xs-phone` naming
    /// `--xs-only` and `--portrait`), before its block is not read.
    static let maximumCustomMediaDepth = 32

    /// Why a custom media query could not be replaced.
    enum CustomMediaFailure: Error {
        /// The name is not defined in the stylesheet.
        case undefined(String)
        /// The names, from the first to the one that names it again.
        case cycle([String])
        case tooDeep(String)
        /// Defined as `false`: its blocks never apply.
        case never(String)
        /// The read's budget ran out.
        case stopped
    }

    /// Records every `@custom-media --name query;` at the stylesheet's top level (one pass over
    /// its tokens); a definition without a `--name` is a warning.
    mutating func collectCustomMedia() {
        var depth = 0
        var i = 0
        while i < tokens.count, !stopped {
            let t = tokens[i]
            switch t.kind {
            case .leftBrace: depth += 1
            case .rightBrace: depth = max(0, depth - 1)
            case .atKeyword where depth == 0 && text(t.offset + 1..<t.end).lowercased() == "custom-media":
                index = i + 1
                skipWhitespace()
                let name = current.flatMap { $0.kind == .ident ? text($0.offset..<$0.end) : nil }
                let at = current?.offset ?? t.offset
                let range = prelude()
                let all = text(range).cssTrimmed
                guard spend(all.utf8.count, bytes: all.utf8.count, on: "@custom-media \(all.prefix(40))", at: t.offset) else { return }
                if let name, name.hasPrefix("--"), name.count > 2, current?.kind == .semicolon {
                    let query = Self.collapse(String(all.dropFirst(name.count)))
                    customMedia[name] = CustomMedia(query: query, file: file, location: location(at))
                } else {
                    problems.append(PaletteProblem(.unsupportedProperty, "@custom-media \(all.prefix(60)) is not a definition like @custom-media --name (query); not read",
                                                   file: file, location: location(t.offset), severity: .warning))
                }
                i = max(index, i + 1)
                continue
            default: break
            }
            i += 1
        }
    }

    /// An `@media` prelude with the custom media queries it names replaced, or why they could
    /// not be.
    mutating func mediaQuery(_ written: String, at offset: Int) -> MediaQuery {
        guard written.contains("--") else { return MediaQuery(written: written, expanded: written) }
        switch expandCustomMedia(in: written, chain: [], at: offset) {
        case .success(let expanded):
            return MediaQuery(written: written, expanded: Self.collapse(expanded))
        case .failure(let failure):
            let reason: String
            switch failure {
            case .undefined(let name):
                // `@media (--OSdark)` names the query it uses; a longer query says which one.
                let named = written.replacing(" ", with: "") == "(\(name.excerpt(60)))" ? "" : " \(name.excerpt(60)),"
                reason = "@media \(written.excerpt()) uses\(named) a custom media query defined elsewhere (not found in this stylesheet or those it imports)"
            case .cycle(let names):
                reason = "@media \(written.excerpt()) uses \(names[0].excerpt(60)), a custom media query defined in terms of itself (\(names.joined(separator: " → ").excerpt()))"
            case .tooDeep(let name):
                reason = "@media \(written.excerpt()) goes through more than \(Self.maximumCustomMediaDepth) custom media queries, nested (at \(name.excerpt(60)))"
            case .never(let name):
                reason = "@media \(written.excerpt()) never applies (\(name.excerpt(60)) is defined as false)"
            case .stopped:
                reason = "the read was stopped"
            }
            return MediaQuery(written: written, expanded: nil, failure: reason)
        }
    }

    /// `query` with each `(--name)` replaced by that custom media query's own query (itself
    /// replaced, once per name). What replacing builds is spent from the read's budget.
    mutating func expandCustomMedia(in query: String, chain: [String], at offset: Int) -> Result<String, CustomMediaFailure> {
        var out = ""
        var rest = Substring(query)
        while let open = rest.firstIndex(of: "(") {
            out += rest[..<open]
            var i = rest.index(after: open)
            while i < rest.endIndex, rest[i].isWhitespace { i = rest.index(after: i) }
            var j = i
            while j < rest.endIndex, rest[j].isLetter || rest[j].isNumber || rest[j] == "-" || rest[j] == "_" || rest[j].unicodeScalars.first.map({ $0.value >= 0x80 }) == true {
                j = rest.index(after: j)
            }
            var k = j
            while k < rest.endIndex, rest[k].isWhitespace { k = rest.index(after: k) }
            let name = String(rest[i..<j])
            guard name.hasPrefix("--"), name.count > 2, k < rest.endIndex, rest[k] == ")" else {
                out += "("
                rest = rest[rest.index(after: open)...]
                continue
            }
            switch customMediaQuery(name, chain: chain, at: offset) {
            case .success(let replaced):
                guard spend(1 + replaced.utf8.count, bytes: replaced.utf8.count, on: "the custom media query \(name)", at: offset) else {
                    return .failure(.stopped)
                }
                out += replaced
            case .failure(let failure):
                return .failure(failure)
            }
            rest = rest[rest.index(after: k)...]
        }
        out += rest
        return .success(out)
    }

    /// The `--name`s a query names as `(--name)`.
    static func namedQueries(_ query: String) -> [String] {
        var names: [String] = []
        var rest = Substring(query)
        while let open = rest.firstIndex(of: "(") {
            let inner = rest[rest.index(after: open)...].drop { $0.isWhitespace }
            let name = inner.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0.unicodeScalars.first.map({ $0.value >= 0x80 }) == true }
            if name.hasPrefix("--"), name.count > 2, inner[name.endIndex...].drop(while: { $0.isWhitespace }).first == ")" { names.append(String(name)) }
            rest = rest[rest.index(after: open)...]
        }
        return names
    }

    /// How many custom media queries deep `name` nests, itself included (0 when undefined; a
    /// cycle's link back is not counted: the expansion reports the cycle), at most one past
    /// ``maximumCustomMediaDepth``. Worked out once per name, without recursion, so a chain
    /// deeper than the limit is refused in one step from every `@media` that names it (each
    /// walked it again: a 681 KB stylesheet took minutes).
    mutating func customMediaHeight(_ start: String) -> Int {
        if let known = customMediaHeights[start] { return known }
        let cap = Self.maximumCustomMediaDepth + 1
        var stack: [(name: String, children: [String], next: Int, height: Int)] = []
        var onStack: Set<String> = []
        guard let first = customMedia[start] else { return 0 }
        stack.append((start, Self.namedQueries(first.query), 0, 1))
        onStack.insert(start)
        while let top = stack.last {
            let last = stack.count - 1
            if top.next < top.children.count {
                let child = top.children[top.next]
                stack[last].next += 1
                if let known = customMediaHeights[child] {
                    stack[last].height = max(top.height, min(cap, 1 + known))
                    continue
                }
                guard !onStack.contains(child), let definition = customMedia[child] else { continue }
                guard spend(1, on: "the custom media query \(child)", at: 0) else { return cap }
                stack.append((child, Self.namedQueries(definition.query), 0, 1))
                onStack.insert(child)
            } else {
                stack.removeLast()
                onStack.remove(top.name)
                customMediaHeights[top.name] = top.height
                if let parent = stack.indices.last { stack[parent].height = max(stack[parent].height, min(cap, 1 + top.height)) }
            }
        }
        return customMediaHeights[start] ?? 0
    }

    /// A custom media query's own query, replaced (memoized).
    mutating func customMediaQuery(_ name: String, chain: [String], at offset: Int) -> Result<String, CustomMediaFailure> {
        if let known = expandedCustomMedia[name] { return known }
        if chain.isEmpty {
            if customMediaHeight(name) > Self.maximumCustomMediaDepth {
                // Said at the query where the limit is passed: down the deepest branch.
                var at = name
                for _ in 0..<Self.maximumCustomMediaDepth {
                    guard let definition = customMedia[at],
                          let next = Self.namedQueries(definition.query).max(by: { (customMediaHeights[$0] ?? 0) < (customMediaHeights[$1] ?? 0) }) else { break }
                    at = next
                }
                expandedCustomMedia[name] = .failure(.tooDeep(at))
                return .failure(.tooDeep(at))
            }
        }
        if let start = chain.firstIndex(of: name) {
            let cycle = Array(chain[start...]) + [name]
            if let definition = customMedia[cycle[0]], reportedMediaCycles.insert(cycle[0]).inserted {
                problems.append(PaletteProblem(.unsupportedProperty, "@custom-media \(cycle[0]) is defined in terms of itself (\(cycle.joined(separator: " → "))); the blocks that use it are not read",
                                               file: definition.file, location: definition.location, severity: .warning))
            }
            return .failure(.cycle(cycle))
        }
        guard let definition = customMedia[name] else { return .failure(.undefined(name)) }
        guard chain.count < Self.maximumCustomMediaDepth else { return .failure(.tooDeep(name)) }
        let result: Result<String, CustomMediaFailure>
        switch definition.query.lowercased() {
        case "true": result = .success("")  // matches every screen, as an empty query does
        case "false": result = .failure(.never(name))
        default: result = expandCustomMedia(in: definition.query, chain: chain + [name], at: offset)
        }
        // Too deep is said of the query where the walk started: from a query nearer the end it
        // may not be, so it is not remembered.
        if case .failure(.tooDeep) = result { return result }
        expandedCustomMedia[name] = result
        return result
    }
}
