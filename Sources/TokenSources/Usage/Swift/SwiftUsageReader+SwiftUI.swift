import ColorScience

/// SwiftUI: a view's modifier chain, its foreground and background modifiers, paired.
extension SwiftUsageReading {
    /// A view expression's modifier chain, as far as this reader reads one.
    struct Chain {
        var start: Int
        var foregrounds: [(role: Role, argument: ClosedRange<Int>, line: Int, name: String)] = []
        var background: (argument: ClosedRange<Int>, line: Int, name: String)?
        /// The chain it is inside (its content closure or arguments), when known.
        var parent: Int?
        /// Why what is behind it is not known: inside a modifier's closure drawn apart
        /// (`.sheet { … }`, `.toolbar { … }`).
        var detached: String?
    }

    /// What a bracket holds, for the views inside it.
    enum BracketRole {
        case content(chain: Int)
        case color
        case detached(String)
    }

    static let foregroundModifiers: [String: Role] = ["foregroundStyle": .text, "foregroundColor": .text, "tint": .nonText]
    static let backgroundModifiers: Set<String> = ["background", "listRowBackground", "containerBackground"]
    static let contentModifiers: Set<String> = ["overlay"]

    func readSwiftUI(into read: inout UsageRead, seen: inout Set<String>) {
        var consumed = Array(repeating: false, count: t.count)
        var roles: [Int: BracketRole] = [:]
        /// For each open bracket, what views inside it sit on: the chain whose content it is.
        var owner: [Int: BracketRole] = [:]
        var chains: [Chain] = []
        for s in t.indices {
            // What each bracket's views sit on, from its own role or the bracket around it.
            if t[s].kind == .open {
                if let role = roles[s] { owner[s] = role } else if structure.enclosing[s] >= 0, let outer = owner[structure.enclosing[s]] { owner[s] = outer }
            }
            guard !consumed[s], let chain = parseChain(at: s, consumed: &consumed, roles: &roles, index: chains.count) else { continue }
            var built = chain
            if structure.enclosing[s] >= 0, let around = owner[structure.enclosing[s]] {
                switch around {
                case .content(let parent): built.parent = parent
                case .detached(let why): built.detached = why
                case .color: break
                }
            }
            chains.append(built)
        }
        // Each chain's background: its own, else the nearest chain around it with one.
        var effective: [(argument: ClosedRange<Int>, line: Int, name: String, own: Bool)?] = []
        var detachedWhy: [String?] = []
        for (index, chain) in chains.enumerated() {
            if let own = chain.background {
                effective.append((own.argument, own.line, own.name, true))
                detachedWhy.append(nil)
            } else if let parent = chain.parent, parent < index {
                effective.append(effective[parent].map { ($0.argument, $0.line, $0.name, false) })
                detachedWhy.append(detachedWhy[parent])
            } else {
                effective.append(nil)
                detachedWhy.append(chain.detached)
            }
        }
        for (index, chain) in chains.enumerated() {
            for foreground in chain.foregrounds {
                let usage: ContrastUsage = foreground.role == .text ? .text : .nonText
                let written = ".\(foreground.name)(\(structure.text(foreground.argument, limit: 60)))"
                let fgs = colors.alternatives(foreground.argument, flavor: .swiftUI).map(\.0)
                guard let background = effective[index] else {
                    if let why = detachedWhy[index] {
                        for color in fgs where color != .clear {
                            read.notRead.append(UsageEvidence(file: file, line: foreground.line, what: "\(written): what is behind it is not known: \(why)"))
                        }
                        continue
                    }
                    for color in fgs { conventionOrNote(color, written: written, line: foreground.line, usage: usage, into: &read, seen: &seen) }
                    continue
                }
                let bgs = backgroundColors(background.argument)
                let whose = background.own ? "its own" : "the enclosing view's"
                pairAll(fgs, bgs, usage: usage, line: foreground.line,
                        what: "\(written) on \(whose) .\(background.name)(\(structure.text(background.argument, limit: 60))) (line \(background.line))", into: &read, seen: &seen)
            }
        }
    }

    /// A background modifier's colors: its first argument, or the one color (or shape filled
    /// with one) its closure holds.
    func backgroundColors(_ argument: ClosedRange<Int>) -> [SwiftColor] {
        if let known = colors.memo.backgrounds[argument.lowerBound] { return known }
        let found = readBackground(argument)
        colors.memo.backgrounds[argument.lowerBound] = found
        return found
    }

