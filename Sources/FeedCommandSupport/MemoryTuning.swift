#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// Process-wide allocator settings for the commands that handle many feeds at once.
///
/// glibc raises its mmap threshold each time a large block is freed, so after the first big
/// feed every later multi-megabyte buffer would come from the workers' heap arenas, where
/// freed memory stays resident: the threshold is fixed instead. At 128 KiB (when bodies were
/// held whole), every body, text and summary buffer above it was a fresh mapping, its pages
/// faulted in and zeroed one by one: ~88,000 page faults and ~6% of a cold run's CPU over the
/// 1,000-feed benchmark corpus. Streamed, no buffer is large for long, so 512 KiB, with freed
/// memory kept up to 2 MiB per arena, keeps buffers in reused heap pages: ~22,000 faults
/// instead of ~87,000, less CPU in each of 4 interleaved pairs.
///
/// Arenas: one (glibc's default is eight per core). An arena keeps the most it ever held, so
/// each one more is another high-water mark of freed memory, and a long run meets more of
/// the moments when many large buffers coexist. Once no more feeds are parsed at once than
/// there are cores (``ParsePermits``), sharing one arena costs no measurable CPU: the thread
/// caches serve most allocations without its lock. On 2 cores, peak RSS at concurrency 32
/// is 2-3 MiB lower at 200, 1,000 and 5,000 feeds than with one arena per core, at the same
/// CPU (`Scripts/bench/results/entry-buffers.md`); at concurrency 256 over 20,000 feeds,
/// no difference the noise lets us see. (Four arenas were worse still: 68 MiB at 5,000
/// feeds against 63 with two, when bodies were held whole.)
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
