import FeedModel
import Foundation
import GRDB

/// What writing a feed's entries did (or, for a preview, would do).
public struct UpsertSummary: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }

    public var changed: Bool { inserted + updated > 0 }
}

/// One feed's database, `feed_<feedid>.sqlite`, table `items`.
///
/// Rollback-journal mode, so the file alone is the database (what clients download) and a
/// write either commits whole or not at all, even under `kill -9`. Entries are compared with
/// what is stored before anything is written: an unchanged entry costs no write, and a run
/// in which nothing changed leaves the file byte-identical.
public final class FeedDatabase {
    public let path: String
    private let queue: DatabaseQueue

    /// Opens (creating if needed) and migrates the database at `path`. A new file gets the
    /// current schema in one transaction; an existing one is migrated step by step.
    public init(path: String) throws(StorageError) {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let isNew = !FileManager.default.fileExists(atPath: path)
        queue = try StorageError.wrap(path, "opening") { try DatabaseQueue(path: path, configuration: configuration) }
        if isNew {
            try StorageError.wrap(path, "creating") { try queue.write { db in try FeedDatabaseSchema.createCurrent(db) } }
        }
        try StorageError.wrap(path, "migrating") { try FeedDatabaseSchema.migrator().migrate(queue) }
    }

    public static func fileName(feedID: Int64) -> String { "feed_\(feedID).sqlite" }

    /// Inserts new entries and rewrites changed ones in one transaction; entries that dropped
    /// off the feed are kept. `now` is the first-seen time of new entries, and their pubdate
    /// when the feed gives none.
    @discardableResult
    public func upsert(_ entries: [Entry], now: Int64) throws(StorageError) -> UpsertSummary {
        let rows = Self.unique(entries).map { StoredEntry($0, now: now) }
        return try StorageError.wrap(path, "writing items") {
            let plan = try queue.read { db in try Self.plan(rows, db: db) }
            guard plan.summary.changed else { return plan.summary }
            return try queue.write { db -> UpsertSummary in
                // Planned again inside the write transaction: the truth at commit time.
                let current = try Self.plan(rows, db: db)
                let sequence = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(change_seq), 0) + 1 FROM items") ?? 1
                for row in current.inserts { try row.insert(db, changeSequence: sequence) }
                for row in current.updates { try row.update(db, changeSequence: sequence) }
                return current.summary
            }
        }
    }

    /// What ``upsert(_:now:)`` would do, without writing.
    public func preview(_ entries: [Entry], now: Int64) throws(StorageError) -> UpsertSummary {
        let rows = Self.unique(entries).map { StoredEntry($0, now: now) }
        return try StorageError.wrap(path, "reading items") { try queue.read { db in try Self.plan(rows, db: db).summary } }
    }

    public func itemCount() throws(StorageError) -> Int {
        try StorageError.wrap(path, "counting items") { try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? 0 } }
    }

    /// `PRAGMA integrity_check`'s answer (`ok` when healthy).
    public func integrityCheck() throws(StorageError) -> String {
        try StorageError.wrap(path, "checking integrity") { try queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" } }
    }

    /// The first entry of each id: normalisation already makes ids unique, but a repeated id
    /// must never fail the feed's whole transaction.
    private static func unique(_ entries: [Entry]) -> [Entry] {
        var seen: Set<String> = []
        return entries.filter { seen.insert($0.id).inserted }
    }

    private struct Plan {
        var inserts: [StoredEntry] = []
        var updates: [StoredEntry] = []
        var summary = UpsertSummary()
    }

    private static func plan(_ rows: [StoredEntry], db: Database) throws -> Plan {
        var stored: [String: String?] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, content_hash FROM items") {
            stored[row["id"]] = row["content_hash"] as String?
        }
        var plan = Plan()
        for row in rows {
            switch stored[row.id] {
            case .none:
                plan.inserts.append(row)
                plan.summary.inserted += 1
            case .some(let hash) where hash == row.contentHash:
                plan.summary.unchanged += 1
            case .some:
                plan.updates.append(row)
                plan.summary.updated += 1
            }
        }
        return plan
    }
}
