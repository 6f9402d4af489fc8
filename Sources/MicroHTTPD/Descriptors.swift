#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many descriptors the server needs for its connection limit, and what it runs with.
///
/// Eviction at capacity (``Server/connectionAccepted(_:address:)``) only works while the
/// server can still accept: out of descriptors, `accept()` fails with `EMFILE`, the acceptor
/// pauses, and new clients wait in the kernel's backlog with no answer, whoever holds the
/// slots. A process's soft `RLIMIT_NOFILE` is 1,024 under systemd and most shells, below what
/// the default 1,024 connections and their margin need. So the server raises the soft limit
/// to what it needs (up to the hard limit), and when even the hard limit is too low it lowers
/// its connection limit to what the descriptors hold, so that eviction and the 503s still
/// happen before the descriptors run out.
struct DescriptorPlan: Equatable {
    /// Connections at most: the configured limit, or fewer when the descriptors cannot hold it.
    var connectionLimit: Int
    /// Sockets lingering after an early answer at once (``LingeringClose``).
    var lingeringSockets: Int
    /// The soft `RLIMIT_NOFILE` to run with.
    var descriptors: Int

    /// Sockets that may linger at once when descriptors are plenty.
    static let lingering = 256
    /// Evicted connections shut down and not yet closed by whoever holds them (an accept batch).
    static let evictionSlack = 64

    /// Counted connections at most: the limit and a margin of a quarter more (at least 64),
    /// within which connections are taken and answered 503 by the handler.
    static func hardLimit(for limit: Int) -> Int {
        let limit = max(1, limit)
        return limit + max(64, limit / 4)
    }

    /// Descriptors that are not connections: standard streams, the listening socket, the
    /// acceptor's and each I/O thread's wake-ups, a palette file being read, the log.
    static func reserve(threads: Int) -> Int { 64 + 4 * max(1, threads) }

    /// Descriptors a server of `limit` connections may hold at once.
    static func needed(connections limit: Int, threads: Int, lingering: Int = lingering) -> Int {
        hardLimit(for: limit) + evictionSlack + lingering + reserve(threads: threads)
    }

    /// The plan for `connectionLimit` under the soft and hard `RLIMIT_NOFILE`.
    static func plan(connectionLimit: Int, threads: Int, soft: Int, hard: Int) -> DescriptorPlan {
        let want = needed(connections: connectionLimit, threads: threads)
        if want <= hard {
            return DescriptorPlan(connectionLimit: connectionLimit, lingeringSockets: lingering, descriptors: max(soft, want))
        }
        // The hard limit cannot hold them: fewer lingering sockets, and the most connections
        // whose limit and margin fit in what is left.
        let lingerers = min(lingering, max(8, hard / 8))
        let available = hard - reserve(threads: threads) - evictionSlack - lingerers
        // limit + max(64, limit / 4) <= available
        var limit = available - 64 <= 256 ? available - 64 : available * 4 / 5
        while limit > 1 && hardLimit(for: limit) > available { limit -= 1 }
        while hardLimit(for: limit + 1) <= available { limit += 1 }
        return DescriptorPlan(connectionLimit: max(1, min(connectionLimit, limit)), lingeringSockets: lingerers, descriptors: hard)
    }

    /// The process's soft and hard `RLIMIT_NOFILE` (a limit of "unlimited" as `Int.max`).
    static func current() -> (soft: Int, hard: Int) {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return (1024, 1024) }
        func number(_ value: rlim_t) -> Int { value == Self.unlimited || value > rlim_t(Int.max) ? Int.max : Int(value) }
        return (number(limits.rlim_cur), number(limits.rlim_max))
    }

    /// Raises the process's soft limit to ``descriptors`` when it is lower.
    func apply() {
        var limits = rlimit()
        guard getrlimit(Self.resource, &limits) == 0 else { return }
        let wanted = rlim_t(descriptors)
        guard limits.rlim_cur != Self.unlimited, limits.rlim_cur < wanted else { return }
        limits.rlim_cur = limits.rlim_max == Self.unlimited ? wanted : min(wanted, limits.rlim_max)
        _ = setrlimit(Self.resource, &limits)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    /// `RLIM_INFINITY` (`~0UL`, which Swift does not import).
    private static let unlimited = rlim_t.max
    #else
    private static let resource = RLIMIT_NOFILE
    private static let unlimited = RLIM_INFINITY
    #endif
}
