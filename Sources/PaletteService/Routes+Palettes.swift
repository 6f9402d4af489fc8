import Foundation
import MicroHTTPD
import PaletteAudit
import TokenSources

/// Audits of posted documents, the palettes the service holds, proposals, and token listings.
extension Routes {
    /// Decodes a posted palette (or any token document) and audits it.
    /// `sidecar`: the served palette, when its checks live in a `NAME.checks.json` beside its
    /// tokens file; a proposal that is the tokens file alone is audited with those checks.
    /// `replacing`: the served stylesheet a proposal replaces, and the palettes directory, so the
    /// proposal's `@import`s resolve as the served file's do.
    /// The read, the audit and its results spend from one budget for the request
    /// (``requestBudget(_:maximumBytes:)``): past it, 422 names what grew.
    func audit(_ request: Request, name: String? = nil, sidecar: Palette? = nil,
               replacing: (file: String, directory: String)? = nil) throws(ServiceError) -> PaletteReport {
        let budget = Routes.requestBudget(request, maximumBytes: limits.maximumReadBytes)
        return try ReadBudget.withBudget(budget) { () throws(ServiceError) -> PaletteReport in
            let report = try audit(request, name: name, sidecar: sidecar, replacing: replacing, budget: budget)
            try Routes.refuseIfStopped(budget, doing: "the audit")
            return report
        }
    }

    private func audit(_ request: Request, name: String?, sidecar: Palette?,
                       replacing: (file: String, directory: String)?, budget: ReadBudget) throws(ServiceError) -> PaletteReport {
        let isStylesheet = Routes.isStylesheet(request)
        let defaultName: String
        if let name { defaultName = name } else { defaultName = try Routes.documentName(request) }
        let (decoded, problems) = try Routes.decodePosted(request, name: defaultName, budget: budget, replacing: replacing)
        if let syntax = problems.first(where: { $0.code == .invalidJSON }) {
            var failure = ServiceError.badRequest("the body is not valid JSON: \(syntax.message)", code: syntax.code.rawValue)
            failure.problem.line = syntax.location?.line ?? 0
            failure.problem.column = syntax.location?.column ?? 0
            throw failure
        }
        guard var palette = decoded else { throw Routes.problems("the document is not a palette", problems) }
        if let name { palette.name = name }
        if let sidecar { palette.adoptChecks(from: sidecar) }
        let themes = request.query.filter { $0.name == "theme" }.map(\.value)
        let auditor = Auditor(themeFilter: themes.isEmpty ? nil : themes, limits: try requestLimits(request),
                              cvdPolicy: try Routes.cvdPolicy(request))
        var report = auditor.audit(palette, problems: problems)
        try Routes.refuseIfStopped(budget, doing: "the audit")
        if report.problems.isEmpty, try Routes.included(request).effects { report = auditor.withFixEffects(report, palette: palette) }
        if !report.problems.isEmpty {
            throw Routes.problems("the palette has \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"); each names its \(isStylesheet ? "line and column" : "JSON pointer")", report.problems)
        }
        if let unknown = palette.unknownThemes(themes) { throw .badRequest(unknown, code: "unknown-theme") }
        return report
    }

    /// The budget of a posted request (`--max-request-memory` its cap): proportional to the
    /// body, it bounds what the read expands and records, and, up to its cap, what the request
    /// builds from it (the audit's checks and results, a token listing); it stops at the
    /// request's deadline.
    static func requestBudget(_ request: Request, maximumBytes: Int) -> ReadBudget {
        var shouldStop: (@Sendable () -> Bool)?
        if let cancellation = request.cancellation { shouldStop = { cancellation.shouldStop() } }
        return ReadBudget(inputBytes: request.body.count, maximumBytes: maximumBytes, shouldStop: shouldStop)
    }

