import Foundation
import MicroHTTPD
import PaletteAudit
import TokenSources
@testable import PaletteService
import Synchronization
import Testing

@Suite struct RoutesTests {
    static let paletteText = ##"{"name": "demo", "themes": {"light": {"tokens": {"text": "#0f172a", "surface": "#ffffff", "muted": "#64748b"}}, "dark": {"extends": "light", "tokens": {"text": "#e2e8f0", "surface": "#0f172a"}}}, "checks": [{"id": "body", "foreground": "text", "background": "surface"}, {"id": "muted", "foreground": "muted", "background": "surface"}]}"##

    static func routes() throws -> Routes {
        let (palette, problems) = PaletteDecoder.decode(paletteText, file: "demo.json")
        #expect(problems.isEmpty)
        return Routes(store: PaletteStore(palettes: [(try #require(palette), Array(paletteText.utf8))]))
    }

    func json(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func post(_ path: String, _ body: String, type: String = "application/json") -> Request {
        Request(method: "POST", path: path, headers: [Header(name: "Content-Type", value: type)], body: Array(body.utf8))
    }

    /// The token listing is held to `--max-response` while it is written, as the audit is: a
    /// listing of 2,000 tokens past 64 KiB is refused with 422 saying so (before, JSONEncoder
    /// built the whole of it, and a tree of every value besides, before its size was known:
    /// 358 MB of peak memory for a 741 KB Figma file whose listing was 36 MiB).
    @Test func theTokenListingIsHeldToTheResponseLimitWhileItIsWritten() throws {
        var routes = try Self.routes()
        routes.limits.maximumResponseBytes = 64 << 10
        let tokens = (0..<2_000).map { "\"t\($0)\": \"#\(String(format: "%06x", $0 * 977))\"" }.joined(separator: ", ")
        let body = "{\"name\": \"big\", \"tokens\": {\(tokens)}}"
        let response = routes.respond(to: post("/v1/tokens", body))
        #expect(response.status == 422)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains("the response would be more than") && text.contains("the limit is 64 KiB (--max-response)"), "\(text.prefix(400))")
        routes.limits.maximumResponseBytes = 32 << 20
        let whole = routes.respond(to: post("/v1/tokens", body))
        #expect(whole.status == 200 && whole.body.count > 64 << 10)
        #expect(((try json(whole))["themes"] as? [[String: Any]])?.first?["tokens"].map { ($0 as? [Any])?.count } == 2_000)
    }

    /// `--max-response` holds while the answer is built: an audit whose ledger (2,000
    /// component rules of a declaration each, each "not read" with its rule's reason, which the
    /// audit's estimate of its size before any work does not count) would pass 64 KiB is
    /// refused with 422 saying so, its JSON buffer never having grown past the limit. (The
    /// declarations of one rule are one entry of the ledger: 2,000 of them in one rule are
    /// answered in a few KiB, `ReadLedgerTests`.)
    @Test func theResponseLimitHoldsWhileTheAnswerIsBuilt() throws {
        var routes = try Self.routes()
        routes.limits.maximumResponseBytes = 64 << 10
        let css = ":root { --bg: #ffffff; }\n" + (0..<2_000).map { ".card .title\($0) { --t\($0): #\(String(format: "%06x", $0 * 977)); }" }.joined(separator: "\n")
        let response = routes.respond(to: post("/v1/audit", css, type: "text/css"))
        #expect(response.status == 422)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("the response would be more than") && body.contains("the limit is 64 KiB (--max-response)"), "\(body.prefix(400))")
        // The same listing under a limit it fits is answered whole.
        routes.limits.maximumResponseBytes = 32 << 20
        #expect(routes.respond(to: post("/v1/audit", css, type: "text/css")).status == 200)
        // And a buffer under a ceiling never holds more than its limit.
        let ceiling = OutputCeiling(limit: 1_000)
        let bytes = OutputCeiling.with(ceiling) { JSONWriter.compact { w in w.array { w in for i in 0..<1_000 { w.int(i) } } } }
        #expect(ceiling.isExceeded && bytes.count <= 1_000 && ceiling.largest > 1_000)
    }

    /// A palette of `themes` themes that each extend one base of `tokens` tokens: each lists
    /// the base's tokens as inherited, so the listing grows with themes × tokens.
    static func inheriting(themes: Int, tokens: Int) -> String {
        var text = "{\"name\": \"bomb\", \"themes\": {\"base\": {\"tokens\": {"
        text += (0..<tokens).map { "\"t\($0)\": \"#\(String(format: "%06x", $0 * 37))\"" }.joined(separator: ",") + "}}"
        for i in 0..<themes { text += ", \"x\(i)\": {\"extends\": \"base\", \"tokens\": {}}" }
        return text + "}}"
    }

    /// `POST /v1/tokens` is answered under the same bounds as an audit: a listing whose JSON,
    /// at the least, would pass `--max-response` is refused before it is built (300 themes
    /// inheriting 1,000 tokens, 36 KB: 300,000 listed tokens, about 8 MiB), and so is one whose
    /// themes would resolve more tokens than an audit may, whatever the ceiling.
    @Test func theTokenListingIsRefusedBeforeItIsBuilt() throws {
        var routes = try Self.routes()
        routes.limits.maximumResponseBytes = 1 << 20
        let wide = routes.respond(to: post("/v1/tokens", Self.inheriting(themes: 300, tokens: 1_000)))
        let body = String(decoding: wide.body, as: UTF8.self)
        #expect(wide.status == 422 && wide.body.count < 1_000, "\(body.prefix(400))")
        #expect(body.contains("the response would be more than 1 MiB; the limit is 1 MiB (--max-response)"), "\(body.prefix(400))")
        routes.limits.maximumResponseBytes = 1 << 30
        let many = routes.respond(to: post("/v1/tokens", Self.inheriting(themes: 200, tokens: 3_000)))
        let refused = String(decoding: many.body, as: UTF8.self)
        #expect(many.status == 422, "\(refused.prefix(400))")
        #expect(refused.contains("the listing is refused before it is built: the listing would resolve more than 500000 tokens across its themes"), "\(refused.prefix(400))")
        // Within its bounds the listing is whole.
        let fits = routes.respond(to: post("/v1/tokens", Self.inheriting(themes: 3, tokens: 100)))
        #expect(fits.status == 200)
        let themes = try #require(try json(fits)["themes"] as? [[String: Any]])
        #expect(themes.count == 4 && (themes[1]["inherited"] as? [Any])?.count == 100)
    }

    /// What a posted request builds from its document is charged to `--max-request-memory`: an
    /// audit of 14,400 checks from a 6 KB palette is refused with 422 naming what grew under a
    /// 4 MiB budget, and audited under the default.
    @Test func whatARequestBuildsIsChargedToItsMemory() throws {
        var routes = try Self.routes()
        let tokens = (0..<120).map { "\"fg.\($0)\": \"#\(String(format: "%06x", $0 * 311))\", \"bg.\($0)\": \"#\(String(format: "%06x", 0xffffff - $0 * 977))\"" }.joined(separator: ", ")
        let text = "{\"name\": \"pairs\", \"themes\": {\"light\": {\"tokens\": {\(tokens)}}}, \"checks\": [{\"id\": \"all\", \"foreground\": \"fg.*\", \"background\": \"bg.*\"}]}"
        var request = post("/v1/audit", text)
        request.query = [QueryItem(name: "suggestions", value: "none")]
        routes.limits.maximumReadBytes = 4 << 20
        let refused = routes.respond(to: request)
        let body = String(decoding: refused.body, as: UTF8.self)
        #expect(refused.status == 422, "\(body.prefix(400))")
        #expect(body.contains("the audit would build more than the request may: the audit's") && body.contains("would take more than 4 MiB, the memory one request may build (4 MiB, --max-request-memory)"), "\(body.prefix(600))")
        routes.limits.maximumReadBytes = ReadBudget.defaultMaximumBytes
        #expect(routes.respond(to: request).status == 200)
    }

    /// A header's media type is read over its bytes; it is what splitting at `;`, trimming
    /// Foundation's whitespace and lowercasing give, for ASCII fields and for others.
    @Test func mediaTypesReadAsFoundationWouldReadThem() {
        let fields = ["application/json", "Application/JSON; charset=utf-8", " text/css ;x", "\ttext/html\t", ";charset=utf-8", ";;",
                      "", " ", "a; b; c", "TEXT/MARKDOWN;q=0.9", "x\r\n", "\u{00A0}text/html\u{00A0}", "téxt/css", "\u{3000}application/json",
                      "application/design-tokens+json", " ; application/json", "text/html , text/css"]
        for field in fields {
            let expected = field.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            #expect(Routes.bareMediaType(field[...]) == expected, "\(field.debugDescription)")
        }
    }

    /// The audit's representation follows the weights in Accept (RFC 9110 12.5.1), not the mere
    /// mention of a type: `text/html;q=0` refuses HTML, and a client that ranks JSON first gets
    /// JSON though it names HTML too.
    @Test func acceptIsWeighed() {
        let offers = Routes.auditRepresentations
        let cases: [(String?, String)] = [
            (nil, "application/json"), ("", "application/json"), ("*/*", "application/json"),
            ("text/html", "text/html"), ("text/markdown", "text/markdown"), ("TEXT/HTML; charset=UTF-8", "text/html"),
            ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "text/html"),  // a browser
            ("application/json, text/html;q=0.1", "application/json"),
            ("text/html;q=0, application/json", "application/json"),
            ("text/html;q=0", "application/json"),  // refuses the only other: the default
            ("text/*;q=0.5, application/json;q=0.4", "text/html"), ("text/*, text/html;q=0", "text/markdown"),
            ("text/html;q=0.5, text/markdown;q=0.8", "text/markdown"), ("text/markdown, text/html", "text/markdown"),
            ("text/html, text/markdown", "text/html"), ("text/*", "text/html"),
            ("image/png", "application/json"), ("text/html;q=2, text/markdown", "text/markdown"),  // q=2 is no weight
            ("text/html;q=0.5x", "application/json"), ("text/html;q=0.0001", "application/json"),
            ("text/markdown;q=0.3;ext=\"a, text/html;q=1, b\", application/json;q=0.2", "text/markdown"),  // the quoted commas do not split
            ("*/html", "application/json"), ("text/html;Q=0.001, text/markdown;q=0", "text/html"),
            ("application/json;q=1.000, text/html;q=1", "application/json"), (",,  ,", "application/json"),
            // The weight's extensions (after q) are not read, quoted separators and all.
            ("text/html;q=0.5;ext=\"x;q=0.9\", text/markdown;q=0.6", "text/markdown"),
            ("text/html;charset=utf-8;q=0.7;ext=\"y\";q=0, text/markdown;q=0.6", "text/html"),
            ("text/html;q, text/markdown;q=0.5", "text/markdown"),  // a bare q is no weight
            // Parameters: the offers are UTF-8 and have no other.
            ("text/html;level=1;q=0, text/html", "text/html"), ("text/html;level=1", "application/json"),
            ("text/html;charset=latin1", "application/json"), ("text/html; charset=\"UTF-8\"", "text/html"),
            ("text/html;q=0.5, text/html;charset=utf-8;q=0", "application/json"),  // the more specific range decides
        ]
        for (field, expected) in cases {
            #expect(Negotiation.choose(accept: field, offering: offers) == expected, "\(field.debugDescription)")
        }
        #expect(Negotiation.qvalue("0.5") == 0.5 && Negotiation.qvalue("1.000") == 1 && Negotiation.qvalue("0.") == 0 && Negotiation.qvalue("0.123") == 0.123)
        #expect(Negotiation.qvalue("1.001") == nil && Negotiation.qvalue(".5") == nil && Negotiation.qvalue("0.1234") == nil && Negotiation.qvalue("") == nil)
    }

    /// Segments are split on the target as sent, then decoded: "%2F" stays inside its segment.
    @Test func pathSegmentsKeepAnEncodedSlash() {
        func segments(_ target: String) -> [String] { Request(method: "GET", path: "(decoded)", target: target).pathSegments }
        #expect(segments("/v1/palettes/acme%2Fbrand%20%C3%BC/audit?theme=a%2Fb") == ["v1", "palettes", "acme/brand ü", "audit"])
        #expect(segments("/v1/palettes/100%25%zz%4") == ["v1", "palettes", "100%%zz%4"])
        #expect(segments("/") == [""])
        #expect(segments("/%FF") == ["\u{FFFD}"])
        #expect(Request(method: "GET", path: "/a/b").pathSegments == ["a", "b"])
        #expect(Request(method: "GET", path: "/a/b", target: "http://host/x").pathSegments == ["a", "b"])
    }

    /// Routes whose cost grows with the request run on the worker pool; the rest answer inline.
    /// The pool lane's route names are the ones the handler reports.
    @Test func expensiveRoutesRunOnThePool() throws {
        let routes = try Self.routes()
        let pooled = [post("/v1/audit", "{}"), post("/v1/suggest", "{}"), post("/v1/variants", "{}"), post("/v1/tokens", "{}"),
                      post("/v1/report", "{}"), Request(method: "GET", path: "/v1/report"), post("/v1/contrast", "{}"),
                      Request(method: "GET", path: "/v1/palettes/demo/audit"), post("/v1/palettes/demo/proposals", "{}")]
        for request in pooled {
            let placement = routes.lane(for: request)
            #expect(placement.lane == .pool, "\(request.method) \(request.path)")
            #expect(placement.route == routes.respond(to: request).route, "\(request.method) \(request.path)")
        }
        let inline = ["/", "/healthz", "/readyz", "/metrics", "/app.js", "/app.css", "/openapi.yaml", "/v1/palettes", "/v1/palettes/demo",
                      "/v1/contrast", "/nowhere"]
        for path in inline {
            #expect(routes.lane(for: Request(method: "GET", path: path)).lane == .inline, "\(path)")
        }
    }

    @Test func health() throws {
        let routes = try Self.routes()
        #expect(routes.respond(to: Request(method: "GET", path: "/healthz")).status == 200)
        let ready = routes.respond(to: Request(method: "GET", path: "/readyz"))
        #expect(ready.status == 200)
        #expect(try json(ready)["palettes"] as? [String] == ["demo"])
        #expect(routes.respond(to: Request(method: "GET", path: "/nope")).status == 404)
        let response = routes.respond(to: Request(method: "DELETE", path: "/healthz"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
    }

    /// `/healthz` is made into libmicrohttpd's form once and queued as it is: it must carry what
    /// any other response carries, once, and a HEAD (whose body is emptied) must not reuse it.
    @Test func healthIsPreparedOnceWithTheCommonHeaders() throws {
        let routes = try Self.routes()
        let health = routes.respond(to: Request(method: "GET", path: "/healthz"))
        #expect(health.isPrepared)
        #expect(health.route == "/healthz")
        #expect(String(decoding: health.body, as: UTF8.self) == #"{"status":"ok"}"#)
        let expected = [Header(name: "Content-Type", value: "application/json"), Header(name: "X-Content-Type-Options", value: "nosniff"),
                        Header(name: "Cache-Control", value: "no-store")]
        #expect(health.headers == expected)
        let head = routes.respond(to: Request(method: "HEAD", path: "/healthz"))
        #expect(!head.isPrepared && head.body.isEmpty && head.headers == expected)
        let other = routes.respond(to: Request(method: "GET", path: "/v1/contrast", query: [QueryItem(name: "fg", value: "#777"), QueryItem(name: "bg", value: "white")]))
        #expect(!other.isPrepared && Array(other.headers.dropFirst()) == Array(expected.dropFirst()))
        var changed = health
        changed.headers.append(Header(name: "Retry-After", value: "1"))
        #expect(!changed.isPrepared)
        // The embedded files are prepared too, with their bytes and types as before.
        for (path, type, text) in [("/openapi.yaml", "application/yaml", OpenAPISpec.yaml),
                                   ("/app.css", "text/css; charset=utf-8", HTMLReport.style + "\n" + WebAssets.appCSS)]
            + WebAssets.scripts.map({ ("/" + $0.key, "text/javascript; charset=utf-8", $0.value) }) {
            let file = routes.respond(to: Request(method: "GET", path: path))
            #expect(file.isPrepared && file.status == 200 && file.body == Array(text.utf8), "\(path)")
            #expect(file.headers == [Header(name: "Content-Type", value: type)] + expected.dropFirst(), "\(path)")
        }
    }

    @Test func contrastGet() throws {
        let routes = try Self.routes()
        let ok = routes.respond(to: Request(method: "GET", path: "/v1/contrast", query: [QueryItem(name: "fg", value: "#777"), QueryItem(name: "bg", value: "white")]))
        #expect(ok.status == 200)
        let body = try json(ok)
        #expect(body["display"] as? String == "4.47:1")
        #expect(body["pass"] as? Bool == false)
        let bad = routes.respond(to: Request(method: "GET", path: "/v1/contrast", query: [QueryItem(name: "fg", value: "#12"), QueryItem(name: "bg", value: "white")]))
        #expect(bad.status == 400)
        let problem = try json(bad)
        #expect(problem["field"] as? String == "fg")
        #expect((problem["detail"] as? String)?.contains("'#12' at byte 0") == true)
        #expect(routes.respond(to: Request(method: "GET", path: "/v1/contrast", query: [QueryItem(name: "fg", value: "#000")])).status == 400)
    }

    /// A parameter given twice (or under its short and long names) is refused, not read as its
    /// first value: `?fg=#000&fg=#777` answered for black, silently.
    @Test func repeatedQueryParameterIsRefused() throws {
        let routes = try Self.routes()
        let cases: [(path: String, query: [(String, String)], field: String)] = [
            ("/v1/contrast", [("fg", "#000"), ("bg", "white"), ("fg", "#777")], "fg"),
            ("/v1/contrast", [("fg", "#000"), ("foreground", "#777"), ("bg", "white")], "foreground"),
            ("/v1/palettes/demo/audit", [("theme", "dark"), ("theme", "light")], "theme"),
        ]
        for (path, query, field) in cases {
            let response = routes.respond(to: Request(method: "GET", path: path, query: query.map { QueryItem(name: $0.0, value: $0.1) }))
            #expect(response.status == 400)
            let problem = try json(response)
            #expect(problem["field"] as? String == field)
            #expect((problem["detail"] as? String)?.contains("\"\(field)\" is given more than once") == true)
        }
        // Distinct parameters are still fine.
        #expect(routes.respond(to: Request(method: "GET", path: "/v1/contrast", query: [QueryItem(name: "fg", value: "#000"), QueryItem(name: "bg", value: "white")])).status == 200)
    }

    @Test func contrastPostBatch() throws {
        let routes = try Self.routes()
        let response = routes.respond(to: post("/v1/contrast", ##"{"pairs": [{"fg": "#000", "bg": "#fff"}, {"fg": "nope", "bg": "#fff", "id": "x"}, {"fg": "#000"}]}"##))
        #expect(response.status == 200)
        let results = try #require(try json(response)["results"] as? [[String: Any]])
        #expect(results.count == 3)
        #expect(results[0]["ratio"] as? Double == 21)
        #expect(results[1]["pointer"] as? String == "/pairs/1/fg" && results[1]["id"] as? String == "x")
        #expect(results[2]["pointer"] as? String == "/pairs/2/bg")
        #expect(routes.respond(to: post("/v1/contrast", ##"{"pairs": [3]}"##)).status == 400)
        let tooMany = "{\"pairs\": [" + Array(repeating: ##"{"fg": "#000", "bg": "#fff"}"##, count: 10_001).joined(separator: ",") + "]}"
        #expect(routes.respond(to: post("/v1/contrast", tooMany)).status == 422)
        #expect(routes.respond(to: post("/v1/contrast", "{", type: "application/json")).status == 400)
        #expect(routes.respond(to: post("/v1/contrast", "fg=1", type: "application/x-www-form-urlencoded")).status == 415)
    }

    @Test func longBatchesAreSplitWithoutChangingTheAnswer() throws {
        // 5,000 pairs are measured in parts on several threads: the answer must be the one a
        // single thread gives, in order, and the first unreadable pair must still be the one
        // reported, wherever the parts fall.
        var routes = try Self.routes()
        routes.limits.threads = 4
        var serial = routes
        serial.limits.threads = 1
        var items = (0..<5_000).map { i in ##"{"fg": "#\##(String(format: "%06x", i * 2_654_435 % 0xFFFFFF))", "bg": "#fafafa", "id": \##(i)}"## }
        items[1_234] = ##"{"fg": "nope", "bg": "#fff"}"##
        items[4_999] = ##"{"fg": "#000", "bg": "rgb(1 2 3 / 50%)"}"##
        let body = "{\"pairs\": [" + items.joined(separator: ",") + "]}"
        let split = routes.respond(to: post("/v1/contrast", body)), whole = serial.respond(to: post("/v1/contrast", body))
        #expect(split.status == 200)
        #expect(split.body == whole.body)
        let results = try #require(try json(split)["results"] as? [[String: Any]])
        #expect(results.count == 5_000)
        #expect(results[1_234]["pointer"] as? String == "/pairs/1234/fg")
        #expect(results[4_321]["id"] as? String == "4321")
        #expect(results[4_999]["range"] != nil)
        // The same list in the plain form (string ids, no escapes) is read without a JSON tree
        // and must give the same bytes; one escape sends it through the full reader.
        var plain = (0..<3_000).map { i in ##"{"fg": "#\##(String(format: "%06x", i * 2_654_435 % 0xFFFFFF))", "bg": "#fafafa", "id": "\##(i)"}"## }
        let fast = routes.respond(to: post("/v1/contrast", "{\"pairs\": [" + plain.joined(separator: ",") + "]}"))
        plain[0] = plain[0].replacingOccurrences(of: "#fafafa", with: "#fafaf\\u0061")
        let full = routes.respond(to: post("/v1/contrast", "{\"pairs\": [" + plain.joined(separator: ",") + "]}"))
        #expect(fast.status == 200 && fast.body == full.body)
        items[3_001] = "7"
        items[4_000] = "8"
        let bad = routes.respond(to: post("/v1/contrast", "{\"pairs\": [" + items.joined(separator: ",") + "]}"))
        #expect(bad.status == 400)
        #expect((try json(bad)["detail"] as? String)?.contains("/pairs/3001") == true)
    }

    @Test func auditAndProblems() throws {
        let routes = try Self.routes()
        let ok = routes.respond(to: post("/v1/audit", Self.paletteText))
        #expect(ok.status == 200)
        #expect((try json(ok)["summary"] as? [String: Any])?["checks"] as? Int == 4)
        let broken = routes.respond(to: post("/v1/audit", ##"{"name": "x", "themes": {"light": {"tokens": {"a": "{b}", "b": "{a}"}}}}"##))
        #expect(broken.status == 422)
        let problems = try #require(try json(broken)["problems"] as? [[String: Any]])
        #expect(problems.first?["pointer"] as? String == "/themes/light/tokens/b")
        #expect(problems.first?["code"] as? String == "alias-cycle")
        let syntax = routes.respond(to: post("/v1/audit", "{\n\"name\": }"))
        #expect(syntax.status == 400)
        #expect(try json(syntax)["line"] as? Int == 2)
        let tokens = routes.respond(to: post("/v1/audit", ##"{"tokens": {"fg": "#000", "bg": "#fff"}, "checks": [{"foreground": "fg", "background": "bg"}]}"##))
        #expect(tokens.status == 200)
        let dtcg = routes.respond(to: post("/v1/audit", ##"{"c": {"$type": "color", "a": {"$value": "#000"}}}"##, type: "application/design-tokens+json"))
        #expect(dtcg.status == 200)
    }

    @Test func palettesAndProposals() throws {
        let routes = try Self.routes()
        let list = try json(routes.respond(to: Request(method: "GET", path: "/v1/palettes")))
        #expect((list["palettes"] as? [[String: Any]])?.first?["name"] as? String == "demo")
        let document = routes.respond(to: Request(method: "GET", path: "/v1/palettes/demo"))
        #expect(String(decoding: document.body, as: UTF8.self) == Self.paletteText)
        #expect(routes.respond(to: Request(method: "GET", path: "/v1/palettes/none")).status == 404)
        let audit = routes.respond(to: Request(method: "GET", path: "/v1/palettes/demo/audit", query: [QueryItem(name: "theme", value: "dark")]))
        #expect(audit.status == 200)
        #expect(routes.respond(to: Request(method: "GET", path: "/v1/palettes/demo/audit", query: [QueryItem(name: "theme", value: "sepia")])).status == 400)

        // The designers' call: a proposal that makes body text pale gray in light.
        let proposed = Self.paletteText.replacingOccurrences(of: ##""text": "#0f172a""##, with: ##""text": "#cbd5e1""##)
        let response = routes.respond(to: post("/v1/palettes/demo/proposals", proposed))
        #expect(response.status == 200)
        let body = try json(response)
        let comparison = try #require(body["comparison"] as? [String: Any])
        let regressions = try #require(comparison["regressions"] as? [[String: Any]])
        #expect(regressions.map { $0["key"] as? String } == ["demo/light/body"])
        #expect(routes.respond(to: post("/v1/palettes/none/proposals", proposed)).status == 404)
    }

    @Test func suggestAndVariants() throws {
        let routes = try Self.routes()
        let suggest = routes.respond(to: post("/v1/suggest", ##"{"fg": "#777", "bg": "#fff"}"##))
        #expect(suggest.status == 200)
        let foreground = try #require((try json(suggest)["suggestions"] as? [String: Any])?["foreground"] as? [[String: Any]])
        #expect(foreground.first?["hex"] as? String == "#767676")
        let variants = routes.respond(to: post("/v1/variants", ##"{"color": "#2563eb", "on": ["#ffffff", "#0f172a"], "target": "AA"}"##))
        #expect(variants.status == 200)
        #expect((try json(variants)["variants"] as? [Any])?.count == 2)
        #expect(routes.respond(to: post("/v1/variants", ##"{"color": "#2563eb", "on": ["#ffffff", "#12"]}"##)).status == 400)
    }

    @Test func openapiAndMetrics() throws {
        let routes = try Self.routes()
        let spec = routes.respond(to: Request(method: "GET", path: "/openapi.yaml"))
        #expect(spec.status == 200)
        let onDisk = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml"), encoding: .utf8)
        #expect(String(decoding: spec.body, as: UTF8.self) == onDisk, "the served spec is openapi.yaml as built")
        let metrics = String(decoding: routes.respond(to: Request(method: "GET", path: "/metrics")).body, as: UTF8.self)
        #expect(metrics.contains("# TYPE contrast_http_requests_total counter"))
        #expect(metrics.contains("contrast_palettes_loaded 1"))
    }
}

/// Errors become RFC 9457 problems in one place, whatever threw them.
@Suite struct ServiceErrorTests {
    struct Unexpected: Error {}

    func problem(_ error: any Error) throws -> (Int, ProblemDetails) {
        let response = ServiceError.from(error).response
        #expect(response.headers.contains { $0.name == "Content-Type" && $0.value == "application/problem+json" })
        return (response.status, try JSONDecoder().decode(ProblemDetails.self, from: Data(response.body)))
    }

    @Test func everyErrorHasItsStatus() throws {
        let (s1, p1) = try problem(RequestError(.invalidColor, field: "fg", "fg: bad"))
        #expect(s1 == 400 && p1.field == "fg" && p1.detail == "fg: bad" && p1.title == "Bad Request" && p1.type == "about:blank")
        #expect(p1.code == "invalid-color")
        let (s2, p2) = try problem(PaletteProblem(.invalidColor, "token \"a\" is not a color", file: "x.json"))
        #expect(s2 == 422 && p2.problems?.first?.code == .invalidColor && p2.code == "invalid-color")
        let (s3, p3) = try problem(Unexpected())
        #expect(s3 == 500 && p3.detail == "the request could not be answered; the server's log has the details")
        var notAllowed = ServiceError(405, "PUT is not allowed on /v1/audit; use POST")
        notAllowed.headers = [Header(name: "Allow", value: "POST")]
        #expect(notAllowed.response.headers.contains { $0.name == "Allow" && $0.value == "POST" })
    }

    /// A 500 tells the client "the server's log has the details": the routes write them there,
    /// with the method and route; an error the service answers itself is not logged.
    @Test func whatIsAnswered500IsLogged() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the store's index is broken" } }
        let lines = Mutex<[String]>([])
        var routes = try RoutesTests.routes()
        routes.log = { message, level in lines.withLock { $0.append("\(level): \(message)") } }
        let request = Request(method: "POST", path: "/v1/audit")
        #expect(routes.answer(Broken(), route: "/v1/audit", request: request).status == 500)
        #expect(lines.withLock { $0 } == ["error: POST /v1/audit answered 500: the store's index is broken"])
        #expect(routes.answer(ServiceError(503, "draining"), route: "/v1/audit", request: request).status == 503)
        #expect(routes.answer(RequestError(.invalidColor, field: "fg", "fg: bad"), route: "/v1/audit", request: request).status == 400)
        #expect(lines.withLock { $0.count } == 1)
    }

    @Test func theServersOwnRefusalsAreProblemsToo() throws {
        let refusal = Refusal(status: 413, title: "Content Too Large", detail: "the body is 5000000 bytes; the limit is 1048576")
        let response = ServerConfiguration.problemJSON(refusal)
        let body = try JSONDecoder().decode(ProblemDetails.self, from: Data(response.body))
        #expect(response.status == 413 && body.title == "Content Too Large" && body.detail == refusal.detail)
        // MicroHTTPD alone knows no JSON: its default refusal is plain text.
        let plain = ServerConfiguration().refusal(refusal)
        #expect(String(decoding: plain.body, as: UTF8.self) == "Content Too Large: the body is 5000000 bytes; the limit is 1048576\n")
    }
}

@Suite struct AccessLogTests {
    @Test func everyControlAndInvalidByteIsEscaped() {
        #expect(AccessLog.escape(Array("/a b?c=ü✓".utf8)) == "/a b?c=ü✓")
        #expect(AccessLog.escape([0x0A, 0x0D, 0x1B, 0x7F, 0x00]) == "\\x0a\\x0d\\x1b\\x7f\\x00")
        #expect(AccessLog.escape(Array("\"\\".utf8)) == "\\\"\\\\")
        // Invalid UTF-8 (a lone continuation byte, a truncated sequence, an overlong form) and
        // C1 controls (U+009B, the 8-bit CSI) are escaped byte by byte.
        #expect(AccessLog.escape([0xFF, 0x80, 0xE2, 0x82, 0xC0, 0xAF]) == "\\xff\\x80\\xe2\\x82\\xc0\\xaf")
        #expect(AccessLog.escape([0xC2, 0x9B]) == "\\xc2\\x9b")
        #expect(AccessLog.escape(Array("\u{2028}".utf8)) == "\\xe2\\x80\\xa8")
    }

    @Test func textLinesSayWhatArrivedAndHowLongItTook() {
        func line(_ seconds: Double, remote: String? = "127.0.0.1", target: [UInt8] = Array("/v1/contrast?fg=%23777".utf8), completed: Bool = true) -> String {
            var r = CompletedRequest(method: "GET", path: "/v1/contrast", route: "/v1/contrast", status: 200, requestBytes: 0, responseBytes: 321,
                                     duration: seconds, remoteAddress: remote, completed: completed)
            r.rawTarget = target
            return AccessLog(format: .text).line(r, time: "2026-11-23T01:02:03.004Z")
        }
        #expect(line(0.0012345) == #"2026-11-23T01:02:03.004Z 127.0.0.1 "GET /v1/contrast?fg=%23777" 200 321B 1.23ms"#)
        #expect(line(0.0) == #"2026-11-23T01:02:03.004Z 127.0.0.1 "GET /v1/contrast?fg=%23777" 200 321B 0.00ms"#)
        #expect(line(0.00005) == #"2026-11-23T01:02:03.004Z 127.0.0.1 "GET /v1/contrast?fg=%23777" 200 321B 0.05ms"#)
        #expect(line(0.0123, remote: nil, completed: false) == #"2026-11-23T01:02:03.004Z - "GET /v1/contrast?fg=%23777" 200 321B 12.3ms aborted"#)
        #expect(line(12.5) == #"2026-11-23T01:02:03.004Z 127.0.0.1 "GET /v1/contrast?fg=%23777" 200 321B 12500.0ms"#)
        #expect(line(0.002, target: [0x2F, 0x0A, 0x22]) == #"2026-11-23T01:02:03.004Z 127.0.0.1 "GET /\x0a\"" 200 321B 2.00ms"#)
        let long = [UInt8(ascii: "/")] + Array(repeating: UInt8(ascii: "a"), count: 3000)
        #expect(line(0.002, target: long) == "2026-11-23T01:02:03.004Z 127.0.0.1 \"GET /" + String(repeating: "a", count: 2047) + "…(3001 bytes)\" 200 321B 2.00ms")
    }

    /// The service writes lines as bytes; they are the text lines with a newline, and JSON lines.
    @Test func appendedLinesAreTheLinesWithANewline() {
        var r = CompletedRequest(method: "POST", path: "/v1/audit", route: "/v1/audit", status: 201, requestBytes: 12, responseBytes: 0,
                                 duration: 0.0987654, remoteAddress: "::1", completed: true)
        r.rawTarget = Array("/v1/audit".utf8)
        for format in AccessLog.Format.allCases {
            let log = AccessLog(format: format)
            var bytes: [UInt8] = []
            log.append(r, time: "2026-11-23T01:02:03.004Z", to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == log.line(r, time: "2026-11-23T01:02:03.004Z") + "\n")
        }
        #expect(AccessLog(format: .text).line(r, time: "T") == #"T ::1 "POST /v1/audit" 201 0B 98.8ms"#)
        #expect(AccessLog(format: .json).line(r, time: "T").contains(#""durationMs":98.765,"#))
        let log = AccessLog()
        #expect(log.formatted(0.0005, decimals: 3) == "0.001")
        #expect(log.formatted(7, decimals: 0) == "7.0")
        #expect(log.formatted(123456.78949, decimals: 3) == "123456.789")
        #expect(log.formatted(2e20, decimals: 1) == "2e+20.0")  // far outside any duration: the Double's own text
    }
}

@Suite struct MetricsLabelTests {
    /// Junk methods and unmatched paths cannot grow /metrics: labels are bounded.
    @Test func labelsAreBounded() {
        let metrics = Metrics()
        for index in 0..<2_000 {
            var request = CompletedRequest(method: "JUNK\(index)", path: "/nope/\(index)", route: nil, status: 404, requestBytes: 0, responseBytes: 0,
                                           duration: 0.001, remoteAddress: nil, completed: true)
            request.rawTarget = Array(request.path.utf8)
            metrics.record(request)
        }
        let text = metrics.render(palettes: 0)
        #expect(text.contains("contrast_http_requests_total{route=\"unmatched\",method=\"OTHER\",status=\"404\"} 2000"))
        #expect(text.utf8.count < 10_000)
    }
}
