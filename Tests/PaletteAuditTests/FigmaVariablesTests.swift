import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// Figma's REST `variables/local` response, as Figma's API reference describes it: collections
/// with modes, variables with `valuesByMode`, colors as RGBA in 0…1 and `VARIABLE_ALIAS` values.
@Suite struct FigmaVariablesTests {
    /// A response with a primitives collection (one mode), a local semantic collection (Light,
    /// Dark), a library copy that reuses the local mode IDs, and a FLOAT variable.
    static let response = #"""
    {"status": 200, "error": false, "meta": {
      "variableCollections": {
        "VariableCollectionId:1:0": {"id": "VariableCollectionId:1:0", "name": "Primitives", "modes": [{"modeId": "1:0", "name": "Value"}], "defaultModeId": "1:0", "remote": false, "variableIds": []},
        "VariableCollectionId:2:0": {"id": "VariableCollectionId:2:0", "name": "Semantic", "modes": [{"modeId": "2:0", "name": "Light"}, {"modeId": "2:1", "name": "Dark"}], "defaultModeId": "2:0", "remote": false, "variableIds": []},
        "VariableCollectionId:abc/3:0": {"id": "VariableCollectionId:abc/3:0", "name": "Library", "modes": [{"modeId": "2:0", "name": "Day"}, {"modeId": "2:1", "name": "Night"}], "defaultModeId": "2:1", "remote": true, "variableIds": []}
      },
      "variables": {
        "VariableID:1:1": {"id": "VariableID:1:1", "name": "gray/900", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
                           "valuesByMode": {"1:0": {"r": 0.0666666701436043, "g": 0.0666666701436043, "b": 0.0666666701436043, "a": 1}}},
        "VariableID:1:2": {"id": "VariableID:1:2", "name": "gray/50", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
                           "valuesByMode": {"1:0": {"r": 0.9803921580314636, "g": 0.9803921580314636, "b": 0.9803921580314636, "a": 1}}},
        "VariableID:1:3": {"id": "VariableID:1:3", "name": "space/4", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "FLOAT",
                           "valuesByMode": {"1:0": 4}},
        "VariableID:2:1": {"id": "VariableID:2:1", "name": "text/default", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
                           "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:1"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:2"}}},
        "VariableID:2:2": {"id": "VariableID:2:2", "name": "bg/default", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
                           "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:2"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:1"}}},
        "VariableID:2:3": {"id": "VariableID:2:3", "name": "text/muted", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
                           "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:2:1"}, "2:1": {"r": 1, "g": 1, "b": 1, "a": 0.5}}},
        "VariableID:2:4": {"id": "VariableID:2:4", "name": "brand", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
                           "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:ffff/9:9"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:ffff/9:9"}}},
        "VariableID:abc/3:1": {"id": "VariableID:abc/3:1", "name": "accent", "variableCollectionId": "VariableCollectionId:abc/3:0", "resolvedType": "COLOR", "remote": true,
                               "valuesByMode": {"2:0": {"r": 1, "g": 0, "b": 0, "a": 1}, "2:1": {"r": 0, "g": 0, "b": 1, "a": 1}}}
      }
    }}
    """#

    /// 50 local modes over a library collection of `variables` variables: each variable is a
    /// token of every theme (test_hostile_linear.py's `figma_rest_modes`).
    static func libraryInEveryMode(variables: Int) -> [UInt8] {
        let modes = (0..<50).map { "{\"modeId\": \"l\($0)\", \"name\": \"mode\($0)\"}" }.joined(separator: ",")
        let rgb = "{\"r\": 0.1, \"g\": 0.2, \"b\": 0.3, \"a\": 1}"
        var entries = ["\"v:local\": {\"name\": \"bg/page\", \"resolvedType\": \"COLOR\", \"variableCollectionId\": \"c:local\", \"valuesByMode\": {" + (0..<50).map { "\"l\($0)\": \(rgb)" }.joined(separator: ",") + "}}"]
        for i in 0..<variables {
            entries.append("\"v:\(i)\": {\"name\": \"lib/text\(i)\", \"resolvedType\": \"COLOR\", \"variableCollectionId\": \"c:lib\", \"valuesByMode\": {\"r0\": \(rgb)}}")
        }
        return Array(("{\"meta\": {\"variableCollections\": {\"c:local\": {\"name\": \"Local\", \"modes\": [\(modes)], \"defaultModeId\": \"l0\", \"remote\": false}, "
            + "\"c:lib\": {\"name\": \"Library\", \"modes\": [{\"modeId\": \"r0\", \"name\": \"Value\"}], \"defaultModeId\": \"r0\", \"remote\": true}}, "
            + "\"variables\": {\(entries.joined(separator: ","))}}}").utf8)
    }

    /// Every theme's copy of the variables is charged what it holds (``ReadBudget/bytesPerThemeToken``),
    /// so `--max-request-memory` bounds what modes multiply: 50 modes × 1,001 variables (133 KB)
    /// hold about 50 MB once read, audited and listed, past a cap of 32 MiB; charged at 64 bytes
    /// a copy (3 MB) the file was read under any cap, and at 4,000 variables two such requests
    /// took the server past the pod's 384 MiB (`make soak-bombs`).
    @Test func modesThatCopyEveryVariableAreChargedWhatTheCopiesHold() throws {
        let bytes = Self.libraryInEveryMode(variables: 1_000)
        let capped = ReadBudget(inputBytes: bytes.count, maximumBytes: 32 << 20)
        let (refused, problems) = ReadBudget.withBudget(capped) { PaletteDecoder.decode(bytes: bytes, mediaType: nil, defaultName: "modes") }
        #expect(refused?.themes.count == nil, "a read past the cap gives no palette")
        let stop = try #require(capped.problem)
        #expect(stop.code == .limitExceeded && stop.message.contains("the themes of the Figma modes") && stop.message.contains("32 MiB"), "\(stop.message)")
        #expect(problems.contains(stop))
        // Under the default cap the same file is read: 50 themes of 1,001 tokens.
        let (read, _) = ReadBudget.withBudget(ReadBudget(inputBytes: bytes.count)) { PaletteDecoder.decode(bytes: bytes, mediaType: nil, defaultName: "modes") }
        #expect(read?.themes.count == 50 && read?.themes.allSatisfy { $0.tokens.count == 1_001 } == true)
    }

    @Test func modesOfLocalCollectionsAreThemesAndAliasesResolvePerMode() throws {
        let (palette, problems) = PaletteDecoder.decode(bytes: Array(Self.response.utf8), file: "/tmp/file.json")
        let p = try #require(palette)
        #expect(p.format?.hasPrefix("Figma variables (REST API); 7 color variables in 3 collections (2 local); themes from the modes of Semantic") == true)
        #expect(p.themes.map(\.name) == ["Light", "Dark"])
        let colors = resolvedColors(p)
        #expect(colors["Light"]?["text.default"] == "#111111")
        #expect(colors["Light"]?["bg.default"] == "#fafafa")
        #expect(colors["Dark"]?["text.default"] == "#fafafa")
        #expect(colors["Dark"]?["bg.default"] == "#111111")
        // A chain of two aliases in Light; its own value in Dark.
        #expect(colors["Light"]?["text.muted"] == "#111111")
        #expect(p.themes[1].tokens.first { $0.name == "text.muted" }?.value == "color(srgb 1 1 1 / 0.5)")
        // The library copy reuses the local mode IDs, but is resolved by its own default mode
        // (Night), never by the local collection's mode.
        #expect(colors["Light"]?["accent"] == "#0000ff")
        #expect(colors["Dark"]?["accent"] == "#0000ff")
        // Not a color: not a token.
        #expect(colors["Light"]?["space.4"] == nil)
        // An alias to a variable the response does not include: not read, said once, with its ID.
        #expect(colors["Light"]?["brand"] == nil)
        let brand = problems.filter { $0.message.contains("brand") }
        #expect(brand.count == 1)
        #expect(brand.first?.message == "brand is not read: it is an alias to VariableID:ffff/9:9, a variable this response does not include (a library's), so its color is unknown")
        #expect(brand.first?.isWarning == true)
        #expect(problems.allSatisfy { $0.isWarning })
        let ledger = p.ledger.completed(with: p).summary
        #expect(ledger.headline == "read 6 of 7 color declarations; 1 not read (and 1 declaration that is not a color)")
        #expect(ledger.notRead.map(\.name) == ["brand"])
    }

    /// Found by a hostile probe: `{"r": 255, "g": 128, "b": 0}` (8-bit levels where Figma writes
    /// 0…1) was clipped to white and measured 21:1 on black, a pass with exit 0.
    @Test func aChannelOutsideZeroToOneIsNotReadNorMeasured() throws {
        let response = Self.response.replacingOccurrences(of: #""valuesByMode": {"1:0": {"r": 0.0666666701436043, "g": 0.0666666701436043, "b": 0.0666666701436043, "a": 1}}"#,
                                                          with: #""valuesByMode": {"1:0": {"r": 255, "g": 128, "b": 0, "a": 1}}"#)
        #expect(response != Self.response)
        var (palette, problems) = PaletteDecoder.decode(bytes: Array(response.utf8), file: "/tmp/file.json")
        #expect(problems.contains { $0.message.contains("gray/900") && $0.message.contains("channel \"r\" is 255, outside 0…1 (8-bit levels are divided by 255: 255 is 1)") },
                "\(problems.map(\.message))")
        palette?.checks = [Check(id: "gray", foreground: "gray.900", background: "gray.50")]
        let report = Auditor().audit(try #require(palette))
        #expect(report.themes.allSatisfy { $0.results.isEmpty && $0.unresolved?.count == 1 })
        #expect(FigmaVariablesFormat.outOfRange(try JSONParser.parse(Array(#"{"r": 0.5, "g": 0, "b": 1, "a": 1.5}"#.utf8))) == "channel \"a\" is 1.5, outside 0…1")
    }

    @Test func aCheckOnAnUnreadAliasIsUnresolvedNotMeasured() throws {
        var (palette, _) = PaletteDecoder.decode(bytes: Array(Self.response.utf8), file: "/tmp/file.json")
        palette?.checks = [Check(id: "brand-on-bg", foreground: "brand", background: "bg.default")]
        let report = Auditor().audit(try #require(palette))
        #expect(report.themes.allSatisfy { $0.results.isEmpty })
        for theme in report.themes {
            #expect(theme.unresolved?.count == 1)
            // The check is told why: the reader did not read the variable, and where it is.
            #expect(theme.unresolved?.first?.problem.contains("\"brand\" was not read: an alias to VariableID:ffff/9:9, a variable this response does not include") == true,
                    "\(theme.unresolved?.first?.problem ?? "")")
        }
    }

    /// Found by the second red team: a variable with no value for a theme's mode was measured
    /// with its default mode's value, or with any value it had (one stored under a mode its
    /// collection does not have was measured in every theme, with exit 0).
    @Test func aVariableWithoutAValueForAModeHasNoColorInItsThemes() throws {
        let text = #"""
        {"status": 200, "error": false, "meta": {
          "variableCollections": {"C:1": {"id": "C:1", "name": "Semantic", "modes": [{"modeId": "1:0", "name": "Light"}, {"modeId": "1:1", "name": "Dark"}], "defaultModeId": "1:0", "remote": false}},
          "variables": {
            "V:1": {"id": "V:1", "name": "fg", "variableCollectionId": "C:1", "resolvedType": "COLOR", "valuesByMode": {"9:9": {"r": 1, "g": 1, "b": 1, "a": 1}}},
            "V:2": {"id": "V:2", "name": "bg", "variableCollectionId": "C:1", "resolvedType": "COLOR", "valuesByMode": {"1:0": {"r": 0, "g": 0, "b": 0, "a": 1}, "1:1": {"r": 0, "g": 0, "b": 0, "a": 1}}},
            "V:3": {"id": "V:3", "name": "accent", "variableCollectionId": "C:1", "resolvedType": "COLOR", "valuesByMode": {"1:0": {"r": 0, "g": 0, "b": 1, "a": 1}}}
          }}}
        """#
        let (palette, problems) = PaletteDecoder.decode(bytes: Array(text.utf8), file: "vars.json")
        let p = try #require(palette)
        let colors = resolvedColors(p)
        #expect(colors["Light"]?["fg"] == nil && colors["Dark"]?["fg"] == nil, "\(colors)")
        #expect(colors["Light"]?["accent"] == "#0000ff" && colors["Dark"]?["accent"] == nil, "\(colors)")
        #expect(problems.contains { $0.message.hasPrefix("fg: it has no value for mode Light of its collection") })
        #expect(problems.contains { $0.message.hasPrefix("accent: it has no value for mode Dark of its collection") })
        // fg has no color anywhere: not read; accent is read (in Light).
        #expect(p.ledger.notReadEntries.map(\.name) == ["fg"])
    }

    @Test func theRegistryNamesTheFormat() {
        #expect(SourceRegistry.formats.contains { $0.id == "figma-variables" })
        let document = SourceDocument(file: "x.json", bytes: [], json: try? JSONParser.parse(Array(Self.response.utf8)))
        #expect(SourceRegistry.detect(document)?.id == "figma-variables")
    }

    @Test func aRealResponseReadsWithItsModesAsThemes() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/realworld3/figma/figma-variable-parser/figma-response.json").standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: file) else {
            print("skipped: \(file) is absent")
            return
        }
        let loaded = PaletteLoader.loadFile(file)
        let palette = try #require(loaded.palette)
        #expect(palette.themes.map(\.name) == ["Light", "Dark"])
        // 168 COLOR variables; those whose alias chain ends at a library variable the response
        // does not include are each listed once, and every other one is a token.
        let unread = Set(loaded.problems.filter { $0.message.contains("is not read: it is an alias") }.map(\.pointer.description))
        for theme in palette.themes {
            #expect(theme.tokens.count + unread.count == 168, "\(theme.name)")
        }
        #expect(loaded.problems.allSatisfy { $0.isWarning })
        // The ledger against the file's own count (its README: 168 COLOR, 51 FLOAT, 19 STRING).
        let ledger = palette.ledger.completed(with: palette).summary
        #expect(ledger.colorDeclarations == 168 && ledger.read == 146 && ledger.notRead.count == 22 && ledger.notColors == 70)
    }

    /// Themes copy every variable: that copying is spent, so many modes cannot multiply a small
    /// file past its read budget.
    @Test func themesAreSpentFromTheReadBudget() {
        let budget = ReadBudget(maximumSteps: 20)
        let (palette, problems) = ReadBudget.withBudget(budget) {
            PaletteDecoder.decode(bytes: Array(Self.response.utf8), file: "/tmp/file.json")
        }
        #expect(palette == nil)
        #expect(problems.contains { $0.code == .limitExceeded })
    }

    /// A color variable whose collection the response does not hold is not read, and said.
    @Test func aVariableOfAMissingCollectionIsNotRead() throws {
        let text = #"{"meta": {"variableCollections": {}, "variables": {"V:1": {"name": "ink", "variableCollectionId": "C:9", "resolvedType": "COLOR", "valuesByMode": {"1:0": {"r": 0, "g": 0, "b": 0, "a": 1}}}}}}"#
        let palette = try #require(PaletteDecoder.decode(bytes: Array(text.utf8), file: "/tmp/v.json").palette)
        let ledger = palette.ledger.completed(with: palette).summary
        #expect(ledger.notRead.map(\.name) == ["ink"])
        #expect(ledger.notRead.first?.reason == "its collection C:9 is not in the response")
    }
}

/// Figma variables as export plugins write them: the two shapes of `realworld3/figma/`.
@Suite struct FigmaPluginExportTests {
    func decode(_ text: String) throws -> (Palette, [PaletteProblem]) {
        let (palette, problems) = PaletteDecoder.decode(bytes: Array(text.utf8), file: "variables.json")
        return (try #require(palette, "\(problems)"), problems)
    }

    @Test func collectionsModesAndVariablesByName() throws {
        let (palette, problems) = try decode(##"""
        {"version": "1.0.4", "metadata": {}, "collections": [
          {"name": "Primitives", "modes": [{"name": "Value", "variables": [
            {"name": "color/ink", "type": "color", "isAlias": false, "value": "#1B1D22"},
            {"name": "color/paper", "type": "color", "isAlias": false, "value": "#FFFFFFCC"},
            {"name": "space/1", "type": "number", "isAlias": false, "value": 4}]}]},
          {"name": "Color Tokens", "modes": [
            {"name": "Light Mode", "variables": [{"name": "text", "type": "color", "isAlias": true, "value": {"collection": "Primitives", "name": "color/ink"}}]},
            {"name": "Dark Mode", "variables": [{"name": "text", "type": "color", "isAlias": true, "value": {"collection": "Primitives", "name": "color/paper"}}]}]}]}
        """##)
        #expect(problems.filter { !$0.isWarning }.isEmpty, "\(problems)")
        #expect(palette.themes.map(\.name) == ["Light Mode", "Dark Mode"])
        let colors = resolvedColors(palette)
        #expect(colors["Light Mode"]?["text"] == "#1b1d22")
        #expect(colors["Dark Mode"]?["text"] == "#ffffffcc")
        let ledger = palette.ledger.completed(with: palette).summary
        #expect(ledger.read == 4 && ledger.notColors == 1 && ledger.notRead.isEmpty)
    }

    @Test func anArrayOfCollectionsWithModeIDs() throws {
        let (palette, problems) = try decode(##"""
        [{"id": "C:1", "name": "Primitivos", "modes": [{"name": "Mode 1", "modeId": "1:0"}], "variables": [
           {"id": "V:1", "name": "gray/900", "type": "COLOR", "values": {"1:0": {"r": 0.1, "g": 0.1, "b": 0.1, "a": 1}}},
           {"id": "V:2", "name": "size/0", "type": "FLOAT", "values": {"1:0": 0}}]},
         {"id": "C:2", "name": "Semantico", "modes": [{"name": "Mode 1", "modeId": "2:0"}], "variables": [
           {"id": "V:3", "name": "text", "type": "COLOR", "values": {"2:0": {"type": "VARIABLE_ALIAS", "id": "V:1"}}}]}]
        """##)
        #expect(problems.filter { !$0.isWarning }.isEmpty, "\(problems)")
        #expect(resolvedColors(palette)["default"]?["text"] == "#1a1a1a")
        #expect(palette.ledger.completed(with: palette).summary.notColors == 1)
    }
}
