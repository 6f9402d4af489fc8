import ColorScience

/// Swift sources as usage: where SwiftUI views and UIKit code put a color on another.
///
/// - SwiftUI: a view expression's `.foregroundStyle(…)` or `.foregroundColor(…)` (text) or
///   `.tint(…)` (non-text) on the first `.background(…)` (or `.listRowBackground`,
///   `.containerBackground`) of its own modifier chain, else of the view it is inside (the
///   nearest enclosing `VStack { … }`, `Button { … }`, `.overlay { … }` whose chain has one).
/// - UIKit: `view.textColor = …` (text), `view.tintColor = …` and `button.setTitleColor(…)`
///   (non-text, text) on the same view's `backgroundColor` (or `layer.backgroundColor`), else its
///   superview's (`superview.addSubview(view)`, `stack.addArrangedSubview(view)`, anywhere in the
///   file), assigned in the same scope or one around it: a block, or one `case` of a `switch`
///   (two branches of an `if` are alternatives, never paired with each other). A cell's
///   `contentView` is the cell, and a background configuration assigned to
///   `backgroundConfiguration` is its view's background.
/// - Colors: `Color("Label/primary")`, `UIColor(named: "x")` (any `…Color(named:)`), Apple's
///   system colors (`.label`, `Color(.systemBackground)`, `UIColor.secondaryLabel`, SwiftUI's
///   `.primary`, `.secondary`, `.red`…), fixed colors (`.white`), the symbol Xcode generates for a
///   color set (`.primaryAccent` for `primaryAccentColor`, also as the last member of the app's
///   own wrappers: `Assets.Colors.primaryAccent`), and the file's `let`s of those. Each branch of a
///   `c ? a : b` or `a ?? b` is a color of its own (paired when the other side is one color).
/// - A catalog color with no background known is on the view's default background, iOS's
///   `systemBackground`, as a convention (the evidence says so); two system colors make no pair
///   (nothing of the palette's is in it).
///
/// Written by hand on ``SwiftTokens`` rather than on swift-syntax (see there why): it reads
/// statement shapes and modifier chains, not Swift's whole grammar, so what it does not
/// recognize is no color site; what it recognizes and cannot pair is in `notRead`.
public struct SwiftUsageReader: UsageReader {
    public init() {}

    public var name: String { "Swift views (SwiftUI and UIKit)" }

    public func reads(path: String, head: ArraySlice<UInt8>) -> Bool {
        path.hasSuffix(".swift")
    }

    public func read(file: String, bytes: [UInt8], context: UsageContext) -> UsageRead {
        SwiftUsageReading(file: file, bytes: bytes, context: context).read()
    }
}

/// One Swift file read for pairs.
struct SwiftUsageReading {
    let file: String
    let structure: SwiftStructure
    let tokens: UsageTokens
    let colors: SwiftColorReader

    init(file: String, bytes: [UInt8], context: UsageContext) {
        self.file = file
        structure = SwiftStructure(SwiftTokens(bytes).tokens)
        tokens = UsageTokens.of(context)
        colors = SwiftColorReader(structure: structure, tokens: tokens, definitions: Self.definitions(structure))
    }

    var t: [SwiftTokens.Token] { structure.tokens }

    /// A color met: what it is, and where.
    struct Site {
        var color: SwiftColor
        var written: String
        var line: Int
    }

    func read() -> UsageRead {
        var read = UsageRead()
        var seen: Set<String> = []
        // The lexer and the structure's passes: a few steps a token.
        _ = ReadBudget.spend(4 * t.count, on: "the tokens of a Swift file", file: file, location: nil)
        readUIKit(into: &read, seen: &seen)
        readSwiftUI(into: &read, seen: &seen)
        if let stopped = ReadBudget.current?.problem {
            read.notRead.append(UsageEvidence(file: file, line: 1, what: "the read stopped before the file's end, and what it found may be incomplete: \(stopped.message.excerpt(160))"))
        }
        return read
    }

    // MARK: Definitions

