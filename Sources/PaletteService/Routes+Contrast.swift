import ColorScience
import MicroHTTPD
import PaletteAudit
import TokenSources

/// `GET` and `POST /v1/contrast`: pairs, read by ``PairRequest`` as `contrast check` reads them.
extension Routes {
    /// The query parameters of `GET /v1/contrast`, made once (a Set literal here hashed eight
    /// strings per request).
    static let contrastQuery: [String] = ["fg", "bg", "foreground", "background", "backdrop", "usage", "level", "scheme"]

    func contrastGet(_ request: Request) throws -> Response {
        try Routes.onlyQuery(request, Routes.contrastQuery, expected: "fg, bg, backdrop, usage, level, scheme")
        let pair = PairRequest(foreground: request.query("fg") ?? request.query("foreground"), background: request.query("bg") ?? request.query("background"),
                               backdrop: request.query("backdrop"), usage: request.query("usage"), level: request.query("level"),
                               scheme: request.query("scheme"))
        return Routes.jsonBytes(PairRequest.jsonBytes(try pair.evaluateInEveryScheme()))
    }

    func contrastPost(_ request: Request) throws -> Response {
        let pairs: [PairRequest]
        try Routes.requireJSONBody(request)
        // A list of plain pairs, the common long request, is read without a JSON tree; any
        // other body goes through the full reader, which words every error.
        if let simple = request.body.withUnsafeBufferPointer({ PairRequest.simpleList($0) }) {
            pairs = simple
            try checkPairCount(pairs.count)
        } else {
            let body = try Routes.parseBody(request)
            guard body.members != nil else { throw ServiceError.badRequest("expected an object: {\"fg\": …, \"bg\": …} or {\"pairs\": [...]}", code: "wrong-type") }
            guard let list = body["pairs"] else {
                let pair = try PairRequest(json: body)
                return Routes.jsonBytes(PairRequest.jsonBytes(try pair.evaluateInEveryScheme(), id: pair.id))
            }
            if let other = body.members?.first(where: { $0.key != "pairs" }) {
                throw ServiceError.badRequest("unknown field \"\(other.key)\" beside \"pairs\"; send either one pair or {\"pairs\": [...]}", code: "unknown-field")
            }
            guard case .array(let items, _) = list else { throw ServiceError.badRequest("\"pairs\" must be an array of {\"fg\", \"bg\"} objects", code: "wrong-type") }
            try checkPairCount(items.count)
            pairs = try items.enumerated().map { index, item throws(RequestError) in try PairRequest(json: item, at: "/pairs/\(index)") }
        }
        // A long list is measured in parts on every core; the parts' answers are joined in order.
        // A request past its deadline stops before its next part: the server answers 503.
        let cancellation = request.cancellation
        guard let answer = PairBatch(threads: limits.threads).results(pairs, cancelled: { cancellation?.shouldStop() ?? false }) else {
            throw ServiceError.unprocessable("the request was stopped at its deadline")
        }
        return Routes.jsonBytes(answer)
    }

    private func checkPairCount(_ count: Int) throws(ServiceError) {
        if count > limits.maximumPairs {
            throw ServiceError.unprocessable("\(count) pairs; the limit is \(limits.maximumPairs) per request (split the batch)", code: "limit-exceeded")
        }
    }
}
