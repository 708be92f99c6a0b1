import CSQLiteSettings
import Foundation

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

    /// Whether every connection's files go through the layer that records the errno of a
    /// failed read, write, truncate or sync (`errno_vfs.c`), so that ``osError(since:path:)``
    /// finds those too, not only the opens and syncs SQLite logs itself.
    static var errnoLayerRegistered: Bool { feedmill_sqlite3_errno_vfs_registered() != 0 }

    /// A mark to find the operating-system errors SQLite logs from now on.
    static var osErrorMark: UInt { UInt(feedmill_sqlite3_os_errors_logged()) }

    /// Why SQLite holds `path` read-only when it may be written: its read-write open failed
    /// (`open(/srv/data/feed_3.sqlite): Input/output error`, or of the `.new` a new database is
    /// created as) and SQLite fell back to read-only.
    static func failedOpen(path: String) -> String? {
        logged(path) { feedmill_sqlite3_failed_open($0, $1, $2) }?.said
    }

    /// The newest operating-system error SQLite logged since `mark` for `path` (or its -wal,
    /// -shm, -journal), in words: `write(/srv/data/feed_3.sqlite-wal): Input/output error`.
    /// SQLite's result code says only "disk I/O error" or "unable to open database file".
    static func osError(since mark: UInt, path: String) -> String? {
        guard let entry = logged(path, { feedmill_sqlite3_os_error(UInt(mark), $0, $1, $2) }) else { return nil }
        guard let said = entry.said, let call = entry.call else { return entry.message }
        // A failed open is retried read-only before SQLite logs it, so SQLite's errno is the
        // retry's (ENOENT for a -wal that a read-only open may not create), not the cause: not
        // said. The first attempt's is recorded by errno_vfs.c ("feedmill_vfs: …"), and preferred.
        if call.hasPrefix("open("), entry.message.hasPrefix("os_") { return "\(call)) failed" }
        return said
    }

    /// A ring entry for `path` (made absolute: SQLite logs the full path of a file opened by a
    /// relative one), as `find` copies it: "os_unix.c:43872: (5) full_fsync(/path) - " (SQLite's
    /// own text after the dash is often empty) or "feedmill_vfs: (5) write(/path) - ". `call` is
    /// `write(/path` and `said` the call with errno's meaning, when the entry has that form.
    private static func logged(
        _ path: String, _ find: (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>, Int32) -> Int32
    ) -> (message: String, call: String?, said: String?)? {
        var buffer = [CChar](repeating: 0, count: 512)
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        guard find(full, &buffer, Int32(buffer.count)) == 1 else { return nil }
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let open = message.firstIndex(of: "("), let close = message[open...].firstIndex(of: ")"),
            let number = Int32(message[message.index(after: open)..<close]),
            let dash = message.range(of: ") - ", options: .backwards), dash.lowerBound > close
        else { return (message, nil, nil) }
        let call = message[message.index(close, offsetBy: 2)..<dash.lowerBound].trimmingCharacters(in: .whitespaces)
        return (message, call, "\(call)): \(String(cString: strerror(number)))")
    }
}
