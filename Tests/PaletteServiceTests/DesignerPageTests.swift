import Foundation
import MicroHTTPD
import PaletteAudit
import TokenSources
@testable import PaletteService
import Testing
import TestSupport

/// The designers' page and the API calls it makes, without a socket.
@Suite struct DesignerPageTests {
    let routes: Routes
    init() throws { routes = try RoutesTests.routes() }

    func post(_ path: String, _ body: String, accept: String? = nil) -> Request {
        var headers = [Header(name: "Content-Type", value: "application/json")]
        if let accept { headers.append(Header(name: "Accept", value: accept)) }
        return Request(method: "POST", path: path, headers: headers, body: Array(body.utf8))
    }

    func post(_ path: String, _ body: String, query: [String: String]) -> Request {
        var request = post(path, body)
        request.query = query.sorted { $0.key < $1.key }.map { QueryItem(name: $0.key, value: $0.value) }
        return request
    }

    func json(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func pageListsPalettesUnderAStrictPolicy() throws {
        let page = routes.respond(to: Request(method: "GET", path: "/"))
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let policy = try #require(page.header("Content-Security-Policy"))
        #expect(policy.contains("script-src 'self';") && policy.contains("default-src 'none'") && policy.contains("connect-src 'self'"))
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains(##"<a class="name open-palette" href="/v1/palettes/demo/audit" data-palette="demo">demo</a>"##))
        #expect(html.contains("light: <span class=\"verdict-pass\">all 2 checks pass</span>"))
        #expect(html.contains(##"<script type="module" src="/app.js"></script>"##) && !html.contains("<script>"))
        #expect(routes.respond(to: Request(method: "HEAD", path: "/")).body.isEmpty)
        #expect(routes.respond(to: Request(method: "POST", path: "/")).status == 405)
    }

    @Test func assetsAreTheFilesInWeb() throws {
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("web")
        // Every module in web/ is embedded and served as JavaScript (a module left out of
        // Package.swift would fail to import in the browser).
        let modules = try FileManager.default.contentsOfDirectory(atPath: web.path).filter { $0.hasSuffix(".js") }.sorted()
        #expect(modules.contains("app.js") && modules.count > 1)
        #expect(Set(WebAssets.scripts.keys) == Set(modules), "embedded: \(WebAssets.scripts.keys.sorted()), in web/: \(modules)")
        for module in modules {
            let js = routes.respond(to: Request(method: "GET", path: "/" + module))
            #expect(js.status == 200 && js.header("Content-Type") == "text/javascript; charset=utf-8", "\(module)")
            #expect(String(decoding: js.body, as: UTF8.self) == (try String(contentsOf: web.appendingPathComponent(module), encoding: .utf8)),
                    "the served \(module) is web/\(module) as built")
            // Each import names a module that is served.
            let source = String(decoding: js.body, as: UTF8.self)
            for line in source.split(separator: "\n") where line.hasPrefix("import ") {
                let target = try #require(line.split(separator: "'").dropFirst().first).dropFirst(2)
                #expect(WebAssets.scripts[String(target)] != nil, "\(module) imports \(target)")
            }
        }
        let css = String(decoding: routes.respond(to: Request(method: "GET", path: "/app.css")).body, as: UTF8.self)
        #expect(css.hasPrefix(HTMLReport.style), "the report's style first: the audit view is the report's markup")
        #expect(css.hasSuffix(try String(contentsOf: web.appendingPathComponent("app.css"), encoding: .utf8)),
                "the served style ends with web/app.css as built")
    }

    @Test func namesAreEscapedAndEncodedInLinks() {
        let name = "<a href=\"x\">&'"
        let palette = Palette(name: name, description: "<script>", themes: [Theme(name: "<t>", tokens: [Token(name: "x", value: "#000")])])
        let page = DesignerPage.render([PaletteStore.Entry(palette: palette, document: [], file: "x", report: Auditor().audit(palette))])
        #expect(!page.contains("<a href=\"x\">") && !page.contains("<script>") && !page.contains("<t>"))
        #expect(page.contains("href=\"/v1/palettes/%3Ca%20href%3D%22x%22%3E%26%27/audit\""))
        #expect(page.contains("data-palette=\"&lt;a href=&quot;x&quot;&gt;&amp;&#39;\""))
        #expect(DesignerPage.render([]).contains("id=\"no-palettes\""))
    }

