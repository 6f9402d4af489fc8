import ArgumentParser
import Foundation
import MicroHTTPD
import PaletteAudit
import TokenSources
import PaletteService

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP JSON API and the designers' page for the palettes of a directory.",
        discussion: """
            Every option can also be set by an environment variable (CONTRAST_HOST, CONTRAST_PORT, CONTRAST_PALETTES, CONTRAST_THREADS, CONTRAST_WORKERS, CONTRAST_MAX_BODY, CONTRAST_TLS_CERT, CONTRAST_TLS_KEY); a flag wins over the variable. Sizes take B, KiB or MiB.

            SIGTERM or SIGINT stops accepting connections, finishes the requests in flight (up to --grace seconds; then those still waiting or computing are answered 503 with Retry-After) and exits 0. SIGHUP reloads the palettes directory: a file that no longer reads cleanly keeps its previous version, and the problem shows in the log and in /readyz.

            Examples:
              contrast serve --palettes palettes/
              contrast serve --host 0.0.0.0 --port 8443 --tls-cert cert.pem --tls-key key.pem
              curl 'http://127.0.0.1:8080/v1/contrast?fg=%23777&bg=white'
            """
    )

    @Option(help: "Address to listen on (CONTRAST_HOST; default 127.0.0.1).") var host: String?
    @Option(help: "Port (CONTRAST_PORT; default 8080; 0 picks a free one).") var port: Int?
    @Option(help: "Directory of palettes to serve (CONTRAST_PALETTES; default palettes).") var palettes: String?
    @Option(help: "A checks document whose checks apply to every palette served (CONTRAST_CHECKS).") var checks: String?
    @Option(help: "I/O threads: they read requests, answer cheap ones and send responses (CONTRAST_THREADS; default: the number of cores).") var threads: Int?
    @Option(help: "Worker threads for expensive requests (audits, reports, proposals, batches), at a lower priority than the I/O threads (CONTRAST_WORKERS; default: the number of cores).") var workers: Int?
    @Option(help: "Expensive requests that may wait for a worker; past that, 503 with Retry-After at once (default 64).") var queue: Int = 64
    @Option(help: "Largest request body (CONTRAST_MAX_BODY; default 1MiB).") var maxBody: String?
    @Option(help: "Open connections at most (default 1024).") var maxConnections: Int = 1024
    @Option(name: [.customLong("max-connections-per-ip"), .customLong("max-connections-per-client")],
            help: "Open connections per client address at most; more are closed at once, so one address cannot hold every slot (0: no limit besides --max-connections).")
    var maxConnectionsPerIP: Int = 128
    @Option(help: "Seconds a request may take to arrive, headers and body, however slowly it trickles (default 30).") var requestTimeout: Double = 30
    @Option(help: "Seconds a connection may take to send a request's line and headers; slower ones are closed (default 10).") var headerTimeout: Double = 10
    @Option(help: "Seconds an idle keep-alive connection stays open (default 15).") var idleTimeout: Int = 15
    @Option(help: "Seconds to finish in-flight requests after SIGTERM (default 10).") var grace: Double = 10
    @Option(help: "PEM certificate for HTTPS (CONTRAST_TLS_CERT).") var tlsCert: String?
    @Option(help: "PEM private key for HTTPS (CONTRAST_TLS_KEY).") var tlsKey: String?
    @Option(help: "TLS versions and cipher suites, as a GnuTLS priority string (default: TLS 1.2 and 1.3, forward-secret key exchange and AEAD ciphers only).") var tlsPriorities: String?
    @Flag(help: "No access log.") var quiet = false
    @Option(help: "Checks one posted audit may measure at most (themes × checks × expanded rules); more is refused with 422 before any work.") var maxPairs: Int = 200_000
    @Option(help: "Failing checks of one request that get suggestions; the rest say they were omitted (?suggestions=none turns them off).") var maxSuggestions: Int = 1_000
    @Option(help: "Largest response body (default 32MiB): an audit bound to render larger is refused with 422 before any work.") var maxResponse: String = "32MiB"
    @Option(help: "The most memory one posted request may build: its read may expand (aliases, var(), $ref, $extends) and record 512 bytes for each byte posted, at least 8MiB, up to this, and the audit's checks and results or a token listing built from it count towards this too; more is refused with 422 naming what grew (default 256MiB).") var maxRequestMemory: String = "256MiB"
    @Option(help: "Log lines as text (for people) or json (one object per line, for log shippers).") var logFormat: LogFormat = .text

    static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A whole-number option: the flag, else its environment variable, else the default; in range.
    static func number(_ flag: Int?, flag name: String, variable: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        let value = try flag ?? environment(variable).map {
            guard let number = Int($0) else { throw InputError("\(variable) must be a whole number, not '\($0)'") }
            return number
        } ?? fallback
        guard range.contains(value) else { throw InputError("\(name) must be from \(range.lowerBound) to \(range.upperBound), not \(value)") }
        return value
    }

    /// `1048576`, `512KiB`, `1MiB`, `2MB`.
    static func parseSize(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1024), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1000), ("MB", 1_000_000), ("K", 1024), ("M", 1 << 20), ("B", 1)]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), value > 0 else { return nil }
            return Int(value * Double(factor))
        }
        return Int(trimmed).flatMap { $0 > 0 ? $0 : nil }
    }

    func serverConfiguration() throws -> ServerConfiguration {
        var config = ServerConfiguration()
        config.refusal = ServerConfiguration.problemJSON
        config.host = host ?? Self.environment("CONTRAST_HOST") ?? "127.0.0.1"
        config.port = UInt16(try Self.number(port, flag: "--port", variable: "CONTRAST_PORT", default: 8080, range: 0...65535))
        let cores = ProcessInfo.processInfo.activeProcessorCount
        config.threads = try Self.number(threads, flag: "--threads", variable: "CONTRAST_THREADS", default: cores, range: 1...256)
        config.workers = try Self.number(workers, flag: "--workers", variable: "CONTRAST_WORKERS", default: cores, range: 1...256)
        guard (0...100_000).contains(queue) else { throw InputError("--queue must be from 0 to 100000, not \(queue)") }
        config.queueLimit = queue
        let bodyText = maxBody ?? Self.environment("CONTRAST_MAX_BODY") ?? "1MiB"
        guard let bodyBytes = Self.parseSize(bodyText) else { throw InputError("--max-body must be a size like 1MiB, 512KiB or 1048576, not '\(bodyText)'") }
        config.maximumBodyBytes = bodyBytes
        guard maxConnections > 0 else { throw InputError("--max-connections must be positive") }
        guard headerTimeout > 0 else { throw InputError("--header-timeout must be positive") }
        config.connectionLimit = maxConnections
        config.perAddressConnectionLimit = max(0, maxConnectionsPerIP)
        config.requestDeadlineSeconds = requestTimeout
        config.headerTimeoutSeconds = headerTimeout
        config.idleTimeoutSeconds = idleTimeout
        if let tlsPriorities {
            guard !tlsPriorities.isEmpty, !tlsPriorities.contains("\0") else { throw InputError("--tls-priorities must be a GnuTLS priority string such as \(ServerConfiguration.modernTLS)") }
            config.tlsPriorities = tlsPriorities
        }
        let certPath = tlsCert ?? Self.environment("CONTRAST_TLS_CERT")
        let keyPath = tlsKey ?? Self.environment("CONTRAST_TLS_KEY")
        if (certPath == nil) != (keyPath == nil) { throw InputError("HTTPS needs both --tls-cert and --tls-key") }
        if tlsPriorities != nil && certPath == nil { throw InputError("--tls-priorities applies to HTTPS: give --tls-cert and --tls-key too") }
        if let certPath, let keyPath {
            func pem(_ path: String, _ what: String) throws(InputError) -> String {
                guard let text = String(validating: try Terminal.readFile(path, what: what), as: UTF8.self) else {
                    throw InputError(.unreadableFile, "\(path): the \(what) is not UTF-8 text; expected a PEM file")
                }
                return text
            }
            config.tlsCertificatePEM = try pem(certPath, "TLS certificate")
            config.tlsKeyPEM = try pem(keyPath, "TLS key")
        }
        return config
    }

    func run() throws {
        var service = Service.Configuration()
        service.server = try serverConfiguration()
        service.palettes = palettes ?? Self.environment("CONTRAST_PALETTES") ?? "palettes"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: service.palettes, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError("\(service.palettes): not a directory of palettes (--palettes)")
        }
        service.checks = checks ?? Self.environment("CONTRAST_CHECKS")
        if let checksFile = service.checks, !FileManager.default.fileExists(atPath: checksFile) {
            throw InputError("\(checksFile): no such checks file (--checks)")
        }
        service.auditLimits = Auditor.Limits(maximumChecks: max(1, maxPairs), maximumSuggestions: max(0, maxSuggestions))
        guard let responseBytes = Self.parseSize(maxResponse) else { throw InputError("--max-response must be a size like 32MiB or 1048576, not '\(maxResponse)'") }
        service.limits.maximumResponseBytes = responseBytes
        guard let readBytes = Self.parseSize(maxRequestMemory), readBytes > 0 else { throw InputError("--max-request-memory must be a size like 256MiB or 268435456, not '\(maxRequestMemory)'") }
        service.limits.maximumReadBytes = readBytes
        service.grace = grace
        service.logFormat = logFormat == .json ? .json : .text
        service.quiet = quiet
        service.version = Contrast.version
        do {
            try Service.run(service)
        } catch {
            throw InputError(.serverStart, error.description)
        }
    }
}

/// `--log-format`.
enum LogFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}
