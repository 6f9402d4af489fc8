import ColorScience

extension PaletteDecoder {
    /// Completes a theme's tokens once every file of it is read: applies group `$extends`,
    /// types untyped aliases from what they name, and keeps only the color tokens.
    mutating func finishTokens(_ tokens: [Token], theme: String? = nil) -> [Token] {
        var tokens = applyTheme(theme, to: applyGroupExtensions(tokens))
        var index: [String: Int] = [:]
        for (i, token) in tokens.enumerated() { index[token.name] = i }
        // Style Dictionary v3 writes references to the value itself: `{color.red.value}`.
        for i in tokens.indices where tokens[i].value.utf8.contains(UInt8(ascii: "{")) {
            for suffix in [".value", ".$value"] {
                for target in [tokens[i].aliasTarget].compactMap({ $0 }) + Token.embeddedReferences(in: tokens[i].value)
                where target.hasSuffix(suffix) && index[target] == nil && index[String(target.dropLast(suffix.count))] != nil {
                    tokens[i].value = tokens[i].value.replacing("{\(target)}", with: "{\(target.dropLast(suffix.count))}")
                }
            }
        }
        // Modifier amounts written as references (`"value": "{opacity.muted}"`) become numbers.
        for i in tokens.indices where !tokens[i].operations.isEmpty {
            for j in tokens[i].operations.indices where tokens[i].operations[j].amount == nil {
                var text = tokens[i].operations[j].amountText
                var hops = 0
                while let target = Token.aliasTarget(of: text), let k = index[target], hops < 100 {
                    text = tokens[k].value
                    hops += 1
                }
                tokens[i].operations[j].amount = ColorOperation.amount(text)
            }
        }

        // The type of each token: declared, or that of what its alias names (followed to the end).
        var resolvedType: [String: String?] = [:]
        func typeOf(_ start: String) -> String? {
            var path: [String] = []
            var current = start
            var result: String?
            while true {
                if let known = resolvedType[current] { result = known; break }
                guard let i = index[current] else { result = current == start ? nil : "(missing)"; break }
                let token = tokens[i]
                if let type = token.type { result = type; break }
                guard let target = token.aliasTarget else {
                    // The chain ends at an untyped value: an alias to a value that is plainly not
                    // a color ("4px") is not a color either (it is left out with the value).
                    result = current != start && dialect != .palette && !PaletteDecoder.couldBeColor(token.value) ? "untyped, an alias of \"\(token.value.prefix(40))\"" : nil
                    break
                }
                guard !path.contains(current), path.count < ThemeResolver.maximumAliasDepth else { result = nil; break }
                path.append(current)
                current = target
            }
            for name in path { resolvedType[name] = .some(result) }
            resolvedType[start] = .some(result)
            return result
        }

        var kept: [Token] = []
        var untyped: [Token] = []
        var words: [Token] = []  // bare color keywords read as words
        kept.reserveCapacity(tokens.count)
        for i in tokens.indices {
            var token = tokens[i]
            let type = token.type ?? (token.aliasTarget != nil ? typeOf(token.name) : nil)
            if type == "(missing)" && dialect != .palette {
                // An untyped alias to nothing: nothing says it is a color, so it is reported and
                // not audited (a check that names it is unresolved).
                problems.append(PaletteProblem(.unknownToken, "token \"\(token.name)\" has no $type and is an alias of \"\(token.value)\", which names no token of this set; its type cannot be known, so it is not audited",
                                               file: token.file ?? file, pointer: token.pointer, location: token.location, severity: .warning))
                ledger.notRead(token.name, reason: "it has no $type and is an alias of \(token.value), which names no token of this set", file: token.file ?? file, location: token.location)
                continue
            }
            if let type, type != "color" && type != "gradient" && type != "(missing)" {  // dimensions, fonts, shadows…: not audited
                if token.type == PaletteDecoder.keywordNotColor { words.append(token) }
                ledger.notColor(token.name, type: type, file: token.file ?? file, location: token.location)
                continue
            }
            if token.type == nil && token.aliasTarget == nil && dialect != .palette && !PaletteDecoder.couldBeColor(token.value) {
                // An untyped token in a token file whose value is plainly not a color ("16px",
                // "Inter"): another kind of token, in the ledger each, and said in one warning.
                untyped.append(token)
                ledger.notColor(token.name, type: "untyped, \"\(token.value.prefix(40))\"", file: token.file ?? file, location: token.location)
                continue
            }
            token.type = type == "gradient" ? "gradient" : "color"
            tokens[i] = token
            kept.append(token)
        }
        if let first = words.first {
            let examples = words.prefix(3).map { "\"\($0.name)\"" }.joined(separator: ", ")
            problems.append(PaletteProblem(.notAColor, "\(words.count == 1 ? "1 value is" : "\(words.count) values are") a CSS color keyword where nothing says it is a color (\(examples)\(words.count > 3 ? ", …" : "")): a key such as \"name\" or \"label\", or a sibling such as \"hex\", says it is a word; \(words.count == 1 ? "it is" : "they are") not audited, and the ledger lists each as not a color (give a token \"$type\": \"color\" if it is one)",
                                           file: first.file ?? file, pointer: first.pointer, location: first.location, severity: .warning))
        }
        if let first = untyped.first {
            let examples = untyped.prefix(3).map { "\"\($0.name)\" = \"\($0.value.prefix(40))\"" }.joined(separator: ", ")
            let message = untyped.count == 1
                ? "token \"\(first.name)\" has no $type and its value \"\(first.value.prefix(80))\" is not a color; it is not audited (give it \"$type\": \"color\" if it is one)"
                : "\(untyped.count) tokens have no $type and values that are not colors (\(examples)\(untyped.count > 3 ? ", …" : "")); they are not audited, and the ledger lists each as not a color (give a token \"$type\": \"color\" if it is one)"
            problems.append(PaletteProblem(.notAColor, message, file: first.file ?? file, pointer: first.pointer, location: first.location, severity: .warning))
        }
        return kept
    }

