import GRDB

/// The catalog's migrations. The first creates the three tables existing clients read, if they
/// are not there; later ones only add. Names never change once shipped.
enum CatalogSchema {
    /// The three tables existing clients read, as published too (SQLite stores the statement
    /// without `IF NOT EXISTS`, so the catalog and its published copy have the same schema text).
    static let clientTables = [
        "feeds (feedid INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)",
        "about (feedid INTEGER UNIQUE, title TEXT)",
        "last_update (feedid INTEGER UNIQUE, when_unix_time INTEGER)",
    ]

    /// The migrations below, and the `user_version` this Feedmill writes in the catalog.
    static let generation = SchemaGeneration(knownMigrations: Set(migrator().migrations), userVersion: Snapshot.catalogSchemaVersion)

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("catalog-original") { db in
            for table in clientTables { try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(table)") }
        }
        migrator.registerMigration("catalog-fetch-state") { db in
            // Everything the pipeline needs and clients do not: kept out of the client tables
            // so that publishing can copy those as they are.
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS fetch_state (
                    feedid INTEGER PRIMARY KEY,
                    site_link TEXT,
                    category TEXT,
                    opml_title TEXT,
                    in_opml INTEGER NOT NULL DEFAULT 1,
                    etag TEXT,
                    last_modified TEXT,
                    body_hash TEXT,
                    last_status INTEGER,
                    last_error_kind TEXT,
                    last_error TEXT,
                    consecutive_errors INTEGER NOT NULL DEFAULT 0,
                    last_attempt_unix_time INTEGER,
                    last_success_unix_time INTEGER,
                    next_attempt_unix_time INTEGER,
                    redirect_target TEXT,
                    redirect_sightings INTEGER NOT NULL DEFAULT 0,
                    gone INTEGER NOT NULL DEFAULT 0,
                    hint_interval_seconds INTEGER,
                    skip_hours TEXT,
                    skip_days TEXT)
                """)
        }
        migrator.registerMigration("catalog-identity") { db in
            // The URL each feed was first listed under (stamped into its database, never
            // changed by redirects), and the highest feedid ever given: feedids are never
            // reused, even after a prune deleted the rows that held them.
            if try !db.columns(in: "fetch_state").contains(where: { $0.name.lowercased() == "origin_url" }) {
                try db.execute(sql: "ALTER TABLE fetch_state ADD COLUMN origin_url TEXT")
            }
            try db.execute(sql: """
                UPDATE fetch_state SET origin_url = (SELECT url FROM feeds WHERE feeds.feedid = fetch_state.feedid)
                    WHERE origin_url IS NULL;
                CREATE TABLE IF NOT EXISTS feedmill_catalog (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
                INSERT OR IGNORE INTO feedmill_catalog (key, value)
                    VALUES ('feedid_high_water', (SELECT IFNULL(MAX(feedid), 0) FROM feeds));
                """)
        }
        migrator.registerMigration("catalog-retention") { db in
            // Per-feed retention (`rss-feeds set --keep-items/--keep-days`); NULL: the run's.
            let existing = Set(try db.columns(in: "fetch_state").map { $0.name.lowercased() })
            for column in ["keep_items", "keep_days"] where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE fetch_state ADD COLUMN \(column) INTEGER")
            }
        }
        return migrator
    }
}
