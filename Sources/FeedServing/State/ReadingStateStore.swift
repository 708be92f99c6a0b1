import FeedBasics
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// Every user's read and starred marks, `reading-state.sqlite` in the data directory (created
/// mode 0600; no other command writes it): one row per user and item, each field with the
/// time it was set, and a sequence number per change, which is what a client's cursor counts.
/// Every request is one transaction, so a request's marks are all merged or none.
final class ReadingStateStore: Sendable {
    static let fileName = "reading-state.sqlite"
    let queue: DatabaseQueue
    let path: String

    /// One item's stored marks.
    struct Stored: Sendable, Equatable {
        var feedID: Int64
        var itemID: String
        var read: MarkedField?
        var starred: MarkedField?
    }

    /// A page of a user's changes after a cursor.
    struct Page: Sendable, Equatable {
        var marks: [Stored]
        /// Where the next request starts: the last change in this page (or the cursor asked,
        /// when there is none).
        var cursor: Int64
        var more: Bool
    }

    struct StoreError: Error, CustomStringConvertible {
        let description: String
    }

    /// A request that would keep more than ``markLimit`` items for its user: refused whole.
    struct TooManyMarks: Error, CustomStringConvertible {
        let limit: Int
        var description: String { "at most \(limit) items' marks are kept per user; clear marks of items no longer shown first" }
    }

    /// The most items one user may have marks for: years of a heavy reader's reading, and a
    /// bound on what one token can make the server keep.
    let markLimit: Int

    init(dataDirectory: String, markLimit: Int = 500_000) throws {
        self.markLimit = markLimit
        path = (dataDirectory as NSString).appendingPathComponent(Self.fileName)
        // Created 0600 before SQLite opens it: one user's marks are no one else's to read.
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError(description: "cannot open \(path): \(SystemError.describe(errno))") }
        close(descriptor)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("reading-state") { db in
            try db.execute(sql: """
                CREATE TABLE marks (
                    user TEXT NOT NULL, feedid INTEGER NOT NULL, id TEXT NOT NULL,
                    read INTEGER, read_at INTEGER, starred INTEGER, starred_at INTEGER,
                    change INTEGER NOT NULL,
                    PRIMARY KEY (user, feedid, id)) WITHOUT ROWID;
                CREATE INDEX marks_by_change ON marks (user, change);
                CREATE TABLE changes (last INTEGER NOT NULL);
                INSERT INTO changes (last) VALUES (0);
                """)
        }
        try migrator.migrate(queue)
    }

    /// Merges `marks` into `user`'s (``MarkedField/merged(stored:incoming:)``, per field), in
    /// one transaction; the number of items whose marks changed.
    func merge(_ marks: [ReadMark], user: String) throws -> Int {
        try queue.write { db in
            var last = try Int64.fetchOne(db, sql: "SELECT last FROM changes") ?? 0
            var changed = 0
            var kept = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM marks WHERE user = ?", arguments: [user]) ?? 0
            for mark in marks {
                let row = try Row.fetchOne(
                    db, sql: "SELECT read, read_at, starred, starred_at FROM marks WHERE user = ? AND feedid = ? AND id = ?",
                    arguments: [user, mark.feedID, mark.itemID])
                var read = row.flatMap { Self.field($0, "read") }
                var starred = row.flatMap { Self.field($0, "starred") }
                var moved = false
                if let value = mark.read, let merged = MarkedField.merged(stored: read, incoming: MarkedField(value: value, at: mark.at)) {
                    (read, moved) = (merged, merged != read || moved)
                }
                if let value = mark.starred, let merged = MarkedField.merged(stored: starred, incoming: MarkedField(value: value, at: mark.at)) {
                    (starred, moved) = (merged, merged != starred || moved)
                }
                guard moved else { continue }
                if row == nil {
                    kept += 1
                    // Thrown inside the transaction: nothing of the request is kept.
                    guard kept <= markLimit else { throw TooManyMarks(limit: markLimit) }
                }
                last += 1
                changed += 1
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO marks (user, feedid, id, read, read_at, starred, starred_at, change)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [user, mark.feedID, mark.itemID, read?.value, read?.at, starred?.value, starred?.at, last])
            }
            try db.execute(sql: "UPDATE changes SET last = ?", arguments: [last])
            return changed
        }
    }

    /// `user`'s marks changed after `cursor` (0: all), oldest change first, at most `limit`.
    func page(user: String, after cursor: Int64, limit: Int) throws -> Page {
        try queue.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT feedid, id, read, read_at, starred, starred_at, change FROM marks
                        WHERE user = ? AND change > ? ORDER BY change LIMIT ?
                    """,
                arguments: [user, cursor, limit + 1])
            let kept = rows.prefix(limit)
            let marks = kept.map { row in
                Stored(feedID: row["feedid"], itemID: row["id"], read: Self.field(row, "read"), starred: Self.field(row, "starred"))
            }
            let next: Int64 = kept.last?["change"] ?? cursor
            return Page(marks: marks, cursor: next, more: rows.count > limit)
        }
    }

    private static func field(_ row: Row, _ name: String) -> MarkedField? {
        guard let value: Bool = row[name], let at: Int64 = row[name + "_at"] else { return nil }
        return MarkedField(value: value, at: at)
    }
}
