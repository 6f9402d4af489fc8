public import MicroHTTPD
import Synchronization

/// Request counters and a latency histogram, in the Prometheus text format.
public final class Metrics: Sendable {
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    struct Key: Hashable {
        var route: String
        var method: String
        var status: Int

        /// Hashes the status and the lengths of the route and method, not their bytes: there
        /// are a few dozen keys, and equal keys still hash equal (`==` compares the strings).
        /// Hashing two Strings was half of recording a request.
        func hash(into hasher: inout Hasher) {
            hasher.combine(status)
            hasher.combine(route.utf8.count &<< 8 | method.utf8.count)
        }
    }

    struct State {
        /// Requests by key: the keys in the order first seen, their counts, where each key is,
        /// and the key counted last (a run of requests to one route finds its place by one
        /// comparison, without hashing).
        var keys: [Key] = []
        var counts: [Int] = []
        var places: [Key: Int] = [:]
        var last = -1

        mutating func count(_ key: Key) {
            if last >= 0, keys[last] == key {
                counts[last] += 1
            } else if let place = places[key] {
                counts[place] += 1
                last = place
            } else {
                last = keys.count
                places[key] = last
                keys.append(key)
                counts.append(1)
            }
        }
        var bucketCounts = [Int](repeating: 0, count: Metrics.buckets.count + 1)
        var durationSum = 0.0
        var durationCount = 0
        var requestBytes = 0
        var responseBytes = 0
        var aborted = 0
    }

    private let state = Mutex(State())
    private let inFlight: @Sendable () -> Int
    private let pool: @Sendable () -> PoolGauges

    /// The worker pool's state, read when the metrics are rendered.
    public struct PoolGauges: Sendable {
        public var queued = 0, running = 0, rejected = 0, cancelled = 0
        public init(queued: Int = 0, running: Int = 0, rejected: Int = 0, cancelled: Int = 0) {
            self.queued = queued
            self.running = running
            self.rejected = rejected
            self.cancelled = cancelled
        }
    }

    /// The method as counted: the nine of RFC 9110 by name, any other as `OTHER` (compared, not
    /// hashed: they are short strings, equal when their bits are).
    static func counted(_ method: String) -> String {
        switch method {
        case "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT": method
        default: "OTHER"
        }
    }

    public init(inFlight: @escaping @Sendable () -> Int = { 0 }, pool: @escaping @Sendable () -> PoolGauges = { PoolGauges() }) {
        self.inFlight = inFlight
        self.pool = pool
    }

    public func record(_ request: CompletedRequest) {
        // Bounded labels: junk methods and unmatched paths cannot grow the metrics.
        let key = Key(route: request.route ?? "unmatched", method: Metrics.counted(request.method),
                      status: (100...599).contains(request.status) ? request.status : 0)
        let bucket = Metrics.buckets.firstIndex { request.duration <= $0 } ?? Metrics.buckets.count
        state.withLock { s in
            s.count(key)
            s.bucketCounts[bucket] += 1
            s.durationSum += request.duration
            s.durationCount += 1
            s.requestBytes += request.requestBytes
            s.responseBytes += request.responseBytes
            if !request.completed { s.aborted += 1 }
        }
    }

    public func render(palettes: Int) -> String {
        let s = state.withLock { $0 }
        var out = "# HELP contrast_http_requests_total HTTP requests answered, by route, method and status.\n"
        out += "# TYPE contrast_http_requests_total counter\n"
        for place in s.keys.indices.sorted(by: { (s.keys[$0].route, s.keys[$0].method, s.keys[$0].status) < (s.keys[$1].route, s.keys[$1].method, s.keys[$1].status) }) {
            let key = s.keys[place]
            out += "contrast_http_requests_total{route=\(label(key.route)),method=\(label(key.method)),status=\(label(String(key.status)))} \(s.counts[place])\n"
        }
        out += "# HELP contrast_http_request_duration_seconds Time from the request's first byte to its response.\n"
        out += "# TYPE contrast_http_request_duration_seconds histogram\n"
        var cumulative = 0
        for (index, bound) in Metrics.buckets.enumerated() {
            cumulative += s.bucketCounts[index]
            out += "contrast_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += s.bucketCounts[Metrics.buckets.count]
        out += "contrast_http_request_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
        out += "contrast_http_request_duration_seconds_sum \(s.durationSum)\n"
        out += "contrast_http_request_duration_seconds_count \(s.durationCount)\n"
        out += "# HELP contrast_http_requests_in_flight Requests received and not yet answered.\n"
        out += "# TYPE contrast_http_requests_in_flight gauge\n"
        out += "contrast_http_requests_in_flight \(inFlight())\n"
        out += "# HELP contrast_http_request_body_bytes_total Bytes of request bodies received.\n"
        out += "# TYPE contrast_http_request_body_bytes_total counter\n"
        out += "contrast_http_request_body_bytes_total \(s.requestBytes)\n"
        out += "# HELP contrast_http_response_body_bytes_total Bytes of response bodies sent.\n"
        out += "# TYPE contrast_http_response_body_bytes_total counter\n"
        out += "contrast_http_response_body_bytes_total \(s.responseBytes)\n"
        out += "# HELP contrast_http_requests_aborted_total Requests whose connection ended before the response was sent.\n"
        out += "# TYPE contrast_http_requests_aborted_total counter\n"
        out += "contrast_http_requests_aborted_total \(s.aborted)\n"
        let gauges = pool()
        out += "# HELP contrast_pool_queued Expensive requests waiting for a worker.\n"
        out += "# TYPE contrast_pool_queued gauge\n"
        out += "contrast_pool_queued \(gauges.queued)\n"
        out += "# HELP contrast_pool_running Expensive requests a worker is computing.\n"
        out += "# TYPE contrast_pool_running gauge\n"
        out += "contrast_pool_running \(gauges.running)\n"
        out += "# HELP contrast_pool_rejected_total Expensive requests answered 503 because every worker was busy and the queue was full.\n"
        out += "# TYPE contrast_pool_rejected_total counter\n"
        out += "contrast_pool_rejected_total \(gauges.rejected)\n"
        out += "# HELP contrast_pool_cancelled_total Expensive requests cancelled by their deadline or by shutdown.\n"
        out += "# TYPE contrast_pool_cancelled_total counter\n"
        out += "contrast_pool_cancelled_total \(gauges.cancelled)\n"
        out += "# HELP contrast_palettes_loaded Palettes the service holds.\n"
        out += "# TYPE contrast_palettes_loaded gauge\n"
        out += "contrast_palettes_loaded \(palettes)\n"
        return out
    }

    private func label(_ value: String) -> String {
        "\"" + value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
    }
}