    /// 422 naming what grew past the request's budget (503 once its deadline passed: the
    /// cancellation recorded that the work stopped), if the budget stopped.
    static func refuseIfStopped(_ budget: ReadBudget, doing what: String) throws(ServiceError) {
        guard let stop = budget.problem else { return }
        throw Routes.problems(budget.wasCancelled ? "the request was stopped at its deadline" : "\(what) would build more than the request may: \(stop.message)", [stop])
    }

    /// A posted palette: a JSON document of any format this tool reads, or a stylesheet
    /// (`Content-Type: text/css`) read for its custom properties.
    /// The read is bounded by `budget` (``requestBudget(_:maximumBytes:)``) and stops at the
    /// request's deadline: a document that expands beyond its budget is refused with 422
    /// naming the construct and its line.
    static func decodePosted(_ request: Request, name: String, budget: ReadBudget,
                             replacing: (file: String, directory: String)? = nil) throws(ServiceError) -> (palette: Palette?, problems: [PaletteProblem]) {
        let stylesheet = isStylesheet(request)
        if stylesheet {
            if request.body.isEmpty { throw .badRequest("the request has no body; send a stylesheet", code: "missing-body") }
        } else {
            try requireJSONBody(request, what: "a palette document")
        }
        let body = request.body
        let media = stylesheet ? Routes.mediaType(request) : nil
        let decoded = ReadBudget.withBudget(budget) {
            if stylesheet, let replacing {
                return PaletteDecoder.decodeStylesheet(bytes: body, replacing: replacing.file, in: replacing.directory, name: name)
            }
            return PaletteDecoder.decode(bytes: body, mediaType: media, defaultName: name)
        }
        if let stop = budget.problem {
            // A cancelled read is answered 503 by the server (the cancellation recorded that the
            // work stopped); a budget that ran out is the document's problem.
            throw Routes.problems(budget.wasCancelled ? "the request was stopped at its deadline" : "the document expands beyond what its size allows: \(stop.message)", [stop])
        }
        return decoded
    }

    /// The request's audit limits: the service's, with `?suggestions=none` turning them off,
    /// and stopping when the request is cancelled.
    func requestLimits(_ request: Request) throws(ServiceError) -> Auditor.Limits {
        var limits = Routes.stoppable(auditLimits, request)
        limits.maximumOutputBytes = self.limits.maximumResponseBytes
        let preferred = Routes.preferredAuditType(request)
        limits.rendering = preferred == "text/html" || request.path == "/v1/report" || (try? Routes.included(request).html) == true ? .html : preferred == "text/markdown" ? .markdown : .json
        switch request.query("suggestions") {
        case nil, "all": break
        case "none": limits.maximumSuggestions = 0
        case let other?: throw .badRequest("suggestions must be all or none, not \"\(other.prefix(40))\"", field: "suggestions", code: "invalid-value")
        }
        return limits
    }

    /// `?cvd=warn` (the default) or `?cvd=fail`: what contrast lost under a simulated
    /// color-vision deficiency does to a check that does not say.
    static func cvdPolicy(_ request: Request) throws(ServiceError) -> CVDPolicy {
        guard let text = request.query("cvd") else { return .warn }
        guard let policy = CVDPolicy(name: text) else { throw .badRequest("cvd must be warn or fail, not \"\(text.prefix(40))\"", field: "cvd", code: "invalid-value") }
        return policy
    }

    /// Limits that stop the audit when the request is cancelled (on the pool lane).
    static func stoppable(_ limits: Auditor.Limits, _ request: Request) -> Auditor.Limits {
        var limits = limits
        if let cancellation = request.cancellation { limits.shouldStop = { cancellation.shouldStop() } }
        return limits
    }

    /// The audit a response sends: the palettes' reports, judged by the service's policy
    /// (``AuditPolicy``): a palette with colors and no checks is answered 200, its `outcome`
    /// `empty` with the reason, since the designers' page shows such palettes too.
    static func judged(_ palettes: [PaletteReport], comparison: BaselineComparison? = nil) -> AuditReport {
        var report = AuditReport(palettes: palettes, comparison: comparison)
        report.outcome = AuditPolicy(comparesWithBaseline: comparison != nil, edge: .service).judge(report)
        return report
    }

