import ColorScience
import Foundation
public import MicroHTTPD
import PaletteAudit

/// The HTTP API as a pure function from request to response, testable without a socket.
/// Lets a ready-made error response travel in a `Result`.
extension Response: Error {}

public struct Routes: Sendable {
    public struct Limits: Sendable {
        /// Pairs in one `POST /v1/contrast`.
        public var maximumPairs = 10_000
        /// Backgrounds in one `POST /v1/variants`.
        public var maximumBackgrounds = 100
        public init() {}
    }

    public let store: PaletteStore
    public let metrics: Metrics
    public var limits = Limits()
    /// Whether the server is shutting down (readiness fails while draining).
    public var isDraining: @Sendable () -> Bool = { false }

    public init(store: PaletteStore, metrics: Metrics = Metrics()) {
        self.store = store
        self.metrics = metrics
    }

    public func respond(to request: Request) -> Response {
        var response = route(request)
        response.headers.append(Header(name: "X-Content-Type-Options", value: "nosniff"))
        response.headers.append(Header(name: "Cache-Control", value: "no-store"))
        return response
    }

    func route(_ request: Request) -> Response {
        let segments = request.pathSegments
        func only(_ methods: [String], route: String, _ body: () -> Response) -> Response {
            if methods.contains(request.method) || (request.method == "HEAD" && methods.contains("GET")) {
                var response = body()
                response.route = route
                if request.method == "HEAD" { response.body = [] }
                return response
            }
            var response = Response.problem(405, "Method Not Allowed", "\(request.method) is not allowed on \(route); use \(methods.joined(separator: " or "))", route: route)
            response.headers.append(Header(name: "Allow", value: (methods.contains("GET") ? methods + ["HEAD"] : methods).joined(separator: ", ")))
            return response
        }
        if request.path.utf8.count > 2048 {
            return Response.problem(414, "URI Too Long", "the path is longer than 2048 bytes", route: "unmatched")
        }
        switch segments {
        case [""]:
            return only(["GET"], route: "/") { designerPage() }
        case ["app.js"]:
            return only(["GET"], route: "/app.js") { Response(status: 200, contentType: "text/javascript; charset=utf-8", body: WebAssets.appJS) }
        case ["app.css"]:
            return only(["GET"], route: "/app.css") { Response(status: 200, contentType: "text/css; charset=utf-8", body: HTMLReport.style + "\n" + WebAssets.appCSS) }
        case ["healthz"]:
            return only(["GET"], route: "/healthz") { Response(status: 200, contentType: "application/json", body: "{\"status\":\"ok\"}") }
        case ["readyz"]:
            return only(["GET"], route: "/readyz") { readiness() }
        case ["openapi.yaml"]:
            return only(["GET"], route: "/openapi.yaml") { Response(status: 200, contentType: "application/yaml", body: OpenAPISpec.yaml) }
        case ["metrics"]:
            return only(["GET"], route: "/metrics") {
                Response(status: 200, contentType: "text/plain; version=0.0.4", body: metrics.render(palettes: store.status.names.count))
            }
        case ["v1", "contrast"]:
            return only(["GET", "POST"], route: "/v1/contrast") { request.method == "POST" ? contrastPost(request) : contrastGet(request) }
        case ["v1", "audit"]:
            return only(["POST"], route: "/v1/audit") { auditPost(request) }
        case ["v1", "suggest"]:
            return only(["POST"], route: "/v1/suggest") { suggestPost(request) }
        case ["v1", "variants"]:
            return only(["POST"], route: "/v1/variants") { variantsPost(request) }
        case ["v1", "palettes"]:
            return only(["GET"], route: "/v1/palettes") { paletteList() }
        case ["v1", "tokens"]:
            return only(["POST"], route: "/v1/tokens") { tokensPost(request) }
        case ["v1", "report"]:
            return only(["GET", "POST"], route: "/v1/report") { reportHTML(request) }
        case let s where s.count == 3 && s[0] == "v1" && s[1] == "palettes":
            return only(["GET"], route: "/v1/palettes/{name}") { paletteDocument(s[2]) }
        case let s where s.count == 4 && s[0] == "v1" && s[1] == "palettes" && s[3] == "audit":
            return only(["GET"], route: "/v1/palettes/{name}/audit") { paletteAudit(s[2], request) }
        case let s where s.count == 4 && s[0] == "v1" && s[1] == "palettes" && s[3] == "proposals":
            return only(["POST"], route: "/v1/palettes/{name}/proposals") { proposal(s[2], request) }
        default:
            return Response.problem(404, "Not Found", "no resource at \(request.path); see /openapi.yaml for the API", route: "unmatched")
        }
    }

