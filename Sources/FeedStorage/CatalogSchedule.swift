import GRDB

/// What lets an update find its due feeds without reading every feed (issue 51).
///
/// Each feed's `fetch_state.next_due_unix_time` is computed by the update that saved it
/// (``Catalog/save(_:nextDue:)``) and indexed. A run that reads every feed (the first, and any that
/// cannot trust the index) records, in `feedmill_catalog`, what the index then assumes: the
/// schedule's settings it was computed with (`schedule_key`: another stale-after or maximum
/// interval makes every stored time wrong, so they are all computed again), the `feeds`
/// table's version it read (`schedule_feeds_version`, against `feeds_version`, which every
/// change to `feeds` raises: feeds added, removed or given another URL, by any writer), and
/// the feeds listed twice it found (`duplicate_feeds`). Every run records the latest time it
/// ran at (`schedule_clock`): a clock set back makes stored times unusable. A run may use the
/// index only when all of these still hold (``isTrusted(key:now:)``); otherwise it reads every
/// feed, as before.
public struct CatalogSchedule: Sendable, Equatable {
    static let indexMigration = "catalog-schedule-index"
    /// Not a ``FetchState`` property: a value a save gives, or keeps.
    static let column = "next_due_unix_time"

    /// The settings the stored times were computed with.
    public var key: Int64?
    /// `feeds_version` when every feed was last read.
    public var feedsVersionRead: Int64?
    /// `feeds_version` now.
    public var feedsVersion: Int64?
    /// The latest time a run ran at.
    public var clock: Int64?

    /// Whether a run with settings `key` at `now` may find its due feeds by the index.
    public func isTrusted(key: Int64, now: Int64) -> Bool {
        guard self.key == key, let read = feedsVersionRead, read == feedsVersion, let clock else { return false }
        return now >= clock
    }

    /// The columns a feed's next due time is computed from: changed in place (by hand, or by
    /// the repair of a wrong value: Feedmill's own saves replace the row), they make the stored
    /// time unknown (NULL: due, read and saved again).
    static let scheduleColumns = [
        "last_success_unix_time", "next_attempt_unix_time", "gone", "hint_interval_seconds", "skip_hours", "skip_days",
    ]

    static func createIndex(_ db: Database) throws {
        if try !db.columns(in: "fetch_state").contains(where: { $0.name.lowercased() == column }) {
            try db.execute(sql: "ALTER TABLE fetch_state ADD COLUMN \(column) INTEGER")
        }
        try db.execute(sql: """
            CREATE INDEX IF NOT EXISTS fetch_state_next_due ON fetch_state (next_due_unix_time);
            CREATE TABLE IF NOT EXISTS duplicate_feeds (feedid INTEGER PRIMARY KEY, original INTEGER NOT NULL);
            CREATE TRIGGER IF NOT EXISTS fetch_state_schedule_edited AFTER UPDATE OF \(scheduleColumns.joined(separator: ", ")) ON fetch_state
                WHEN NEW.next_due_unix_time IS OLD.next_due_unix_time AND (\(scheduleColumns.map { "NEW.\($0) IS NOT OLD.\($0)" }.joined(separator: " OR ")))
                BEGIN UPDATE fetch_state SET next_due_unix_time = NULL WHERE feedid = NEW.feedid; END;
            """)
    }

    /// The feeds' rows, driven by the index on the next due time: those due at `now`, and those
    /// no update has saved yet (NULL).
    static let selectDue: String = {
        let columns = Catalog.selectFeeds.components(separatedBy: "FROM feeds")[0]
        return columns + """
            FROM fetch_state CROSS JOIN feeds ON feeds.feedid = fetch_state.feedid
            LEFT JOIN about ON about.feedid = feeds.feedid
            LEFT JOIN last_update ON last_update.feedid = feeds.feedid
            WHERE fetch_state.next_due_unix_time IS NULL OR fetch_state.next_due_unix_time <= ?
            """
    }()
}

extension Catalog {
    /// What the schedule's index assumes, as stored.
    public func schedule() throws(StorageError) -> CatalogSchedule {
        try StorageError.wrap(path, "reading the schedule") {
            try queue.read { db in
                let keys = ["schedule_key", "schedule_feeds_version", "feeds_version", "schedule_clock"]
                let row = try Row.fetchOne(db, sql: "SELECT " + keys.map(CatalogSchedule.valueOf).joined(separator: ", "))
                return CatalogSchedule(key: row?[0], feedsVersionRead: row?[1], feedsVersion: row?[2], clock: row?[3])
            }
        }
    }

