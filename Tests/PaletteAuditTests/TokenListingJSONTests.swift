import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The token listing (`POST /v1/tokens`) written by the JSON writer is the document
/// `JSONEncoder` wrote before, byte for byte, and it stops where the request says.
@Suite struct TokenListingJSONTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A listing as the route makes it: audited, then located in its document.
    static func listing(_ bytes: [UInt8], file: String, stylesheet: Bool = false) -> TokenListing {
        let (palette, problems) = PaletteDecoder.decode(bytes: bytes, mediaType: stylesheet ? "text/css" : nil, defaultName: file)
        guard let palette else { return TokenListing(nil, problems: problems) }
        let audited = Auditor().audit(palette, problems: problems)
        var listing = TokenListing(palette, problems: audited.problems, warnings: audited.warnings ?? [], ledger: audited.ledger)
        listing.locate(in: bytes, palette: palette, stylesheet: stylesheet)
        return listing
    }

    static func encoded(_ listing: TokenListing) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(listing), as: UTF8.self)
    }

    /// Documents with every member a listing has: themes that extend others (inherited
    /// tokens), aliases (colorFrom), descriptions, assumptions, a color outside sRGB, tokens
    /// that do not resolve, problems and warnings, the ledger's entries, spans, check colors
    /// and the objects overrides go in; names and values with quotes, slashes, controls and
    /// text beyond ASCII.
    static let documents: [(String, String)] = [
        ("tricky.json", ##"{"name": "t/\"q\"", "themes": {"light": {"tokens": {"fg": {"$value": "#777", "$description": "a \"grey\"\n\tline/é"}, "bg": "rgb(0 0 0 / 0.5)", "x": "{nope}", "p3": "color(display-p3 1 0 0)", "link": "{fg}", "page": {"$value": "#ffffff", "$extensions": {"org.contrast": {"assumed": "white is assumed \u0001"}}}}}, "dark": {"extends": "light", "tokens": {"fg": "#eee"}}}, "checks": [{"id": "c", "foreground": "fg", "background": "#fff"}, {"foreground": "link", "background": "page"}]}"##),
        ("tokens.json", ##"{"color": {"$type": "color", "text": {"$value": "#0f172a"}, "bg": {"$value": {"colorSpace": "oklch", "components": [0.5, 0.1, 250]}}, "bad": {"$value": "#12"}, "odd": {"$value": "#000000", "tyzpe": "x"}}, "size": {"$type": "dimension", "$value": {"value": 4, "unit": "px"}}}"##),
        ("globals.css", ":root { --bg: #ffffff; --fg: var(--gray-9, #1f2328); --gray-9: #1f2328; --gap: 1rem; --bad: #12; }\n@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; } }\n.card .title { --x: red; }\n[data-theme=\"hc\"] { --fg: light-dark(#000, #fff); }\n"),
        // Ledger entries for a rule's declarations (count, lines and names).
        ("scoped.css", ":root { --bg: #fff; }\n.card .title { --a: #000; --b: #111;\n  --c: #222; }\n@font-face { --g: #666; --h: #777; }\n"),
    ]

    @Test func theWrittenListingIsTheEncodedOne() throws {
        var listings: [(String, TokenListing)] = Self.documents.map { name, text in (name, Self.listing(Array(text.utf8), file: name, stylesheet: name.hasSuffix(".css"))) }
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("palettes").path).sorted() where file.hasSuffix(".json") {
            let bytes = try [UInt8](Data(contentsOf: Self.repository.appendingPathComponent("palettes/\(file)")))
            listings.append((file, Self.listing(bytes, file: file)))
        }
        listings.append(("none", TokenListing(nil, problems: [PaletteProblem(.invalidJSON, "not JSON", file: "x.json")])))
        for (name, listing) in listings {
            #expect(String(decoding: listing.compactJSON(), as: UTF8.self) == (try Self.encoded(listing)), "\(name)")
        }
        // The documents exercise what they are meant to.
        let tricky = listings[0].1
        #expect(tricky.themes.count == 2 && !tricky.themes[1].inherited.isEmpty)
        #expect(tricky.checkColors?.isEmpty == false && tricky.overrideParents?.isEmpty == false)
        #expect(tricky.themes[0].tokens.contains { $0.colorFrom != nil } && tricky.themes[0].tokens.contains { $0.outOfGamut == true })
        #expect(tricky.themes[0].tokens.contains { $0.assumed != nil } && tricky.themes[0].tokens.contains { $0.problem != nil } && !tricky.problems.isEmpty)
        #expect(listings[2].1.ledger?.notRead.isEmpty == false && listings[1].1.warnings.isEmpty == false)
    }

    /// A DTCG color object's own values each have their span (what the page edits, keeping the
    /// object's layout): the bytes at each span are the member's value as written.
    @Test func aColorObjectListsWhereEachOfItsValuesIsWritten() throws {
        let text = "{\n  \"ink\": {\"$type\": \"color\", \"$value\": {\n    \"colorSpace\": \"srgb\",\n    \"components\": [0.6, 0.6, 0.6],\n    \"alpha\": 1,\n    \"hex\": \"#999999\"\n  }},\n  \"odd\": {\"$type\": \"color\", \"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, \"none\", 0], \"hex\": \"#ff0000\"}}\n}\n"
        let bytes = Array(text.utf8)
        let listing = Self.listing(bytes, file: "dtcg.json")
        try #require(listing.themes.count == 1)
        let tokens = Dictionary(uniqueKeysWithValues: listing.themes[0].tokens.map { ($0.name, $0) })
        let at = { (span: TokenListing.Span?) in span.map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) } }
        let ink = try #require(tokens["ink"]?.members)
        #expect(at(ink.colorSpace) == "\"srgb\"" && at(ink.alpha) == "1" && at(ink.hex) == "\"#999999\"")
        #expect(ink.components?.map { at($0) } == ["0.6", "0.6", "0.6"])
        #expect(ink.components?.first?.line == 4 && ink.alpha?.line == 5)
        // A component that is not a number: the components are left to a whole rewrite.
        let odd = try #require(tokens["odd"]?.members)
        #expect(odd.components == nil && at(odd.hex) == "\"#ff0000\"" && at(odd.colorSpace) == "\"srgb\"")
        #expect(String(decoding: listing.compactJSON(), as: UTF8.self) == (try Self.encoded(listing)))
    }

    /// Real design systems' files (`../shared/realworld*`, when present): the same bytes.
    @Test func realWorldListingsAreTheEncodedOnes() throws {
        let shared = Self.repository.deletingLastPathComponent().appendingPathComponent("shared")
        let files = ["realworld/radix/radix.palette.json", "realworld/primer/build-light-values.json"]
            .map { shared.appendingPathComponent($0).path }.filter { FileManager.default.fileExists(atPath: $0) }
        for path in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let listing = Self.listing(bytes, file: path)
            #expect(String(decoding: listing.compactJSON(), as: UTF8.self) == (try Self.encoded(listing)), "\(path)")
        }
    }

    /// Asked before each theme: once the request is cancelled, no theme more is listed.
    @Test func aCancelledListingStopsBeforeTheNextTheme() throws {
        let themes = (0..<50).map { "\"t\($0)\": {\"tokens\": {\"fg\": \"#000\", \"bg\": \"#fff\"}}" }.joined(separator: ", ")
        let (palette, _) = PaletteDecoder.decode("{\"name\": \"many\", \"themes\": {\(themes)}}", file: "many.json")
        let asked = Counter()
        let many = try #require(palette)
        let listing = TokenListing(many, shouldStop: { asked.next() > 3 })
        #expect(listing.themes.map(\.name) == ["t0", "t1", "t2"])
        #expect(TokenListing(many).themes.count == 50)
    }

    /// Under a request's output ceiling the listing's buffer stops growing at the limit.
    @Test func theListingStopsAtTheOutputCeiling() throws {
        let tokens = (0..<2_000).map { "\"t\($0)\": \"#\(String(format: "%06x", $0 * 977))\"" }.joined(separator: ", ")
        let listing = Self.listing(Array("{\"name\": \"big\", \"tokens\": {\(tokens)}}".utf8), file: "big.json")
        let whole = listing.compactJSON().count
        #expect(whole > 64 << 10)
        let ceiling = OutputCeiling(limit: 64 << 10)
        let bytes = OutputCeiling.with(ceiling) { listing.compactJSON() }
        #expect(ceiling.isExceeded && bytes.count <= 64 << 10)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}
