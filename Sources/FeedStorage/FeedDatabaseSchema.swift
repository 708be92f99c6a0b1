import GRDB

/// The per-feed database's migrations. Names never change once shipped; each runs in its own
/// transaction; each recognises a database that already has what it adds, so a file written
/// by the original (pre-Feedmill) schema, with no migration bookkeeping, is upgraded in place.
enum FeedDatabaseSchema {
    /// The original table's columns, which existing clients query.
    static let originalColumns: [(name: String, definition: String)] = [
        ("id", "TEXT PRIMARY KEY NOT NULL"), ("title", "TEXT NOT NULL"), ("summary", "TEXT NOT NULL"),
        ("pubdate_unix_time", "INTEGER NOT NULL"),
    ]

    static let originalItems = createItems(originalColumns, ifNotExists: true)

    /// The items table as the migrations leave it, as one statement, in the very text SQLite
    /// keeps after them: `ALTER TABLE … ADD COLUMN` inserts `, name definition` before the
    /// closing parenthesis of the stored statement.
    static let currentItems = String(originalItems.dropLast())
        + addedColumns.flatMap(\.columns).map { ", \($0.name) \($0.definition)" }.joined() + ")"

    /// `CREATE TABLE items (…)` with these columns, one per line: the feed database's table and
    /// the published copy's are written by this one function. (SQLite stores the statement
    /// without `IF NOT EXISTS`, so both give the same schema text.)
    static func createItems(_ columns: [(name: String, definition: String)], ifNotExists: Bool) -> String {
        "CREATE TABLE \(ifNotExists ? "IF NOT EXISTS " : "")items (\n"
            + columns.map { "    \($0.name) \($0.definition)" }.joined(separator: ",\n") + ")"
    }

    /// Every column's definition, by name.
    static var columnDefinitions: [String: String] {
        Dictionary((originalColumns + addedColumns.flatMap(\.columns)).map { ($0.name, $0.definition) }, uniquingKeysWith: { first, _ in first })
    }

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
        (
            // What a reader shows beside the text (issue 40), NULL when the entry has none. The
            // three lists are canonical JSON arrays (``ReaderFieldsJSON``).
            "items-reader-fields",
            [("image_url", "TEXT"), ("enclosures_json", "TEXT"), ("categories_json", "TEXT"), ("authors_json", "TEXT")]
        ),
    ]

    /// Every migration in order: the migrator registers them, and a new file gets them all at once.
    static let steps: [(identifier: String, apply: @Sendable (Database) throws -> Void)] = {
        var steps: [(identifier: String, apply: @Sendable (Database) throws -> Void)] = []
        steps.append(("items-original", { db in try db.execute(sql: originalItems) }))
        for step in addedColumns {
            steps.append((step.migration, { db in
                // SQLite column names are case-insensitive, and z_rss compared them so: a file with
                // `PermaLink` already has `permalink`.
                let existing = Set(try db.columns(in: "items").map { $0.name.lowercased() })
                for column in step.columns where !existing.contains(column.name.lowercased()) {
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

    /// One migration that merges every step and every earlier merged migration (GRDB's
    /// `registerMigration(_:merging:)`): a file written by an older Feedmill runs only the
    /// steps it has not had, and then records the current name alone.
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let merging = Set(steps.map(\.identifier)).union(earlierMerges.keys)
        // `.immediate`: the schema has no foreign keys, so deferred checks would verify nothing.
        migrator.registerMigration(currentIdentifier, foreignKeyChecks: .immediate, merging: merging) { db, recorded in
            let applied = recorded.union(recorded.flatMap { earlierMerges[$0] ?? [] })
            for step in steps where !applied.contains(step.identifier) {
                try step.apply(db)
            }
        }
        return migrator
    }

    /// The merged migrations earlier Feedmills recorded, and the steps each stands for.
    /// Names never change once shipped: a file recording one of them has exactly those steps.
    static let earlierMerges: [String: Set<String>] = [
        // Feedmill before issue 40: everything but `items-reader-fields`.
        "feed-schema-merged-1": ["items-original", "items-permalink", "items-entry-metadata", "items-change-seq-index", "feed-identity"]
    ]

    /// A new, empty file: the merged migration and the feed's stamp in the caller's single
    /// transaction, recorded as the migrator records it, so the migrator finds nothing to do.
    /// Not `migrator().migrate`: GRDB creates `grdb_migrations` in a transaction of its own
    /// before migrating, one more commit (four more `fdatasync`s) for every feed database
    /// created, which cost the storage benchmark a tenth of its throughput.
    ///
    /// The table is created by one statement in its final shape, not by the original statement
    /// and an `ALTER TABLE` per added column: SQLite parses the whole schema again after each
    /// `ALTER`, which made creating a feed database a fifth of a cold run's instructions.
    static func createCurrent(_ db: Database, stamping identity: FeedIdentity?) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        try db.execute(sql: currentItems)
        let tableSteps = Set(["items-original"] + addedColumns.map(\.migration))
        for step in steps where !tableSteps.contains(step.identifier) { try step.apply(db) }
        if let identity { try identity.stamp(db) }
        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [currentIdentifier])
    }

    /// Named after the schema it brings a file to; a later change adds a migration after it.
    static let currentIdentifier = "feed-schema-merged-2"

    /// What this Feedmill may find recorded in a feed database, and the `user_version` it writes.
    static let generation = SchemaGeneration(
        knownMigrations: Set(steps.map(\.identifier) + [currentIdentifier]).union(earlierMerges.keys), userVersion: Snapshot.feedSchemaVersion)

    /// Puts back what the migrations added and something later took away (a column dropped by
    /// hand, the index, the stamp's table), so that a file whose bookkeeping says "migrated"
    /// but whose table says otherwise is repaired in place, not failed on every run. A file
    /// without `items`, or without one of its original four columns, has lost what its rows
    /// are and is damaged. Returns the columns added.
    static func restoreMissing(_ db: Database, path: String) throws -> [String] {
        let existing = Set(try db.columns(in: "items").map { $0.name.lowercased() })
        guard !existing.isEmpty else {
            throw StorageError(path: path, message: "has no items table", kind: .damaged)
        }
        let lost = originalColumns.map(\.name).filter { !existing.contains($0) }
        guard lost.isEmpty else {
            throw StorageError(path: path, message: "its items table has lost its \(lost.joined(separator: ", ")) column(s)", kind: .damaged)
        }
        let missing = addedColumns.flatMap(\.columns).filter { !existing.contains($0.name.lowercased()) }
        let restoredIndex = try !db.indexes(on: "items").contains { $0.name == "items_change_seq" }
        let restoredStampTable = try !db.tableExists("feedmill_feed")
        guard !missing.isEmpty || restoredIndex || restoredStampTable else { return [] }
        try db.inTransaction {
            for column in missing { try db.execute(sql: "ALTER TABLE items ADD COLUMN \(column.name) \(column.definition)") }
            for step in steps where step.identifier == "items-change-seq-index" || step.identifier == "feed-identity" { try step.apply(db) }
            return .commit
        }
        return missing.map(\.name)
    }
}
