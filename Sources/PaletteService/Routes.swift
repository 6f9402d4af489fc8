import ColorScience
import Foundation
public import MicroHTTPD
public import PaletteAudit
import TokenSources

/// The HTTP API as a pure function from request to response, testable without a socket.
///
/// Handlers return a response or throw; ``respond(to:)`` turns every error into an RFC 9457
/// problem in one place (``ServiceError/from(_:)``). One file per resource: `Routes+Contrast`,
/// `Routes+Palettes`, `Routes+Suggestions`.
public struct Routes: Sendable {
    public struct Limits: Sendable {
        /// Pairs in one `POST /v1/contrast`.
        public var maximumPairs = 10_000
        /// Backgrounds in one `POST /v1/variants`.
        public var maximumBackgrounds = 100
        /// The largest response body (`--max-response`): an audit bound to render larger is
        /// refused with 422 before any work, any other response larger than this after it.
        public var maximumResponseBytes = 32 << 20
        /// The threads one long list of pairs is split among (the machine's cores).
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        /// The most bytes reading one posted document may build by expansion
        /// (`--max-request-memory`, 256 MiB): the cap of a ``ReadBudget``, under which it may
        /// build in proportion to the body.
        public var maximumReadBytes = ReadBudget.defaultMaximumBytes
        /// A request whose body, or whose answer, is at least this large gives the allocator's
        /// free memory back to the system once it is done with (`Service.run`'s completion),
        /// so a burst of large requests does not leave the process holding their peak.
        public var releaseMemoryAfterBodyBytes = 256 << 10
        public init() {}
    }

    public let store: PaletteStore
    public let metrics: Metrics
    public var limits = Limits()
    /// What one posted audit may cost (`--max-pairs`, `--max-suggestions`).
    public var auditLimits = Auditor.Limits(maximumChecks: 200_000, maximumSuggestions: 1_000)
    /// Whether the server is shutting down (readiness fails while draining).
    public var isDraining: @Sendable () -> Bool = { false }
    /// Where the routes write what a client is not told (the cause of a 500): a message and
    /// its level. `Service.run` passes the service's log.
    public var log: @Sendable (_ message: String, _ level: String) -> Void = { _, _ in }

    public init(store: PaletteStore, metrics: Metrics = Metrics()) {
        self.store = store
        self.metrics = metrics
    }

    public func respond(to request: Request) -> Response {
        // The limit holds while the answer is built: a JSON buffer past it stops growing.
        let ceiling = OutputCeiling(limit: limits.maximumResponseBytes)
        var response = OutputCeiling.with(ceiling) { route(request) }
        if ceiling.isExceeded || response.body.count > limits.maximumResponseBytes {
            let route = response.route
            let size = ceiling.isExceeded ? "would be more than \(ByteCount.megabytes(max(ceiling.largest, response.body.count)))" : "is \(ByteCount.megabytes(response.body.count))"
            // What a client can ask for less of depends on the route: the token listing holds
            // every token of every theme posted and reads no `?theme=`.
            let advice = route == "/v1/tokens"
                ? "Post less: a document with fewer themes or tokens (the listing names every token of every theme)"
                : "Ask for less: fewer themes (?theme=), narrower rules, fewer pairs"
            response = ServiceError.unprocessable("the response \(size); the limit is \(ByteCount.megabytes(limits.maximumResponseBytes)) (--max-response). \(advice)", code: "limit-exceeded").response
            response.route = route
        }
        Routes.addCommonHeaders(&response)
        return response
    }

    /// The headers every response of the service carries, unless it has them already (a
    /// prepared one, ``prepared(_:)``, which stays prepared).
    static func addCommonHeaders(_ response: inout Response) {
        if response.headers.contains(where: { $0.name == "X-Content-Type-Options" }) { return }
        response.headers.reserveCapacity(response.headers.count + 2)  // one reallocation, not two
        response.headers.append(Header(name: "X-Content-Type-Options", value: "nosniff"))
        response.headers.append(Header(name: "Cache-Control", value: "no-store"))
    }

    /// A response that never changes, with the common headers, made into libmicrohttpd's form
    /// once (``Response/preparedForReuse()``): kept in a `static let`, it is queued per request
    /// without copying its body or adding its headers. (HEAD empties the body, which drops the
    /// prepared copy; so does draining, which adds `Connection: close`.)
    static func prepared(_ response: Response) -> Response {
        var response = response
        addCommonHeaders(&response)
        return response.preparedForReuse()
    }

    static let health = prepared(Response(status: 200, contentType: "application/json", body: "{\"status\":\"ok\"}"))
    /// The embedded files, prepared once each (they were converted to bytes, and copied by
    /// libmicrohttpd, on every request).
    static let openAPI = prepared(Response(status: 200, contentType: "application/yaml", body: OpenAPISpec.yaml))
    static let appCSS = prepared(Response(status: 200, contentType: "text/css; charset=utf-8", body: HTMLReport.style + "\n" + WebAssets.appCSS))
    static let scripts = WebAssets.scripts.mapValues { prepared(Response(status: 200, contentType: "text/javascript; charset=utf-8", body: $0)) }

