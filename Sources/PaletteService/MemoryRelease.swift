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
    /// /v1/audit` of Peptide Fox could shrink the heap as it finished and fault it in again in
    /// the next request: 53–60 page faults a request (`perf stat -e page-faults -p PID` under
    /// wrk), ~10 % of its CPU. Now up to 1 MB of free top stays in each arena, and blocks from
    /// 1 MB up are mapped and unmapped on their own (`M_MMAP_THRESHOLD`). Setting either fixes
    /// both: left alone, glibc raises the mapping threshold as large blocks are freed, up to
    /// 32 MB, and the trim threshold to twice that, so these settings keep less between
    /// requests than the defaults can. They bound only the free top of each arena; free blocks
    /// below it stay until ``toSystem()``, which runs after a request with a large body.
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
