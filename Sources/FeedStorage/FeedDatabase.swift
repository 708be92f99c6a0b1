import FeedModel
import Foundation
import GRDB

/// What writing a feed's entries did (or, for a preview, would do).
public struct UpsertSummary: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Items the feed no longer lists, removed by its ``Retention``.
    public var removed = 0
    /// What was found wrong in the file and repaired (or, in a preview, would be): wrongly
    /// typed values, lost columns. One line each, for the run's report.
    public var repairs: [String] = []

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, removed: Int = 0, repairs: [String] = []) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.removed = removed
        self.repairs = repairs
    }

    public var changed: Bool { inserted + updated + removed > 0 || !repairs.isEmpty }
}

/// One feed's database, `feed_<feedid>.sqlite`, table `items`.
///
/// Rollback-journal mode, so the file alone is the database (what clients download) and a
/// write either commits whole or not at all, even under `kill -9`. Entries are compared with
/// what is stored before anything is written: an unchanged entry costs no write, and a run
/// in which nothing changed leaves the file byte-identical. A file that does not exist yet is
/// written under a temporary name and put in place by its first commit (``NewFeedFile``).
public final class FeedDatabase {
    public let path: String
    /// The open connection; `nil` between a new file's move into place and the next use.
    private var connection: DatabaseQueue?
    /// A new file's schema (and stamp), not yet committed: the first upsert writes it in its
    /// own transaction, so a new feed's schema and entries cost one transaction, not two.
    private var pendingSchema: PendingSchema?
    /// The file did not exist, and is not in place yet: it is written under a temporary name
    /// (``creation``) until its first commit.
    private var isNew = false
    private var creation: NewFeedFile?

    private struct PendingSchema {
        let identity: FeedIdentity?
    }

    /// Opens (creating if needed) and migrates the database at `path`. A new file gets the
    /// current schema and its stamp in one transaction (the first upsert's, or one of its own
    /// before anything else reads it); an existing one gets the steps it lacks.
    ///
    /// - Parameter identity: the feed the file must belong to. A file stamped for another
    ///   feed is refused (``StorageError/Kind/foreign``); an unstamped one (new, or written
    ///   before files were stamped) is stamped. A link, a garbage or a cut-short file is
    ///   refused (``StorageError/Kind/damaged``) before SQLite opens it.
    public init(path: String, identity: FeedIdentity? = nil) throws(StorageError) {
        self.path = path
        let condition = FeedDatabaseFile.condition(of: path)
        if case .unusable(let reason) = condition {
            throw StorageError(path: path, message: reason, kind: .damaged)
        }
        if condition == .missing {
            isNew = true
            pendingSchema = PendingSchema(identity: identity)
            _ = try queue
            return
        }
        // SQLite would open it read-only without a word, and fail at the first write with its SQL.
        if let refusal = StorageError.notWritable(path) { throw refusal }
        NewFeedFile.removeLinkLeftBeside(path)
        let queue = try Self.open(path, new: false)
        connection = queue
        if condition == .empty {
            pendingSchema = PendingSchema(identity: identity)
            return
        }
        try StorageError.wrap(path, "migrating") {
            try queue.inDatabase { db in try FeedDatabaseSchema.generation.refuseNewer(db, path: path) }
            try FeedDatabaseSchema.migrator().migrate(queue)
        }
        let restored = try StorageError.wrap(path, "restoring its schema") {
            try queue.inDatabase { db in try FeedDatabaseSchema.restoreMissing(db, path: path) }
        }
        if !restored.isEmpty { repairs.append("restored the column(s) its items table had lost: \(restored.joined(separator: ", "))") }
        if let identity { try check(identity) }
    }

    /// What opening the file repaired (lost columns put back), for the run's report.
    public private(set) var repairs: [String] = []

    deinit {
        discardCreation()
    }

