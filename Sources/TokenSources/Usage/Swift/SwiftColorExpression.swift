import Foundation

/// What a Swift color expression names, as a pair names it: an asset catalog's color set (by the
/// name the catalog reader gives it: `Color("Label/primary")` → `Label.primary`), one of Apple's
/// system colors (`.secondaryLabel`, `Color(.systemBackground)`, SwiftUI's `.primary` → `ios.label`,
/// `ios.systemBackground`), a fixed color (`.white` → `#ffffff`), no color (`.clear`, `nil`), or
/// something this reader does not know, and why.
enum SwiftColor: Equatable {
    case color(String, how: String?)
    case clear
    case unknown(String)
}

/// Reads color expressions of one file against the run's catalogs.
struct SwiftColorReader {
    let structure: SwiftStructure
    let tokens: UsageTokens
    /// `let NAME = …` and `static let NAME = …` of the file, by name: the expression's tokens;
    /// nil for a name defined twice (which one applies is not read).
    let definitions: [String: ClosedRange<Int>?]
    /// What each definition was found to be, so that each is read once however often it is used.
    final class Memo {
        var definitions: [String: SwiftColor] = [:]
        var alternatives: [Int: [(SwiftColor, ClosedRange<Int>)]] = [:]
        var backgrounds: [Int: [SwiftColor]] = [:]
    }
    let memo = Memo()

    /// Which language's meaning an implicit member takes: SwiftUI's `.red` is the system red,
    /// UIKit's `UIColor.red` is pure red.
    enum Flavor { case swiftUI, uiKit }

    static let maximumAlternatives = 4

    /// The colors an expression may be: one, or each branch of a `cond ? a : b` or an `a ?? b`
    /// (at most ``maximumAlternatives``; more are one unknown).
    func alternatives(_ range: ClosedRange<Int>, flavor: Flavor, depth: Int = 0) -> [(SwiftColor, ClosedRange<Int>)] {
        // A whole expression is read once (a background many views sit on is asked for each).
        if depth == 0 {
            let key = range.lowerBound &* 31 &+ range.upperBound &* 2 &+ (flavor == .uiKit ? 1 : 0)
            if let known = memo.alternatives[key] { return known }
            let found = alternatives(range, flavor: flavor, depth: 1)
            memo.alternatives[key] = found
            return found
        }
        let t = structure.tokens
        _ = ReadBudget.spend(range.count, on: "a Swift color expression", file: nil, location: nil)
        guard depth < 9 else { return [(.unknown("the expression nests too deep to read"), range)] }
        // `(c ? a : b)`: what the parentheses hold.
        if range.count > 2, t[range.lowerBound].kind == .open, t[range.lowerBound].text == "(", t[range.lowerBound].match == range.upperBound {
            return alternatives((range.lowerBound + 1)...(range.upperBound - 1), flavor: flavor, depth: depth + 1)
        }
        // `c ? a : b` at this level: the first `?` with space before it, and its `:`.
        var i = range.lowerBound
        while i <= range.upperBound {
            let token = t[i]
            if token.kind == .open, let close = token.match, close <= range.upperBound { i = close + 1; continue }
            if token.kind == .operator && token.text == "?" && token.spaceBefore {
                var nested = 0
                var j = i + 1
                while j <= range.upperBound {
                    let inner = t[j]
                    if inner.kind == .open, let close = inner.match, close <= range.upperBound { j = close + 1; continue }
                    if inner.kind == .operator && inner.text == "?" && inner.spaceBefore { nested += 1 }
                    if inner.kind == .punctuation && inner.text == ":" {
                        if nested == 0 { break }
                        nested -= 1
                    }
                    j += 1
                }
                guard j < range.upperBound, i + 1 <= j - 1 else { return [(.unknown("a condition whose branches are not read"), range)] }
                let branches = alternatives((i + 1)...(j - 1), flavor: flavor, depth: depth + 1) + alternatives((j + 1)...range.upperBound, flavor: flavor, depth: depth + 1)
                return branches.count > Self.maximumAlternatives ? [(.unknown("more than \(Self.maximumAlternatives) colors by condition"), range)] : branches
            }
            if token.kind == .operator && token.text == "??" && i > range.lowerBound && i < range.upperBound {
                let branches = alternatives(range.lowerBound...(i - 1), flavor: flavor, depth: depth + 1) + alternatives((i + 1)...range.upperBound, flavor: flavor, depth: depth + 1)
                return branches.count > Self.maximumAlternatives ? [(.unknown("more than \(Self.maximumAlternatives) colors by condition"), range)] : branches
            }
            i += 1
        }
        return [(term(range, flavor: flavor, depth: depth), range)]
    }