    func auditPost(_ request: Request) throws -> Response {
        let html = try Routes.includesHTML(request)
        let report = try audit(request)
        let title = "Contrast audit of \(report.name)"
        let judged = Routes.judged([report])
        guard html, Routes.preferredAuditType(request) == "application/json" else { return Routes.negotiated(request, judged, title: title) }
        return Routes.jsonBytes(judged.compactJSON(html: Routes.htmlText(judged, title: title)))
    }

    /// `?include=html`: the JSON answer also carries, as `html`, the page the same request
    /// gets with `Accept: text/html` (rendered from the same audit), so an editor that shows
    /// the report and works with its data makes one request for both.
    static func includesHTML(_ request: Request) throws(ServiceError) -> Bool {
        try included(request).html
    }

    /// `?include=` as a comma-separated list: `html` (above), `effects` (every fix says what
    /// else it changes: ``Auditor/withFixEffects(_:palette:)``), or both.
    static func included(_ request: Request) throws(ServiceError) -> (html: Bool, effects: Bool) {
        guard let text = request.query("include") else { return (false, false) }
        var included = (html: false, effects: false)
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            switch part {
            case "html": included.html = true
            case "effects": included.effects = true
            default: throw .badRequest("include must be html, effects or html,effects, not \"\(text.prefix(40))\"", field: "include", code: "invalid-value")
            }
        }
        return included
    }

    /// The HTML report of `report` as text, for `?include=html`: the page `Accept: text/html`
    /// answers, rendered from the same audit.
    static func htmlText(_ report: AuditReport, title: String, comparison: (BaselineComparison, against: String)? = nil) -> String {
        String(decoding: html(report, title: title, comparison: comparison).body, as: UTF8.self)
    }

    func paletteList() throws -> Response {
        struct Item: Encodable {
            var name: String
            var description: String?
            var themes: [ThemeItem]
            var summary: AuditSummary
            var verdict: String
            var coverage: Coverage?
        }
        struct ThemeItem: Encodable {
            var name: String
            var summary: AuditSummary
            var verdict: String
        }
        let items = store.entries.map { entry in
            Item(name: entry.palette.name, description: entry.palette.description,
                 themes: entry.report.themes.map { ThemeItem(name: $0.name, summary: $0.summary, verdict: $0.summary.verdict(coverage: $0.coverage ?? entry.report.coverage).text) },
                 summary: entry.report.summary, verdict: entry.report.summary.verdict(coverage: entry.report.coverage).text, coverage: entry.report.coverage)
        }
        return try Routes.json(200, ["palettes": items])
    }

    func entry(_ name: String) throws(ServiceError) -> PaletteStore.Entry {
        guard let entry = store.entry(named: name) else { throw .notFound("no palette named \"\(name)\"; GET /v1/palettes lists them") }
        return entry
    }

    func paletteDocument(_ name: String) throws -> Response {
        let entry = try entry(name)
        if entry.document.isEmpty {
            // Read from a folder (an asset catalog, res/, a token set): there is no one document.
            let files = entry.palette.files.isEmpty ? "" : " (\(entry.palette.files.count) files)"
            throw ServiceError(409, "\(name) was read from a folder\(files), \(entry.palette.format ?? "not one document"), so there is no single document to serve; edit its files where they are kept, and see its audit at /v1/palettes/\(name)/audit")
        }
        if let text = SourceRegistry.textFormat(file: entry.file), let type = text.mediaTypes.first {
            return Response(status: 200, headers: [Header(name: "Content-Type", value: type + "; charset=utf-8")], body: entry.document)
        }
        return Routes.jsonBytes(entry.document)
    }

    /// Every token of a theme against every other (`?theme=`, the first theme by default), as
    /// JSON or, with `?format=csv` or `Accept: text/csv`, CSV: `contrast matrix` over HTTP. A
    /// matrix bound to pass `--max-response` or `--max-pairs` is refused with 422 before any work.
    func paletteMatrix(_ name: String, _ request: Request) throws -> Response {
        let entry = try entry(name)
        try Routes.onlyQuery(request, ["theme", "format"], expected: "theme, format")
        let csv: Bool
        switch request.query("format") {
        case nil: csv = Negotiation.choose(accept: request.header("accept"), offering: ["application/json", "text/csv"]) == "text/csv"
        case "json": csv = false
        case "csv": csv = true
        case let other?: throw ServiceError.badRequest("format must be json or csv, not \"\(other.prefix(40))\"", field: "format", code: "invalid-value")
        }
        let matrix: ContrastMatrix
        do {
            matrix = try ContrastMatrix(palette: entry.palette, theme: request.query("theme"))
        } catch {
            if error.problems.isEmpty { throw ServiceError.badRequest(error.message, field: "theme", code: error.code.rawValue) }
            var failure = Routes.problems(error.message, error.problems)
            failure.problem.code = error.code.rawValue
            throw failure
        }
        if let maximum = auditLimits.maximumChecks, matrix.pairCount > maximum {
            throw ServiceError.unprocessable("\(matrix.entries.count) tokens make \(matrix.pairCount) pairs; the limit is \(maximum) (--max-pairs)", code: "limit-exceeded")
        }
        if matrix.minimumRenderedBytes > limits.maximumResponseBytes {
            throw ServiceError.unprocessable("the matrix would be at least \(ByteCount.megabytes(matrix.minimumRenderedBytes)) (\(matrix.pairCount) pairs); the limit is \(ByteCount.megabytes(limits.maximumResponseBytes)) (--max-response)", code: "limit-exceeded")
        }
        var body: [UInt8] = []
        body.reserveCapacity(min(limits.maximumResponseBytes, matrix.pairCount * 96 + 128))
        if csv {
            matrix.writeCSV { body.append(contentsOf: $0.utf8) }
        } else {
            matrix.writeJSON(palette: entry.palette.name) { body.append(contentsOf: $0) }
        }
        return Response(status: 200, headers: [Header(name: "Content-Type", value: csv ? "text/csv; charset=utf-8" : "application/json")], body: body)
    }

    func paletteAudit(_ name: String, _ request: Request) throws -> Response {
        let entry = try entry(name)
        try Routes.onlyQuery(request, ["theme", "cvd"], expected: "theme, cvd")
        let themes = request.query.filter { $0.name == "theme" }.map(\.value)
        let policy = try Routes.cvdPolicy(request)
        var report = entry.report
        if !themes.isEmpty || policy != .warn {
            if let unknown = entry.palette.unknownThemes(themes) { throw ServiceError.badRequest(unknown, code: "unknown-theme") }
            report = Auditor(themeFilter: themes.isEmpty ? nil : themes, limits: Routes.stoppable(.unlimited, request), cvdPolicy: policy).audit(entry.palette)
        }
        return Routes.negotiated(request, Routes.judged([report]), title: "Contrast audit of \(name)")
    }

    func proposal(_ name: String, _ request: Request) throws -> Response {
        let entry = try entry(name)
        // A served tokens file or stylesheet takes its checks from its sidecar: a proposal is the
        // tokens file (or stylesheet) alone, audited with the served palette's checks.
        let isText = SourceRegistry.textFormat(file: entry.file) != nil
        let hasSidecar = entry.file.hasSuffix(".tokens.json") || isText
        let html = try Routes.includesHTML(request)
        // A proposed stylesheet stands where the served one does: its imports resolve there.
        let replacing = isText ? store.status.directory.map { (file: entry.file, directory: $0) } : nil
        var proposed = try audit(request, name: name, sidecar: hasSidecar ? entry.palette : nil, replacing: replacing)
        if let directory = replacing?.directory { proposed = PaletteStore.relative(proposed, to: directory) }
        let themes = request.query.filter { $0.name == "theme" }.map(\.value)
        let current = themes.isEmpty ? entry.report : Auditor(themeFilter: themes, limits: Routes.stoppable(.unlimited, request)).audit(entry.palette)
        let comparison = Baseline(AuditReport(palettes: [current])).compare(with: AuditReport(palettes: [proposed]))
        let report = Routes.judged([proposed], comparison: comparison)
        let title = "Proposed change to \(name)"
        switch Routes.preferredAuditType(request) {
        case "text/html": return Routes.html(report, title: title, comparison: (comparison, against: "Against the served palette"))
        case "text/markdown": return Routes.markdown(report, title: title, comparedWith: "the served palette")
        default: break
        }
        let page = html ? Routes.htmlText(report, title: title, comparison: (comparison, against: "Against the served palette")) : nil
        return Routes.jsonBytes(AuditReport.proposalJSON(palette: name, current: current.summary, proposed: proposed.summary,
                                                         comparison: comparison, audit: report, html: page))
    }

    func designerPage() -> Response {
        Response(status: 200, headers: [Header(name: "Content-Type", value: "text/html; charset=utf-8"),
                                        Header(name: "Content-Security-Policy", value: DesignerPage.contentSecurityPolicy),
                                        Header(name: "Referrer-Policy", value: "no-referrer")],
                 body: Array(DesignerPage.render(store.entries).utf8))
    }

    /// Every theme's tokens, resolved, with the JSON pointer and the span of each value (where
    /// it is written in the body, for an editor to replace); the palette's
    /// problems (syntax errors included) come back as data, not as an error status, so an
    /// editor can check a document and show what is wrong without failing requests.
    ///
    /// The read, the audit and the listing spend from one budget for the request; the listing
    /// is refused (422) before it is built when its themes would resolve more tokens than an
    /// audit may, or its JSON would be larger than `--max-response`, and written through the
    /// JSON writer, which stops growing at that ceiling.
    func tokensPost(_ request: Request) throws -> Response {
        let budget = Routes.requestBudget(request, maximumBytes: limits.maximumReadBytes)
        return try ReadBudget.withBudget(budget) { () throws -> Response in
            let (decoded, problems) = try Routes.decodePosted(request, name: try Routes.documentName(request), budget: budget)
            guard let palette = decoded else { return Routes.jsonBytes(TokenListing(nil, problems: problems).compactJSON()) }
            var limits = Routes.stoppable(auditLimits, request)
            limits.maximumSuggestions = 0  // a listing shows no suggestions: skip computing them
            // Past the request's deadline what is left is not done (the server answers 503): an
            // audit that stopped has no ledger, and the listing would count one again.
            let stopped = { limits.shouldStop?() == true }
            let audited = Auditor(limits: limits).audit(palette, problems: problems)
            if stopped() { return Routes.jsonBytes(Array("{}".utf8)) }
            try Routes.refuseIfStopped(budget, doing: "the listing's audit")
            // Every theme's tokens, stopping at the deadline too, refused before it is built
            // past its bounds, and written by the JSON writer, which stops at --max-response
            // while it writes.
            var listing = TokenListing(palette, problems: audited.problems, warnings: audited.warnings ?? [], ledger: audited.ledger,
                                       shouldStop: limits.shouldStop)
            if stopped() { return Routes.jsonBytes(Array("{}".utf8)) }
            // Past the answer's ceiling, the service answers 422 for it (``respond(to:)``).
            if OutputCeiling.current?.isExceeded == true { return Routes.jsonBytes([]) }
            if let stop = listing.stopped {
                try Routes.refuseIfStopped(budget, doing: "the listing")
                throw Routes.problems("the listing is refused before it is built: \(stop.message)", [stop])
            }
            listing.locate(in: request.body, palette: palette, stylesheet: Routes.isStylesheet(request))
            try Routes.refuseIfStopped(budget, doing: "the listing")
            return Routes.jsonBytes(listing.compactJSON())
        }
    }
}
