import Foundation
public import MicroHTTPD
import PaletteAudit
public import TokenSources

/// An error a handler throws, carrying the HTTP status it means. ``Routes/respond(to:)`` turns
/// it into an RFC 9457 `application/problem+json` body, in one place.
public struct ServiceError: Error, Sendable {
    /// The RFC 9457 body: status, detail, and the field, location or palette problems at fault.
    public var problem: ProblemDetails
    /// Extra response headers (`Allow` on a 405).
    public var headers: [Header] = []

    public init(_ status: Int, _ detail: String, field: String? = nil, code: String? = nil) {
        problem = ProblemDetails(title: ServiceError.title(status), status: status, detail: detail, code: code ?? ServiceError.code(status), field: field)
    }

    public var status: Int { problem.status }

    public static func badRequest(_ detail: String, field: String? = nil, code: String? = nil) -> ServiceError { ServiceError(400, detail, field: field, code: code) }
    public static func notFound(_ detail: String) -> ServiceError { ServiceError(404, detail) }
    public static func unprocessable(_ detail: String, field: String? = nil, code: String? = nil) -> ServiceError { ServiceError(422, detail, field: field, code: code) }

    /// The body and headers of this error.
    public var response: Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(problem)).map { [UInt8]($0) } ?? Array("{\"status\":\(status)}".utf8)
        return Response(status: status, headers: [Header(name: "Content-Type", value: "application/problem+json")] + headers, body: body)
    }

    /// The code of an error whose thrower gives none: what its status means (docs/errors.md).
    static func code(_ status: Int) -> String {
        switch status {
        case 400: "bad-request"
        case 404: "not-found"
        case 405: "method-not-allowed"
        case 408: "request-timeout"
        case 413: "content-too-large"
        case 414: "uri-too-long"
        case 415: "unsupported-media-type"
        case 422: "invalid-palette"
        case 503: "unavailable"
        default: status >= 500 ? "internal-error" : "bad-request"
        }
    }

    /// The reason phrase of each status the service uses (RFC 9110).
    static func title(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }

    /// Any error as the service answers it: its own status for a ``ServiceError``, 400 for a
    /// request field at fault, 422 for a palette problem, 500 for anything else (without
    /// details, which stay in the server's log).
    static func from(_ error: any Error) -> ServiceError {
        switch error {
        case let e as ServiceError: return e
        case let e as RequestError: return .badRequest(e.message, field: e.field.isEmpty ? nil : e.field, code: e.code.rawValue)
        case let e as PaletteProblem:
            var service = ServiceError.unprocessable(e.message)
            service.problem.code = e.code.rawValue
            service.problem.problems = [e]
            return service
        default: return ServiceError(500, "the request could not be answered; the server's log has the details")
        }
    }
}

/// An RFC 9457 problem details document.
public struct ProblemDetails: Codable, Sendable {
    public var type = "about:blank"
    public var title: String
    public var status: Int
    public var detail: String
    /// What is wrong, for programs, when the error has a stable code: a request's
    /// (`missing-field`, `invalid-color`…), a JSON syntax error's (`invalid-json`…), a palette
    /// problem's, or the matrix's (`unknown-theme`, `unresolved-tokens`). See docs/errors.md.
    public var code: String?
    public var field: String?
    public var line: Int?
    public var column: Int?
    public var problems: [PaletteProblem]?
}

extension ServerConfiguration {
    /// The server's own refusals (408, 413, 503, bad framing) as problem+json, like every
    /// other error of the service.
    public static let problemJSON: @Sendable (Refusal) -> Response = { refusal in
        ServiceError(refusal.status, refusal.detail).response
    }
}
