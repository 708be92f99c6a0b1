import Foundation

/// The client's own reading-state database, `.feedmill-reading-state.sqlite` beside the feeds:
/// one row per marked item (each field with its time and whether it is yet to be sent), and the
/// server's cursor. Never in a feed's file, so a snapshot replacing that file or a delta changing
/// it leaves the marks alone. A file that cannot be read as this database is made again (it is
/// the client's own, by its name); the feeds' files are not touched.
final class ReadingStateDatabase {
    static let fileName = ".feedmill-reading-state.sqlite"
    /// `PRAGMA application_id`: "FMRS".
    static let applicationID: Int64 = 0x464D_5253
    static let schemaVersion: Int64 = 1

    let connection: SQLiteConnection
    /// Whether opening it had to make it again.
    let rebuilt: Bool

    init(folder: URL) throws(ClientError) {
        let path = folder.appendingPathComponent(Self.fileName).path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .folder(path: folder.path, reason: "cannot be created: \(error.localizedDescription)")
        }
        do throws(ClientError) {
            connection = try Self.open(path)
            rebuilt = false
        } catch {
            // Not readable as this database: made again, empty; the server's marks come back
            // with the next sync.
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
            connection = try Self.open(path)
            rebuilt = true
        }
    }

    private static func open(_ path: String) throws(ClientError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, readOnly: false, create: true)
        chmod(path, 0o600)
        guard try connection.text("PRAGMA quick_check") == "ok" else { throw .database(path: path, message: "it fails SQLite's check") }
        let version = try connection.integer("PRAGMA user_version") ?? 0
        let application = try connection.integer("PRAGMA application_id") ?? 0
        if version == 0, application == 0 {
            try connection.execute("""
                BEGIN IMMEDIATE;
                CREATE TABLE IF NOT EXISTS marks (
                    feedid INTEGER NOT NULL, id TEXT NOT NULL,
                    read INTEGER, read_at INTEGER, read_pending INTEGER NOT NULL DEFAULT 0,
                    starred INTEGER, starred_at INTEGER, starred_pending INTEGER NOT NULL DEFAULT 0,
                    seen INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (feedid, id)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS sync (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                PRAGMA application_id = \(applicationID);
                PRAGMA user_version = \(schemaVersion);
                COMMIT;
                """)
        } else if application != applicationID || version != schemaVersion {
            throw .database(path: path, message: "it is not a reading-state database of this client (application id \(application), version \(version))")
        }
        return connection
    }

    func mark(feedID: Int64, id: String) throws(ClientError) -> (mark: ItemMark, readPending: Bool, starredPending: Bool)? {
        let statement = try connection.prepare(
            "SELECT read, read_at, read_pending, starred, starred_at, starred_pending FROM marks WHERE feedid = ? AND id = ?")
        try statement.bind([.integer(feedID), .text(Array(id.utf8))])
        guard try statement.step() else { return nil }
        return (
            ItemMark(feedID: feedID, id: id, read: Self.field(statement, 0), starred: Self.field(statement, 3)),
            statement.value(at: 2).integer == 1, statement.value(at: 5).integer == 1
        )
    }

    static func field(_ statement: SQLiteStatement, _ column: Int) -> MarkedValue? {
        guard let value = statement.value(at: column).integer, let at = statement.value(at: column + 1).integer else { return nil }
        return MarkedValue(value != 0, at: at)
    }

    /// Writes the mark's fields; `pending` ones are to be sent.
    func write(_ mark: ItemMark, readPending: Bool, starredPending: Bool) throws(ClientError) {
        let statement = try connection.prepare("""
            INSERT INTO marks (feedid, id, read, read_at, read_pending, starred, starred_at, starred_pending) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (feedid, id) DO UPDATE SET read = excluded.read, read_at = excluded.read_at, read_pending = excluded.read_pending,
                starred = excluded.starred, starred_at = excluded.starred_at, starred_pending = excluded.starred_pending
            """)
        func cells(_ value: MarkedValue?) -> [SQLiteValue] {
            value.map { [.integer($0.value ? 1 : 0), .integer($0.at)] } ?? [.null, .null]
        }
        try statement.run(
            [.integer(mark.feedID), .text(Array(mark.id.utf8))] + cells(mark.read) + [.integer(readPending ? 1 : 0)] + cells(mark.starred)
                + [.integer(starredPending ? 1 : 0)])
    }

    func value(_ key: String) throws(ClientError) -> String? {
        let statement = try connection.prepare("SELECT value FROM sync WHERE key = ?")
        try statement.bind([.text(Array(key.utf8))])
        guard try statement.step(), case .text(let bytes) = statement.value(at: 0) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    func set(_ key: String, _ value: String?) throws(ClientError) {
        if let value {
            try connection.prepare("INSERT OR REPLACE INTO sync (key, value) VALUES (?, ?)").run([.text(Array(key.utf8)), .text(Array(value.utf8))])
        } else {
            try connection.prepare("DELETE FROM sync WHERE key = ?").run([.text(Array(key.utf8))])
        }
    }
}

extension SQLiteConnection {
    /// The first column of the first row, as text.
    func text(_ sql: String) throws(ClientError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step(), case .text(let bytes) = statement.value(at: 0) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