    @Test func tokensAreResolvedPerThemeWithTheirPointers() throws {
        let response = routes.respond(to: post("/v1/tokens", RoutesTests.paletteText))
        #expect(response.status == 200)
        let body = try json(response)
        #expect(body["palette"] as? String == "demo")
        #expect((body["problems"] as? [Any])?.isEmpty == true)
        let themes = try #require(body["themes"] as? [[String: Any]])
        #expect(themes.map { $0["name"] as? String } == ["light", "dark"])
        let dark = themes[1]
        #expect(dark["extends"] as? String == "light")
        let tokens = try #require(dark["tokens"] as? [[String: Any]])
        #expect(tokens.first?["pointer"] as? String == "/themes/dark/tokens/text")
        #expect(tokens.first?["hex"] as? String == "#e2e8f0")
        let inherited = try #require(dark["inherited"] as? [[String: Any]])
        #expect(inherited.count == 1 && inherited[0]["name"] as? String == "muted" && inherited[0]["from"] as? String == "light"
                && inherited[0]["hex"] as? String == "#64748b")
    }

    /// Every value's span is exactly its bytes in the posted text, for JSON5 as for JSON, so the
    /// page replaces them without reading the document itself.
    @Test func tokenValuesComeWithTheirSpans() throws {
        let doc = """
            // brand tokens, in JSON5
            {
              tokens: {
                ink: { $type: 'color', $value: '#777777', }, // gray
                paper: {$type: "color", $value: {colorSpace: 'srgb', components: [1, 1, 1], hex: '#ffffff'}},
                "é": { $type: 'color', $value: "#000" },
              },
              checks: [{foreground: 'ink', background: "#fff"}],
            }
            """
        let bytes = Array(doc.utf8)
        let body = try json(routes.respond(to: post("/v1/tokens", doc, query: ["name": "t"])))
        let tokens = try #require((body["themes"] as? [[String: Any]])?.first?["tokens"] as? [[String: Any]])
        func written(_ span: Any?) throws -> String {
            let span = try #require(span as? [String: Int])
            return String(decoding: bytes[try #require(span["start"])..<(try #require(span["end"]))], as: UTF8.self)
        }
        #expect(try tokens.map { try written($0["span"]) } == ["'#777777'", "{colorSpace: 'srgb', components: [1, 1, 1], hex: '#ffffff'}", "\"#000\""])
        let third = try #require(tokens[2]["span"] as? [String: Int])
        #expect(third["line"] == 6 && third["column"] == 36, "line and column (in characters) of the value: \(third)")
        let checks = try #require(body["checkColors"] as? [[String: Any]])
        #expect(try checks.map { "\($0["pointer"] ?? "")=\(try written($0["span"]))" } == ["/checks/0/background=\"#fff\"", "/checks/0/foreground='ink'"])
    }

    /// A badge's colors are measured, so they are places a fix goes: each has its span, and
    /// says whose it is (as the audit names the result), as a check's colors do.
    @Test func badgeColorsComeWithTheirSpans() throws {
        let doc = """
            {"name": "b", "themes": {"light": {"tokens": {"ink": "#111111", "paper": "#ffffff"}}},
             "checks": [{"id": "body", "foreground": "ink", "background": "paper"}],
             "badges": [{"name": "red", "background": "#fee2e2", "text": "#991b1b", "border": "#f87171"},
                        {"name": "teal", "background": "#ccfbf1", "text": "#134e4a"}]}
            """
        let bytes = Array(doc.utf8)
        let body = try json(routes.respond(to: post("/v1/tokens", doc)))
        let places = try #require(body["checkColors"] as? [[String: Any]])
        let written = try places.map { place -> String in
            let span = try #require(place["span"] as? [String: Int])
            let text = String(decoding: bytes[try #require(span["start"])..<(try #require(span["end"]))], as: UTF8.self)
            return "\(place["owner"] ?? "-") \(place["pointer"] ?? "")=\(text)"
        }
        #expect(written == ["badge:red /badges/0/background=\"#fee2e2\"", "badge:red /badges/0/border=\"#f87171\"", "badge:red /badges/0/text=\"#991b1b\"",
                            "badge:teal /badges/1/background=\"#ccfbf1\"", "badge:teal /badges/1/text=\"#134e4a\"",
                            "body /checks/0/background=\"paper\"", "body /checks/0/foreground=\"ink\""], "\(written)")
    }

    /// A stylesheet's values are spans too: the value of the declaration, without
    /// `!important`, so replacing it edits the custom property and nothing else.
    @Test func stylesheetValuesComeWithTheirSpans() throws {
        let css = ":root { --fg: #767676 !important; --bg: /* white */ #ffffff ; --gap: 1rem; --link: var(--fg); }\n/* é */ .dark { --bg: #0d1117 }\n"
        let bytes = Array(css.utf8)
        let request = Request(method: "POST", path: "/v1/tokens", headers: [Header(name: "Content-Type", value: "text/css")], body: bytes)
        let body = try json(routes.respond(to: request))
        var seen: [String] = []
        for theme in try #require(body["themes"] as? [[String: Any]]) {
            for token in try #require(theme["tokens"] as? [[String: Any]]) {
                let span = try #require(token["span"] as? [String: Int])
                let text = String(decoding: bytes[try #require(span["start"])..<(try #require(span["end"]))], as: UTF8.self)
                seen.append("\(theme["name"] ?? "") \(token["name"] ?? "")=\(text)@\(span["line"] ?? 0):\(span["column"] ?? 0)")
            }
        }
        #expect(seen == ["light fg=#767676@1:15", "light bg=#ffffff@1:53", "light link=var(--fg)@1:84",
                         "dark fg=#767676@1:15", "dark link=var(--fg)@1:84", "dark bg=#0d1117@2:23"], "\(seen)")
    }

    /// The objects overrides of inherited tokens go in are listed once each, with the byte
    /// after their last member.
    @Test func overridesHaveAPlaceToGo() throws {
        let doc = """
            {"name": "p", "themes": {
              "light": {"tokens": {"ink": "#555555", "paper": "#ffffff"}},
              "dark": {"extends": "light", "tokens": {"paper": "#333333",}},
              "dim": {"extends": "light"}},
             "checks": [{"foreground": "ink", "background": "paper"}]}
            """
        let bytes = Array(doc.utf8)
        let body = try json(routes.respond(to: post("/v1/tokens", doc)))
        var parents: [String] = []
        for parent in try #require(body["overrideParents"] as? [[String: Any]]) {
            let span = try #require(parent["span"] as? [String: Int])
            let written = String(decoding: bytes[try #require(span["start"])..<(try #require(span["end"]))], as: UTF8.self)
            let end = try #require(parent["membersEnd"] as? Int)
            parents.append("\(parent["pointer"] ?? "") \(written) after \(String(decoding: bytes[(end - 3)..<end], as: UTF8.self))")
        }
        #expect(parents == [##"/themes/dark/tokens {"paper": "#333333",} after 33""##,
                            ##"/themes/dim {"extends": "light"} after ht""##], "\(parents)")
    }

    /// `?include=html`: one request answers the audit's data and its rendered report.
    @Test func anAuditCanCarryItsHTML() throws {
        let audit = try json(routes.respond(to: post("/v1/audit", RoutesTests.paletteText, query: ["include": "html"])))
        let html = try #require(audit["html"] as? String)
        #expect(html.hasPrefix("<!doctype html>") && audit["palettes"] != nil)
        let proposal = try json(routes.respond(to: post("/v1/palettes/demo/proposals", RoutesTests.paletteText, query: ["include": "html"])))
        #expect((proposal["html"] as? String)?.contains("Against the served palette") == true && proposal["comparison"] != nil)
        #expect(try json(routes.respond(to: post("/v1/audit", RoutesTests.paletteText)))["html"] == nil)
        #expect(routes.respond(to: post("/v1/audit", RoutesTests.paletteText, query: ["include": "pdf"])).status == 400)
    }

    @Test func aliasesAndDesignTokenValuesPointAtTheirValue() throws {
        let doc = ##"{"name": "d", "tokens": {"brand": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 1]}}, "link": "{brand}"}, "checks": [{"foreground": "link", "background": "white"}]}"##
        let body = try json(routes.respond(to: post("/v1/tokens", doc)))
        let tokens = try #require((body["themes"] as? [[String: Any]])?.first?["tokens"] as? [[String: Any]])
        #expect(tokens[0]["pointer"] as? String == "/tokens/brand/$value" && tokens[0]["hex"] as? String == "#0000ff")
        #expect(tokens[1]["value"] as? String == "{brand}" && tokens[1]["colorFrom"] as? String == "brand" && tokens[1]["hex"] as? String == "#0000ff")
    }

    @Test func aTokensFileIsNamedByTheNameParameter() throws {
        let doc = ##"{"ink": {"$type": "color", "$value": "#123456"}}"##
        var request = post("/v1/tokens", doc)
        request.query = [QueryItem(name: "name", value: "brand")]
        #expect(try json(routes.respond(to: request))["palette"] as? String == "brand")
        #expect(try json(routes.respond(to: post("/v1/tokens", doc)))["palette"] as? String == "posted")
        request.path = "/v1/audit"
        let audit = try json(routes.respond(to: request))
        #expect((audit["palettes"] as? [[String: Any]])?.first?["name"] as? String == "brand")
        request.query = [QueryItem(name: "name", value: String(repeating: "n", count: 201))]
        #expect(routes.respond(to: request).status == 400)
    }

    @Test func problemsComeBackAsDataWithTheirPointer() throws {
        let bad = routes.respond(to: post("/v1/tokens", ##"{"name": "x", "tokens": {"ink": "#12", "paper": "#fff"}, "checks": [{"foreground": "ink", "background": "paper"}, {"foreground": "paper", "background": "nope"}]}"##))
        #expect(bad.status == 200)
        let body = try json(bad)
        let problems = try #require(body["problems"] as? [[String: Any]])
        #expect(problems.map { $0["pointer"] as? String } == ["/tokens/ink", "/checks/1/background"])
        let ink = try #require(((body["themes"] as? [[String: Any]])?.first?["tokens"] as? [[String: Any]])?.first)
        #expect((ink["problem"] as? String)?.contains("not a valid color") == true && ink["hex"] == nil)
        let syntax = try json(routes.respond(to: post("/v1/tokens", ##"{"name": "#"##)))
        let first = try #require((syntax["problems"] as? [[String: Any]])?.first)
        #expect(first["code"] as? String == "invalid-json" && (first["location"] as? [String: Any])?["line"] as? Int == 1)
        #expect(syntax["palette"] == nil)
        #expect(routes.respond(to: Request(method: "POST", path: "/v1/tokens", headers: [Header(name: "Content-Type", value: "text/plain")], body: [1])).status == 415)
        #expect(routes.respond(to: post("/v1/tokens", "")).status == 400)
    }

    @Test func proposalsAnswerInHTMLAndMarkdownToo() throws {
        let paler = RoutesTests.paletteText.replacing("\"text\": \"#0f172a\"", with: "\"text\": \"#cbd5e1\"")
        let html = routes.respond(to: post("/v1/palettes/demo/proposals", paler, accept: "text/html"))
        #expect(html.status == 200 && html.header("Content-Type") == "text/html; charset=utf-8")
        let page = String(decoding: html.body, as: UTF8.self)
        #expect(page.contains("Against the served palette: <strong>1 regression</strong>"))
        #expect(page.contains(##"data-check="body" data-theme="light" data-verdict="fail" data-regressed="true""##))
        #expect(page.contains(##"data-fix="foreground""##))
        let markdown = routes.respond(to: post("/v1/palettes/demo/proposals", paler, accept: "text/markdown"))
        #expect(markdown.header("Content-Type") == "text/markdown; charset=utf-8")
        let text = String(decoding: markdown.body, as: UTF8.self)
        #expect(text.hasPrefix("## Proposed change to demo") && text.contains("### Against the served palette") && text.contains("**regressed** demo › light › body"))
        let audit = routes.respond(to: post("/v1/audit", RoutesTests.paletteText, accept: "text/markdown"))
        #expect(String(decoding: audit.body, as: UTF8.self).hasPrefix("## Contrast audit of demo"))
        let served = routes.respond(to: Request(method: "GET", path: "/v1/palettes/demo/audit", headers: [Header(name: "Accept", value: "text/markdown")]))
        #expect(served.header("Content-Type") == "text/markdown; charset=utf-8")
    }
}

@Suite struct SidecarProposalTests {
    /// A palette served from `NAME.tokens.json` + `NAME.checks.json` is edited as its tokens file
    /// (what the page downloads); a proposal of that file alone is judged by the served checks.
    @Test func aTokensFileProposalKeepsTheServedChecks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contrast-sidecar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokens = ##"{"text": {"$type": "color", "$value": "#111111"}, "page": {"$type": "color", "$value": "#ffffff"}}"##
        try tokens.write(to: directory.appendingPathComponent("brand.tokens.json"), atomically: true, encoding: .utf8)
        try ##"{"checks": [{"id": "body", "foreground": "text", "background": "page"}]}"##
            .write(to: directory.appendingPathComponent("brand.checks.json"), atomically: true, encoding: .utf8)
        let store = PaletteStore()
        #expect(store.load(directory: directory.path).isEmpty)
        let routes = Routes(store: store)
        let name = try #require(store.status.names.first)
        // The page names the file, so an edit downloads as brand.tokens.json, not brand.json.
        let page = String(decoding: routes.respond(to: Request(method: "GET", path: "/")).body, as: UTF8.self)
        #expect(page.contains(#"data-file="brand.tokens.json""#))
        let pale = tokens.replacing("#111111", with: "#dddddd")
        let response = routes.respond(to: Request(method: "POST", path: "/v1/palettes/\(name)/proposals",
                                                  headers: [Header(name: "Content-Type", value: "application/json")], body: Array(pale.utf8)))
        #expect(response.status == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let regressions = try #require((body["comparison"] as? [String: Any])?["regressions"] as? [[String: Any]])
        #expect(regressions.map { $0["key"] as? String } == ["\(name)/default/body"])
    }
}

@Suite struct TokenListingTests {
    func listing(_ tokens: [(String, String)]) -> [String: TokenListing.Entry] {
        let palette = Palette(name: "p", themes: [Theme(name: "t", tokens: tokens.map { Token(name: $0.0, value: $0.1) })])
        return Dictionary(uniqueKeysWithValues: TokenListing(palette).themes[0].tokens.map { ($0.name, $0) })
    }

    @Test func brokenChainsSayWhy() {
        let tokens = listing([("a", "{b}"), ("b", "{c}"), ("c", "{a}"), ("d", "{a}"), ("e", "{nope}"), ("f", "{e}"), ("g", "#12"), ("h", "{g}"), ("i", "{h}")])
        #expect(tokens["a"]?.problem == "alias cycle: a → b → c → a")
        #expect(tokens["c"]?.problem == "alias cycle: a → b → c → a")
        #expect(tokens["d"]?.problem == "it resolves through \"{a}\", which does not resolve (see that token)")
        #expect(tokens["e"]?.problem == "it aliases \"{nope}\", which names no token of this theme")
        #expect(tokens["f"]?.problem?.hasPrefix("it resolves through \"{e}\"") == true)
        #expect(tokens["g"]?.problem?.hasPrefix("\"#12\" is not a valid color: a hex color has 3, 4, 6 or 8 digits") == true)
        #expect(tokens["i"]?.problem?.hasPrefix("it resolves through \"{g}\"") == true && tokens["i"]?.hex == nil)
    }

    @Test func chainsResolveToTheirEndUpToTheLimit() {
        let limit = ThemeResolver.maximumAliasDepth
        var chain = [("t0", "oklch(0.9 0.4 140)")]
        for i in 1...(limit + 2) { chain.append(("t\(i)", "{t\(i - 1)}")) }
        let tokens = listing(chain)
        #expect(tokens["t0"]?.outOfGamut == true && tokens["t0"]?.colorFrom == nil)
        #expect(tokens["t\(limit)"]?.hex == tokens["t0"]?.hex && tokens["t\(limit)"]?.colorFrom == "t0")
        #expect(tokens["t\(limit + 1)"]?.problem == "its alias chain is longer than \(limit) tokens")
        #expect(tokens["t\(limit + 2)"]?.problem?.hasPrefix("it resolves through \"{t\(limit + 1)}\"") == true)
    }

    /// The linear resolution agrees with the audit's resolver on random alias graphs (cycles,
    /// missing targets, bad colors, chains), across two themes where one extends the other.
    @Test func agreesWithTheAuditsResolver() {
        var generator = SeededGenerator(seed: 23)
        let values = ["#123456", "#12", "red", "oklch(0.7 0.3 30)", "rgba(0, 0, 0, 0.5)", "nope"]
        for _ in 0..<300 {
            let count = Int.random(in: 1...12, using: &generator)
            func tokens(_ prefix: Int) -> [Token] {
                (0..<count).compactMap { i -> Token? in
                    guard Bool.random(using: &generator) || prefix == 0 else { return nil }
                    let value = Bool.random(using: &generator) ? "{t\(Int.random(in: 0...(count), using: &generator))}" : values.randomElement(using: &generator)!
                    return Token(name: "t\(i)", value: value)
                }
            }
            let palette = Palette(name: "p", themes: [Theme(name: "light", tokens: tokens(0)), Theme(name: "dark", extends: "light", tokens: tokens(1))])
            let listing = TokenListing(palette)
            for (theme, listed) in zip(palette.themes, listing.themes) {
                var resolver = ThemeResolver(palette: palette, theme: theme)
                for entry in listed.tokens {
                    let expected = try? resolver.resolve(entry.name).get()
                    let context = "\(generator.replay): \(theme.tokens.map { "\($0.name)=\($0.value)" }) \(entry.name)"
                    #expect(entry.hex == expected?.hex, "\(context)")
                    #expect((entry.problem == nil) == (expected != nil), "\(context)")
                    if let expected { #expect(entry.colorFrom == (expected.aliases?.last), "\(context)") }
                }
            }
        }
    }
}

/// The palettes directory's audits run under a posted audit's limits (found by the second red
/// team: a 50 KB palette with `distinct: ["*"]` over 1,414 tokens made a million pairs, 45 s and
/// 3.7 GB at start-up, and held /v1/report past its deadline).
@Suite struct PaletteStoreLimitTests {
    @Test func aPaletteOverTheCheckLimitIsNotServedAndSaysWhy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokens = (0..<100).map { "\"t\($0)\": \"#\(String(format: "%06x", $0 * 40_000))\"" }.joined(separator: ",")
        try "{\"name\": \"big\", \"themes\": {\"light\": {\"tokens\": {\(tokens)}}}, \"checks\": [{\"id\": \"all\", \"distinct\": [\"*\"]}]}"
            .write(to: directory.appendingPathComponent("big.json"), atomically: true, encoding: .utf8)
        let store = PaletteStore(auditLimits: Auditor.Limits(maximumChecks: 1_000))
        let problems = store.load(directory: directory.path)
        #expect(store.status.names.isEmpty)
        #expect(problems.contains { $0.code == .limitExceeded && $0.message.contains("the limit is 1000") }, "\(problems)")
    }
}
