#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// Process-wide allocator settings for the commands that handle many feeds at once.
///
/// glibc raises its mmap threshold each time a large block is freed, so after the first big
/// feed every later multi-megabyte buffer would come from the workers' heap arenas, where
/// freed memory stays resident: the threshold is fixed instead. Too low, and every body, text
/// and summary buffer above it is a fresh mapping, its pages faulted in and zeroed one by one.
/// Streamed, no buffer is large for long, so 512 KiB, with freed memory kept up to 2 MiB per
/// arena, keeps buffers in reused heap pages (a quarter of the page faults of 128 KiB).
///
/// Arenas: one (glibc's default is eight per core). An arena keeps the most it ever held, so
/// each one more is another high-water mark of freed memory, and a long run meets more of
/// the moments when many large buffers coexist. Once no more feeds are parsed at once than
/// there are cores (``ParsePermits``), sharing one arena costs no measurable CPU: the thread
/// caches serve most allocations without its lock, and the peak is lower than with one arena
/// per core (docs/perf-notes/entry-buffers.md).
/// Measured on 2 cores; an operator's `MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_` or `MALLOC_ARENA_MAX` wins.
public enum MemoryTuning {
    public static let mmapThreshold: Int32 = 512 * 1024
    public static let trimThreshold: Int32 = 2 * 1024 * 1024
    public static let arenaLimit: Int32 = 1

    /// Call first, before any thread allocates.
    public static func apply() {
        #if canImport(Glibc)
        if getenv("MALLOC_MMAP_THRESHOLD_") == nil { _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold) }
        if getenv("MALLOC_TRIM_THRESHOLD_") == nil { _ = mallopt(M_TRIM_THRESHOLD, trimThreshold) }
        if getenv("MALLOC_ARENA_MAX") == nil { _ = mallopt(M_ARENA_MAX, arenaLimit) }
        #endif
    }
}
