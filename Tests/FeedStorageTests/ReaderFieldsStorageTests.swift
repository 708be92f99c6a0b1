import FeedModel
@testable import FeedStorage
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// The reader fields (issue 40) on real SQLite files: added in place to databases of every
/// earlier shape, written and rewritten by the upsert, published, and read by the original
/// client queries unchanged.
@Suite("Reader fields: migrations, upserts and published copies")
struct ReaderFieldsStorageTests {
    static let originalItemsQuery = "SELECT id, title, summary, pubdate_unix_time, permalink FROM items"
    static let originalCatalogQuery = "select feeds.feedid, url, title from feeds, about where (feeds.feedid = about.feedid)"
    static let readerColumns = ["image_url", "enclosures_json", "categories_json", "authors_json"]

    private func copy(_ fixture: URL, into directory: TemporaryDirectory, as name: String) throws -> String {
        let path = directory.url.path + "/" + name
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        return path
    }

    private func inode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
    }

    private func columns(_ path: String, _ table: String) throws -> [String] {
        try sqlite(path, "SELECT name FROM pragma_table_info('\(table)') ORDER BY cid").compactMap { $0.first ?? nil }
    }

    private func entry(_ number: Int, title: String, summary: String, pubdate: Int64, updated: Int64? = nil, author: String? = nil) -> Entry {
        Entry(
            id: "https://site.example/\(number)", idSource: .native, permalink: "https://site.example/\(number)", title: title,
            summary: SafeHTML(summary), pubdate: pubdate, updated: updated, author: author)
    }

    /// The two entries the fixture's Feedmill wrote, as the feed still gives them.
    private var fixtureEntries: [Entry] {
        [
            entry(1, title: "First post", summary: "<p>One</p>", pubdate: 1_700_000_000, author: "Ann"),
            entry(2, title: "Second post", summary: "<p>Two</p>", pubdate: 1_700_086_400, updated: 1_700_090_000),
        ]
    }

    @Test func aDatabaseOfTheSchemaBeforeIssue40IsMigratedInPlace() throws {
        let directory = try TemporaryDirectory()
        let path = try copy(try schemaMergedOneDatabase(), into: directory, as: "feed_1.sqlite")
        let oldColumns = try columns(path, "items")
        let before = try sqlite(path, "SELECT rowid, \(oldColumns.joined(separator: ", ")) FROM items ORDER BY rowid")
        let clientRows = try sqlite(path, Self.originalItemsQuery + " ORDER BY id")
        let inode = try inode(path)

        _ = try FeedDatabase(path: path, identity: FeedIdentity(feedID: 1, originURL: "https://site.example/feed.xml"))

        #expect(try self.inode(path) == inode, "the same file")
        #expect(try sqlite(path, "SELECT rowid, \(oldColumns.joined(separator: ", ")) FROM items ORDER BY rowid") == before, "same rows, same rowids")
        #expect(try columns(path, "items") == oldColumns + Self.readerColumns)
        #expect(try sqlite(path, "SELECT COUNT(*) FROM items WHERE " + Self.readerColumns.map { "\($0) IS NULL" }.joined(separator: " AND ")) == [["3"]])
        #expect(try sqlite(path, "SELECT identifier FROM grdb_migrations") == [["feed-schema-merged-2"]])
        #expect(try sqlite(path, Self.originalItemsQuery + " ORDER BY id") == clientRows)
        // The same schema, to the text SQLite keeps, as a file created new.
        try FeedDatabase(path: directory.url.path + "/feed_2.sqlite").upsert([], now: 5_000)
        let schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        #expect(try sqlite(path, schema) == sqlite(directory.url.path + "/feed_2.sqlite", schema))
        // Opening again changes nothing.
        let bytes = FileManager.default.contents(atPath: path)
        _ = try FeedDatabase(path: path)
        #expect(FileManager.default.contents(atPath: path) == bytes)

        // Entries without reader fields hash as before: nothing is rewritten.
        let database = try FeedDatabase(path: path)
        #expect(try database.upsert(fixtureEntries, now: 1_800_000_000) == UpsertSummary(unchanged: 2))
        #expect(FileManager.default.contents(atPath: path) == bytes)
        // One that now has an enclosure is rewritten with it, under a new change number.
        var withEnclosure = fixtureEntries
        withEnclosure[0].enclosures = [Enclosure(url: "https://cdn.example/1.mp3", type: "audio/mpeg", length: 9, duration: 60)]
        #expect(try database.upsert(withEnclosure, now: 1_800_000_000) == UpsertSummary(updated: 1, unchanged: 1))
        #expect(try sqlite(path, "SELECT id, enclosures_json, change_seq FROM items WHERE change_seq = 3") == [
            ["https://site.example/1", #"[{"url":"https://cdn.example/1.mp3","type":"audio/mpeg","length":9,"duration":60}]"#, "3"]
        ])

        // The published copy: schema version 2, the client columns in order, the old query as it was.
        let out = try TemporaryDirectory()
        let published = out.url.path + "/feed_1.sqlite"
        _ = try Snapshot.writeFeed(from: path, to: published)
        #expect(try sqlite(published, "PRAGMA user_version") == [["2"]])
        #expect(try columns(published, "items") == Snapshot.itemColumns)
        #expect(Array(Snapshot.itemColumns.suffix(4)) == Self.readerColumns)
        #expect(try sqlite(published, Self.originalItemsQuery + " ORDER BY id") == clientRows)
    }

    /// The original (pre-Feedmill) schema goes the whole way in one open.
    @Test func anOriginalSchemaDatabaseGetsTheReaderFieldsToo() throws {
        let directory = try TemporaryDirectory()
        let path = try copy(try originalSchemaDatabase(), into: directory, as: "feed_1.sqlite")
        let clientRows = try sqlite(path, "SELECT id, title, summary, pubdate_unix_time FROM items ORDER BY id")
        _ = try FeedDatabase(path: path)
        #expect(Array(try columns(path, "items").suffix(4)) == Self.readerColumns)
        #expect(try sqlite(path, "SELECT id, title, summary, pubdate_unix_time FROM items ORDER BY id") == clientRows)
        #expect(try sqlite(path, Self.originalItemsQuery).count == 3)
        let out = try TemporaryDirectory()
        _ = try Snapshot.writeFeed(from: path, to: out.url.path + "/feed_1.sqlite")
        #expect(try sqlite(out.url.path + "/feed_1.sqlite", Self.originalItemsQuery).map { Array($0.prefix(4)) } == clientRows.sorted { ($0[0] ?? "") < ($1[0] ?? "") })
    }

    @Test func readerFieldsRoundTripIntoTheirExactBytesAndOnlyAChangeRewritesTheRow() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        let database = try FeedDatabase(path: path)
        var podcast = entry(1, title: "Episode 1", summary: "<p>Show notes</p>", pubdate: 1_000, author: "Ann, B\u{E9}a")
        podcast.image = "https://cdn.example/cover.jpg"
        podcast.enclosures = [
            Enclosure(url: "https://cdn.example/ep1.mp3", type: "audio/mpeg", length: 24_986_239, duration: 1_804),
            Enclosure(url: "https://cdn.example/ep1.pdf", type: "application/pdf"),
        ]
        podcast.categories = [EntryCategory(term: "tech", label: "Tech \"&\" Science", scheme: "https://itunes.example/"), EntryCategory(term: "news/daily")]
        podcast.authors = [Person(name: "Ann", email: "ann@site.example"), Person(name: "B\u{E9}a", uri: "https://bea.example/")]
        let plain = entry(2, title: "Plain", summary: "<p>Text</p>", pubdate: 2_000)
        #expect(try database.upsert([podcast, plain], now: 5_000) == UpsertSummary(inserted: 2))

        let row = try sqlite(path, "SELECT image_url, enclosures_json, categories_json, authors_json, change_seq FROM items WHERE id = 'https://site.example/1'")
        #expect(row == [[
            "https://cdn.example/cover.jpg",
            #"[{"url":"https://cdn.example/ep1.mp3","type":"audio/mpeg","length":24986239,"duration":1804},{"url":"https://cdn.example/ep1.pdf","type":"application/pdf"}]"#,
            #"[{"term":"tech","label":"Tech \"&\" Science","scheme":"https://itunes.example/"},{"term":"news/daily"}]"#,
            "[{\"name\":\"Ann\",\"email\":\"ann@site.example\"},{\"name\":\"B\u{E9}a\",\"uri\":\"https://bea.example/\"}]",
            "1",
        ]])
        #expect(try sqlite(path, "SELECT image_url, enclosures_json, categories_json, authors_json FROM items WHERE id = 'https://site.example/2'") == [[nil, nil, nil, nil]])

        // The same entries again: nothing written, the file byte-identical.
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(try database.upsert([podcast, plain], now: 6_000) == UpsertSummary(unchanged: 2))
        #expect(FileManager.default.contents(atPath: path) == bytes)

        // Each reader field alone is a change: the row is rewritten under a new change number.
        var changes: [Entry] = []
        var longer = podcast
        longer.enclosures[0].length = 24_986_240
        changes.append(longer)
        var reordered = longer
        reordered.categories.reverse()
        changes.append(reordered)
        var noImage = reordered
        noImage.image = nil
        changes.append(noImage)
        var oneAuthor = noImage
        oneAuthor.authors.removeLast()
        changes.append(oneAuthor)
        for (index, changed) in changes.enumerated() {
            #expect(try database.upsert([changed, plain], now: 7_000) == UpsertSummary(updated: 1, unchanged: 1), "change \(index)")
            #expect(try sqlite(path, "SELECT change_seq FROM items ORDER BY id") == [["\(index + 2)"], ["1"]], "change \(index)")
        }
        #expect(try sqlite(path, "SELECT image_url, enclosures_json LIKE '%24986240%', authors_json FROM items WHERE id = 'https://site.example/1'")
            == [[nil, "1", #"[{"name":"Ann","email":"ann@site.example"}]"#]])

        // Published as stored.
        let out = try TemporaryDirectory()
        _ = try Snapshot.writeFeed(from: path, to: out.url.path + "/feed_1.sqlite")
        let columns = Self.readerColumns.joined(separator: ", ")
        #expect(try sqlite(out.url.path + "/feed_1.sqlite", "SELECT \(columns) FROM items ORDER BY id") == sqlite(path, "SELECT \(columns) FROM items ORDER BY id"))
    }

    @Test func aCatalogOfTheSchemaBeforeIssue40IsMigratedInPlaceAndPublishesTheNewAbout() throws {
        let directory = try TemporaryDirectory()
        let path = try copy(try catalogBeforeReaderFields(), into: directory, as: Catalog.fileName)
        let clientRows = try sqlite(path, Self.originalCatalogQuery + " ORDER BY feeds.feedid")
        let inode = try inode(path)

        let catalog = try Catalog(path: path)
        #expect(try self.inode(path) == inode)
        #expect(try columns(path, "about") == ["feedid", "title", "link", "description", "image_url", "language"])
        #expect(try sqlite(path, "SELECT rowid, feedid, title, link, description, image_url, language FROM about ORDER BY rowid")
            == [["1", "1", "Site", nil, nil, nil, nil], ["2", "2", "Other", nil, nil, nil, nil]])
        #expect(try sqlite(path, Self.originalCatalogQuery + " ORDER BY feeds.feedid") == clientRows)
        #expect(try sqlite(path, "SELECT identifier FROM grdb_migrations WHERE identifier = 'catalog-about-reader-fields'") == [["catalog-about-reader-fields"]])
        // The same schema text as a catalog created new.
        let fresh = try TemporaryDirectory()
        _ = try Catalog(path: fresh.url.path + "/" + Catalog.fileName)
        let schema = "SELECT sql FROM sqlite_master WHERE name IN ('feeds', 'about', 'last_update') ORDER BY name"
        #expect(try sqlite(path, schema) == sqlite(fresh.url.path + "/" + Catalog.fileName, schema))

        // Written and read back with the title; the fingerprint follows every new column.
        let out = try TemporaryDirectory()
        let published = out.url.path + "/" + Catalog.fileName
        var feed = try #require(try catalog.feed(id: 1))
        var fingerprints = [try Snapshot.catalogFingerprint(path)]
        feed.link = "https://site.example/"
        feed.about = FeedDescription(description: "About the site", imageURL: "https://site.example/logo.png", language: "en-us")
        try catalog.save(feed)
        #expect(try catalog.feed(id: 1) == feed)
        fingerprints.append(try Snapshot.catalogFingerprint(path))
        for change in [\FeedDescription.description, \FeedDescription.imageURL, \FeedDescription.language] {
            feed.about[keyPath: change] = nil
            try catalog.save(feed)
            fingerprints.append(try Snapshot.catalogFingerprint(path))
        }
        feed.link = nil
        try catalog.save(feed)
        fingerprints.append(try Snapshot.catalogFingerprint(path))
        for (earlier, later) in zip(fingerprints, fingerprints.dropFirst()) {
            #expect(earlier != later, "every change moves the fingerprint: \(fingerprints)")
        }

        feed.link = "https://site.example/"
        feed.about = FeedDescription(description: "D", imageURL: nil, language: "fr")
        try catalog.save(feed)
        let file = try Snapshot.writeCatalog(from: path, to: published)
        #expect(file.problems.isEmpty)
        #expect(try sqlite(published, "PRAGMA user_version") == [["2"]])
        #expect(try columns(published, "about") == ["feedid", "title", "link", "description", "image_url", "language"])
        #expect(try sqlite(published, "SELECT * FROM about ORDER BY feedid") == [["1", "Site", "https://site.example/", "D", nil, "fr"], ["2", "Other", nil, nil, nil, nil]])
        #expect(try sqlite(published, Self.originalCatalogQuery + " ORDER BY feeds.feedid") == clientRows)
        #expect(try sqlite(published, schema) == sqlite(path, schema), "the published tables have the catalog's schema text")
    }

    @Test func wrongValuesInTheNewAboutColumnsArePublishedAsNullAndRepaired() throws {
        let directory = try TemporaryDirectory()
        let path = try copy(try catalogBeforeReaderFields(), into: directory, as: Catalog.fileName)
        _ = try Catalog(path: path)
        // BLOBs: a number written into these TEXT columns is stored as text (their affinity).
        try tamper(path, "UPDATE about SET link = X'41', description = X'4869', image_url = X'42', language = 'en' WHERE feedid = 1")
        let out = try TemporaryDirectory()
        let file = try Snapshot.writeCatalog(from: path, to: out.url.path + "/" + Catalog.fileName)
        for column in ["about.link", "about.description", "about.image_url"] {
            // Named as the catalog's readers name them: `about.link of feed 1 holds a 1-byte BLOB`.
            #expect(file.problems.contains { $0.contains(column) && $0.contains("published as NULL") }, "\(column): \(file.problems)")
        }
        #expect(try sqlite(out.url.path + "/" + Catalog.fileName, "SELECT link, description, image_url, language FROM about WHERE feedid = 1") == [[nil, nil, nil, "en"]])
        let reopened = try Catalog(path: path)
        #expect(reopened.repairs.count == 3, "\(reopened.repairs)")
        #expect(try sqlite(path, "SELECT typeof(link), link, description, image_url, language FROM about WHERE feedid = 1") == [["text", "A", "Hi", "B", "en"]])
    }
}