    private static func open(_ path: String, new: Bool) throws(StorageError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // ``FeedUpsert`` keeps its transaction open across calls while a feed streams in.
        configuration.allowsUnsafeTransactions = true
        // A feed's transaction streams through the page cache: 512 KiB (SQLite's default is
        // 2 MiB) is plenty for a write that touches each page once, and is what a 16 MB feed
        // costs in memory instead of four times that.
        // A new file under its temporary name (``NewFeedFile``) is this connection's alone, and
        // is thrown away whole if its transaction does not commit: its rollback journal stays
        // in memory, and it is synced once, before it is moved into place.
        let pragmas = new
            ? "PRAGMA cache_size = -512; PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF"
            : "PRAGMA cache_size = -512"
        configuration.prepareDatabase { db in try db.execute(sql: pragmas) }
        return try StorageError.wrap(path, "opening") { try DatabaseQueue(path: path, configuration: configuration) }
    }

    /// The connection: to a new file's temporary (created afresh after a rollback threw the
    /// last one away), or to ``path``, opened again after a new file was moved there.
    private var queue: DatabaseQueue {
        get throws(StorageError) {
            if let connection { return connection }
            let opened: DatabaseQueue
            if isNew {
                let creation = try NewFeedFile.create(for: path)
                do throws(StorageError) {
                    opened = try Self.open(creation.temporaryPath, new: true)
                } catch {
                    creation.discard()
                    throw error
                }
                self.creation = creation
            } else {
                opened = try Self.open(path, new: false)
            }
            connection = opened
            return opened
        }
    }

    public static func fileName(feedID: Int64) -> String { FeedDatabaseFile.fileName(feedID: feedID) }

    /// Refuses a file stamped for another feed; stamps one that has no stamp yet.
    private func check(_ identity: FeedIdentity) throws(StorageError) {
        let stamped = try StorageError.wrap(path, "reading its identity") {
            try queue.read { db in try FeedIdentity.read(db, path: path) }
        }
        if let stamped, stamped != identity { throw Self.foreign(path, stamped: stamped, expected: identity) }
        // Unstamped, or stamped before the header carried the brief stamp: stamp it now.
        if stamped == nil || FeedDatabaseFile.applicationID(of: path) != identity.applicationID {
            try StorageError.wrap(path, "stamping its identity") { try queue.write { db in try identity.stamp(db) } }
        }
    }

    private static func foreign(_ path: String, stamped: FeedIdentity, expected: FeedIdentity) -> StorageError {
        StorageError(
            path: path,
            message: "belongs to feed \(stamped.feedID) (\(stamped.originURL)), not to feed \(expected.feedID) (\(expected.originURL))",
            kind: .foreign)
    }

    /// Inserts new entries, rewrites changed ones and removes what `retention` no longer
    /// keeps, in one transaction; by default entries that dropped off the feed are kept.
    /// `now` is the first-seen time of new entries, and their pubdate when the feed gives none.
    /// The update run streams its entries through ``beginUpsert(now:retention:writes:)``
    /// instead; this, for entries in hand, is for tests.
    @discardableResult
    func upsert(_ entries: [Entry], now: Int64, retention: Retention = .keepEverything) throws(StorageError) -> UpsertSummary {
        let upsert = try beginUpsert(now: now, retention: retention)
        for entry in entries { try upsert.add(entry) }
        return try upsert.commit()
    }

    /// What ``upsert(_:now:retention:)`` would do, without writing.
    func preview(_ entries: [Entry], now: Int64, retention: Retention = .keepEverything) throws(StorageError) -> UpsertSummary {
        let upsert = try beginUpsert(now: now, retention: retention, writes: false)
        for entry in entries { try upsert.add(entry) }
        return try upsert.commit()
    }

    /// Starts writing entries one by one (``FeedUpsert``); `writes: false` previews.
    public func beginUpsert(now: Int64, retention: Retention = .keepEverything, writes: Bool = true) throws(StorageError) -> FeedUpsert {
        try FeedUpsert(database: self, now: now, retention: retention, writes: writes)
    }

    /// Runs `body` on the connection, outside any transaction GRDB would open.
    func access<T>(_ action: String, _ body: (Database) throws -> T) throws(StorageError) -> T {
        try StorageError.wrap(path, action) { try queue.inDatabase(body) }
    }

    /// Writes a new file's schema inside the caller's open transaction (``FeedUpsert``). It
    /// stays pending until ``schemaCommitted()``: a rollback leaves the file empty again.
    func createPendingSchema(_ db: Database) throws {
        guard let pendingSchema else { return }
        try FeedDatabaseSchema.createCurrent(db, stamping: pendingSchema.identity)
    }

