import Foundation
import PaletteAudit
import TokenSources
import Testing

/// `$extends` and `$ref` that would make a group hold itself (the format's circular references):
/// refused at once, located, and nothing copied, so a long group name is not copied into longer
/// and longer names (fuzz-tokens, `fuzz/documents/tokens-listing-long-names.json`).
@Suite struct TokenCycleTests {
    func decode(_ json: String) -> (palette: Palette?, problems: [PaletteProblem]) {
        PaletteDecoder.decode(json, file: "t.tokens.json")
    }

    func names(_ palette: Palette?) -> Set<String> {
        Set(palette?.themes.first?.tokens.map(\.name) ?? [])
    }

    /// The format's own example of an invalid extension: a group that extends its parent.
    @Test func aGroupExtendingTheGroupThatHoldsItIsACycle() {
        let json = ##"{"button": {"color": {"$type": "color", "$value": "#663399"}, "secondary": {"$extends": "{button}"}}}"##
        let (palette, problems) = decode(json)
        let cycle = problems.filter { $0.code == .extendsCycle }
        #expect(cycle.map(\.description) == ["t.tokens.json:1:89: /button/secondary/$extends $extends cycle: button.secondary → button (which holds button.secondary); none of these groups inherits anything"], "\(problems)")
        #expect(!names(palette).contains("button.secondary.color"))
    }

    /// `a` extends `b`, and a group inside `b` extends `a`: `a` would hold itself through `b.x`.
    @Test func aGroupExtendingAGroupWhoseChildExtendsItIsACycle() {
        let json = ##"{"a": {"$extends": "{b}", "t": {"$type": "color", "$value": "#000000"}}, "b": {"x": {"$extends": "{a}"}, "u": {"$type": "color", "$value": "#ffffff"}}}"##
        let (_, problems) = decode(json)
        let messages = problems.filter { $0.code == .extendsCycle }.map(\.message)
        #expect(messages == ["$extends cycle: a → b (which holds b.x) → a; none of these groups inherits anything"], "\(problems)")
    }

    /// A group may extend a group it holds (nothing holds itself), and what a nested group holds
    /// or inherits itself wins over what its ancestor inherits: local over inherited.
    @Test func aNestedGroupsOwnExtensionWinsOverItsAncestors() throws {
        let json = ##"""
        {"y": {"b": {"t": {"$type": "color", "$value": "#111111"}}, "v": {"$type": "color", "$value": "#333333"}},
         "x": {"t": {"$type": "color", "$value": "#222222"}},
         "a": {"$extends": "{y}", "b": {"$extends": "{x}"}},
         "p": {"$extends": "{p.inner}", "inner": {"w": {"$type": "color", "$value": "#444444"}}}}
        """##
        let (palette, problems) = decode(json)
        #expect(problems.filter { !$0.isWarning }.isEmpty, "\(problems)")
        let tokens = try #require(palette?.themes.first?.tokens)
        #expect(tokens.first { $0.name == "a.b.t" }?.value == "#222222")
        #expect(tokens.first { $0.name == "a.v" }?.value == "#333333")
        #expect(tokens.first { $0.name == "p.w" }?.value == "#444444")
    }

    /// A `$ref` to a group that holds it would copy the group into itself.
    @Test func aReferenceToTheGroupHoldingItIsACycle() {
        let json = ##"{"base": {"c": {"$type": "color", "$value": "#000000"}, "border": {"$ref": "#/base"}}, "other": {"$ref": "#/base/c"}}"##
        let (palette, problems) = decode(json)
        let cycle = problems.filter { $0.code == .refCycle }
        #expect(cycle.map(\.description) == [##"t.tokens.json:1:76: /base/border/$ref $ref cycle: "#/base" names a group holding this reference, which would contain itself; the reference was not followed"##], "\(problems)")
        #expect(!names(palette).contains("base.border.c"))
    }

    /// The document the fuzzer found: 1.6 KB whose `$ref` and `$extends` copied a group with an
    /// 816-byte key into itself listed 195 tokens in 557 KB (340 times the input). Its cycles are
    /// reported, and the listing is within 64 times the input.
    @Test func theLongNamesInputListsWithinItsBound() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../fuzz/documents/tokens-listing-long-names.json")
        let bytes = try [UInt8](Data(contentsOf: url))
        let (palette, problems) = ReadBudget.withBudget(ReadBudget(inputBytes: bytes.count)) { PaletteDecoder.decode(bytes: bytes, file: "tokens.json") }
        #expect(problems.contains { $0.code == .extendsCycle } && problems.contains { $0.code == .refCycle }, "\(problems.map(\.message))")
        let listing = TokenListing(palette, problems: problems)
        let size = listing.compactJSON().count
        #expect(size <= 64 * bytes.count, "\(size) bytes of listing for \(bytes.count) bytes of input")
        // No message quotes the long key in full.
        #expect(problems.allSatisfy { $0.message.utf8.count < 1_000 }, "\(problems.map(\.message.utf8.count))")
    }
}
