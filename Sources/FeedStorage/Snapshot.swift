import FeedBasics
import FeedModel
import Foundation
import GRDB

/// A file written for clients, with what the manifest says about it.
public struct SnapshotFile: Sendable, Equatable {
    public var path: String
    public var sha256: String
    public var size: Int
    public var rowCount: Int
}

/// One item of a published snapshot, as the aggregated outputs show it.
public struct SnapshotItem: Sendable, Equatable {
    public var id: String
    public var title: String
    public var summary: String
    public var permalink: String?
    public var published: Int64
    public var updated: Int64?
    public var author: String?
    /// The feed gave no date: `published` is when Feedmill first saw the entry.
    public var undated: Bool
}

/// Clean, compact, deterministic copies of the databases for clients.
///
/// Built row by row into a new file (fixed page size, rows in key order, rollback journal)
/// rather than with `VACUUM INTO`, so the bytes depend only on the data: the same data gives
/// the same SHA-256, which is what lets CI compare regenerated fixtures. The source is read
/// in one read transaction, so a concurrent `rss-update` never shows half a feed.
public enum Snapshot {
    /// Bumped when the published schema changes; also stored as `PRAGMA user_version`.
    public static let feedSchemaVersion = 1
    public static let catalogSchemaVersion = 1

    /// The item columns clients get: the original four, then the additions clients use.
    /// Internals (`content_hash`, `change_seq`, `id_source`) stay private.
    public static let itemColumns = [
        "id", "title", "summary", "pubdate_unix_time", "permalink", "updated_unix_time", "author",
        "first_seen_unix_time", "pubdate_is_first_seen",
    ]

    /// The published items table: the client columns, defined as in the feed database.
    private static let itemsTable = FeedDatabaseSchema.createItems(
        itemColumns.map { ($0, FeedDatabaseSchema.columnDefinitions[$0] ?? "") }, ifNotExists: false)

    private static let catalogTables = CatalogSchema.clientTables.map { "CREATE TABLE \($0)" }

