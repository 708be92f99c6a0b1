import FeedModel
import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A data directory and publication made by the Feedmill before issue 40 (feed and catalog
/// schema version 1, a manifest without format fields or content digests:
/// `Fixtures/publication-schema-1`), upgraded by today's `rss-update` and `rss-publish`.
@Suite("A publication made before issue 40, upgraded", .serialized)
struct SchemaUpgradeTests {
    let update = Executable(name: "rss-update")
    let publish = Executable(name: "rss-publish")
    /// After the fixture's last run: nothing is due, so rss-update only migrates.
    let now = "1700003601"

    private func upgrade(_ root: TemporaryDirectory, recover: Bool = false) throws -> (data: String, out: String) {
        let data = root.url.path + "/data", out = root.url.path + "/publish"
        let updated = try update.runCapturing(["--data-dir", data, "--allow-private-networks", "--now", now])
        #expect(updated.status == 0, "\(updated.stdout)\(updated.stderr)")
        let published = try publish.runCapturing(["--data-dir", data, "--out", out, "--now", now] + (recover ? ["--recover"] : []))
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        if recover { #expect(published.stderr.contains("recovered generation 2"), "\(published.stderr)") }
        return (data, out)
    }

    @Test func everyFeedAndTheCatalogAreRepublishedAtTheNewSchemaWithNoDeltaAcrossIt() throws {
        let root = try schema1Publication()
        let fixture = try PublishHarnessReader.formatOneManifest(root.url.path + "/publish")
        #expect(fixture.formatVersion == nil && fixture.feeds.map(\.version) == [1, 2, 1] && fixture.catalog?.version == 2)
        let (data, out) = try upgrade(root)
        let contract = try ContractArchive()
        try contract.keep(publication: out, label: "upgraded")
        let manifest = try PublishHarnessReader.manifest(out)
        let feedRose = Snapshot.feedSchemaVersion > 1, catalogRose = Snapshot.catalogSchemaVersion > 1
        // Upgraded in place to format 2: the format-1 manifest read as the previous record.
        #expect(manifest.format == "feedmill-publisher-record" && manifest.formatVersion == Manifest.recordFormatVersion && manifest.generation == 3)
        let publishedRoot = try PublicationReader.root(out)
        #expect(publishedRoot.formatVersion == 2 && publishedRoot.generation == 3 && publishedRoot.shards["1/1"]?.generation == 3)
        #expect(PublicationReader.problems(out).isEmpty, "\(PublicationReader.problems(out))")
        #expect(try PublicationReader.feeds(out).keys.sorted() == [1, 2, 3])
        #expect(manifest.feeds.allSatisfy { $0.file == "feed_\($0.feedID).\($0.sha256).sqlite" }, "current versions under format-2 names")
        #expect(manifest.feeds.allSatisfy { $0.schemaVersion == Snapshot.feedSchemaVersion && $0.contentDigest != nil })
        #expect(manifest.catalog?.schemaVersion == Snapshot.catalogSchemaVersion)
        if feedRose {
            // Republished though no source changed: a new version, a full file, no delta from schema 1.
            #expect(manifest.feeds.map(\.version) == [2, 3, 2])
            #expect(manifest.feeds.map { $0.history.map(\.version) } == [[1], [2, 1], [1]], "old versions still served")
        } else {
            #expect(manifest.feeds.map(\.version) == [1, 2, 1])
        }
        // No delta from schema 1, nor one written before deltas said their schema and digest.
        #expect(manifest.feeds.allSatisfy { $0.deltas.isEmpty })
        #expect(manifest.retired?.contains { $0.name == "feed_2.v1-v2.delta.json" } == true, "the old delta is retired as usual")
        #expect(manifest.retired?.contains { $0.name == ".feedmill-publisher.json" } == true, "so is format 1's record")
        #expect(manifest.catalog?.version == (catalogRose ? 3 : 2))
        #expect(!FileManager.default.fileExists(atPath: out + "/all_feeds.v1.sqlite"), "retired by the fixture's publication, removed by this one")
        for feed in manifest.feeds {
            #expect(try sqlite(out + "/" + feed.file, "PRAGMA user_version") == [["\(Snapshot.feedSchemaVersion)"]])
            // The original client query, unchanged.
            #expect(try sqlite(out + "/" + feed.file, "SELECT id, title, summary, pubdate_unix_time, permalink FROM items").count == feed.itemCount)
        }
        let catalogFile = out + "/" + (try #require(manifest.catalog)).file
        #expect(try sqlite(catalogFile, "PRAGMA user_version") == [["\(Snapshot.catalogSchemaVersion)"]])
        #expect(try sqlite(catalogFile, "select feeds.feedid, url, title from feeds, about where (feeds.feedid = about.feedid)").count == 3)
        let problems = try contract.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")

        // The next change: a delta from the version of today's schema only.
        let risen = manifest.feeds[1]
        try ChangedFeed(path: data + "/feed_2.sqlite").upsert(
            [Entry(id: "after-the-rise", idSource: .native, permalink: "https://example.org/later", title: "Later", summary: SafeHTML("<p>x</p>"),
                pubdate: 1_700_003_000, updated: nil, author: nil)],
            now: 1_700_003_700)
        let again = try publish.runCapturing(["--data-dir", data, "--out", out, "--now", "1700003700"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        try contract.keep(publication: out, label: "a change after the upgrade")
        let next = try PublishHarnessReader.manifest(out)
        #expect(next.feeds[1].version == risen.version + 1)
        #expect(next.feeds[1].deltas.map(\.fromVersion) == (feedRose ? [risen.version] : [risen.version, 1]))
        for delta in next.feeds[1].deltas {
            let from = try #require(next.feeds[1].history.first { $0.version == delta.fromVersion })
            #expect(try sqlite(out + "/" + from.file, "PRAGMA user_version") == [["\(Snapshot.feedSchemaVersion)"]])
        }
        // What the upgrade retired is gone now (no grace period for a directory by default).
        #expect(!FileManager.default.fileExists(atPath: out + "/feed_2.v1-v2.delta.json"))
        #expect(!FileManager.default.fileExists(atPath: out + "/.feedmill-publisher.json"))
        #expect(PublicationReader.problems(out).isEmpty, "\(PublicationReader.problems(out))")
        let later = try contract.problems()
        #expect(later.isEmpty, "\(later.joined(separator: "\n"))")
    }

    /// `rss-update` migrates the catalog on every run but a feed database only when it reads
    /// the feed; `rss-publish` only reads. So after an upgrade it meets feed databases no
    /// command has migrated yet, and publishes them at once (the added columns as NULL, which
    /// is what the migration gives them), not each feed after its next successful fetch.
    @Test func feedDatabasesNotYetMigratedArePublishedAtTheNewSchema() throws {
        let root = try schema1Publication()
        let data = root.url.path + "/data", out = root.url.path + "/publish"
        let unpublished = try publish.runCapturing(["--data-dir", data, "--out", out, "--now", now])
        #expect(unpublished.status == 70 && unpublished.stderr.contains("run rss-update once to migrate it"), "\(unpublished.stderr)")
        let updated = try update.runCapturing(["--data-dir", data, "--allow-private-networks", "--now", now])
        #expect(updated.status == 0, "\(updated.stdout)\(updated.stderr)")
        let before = try sqlite(data + "/feed_1.sqlite", "SELECT COUNT(*) FROM pragma_table_info('items') WHERE name = 'image_url'")
        #expect(before == [["0"]], "nothing was due: the feed databases are of the old schema")
        let published = try publish.runCapturing(["--data-dir", data, "--out", out, "--now", now])
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        let manifest = try PublishHarnessReader.manifest(out)
        #expect(manifest.feeds.count == 3)
        for feed in manifest.feeds {
            #expect(feed.schemaVersion == Snapshot.feedSchemaVersion)
            #expect(try sqlite(out + "/" + feed.file, "SELECT COUNT(*) FROM items WHERE image_url IS NULL AND enclosures_json IS NULL") == [["\(feed.itemCount)"]])
        }
        let catalogFile = out + "/" + (try #require(manifest.catalog)).file
        #expect(try sqlite(catalogFile, "SELECT COUNT(*) FROM about WHERE description IS NULL AND language IS NULL") == [["3"]])
        #expect(try sqlite(data + "/feed_1.sqlite", "SELECT COUNT(*) FROM pragma_table_info('items') WHERE name = 'image_url'") == before, "publishing wrote nothing into the data directory")
    }

    @Test func theOldPublishersRecordRecoversALostManifest() throws {
        let root = try schema1Publication()
        try FileManager.default.removeItem(atPath: root.url.path + "/publish/manifest.json")
        let (_, out) = try upgrade(root, recover: true)
        let manifest = try PublishHarnessReader.manifest(out)
        #expect(manifest.formatVersion == Manifest.recordFormatVersion && manifest.generation == 3)
        #expect(PublicationReader.problems(out).isEmpty, "\(PublicationReader.problems(out))")
        #expect(manifest.feeds.count == 3 && manifest.feeds.allSatisfy { $0.schemaVersion == Snapshot.feedSchemaVersion })
        let contract = try ContractArchive()
        try contract.keep(publication: out, label: "recovered")
        let problems = try contract.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
