import MicroHTTPD

/// One route of the API as ``Routes/table`` registers it.
struct Route: Sendable {
    /// Where a route runs (``Routes/lane(for:)``): on the I/O thread, on the worker pool, or
    /// on the pool for one method only (`POST /v1/contrast`'s batches; its `GET` is one pair).
    enum Placement: Sendable {
        case inline, pool
        case poolFor(method: String)
    }

    /// A path segment: a fixed name, or the `{name}` the handler receives.
    enum Segment: Sendable, Equatable {
        case fixed(String), name
    }

    /// The path as the access log and metrics name it: `/v1/palettes/{name}/audit`.
    let path: String
    let segments: [Segment]
    let methods: [String]
    let lane: Placement
    let handler: @Sendable (Routes, Request, _ name: String) throws -> Response

    init(_ path: String, _ methods: [String], _ lane: Placement = .inline,
         _ handler: @escaping @Sendable (Routes, Request, _ name: String) throws -> Response) {
        self.path = path
        // "/" is the one empty segment, as ``Request/pathSegments`` has it.
        segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { $0 == "{name}" ? .name : .fixed(String($0)) }
        self.methods = methods
        self.lane = lane
        self.handler = handler
    }

    /// The `{name}` the path holds ("" when the route has none), or nil when the path is not
    /// this route's.
    func match(_ path: [String]) -> String? {
        guard path.count == segments.count else { return nil }
        var name = ""
        for (segment, given) in zip(segments, path) {
            switch segment {
            case .fixed(let fixed): if fixed != given { return nil }
            case .name: name = given
            }
        }
        return name
    }
}