    /// `let NAME = …`, `var NAME: T = …`, `static let NAME = …` anywhere in the file: each
    /// name's expression, nil for a name defined twice.
    static func definitions(_ s: SwiftStructure) -> [String: ClosedRange<Int>?] {
        var found: [String: ClosedRange<Int>?] = [:]
        let t = s.tokens
        for i in t.indices where t[i].kind == .identifier && (t[i].text == "let" || t[i].text == "var") && i + 2 < t.count {
            guard t[i + 1].kind == .identifier else { continue }
            var j = i + 2
            // `: Type` up to `=`, on the same statement.
            if t[j].kind == .punctuation && t[j].text == ":" {
                while j < t.count, j < i + 12, !(t[j].kind == .operator && t[j].text == "=") {
                    if t[j].kind == .open && t[j].text == "{" { break }
                    j += 1
                }
            }
            guard j < t.count, t[j].kind == .operator, t[j].text == "=", j + 1 < t.count else { continue }
            let end = s.statementEnd(from: j + 1)
            guard end >= j + 1 else { continue }
            let name = t[i + 1].text
            if found[name] != nil { found[name] = .some(nil) } else { found[name] = (j + 1)...end }
        }
        return found
    }

    // MARK: UIKit

    enum Role { case text, nonText, background }

    struct Assignment {
        var view: String
        var role: Role
        var range: ClosedRange<Int>
        var statement: ClosedRange<Int>
        var scope: Int
        var line: Int
    }

    /// A member path before `=` at a statement's start: its parts (`self` dropped), or nil.
    func path(endingBefore equals: Int, from start: Int) -> [String]? {
        var parts: [String] = []
        var i = start
        while i < equals {
            guard t[i].kind == .identifier else { return nil }
            parts.append(t[i].text)
            i += 1
            if i == equals { break }
            guard (t[i].kind == .punctuation && t[i].text == ".") || (t[i].kind == .operator && (t[i].text == "?." || t[i].text == "!.")) else { return nil }
            i += 1
        }
        if parts.first == "self" { parts.removeFirst() }
        return parts.isEmpty ? nil : parts
    }

    /// The view a path's owner names: `self` for none, for `contentView` and for a background
    /// configuration assigned to `backgroundConfiguration`.
    static func view(_ owner: [String], configurations: [String: String]) -> String {
        var owner = owner
        if owner.last == "layer" { owner.removeLast() }
        if owner.last == "contentView" { owner.removeLast() }
        if owner == ["view"] { owner = [] }  // a view controller's root view
        let joined = owner.joined(separator: ".")
        if let configured = configurations[joined] { return configured }
        return joined.isEmpty ? "self" : joined
    }

