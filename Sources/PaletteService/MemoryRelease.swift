import Foundation

/// Gives the allocator's free memory back to the system.
///
/// glibc keeps what a large request freed in its arenas (one per thread that allocated), so
/// after a burst of large documents the process kept their peak: 3.2 GB after one `@media`
/// bomb, 4.9 GB after six more. `malloc_trim` returns the free pages of every arena.
enum MemoryRelease {
    static func toSystem() {
        #if os(Linux)
        _ = glibcMallocTrim(0)
        #endif
    }

    /// Runs ``toSystem()`` on a thread of its own when asked. `malloc_trim` walks every arena;
    /// run in the request's completion, on libmicrohttpd's I/O thread, it held up every other
    /// connection of that thread (a `/healthz` included) for the whole walk. (An allocation
    /// can still wait for the one arena being trimmed: glibc locks each while it trims it.)
    /// Asking while a trim is pending or running costs a flag: at most one trim waits behind
    /// the running one, however many asks came meanwhile. Only glibc trims; elsewhere asking
    /// does nothing.
    final class Trimmer: @unchecked Sendable {
        // `pending` and `started` are read and written only with `condition` locked.
        private let condition = NSCondition()
        private var pending = false
        private var started = false

        init() {}

        /// Asks for a trim, soon, without waiting for it.
        func request() {
            #if os(Linux)
            condition.lock()
            defer { condition.unlock() }
            pending = true
            if !started {
                started = true
                let thread = Thread { [self] in self.run() }
                thread.name = "contrast-trim"
                thread.start()
            }
            condition.signal()
            #endif
        }

        private func run() {
            while true {
                condition.lock()
                while !pending { condition.wait() }
                pending = false
                condition.unlock()
                MemoryRelease.toSystem()
            }
        }
    }

    /// How the service's allocator keeps freed memory between requests, set once before the
    /// server starts.
    ///
    /// glibc gives the top of a heap back to the system whenever more than 128 KB of it is free
    /// (`M_TRIM_THRESHOLD`), and maps blocks from 128 KB up on their own (`M_MMAP_THRESHOLD`),
    /// raising both as mapped blocks are freed (the mapping threshold up to 32 MB, the trim
    /// threshold to twice it). Blocks just under 128 KB never raise them: an audit answer's
    /// buffers are about that size, so each `POST /v1/audit` of Peptide Fox shrank the heap as
    /// it finished and faulted it in again in the next request, 53–60 page faults a request
    /// (`perf stat -e page-faults -p PID` under wrk), ~10 % of its CPU. Both are set here to
    /// 1 MB: up to 1 MB of each arena's free top stays between requests, and blocks from 1 MB
    /// up are mapped and unmapped on their own (free blocks below a heap's top are not bounded
    /// by either; the trim below returns them). The
    /// cost is in large answers, whose buffers are mapped and faulted in afresh each time (a
    /// `POST /v1/contrast` of 10,000 pairs: ~5,000 faults a request against ~3,000). 32 MB,
    /// tried, kept 80 MB resident after `scripts/rss_rounds.py` against 31 MB.
    /// All free memory goes back by ``toSystem()``, which a ``Trimmer`` runs once a request with
    /// a large body or a large answer is done with (`Service.run`'s completion).
    static func configureForService() {
        #if os(Linux)
        _ = glibcMallopt(glibcTrimThreshold, 1 << 20)
        _ = glibcMallopt(glibcMmapThreshold, 1 << 20)
        #endif
    }
}

#if os(Linux)
// glibc's <malloc.h>, which the Glibc module does not export.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
/// `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` in <malloc.h>.
private let glibcTrimThreshold: Int32 = -1
private let glibcMmapThreshold: Int32 = -3
#endif