    /// One color term.
    func term(_ range: ClosedRange<Int>, flavor: Flavor, depth: Int) -> SwiftColor {
        let t = structure.tokens
        guard depth < 16 else { return .unknown("the expression nests too deep to read") }
        var lo = range.lowerBound, hi = range.upperBound
        // Parentheses around it, and what only converts it (`?.cgColor`, `!`).
        while lo < hi, t[lo].kind == .open, t[lo].text == "(", t[lo].match == hi { lo += 1; hi -= 1 }
        while hi > lo {
            let last = t[hi]
            if last.kind == .operator && (last.text == "!" || last.text == "?") { hi -= 1; continue }
            if last.kind == .identifier && last.text == "cgColor" && hi - 1 > lo && [".", "?.", "!."].contains(t[hi - 1].text) { hi -= 2; continue }
            break
        }
        // Alpha changed in code: a color no token holds.
        if hi > lo, t[hi].kind == .close, let open = t[hi].match, open > lo + 1, t[open - 1].kind == .identifier,
           ["withAlphaComponent", "opacity"].contains(t[open - 1].text) {
            return .unknown("\(structure.text(lo...hi)) changes the color's alpha in code, so no token holds the color drawn")
        }
        let first = t[lo]
        // `nil`: no color.
        if lo == hi && first.kind == .identifier && first.text == "nil" { return .clear }
        // `Color("name")`, `Color("name", bundle: …)`, `UIColor(named: "name")`, `NSColor(named:)`.
        if first.kind == .identifier, lo + 2 <= hi, t[lo + 1].kind == .open, t[lo + 1].text == "(", t[lo + 1].match == hi {
            let type = first.text
            let argument = lo + 2
            if t[argument].kind == .string, type == "Color" || type == "SwiftUI.Color" {
                return catalog(t[argument], written: structure.text(lo...hi))
            }
            if type.hasSuffix("Color"), argument + 2 < hi, t[argument].text == "named", t[argument + 1].text == ":", t[argument + 2].kind == .string {
                return catalog(t[argument + 2], written: structure.text(lo...hi))
            }
            // `Color(uiColor: X)`, `Color(nsColor: X)`, `Color(X)`, `AnyShapeStyle(X)`: X.
            if type == "Color" || type == "AnyShapeStyle" || type == "UIColor" || type == "NSColor" {
                var inner = argument
                if argument + 1 < hi, t[argument].kind == .identifier, t[argument + 1].text == ":" {
                    guard ["uiColor", "nsColor", "cgColor"].contains(t[argument].text) else {
                        return .unknown("\(structure.text(lo...hi)) is a color written in code, not a token")
                    }
                    inner = argument + 2
                }
                guard inner <= hi - 1 else { return .unknown("\(structure.text(lo...hi)) names no color") }
                // `Color(.systemBackground)` is a UIColor made a Color; `UIColor(Color.red)` the reverse.
                let innerFlavor: Flavor = type == "AnyShapeStyle" ? flavor : type == "Color" ? .uiKit : .swiftUI
                return term(inner...(hi - 1), flavor: innerFlavor, depth: depth + 1)
            }
            return .unknown("\(structure.text(lo...hi)) is a call whose color is not read")
        }
        // A member path: `.name`, `Color.name`, `UIColor.name`, `Assets.Colors.name`, `name`.
        var path: [String] = []
        var i = lo
        if first.kind == .punctuation && first.text == "." { path.append(""); i += 1 }
        while i <= hi {
            guard t[i].kind == .identifier else { return .unknown("\(structure.text(lo...hi)) is an expression whose color is not read") }
            path.append(t[i].text)
            i += 1
            if i > hi { break }
            guard t[i].kind == .punctuation && t[i].text == "." || t[i].kind == .operator && (t[i].text == "?." || t[i].text == "!.") else {
                return .unknown("\(structure.text(lo...hi)) is an expression whose color is not read")
            }
            i += 1
        }
        guard let name = path.last, !name.isEmpty else { return .unknown("\(structure.text(lo...hi)) names no color") }
        let written = structure.text(lo...hi)
        let type = path.count >= 2 ? path[path.count - 2] : ""
        let pathFlavor: Flavor = type == "UIColor" || type == "NSColor" || type == "RSColor" ? .uiKit : type == "Color" ? .swiftUI : flavor
        if path.count == 1 {
            // A variable of the file, else one set elsewhere.
            if let known = definition(name, flavor: flavor, depth: depth) { return known }
            return .unknown("\(name) is a variable or parameter whose color is set elsewhere")
        }
        return member(name, type: type, flavor: pathFlavor, written: written, depth: depth)
    }

