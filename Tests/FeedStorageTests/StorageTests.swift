import FeedModel
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import GRDB
import GRDBSQLite
import TestSupport
import Testing

@Suite("Per-feed databases: migrations and upserts")
struct StorageTests {
    private func entry(_ id: String, title: String = "T", pubdate: Int64? = 1_000, permalink: String? = nil) -> Entry {
        Entry(id: id, idSource: .native, permalink: permalink, title: title, summary: "S", pubdate: pubdate, updated: nil, author: nil)
    }

    @Test func anOriginalSchemaDatabaseIsUpgradedInPlace() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        let fixture = try originalSchemaDatabase()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let before = try sqlite(path, "SELECT rowid, id, title, summary, pubdate_unix_time FROM items ORDER BY rowid")
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int

        _ = try FeedDatabase(path: path)

        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)
        #expect(try sqlite(path, "SELECT rowid, id, title, summary, pubdate_unix_time FROM items ORDER BY rowid") == before)
        let columns = try sqlite(path, "SELECT name FROM pragma_table_info('items')").compactMap(\.first).compactMap { $0 }
        #expect(Array(columns.prefix(5)) == ["id", "title", "summary", "pubdate_unix_time", "permalink"])
        #expect(columns.contains("first_seen_unix_time") && columns.contains("content_hash") && columns.contains("change_seq"))
        // Every migration is recorded as applied: the six steps, merged into one (GRDB's
        // `registerMigration(_:merging:)`), recorded under the merged migration's name.
        let applied = try sqlite(path, "SELECT identifier FROM grdb_migrations").compactMap(\.first)
        #expect(applied == ["feed-schema-merged-2"])
        // Opening again applies nothing and changes nothing.
        let bytes = FileManager.default.contents(atPath: path)
        _ = try FeedDatabase(path: path)
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    /// Text is bound in place (``DirectStatement``): what is read back must be what was given,
    /// empty, megabyte-long and multi-byte alike, and a row from before Feedmill (no hash) is
    /// rewritten, not taken for unchanged.
    @Test func textIsStoredExactlyAndRowsWithoutAHashAreRewritten() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT, summary TEXT, pubdate_unix_time INTEGER);
                INSERT INTO items VALUES ('old', 'Old', 'S', 900);
                """)
        }
        let large = String(repeating: "caf\u{E9} \u{1F600} <p>x</p>", count: 60_000)
        let database = try FeedDatabase(path: path)
        let entries = [
            Entry(id: "empty", idSource: .native, permalink: nil, title: "", summary: "", pubdate: nil, updated: nil, author: ""),
            Entry(id: "large", idSource: .native, permalink: "https://site.example/\u{E9}", title: "T", summary: SafeHTML(large), pubdate: 7, updated: 8, author: "A"),
            entry("old", title: "Old"),
        ]
        #expect(try database.upsert(entries, now: 5_000) == UpsertSummary(inserted: 2, updated: 1))
        let rows = try sqlite(path, "SELECT id, title, summary, permalink, author, updated_unix_time FROM items ORDER BY id")
        #expect(rows[0] == ["empty", "", "", nil, "", nil])
        #expect(rows[1] == ["large", "T", large, "https://site.example/\u{E9}", "A", "8"])
        #expect(rows[2][0] == "old" && rows[2][2] == "S")
        #expect(try sqlite(path, "SELECT COUNT(*) FROM items WHERE content_hash IS NULL") == [["0"]])
        #expect(try database.upsert(entries, now: 6_000) == UpsertSummary(unchanged: 3))
    }

    /// z_rss added `PermaLink` in that case and compared column names case-insensitively.
    @Test func aDatabaseWithPermaLinkInAnotherCaseIsAdoptedNotRejected() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT, summary TEXT, pubdate_unix_time INTEGER, PermaLink TEXT);
                INSERT INTO items VALUES ('old', 'Old', 'S', 900, 'https://site.example/old');
                """)
        }
        let database = try FeedDatabase(path: path)
        #expect(try database.upsert([entry("new", permalink: "https://site.example/new")], now: 5_000) == UpsertSummary(inserted: 1))
        let rows = try sqlite(path, "SELECT id, permalink FROM items ORDER BY id")
        #expect(rows == [["new", "https://site.example/new"], ["old", "https://site.example/old"]])
        let columns = try sqlite(path, "SELECT name FROM pragma_table_info('items')").compactMap(\.first)
        #expect(columns.filter { $0?.lowercased() == "permalink" }.count == 1)
    }

    @Test func aNewFileGetsTheSameSchemaAsStepByStepMigration() throws {
        let directory = try TemporaryDirectory()
        let stepwise = directory.url.path + "/feed_1.sqlite", created = directory.url.path + "/feed_2.sqlite"
        // An existing empty file goes through the migrator one step at a time.
        #expect(FileManager.default.createFile(atPath: stepwise, contents: Data()))
        // The schema is written by the first thing that uses the file: a read in a transaction
        // of its own, or an upsert in the upsert's.
        _ = try FeedDatabase(path: stepwise).itemCount()
        try FeedDatabase(path: created).upsert([], now: 5_000)
        for query in [
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('items') ORDER BY cid",
            "SELECT name, \"unique\" FROM pragma_index_list('items') ORDER BY name",
            "SELECT identifier FROM grdb_migrations ORDER BY identifier",
            // The statement SQLite keeps: the same text whichever way the table was made.
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name",
        ] {
            let expected = try sqlite(stepwise, query)
            #expect(!expected.isEmpty)
            #expect(try sqlite(created, query) == expected, "\(query)")
        }
    }

    /// A new feed's schema and first entries share one transaction: one journal file created
    /// and deleted, one round of syncs. SQLite's file change counter counts the commits.
    @Test func aNewFeedDatabaseIsWrittenInOneCommit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        let database = try FeedDatabase(path: path, identity: FeedIdentity(feedID: 1, originURL: "https://site.example/feed"))
        #expect(try database.upsert([entry("a"), entry("b")], now: 5_000) == UpsertSummary(inserted: 2))
        let header = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)).prefix(100))
        #expect(header[24..<28].elementsEqual([0, 0, 0, 1]), "one commit")
        #expect(try sqlite(path, "SELECT feedid FROM feedmill_feed") == [["1"]])
        #expect(try database.itemCount() == 2)
    }

    /// A first upsert rolled back leaves no file at all (see ``NewFeedFileTests``), and the
    /// next one still writes the schema.
    @Test func aNewFileWhoseFirstUpsertIsCancelledLeavesNothingAndStaysUsable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        let database = try FeedDatabase(path: path)
        let first = try database.beginUpsert(now: 5_000)
        try first.add(entry("a"))
        first.cancel()
        #expect(FeedDatabaseFile.condition(of: path) == .missing)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(try database.upsert([entry("b")], now: 5_000) == UpsertSummary(inserted: 1))
        #expect(try sqlite(path, "SELECT id FROM items") == [["b"]])
        #expect(FeedDatabaseFile.condition(of: path) == .healthy)
    }

    @Test func upsertsInsertNewUpdateChangedAndKeepTheRest() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        #expect(try database.upsert([entry("a"), entry("b")], now: 5_000) == UpsertSummary(inserted: 2))
        #expect(try database.upsert([entry("a", title: "A2"), entry("b"), entry("c")], now: 6_000) == UpsertSummary(inserted: 1, updated: 1, unchanged: 1))
        #expect(try database.upsert([entry("c")], now: 7_000) == UpsertSummary(unchanged: 1))
        let rows = try sqlite(database.path, "SELECT id, title, first_seen_unix_time, change_seq FROM items ORDER BY id")
        #expect(rows == [["a", "A2", "5000", "2"], ["b", "T", "5000", "1"], ["c", "T", "6000", "2"]])
    }

    @Test func anUndatedEntryIsDatedByFirstSightingAndSaysSo() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        try database.upsert([entry("u", pubdate: nil)], now: 5_000)
        try database.upsert([entry("u", title: "changed", pubdate: nil)], now: 9_000)
        #expect(try sqlite(database.path, "SELECT pubdate_unix_time, pubdate_is_first_seen, first_seen_unix_time FROM items") == [["5000", "1", "5000"]])
        try database.upsert([entry("u", title: "dated now", pubdate: 7_777)], now: 10_000)
        #expect(try sqlite(database.path, "SELECT pubdate_unix_time, pubdate_is_first_seen FROM items") == [["7777", "0"]])
    }

    @Test func anUnchangedUpsertLeavesTheFileByteIdentical() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        try database.upsert([entry("a"), entry("b", pubdate: nil)], now: 5_000)
        let bytes = try #require(FileManager.default.contents(atPath: database.path))
        #expect(try database.upsert([entry("a"), entry("b", pubdate: nil)], now: 9_000) == UpsertSummary(unchanged: 2))
        #expect(FileManager.default.contents(atPath: database.path) == bytes)
    }

    @Test func aRepeatedIDInOneBatchKeepsTheFirst() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        #expect(try database.upsert([entry("a", title: "first"), entry("a", title: "second")], now: 5_000) == UpsertSummary(inserted: 1))
        #expect(try sqlite(database.path, "SELECT title FROM items") == [["first"]])
    }

    @Test func previewWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        try database.upsert([entry("a")], now: 5_000)
        let bytes = FileManager.default.contents(atPath: database.path)
        #expect(try database.preview([entry("a", title: "new"), entry("z")], now: 6_000) == UpsertSummary(inserted: 1, updated: 1))
        #expect(FileManager.default.contents(atPath: database.path) == bytes)
    }

    /// SQLite's memory statistics take a global mutex on every allocation (``SQLiteLibrary``).
    /// They must be off even in this process, where other tests open SQLite directly and in
    /// parallel: SQLite refuses the setting once anything has opened a connection. With them
    /// off, SQLite counts nothing, so an open database holding pages reports 0 bytes in use.
    @Test func sqliteKeepsNoMemoryStatistics() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        try database.upsert((0..<200).map { entry("e\($0)", title: String(repeating: "t", count: 500)) }, now: 5_000)
        #expect(try database.itemCount() == 200)
        #expect(SQLiteLibrary.memoryStatisticsOff)
        #expect(sqlite3_memory_used() == 0)
    }

    /// Every file SQLite opens goes through the layer that records a failed read's or write's
    /// errno (issue 52), and a database written through it reads back whole.
    @Test func sqliteFilesGoThroughTheErrnoLayer() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        try database.upsert((0..<300).map { entry("e\($0)", title: String(repeating: "t", count: 900)) }, now: 5_000)
        #expect(SQLiteLibrary.errnoLayerRegistered)
        let vfs = try #require(sqlite3_vfs_find(nil))
        #expect(String(cString: vfs.pointee.zName) == "feedmill-errno")
        #expect(try database.itemCount() == 300)
    }
}