    /// A new file's schema stays pending until the file is in place: thrown away before, it
    /// is written again.
    func schemaCommitted() {
        if !isNew { pendingSchema = nil }
    }

    /// After the first commit: a new file leaves its temporary name for ``path``. Called
    /// outside the connection's queue, which is closed first (its name would be wrong).
    func moveNewFileIntoPlace() throws(StorageError) {
        guard let creation else { return }
        if let connection {
            try StorageError.wrap(path, "closing") { try connection.close() }
            self.connection = nil
        }
        self.creation = nil
        do throws(StorageError) {
            try creation.moveIntoPlace()
        } catch {
            // Still new: the next transaction writes the schema into a new temporary.
            creation.discard()
            throw error
        }
        isNew = false
        pendingSchema = nil
    }

    /// Throws a new file away before it was ever in place (its transaction rolled back).
    func discardCreation() {
        guard let creation else { return }
        try? connection?.close()
        connection = nil
        creation.discard()
        self.creation = nil
    }

    /// A new file's schema in a transaction of its own, before anything but an upsert uses it.
    private func createSchemaIfPending() throws(StorageError) {
        guard let pendingSchema else { return }
        try StorageError.wrap(path, "creating") { try queue.write { db in try FeedDatabaseSchema.createCurrent(db, stamping: pendingSchema.identity) } }
        schemaCommitted()
        try moveNewFileIntoPlace()
    }

    /// Checks every stored value's type and repairs the wrong ones (``ItemValues``) in one
    /// transaction; in a preview (`writes: false`) only checks. What the update does when a
    /// person asks for the feed by id (`rss-update --feed`), which is what `rss-publish` advises
    /// for a feed it refused for such a value. Returns one line per value found.
    public func repairValues(now: Int64, writes: Bool = true) throws(StorageError) -> [String] {
        try createSchemaIfPending()
        return try StorageError.wrap(path, "repairing values") {
            try queue.inDatabase { db -> [String] in
                guard writes else { return try ItemValues.problems(db).map { "\($0)" } }
                var repair = ItemValues.Repair()
                try db.inTransaction {
                    repair = try ItemValues.repair(db, now: now, changeSequence: try ItemValues.nextChangeSequence(db, renumbering: true))
                    return .commit
                }
                return repair.lines
            }
        }
    }

    /// Items in the file at `path`, read without migrating or stamping it; `nil` when it
    /// cannot be read (missing, damaged, locked for long).
    public static func itemCount(at path: String) -> Int? {
        guard FeedDatabaseFile.condition(of: path) == .healthy else { return nil }
        return try? DatabaseQueue(path: path, configuration: Snapshot.readOnly).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items")
        }
    }

    public func itemCount() throws(StorageError) -> Int {
        try createSchemaIfPending()
        return try StorageError.wrap(path, "counting items") { try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? 0 } }
    }

    /// The feed the file at `path` is stamped for, read without writing anything (no
    /// migration): `nil` for a file written before files were stamped.
    public static func stampedIdentity(at path: String) throws(StorageError) -> FeedIdentity? {
        try FeedIdentity.read(path: path)
    }

    /// Why the file at `path` must not be used as `identity`'s database, if it must not: it is
    /// stamped for another feed, or cannot be read at all.
    public static func mismatch(at path: String, for identity: FeedIdentity) -> StorageError? {
        // The header's brief stamp agrees: the file is this feed's (the one read a warm run makes).
        if FeedDatabaseFile.applicationID(of: path) == identity.applicationID { return nil }
        do {
            guard let stamped = try stampedIdentity(at: path), stamped != identity else { return nil }
            return foreign(path, stamped: stamped, expected: identity)
        } catch {
            return error.kind == .other ? nil : error
        }
    }

    /// The feed the file is stamped for, if it is.
    public func identity() throws(StorageError) -> FeedIdentity? {
        try createSchemaIfPending()
        return try StorageError.wrap(path, "reading its identity") { try queue.read { db in try FeedIdentity.read(db, path: path) } }
    }
}
