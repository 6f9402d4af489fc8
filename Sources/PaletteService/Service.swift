import Dispatch
import Foundation
public import MicroHTTPD
public import PaletteAudit
public import TokenSources

/// The running service: palettes loaded, the server listening, the log written, until SIGTERM
/// or SIGINT drains it (`contrast serve` builds the configuration and calls ``run(_:)``).
///
/// SIGTERM or SIGINT stops accepting connections and finishes the requests in flight (up to
/// ``Configuration/grace`` seconds; then those still waiting or computing are answered 503 with
/// Retry-After). SIGHUP reloads the palettes directory, one reload at a time, off the thread
/// that waits for signals, so a slow file system cannot keep it from seeing SIGTERM.
public enum Service: Sendable {
    public struct Configuration: Sendable {
        /// The HTTP server's settings (address, threads, limits, TLS).
        public var server = ServerConfiguration()
        /// The directory of palettes served.
        public var palettes = "palettes"
        /// A checks document applied to every palette.
        public var checks: String?
        /// Route limits (response size, read budget, pairs a request).
        public var limits = Routes.Limits()
        /// What one posted audit may cost.
        public var auditLimits = Auditor.Limits(maximumChecks: 200_000, maximumSuggestions: 1_000)
        /// Seconds to finish in-flight requests after SIGTERM.
        public var grace: Double = 10
        public var logFormat: AccessLog.Format = .text
        /// No access log (messages are still written).
        public var quiet = false
        /// The version the banner names.
        public var version = ""

        public init() {}
    }

    /// The server could not start (the address is taken, the TLS key does not match…).
    public enum StartErrors: ErrorFamily {}
    public typealias StartError = CodedError<StartErrors>

