import FeedBasics
import GRDB
import GRDBSQLite

/// The content digest of a published snapshot (`content_digest` in the manifest,
/// `to_content_digest` in a delta): SHA-256 over the published rows, not over the file's bytes.
///
/// Why: a client that patched its copy with a delta holds the same rows as the published file
/// but not the same bytes (page layout, free pages), so the file's sha256 cannot check it. Any
/// client can compute this from its own SQLite file, in any language, with nothing but a query
/// per table; `docs/client-contract.md` gives the algorithm with a worked example. The byte
/// string hashed:
///
///     "feedmill-content-v1\n"
///     per table: name "\n", its column names joined by "," "\n",
///                each row (ordered by the table's key) as its values, then "\n"
///     a value:   NULL "n"; INTEGER "i" digits ";"; TEXT "t" byte-length ":" UTF-8 bytes
///
/// A feed snapshot has one table, `items`, ordered by `id` (SQLite's BINARY collation: UTF-8
/// bytes); the catalog has `feeds`, `about`, `last_update`, in that order, by `feedid`.
/// Columns are read from the file's own table (`PRAGMA table_info`), so a snapshot of any
/// schema version has a digest, and the one written here is the one a client computes.
public enum ContentDigest {
    /// What every digest starts with: `sha256:` then 64 lowercase hexadecimal digits.
    public static let prefix = "sha256:"
    static let header = "feedmill-content-v1\n"

    /// A table taking part in the digest, and the column its rows are ordered by.
    public struct Table: Sendable, Equatable {
        public var name: String
        public var key: String

        public init(_ name: String, key: String) {
            self.name = name
            self.key = key
        }
    }

    /// A feed snapshot's tables.
    public static let feedTables = [Table("items", key: "id")]
    /// The catalog snapshot's tables, in digest order.
    public static let catalogTables = [Table("feeds", key: "feedid"), Table("about", key: "feedid"), Table("last_update", key: "feedid")]

    /// The tables of a published snapshot, feed (it has `items`) or catalog.
    static func tables(of db: Database) throws -> [Table] {
        try db.tableExists("items") ? feedTables : catalogTables
    }

    /// Whether `text` is a digest as the manifest writes one.
    public static func isWellFormed(_ text: String) -> Bool {
        guard text.hasPrefix(prefix) else { return false }
        let hex = text.utf8.dropFirst(prefix.utf8.count)
        return hex.count == 64 && hex.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The digest of `tables` as `db` holds them.
    static func compute(_ db: Database, tables: [Table]) throws -> String {
        var hasher = SHA256()
        hasher.update(header)
        for table in tables {
            let columns = try db.columns(in: table.name).map(\.name)
            hasher.update(table.name + "\n" + columns.joined(separator: ",") + "\n")
            let quoted = columns.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            let statement = try db.makeStatement(sql: "SELECT \(quoted.joined(separator: ", ")) FROM \"\(table.name)\" ORDER BY \"\(table.key)\"")
            try hashRows(statement, columnCount: Int32(columns.count), into: &hasher, db: db)
        }
        return prefix + SHA256.hex(hasher.finalize())
    }

    /// Each row's values straight from SQLite's C API: the text's own bytes, whatever they
    /// hold (a NUL, invalid UTF-8), exactly as a client's SQLite returns them.
    private static func hashRows(_ statement: Statement, columnCount: Int32, into hasher: inout SHA256, db: Database) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
            }
            for column in 0..<columnCount {
                switch sqlite3_column_type(handle, column) {
                case SQLITE_NULL:
                    hasher.update("n")
                case SQLITE_INTEGER:
                    hasher.update("i\(sqlite3_column_int64(handle, column));")
                case let type:
                    // Text as its bytes; a REAL or a BLOB (never published) as SQLite renders it,
                    // marked so that it cannot match text.
                    let bytes = type == SQLITE_BLOB
                        ? sqlite3_column_blob(handle, column).map { UnsafeRawPointer($0) }
                        : sqlite3_column_text(handle, column).map { UnsafeRawPointer($0) }
                    let count = Int(sqlite3_column_bytes(handle, column))
                    let mark = type == SQLITE_TEXT ? "t" : type == SQLITE_BLOB ? "b" : "r"
                    hasher.update("\(mark)\(count):")
                    hasher.update(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: count))
                }
            }
            hasher.update("\n")
        }
    }
}

extension Snapshot {
    /// The content digest of a published snapshot file, feed or catalog (told apart by its
    /// tables), computed as a client computes it from its copy.
    public static func contentDigest(ofSnapshot path: String) throws(StorageError) -> String {
        try StorageError.wrap(path, "reading snapshot") {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            return try queue.read { db in
                try ContentDigest.compute(db, tables: try ContentDigest.tables(of: db))
            }
        }
    }

    /// The schema version a published snapshot was written with (its `PRAGMA user_version`):
    /// a delta is only ever made between two snapshots of the same one.
    public static func schemaVersion(ofSnapshot path: String) throws(StorageError) -> Int {
        try StorageError.wrap(path, "reading snapshot") {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
        }
    }
}
