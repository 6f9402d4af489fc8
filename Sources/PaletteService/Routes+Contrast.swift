import ColorScience
import MicroHTTPD
import PaletteAudit

/// `GET` and `POST /v1/contrast`: pairs, read by ``PairRequest`` as `contrast check` reads them.
extension Routes {
    func contrastGet(_ request: Request) throws -> Response {
        try Routes.onlyQuery(request, ["fg", "bg", "foreground", "background", "backdrop", "usage", "level", "scheme"], expected: "fg, bg, backdrop, usage, level, scheme")
        let pair = PairRequest(foreground: request.query("fg") ?? request.query("foreground"), background: request.query("bg") ?? request.query("background"),
                               backdrop: request.query("backdrop"), usage: request.query("usage"), level: request.query("level"),
                               scheme: request.query("scheme"))
        return Routes.jsonBytes(try pair.evaluate().jsonBytes())
    }

    func contrastPost(_ request: Request) throws -> Response {
        let body = try Routes.parseBody(request)
        guard body.members != nil else { throw ServiceError.badRequest("expected an object: {\"fg\": …, \"bg\": …} or {\"pairs\": [...]}") }
        guard let pairs = body["pairs"] else {
            let pair = try PairRequest(json: body)
            return Routes.jsonBytes(try pair.evaluate().jsonBytes(id: pair.id))
        }
        if let other = body.members?.first(where: { $0.key != "pairs" }) {
            throw ServiceError.badRequest("unknown field \"\(other.key)\" beside \"pairs\"; send either one pair or {\"pairs\": [...]}")
        }
        guard case .array(let items, _) = pairs else { throw ServiceError.badRequest("\"pairs\" must be an array of {\"fg\", \"bg\"} objects") }
        if items.count > limits.maximumPairs {
            throw ServiceError.unprocessable("\(items.count) pairs; the limit is \(limits.maximumPairs) per request (split the batch)")
        }
        var out: [UInt8] = Array("{\"results\":[".utf8)
        out.reserveCapacity(items.count * 400)
        for (index, item) in items.enumerated() {
            let pointer = "/pairs/\(index)"
            let pair = try PairRequest(json: item, at: pointer)
            if index > 0 { out.append(UInt8(ascii: ",")) }
            do {
                try pair.evaluate().appendJSON(to: &out, id: pair.id)
            } catch {
                // A pair that cannot be measured is an error entry in its place; the rest go on.
                var entry = "{\"error\":\(JSONValue.quoted(error.message))"
                if let id = pair.id { entry += ",\"id\":\(JSONValue.quoted(id))" }
                entry += ",\"pointer\":\(JSONValue.quoted("\(pointer)/\(error.field)"))}"
                out.append(contentsOf: Array(entry.utf8))
            }
        }
        out.append(contentsOf: Array("]}".utf8))
        return Routes.jsonBytes(out)
    }
}
