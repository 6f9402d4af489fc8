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

    /// The file's UIKit color assignments (`x.textColor = …`, `setTitleColor(…)`), its
    /// background configurations by name, and each view's superview as the file adds it.
    func uiKitAssignments() -> (assignments: [Assignment], configurations: [String: String], superviews: [String: String]) {
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
        return (assignments, configurations, superviews)
    }

    /// UIKit: each foreground assignment paired with the background its view is given, else its
    /// superview's, up the scopes around it; one with none found goes by convention or a note.
    func readUIKit(into read: inout UsageRead, seen: inout Set<String>) {
        let (assignments, configurations, superviews) = uiKitAssignments()
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