    func readBackground(_ argument: ClosedRange<Int>) -> [SwiftColor] {
        // The first argument, up to a top-level comma (`.background(Color.x, in: …)`).
        var end = argument.lowerBound
        while end <= argument.upperBound {
            if t[end].kind == .open, let m = t[end].match { end = m + 1; continue }
            if t[end].kind == .punctuation && t[end].text == "," { break }
            end += 1
        }
        let first = argument.lowerBound...max(argument.lowerBound, end - 1)
        // A shape filled with a color (`RoundedRectangle(…).fill(Color.x)`): the fill.
        for k in first where t[k].kind == .identifier && t[k].text == "fill" && k + 1 <= first.upperBound && t[k + 1].text == "(" {
            if let close = t[k + 1].match, close - 1 >= k + 2 { return colors.alternatives((k + 2)...(close - 1), flavor: .swiftUI).map(\.0) }
        }
        // A material (`.ultraThinMaterial`) blurs what is behind: no one color.
        if let last = first.last, t[last].kind == .identifier, t[last].text.hasSuffix("Material") {
            return [.unknown("\(structure.text(first)) is a material, which blurs what is behind it: no one color")]
        }
        // A chain with modifiers of its own (`Color.x.ignoresSafeArea()`): its color.
        var colorEnd = first.upperBound
        if let dot = first.dropFirst().first(where: { t[$0].kind == .punctuation && t[$0].text == "." && $0 + 1 <= first.upperBound
            && ["ignoresSafeArea", "edgesIgnoringSafeArea", "frame", "padding", "clipShape", "cornerRadius"].contains(t[$0 + 1].text) }) {
            colorEnd = dot - 1
        }
        return colors.alternatives(first.lowerBound...colorEnd, flavor: .swiftUI).map(\.0)
    }

    /// A modifier chain starting at `s`, if one does: a primary (a name, `.member`, a call) and
    /// the members, calls and trailing closures after it. Its top-level tokens are marked
    /// consumed (a chain is found once), and its brackets' roles recorded.
    func parseChain(at s: Int, consumed: inout [Bool], roles: inout [Int: BracketRole], index: Int) -> Chain? {
        let first = t[s]
        let implicit = first.kind == .punctuation && first.text == "." && s + 1 < t.count && t[s + 1].kind == .identifier
        guard first.kind == .identifier || implicit else { return nil }
        if first.kind == .identifier && (SwiftStructure.bodyKeywords.contains(first.text) || first.text.hasPrefix("#")) { return nil }
        // Part of another expression's member access (`a.b`): not a start.
        if s > 0, [".", "?.", "!."].contains(t[s - 1].text), first.kind == .identifier { return nil }
        let statement = structure.statementStart[s]
        let keyword = t[statement].kind == .identifier && SwiftStructure.bodyKeywords.contains(t[statement].text) && structure.enclosing[statement] == structure.enclosing[s]
        var chain = Chain(start: s)
        var i = implicit ? s + 2 : s + 1
        consumed[s] = true
        if implicit { consumed[s + 1] = true }
        let primaryIsType = first.kind == .identifier && first.text.first?.isUppercase == true
        var lastMember: String? = implicit ? t[s + 1].text : nil
        var lastWasPrimary = !implicit
        var modifiers = 0
        while i < t.count {
            guard ReadBudget.spend(on: "a SwiftUI modifier chain", file: file, location: nil) else { break }
            let token = t[i]
            if token.kind == .open && token.text == "(" && !token.newlineBefore, let close = token.match {
                register(i, close: close, member: lastMember, primary: lastWasPrimary, into: &chain, roles: &roles, index: index, line: token.line)
                i = close + 1
                continue
            }
            if token.kind == .open && token.text == "{" && !token.newlineBefore, let close = token.match,
               (lastWasPrimary && primaryIsType && !keyword) || (!lastWasPrimary && lastMember != nil && !keyword) {
                register(i, close: close, member: lastMember, primary: lastWasPrimary, into: &chain, roles: &roles, index: index, line: token.line)
                i = close + 1
                continue
            }
            let isDot = (token.kind == .punctuation && token.text == ".") || (token.kind == .operator && (token.text == "?." || token.text == "!."))
            if isDot, i + 1 < t.count, t[i + 1].kind == .identifier {
                consumed[i] = true
                consumed[i + 1] = true
                lastMember = t[i + 1].text
                lastWasPrimary = false
                modifiers += 1
                i += 2
                continue
            }
            if token.kind == .operator && (token.text == "?" || token.text == "!") && !token.spaceBefore { i += 1; continue }
            break
        }
        return modifiers > 0 || !chain.foregrounds.isEmpty || chain.background != nil ? chain : Chain(start: s)
    }

    /// Records what a bracket of a chain is: a foreground's or background's argument, the content
    /// of the primary call or of `.overlay`, or a modifier's closure drawn apart.
    func register(_ open: Int, close: Int, member: String?, primary: Bool, into chain: inout Chain, roles: inout [Int: BracketRole], index: Int, line: Int) {
        let inside = (open + 1)...max(open + 1, close - 1)
        if primary || member.map(Self.contentModifiers.contains) == true {
            roles[open] = .content(chain: index)
            return
        }
        guard let member else { return }
        if let role = Self.foregroundModifiers[member], close > open + 1 {
            chain.foregrounds.append((role, inside, line, member))
            roles[open] = .color
        } else if Self.backgroundModifiers.contains(member), close > open + 1 {
            if chain.background == nil {
                // `.containerBackground(for: .widget) { … }`: the closure is the color.
                if t[open].text == "(" && member == "containerBackground" && t[open + 1].text == "for" {
                    roles[open] = .color
                    return
                }
                chain.background = (inside, line, member)
            }
            roles[open] = .color
        } else if t[open].text == "{" {
            roles[open] = .detached("inside .\(member) { … }, which is drawn apart from the view")
        } else {
            roles[open] = .color
        }
    }
}