    /// Each feed due at `now` by its stored next due time, or never saved by an update: through
    /// the index, never a scan. Read as ``forEachFeed(_:)`` reads (a wrong value as absent).
    public func forEachFeedDue(at now: Int64, _ body: (CatalogFeed) -> Void) throws(StorageError) {
        try StorageError.wrap(path, "reading due feeds") {
            try queue.inDatabase { db in
                let rows = try Row.fetchCursor(db.cachedStatement(sql: CatalogSchedule.selectDue), arguments: [now])
                while let row = try rows.next() { body(Self.feed(row)) }
            }
        }
    }

    /// The feeds listed twice, as the last reading of every feed found them: each
    /// duplicate's feedid → the feedid of the first.
    public func recordedDuplicates() throws(StorageError) -> [Int64: Int64] {
        try StorageError.wrap(path, "reading duplicate feeds") {
            try queue.read { db in
                var found: [Int64: Int64] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT feedid, original FROM duplicate_feeds") {
                    if let id: Int64 = row[0], let original: Int64 = row[1] { found[id] = original }
                }
                return found
            }
        }
    }

    /// `feeds_version` now: read before every feed is, so that a change made meanwhile makes
    /// the next run read them all again.
    public func feedsVersion() throws(StorageError) -> Int64? {
        try StorageError.wrap(path, "reading the feeds' version") {
            try queue.read { db in
                try Int64.fetchOne(db, sql: "SELECT " + CatalogSchedule.valueOf("feeds_version"))
            }
        }
    }

    /// After a run read every feed: what it found, and, when the settings changed (`nextDue`
    /// given), every feed's next due time computed again with them. Recorded only when every
    /// listed feed has its `fetch_state` row (a catalog from before it, a row added by hand:
    /// the index cannot find those, so runs keep reading every feed until updates save them).
    public func recordFullReading(
        key: Int64, feedsVersion: Int64?, now: Int64, duplicates: [Int64: Int64], nextDue: [(feedID: Int64, due: Int64)]?
    ) throws(StorageError) {
        try StorageError.wrap(path, "recording the schedule") {
            try queue.write { db in
                if let nextDue {
                    let update = try db.cachedStatement(sql: "UPDATE fetch_state SET next_due_unix_time = ? WHERE feedid = ?")
                    for (id, due) in nextDue { try update.execute(arguments: [due, id]) }
                }
                try db.execute(sql: "DELETE FROM duplicate_feeds")
                let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO duplicate_feeds (feedid, original) VALUES (?, ?)")
                for (id, original) in duplicates { try insert.execute(arguments: [id, original]) }
                let complete = try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM feeds WHERE feedid NOT IN (SELECT feedid FROM fetch_state))") ?? false
                try Self.setSchedule(db, [
                    ("schedule_key", complete ? key : nil), ("schedule_feeds_version", complete ? feedsVersion : nil),
                ])
                try Self.raiseScheduleClock(db, to: now)
            }
        }
    }

    /// The next due times of the feeds whose rows have none (NULL: a scheduling column changed
    /// by hand, or never saved by an update); rows with one keep it. Such rows are then read
    /// once, not by every due run after (issue 51: rows edited by hand stayed NULL and made
    /// every due run read them all).
    public func recordNextDue(_ nextDue: [(feedID: Int64, due: Int64)]) throws(StorageError) {
        guard !nextDue.isEmpty else { return }
        try StorageError.wrap(path, "recording the schedule") {
            try queue.write { db in
                let update = try db.cachedStatement(
                    sql: "UPDATE fetch_state SET next_due_unix_time = ? WHERE feedid = ? AND next_due_unix_time IS NULL")
                for (id, due) in nextDue { try update.execute(arguments: [due, id]) }
            }
        }
    }

    /// A run that used the index: the latest time a run ran at.
    public func recordScheduleClock(_ now: Int64) throws(StorageError) {
        try StorageError.wrap(path, "recording the schedule") { try queue.write { db in try Self.raiseScheduleClock(db, to: now) } }
    }

    private static func raiseScheduleClock(_ db: Database, to now: Int64) throws {
        try db.execute(
            sql: "INSERT INTO feedmill_catalog (key, value) VALUES ('schedule_clock', ?) "
                + "ON CONFLICT(key) DO UPDATE SET value = MAX(IFNULL(\(CatalogSchedule.valueOf("schedule_clock")), 0), excluded.value)",
            arguments: [now])
    }

    private static func setSchedule(_ db: Database, _ values: [(String, Int64?)]) throws {
        for (key, value) in values {
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO feedmill_catalog (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM feedmill_catalog WHERE key = ?", arguments: [key])
            }
        }
    }
}

extension CatalogSchedule {
    static func valueOf(_ key: String) -> String {
        "(SELECT value FROM feedmill_catalog WHERE key = '\(key)' AND typeof(value) = 'integer')"
    }
}