    /// Serves until SIGTERM or SIGINT, then returns once drained (or the grace period is
    /// over). The banner goes to standard output, the log to standard error.
    public static func run(_ configuration: Configuration) throws(StartError) {
        // Block the signals before any thread starts, so libmicrohttpd's threads inherit the
        // mask and only sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        MemoryRelease.configureForService()

        var config = configuration.server
        let log = ServiceLog(format: configuration.logFormat)
        // libmicrohttpd's own messages go through the same escaped log (JSON lines stay JSON).
        config.messageLog = { message in log.line("libmicrohttpd: \(message)", level: "warning") }
        // The palettes directory's audits run under the limits of a posted audit (no deadline:
        // a load is not a request, and keeps what it had until it finishes).
        var loadLimits = configuration.auditLimits
        loadLimits.shouldStop = nil
        let store = PaletteStore(auditLimits: loadLimits)
        let directory = configuration.palettes
        for problem in store.load(directory: directory, checks: configuration.checks) { log.line("palette problem: \(problem.text)", level: "warning") }
        let serverBox = ServerBox()
        let metrics = Metrics(inFlight: { serverBox.server?.inFlight ?? 0 }, pool: {
            guard let stats = serverBox.server?.poolStatistics else { return Metrics.PoolGauges() }
            return Metrics.PoolGauges(queued: stats.queued, running: stats.running, rejected: stats.rejected, cancelled: stats.cancelled)
        })
        var routes = Routes(store: store, metrics: metrics)
        routes.auditLimits = configuration.auditLimits
        routes.limits = configuration.limits
        routes.isDraining = { serverBox.server?.isDraining ?? false }
        routes.log = { message, level in log.line(message, level: level) }
        let finalRoutes = routes
        config.lane = { finalRoutes.lane(for: $0) }
        let quiet = configuration.quiet
        let releaseAfter = configuration.limits.releaseMemoryAfterBodyBytes
        let trimmer = MemoryRelease.Trimmer()
        let server = Server(configuration: config, handler: { finalRoutes.respond(to: $0) }, onComplete: { completed in
            metrics.record(completed)
            if !quiet { log.access(completed) }
            // Once a large request or answer is done with (its body and answer freed), free
            // memory goes back to the system, on the trimmer's thread; between requests each
            // arena keeps at most 1 MB of free heap top (MemoryRelease).
            if completed.requestBytes >= releaseAfter || completed.responseBytes >= releaseAfter { trimmer.request() }
        })
        serverBox.server = server
        do {
            try server.start()
        } catch {
            throw StartError(.serverStart, error.description)
        }
        if server.connectionLimit < config.connectionLimit {
            // Out of descriptors the server could not accept a newcomer to make room for it.
            log.line("the descriptor limit (RLIMIT_NOFILE, ulimit -n) of \(server.descriptorLimit) holds \(server.connectionLimit) connections and their margin, not --max-connections \(config.connectionLimit): serving at most \(server.connectionLimit); raise the hard limit (systemd LimitNOFILE=, docker run --ulimit nofile=) to serve more", level: "warning")
        }
        FileHandle.standardOutput.write(Data(banner(configuration, config: config, port: server.port, names: store.status.names).utf8))

        let reloads = DispatchQueue(label: "contrast.reload")
        while true {
            var received: Int32 = 0
            guard sigwait(&signals, &received) == 0 else { continue }
            if received == SIGHUP {
                reloads.async {
                    let problems = store.reload()
                    log.line("reloaded \(directory): \(store.status.names.count) palettes" + (problems.isEmpty ? "" : ", \(problems.count) problem(s) (previous versions kept)"))
                    for problem in problems { log.line("palette problem: \(problem.text)", level: "warning") }
                }
                continue
            }
            log.line("received \(received == SIGTERM ? "SIGTERM" : "SIGINT"): draining \(server.inFlight) request(s) in flight")
            server.beginDraining()
            var drained = server.waitUntilIdle(seconds: configuration.grace)
            if !drained {
                // Past the grace period every request still gets a whole response: those
                // waiting for a worker get 503 at once, running ones are stopped and get 503.
                let stats = server.poolStatistics
                log.line("grace period over: answering \(stats.queued) queued and stopping \(stats.running) running request(s) with 503")
                server.cancelPending()
                drained = server.waitUntilIdle(seconds: 5)
            }
            server.stop()
            log.line(drained ? "stopped" : "stopped with connections still open after the grace period")
            return
        }
    }

    /// What the service prints when it is listening: where, and what to try.
    static func banner(_ configuration: Configuration, config: ServerConfiguration, port: UInt16, names: [String]) -> String {
        let scheme = config.tlsCertificatePEM == nil ? "http" : "https"
        let base = "\(scheme)://\(config.host.contains(":") ? "[\(config.host)]" : config.host):\(port)"
        let first = names.first ?? "NAME"
        return """
            contrast \(configuration.version) serving \(names.count) palette\(names.count == 1 ? "" : "s") (\(names.joined(separator: ", "))) from \(configuration.palettes)
            listening on \(base) with \(config.threads) I/O thread\(config.threads == 1 ? "" : "s") and \(config.workers) worker\(config.workers == 1 ? "" : "s")
            designers: open \(base)/ in a browser to edit a palette and see what it does to contrast
            try:
              curl '\(base)/v1/palettes'
              curl '\(base)/v1/contrast?fg=%23777777&bg=white'
              curl '\(base)/v1/palettes/\(first)/audit'
              curl -X POST -H 'Content-Type: application/json' --data @palettes/\(first).json '\(base)/v1/palettes/\(first)/proposals'
              curl '\(base)/openapi.yaml'
            stop with Ctrl-C (SIGINT) or SIGTERM; reload palettes with SIGHUP

            """
    }
}

/// Lets the handler closures reach the server created after them.
private final class ServerBox: @unchecked Sendable {
    // Written once on the main thread before the server starts; read afterwards.
    var server: Server?
}

extension CodedError.Code where Family == Service.StartErrors {
    /// libmicrohttpd refused to start: the message says why.
    public static var serverStart: Self { Self("server-start") }
}
