import FeedBasics
import GRDB

/// Which Feedmill a database was written by, as far as this one can tell: the migrations it
/// records (`grdb_migrations`) and its `PRAGMA user_version`.
///
/// A database written by a newer Feedmill may hold columns, rows or meanings this one does
/// not know; writing it would undo or corrupt them, and reading it may misread them. So a
/// database that records a migration this Feedmill does not know, or a `user_version` above
/// the ones it writes, is refused with a message naming both, before anything is read or
/// written. This Feedmill writes `user_version` 0 in its working databases and the published
/// schema version (``Snapshot/feedSchemaVersion``, ``Snapshot/catalogSchemaVersion``: 2) in the
/// copies it publishes (which a person may copy back to restore a feed); a later Feedmill that
/// changes the working format so that older ones must not touch it raises it past both.
struct SchemaGeneration {
    /// Every migration identifier this Feedmill may find recorded (merged steps included).
    let knownMigrations: Set<String>
    /// The highest `user_version` this Feedmill writes: its published copies'.
    let userVersion: Int

    /// Why `db` must not be used by this Feedmill, if it must not.
    func newerWriter(_ db: Database) throws -> String? {
        let recorded = try db.tableExists("grdb_migrations")
            ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
        let unknown = recorded.subtracting(knownMigrations).sorted()
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard !unknown.isEmpty || version > userVersion else { return nil }
        var found: [String] = []
        if !unknown.isEmpty { found.append("migrations this one does not know (\(unknown.joined(separator: ", ")))") }
        if version > userVersion { found.append("schema version \(version) (this one writes up to \(userVersion))") }
        return "was written by a newer Feedmill: it records " + found.joined(separator: " and ")
            + "; Feedmill \(FeedmillVersion.current) neither reads nor writes it. Run the Feedmill that wrote it, or restore a backup"
    }

    /// Throws ``StorageError/Kind/newer`` for a database written by a newer Feedmill.
    func refuseNewer(_ db: Database, path: String) throws {
        if let reason = try newerWriter(db) { throw StorageError(path: path, message: reason, kind: .newer) }
    }
}
