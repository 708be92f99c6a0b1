import GRDB

/// The per-feed database's migrations. Names never change once shipped; each runs in its own
/// transaction; each recognises a database that already has what it adds, so a file written
/// by the original (pre-Feedmill) schema, with no migration bookkeeping, is upgraded in place.
enum FeedDatabaseSchema {
    /// The original table, which existing clients query.
    static let originalItems = """
        CREATE TABLE IF NOT EXISTS items (
            id TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL,
            summary TEXT NOT NULL,
            pubdate_unix_time INTEGER NOT NULL)
        """

    /// Columns added after the original schema, in the order they were added. Adding never
    /// rebuilds the table: same file, same rows, same rowids.
    static let addedColumns: [(migration: String, columns: [(name: String, definition: String)])] = [
        ("items-permalink", [("permalink", "TEXT")]),
        (
            "items-entry-metadata",
            [
                ("updated_unix_time", "INTEGER"),
                ("author", "TEXT"),
                // When Feedmill first stored the entry; the fallback for pubdate_unix_time.
                ("first_seen_unix_time", "INTEGER"),
                // 1 when pubdate_unix_time is the first-seen time because the feed gave no date.
                ("pubdate_is_first_seen", "INTEGER NOT NULL DEFAULT 0"),
                // native, permalink or content-hash: how the id was chosen.
                ("id_source", "TEXT"),
                // SHA-256 of what a client shows; an equal hash means the row is not rewritten.
                ("content_hash", "TEXT"),
                // Raised on every insert or change, for incremental publishing.
                ("change_seq", "INTEGER NOT NULL DEFAULT 0"),
            ]
        ),
    ]

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("items-original") { db in
            try db.execute(sql: originalItems)
        }
        for step in addedColumns {
            migrator.registerMigration(step.migration) { db in
                let existing = Set(try db.columns(in: "items").map(\.name))
                for column in step.columns where !existing.contains(column.name) {
                    try db.execute(sql: "ALTER TABLE items ADD COLUMN \(column.name) \(column.definition)")
                }
            }
        }
        migrator.registerMigration("items-change-seq-index") { db in
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS items_change_seq ON items(change_seq)")
        }
        return migrator
    }
}