    /// Every route of the API, once: its path as the access log and metrics name it, the
    /// methods it answers, the lane it runs on and its handler. Both the dispatch
    /// (``route(_:)``) and the lane (``lane(for:)``) read this list; the first match wins,
    /// so the route probed many times a second comes first.
    ///
    /// Routes whose cost grows with the request (audits, reports, proposals, token listings,
    /// batches) run on the worker pool, so a few expensive requests cannot hold the I/O threads
    /// that answer health checks, metrics and static files.
    static let table: [Route] = [
        Route("/healthz", ["GET"]) { _, _, _ in Routes.health },
        Route("/", ["GET"]) { routes, _, _ in routes.designerPage() },
    ] + WebAssets.scripts.keys.sorted().map { file in
        Route("/\(file)", ["GET"]) { _, _, _ in Routes.scripts[file] ?? Response(status: 404) }
    } + [
        Route("/app.css", ["GET"]) { _, _, _ in Routes.appCSS },
        Route("/readyz", ["GET"]) { routes, _, _ in try routes.readiness() },
        Route("/openapi.yaml", ["GET"]) { _, _, _ in Routes.openAPI },
        Route("/metrics", ["GET"]) { routes, _, _ in
            Response(status: 200, contentType: "text/plain; version=0.0.4", body: routes.metrics.render(palettes: routes.store.status.names.count))
        },
        Route("/v1/contrast", ["GET", "POST"], .poolFor(method: "POST")) { routes, request, _ in
            request.method == "POST" ? try routes.contrastPost(request) : try routes.contrastGet(request)
        },
        Route("/v1/audit", ["POST"], .pool) { routes, request, _ in try routes.auditPost(request) },
        Route("/v1/suggest", ["POST"], .pool) { routes, request, _ in try routes.suggestPost(request) },
        Route("/v1/variants", ["POST"], .pool) { routes, request, _ in try routes.variantsPost(request) },
        Route("/v1/simulate", ["POST"], .pool) { routes, request, _ in try routes.simulatePost(request) },
        Route("/v1/palettes", ["GET"]) { routes, _, _ in try routes.paletteList() },
        Route("/v1/formats", ["GET"]) { routes, _, _ in try routes.formatList() },
        Route("/v1/tokens", ["POST"], .pool) { routes, request, _ in try routes.tokensPost(request) },
        Route("/v1/report", ["GET", "POST"], .pool) { routes, request, _ in try routes.reportHTML(request) },
        Route("/v1/palettes/{name}", ["GET"]) { routes, _, name in try routes.paletteDocument(name) },
        Route("/v1/palettes/{name}/audit", ["GET"], .pool) { routes, request, name in try routes.paletteAudit(name, request) },
        Route("/v1/palettes/{name}/proposals", ["POST"], .pool) { routes, request, name in try routes.proposal(name, request) },
        Route("/v1/palettes/{name}/matrix", ["GET"], .pool) { routes, request, name in try routes.paletteMatrix(name, request) },
    ]

    /// The route of a path, and the `{name}` it holds ("" when none).
    static func match(_ segments: [String]) -> (route: Route, name: String)? {
        for route in table {
            if let name = route.match(segments) { return (route, name) }
        }
        return nil
    }

    /// Which lane a request runs on (``table``). The route's name labels a request refused
    /// because the pool is full.
    public func lane(for request: Request) -> (lane: Lane, route: String?) {
        guard let (route, _) = Routes.match(request.pathSegments) else { return (.inline, nil) }
        switch route.lane {
        case .inline: return (.inline, nil)
        case .pool: return (.pool, route.path)
        case .poolFor(method: let method): return request.method == method ? (.pool, route.path) : (.inline, nil)
        }
    }

    func route(_ request: Request) -> Response {
        if request.path.utf8.count > 2048 {
            return unmatched(ServiceError(414, "the path is longer than 2048 bytes"))
        }
        guard let (route, name) = Routes.match(request.pathSegments) else {
            return unmatched(.notFound("no resource at \(request.path); see /openapi.yaml for the API"))
        }
        var response: Response
        if route.methods.contains(request.method) || (request.method == "HEAD" && route.methods.contains("GET")) {
            if let repeated = Routes.repeatedQueryParameter(request) {
                response = ServiceError.badRequest("the query parameter \"\(repeated)\" is given more than once; give it once (every parameter of this API takes one value)", field: repeated, code: "repeated-parameter").response
            } else {
                do { response = try route.handler(self, request, name) } catch { response = answer(error, route: route.path, request: request) }
            }
            if request.method == "HEAD" { response.body = [] }
        } else {
            var error = ServiceError(405, "\(request.method) is not allowed on \(route.path); use \(route.methods.joined(separator: " or "))")
            error.headers = [Header(name: "Allow", value: (route.methods.contains("GET") ? route.methods + ["HEAD"] : route.methods).joined(separator: ", "))]
            response = error.response
        }
        response.route = route.path
        return response
    }