@Suite("Catalog: importing the feed list")
struct CatalogImportTests {
    @Test func urlsKeepTheirFeedidsAndNewOnesGetNewIDs() throws {
        let harness = try Harness()
        let first = try harness.catalog.importOutlines([CatalogOutline(url: "https://a/"), CatalogOutline(url: "https://b/")], prune: false)
        #expect(first.added == [1, 2])
        let second = try harness.catalog.importOutlines(
            [CatalogOutline(url: "https://c/"), CatalogOutline(url: "https://b/", category: "X"), CatalogOutline(url: "https://c/"), CatalogOutline(url: "https://c/")],
            prune: false)
        #expect(second.added == [3])
        #expect(try harness.feed(3).url == "https://c/")
        #expect(second.kept == 1)
        #expect(second.duplicates == ["https://c/"])
        #expect(second.missing.map(\.url) == ["https://a/"])
        #expect(try harness.feed(1).state.inOPML == false)
        #expect(try harness.feed(2).state.category == "X")
        let pruned = try harness.catalog.importOutlines([CatalogOutline(url: "https://b/")], prune: true)
        #expect(pruned.pruned)
        #expect(try harness.catalog.feeds().map(\.url) == ["https://b/"])
    }

    /// Feeds are read by column position: every field comes back as saved, each value distinct
    /// so that two columns read in each other's place cannot pass.
    @Test func everyFieldOfAFeedComesBackAsSaved() throws {
        let harness = try Harness()
        let id = try #require(try harness.add(["https://a.example/feed"]).first)
        var feed = try harness.feed(id)
        feed.title = "Title"
        feed.link = "https://site.example/"
        feed.about = FeedDescription(description: "Description", imageURL: "https://site.example/logo.png", language: "en-gb")
        feed.lastUpdate = 1_001
        feed.state = {
            var state = FetchState()
            (state.originURL, state.siteLink, state.category, state.opmlTitle) = ("https://o/", "https://s/", "A/B", "OPML title")
            (state.inOPML, state.etag, state.lastModified, state.bodyHash) = (false, "\"e\"", "Tue, 01 Jan 2030 00:00:00 GMT", "hash")
            (state.lastStatus, state.lastErrorKind, state.lastError, state.consecutiveErrors) = (503, .timeout, "slow", 3)
            (state.lastAttempt, state.lastSuccess, state.nextAttempt) = (1_002, 1_003, 1_004)
            (state.redirectTarget, state.redirectSightings, state.gone, state.hintInterval) = ("https://r/", 2, true, 7_200)
            (state.skipHours, state.skipDays, state.retention) = ([1, 2], ["Sunday"], Retention(keepItems: 50, keepDays: 9))
            return state
        }()
        try harness.catalog.save(feed)
        #expect(try harness.feed(id) == feed)
        #expect(try harness.catalog.feeds() == [feed])
        var streamed: [CatalogFeed] = []
        try harness.catalog.forEachFeed { streamed.append($0) }
        #expect(streamed == [feed])
    }

    @Test func theClientTablesHaveTheirOriginalShape() throws {
        let harness = try Harness()
        let path = harness.catalog.path
        #expect(try sqlite(path, "SELECT name FROM pragma_table_info('feeds')").compactMap(\.first) == ["feedid", "url"])
        // `about` as the original clients read it, then the columns issue 40 added after them.
        #expect(try sqlite(path, "SELECT name FROM pragma_table_info('about')").compactMap(\.first).prefix(2) == ["feedid", "title"])
        #expect(try sqlite(path, "SELECT name FROM pragma_table_info('about')").compactMap(\.first)
            == ["feedid", "title", "link", "description", "image_url", "language"])
        #expect(try sqlite(path, "SELECT name FROM pragma_table_info('last_update')").compactMap(\.first) == ["feedid", "when_unix_time"])
    }
}
