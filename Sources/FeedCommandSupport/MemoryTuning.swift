#if canImport(Glibc)
import CMalloc
import Glibc
#endif
import Foundation

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
/// Arenas: as many as cores, at least 2 (glibc's default is eight per core). An arena keeps
/// the most it ever held, so each one more is another high-water mark of freed memory. Once
/// no more feeds are parsed at once than there are cores (``ParsePermits``), fewer arenas
/// cost no measurable CPU: 2 cores, 5,000 feeds, peak RSS 63 MiB instead of 68 with 4
/// arenas; 1,000 feeds at 100 ms, 7 interleaved pairs, median CPU 5.15 s against 5.12
/// (`Scripts/bench/results/README.md`).
/// An operator's `MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_` or `MALLOC_ARENA_MAX` wins.
public enum MemoryTuning {
    public static let mmapThreshold: Int32 = 512 * 1024
    public static let trimThreshold: Int32 = 2 * 1024 * 1024
    public static var arenaLimit: Int32 { Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Call first, before any thread allocates.
    public static func apply() {
        #if canImport(Glibc)
        if getenv("MALLOC_MMAP_THRESHOLD_") == nil { _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold) }
        if getenv("MALLOC_TRIM_THRESHOLD_") == nil { _ = mallopt(M_TRIM_THRESHOLD, trimThreshold) }
        if getenv("MALLOC_ARENA_MAX") == nil { _ = mallopt(M_ARENA_MAX, arenaLimit) }
        #endif
    }
}