    func unmatched(_ error: ServiceError) -> Response {
        var response = error.response
        response.route = "unmatched"
        return response
    }

    /// What a handler threw, as the client sees it (``ServiceError/from(_:)``). An error the
    /// service has no answer for becomes a 500 whose body says "the server's log has the
    /// details": they are written there, with the request's method and route.
    func answer(_ error: any Error, route: String, request: Request) -> Response {
        let answered = ServiceError.from(error)
        if answered.status >= 500 && !(error is ServiceError) {
            log("\(request.method) \(route) answered \(answered.status): \(String(describing: error).excerpt(1_000))", "error")
        }
        return answered.response
    }

    // MARK: Helpers

    /// The first query parameter named twice (`fg` and its long name `foreground` count as
    /// one name, as do `bg` and `background`): every parameter takes one value, and reading the
    /// first of two would answer a question the client did not ask.
    static func repeatedQueryParameter(_ request: Request) -> String? {
        let items = request.query
        guard items.count > 1 else { return nil }
        func canonical(_ name: String) -> String {
            switch name {
            case "foreground": return "fg"
            case "background": return "bg"
            default: return name
            }
        }
        // A few parameters (every route takes at most five) are compared pairwise, without
        // building a set per request (an allocation on every request); a long query is
        // checked with one.
        if items.count <= 16 {
            for i in 1..<items.count {
                let name = canonical(items[i].name)
                for j in 0..<i where canonical(items[j].name) == name { return items[i].name }
            }
            return nil
        }
        var seen = Set<String>()
        for item in items where !seen.insert(canonical(item.name)).inserted { return item.name }
        return nil
    }

    static func json(_ status: Int, _ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(status: status, headers: [Header(name: "Content-Type", value: "application/json")], body: [UInt8](try encoder.encode(value)))
    }

    static func jsonBytes(_ body: [UInt8]) -> Response {
        Response(status: 200, headers: jsonHeaders, body: body)
    }

    /// `Content-Type: application/json`, in an array with room for the common headers
    /// (``addCommonHeaders(_:)`` then appends without reallocating).
    private static var jsonHeaders: [Header] {
        var headers: [Header] = []
        headers.reserveCapacity(3)
        headers.append(Header(name: "Content-Type", value: "application/json"))
        return headers
    }

    /// Whether the body is a stylesheet (`Content-Type: text/css`).
    /// Whether the body is in a text format of the registry (`text/css`), read without JSON.
    static func isStylesheet(_ request: Request) -> Bool {
        SourceRegistry.textFormat(file: nil, mediaType: mediaType(request)) != nil
    }

    /// The request's media type, lowercased, without parameters.
    static func mediaType(_ request: Request) -> String? {
        request.header("content-type").map { bareMediaType($0[...]) }
    }

