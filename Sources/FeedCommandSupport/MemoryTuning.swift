#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// Process-wide allocator settings for the commands that handle many feeds at once.
///
/// glibc raises its mmap threshold each time a large block is freed, so after the first big
/// feed every later multi-megabyte body and parse buffer comes from the workers' heap arenas,
/// where freed memory stays resident. Fixing the threshold keeps large buffers in their own
/// mappings, returned to the system when freed. Measured on the 1,000-feed benchmark corpus at
/// concurrency 32: peak RSS 155 MiB → 102 MiB, wall time unchanged within noise
/// (`Scripts/bench/results/README.md`). An operator's `MALLOC_MMAP_THRESHOLD_` wins.
public enum MemoryTuning {
    public static let mmapThreshold: Int32 = 128 * 1024

    public static func apply() {
        #if canImport(Glibc)
        guard getenv("MALLOC_MMAP_THRESHOLD_") == nil else { return }
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
        #endif
    }
}