    /// Whether an untyped value should be read as a color (and so reported if it does not
    /// parse): it parses, or it is written the way colors are (`#…`, a color function).
    static func couldBeColor(_ value: String) -> Bool {
        if CSSColor.isColor(value) || StylesheetReader.looksLikeColor(value) { return true }
        // Built from other tokens: a color when, with each reference standing for a color, it
        // reads as one (`{ink}`, `rgba({ink}, 0.5)`), not when the references sit in another
        // kind of value (a shadow's `0 0 0 1px {gray} inset`, which is not audited).
        let references = Token.embeddedReferences(in: value)
        guard !references.isEmpty else { return false }
        var standIn = ""
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            standIn += rest[..<open] + "#000"
            rest = rest[rest.index(after: close)...]
        }
        standIn += rest
        // (A color function around them counts; a stand-in at the start of other text does not.)
        return CSSColor.isColor(standIn) || (!standIn.hasPrefix("#") && StylesheetReader.looksLikeColor(standIn))
    }

    /// Gives each token its value for the theme being built (Primer's overrides), and reports
    /// overrides that no theme of this name can use.
    mutating func applyTheme(_ theme: String?, to tokens: [Token]) -> [Token] {
        var tokens = tokens
        var unused: [String: Int] = [:]
        var first: Token?
        var applied = 0, carriers = 0
        for i in tokens.indices where !tokens[i].themeValues.isEmpty {
            if let theme, let override = tokens[i].themeValues[theme] {
                if let value = override.value {
                    tokens[i].value = value
                    tokens[i].pointer = override.pointer
                    tokens[i].location = override.location ?? tokens[i].location
                }
                if let operations = override.operations { tokens[i].operations = operations }
                applied += 1
            } else {
                for key in tokens[i].themeValues.keys { unused[key, default: 0] += 1 }
                first = first ?? tokens[i]
                carriers += 1
            }
        }
        // Tokens without an override for this theme keep their own value, as in Primer's build;
        // a theme that no override names at all is likely named differently from Primer's.
        if applied == 0, let first, let name = theme ?? Optional("default"), !unused.isEmpty {
            let keys = unused.keys.sorted()
            problems.append(PaletteProblem(.unsupportedProperty,
                "\(carriers) tokens carry \"org.primer.overrides\" for themes \(keys.prefix(8).joined(separator: ", "))\(keys.count > 8 ? ", …" : ""); Primer's build applies the override named after the theme it builds, and this theme is \"\(name)\", so each token's own \"$value\" is audited. Name the theme after one of them (a resolver modifier context) to audit that theme",
                file: first.file ?? file, pointer: first.pointer, location: first.location, theme: theme, severity: .warning))
        }
        return tokens
    }

    /// Copies into each extending group the tokens of the group it extends that it does not
    /// define itself, following chains (`a` extends `b` extends `c`) and refusing cycles.
    ///
    /// A group's extension is applied once the group it extends is complete (its own extension
    /// and every extension inside it applied) and once the groups inside it are, so what a
    /// nested group holds or inherits itself wins over what its ancestor inherits (local over
    /// inherited, as the format's deep merge says). That order is a walk of a graph whose nodes
    /// are the extending groups and the groups that hold them; a cycle in it is an `$extends`
    /// the format forbids: `a` extends `b` extends `a`, and as well a group that extends a group
    /// holding it (`button.secondary` extends `{button}`), or one holding a group that extends it.
    /// Each such cycle is reported once, and its groups inherit nothing: following it would copy
    /// the group into itself, each copy's name longer by the group's.
    ///
    /// The walk is iterative (a chain of any length is followed without recursion), the tokens
    /// of a group are found through an index of every group prefix rather than by scanning every
    /// token, and what the copies build is spent from the read's budget, so a tree that doubles
    /// at each level stops with a `limit-exceeded` problem instead of filling memory.
    mutating func applyGroupExtensions(_ tokens: [Token]) -> [Token] {
        guard !groupExtensions.isEmpty else { return tokens }
        var tokens = tokens
        var names = Set(tokens.map(\.name))
        var byGroup: [String: GroupExtension] = [:]
        for ext in groupExtensions where byGroup[ext.group] == nil { byGroup[ext.group] = ext }
        // Every extended group ("a", "a.b") → the indices of the tokens under it, in order.
        let targets = Set(groupExtensions.map { Substring($0.target) })
        var members: [String: [Int]] = [:]
        func index(_ i: Int) {
            let name = tokens[i].name
            var cursor = name.startIndex
            while let dot = name[cursor...].firstIndex(of: ".") {
                if targets.contains(name[..<dot]) { members[String(name[..<dot]), default: []].append(i) }
                cursor = name.index(after: dot)
            }
        }
        for i in tokens.indices { index(i) }
        // The groups on the way to each extending group: "a.b.c" makes a → a.b → a.b.c.
        var children: [String: [String]] = [:]
        for group in byGroup.keys.sorted() {
            var cursor = group.startIndex
            var parent = ""
            while let dot = group[cursor...].firstIndex(of: ".") {
                let prefix = String(group[..<dot])
                if !parent.isEmpty { children[parent, default: []].append(prefix) }
                parent = prefix
                cursor = group.index(after: dot)
            }
            if !parent.isEmpty { children[parent, default: []].append(group) }
        }
        for key in children.keys { children[key] = Array(Set(children[key]!)).sorted() }
        var reportedUnknown: Set<String> = []
        // A copy shares its token's text; it builds the token itself, its name and its entry
        // in the indexes.
        let tokenBytes = MemoryLayout<Token>.stride + 64

        /// Extends one group whose target is complete. False when the budget stopped the read.
        func extend(_ group: String, _ ext: GroupExtension) -> Bool {
            let prefix = ext.target + "."
            let inherited = members[ext.target] ?? []
            if inherited.isEmpty && !names.contains(ext.target) {
                let key = "\(ext.file ?? file ?? "")#\(ext.pointer)"
                if reportedUnknown.contains(key) { return true }
                reportedUnknown.insert(key)
                problems.append(PaletteProblem(.unknownToken, "group \"\(group)\" extends \"{\(ext.target)}\", which is not a group of this token set",
                                               file: ext.file ?? file, pointer: ext.pointer, location: ext.location))
                return true
            }
            guard ReadBudget.spend(1 + inherited.count, bytes: inherited.count * (tokenBytes + group.utf8.count), on: "\"$extends\" at \(ext.pointer)", file: ext.file ?? file, location: ext.location) else { return false }
            for i in inherited {
                if tokens.count >= limits.maximumTokensPerTheme {
                    stopRead("\"$extends\" here makes more than \(limits.maximumTokensPerTheme) tokens, the limit for one theme; the tokens are not read", at: ext.pointer, ext.location)
                    return false
                }
                let token = tokens[i]
                let name = group + "." + token.name.dropFirst(prefix.count)
                guard !names.contains(name) else { continue }  // the extending group's own token wins
                var copy = token
                copy.name = name
                tokens.append(copy)
                names.insert(name)
                index(tokens.count - 1)
            }
            return true
        }

        typealias Step = ExtensionStep
        func next(_ step: Step) -> [Step] {
            switch step {
            case .extending(let group):
                return [.complete(byGroup[group]!.target)] + (children[group] ?? []).map(Step.complete)
            case .complete(let group):
                return byGroup[group] != nil ? [.extending(group)] : (children[group] ?? []).map(Step.complete)
            }
        }
        // The walk finds the strongly connected parts of the graph (Tarjan's algorithm, with an
        // explicit stack): each is finished after every part it depends on, so an extension is
        // applied once what it copies is complete; a part of more than one step is a cycle.
        var order: [Step: (index: Int, low: Int)] = [:]
        var open: [Step] = []
        var isOpen: Set<Step> = []
        var cyclic: Set<String> = []
        let firstAt = Dictionary(groupExtensions.enumerated().map { ($1.group, $0) }, uniquingKeysWith: { first, _ in first })
        /// Reports the cycle through `part`'s first extending group, once for the part; every
        /// extending group of the part inherits nothing.
        func reportCycle(_ part: [Step]) -> Bool {
            guard ReadBudget.spend(2 * part.count, on: "an \"$extends\" cycle", file: file, location: nil) else { return false }
            let members = Set(part)
            let groups = part.compactMap { if case .extending(let g) = $0 { g } else { nil } }.sorted { firstAt[$0, default: 0] < firstAt[$1, default: 0] }
            guard let first = groups.first, let ext = byGroup[first] else { return true }
            // The shortest way round from the first group back to it, inside the part.
            var cameFrom: [Step: Step] = [:]
            var queue = [Step.extending(first)]
            var head = 0
            search: while head < queue.count {
                let step = queue[head]
                head += 1
                for following in next(step) where members.contains(following) && cameFrom[following] == nil {
                    cameFrom[following] = step
                    if following == .extending(first) { break search }
                    queue.append(following)
                }
            }
            var back: [String] = []
            var cursor = cameFrom[.extending(first)]
            while let step = cursor, step != .extending(first) {
                if case .extending(let g) = step { back.append(g) }
                cursor = cameFrom[step]
            }
            let round = [first] + back.reversed()
            var shown = [first.excerpt()]
            for (i, group) in round.enumerated() {
                let target = byGroup[group]!.target
                let following = round[(i + 1) % round.count]
                shown.append(target == following ? target.excerpt() : "\(target.excerpt()) (which holds \(following.excerpt()))")
            }
            if shown.count > 12 { shown = Array(shown.prefix(6)) + ["…"] + Array(shown.suffix(5)) }
            let onRound = Set(round)
            let others = groups.filter { !onRound.contains($0) }
            let alsoNot = others.isEmpty ? "" : ", nor \(others.count == 1 ? "does" : "do") \(others.prefix(3).map { "\"\($0.excerpt())\"" }.joined(separator: ", "))\(others.count > 3 ? " and \(others.count - 3) more" : ""), on cycles through them"
            problems.append(PaletteProblem(.extendsCycle, "$extends cycle: \(shown.joined(separator: " → ")); none of these groups inherits anything\(alsoNot)",
                                           file: ext.file ?? file, pointer: ext.pointer, location: ext.location))
            cyclic.formUnion(groups)
            return true
        }
        for first in groupExtensions where order[.extending(first.group)] == nil {
            let root = Step.extending(first.group)
            var path: [(step: Step, next: [Step], at: Int)] = [(root, next(root), 0)]
            order[root] = (order.count, order.count)
            open.append(root)
            isOpen.insert(root)
            while let top = path.last {
                if top.at < top.next.count {
                    path[path.count - 1].at += 1
                    let step = top.next[top.at]
                    if let seen = order[step] {
                        if isOpen.contains(step) { order[top.step]!.low = min(order[top.step]!.low, seen.index) }
                    } else {
                        guard ReadBudget.spend(on: "the \"$extends\" of a token tree", file: first.file ?? file, location: first.location) else { return tokens }
                        order[step] = (order.count, order.count)
                        open.append(step)
                        isOpen.insert(step)
                        path.append((step, next(step), 0))
                    }
                    continue
                }
                path.removeLast()
                let finished = order[top.step]!
                if let parent = path.last { order[parent.step]!.low = min(order[parent.step]!.low, finished.low) }
                guard finished.low == finished.index else { continue }
                var part: [Step] = []
                repeat {
                    let step = open.removeLast()
                    isOpen.remove(step)
                    part.append(step)
                } while part.last != top.step
                if part.count > 1 {
                    guard reportCycle(part) else { return tokens }
                } else if case .extending(let group) = top.step, !cyclic.contains(group), let ext = byGroup[group] {
                    guard extend(group, ext) else { return tokens }
                }
            }
        }
        return tokens
    }

}

/// A step of the walk that orders `$extends`: one group's extension applied, or every
/// extension inside a group applied.
enum ExtensionStep: Hashable {
    case extending(String)
    case complete(String)
}