    /// The media type a header field names (`Application/JSON; charset=utf-8` is
    /// `application/json`): of its parts between `;`s, the first that is not empty, without the
    /// spaces and tabs around it (so `" ;b"` names none), lowercased: how Content-Type is read
    /// (Accept, whose elements carry weights, is read by ``Negotiation``). An ASCII field (every real one) is read over its
    /// bytes, which gives the same answer; any other is trimmed and lowered as Unicode by
    /// Foundation (far slower, so not for the ASCII fields every request has).
    static func bareMediaType(_ field: Substring) -> String {
        guard field.utf8.allSatisfy({ $0 < 0x80 }) else {
            return field.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
        guard var part = Array(field.utf8).split(separator: UInt8(ascii: ";")).first else { return "" }
        while let first = part.first, first == 0x20 || first == 0x09 { part = part.dropFirst() }
        while let last = part.last, last == 0x20 || last == 0x09 { part = part.dropLast() }
        return String(decoding: part.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The formats this service reads, from the one registry: what the designers' page offers
    /// and how it sends each.
    func formatList() throws -> Response {
        struct Item: Encodable {
            var id: String
            var name: String
            var summary: String
            var suffixes: [String]
            var mediaTypes: [String]
            var folder: Bool
            var postable: Bool
        }
        let items = SourceRegistry.formats.map { format in
            var postable = format.readsDocuments
            if case .companion = format.role { postable = false }
            return Item(id: format.id, name: format.displayName, summary: format.summary, suffixes: format.suffixes,
                        mediaTypes: format.mediaTypes, folder: format is any FolderSourceFormat, postable: postable)
        }
        return try Routes.json(200, ["formats": items])
    }

    /// 415 unless the body is JSON (a missing Content-Type is read as JSON), 400 when empty.
    static func requireJSONBody(_ request: Request, what: String = "a JSON document") throws(ServiceError) {
        if let type = request.header("content-type") {
            let media = bareMediaType(type[...])
            if !(media == "application/json" || media.hasSuffix("+json")) {
                throw ServiceError(415, "the body must be JSON (application/json or application/design-tokens+json), not \(media)")
            }
        }
        if request.body.isEmpty { throw .badRequest("the request has no body; send \(what)", code: "missing-body") }
    }

    /// Parses a JSON body, or throws 400 with the line and column of the syntax error.
    static func parseBody(_ request: Request) throws(ServiceError) -> JSONValue {
        try requireJSONBody(request)
        do throws(JSONParser.SyntaxError) {
            return try JSONParser.parse(request.body)
        } catch {
            var failure = ServiceError.badRequest("the body is not valid JSON: \(error.message)", code: error.code.rawValue)
            failure.problem.line = error.location.line
            failure.problem.column = error.location.column
            throw failure
        }
    }

    /// The name for a posted document that has none (a tokens file): `?name=`, as a file's name
    /// is for the CLI, or "posted".
    static func documentName(_ request: Request) throws(ServiceError) -> String {
        guard let name = request.query("name") else { return "posted" }
        guard !name.isEmpty, name.unicodeScalars.count <= 200 else {
            throw .badRequest("the name parameter must be 1 to 200 characters long, not \(name.unicodeScalars.count)", field: "name", code: "invalid-value")
        }
        return name
    }

    /// A palette's problems as a 422.
    static func problems(_ detail: String, _ problems: [PaletteProblem]) -> ServiceError {
        var error = ServiceError.unprocessable(detail)
        error.problem.problems = problems
        return error
    }

    /// Refuses query parameters other than `known` (a handful of short names: compared, not
    /// hashed).
    static func onlyQuery(_ request: Request, _ known: [String], expected: String) throws(ServiceError) {
        if let unknown = request.query.first(where: { !known.contains($0.name) }) {
            throw .badRequest("unknown query parameter \"\(unknown.name)\"; expected \(expected)", field: unknown.name, code: "unknown-field")
        }
    }

    // MARK: HTML

    /// A strict policy for the HTML the service returns: no scripts at all, styles only inline,
    /// nothing fetched from anywhere.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// What an audit can be sent as, JSON first (the default).
    static let auditRepresentations = ["application/json", "text/html", "text/markdown"]

    /// The audit's representation the request's `Accept` prefers (``Negotiation``).
    static func preferredAuditType(_ request: Request) -> String {
        Negotiation.choose(accept: request.header("accept"), offering: auditRepresentations)
    }

    static func markdown(_ report: AuditReport, title: String, comparedWith: String = "the baseline") -> Response {
        Response(status: 200, headers: [Header(name: "Content-Type", value: "text/markdown; charset=utf-8")],
                 body: Array(MarkdownRenderer.render(report, title: title, comparedWith: comparedWith).utf8))
    }

    /// The audit as JSON, or as HTML or Markdown when the client asks for them (`Accept`).
    static func negotiated(_ request: Request, _ report: AuditReport, title: String) -> Response {
        switch preferredAuditType(request) {
        case "text/html": return html(report, title: title)
        case "text/markdown": return markdown(report, title: title)
        default: return jsonBytes(report.compactJSON())
        }
    }

    static func html(_ report: AuditReport, title: String, comparison: (BaselineComparison, against: String)? = nil) -> Response {
        let generated = ISO8601DateFormatter().string(from: Date())
        let page = HTMLReport(title: title, generated: generated, comparison: comparison).render(report)
        return Response(status: 200, headers: [Header(name: "Content-Type", value: "text/html; charset=utf-8"),
                                               Header(name: "Content-Security-Policy", value: contentSecurityPolicy)],
                        body: Array(page.utf8))
    }

    func reportHTML(_ request: Request) throws -> Response {
        if request.method == "POST" {
            let report = try audit(request)
            return Routes.html(Routes.judged([report]), title: "Contrast audit of \(report.name)")
        }
        return Routes.html(Routes.judged(store.entries.map(\.report)), title: "Contrast audit")
    }

    // MARK: Health

    func readiness() throws -> Response {
        let status = store.status
        struct Ready: Encodable {
            var status: String
            var palettes: [String]
            var problems: [PaletteProblem]
            var generation: Int
        }
        let ready = !status.names.isEmpty && !isDraining()
        return try Routes.json(ready ? 200 : 503, Ready(status: isDraining() ? "draining" : ready ? "ready" : "no palettes loaded",
                                                   palettes: status.names, problems: status.problems, generation: status.generation))
    }

}
