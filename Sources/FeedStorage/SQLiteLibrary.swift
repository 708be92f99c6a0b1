import CSQLiteSettings

/// SQLite's process-wide settings, applied as the process loads (`CSQLiteSettings`).
///
/// Memory statistics off. With them on (SQLite's default), every allocation and free inside
/// SQLite takes one global mutex to keep the totals that `sqlite3_memory_used` reports, which
/// Feedmill never reads. A run writes up to ~40 feed databases at once, one per worker
/// thread, so that mutex was the most contended lock of a cold run (docs/perf-notes/README.md).
/// Internal: only a test asks (`@testable import FeedStorage`).
enum SQLiteLibrary {
    /// Whether memory statistics are off in this process.
    static var memoryStatisticsOff: Bool { feedmill_sqlite3_memory_statistics_off() != 0 }
}
