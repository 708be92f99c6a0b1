import GRDB

/// Which feeds changed since a publication, without opening every feed's database: the
/// catalog's change log, `feed_changes(feedid, change_seq, writing, listing_seq)`.
///
/// A change a client could see sets the feed's `change_seq` to the log's current mark: the
/// higher of `changes_clock` (in `feedmill_catalog`) and the highest `change_seq` there is, so
/// marks never go down. Triggers mark any write to the client tables (`feeds`, `about`,
/// `last_update`, whoever writes them, `sqlite3` by hand included; `listing_seq` too); the
/// update marks a feed's own database in two steps around its commit: ``markWriting(_:)``
/// before (`writing = 1`, in its own catalog transaction), and the feed's ``Catalog/save(_:)``
/// after (`writing = 0`, the mark). Each run holding the data directory's lock first raises
/// `changes_clock` to its time (``Catalog/settleInterruptedWrites(now:)``), so every mark of
/// one run is the same number whatever order its feeds finish in (two runs over the same
/// answers at the same `--now` write the same catalog, byte for byte), and above the marks of
/// runs before it.
///
/// A publisher remembers the mark it read before reading any feed, and next reads only the
/// feeds marked at or above it, or still `writing`: a change made after its read is marked at
/// or above what it read (marks never go down), and a commit in flight is `writing`, so no
/// change falls between. A run killed between the two steps leaves `writing = 1`: the feed is
/// read by every publication until the next run settles it into a change.
///
/// `changes_epoch` is the time the first run holding the lock met the log: a catalog rebuilt
/// or replaced has another, and a publisher that finds another epoch, none, or a mark below
/// the one it read (a catalog restored from a backup) reads every feed again.
public struct CatalogChanges: Sendable, Equatable {
    public var epoch: Int64
    /// The log's mark when read: a publisher that publishes what it read next reads the feeds
    /// marked at or above it.
    public var highest: Int64
    /// The highest `listing_seq`: the last change to the client tables (a feed added,
    /// removed, renamed, described, or its `last_update` moved). At or above a publisher's
    /// mark, its catalog snapshot may be out of date; below it, only feed databases changed.
    public var listingHighest: Int64
    /// Feeds marked at or above the mark asked for, or still being written.
    public var feedIDs: Set<Int64>
    /// Feeds whose rows in the client tables changed at or above the mark asked for (added,
    /// removed, renamed, described, `last_update` moved): the catalog's pages to write again.
    public var listingFeedIDs: Set<Int64>

    public init(epoch: Int64, highest: Int64, listingHighest: Int64, feedIDs: Set<Int64>, listingFeedIDs: Set<Int64> = []) {
        (self.epoch, self.highest, self.listingHighest, self.feedIDs) = (epoch, highest, listingHighest, feedIDs)
        self.listingFeedIDs = listingFeedIDs
    }

    static let migration = "catalog-change-log"

    /// The log's mark: `changes_clock`, or the highest `change_seq` when that is higher (a clock
    /// repaired or lowered by hand never takes marks down). Both found in an index.
    static let currentMark = "(SELECT MAX(IFNULL((SELECT value FROM feedmill_catalog WHERE key = 'changes_clock' AND typeof(value) = 'integer'), 0), "
        + "IFNULL((SELECT MAX(change_seq) FROM feed_changes), 0)))"

    /// Marks `feedid` (an SQL expression) as changed, when it is an integer (a row written by
    /// hand with another feedid belongs to no feed: it must not make the write fail), and when
    /// `also` holds. One statement, the mark read once: a trigger runs it for every row written.
    private static func mark(_ feedID: String, also condition: String = "1") -> String {
        "INSERT INTO feed_changes (feedid, change_seq, listing_seq) SELECT \(feedID), mark, mark FROM (SELECT \(currentMark) AS mark) "
            + "WHERE typeof(\(feedID)) = 'integer' AND \(condition) "
            + "ON CONFLICT(feedid) DO UPDATE SET change_seq = excluded.change_seq, listing_seq = excluded.listing_seq;"
    }

    /// The triggers of one client table: a row added, removed, or changed in a column. `also`:
    /// a statement they run besides.
    private static func triggers(on table: String, columns: [String], also: String = "") -> [String] {
        let changed = columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
        return [
            "CREATE TRIGGER IF NOT EXISTS feed_changes_\(table)_insert AFTER INSERT ON \(table) BEGIN \(mark("NEW.feedid")) \(also) END",
            "CREATE TRIGGER IF NOT EXISTS feed_changes_\(table)_delete AFTER DELETE ON \(table) BEGIN \(mark("OLD.feedid")) \(also) END",
            "CREATE TRIGGER IF NOT EXISTS feed_changes_\(table)_update AFTER UPDATE ON \(table) WHEN \(changed) "
                + "BEGIN \(mark("NEW.feedid")) \(mark("OLD.feedid", also: "OLD.feedid IS NOT NEW.feedid")) \(also) END",
        ]
    }

    /// `feeds_version` in `feedmill_catalog`, raised by every change to the `feeds` table: the
    /// update's schedule knows from it that no URL changed since it last read them all
    /// (``CatalogSchedule``).
    static let raiseFeedsVersion = "UPDATE feedmill_catalog SET value = value + 1 WHERE key = 'feeds_version' AND typeof(value) = 'integer';"

