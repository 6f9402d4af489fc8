import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The Swift usage reader and the catalog label conventions (issue #48).
@Suite struct SwiftUsageTests {
    static func set(_ r: Double, _ g: Double, _ b: Double, alpha: Double = 1) -> String {
        #"{"colors": [{"color": {"color-space": "srgb", "components": {"red": "\#(r)", "green": "\#(g)", "blue": "\#(b)", "alpha": "\#(alpha)"}}, "idiom": "universal"}], "info": {"author": "xcode", "version": 1}}"#
    }

    static let namespace = #"{"info": {"author": "xcode", "version": 1}, "properties": {"provides-namespace": true}}"#

    static let catalog: [String: String] = [
        "App/Assets.xcassets/Contents.json": #"{"info": {"author": "xcode", "version": 1}}"#,
        "App/Assets.xcassets/Label/Contents.json": namespace,
        "App/Assets.xcassets/Label/primary.colorset/Contents.json": set(0.1, 0.1, 0.12),
        "App/Assets.xcassets/Label/primary.reverse.colorset/Contents.json": set(0.95, 0.95, 0.95),
        "App/Assets.xcassets/brandColor.colorset/Contents.json": set(0.05, 0.3, 0.6),
        "App/Assets.xcassets/surfaceBackground.colorset/Contents.json": set(0.97, 0.97, 0.96),
        "App/Assets.xcassets/disabledText.colorset/Contents.json": set(0.6, 0.6, 0.6),
        "App/Assets.xcassets/clearColor.colorset/Contents.json": set(0, 0, 0, alpha: 0),
        "App/Assets.xcassets/TextView/Contents.json": namespace,
        "App/Assets.xcassets/TextView/primary.colorset/Contents.json": set(0.5, 0.5, 0.5),
    ]

    static let card = """
        import SwiftUI

        struct Card: View {
            var body: some View {
                VStack {
                    Text("Title")
                        .foregroundStyle(Color("Label/primary"))
                    Text("Sub .background(Color(\\"clearColor\\"))")
                        .foregroundColor(.secondary)
                    // .foregroundStyle(Color("brandColor")).background(Color("clearColor"))
                }
                .background(Color("surfaceBackground"))
            }
        }

        struct Go: View {
            var body: some View {
                Text("Go").foregroundStyle(.white).padding().background(Color.brand)
                Text(\"\"\"
                    .foregroundStyle(Color("brandColor"))
                    \"\"\")
                    .sheet(isPresented: $shown) {
                        Text("x").foregroundStyle(Color("brandColor"))
                    }
            }
        }
        """

    static let badge = """
        import UIKit

        final class BadgeView: UIView {
            let label = UILabel()
            override init(frame: CGRect) {
                super.init(frame: frame)
                backgroundColor = UIColor(named: "brandColor")
                label.textColor = .white
                addSubview(label)
            }
            func highlight(on: Bool) {
                if on {
                    label.textColor = UIColor(named: "Label/primary")
                } else {
                    backgroundColor = UIColor(named: "surfaceBackground")
                }
            }
            func tint(on: Bool) {
                label.backgroundColor = on ? UIColor(named: "brandColor") : .systemBackground
                label.tintColor = on ? .white : .black
                label.textColor = UIColor(named: "brandColor")?.withAlphaComponent(0.5)
            }
        }
        """

    static let cell = """
        import UIKit

        final class RowCell: UICollectionViewListCell {
            @IBOutlet var title: UILabel!
            @IBOutlet var icon: UIImageView!
            static let accent = UIColor(named: "brandColor")!
            override func updateConfiguration(using state: UICellConfigurationState) {
                var config = UIBackgroundConfiguration.listCell()
                switch state.isSelected {
                case true:
                    config.backgroundColor = Self.accent
                    title.textColor = .white
                default:
                    config.backgroundColor = UIColor(named: "clearColor")
                    title.textColor = UIColor(named: "disabledText")
                    icon.tintColor = UIColor(named: "Label/primary")
                }
                backgroundConfiguration = config
            }
        }
        """

    static func fixture() throws -> String {
        var files = catalog
        files["App/Card.swift"] = card
        files["App/BadgeView.swift"] = badge
        files["App/RowCell.swift"] = cell
        return try UsageRun.write(files, prefix: "swift-usage")
    }

    static func pairs(_ result: UsageRun.Result, in file: String) -> [UsagePair] {
        result.pairs.filter { $0.evidence.file.hasSuffix(file) }
    }

    @Test func swiftUIColorsOnTheBackgroundOfTheirChainOrTheViewAround() throws {
        let result = UsageRun.read(try Self.fixture(), with: SwiftUsageReader())
        let card = Self.pairs(result, in: "Card.swift")
        let title = try #require(card.first { $0.foreground == "Label.primary" })
        #expect(title.background == "surfaceBackground" && title.confidence == .usage && title.evidence.line == 7)
        #expect(title.evidence.what == #".foregroundStyle(Color("Label/primary")) on the enclosing view's .background(Color("surfaceBackground")) (line 12)"#)
        let sub = try #require(card.first { $0.foreground == "ios.secondaryLabel" })
        #expect(sub.background == "surfaceBackground" && sub.evidence.line == 9)
        // Its own chain's background; the color set's symbol (brandColor → .brand).
        let go = try #require(card.first { $0.foreground == "#ffffff" })
        #expect(go.background == "brandColor" && go.evidence.line == 18 && go.evidence.what.contains("on its own .background(Color.brand) (line 18)"))
        // What strings and comments hold is no color; a sheet's content is drawn apart.
        #expect(card.count == 3, "\(card.map { "\($0.foreground) on \($0.background)" })")
        #expect(!result.notRead.contains { $0.file.hasSuffix("Card.swift") && ($0.line == 10 || $0.line == 20) })
        #expect(result.notRead.contains { $0.file.hasSuffix("Card.swift") && $0.line == 23 && $0.what.contains("inside .sheet { … }, which is drawn apart") })
    }

    @Test func uiKitColorsOnTheirViewsOrSuperviewsBackgroundInTheirScope() throws {
        let result = UsageRun.read(try Self.fixture(), with: SwiftUsageReader())
        let badge = Self.pairs(result, in: "BadgeView.swift")
        let white = try #require(badge.first { $0.foreground == "#ffffff" })
        #expect(white.background == "brandColor" && white.evidence.line == 8 && white.confidence == .usage)
        #expect(white.evidence.what == #"label.textColor = .white on backgroundColor = UIColor(named: "brandColor") (on its superview, self) (line 7) (UIKit's fixed white, #ffffff)"#)
        // Two branches of an if are alternatives: the if's text is not on the else's background,
        // and with no background known a catalog color is on systemBackground, as a convention.
        let primary = try #require(badge.first { $0.foreground == "Label.primary" })
        #expect(primary.background == "ios.systemBackground" && primary.confidence == .convention && primary.evidence.line == 13)
        #expect(!badge.contains { $0.background == "surfaceBackground" })
        func note(_ line: Int) -> String? { result.notRead.first { $0.file.hasSuffix("BadgeView.swift") && $0.line == line }?.what }
        #expect(note(20)?.contains("both colors depend on conditions") == true, "\(note(20) ?? "none")")
        #expect(note(21)?.contains("changes the color's alpha in code") == true, "\(note(21) ?? "none")")
    }

    @Test func aCellsCasesAreScopesAndItsBackgroundConfigurationIsItsBackground() throws {
        let result = UsageRun.read(try Self.fixture(), with: SwiftUsageReader())
        let cell = Self.pairs(result, in: "RowCell.swift")
        let selected = try #require(cell.first { $0.foreground == "#ffffff" })
        #expect(selected.background == "brandColor" && selected.evidence.line == 12)
        #expect(selected.evidence.what.contains("accent, defined at line 6"))
        func note(_ line: Int) -> String? { result.notRead.first { $0.file.hasSuffix("RowCell.swift") && $0.line == line }?.what }
        #expect(note(15)?.contains("disabledText is a disabled color") == true, "\(note(15) ?? "none")")
        #expect(note(16)?.contains("clearColor is fully transparent") == true, "\(note(16) ?? "none")")
        #expect(cell.count == 1, "\(cell.map { "\($0.foreground) on \($0.background)" })")
    }

    @Test func noPairIsATokenOnItselfDisabledOrTransparent() throws {
        let result = UsageRun.read(try Self.fixture(), with: SwiftUsageReader())
        let tokens = UsageTokens.of(result.context)
        for pair in result.pairs {
            #expect(pair.foreground != pair.background)
            #expect(!TokenNameRole(name: pair.foreground).disabled && !TokenNameRole(name: pair.background).disabled)
            #expect(tokens.reasonNotToPropose(foreground: pair.foreground, background: pair.background) == nil)
        }
    }

    @Test func catalogLabelsAreOnTheSystemBackgroundsByConvention() throws {
        let result = UsageRun.read(try Self.fixture(), with: CatalogLabelConventions())
        #expect(Set(result.pairs.map(\.foreground)) == ["Label.primary"])
        #expect(result.pairs.map(\.background) == CatalogLabelConventions.backgrounds)
        let first = try #require(result.pairs.first)
        #expect(first.confidence == .convention && first.evidence.line == 1 && first.evidence.file.hasSuffix("Label/primary.colorset/Contents.json"))
        #expect(first.evidence.what == "color set Label.primary is named as a label (\"Label\"): iOS draws labels on the system backgrounds, here systemBackground")
        func note(_ set: String) -> String? { result.notRead.first { $0.file.hasSuffix(set + ".colorset/Contents.json") }?.what }
        #expect(note("primary.reverse")?.contains("named for another background than the system's (reverse)") == true)
        #expect(result.notRead.first { $0.file.hasSuffix("TextView/primary.colorset/Contents.json") }?.what.contains("\"Text\" names a component here (TextView.primary)") == true)
        #expect(note("disabledText")?.contains("a disabled color, never proposed") == true)
        #expect(note("brandColor")?.contains("not named as a label or text") == true)
    }

    @Test func theLexerSkipsStringsCommentsAndInterpolations() {
        let source = #"""
            let a = "x \(f("y)")) z" /* c /* nested */ "q" */ let b = #"raw "quote" \(no)"#
            let c = """
                multi "line"
                """ + d
            """#
        let tokens = SwiftTokens(Array(source.utf8)).tokens
        let strings = tokens.filter { $0.kind == .string }
        #expect(strings.count == 3, "\(strings.map(\.text))")
        #expect(strings[0].interpolates && strings[1].text == #"raw "quote" \(no)"# && !strings[1].interpolates)
        #expect(strings[2].text.contains("multi \"line\""))
        #expect(tokens.filter { $0.kind == .identifier }.map(\.text) == ["let", "a", "let", "b", "let", "c", "d"])
        #expect(tokens.last?.line == 4)
    }

    /// n and 4n: one background under n views' colors (flat, and nested n deep), read in a
    /// budget of a few steps a byte, the output growing 4 times.
    @Test(arguments: [false, true]) func hostileSourcesAreReadInLinearWork(nested: Bool) throws {
        func source(_ n: Int) -> String {
            if nested {
                return "struct V: View {\n var body: some View {\n" + String(repeating: "VStack {\n", count: n)
                    + "Text(\"a\").foregroundStyle(Color(\"Label/primary\"))\n" + String(repeating: "}\n", count: n)
                    + ".background(Color(\"surfaceBackground\"))\n}\n}\n"
            }
            var text = "final class V: UIView {\n func f() {\n backgroundColor = UIColor(named: \"surfaceBackground\")\n"
            for i in 0..<n { text += " label\(i).textColor = UIColor(named: \"\(i % 2 == 0 ? "Label/primary" : "missing\(i)")\")\n addSubview(label\(i))\n" }
            return text + " }\n}\n"
        }
        var sizes: [Int] = []
        for n in [400, 1600] {
            var files = Self.catalog
            files["App/Big.swift"] = source(n)
            let root = try UsageRun.write(files, prefix: "swift-hostile")
            let bytes = try #require(FileManager.default.contents(atPath: root + "/App/Big.swift"))
            let budget = ReadBudget(maximumSteps: 16 * bytes.count)
            let result = UsageRun.read(root, with: SwiftUsageReader(), budget: budget)
            #expect(budget.problem == nil, "\(budget.problem?.message ?? "")")
            let pairs = Self.pairs(result, in: "Big.swift")
            #expect(pairs.count == 1 && pairs[0].foreground == "Label.primary" && pairs[0].background == "surfaceBackground", "\(pairs.map(\.evidence.text))")
            let notes = result.notRead.filter { $0.file.hasSuffix("Big.swift") }
            #expect(notes.count == (nested ? 0 : n / 2))
            sizes.append(notes.reduce(0) { $0 + $1.what.utf8.count })
        }
        #expect(sizes[1] <= 4 * sizes[0] + 4 * 2000, "\(sizes)")
    }
}
