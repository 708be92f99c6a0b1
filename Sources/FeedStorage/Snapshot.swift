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
    /// The content digest of the rows written (``ContentDigest``): what a client holding this
    /// version computes from its copy, however it got there.
    public var contentDigest: String
    /// Values that were not of their column's type and were published as NULL or left out.
    public var problems: [String] = []
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
/// Built row by row into a new file (fixed page size, rows in key order, the rollback-journal format rather than WAL)
/// rather than with `VACUUM INTO`, so the bytes depend only on the data: the same data gives
/// the same SHA-256, which is what lets CI compare regenerated fixtures. The source is read
/// in one read transaction, so a concurrent `rss-update` never shows half a feed.
public enum Snapshot {
    /// Bumped when the published schema changes; also stored as `PRAGMA user_version`.
    /// 2: `items` gained `image_url`, `enclosures_json`, `categories_json`, `authors_json`.
    public static let feedSchemaVersion = 2
    /// 2: `about` gained `link`, `description`, `image_url`, `language`.
    public static let catalogSchemaVersion = 2

    /// The item columns clients get: the original four, then the additions clients use, in the
    /// order they were added. Internals (`content_hash`, `change_seq`, `id_source`) stay private.
    public static let itemColumns = [
        "id", "title", "summary", "pubdate_unix_time", "permalink", "updated_unix_time", "author",
        "first_seen_unix_time", "pubdate_is_first_seen", "image_url", "enclosures_json", "categories_json", "authors_json",
    ]

    /// The published items table: the client columns, defined as in the feed database.
    private static let itemsTable = FeedDatabaseSchema.createItems(
        itemColumns.map { ($0, FeedDatabaseSchema.columnDefinitions[$0] ?? "") }, ifNotExists: false)

    static let catalogTables = CatalogSchema.clientTables.map { "CREATE TABLE \($0)" }