    /// The log, its indexes, the triggers; every feed listed starts marked once.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS feed_changes (
                feedid INTEGER PRIMARY KEY, change_seq INTEGER NOT NULL, writing INTEGER NOT NULL DEFAULT 0,
                listing_seq INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX IF NOT EXISTS feed_changes_by_seq ON feed_changes (change_seq);
            CREATE INDEX IF NOT EXISTS feed_changes_by_listing_seq ON feed_changes (listing_seq);
            CREATE INDEX IF NOT EXISTS feed_changes_writing ON feed_changes (writing) WHERE writing <> 0;
            INSERT OR IGNORE INTO feedmill_catalog (key, value) VALUES ('changes_clock', 1);
            INSERT OR IGNORE INTO feedmill_catalog (key, value) VALUES ('feeds_version', 1);
            INSERT OR IGNORE INTO feed_changes (feedid, change_seq, listing_seq) SELECT feedid, 1, 1 FROM feeds WHERE typeof(feedid) = 'integer';
            """)
        let columns = ["feedid", "title"] + CatalogSchema.aboutReaderColumns
        for trigger in triggers(on: "feeds", columns: ["feedid", "url"], also: raiseFeedsVersion) + triggers(on: "about", columns: columns)
            + triggers(on: "last_update", columns: ["feedid", "when_unix_time"])
        {
            try db.execute(sql: trigger)
        }
    }

    /// Marks the feed's database as being written, in a transaction of its own, before the
    /// feed's commit.
    static func markWriting(_ feedID: Int64, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO feed_changes (feedid, change_seq, writing) VALUES (?1, \(currentMark), 1)
                ON CONFLICT(feedid) DO UPDATE SET writing = 1
            """).execute(arguments: [feedID])
    }

    /// After the feed's commit, with its catalog row: the write is done, and is a change.
    static func markWritten(_ feedID: Int64, db: Database) throws {
        try db.cachedStatement(sql: "UPDATE feed_changes SET writing = 0, change_seq = \(currentMark) WHERE feedid = ? AND writing <> 0")
            .execute(arguments: [feedID])
    }

    /// Writes left marked by a run that was killed (only the update holding the data
    /// directory's lock writes feeds, so none is in flight): each becomes a change.
    static func settleInterrupted(_ db: Database, now: Int64) throws -> Int {
        try db.execute(sql: "INSERT OR IGNORE INTO feedmill_catalog (key, value) VALUES ('changes_epoch', ?)", arguments: [now])
        try beginRun(db, now: now)
        let ids = try Int64.fetchAll(db, sql: "SELECT feedid FROM feed_changes WHERE writing <> 0")
        for id in ids { try markWritten(id, db: db) }
        return ids.count
    }

    /// Raises `changes_clock` to `now` (never lowers it), or one above the mark without a time:
    /// the mark of the changes about to be made.
    static func beginRun(_ db: Database, now: Int64?) throws {
        try db.execute(
            sql: "INSERT INTO feedmill_catalog (key, value) VALUES ('changes_clock', MAX(IFNULL(?, \(currentMark) + 1), \(currentMark))) "
                + "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [now])
    }

    /// The epoch, the log's mark, and the feeds marked at or above `mark` or being written;
    /// `nil` in a catalog without the log or its epoch (the publisher reads every feed).
    static func read(from mark: Int64, db: Database) throws -> CatalogChanges? {
        guard try db.tableExists("feed_changes"),
            let epoch = try Int64.fetchOne(db, sql: "SELECT value FROM feedmill_catalog WHERE key = 'changes_epoch' AND typeof(value) = 'integer'")
        else { return nil }
        let highest = try Int64.fetchOne(db, sql: "SELECT \(currentMark)") ?? 0
        let listing = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(listing_seq), 0) FROM feed_changes") ?? 0
        let ids = try Int64.fetchAll(db, sql: "SELECT feedid FROM feed_changes WHERE change_seq >= ? OR writing <> 0", arguments: [mark])
        let listed = try Int64.fetchAll(db, sql: "SELECT feedid FROM feed_changes WHERE listing_seq >= ?", arguments: [mark])
        return CatalogChanges(epoch: epoch, highest: highest, listingHighest: listing, feedIDs: Set(ids), listingFeedIDs: Set(listed))
    }
}

extension Catalog {
    /// Before a feed's database is committed (``CatalogChanges``).
    public func markWriting(_ feedID: Int64) throws(StorageError) {
        try StorageError.wrap(path, "marking feed \(feedID) as being written") {
            try queue.write { db in try CatalogChanges.markWriting(feedID, db: db) }
        }
    }

    /// After the feed's database was committed, for a writer that does not save the feed's
    /// catalog row with it (``Catalog/save(_:)`` does this too).
    public func markWritten(_ feedID: Int64) throws(StorageError) {
        try StorageError.wrap(path, "marking feed \(feedID) as written") {
            try queue.write { db in try CatalogChanges.markWritten(feedID, db: db) }
        }
    }

    /// Feeds left marked as being written by a killed run, made changes; how many. Called by
    /// a run holding the data directory's lock, which also gives the log its epoch, `now`,
    /// when it has none.
    public func settleInterruptedWrites(now: Int64) throws(StorageError) -> Int {
        try StorageError.wrap(path, "settling interrupted writes") {
            try queue.write { db in try CatalogChanges.settleInterrupted(db, now: now) }
        }
    }

    /// Raises the log's mark to `now` for the changes about to be made, as a run holding the
    /// lock does (``settleInterruptedWrites(now:)``); for a writer that changes feeds without
    /// such a run (a tool, a test).
    public func beginChanges(now: Int64? = nil) throws(StorageError) {
        try StorageError.wrap(path, "raising the change log's mark") { try queue.write { db in try CatalogChanges.beginRun(db, now: now) } }
    }

    /// The changes at or after `mark`, read in one transaction; `nil` without a change log.
    public func changes(from mark: Int64) throws(StorageError) -> CatalogChanges? {
        try StorageError.wrap(path, "reading the change log") { try queue.read { db in try CatalogChanges.read(from: mark, db: db) } }
    }
}
