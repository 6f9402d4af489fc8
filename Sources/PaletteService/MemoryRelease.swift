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

    /// How the service's allocator keeps freed memory between requests, set once before the
    /// server starts.
    ///
    /// glibc gives the top of a heap back to the system whenever more than 128 KB of it is free
    /// (`M_TRIM_THRESHOLD`). An audit answer's buffers are about that size, so each `POST
    /// /v1/audit` of Peptide Fox shrank the heap as it finished and grew it again in the next
    /// request: 53–60 page faults a request (`perf stat -e page-faults -p PID` under wrk), and
    /// ~10 % of its CPU. Now up to 8 MB of free top stays in each arena, and blocks from 4 MB
    /// up are mapped and unmapped on their own (`M_MMAP_THRESHOLD`; setting either fixes both,
    /// where glibc would otherwise raise the mapping threshold as high as 32 MB as large blocks
    /// are freed). A request with a large body still returns everything free afterwards
    /// (``toSystem()``), so what one burst leaves is bounded by these two figures per arena.
    static func configureForService() {
        #if os(Linux)
        _ = glibcMallopt(glibcTrimThreshold, 8 << 20)
        _ = glibcMallopt(glibcMmapThreshold, 4 << 20)
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
