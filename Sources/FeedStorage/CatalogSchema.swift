import GRDB

/// The catalog's migrations. The first creates the three tables existing clients read, if they
/// are not there; later ones only add. Names never change once shipped.
enum CatalogSchema {
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("catalog-original") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS feeds (feedid INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
                CREATE TABLE IF NOT EXISTS about (feedid INTEGER UNIQUE, title TEXT);
                CREATE TABLE IF NOT EXISTS last_update (feedid INTEGER UNIQUE, when_unix_time INTEGER);
                """)
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
        return migrator
    }
}
