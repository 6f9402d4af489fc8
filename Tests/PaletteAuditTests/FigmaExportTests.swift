import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Figma's own variables export (one `<Mode>.tokens.json` per collection and mode) and the files
/// of Figma's sample GitHub Action (`<Collection>.<Mode>.json`): modes are themes, aliases are
/// followed across the files, and what the files do not hold is said.
struct FigmaExportTests {
    func folder(_ files: [String: String]) throws -> String {
        let root = Scratch.directory("figma-export")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return root.path
    }

    /// A native export color: components exactly, and the 6-digit hex Figma writes beside them.
    static func color(_ r: Double, _ g: Double, _ b: Double, alpha: Double = 1) -> String {
        #"{"colorSpace": "srgb", "components": [\#(r), \#(g), \#(b)], "alpha": \#(alpha)}"#
    }

    static func token(_ id: String, _ value: String, alias: (set: String, name: String)? = nil) -> String {
        let aliasData = alias.map { #", "com.figma.aliasData": {"targetVariableId": "VariableID:abc/-1:-1", "targetVariableName": "\#($0.name)", "targetVariableSetId": "VariableCollectionId:def/-1:-1", "targetVariableSetName": "\#($0.set)"}"# } ?? ""
        return #"{"$type": "color", "$value": \#(value), "$extensions": {"com.figma.variableId": "\#(id)"\#(aliasData)}}"#
    }

    func colors(_ palette: Palette, theme: String) throws -> [String: String] {
        let t = try #require(palette.theme(named: theme))
        var resolver = ThemeResolver(palette: palette, theme: t)
        var out: [String: String] = [:]
        for token in t.tokens { out[token.name] = try? resolver.resolve(token.name).get().color.hex }
        return out
    }

    @Test func modesAreThemesAndAliasesFollowTheirTargetsAcrossFiles() throws {
        let base = #"{"Gray": {"900": \#(Self.token("VariableID:1:1", Self.color(0.1, 0.1, 0.1))), "50": \#(Self.token("VariableID:1:2", Self.color(1, 1, 1)))}, "$extensions": {"com.figma.modeName": "Mode 1"}}"#
        // Light's text is exported as the old gray (#000000): the base has moved on.
        let light = #"{"Text": \#(Self.token("VariableID:2:1", Self.color(0, 0, 0), alias: ("Color Base", "Gray/900"))), "Surface": \#(Self.token("VariableID:2:2", Self.color(1, 1, 1), alias: ("Color Base", "Gray/50"))), "$extensions": {"com.figma.modeName": "Light"}}"#
        let dark = #"{"Text": \#(Self.token("VariableID:2:1", Self.color(1, 1, 1), alias: ("Color Base", "Gray/50"))), "Surface": \#(Self.token("VariableID:2:2", Self.color(0.1, 0.1, 0.1), alias: ("Color Base", "Gray/900"))), "$extensions": {"com.figma.modeName": "Dark"}}"#
        let root = try folder(["ColorBase.tokens.json": base, "Light.tokens.json": light, "Dark.tokens.json": dark])
        let loaded = PaletteLoader.loadSources(paths: [root])
        #expect(loaded.palettes.count == 1)
        let palette = try #require(loaded.palettes.first?.palette)
        #expect(palette.format?.hasPrefix("Figma variables export") == true)
        #expect(palette.themes.map(\.name) == ["Dark", "Light"])
        #expect(try colors(palette, theme: "Light")["Text"] == "#1a1a1a")
        #expect(try colors(palette, theme: "Dark")["Text"] == "#ffffff")
        #expect(try colors(palette, theme: "Dark")["Surface"] == "#1a1a1a")
        let stale = loaded.palettes[0].problems.filter { $0.code == .staleValue }
        #expect(stale.count == 1 && stale[0].file?.hasSuffix("Light.tokens.json") == true && stale[0].isWarning)
        // Each mode's value is a declaration of its own: 2 base colors and 2 × 2 semantic ones.
        let ledger = palette.ledger.completed(with: palette).summary
        #expect(ledger.colorDeclarations == 6 && ledger.read == 6)
    }

    @Test func anAliasToALibraryTakesTheExportedValueWithAnAssumption() throws {
        let file = #"{"Brand": \#(Self.token("VariableID:3:1", Self.color(0, 0.4, 0.8), alias: ("Brand Library", "Blue/500"))), "$extensions": {"com.figma.modeName": "Mode 1"}}"#
        let root = try folder(["Mode 1.tokens.json": file])
        let palette = try #require(PaletteLoader.loadSources(paths: [root]).palettes.first?.palette)
        let token = try #require(palette.themes.first?.tokens.first { $0.name == "Brand" })
        #expect(token.value == "color(srgb 0 0.4 0.8)")
        #expect(token.assumed?.contains("Brand Library/Blue/500") == true)
    }

    @Test func theSampleActionsFilesAreCollectionsByNameWithTheirModesAsAxes() throws {
        func primitives(_ hex: String) -> String {
            #"{"color": {"gray": {"900": {"$type": "color", "$value": "\#(hex)", "$description": "", "$extensions": {"com.figma": {"hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}}}}}}, "spacing": {"1": {"$type": "number", "$value": 4, "$description": "", "$extensions": {"com.figma": {"scopes": ["GAP"]}}}}}"#
        }
        let tokens = #"{"text": {"primary": {"$type": "color", "$value": "{color.gray.900}", "$description": "", "$extensions": {"com.figma": {"scopes": ["ALL_SCOPES"]}}}}}"#
        let root = try folder(["Primitives.Brutal.json": primitives("#000000"), "Primitives.Modern.json": primitives("#333333"),
                               "Tokens.Light.json": tokens, "Tokens.Dark.json": tokens])
        let palette = try #require(PaletteLoader.loadSources(paths: [root]).palettes.first?.palette)
        #expect(palette.themes.map(\.name) == ["Brutal-Dark", "Brutal-Light", "Modern-Dark", "Modern-Light"])
        #expect(try colors(palette, theme: "Modern-Light")["text.primary"] == "#333333")
        #expect(try colors(palette, theme: "Brutal-Dark")["text.primary"] == "#000000")
        #expect(palette.ledger.completed(with: palette).summary.notColors == 2)
    }

    /// Many modes of one collection over a base: collections are found by shared IDs in one
    /// pass and aliases through an index, so the work grows with the files, not their pairs.
    @Test func manyModesOfOneCollectionAreReadInOnePass() throws {
        var files: [String: String] = [:]
        let base = (0..<200).map { #""c\#($0)": \#(Self.token("VariableID:1:\($0)", Self.color(Double($0) / 200, 0.5, 0.5)))"# }.joined(separator: ", ")
        files["Base.tokens.json"] = #"{"Palette": {\#(base)}, "$extensions": {"com.figma.modeName": "Mode 1"}}"#
        for mode in 0..<300 {
            let tokens = (0..<200).map { #""t\#($0)": \#(Self.token("VariableID:2:\($0)", Self.color(0, 0, 0), alias: ("Base", "Palette/c\(($0 + mode) % 200)")))"# }.joined(separator: ", ")
            files["M\(mode).tokens.json"] = #"{"Semantic": {\#(tokens)}, "$extensions": {"com.figma.modeName": "M\#(mode)"}}"#
        }
        let root = try folder(files)
        let loaded = PaletteLoader.loadSources(paths: [root])
        let palette = try #require(loaded.palettes.first?.palette)
        #expect(palette.themes.count == 300)
        #expect(try colors(palette, theme: "M7")["Semantic.t0"] == colors(palette, theme: "M7")["Palette.c7"])
    }

    /// A file beside the export that cannot be read is said, not passed over.
    @Test func aBrokenFileBesideTheExportIsAWarning() throws {
        let mode = #"{"Brand": \#(Self.token("VariableID:3:1", Self.color(0, 0.4, 0.8))), "$extensions": {"com.figma.modeName": "Light"}}"#
        let root = try folder(["Light.tokens.json": mode, "Dark.tokens.json": "{\"Brand\": "])
        let loaded = PaletteLoader().loadFile(root + "/Light.tokens.json")
        #expect(loaded.palette?.themes.count == 1)
        let warning = try #require(loaded.problems.first { $0.code == .invalidJSON })
        #expect(warning.isWarning && warning.file?.hasSuffix("Dark.tokens.json") == true && warning.message.contains("not read as part of the Figma export"))
    }

    @Test func theRealExportsReadWithTheirModesAsThemes() throws {
        let base = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/realworld3/figma").standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: base) else {
            print("skipped: \(base) is absent")
            return
        }
        let bison = try #require(PaletteLoader.loadSources(paths: [base + "/flutter-bison-design-system"]).palettes.first?.palette)
        #expect(bison.themes.map(\.name) == ["Dark", "Light"])
        // 122 base + 112 alias + 127 light + 127 dark color values (its README), every one read.
        let summary = bison.ledger.completed(with: bison).summary
        #expect(summary.colorDeclarations == 488 && summary.read == 488 && summary.notColors == 4)
        let action = try #require(PaletteLoader.loadSources(paths: [base + "/variables-github-action-example"]).palettes.first?.palette)
        #expect(action.themes.map(\.name) == ["Brutal Theme-Dark", "Brutal Theme-Light", "Modern Theme-Dark", "Modern Theme-Light"])
    }
}
