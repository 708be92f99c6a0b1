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

    /// Every migration in order: the migrator registers them, and a new file gets them all at once.
    static let steps: [(identifier: String, apply: @Sendable (Database) throws -> Void)] = {
        var steps: [(identifier: String, apply: @Sendable (Database) throws -> Void)] = []
        steps.append(("items-original", { db in try db.execute(sql: originalItems) }))
        for step in addedColumns {
            steps.append((step.migration, { db in
                let existing = Set(try db.columns(in: "items").map(\.name))
                for column in step.columns where !existing.contains(column.name) {
                    try db.execute(sql: "ALTER TABLE items ADD COLUMN \(column.name) \(column.definition)")
                }
            }))
        }
        steps.append(("items-change-seq-index", { db in
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS items_change_seq ON items(change_seq)")
        }))
        // Which feed the file belongs to (one row), checked on every open so that a file left
        // behind by a lost catalog or copied in by hand is never given to another feed.
        steps.append(("feed-identity", { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS feedmill_feed (feedid INTEGER NOT NULL, origin_url TEXT NOT NULL)")
        }))
        return steps
    }()

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in steps {
            migrator.registerMigration(step.identifier, migrate: step.apply)
        }
        return migrator
    }

    /// Applies every step to a new, empty file in one transaction and records them as the
    /// migrator does (`grdb_migrations`), so the result is the same file a step-by-step
    /// migration gives with one commit instead of five: creating a feed's database was most
    /// of the storage benchmark's gap to the C floor.
    static func createCurrent(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        for step in steps {
            try step.apply(db)
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [step.identifier])
        }
    }
}