    /// Changes whenever a feed database's content does: every insert, change or repair raises
    /// `change_seq` (``ItemValues/highestChangeSequence``, numbers only), and removals change
    /// the count. Read as the values are stored, so no value can stop it.
    public static func feedFingerprint(_ source: String) throws(StorageError) -> String {
        try StorageError.wrap(source, "reading") {
            let queue = try DatabaseQueue(path: source, configuration: readOnly)
            // Not checked for a newer writer here (three more statements for every feed of every
            // publication): a changed feed is, by ``writeFeed(from:to:)``.
            return try queue.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM items), (\(ItemValues.highestChangeSequence))")
                let count = row.map { StoredValue.raw($0, 0) } ?? .null
                let highest = row.map { StoredValue.raw($0, 1) } ?? .null
                return "\(StoredValue.lossyText(count)):\(highest.isNull ? "0" : StoredValue.lossyText(highest))"
            }
        }
    }

    /// Writes the client copy of a feed database to `destination` (replacing it). A value of
    /// the wrong type in any client column (written by hand: Feedmill never writes one) is
    /// refused (``StorageError/Kind/wrongValues``), never handed to clients: the feed keeps
    /// its last good snapshot until `rss-update --feed` repairs it. `flushing` as in
    /// ``DurableFiles/Flushing``: a publication flushes its snapshots together.
    public static func writeFeed(
        from source: String, to destination: String, flushing: DurableFiles.Flushing = .now
    ) throws(StorageError) -> SnapshotFile {
        let rows = try StorageError.wrap(source, "reading items") {
            let queue = try DatabaseQueue(path: source, configuration: readOnly)
            return try queue.read { db in
                try FeedDatabaseSchema.generation.refuseNewer(db, path: source)
                let added = Set(FeedDatabaseSchema.addedColumns.flatMap(\.columns).map(\.name))
                let columns = try ColumnsAsPublished.selectList(itemColumns, from: "items", addedLater: added, db: db)
                let rows = try Row.fetchAll(db, sql: "SELECT \(columns) FROM items ORDER BY id")
                try refuseWrongValues(rows, source: source)
                // An id holding a NUL reads as its text up to the NUL, so it cannot be checked from
                // the rows read: two such ids would read alike and break the copy's primary key.
                if let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items WHERE instr(id, char(0)) > 0"), count > 0 {
                    throw StorageError(path: source, message: "holds \(count) id(s) with a NUL character in them", kind: .wrongValues)
                }
                try refuseMalformedLists(db, source: source)
                return rows
            }
        }
        return try write(destination, schema: [itemsTable], version: feedSchemaVersion, flushing: flushing) { db in
            let placeholders = Array(repeating: "?", count: itemColumns.count).joined(separator: ", ")
            let statement = try db.makeStatement(sql: "INSERT INTO items (\(itemColumns.joined(separator: ", "))) VALUES (\(placeholders))")
            for row in rows {
                try statement.execute(arguments: StatementArguments(row.databaseValues))
            }
            return rows.count
        }
    }

    /// Throws ``StorageError/Kind/wrongValues`` naming the first values of `rows` (in
    /// ``itemColumns`` order) that are not of their column's type.
    private static func refuseWrongValues(_ rows: [Row], source: String) throws {
        let kinds = itemColumns.map { name in ItemValues.rules.columns.first { $0.name == name }?.kind }
        var found: [WrongValue] = []
        var count = 0
        for row in rows {
            for (index, kind) in kinds.enumerated() {
                guard let kind, !kind.accepts(StoredValue.raw(row, index)) else { continue }
                count += 1
                if found.count < 3 {
                    found.append(WrongValue(row, index, table: "items", column: itemColumns[index], keyWord: "item", expected: kind.expected))
                }
            }
        }
        guard count > 0 else { return }
        throw StorageError(
            path: source,
            message: "holds \(count) value(s) of the wrong type: " + found.map(\.description).joined(separator: "; ") + (count > found.count ? "; …" : ""),
            kind: .wrongValues)
    }

    /// Throws ``StorageError/Kind/wrongValues`` when a reader-field list holds text that is
    /// not a JSON array (written by hand): clients parse these columns as JSON.
    private static func refuseMalformedLists(_ db: Database, source: String) throws {
        let existing = Set(try db.columns(in: "items").map { $0.name.lowercased() })
        for column in ItemValues.jsonColumns where existing.contains(column) {
            let sql = "SELECT id, \(column) FROM items WHERE \(ItemValues.jsonNotAnArray(column)) LIMIT 1"
            guard let row = try Row.fetchOne(db, sql: sql) else { continue }
            let wrong = WrongValue(row, 1, table: "items", column: column, keyWord: "item", expected: "a JSON array as text, or NULL")
            throw StorageError(path: source, message: "holds a value of the wrong type: \(wrong)", kind: .wrongValues)
        }
    }

    /// Writes the client copy of the catalog: `feeds`, `about` and `last_update` only. Values
    /// are written as the client tables' types say: a value of another type (written by hand;
    /// the next `rss-update` repairs it in the catalog, see ``CatalogValues``) is published as
    /// NULL, a row whose feedid is not an integer is left out, and each is named in
    /// ``SnapshotFile/problems`` for the publisher to report. `flushing` as for ``writeFeed(from:to:flushing:)``.
    public static func writeCatalog(
        from source: String, to destination: String, flushing: DurableFiles.Flushing = .now
    ) throws(StorageError) -> SnapshotFile {
        let (tables, problems) = try StorageError.wrap(source, "reading the catalog") {
            let queue = try DatabaseQueue(path: source, configuration: readOnly)
            return try queue.read { db in
                try CatalogSchema.generation.refuseNewer(db, path: source)
                var problems: [String] = []
                let tables = try catalogClientTables.map { table in
                    try ClientRows.read(table, db: db, problems: &problems)
                }
                return (tables, problems)
            }
        }
        return try writeCatalogRows(tables, problems: problems, to: destination, flushing: flushing)
    }

    /// A catalog snapshot of the client tables' rows (`feeds`, `about`, `last_update`, in
    /// that order), as read or merged, with the problems met reading them.
    static func writeCatalogRows(
        _ tables: [[[DatabaseValue]]], problems: [String], to destination: String, flushing: DurableFiles.Flushing
    ) throws(StorageError) -> SnapshotFile {
        var file = try write(destination, schema: catalogTables, version: catalogSchemaVersion, flushing: flushing) { db in
            for (table, rows) in zip(catalogClientTables, tables) {
                let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                let statement = try db.makeStatement(sql: "INSERT INTO \(table.name) VALUES (\(placeholders))")
                for row in rows { try statement.execute(arguments: StatementArguments(row)) }
            }
            return tables.first?.count ?? 0
        }
        file.problems = problems
        return file
    }

    /// The client tables' columns and their types, in the order the published copy has them.
    static let catalogClientTables: [ClientRows.Table] = [
        .init(name: "feeds", columns: [("feedid", .integer), ("url", .text)]),
        .init(
            name: "about",
            columns: [("feedid", .integer), ("title", .optionalText)] + CatalogSchema.aboutReaderColumns.map { ($0, .optionalText) },
            addedLater: Set(CatalogSchema.aboutReaderColumns)),
        .init(name: "last_update", columns: [("feedid", .integer), ("when_unix_time", .optionalInteger)]),
    ]

    /// `id → row values` (in ``itemColumns`` order) of a published feed snapshot, for deltas.
    /// A row whose id is not text (a snapshot changed by hand) makes the snapshot unusable.
    public static func items(ofSnapshot path: String) throws(StorageError) -> [String: [SQLValue]] {
        try StorageError.wrap(path, "reading snapshot") {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            return try queue.read { db in
                var items: [String: [SQLValue]] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT \(itemColumns.joined(separator: ", ")) FROM items") {
                    guard case .string(let id) = StoredValue.raw(row, 0).storage else {
                        throw StorageError(path: path, message: "an item's id is \(StoredValue.describe(StoredValue.raw(row, 0))), not text")
                    }
                    items[id] = row.databaseValues.map(SQLValue.init)
                }
                return items
            }
        }
    }

    /// The newest `limit` items of a published feed snapshot dated no later than `notAfter`,
    /// newest first (for `atom.xml` and `index.html`), and the earliest date after `notAfter`
    /// among its items (nil: none is dated after it): from then on, a later cutoff would give
    /// other items, so a publisher that keeps the newest items knows when to read the snapshot
    /// again. One open, two queries.
    public static func newestItemsAndLater(
        ofSnapshot path: String, limit: Int, notAfter: Int64 = .max
    ) throws(StorageError) -> (items: [SnapshotItem], later: Int64?) {
        try StorageError.wrap(path, "reading snapshot") {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            return try queue.read { db in
                let items = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, title, summary, permalink, pubdate_unix_time, updated_unix_time, author, pubdate_is_first_seen
                        FROM items WHERE pubdate_unix_time <= ? ORDER BY pubdate_unix_time DESC, id LIMIT ?
                        """,
                    arguments: [notAfter, limit]
                ).map { row throws(StorageError) in
                    func read<Value: DatabaseValueConvertible>(_ index: Int, _ column: String) throws(StorageError) -> Value? {
                        switch StoredValue.read(row, index, as: Value.self) {
                        case .success(let value): return value
                        case .failure(let problem): throw StorageError(path: path, message: "items.\(column) holds \(problem.found)")
                        }
                    }
                    func required<Value: DatabaseValueConvertible>(_ index: Int, _ column: String) throws(StorageError) -> Value {
                        guard let value: Value = try read(index, column) else {
                            throw StorageError(path: path, message: "items.\(column) is NULL")
                        }
                        return value
                    }
                    return SnapshotItem(
                        id: try required(0, "id"), title: try required(1, "title"), summary: try required(2, "summary"),
                        permalink: try read(3, "permalink"), published: try required(4, "pubdate_unix_time"),
                        updated: try read(5, "updated_unix_time"), author: try read(6, "author"),
                        undated: try read(7, "pubdate_is_first_seen") == Int64(1))
                }
                // Compared as the query above compares. Text is never at or before a cutoff, so
                // never among the items: not counted. A real is rounded down (read sooner).
                let later = notAfter == .max ? nil : try Int64.fetchOne(
                    db, sql: """
                        SELECT CAST(MIN(pubdate_unix_time) AS INTEGER) FROM items
                        WHERE pubdate_unix_time > ? AND typeof(pubdate_unix_time) IN ('integer', 'real')
                        """,
                    arguments: [notAfter])
                return (items, later)
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
    /// (unless `flushing` is ``DurableFiles/Flushing/later``) and renamed over `destination`,
    /// so nobody ever sees a partial file. The content digest is computed from the rows as
    /// written, read back in the same transaction.
    ///
    /// SQLite neither flushes nor keeps a journal file here (`synchronous = OFF`,
    /// `journal_mode = MEMORY`): the temporary is nobody's until it is renamed, a write cut
    /// short is removed (by this call, or as a stale temporary by the next publication), and
    /// the one flush that matters is made once the file is whole, by the caller's choice. Its own
    /// flushes (journal, database, directory) were paid once per file. The bytes written are
    /// the same either way (the file's header records neither setting).
    static func write(
        _ destination: String, schema: [String], version: Int, flushing: DurableFiles.Flushing, fill: (Database) throws -> Int
    ) throws(StorageError) -> SnapshotFile {
        let temporary = destination + ".tmp-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporary)
        // A write that fails (a full disk, no inodes left) leaves nothing behind: the
        // temporary and its journal are this process's own.
        var written = false
        defer {
            if !written {
                unlink(temporary)
                unlink(temporary + "-journal")
            }
        }
        let (count, contentDigest) = try StorageError.wrap(temporary, "writing snapshot") { () -> (Int, String) in
            let queue = try DatabaseQueue(path: temporary)
            let written = try queue.writeWithoutTransaction { db -> (Int, String) in
                try db.execute(sql: "PRAGMA synchronous = OFF")
                try db.execute(sql: "PRAGMA journal_mode = MEMORY")
                try db.execute(sql: "PRAGMA page_size = 4096")
                try db.execute(sql: "PRAGMA user_version = \(version)")
                var written = (0, "")
                try db.inTransaction {
                    for statement in schema { try db.execute(sql: statement) }
                    written.0 = try fill(db)
                    written.1 = try ContentDigest.compute(db, tables: try ContentDigest.tables(of: db))
                    return .commit
                }
                return written
            }
            try queue.close()
            return written
        }
        guard let data = FileManager.default.contents(atPath: temporary) else {
            throw StorageError(path: temporary, message: "snapshot vanished before it was published")
        }
        try StorageError.files { () throws(FileError) in
            if flushing == .now { try DurableFiles.sync(temporary) }
            try DurableFiles.rename(temporary, to: destination, flushing: flushing)
        }
        written = true
        return SnapshotFile(
            path: destination, sha256: SHA256.hexDigest([UInt8](data)), size: data.count, rowCount: count, contentDigest: contentDigest)
    }
}

extension Snapshot {
    /// SHA-256 over the client tables' rows: equal exactly when the catalog snapshot would be.
    public static func catalogFingerprint(_ source: String) throws(StorageError) -> String {
        try StorageError.wrap(source, "reading the catalog") {
            let queue = try DatabaseQueue(path: source, configuration: readOnly)
            return try queue.read { db in
                var hasher = SHA256()
                for table in catalogClientTables {
                    let columns = try ColumnsAsPublished.selectList(table.columns.map(\.name), from: table.name, addedLater: table.addedLater, db: db)
                    let query = "SELECT \(columns) FROM \(table.name) ORDER BY feedid"
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