    func readUIKit(into read: inout UsageRead, seen: inout Set<String>) {
        // Background configurations: `[x.]backgroundConfiguration = NAME`.
        var configurations: [String: String] = [:]
        var superviews: [String: String] = [:]
        var assignments: [Assignment] = []
        for i in t.indices where structure.statementStart[i] == i {
            // An assignment `path = expression`.
            var j = i
            while j < t.count, j < i + 24, !(t[j].kind == .operator && t[j].text == "=") {
                if t[j].kind == .open || t[j].kind == .close || (j > i && structure.statementStart[j] == j) { break }
                j += 1
            }
            guard j < t.count, j > i, t[j].kind == .operator, t[j].text == "=", let parts = path(endingBefore: j, from: i), j + 1 < t.count else { continue }
            let end = structure.statementEnd(from: j + 1)
            guard end >= j + 1, let property = parts.last else { continue }
            let owner = Array(parts.dropLast())
            if property == "backgroundConfiguration", j + 1 == end, t[end].kind == .identifier {
                configurations[t[end].text] = Self.view(owner, configurations: [:])
                continue
            }
            let role: Role
            switch property {
            case "textColor": role = .text
            case "tintColor": role = .nonText
            case "backgroundColor": role = .background
            default: continue
            }
            assignments.append(Assignment(view: owner.joined(separator: "."), role: role, range: (j + 1)...end, statement: i...end,
                                          scope: structure.scope[i], line: t[i].line))
        }
        // An outlet of a view (or a view controller) is in its hierarchy: on its background.
        for i in t.indices where t[i].kind == .identifier && t[i].text == "IBOutlet" && i > 0 && t[i - 1].text == "@" {
            var k = i + 1
            while k < t.count, k < i + 8, !(t[k].kind == .identifier && (t[k].text == "var" || t[k].text == "let")) { k += 1 }
            if k + 1 < t.count, t[k + 1].kind == .identifier, superviews[t[k + 1].text] == nil { superviews[t[k + 1].text] = "self" }
        }
        // Superviews, and `setTitleColor(color, for: …)`.
        for i in t.indices where t[i].kind == .identifier && i + 2 < t.count && t[i + 1].kind == .open && t[i + 1].text == "(" {
            guard let close = t[i + 1].match else { continue }
            let owner = ownerPath(before: i)
            switch t[i].text {
            case "addSubview", "addArrangedSubview", "insertSubview", "insertArrangedSubview":
                var k = i + 2
                var child: [String] = []
                while k < close, t[k].kind == .identifier || t[k].text == "." {
                    if t[k].kind == .identifier { child.append(t[k].text) }
                    k += 1
                }
                if child.first == "self" { child.removeFirst() }
                let name = child.joined(separator: ".")
                if !name.isEmpty, superviews[name] == nil { superviews[name] = owner.map { Self.view($0, configurations: configurations) } ?? "self" }
            case "setTitleColor":
                // The color is the first argument, up to its top-level comma.
                var k = i + 2
                while k < close, !(t[k].kind == .punctuation && t[k].text == ",") {
                    if t[k].kind == .open, let m = t[k].match { k = m + 1; continue }
                    k += 1
                }
                guard k > i + 2 else { continue }
                assignments.append(Assignment(view: (owner ?? []).joined(separator: "."), role: .text, range: (i + 2)...(k - 1), statement: (owner.map { i - $0.count * 2 } ?? i)...close,
                                              scope: structure.scope[i], line: t[i].line))
            default: break
            }
        }
        // Backgrounds by view and scope: the last one a scope assigns.
        var backgrounds: [String: Assignment] = [:]
        for assignment in assignments where assignment.role == .background {
            let view = Self.view(assignment.view.isEmpty ? [] : assignment.view.split(separator: ".").map(String.init), configurations: configurations)
            backgrounds["\(view)\u{0}\(assignment.scope)"] = assignment
        }
        for assignment in assignments where assignment.role != .background {
            let view = Self.view(assignment.view.isEmpty ? [] : assignment.view.split(separator: ".").map(String.init), configurations: configurations)
            let statement = structure.text(assignment.statement)
            let foregrounds = colors.alternatives(assignment.range, flavor: .uiKit)
            // The background: the view's own, else its superview's, up the scopes around it.
            var found: (Assignment, String)?
            var target = view
            var hops = 0
            search: while hops < 16 {
                var scope = assignment.scope
                for _ in 0..<64 {
                    guard ReadBudget.spend(on: "the scopes around an assignment", file: file, location: nil) else { break search }
                    if let background = backgrounds["\(target)\u{0}\(scope)"] {
                        found = (background, target)
                        break search
                    }
                    guard scope != -1, let parent = structure.parentScope[scope] else { break }
                    scope = parent
                }
                // Its superview: as the file adds it, else the view whose property it is
                // (`cell.textLabel` is in `cell`).
                let holder = target.split(separator: ".").dropLast().joined(separator: ".")
                guard let superview = superviews[target] ?? (target.contains(".") ? (holder.isEmpty ? "self" : holder) : nil), superview != target else { break }
                target = superview
                hops += 1
            }
            let usage: ContrastUsage = assignment.role == .text ? .text : .nonText
            guard let (background, owner) = found else {
                for (color, _) in foregrounds {
                    conventionOrNote(color, written: statement, line: assignment.line, usage: usage, into: &read, seen: &seen)
                }
                continue
            }
            let backgroundText = structure.text(background.statement)
            let whose = owner == view ? "" : " (on its superview, \(owner.excerpt(40)))"
            let backs = colors.alternatives(background.range, flavor: .uiKit)
            pairAll(foregrounds.map(\.0), backs.map(\.0), usage: usage, line: assignment.line,
                    what: "\(statement) on \(backgroundText)\(whose) (line \(background.line))", into: &read, seen: &seen)
        }
    }