    /// The color a member names: a system or fixed color, a definition of the file, or a color
    /// set by the symbol Xcode generates for it.
    func member(_ name: String, type: String, flavor: Flavor, written: String, depth: Int) -> SwiftColor {
        if name == "clear" { return .clear }
        let systemTypes: Set<String> = ["", "Color", "UIColor", "NSColor", "RSColor", "SwiftUI.Color", "ShapeStyle"]
        if systemTypes.contains(type) {
            if flavor == .uiKit, let fixed = Self.uiKitFixed[name] { return .color(fixed, how: "UIKit's fixed \(name), \(fixed)") }
            if flavor == .swiftUI, let system = Self.swiftUINames[name] {
                if name == "accentColor" {
                    if tokens.catalogNames.contains("AccentColor") { return .color("AccentColor", how: "the catalog's AccentColor") }
                    return .color("ios.systemBlue", how: "the accent color, which no catalog read sets: system blue")
                }
                return .color(system, how: system.hasPrefix("#") ? nil : "SwiftUI's .\(name), \(system)")
            }
            if AppleSystemColors.table[name] != nil { return .color("ios." + name, how: nil) }
        }
        if let known = definition(name, flavor: flavor, depth: depth) { return known }
        if tokens.catalogNames.contains(name) { return .color(name, how: nil) }
        if let sets = tokens.catalogSymbols[name] {
            guard sets.count == 1, let set = sets.first else {
                return .unknown("\(written.excerpt(60)) may be any of the color sets \(sets.prefix(3).joined(separator: ", ")) by its name")
            }
            return .color(set, how: "color set \(set), by the symbol Xcode generates for it")
        }
        return .unknown("\(written.excerpt(60)) is not a system color or a color set of the catalogs read")
    }

    /// What a `let` of the file names, read once; nil when the file defines no such name.
    func definition(_ name: String, flavor: Flavor, depth: Int) -> SwiftColor? {
        guard let entry = definitions[name] else { return nil }
        guard let range = entry else { return .unknown("\(name) is defined more than once in the file; which one applies is not read") }
        if let known = memo.definitions[name] { return known }
        // A definition that names itself (or a cycle of them) stops at the depth limit.
        memo.definitions[name] = .unknown("\(name) is defined in terms of itself")
        let found = resolved(term(range, flavor: flavor, depth: depth + 1), via: "\(name), defined at line \(structure.tokens[range.lowerBound].line)")
        memo.definitions[name] = found
        return found
    }

    func resolved(_ color: SwiftColor, via: String) -> SwiftColor {
        switch color {
        case .color(let name, let how): .color(name, how: [via, how].compactMap { $0 }.joined(separator: ", "))
        case .clear: .clear
        case .unknown(let why): .unknown("\(via): \(why)")
        }
    }

    /// A color set named in code (`Label/primary`): the catalog reader's name for it.
    func catalog(_ literal: SwiftTokens.Token, written: String) -> SwiftColor {
        guard !literal.interpolates else { return .unknown("\(written) names its color set by an interpolated string, which is not read") }
        let dotted = literal.text.replacingOccurrences(of: "/", with: ".")
        if tokens.catalogNames.contains(dotted) { return .color(dotted, how: nil) }
        if tokens.catalogNames.contains(literal.text) { return .color(literal.text, how: nil) }
        return .unknown("\(written) names no color set of the catalogs read")
    }

    /// UIKit's fixed colors (`UIColor.white`…), which do not change with the appearance:
    /// UIKit documents each as its components (white 0.5 for gray, 1/3 for dark gray…).
    static let uiKitFixed: [String: String] = [
        "white": "#ffffff", "black": "#000000", "gray": "#808080", "darkGray": "#555555", "lightGray": "#aaaaaa",
        "red": "#ff0000", "green": "#00ff00", "blue": "#0000ff", "cyan": "#00ffff", "yellow": "#ffff00",
        "magenta": "#ff00ff", "orange": "#ff8000", "purple": "#800080", "brown": "#996633",
    ]

    /// SwiftUI's colors and hierarchical styles as Apple's system colors: its named colors are the
    /// system's dynamic ones (`Color.red` is `systemRed`), `.primary`… `.quaternary` the label
    /// colors of their level, white and black fixed.
    static let swiftUINames: [String: String] = [
        "white": "#ffffff", "black": "#000000",
        "primary": "ios.label", "secondary": "ios.secondaryLabel", "tertiary": "ios.tertiaryLabel", "quaternary": "ios.quaternaryLabel",
        "red": "ios.systemRed", "orange": "ios.systemOrange", "yellow": "ios.systemYellow", "green": "ios.systemGreen", "mint": "ios.systemMint",
        "teal": "ios.systemTeal", "cyan": "ios.systemCyan", "blue": "ios.systemBlue", "indigo": "ios.systemIndigo", "purple": "ios.systemPurple",
        "pink": "ios.systemPink", "brown": "ios.systemBrown", "gray": "ios.systemGray", "link": "ios.link", "accentColor": "",
    ]
}