    /// Changes whenever a feed database's content does: rows are never deleted by updates and
    /// every insert or change raises `change_seq`.
    public static func feedFingerprint(_ source: String) throws(StorageError) -> String {
        try StorageError.wrap(source, "reading") {
            let queue = try DatabaseQueue(path: source, configuration: readOnly)
            return try queue.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), IFNULL(MAX(change_seq), 0) FROM items")
                return "\(row?[0] as Int? ?? 0):\(row?[1] as Int64? ?? 0)"
            }
        }
    }

    /// Writes the client copy of a feed database to `destination` (replacing it).
    public static func writeFeed(from source: String, to destination: String) throws(StorageError) -> SnapshotFile {
        let rows = try StorageError.wrap(source, "reading items") {
            let queue = try DatabaseQueue(path: source, configuration: readOnly)
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT \(itemColumns.joined(separator: ", ")) FROM items ORDER BY id")
            }
        }
        return try write(destination, schema: [itemsTable], version: feedSchemaVersion) { db in
            let placeholders = Array(repeating: "?", count: itemColumns.count).joined(separator: ", ")
            let statement = try db.makeStatement(sql: "INSERT INTO items (\(itemColumns.joined(separator: ", "))) VALUES (\(placeholders))")
            for row in rows {
                try statement.execute(arguments: StatementArguments(row.databaseValues))
            }
            return rows.count
        }
    }

    /// Writes the client copy of the catalog: `feeds`, `about` and `last_update` only.
    public static func writeCatalog(from source: String, to destination: String) throws(StorageError) -> SnapshotFile {
        let tables = try StorageError.wrap(source, "reading the catalog") {
            let queue = try DatabaseQueue(path: source, configuration: readOnly)
            return try queue.read { db in
                (
                    try Row.fetchAll(db, sql: "SELECT feedid, url FROM feeds ORDER BY feedid"),
                    try Row.fetchAll(db, sql: "SELECT feedid, title FROM about ORDER BY feedid"),
                    try Row.fetchAll(db, sql: "SELECT feedid, when_unix_time FROM last_update ORDER BY feedid")
                )
            }
        }
        return try write(destination, schema: catalogTables, version: catalogSchemaVersion) { db in
            for row in tables.0 { try db.execute(sql: "INSERT INTO feeds VALUES (?, ?)", arguments: StatementArguments(row.databaseValues)) }
            for row in tables.1 { try db.execute(sql: "INSERT INTO about VALUES (?, ?)", arguments: StatementArguments(row.databaseValues)) }
            for row in tables.2 { try db.execute(sql: "INSERT INTO last_update VALUES (?, ?)", arguments: StatementArguments(row.databaseValues)) }
            return tables.0.count
        }
    }

    /// `id → row values` (in ``itemColumns`` order) of a published feed snapshot, for deltas.
    public static func items(ofSnapshot path: String) throws(StorageError) -> [String: [SQLValue]] {
        try StorageError.wrap(path, "reading snapshot") {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            return try queue.read { db in
                var items: [String: [SQLValue]] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT \(itemColumns.joined(separator: ", ")) FROM items") {
                    items[row[0]] = row.databaseValues.map(SQLValue.init)
                }
                return items
            }
        }
    }

    /// The newest `limit` items of a published feed snapshot, newest first (for `atom.xml`
    /// and `index.html`).
    public static func newestItems(ofSnapshot path: String, limit: Int) throws(StorageError) -> [SnapshotItem] {
        try StorageError.wrap(path, "reading snapshot") {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            return try queue.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, title, summary, permalink, pubdate_unix_time, updated_unix_time, author, pubdate_is_first_seen
                        FROM items ORDER BY pubdate_unix_time DESC, id LIMIT ?
                        """,
                    arguments: [limit]
                ).map { row in
                    SnapshotItem(
                        id: row["id"], title: row["title"], summary: row["summary"], permalink: row["permalink"],
                        published: row["pubdate_unix_time"], updated: row["updated_unix_time"], author: row["author"],
                        undated: row["pubdate_is_first_seen"] == 1)
                }
            }
        }
    }

    /// Read-only, waiting out a writer's lock: how published copies and fingerprints are read.
    static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// A fresh file at a temporary name, the schema, the rows in one transaction; then synced
    /// and renamed over `destination`, so nobody ever sees a partial file.
    private static func write(
        _ destination: String, schema: [String], version: Int, fill: (Database) throws -> Int
    ) throws(StorageError) -> SnapshotFile {
        let temporary = destination + ".tmp-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporary)
        let count = try StorageError.wrap(temporary, "writing snapshot") { () -> Int in
            let queue = try DatabaseQueue(path: temporary)
            let count = try queue.writeWithoutTransaction { db -> Int in
                try db.execute(sql: "PRAGMA page_size = 4096")
                try db.execute(sql: "PRAGMA user_version = \(version)")
                var count = 0
                try db.inTransaction {
                    for statement in schema { try db.execute(sql: statement) }
                    count = try fill(db)
                    return .commit
                }
                return count
            }
            try queue.close()
            return count
        }
        guard let data = FileManager.default.contents(atPath: temporary) else {
            throw StorageError(path: temporary, message: "snapshot vanished before it was published")
        }
        try StorageError.files { () throws(FileError) in
            try DurableFiles.sync(temporary)
            try DurableFiles.rename(temporary, to: destination)
        }
        return SnapshotFile(path: destination, sha256: SHA256.hexDigest([UInt8](data)), size: data.count, rowCount: count)
    }
}

extension Snapshot {
    /// SHA-256 over the client tables' rows: equal exactly when the catalog snapshot would be.
    public static func catalogFingerprint(_ source: String) throws(StorageError) -> String {
        try StorageError.wrap(source, "reading the catalog") {
            let queue = try DatabaseQueue(path: source, configuration: readOnly)
            return try queue.read { db in
                var hasher = SHA256()
                for query in [
                    "SELECT feedid, url FROM feeds ORDER BY feedid", "SELECT feedid, title FROM about ORDER BY feedid",
                    "SELECT feedid, when_unix_time FROM last_update ORDER BY feedid",
                ] {
                    hasher.update(query)
                    for row in try Row.fetchAll(db, sql: query) {
                        hasher.update(row.databaseValues.map { "\($0)" }.joined(separator: "\u{1F}") + "\u{1E}")
                    }
                }
                return SHA256.hex(hasher.finalize())
            }
        }
    }
}
