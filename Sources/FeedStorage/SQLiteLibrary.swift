import CSQLiteSettings

/// SQLite's process-wide settings, applied as the process loads (`CSQLiteSettings`).
///
/// Memory statistics off. With them on (SQLite's default), every allocation and free inside
/// SQLite takes one global mutex to keep the totals that `sqlite3_memory_used` reports, which
/// Feedmill never reads. A run writes up to ~40 feed databases at once, one per worker
/// thread, so that mutex was the most contended lock of a cold run: 30% of its futex calls
/// over the 1,000-feed benchmark corpus. Off, the run made 29% fewer futex calls; in 12
/// interleaved pairs its CPU median was 5.15 s against 5.28, its least 4.45 against 4.76
/// (`Scripts/bench/results/README.md`).
public enum SQLiteLibrary {
    /// Whether memory statistics are off in this process.
    public static var memoryStatisticsOff: Bool { feedmill_sqlite3_memory_statistics_off() != 0 }
}