    /// The member path before `.name(` at `i` (`stack` for `stack.addArrangedSubview(…)`), or
    /// nil when the call has no receiver.
    func ownerPath(before i: Int) -> [String]? {
        guard i >= 2, t[i - 1].kind == .punctuation || t[i - 1].kind == .operator, [".", "?.", "!."].contains(t[i - 1].text) else { return nil }
        var parts: [String] = []
        var k = i - 2
        while k >= 0, k > i - 24, t[k].kind == .identifier {
            parts.insert(t[k].text, at: 0)
            guard k >= 1, [".", "?.", "!."].contains(t[k - 1].text) else { break }
            k -= 2
        }
        if parts.first == "self" { parts.removeFirst() }
        return parts
    }

    // MARK: SwiftUI

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

    // MARK: Pairs

    /// Pairs every foreground with every background when one side is a single color; when both
    /// depend on conditions, which goes with which is not read.
    func pairAll(_ fgs: [SwiftColor], _ bgs: [SwiftColor], usage: ContrastUsage, line: Int, what: String, into read: inout UsageRead, seen: inout Set<String>) {
        let fgColors = fgs.filter { $0 != .clear }
        if fgColors.count > 1 && bgs.count > 1 {
            read.notRead.append(UsageEvidence(file: file, line: line, what: "\(what): both colors depend on conditions, and which goes with which is not read"))
            return
        }
        for fg in fgColors {
            if case .unknown(let why) = fg {
                read.notRead.append(UsageEvidence(file: file, line: line, what: "\(what): \(why)"))
                continue
            }
            for bg in bgs {
                switch (fg, bg) {
                case (.unknown, _): break
                case (_, .unknown(let why)):
                    read.notRead.append(UsageEvidence(file: file, line: line, what: "\(what): the background: \(why)"))
                case (_, .clear):
                    read.notRead.append(UsageEvidence(file: file, line: line, what: "\(what): the background is clear, and what shows through is not read"))
                case (.color(let f, let fHow), .color(let b, let bHow)):
                    let how = [fHow, bHow].compactMap { $0 }
                    let said = what + (how.isEmpty ? "" : " (\(how.joined(separator: "; ")))")
                    if let reason = tokens.reasonNotToPropose(foreground: f, background: b) {
                        read.notRead.append(UsageEvidence(file: file, line: line, what: "\(said): not proposed, \(reason)"))
                    } else {
                        add(UsagePair(foreground: f, background: b, usage: usage, evidence: UsageEvidence(file: file, line: line, what: said), confidence: .usage), to: &read, seen: &seen)
                    }
                case (.clear, _): break
                }
            }
        }
    }

    /// A foreground with no background known: a catalog color is on iOS's default
    /// `systemBackground` (a convention); anything else is noted.
    func conventionOrNote(_ color: SwiftColor, written: String, line: Int, usage: ContrastUsage, into read: inout UsageRead, seen: inout Set<String>) {
        switch color {
        case .clear: return
        case .unknown(let why):
            read.notRead.append(UsageEvidence(file: file, line: line, what: "\(written): \(why)"))
        case .color(let name, let how):
            let said = "\(written)\(how.map { " (\($0))" } ?? ""), with no background known where it is drawn: on iOS's default background, systemBackground"
            guard tokens.isToken(name) else {
                read.notRead.append(UsageEvidence(file: file, line: line, what: "\(said): not proposed, \(name) is not a token of the palettes read (Apple's own colors on Apple's default background)"))
                return
            }
            if let reason = tokens.reasonNotToPropose(foreground: name, background: "ios.systemBackground") {
                read.notRead.append(UsageEvidence(file: file, line: line, what: "\(said): not proposed, \(reason)"))
                return
            }
            add(UsagePair(foreground: name, background: "ios.systemBackground", usage: usage, evidence: UsageEvidence(file: file, line: line, what: said), confidence: .convention),
                to: &read, seen: &seen)
        }
    }

    func add(_ pair: UsagePair, to read: inout UsageRead, seen: inout Set<String>) {
        if seen.insert("\(pair.foreground)\u{0}\(pair.background)\u{0}\(pair.usage)").inserted { read.pairs.append(pair) }
    }
}
