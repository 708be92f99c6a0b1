import FeedBasics
import FeedModel
import GRDB
import GRDBSQLite

/// The feed a database file belongs to: its feedid and the URL the feed had when the catalog
/// first listed it (which never changes, even when redirects move the feed's URL).
public struct FeedIdentity: Sendable, Equatable {
    public var feedID: Int64
    public var originURL: String

    public init(feedID: Int64, originURL: String) {
        self.feedID = feedID
        self.originURL = originURL
    }

    /// Reads the stamp through SQLite's C API, read-only: checked before every conditional
    /// request, where opening a whole `DatabaseQueue` per feed cost a warm run of 1,000
    /// unchanged feeds about a third more CPU.
    static func read(path: String) throws(StorageError) -> FeedIdentity? {
        var connection: OpaquePointer?
        defer { sqlite3_close(connection) }
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw StorageError(path: path, message: "reading its identity failed: \(message(connection))", kind: kind(connection))
        }
        sqlite3_busy_timeout(connection, 10_000)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        let prepared = sqlite3_prepare_v2(connection, "SELECT feedid, origin_url FROM feedmill_feed LIMIT 1", -1, &statement, nil)
        if prepared == SQLITE_ERROR, message(connection).hasPrefix("no such table") { return nil }
        guard prepared == SQLITE_OK else {
            throw StorageError(path: path, message: "reading its identity failed: \(message(connection))", kind: kind(connection))
        }
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            let url = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
            return FeedIdentity(feedID: sqlite3_column_int64(statement, 0), originURL: url)
        case SQLITE_DONE:
            return nil
        default:
            throw StorageError(path: path, message: "reading its identity failed: \(message(connection))", kind: kind(connection))
        }
    }

    private static func message(_ connection: OpaquePointer?) -> String {
        connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open"
    }

    private static func kind(_ connection: OpaquePointer?) -> StorageError.Kind {
        let code = connection.map { sqlite3_errcode($0) & 0xFF } ?? SQLITE_CANTOPEN
        return code == SQLITE_CORRUPT || code == SQLITE_NOTADB ? .damaged : .other
    }

    static func read(_ db: Database, path: String) throws -> FeedIdentity? {
        guard let row = try Row.fetchOne(db, sql: "SELECT feedid, origin_url FROM feedmill_feed LIMIT 1") else { return nil }
        guard case .success(let feedID?) = StoredValue.read(row, 0, as: Int64.self),
            case .success(let originURL?) = StoredValue.read(row, 1, as: String.self)
        else {
            // A stamp that does not read cannot vouch for the file: it is damaged, not any feed's.
            throw StorageError(
                path: path, message: "its identity stamp does not read (\(StoredValue.describe(StoredValue.raw(row, 0))), "
                    + "\(StoredValue.describe(StoredValue.raw(row, 1))))", kind: .damaged)
        }
        return FeedIdentity(feedID: feedID, originURL: originURL)
    }

    /// The stamp in brief, also written to the SQLite header's `application_id` so that the
    /// check before every conditional request is one 4-byte read, not a database open: the
    /// first 32 bits of SHA-256 over feedid and origin URL (never 0, which means "none").
    public var applicationID: Int32 {
        var hasher = SHA256()
        hasher.update("\(feedID)\u{1F}\(originURL)")
        let digest = hasher.finalize()
        let value = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int32(bitPattern: value == 0 ? 1 : value)
    }

    func stamp(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM feedmill_feed")
        try db.execute(sql: "INSERT INTO feedmill_feed (feedid, origin_url) VALUES (?, ?)", arguments: [feedID, originURL])
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
    }
}
