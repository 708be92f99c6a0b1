import GRDB

/// The catalog's migrations. The first creates the three tables existing clients read, if they
/// are not there; later ones only add. Names never change once shipped.
enum CatalogSchema {
    /// The three tables existing clients read, as the original clients had them.
    static let originalClientTables = [
        "feeds (feedid INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)",
        "about (feedid INTEGER UNIQUE, title TEXT)",
        "last_update (feedid INTEGER UNIQUE, when_unix_time INTEGER)",
    ]

    /// What a reader shows beside a feed's title (issue 40), added to `about` by
    /// ``aboutReaderFields``, in this order: the site's home page, the feed's description,
    /// picture and language, NULL when the feed gives none.
    static let aboutReaderColumns = ["link", "description", "image_url", "language"]

    /// The client tables as the migrations leave them, as published too: the text SQLite keeps
    /// after `ALTER TABLE … ADD COLUMN` (`, name TEXT` inserted before the closing parenthesis;
    /// and without `IF NOT EXISTS`), so the catalog and its published copy have the same schema text.
    static let clientTables = originalClientTables.map { table in
        guard table.hasPrefix("about ") else { return table }
        return String(table.dropLast()) + aboutReaderColumns.map { ", \($0) TEXT" }.joined() + ")"
    }

    /// The migrations that add `fetch_state` columns (``FetchStateColumns``).
    static let fetchState = "catalog-fetch-state"
    static let identity = "catalog-identity"
    static let retention = "catalog-retention"
    static let aboutReaderFields = "catalog-about-reader-fields"
    /// `fetch_state.websub_hub` and `websub_topic` (issue 53).
    static let websub = "catalog-websub"
    /// The migrations written out below; later ones only add columns.
    static let written: Set<String> = [
        "catalog-original", fetchState, identity, retention, aboutReaderFields, CatalogChanges.migration, CatalogSchedule.indexMigration,
        websub,
    ]

    /// The migrations below, and the `user_version` this Feedmill writes in the catalog.
    static let generation = SchemaGeneration(knownMigrations: Set(migrator().migrations), userVersion: Snapshot.catalogSchemaVersion)

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("catalog-original") { db in
            // A new catalog gets the client tables in their current shape at once, the same
            // schema text the later migrations leave (they add only what is missing): four
            // `ALTER TABLE`s, each parsing the whole schema again, cost every new catalog 3% more
            // allocations. An existing catalog has them and keeps them as they are.
            for table in clientTables { try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(table)") }
        }
        migrator.registerMigration(fetchState) { db in
            // Everything the pipeline needs and clients do not: kept out of the client tables
            // so that publishing can copy those as they are.
            try db.execute(sql: FetchStateColumns.creation)
        }
        migrator.registerMigration(identity) { db in
            // The URL each feed was first listed under (stamped into its database, never
            // changed by redirects), and the highest feedid ever given: feedids are never
            // reused, even after a prune deleted the rows that held them.
            try FetchStateColumns.addColumns(of: identity, db)
            try db.execute(sql: """
                UPDATE fetch_state SET origin_url = (SELECT url FROM feeds WHERE feeds.feedid = fetch_state.feedid)
                    WHERE origin_url IS NULL;
                CREATE TABLE IF NOT EXISTS feedmill_catalog (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
                INSERT OR IGNORE INTO feedmill_catalog (key, value)
                    VALUES ('feedid_high_water', (SELECT IFNULL(MAX(feedid), 0) FROM feeds));
                """)
        }
        migrator.registerMigration(retention) { db in
            try FetchStateColumns.addColumns(of: retention, db)
        }
        // Columns added since, by the migrations ``FetchStateColumns`` names.
        for migration in FetchStateColumns.laterMigrations {
            migrator.registerMigration(migration) { db in try FetchStateColumns.addColumns(of: migration, db) }
        }
        migrator.registerMigration(aboutReaderFields) { db in
            // A catalog another tool already gave one of these columns keeps it.
            let existing = Set(try db.columns(in: "about").map { $0.name.lowercased() })
            for column in aboutReaderColumns where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE about ADD COLUMN \(column) TEXT")
            }
        }
        migrator.registerMigration(CatalogChanges.migration) { db in
            // What changed since a publication, so that publishing reads only that (issue 51).
            try CatalogChanges.create(db)
        }
        migrator.registerMigration(CatalogSchedule.indexMigration) { db in
            // The due feeds found by their next due time, so that an update reads only those (issue 51).
            try CatalogSchedule.createIndex(db)
        }
        migrator.registerMigration(websub) { db in try FetchStateColumns.addColumns(of: websub, db) }
        return migrator
    }
}