    // MARK: Helpers

    static func json(_ status: Int, _ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Response(status: status, headers: [Header(name: "Content-Type", value: "application/json")], body: [UInt8](try encoder.encode(value)))
        } catch {
            return Response.problem(500, "Internal Server Error", "the response could not be encoded")
        }
    }

    static func jsonBytes(_ body: [UInt8]) -> Response {
        Response(status: 200, headers: [Header(name: "Content-Type", value: "application/json")], body: body)
    }

    /// 415 unless the body is JSON (a missing Content-Type is read as JSON).
    static func requireJSON(_ request: Request) -> Response? {
        guard let type = request.header("content-type") else { return nil }
        let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if media == "application/json" || media.hasSuffix("+json") { return nil }
        return Response.problem(415, "Unsupported Media Type", "the body must be JSON (application/json or application/design-tokens+json), not \(media)")
    }

    /// Parses a JSON body or answers 400 with the line and column of the syntax error.
    static func parseBody(_ request: Request) -> Result<JSONValue, Response> {
        if let refusal = requireJSON(request) { return .failure(refusal) }
        if request.body.isEmpty { return .failure(Response.problem(400, "Bad Request", "the request has no body; send a JSON document")) }
        do throws(JSONParser.SyntaxError) {
            let value = try JSONParser.parse(request.body)
            return .success(value)
        } catch {
            return .failure(Response.problem(400, "Bad Request", "the body is not valid JSON: \(error.message)",
                                             extra: ",\"line\":\(error.location.line),\"column\":\(error.location.column)"))
        }
    }

    /// The name for a posted document that has none (a tokens file): `?name=`, as a file's name
    /// is for the CLI, or "posted".
    static func documentName(_ request: Request) -> Result<String, Response> {
        guard let name = request.query("name") else { return .success("posted") }
        guard !name.isEmpty, name.unicodeScalars.count <= 200 else {
            return .failure(Response.problem(400, "Bad Request", "the name parameter must be 1 to 200 characters long, not \(name.unicodeScalars.count)", extra: ",\"field\":\"name\""))
        }
        return .success(name)
    }

    static func problems(_ status: Int, _ title: String, _ detail: String, _ problems: [PaletteProblem]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let list = (try? encoder.encode(problems)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return Response.problem(status, title, detail, extra: ",\"problems\":\(list)")
    }

    // MARK: HTML

    /// A strict policy for the HTML the service returns: no scripts at all, styles only inline,
    /// nothing fetched from anywhere.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func wantsHTML(_ request: Request) -> Bool {
        guard let accept = request.header("accept") else { return false }
        return accept.split(separator: ",").contains { $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "text/html" }
    }

    static func wantsMarkdown(_ request: Request) -> Bool {
        guard let accept = request.header("accept") else { return false }
        return accept.split(separator: ",").contains { $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "text/markdown" }
    }

    static func markdown(_ report: AuditReport, title: String, comparedWith: String = "the baseline") -> Response {
        Response(status: 200, headers: [Header(name: "Content-Type", value: "text/markdown; charset=utf-8")],
                 body: Array(MarkdownRenderer.render(report, title: title, comparedWith: comparedWith).utf8))
    }

    /// The audit as JSON, or as HTML or Markdown when the client asks for them (`Accept`).
    static func negotiated(_ request: Request, _ report: AuditReport, title: String) -> Response {
        if wantsHTML(request) { return html(report, title: title) }
        if wantsMarkdown(request) { return markdown(report, title: title) }
        return jsonBytes(report.compactJSON())
    }

    static func html(_ report: AuditReport, title: String, comparison: (BaselineComparison, against: String)? = nil) -> Response {
        let generated = ISO8601DateFormatter().string(from: Date())
        let page = HTMLReport(title: title, generated: generated, comparison: comparison).render(report)
        return Response(status: 200, headers: [Header(name: "Content-Type", value: "text/html; charset=utf-8"),
                                               Header(name: "Content-Security-Policy", value: contentSecurityPolicy)],
                        body: Array(page.utf8))
    }

    func reportHTML(_ request: Request) -> Response {
        if request.method == "POST" {
            switch audit(request) {
            case .success(let report): return Routes.html(AuditReport(palettes: [report]), title: "Contrast audit of \(report.name)")
            case .failure(let response): return response
            }
        }
        return Routes.html(AuditReport(palettes: store.entries.map(\.report)), title: "Contrast audit")
    }

    // MARK: Health

    func readiness() -> Response {
        let status = store.status
        struct Ready: Encodable {
            var status: String
            var palettes: [String]
            var problems: [PaletteProblem]
            var generation: Int
        }
        let ready = !status.names.isEmpty && !isDraining()
        return Routes.json(ready ? 200 : 503, Ready(status: isDraining() ? "draining" : ready ? "ready" : "no palettes loaded",
                                                   palettes: status.names, problems: status.problems, generation: status.generation))
    }

    // MARK: Contrast

    static func badRequest(_ error: RequestError) -> Response {
        Response.problem(400, "Bad Request", error.message, extra: error.field.isEmpty ? "" : ",\"field\":\(jsonString(error.field))")
    }

    func contrastGet(_ request: Request) -> Response {
        let known: Set = ["fg", "bg", "foreground", "background", "backdrop", "usage", "level"]
        if let unknown = request.query.first(where: { !known.contains($0.name) }) {
            return Response.problem(400, "Bad Request", "unknown query parameter \"\(unknown.name)\"; expected fg, bg, backdrop, usage, level")
        }
        let pair = PairRequest(foreground: request.query("fg") ?? request.query("foreground"), background: request.query("bg") ?? request.query("background"),
                               backdrop: request.query("backdrop"), usage: request.query("usage"), level: request.query("level"))
        do {
            return Response(status: 200, headers: [Header(name: "Content-Type", value: "application/json")], body: try pair.evaluate().jsonBytes())
        } catch {
            return Routes.badRequest(error)
        }
    }

    func contrastPost(_ request: Request) -> Response {
        let body: JSONValue
        switch Routes.parseBody(request) { case .success(let v): body = v; case .failure(let r): return r }
        guard body.members != nil else { return Response.problem(400, "Bad Request", "expected an object: {\"fg\": …, \"bg\": …} or {\"pairs\": [...]}") }
        if let pairs = body["pairs"] {
            if let other = body.members?.first(where: { $0.key != "pairs" }) {
                return Response.problem(400, "Bad Request", "unknown field \"\(other.key)\" beside \"pairs\"; send either one pair or {\"pairs\": [...]}")
            }
            guard case .array(let items, _) = pairs else { return Response.problem(400, "Bad Request", "\"pairs\" must be an array of {\"fg\", \"bg\"} objects") }
            if items.count > limits.maximumPairs {
                return Response.problem(422, "Unprocessable Content", "\(items.count) pairs; the limit is \(limits.maximumPairs) per request (split the batch)")
            }
            var body: [UInt8] = Array("{\"results\":[".utf8)
            body.reserveCapacity(items.count * 400)
            for (index, item) in items.enumerated() {
                let pointer = "/pairs/\(index)"
                let pair: PairRequest
                do { pair = try PairRequest(json: item, at: pointer) } catch { return Routes.badRequest(error) }
                if index > 0 { body.append(UInt8(ascii: ",")) }
                do {
                    body.append(contentsOf: try pair.evaluate().jsonBytes(id: pair.id))
                } catch {
                    var entry = "{\"error\":\(jsonString(error.message))"
                    if let id = pair.id { entry += ",\"id\":\(jsonString(id))" }
                    entry += ",\"pointer\":\(jsonString("\(pointer)/\(error.field)"))}"
                    body.append(contentsOf: Array(entry.utf8))
                }
            }
            body.append(contentsOf: Array("]}".utf8))
            return Response(status: 200, headers: [Header(name: "Content-Type", value: "application/json")], body: body)
        }
        do {
            let pair = try PairRequest(json: body)
            return Response(status: 200, headers: [Header(name: "Content-Type", value: "application/json")], body: try pair.evaluate().jsonBytes(id: pair.id))
        } catch {
            return Routes.badRequest(error)
        }
    }

    // MARK: Audit

    /// Decodes a posted palette (or DTCG tokens plus checks) and audits it.
    /// `sidecar`: the served palette, when its checks live in a `NAME.checks.json` beside its
    /// tokens file; a proposal that is the tokens file alone is audited with those checks.
    func audit(_ request: Request, name: String? = nil, sidecar: Palette? = nil) -> Result<PaletteReport, Response> {
        if let refusal = Routes.requireJSON(request) { return .failure(refusal) }
        if request.body.isEmpty { return .failure(Response.problem(400, "Bad Request", "the request has no body; send a palette document")) }
        let defaultName: String
        switch Routes.documentName(request) { case .success(let n): defaultName = name ?? n; case .failure(let r): return .failure(r) }
        let (decoded, problems) = PaletteDecoder.decode(bytes: request.body, file: nil, defaultName: defaultName)
        if let syntax = problems.first(where: { $0.code == .invalidJSON }) {
            return .failure(Response.problem(400, "Bad Request", "the body is not valid JSON: \(syntax.message)",
                                             extra: ",\"line\":\(syntax.location?.line ?? 0),\"column\":\(syntax.location?.column ?? 0)"))
        }
        guard var palette = decoded else {
            return .failure(Routes.problems(422, "Unprocessable Content", "the document is not a palette", problems))
        }
        if let name { palette.name = name }
        if let sidecar { palette.adoptChecks(from: sidecar) }
        let themes = request.query.filter { $0.name == "theme" }.map(\.value)
        let report = Auditor(themeFilter: themes.isEmpty ? nil : themes).audit(palette, problems: problems)
        if !report.problems.isEmpty {
            return .failure(Routes.problems(422, "Unprocessable Content",
                                            "the palette has \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"); each names its JSON pointer",
                                            report.problems))
        }
        if let unknown = palette.unknownThemes(themes) {
            return .failure(Response.problem(400, "Bad Request", unknown))
        }
        return .success(report)
    }

    func auditPost(_ request: Request) -> Response {
        switch audit(request) {
        case .success(let report):
            return Routes.negotiated(request, AuditReport(palettes: [report]), title: "Contrast audit of \(report.name)")
        case .failure(let response): return response
        }
    }

    // MARK: Palettes

    func paletteList() -> Response {
        struct Item: Encodable {
            var name: String
            var description: String?
            var themes: [ThemeItem]
            var summary: AuditSummary
            var verdict: String
        }
        struct ThemeItem: Encodable {
            var name: String
            var summary: AuditSummary
            var verdict: String
        }
        func verdict(_ s: AuditSummary) -> String { s.verdict.text }
        let items = store.entries.map { entry in
            Item(name: entry.palette.name, description: entry.palette.description,
                 themes: entry.report.themes.map { ThemeItem(name: $0.name, summary: $0.summary, verdict: verdict($0.summary)) },
                 summary: entry.report.summary, verdict: verdict(entry.report.summary))
        }
        return Routes.json(200, ["palettes": items])
    }

    func notFound(_ name: String) -> Response {
        Response.problem(404, "Not Found", "no palette named \"\(name)\"; GET /v1/palettes lists them")
    }

    func paletteDocument(_ name: String) -> Response {
        guard let entry = store.entry(named: name) else { return notFound(name) }
        return Response(status: 200, headers: [Header(name: "Content-Type", value: "application/json")], body: entry.document)
    }

    func paletteAudit(_ name: String, _ request: Request) -> Response {
        guard let entry = store.entry(named: name) else { return notFound(name) }
        if let unknown = request.query.first(where: { $0.name != "theme" }) {
            return Response.problem(400, "Bad Request", "unknown query parameter \"\(unknown.name)\"; expected theme")
        }
        let themes = request.query.map(\.value)
        var report = entry.report
        if !themes.isEmpty {
            if let unknown = entry.palette.unknownThemes(themes) {
                return Response.problem(400, "Bad Request", unknown)
            }
            report = Auditor(themeFilter: themes).audit(entry.palette)
        }
        return Routes.negotiated(request, AuditReport(palettes: [report]), title: "Contrast audit of \(name)")
    }

    func proposal(_ name: String, _ request: Request) -> Response {
        guard let entry = store.entry(named: name) else { return notFound(name) }
        switch audit(request, name: name, sidecar: entry.file.hasSuffix(".tokens.json") ? entry.palette : nil) {
        case .failure(let response):
            return response
        case .success(let proposed):
            let themes = request.query.filter { $0.name == "theme" }.map(\.value)
            let current = themes.isEmpty ? entry.report : Auditor(themeFilter: themes).audit(entry.palette)
            let comparison = Baseline(AuditReport(palettes: [current])).compare(with: AuditReport(palettes: [proposed]))
            let report = AuditReport(palettes: [proposed], comparison: comparison)
            let title = "Proposed change to \(name)"
            if Routes.wantsHTML(request) { return Routes.html(report, title: title, comparison: (comparison, against: "Against the served palette")) }
            if Routes.wantsMarkdown(request) { return Routes.markdown(report, title: title, comparedWith: "the served palette") }
            return Routes.jsonBytes(AuditReport.proposalJSON(palette: name, current: current.summary, proposed: proposed.summary,
                                                             comparison: comparison,
                                                             audit: AuditReport(palettes: [proposed], comparison: comparison)))
        }
    }

    // MARK: Designers' page

    func designerPage() -> Response {
        Response(status: 200, headers: [Header(name: "Content-Type", value: "text/html; charset=utf-8"),
                                        Header(name: "Content-Security-Policy", value: DesignerPage.contentSecurityPolicy),
                                        Header(name: "Referrer-Policy", value: "no-referrer")],
                 body: Array(DesignerPage.render(store.entries).utf8))
    }

    /// Every theme's tokens, resolved, with the JSON pointer of each value; the palette's
    /// problems (syntax errors included) come back as data, not as an error status, so an
    /// editor can check a document and show what is wrong without failing requests.
    func tokensPost(_ request: Request) -> Response {
        if let refusal = Routes.requireJSON(request) { return refusal }
        if request.body.isEmpty { return Response.problem(400, "Bad Request", "the request has no body; send a palette document") }
        let defaultName: String
        switch Routes.documentName(request) { case .success(let n): defaultName = n; case .failure(let r): return r }
        let (decoded, problems) = PaletteDecoder.decode(bytes: request.body, file: nil, defaultName: defaultName)
        guard let palette = decoded else { return Routes.json(200, TokenListing(nil, problems: problems)) }
        let audited = Auditor().audit(palette, problems: problems)
        return Routes.json(200, TokenListing(palette, problems: audited.problems))
    }

    // MARK: Suggestions

    /// `target` (a string, or a ratio as a number), else `usage` and `level`.
    static func target(_ object: JSONValue) throws(RequestError) -> ContrastTarget {
        func text(_ key: String) throws(RequestError) -> String? {
            guard let value = object[key] else { return nil }
            switch value {
            case .string(let s, _): return s
            case .number(let n, _) where key == "target": return CSSNumber.format(n)
            default: throw RequestError(field: key, "\"\(key)\" must be a string, found \(value.typeName)")
            }
        }
        return try SuggestionTarget.parse(target: try text("target"), usage: try text("usage"), level: try text("level"))
    }

    /// An opaque color from a field of the body.
    static func color(_ object: JSONValue, _ field: String) throws(RequestError) -> SRGB {
        guard let value = object[field] else { throw RequestError(field: field, "missing \"\(field)\"") }
        guard let text = value.stringValue else { throw RequestError(field: field, "\"\(field)\" must be a color string, found \(value.typeName)") }
        return try SuggestionTarget.opaqueColor(text, field: field)
    }

    /// Translucent colors are well-formed but cannot be suggested for: 422, the rest 400.
    static func suggestionRefusal(_ error: RequestError) -> Response {
        error.message.contains("is translucent")
            ? Response.problem(422, "Unprocessable Content", error.message, extra: ",\"field\":\(jsonString(error.field))")
            : badRequest(error)
    }

    func suggestPost(_ request: Request) -> Response {
        let body: JSONValue
        switch Routes.parseBody(request) { case .success(let v): body = v; case .failure(let r): return r }
        do {
            let fg = try Routes.color(body, "fg"), bg = try Routes.color(body, "bg")
            return Routes.json(200, SuggestionResult(foreground: fg, background: bg, target: try Routes.target(body)))
        } catch {
            return Routes.suggestionRefusal(error)
        }
    }

    func variantsPost(_ request: Request) -> Response {
        let body: JSONValue
        switch Routes.parseBody(request) { case .success(let v): body = v; case .failure(let r): return r }
        do throws(RequestError) {
            let base = try Routes.color(body, "color")
            let target = try Routes.target(body)
            guard case .array(let items, _)? = body["on"], !items.isEmpty else {
                throw RequestError(field: "on", "\"on\" must be a non-empty array of background colors")
            }
            if items.count > limits.maximumBackgrounds {
                return Response.problem(422, "Unprocessable Content", "\(items.count) backgrounds; the limit is \(limits.maximumBackgrounds)")
            }
            var backgrounds: [SRGB] = []
            for (index, item) in items.enumerated() {
                guard let text = item.stringValue else { throw RequestError(field: "on/\(index)", "\"on/\(index)\" must be a color string, found \(item.typeName)") }
                backgrounds.append(try SuggestionTarget.opaqueColor(text, field: "on/\(index)"))
            }
            return Routes.json(200, VariantsResult(color: base, on: backgrounds, target: target))
        } catch {
            return Routes.suggestionRefusal(error)
        }
    }
}
