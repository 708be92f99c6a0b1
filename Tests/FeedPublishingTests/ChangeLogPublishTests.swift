import FeedBasics
import FeedModel
import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A publication reads the feeds the catalog's change log names since its record's mark, not
/// every feed (issue 51), and never leaves a change unpublished.
@Suite("Publication: reading only what changed")
struct ChangeLogPublishTests {
    private func version(_ publish: PublishHarness, _ id: Int64) throws -> Int? {
        try publish.manifest().feeds.first { $0.feedID == id }?.version
    }

    /// A feed's items as published, from the file its record entry names.
    private func publishedIDs(_ publish: PublishHarness, _ id: Int64) throws -> [String?] {
        let file = try #require(try publish.manifest().feeds.first { $0.feedID == id }?.file)
        return try sqlite(publish.outPath + "/" + file, "SELECT id FROM items ORDER BY id").map { $0[0] }
    }

    /// A change written without the change log (no writer Feedmill ships does this).
    private func unlogged(_ publish: PublishHarness, _ id: Int64, _ item: Entry) throws {
        let upsert = try FeedDatabase(path: publish.harness.databasePath(id)).beginUpsert(now: 6_000)
        try upsert.add(item)
        _ = try upsert.commit()
    }

    @Test func onlyTheFeedsTheLogNamesAreOpened() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 2)
        _ = try publish.publish()
        // A publication reads what was marked at or above the mark it read last: once more the
        // feeds of the last run before it. One more run and publication, and feed 3 is behind.
        try publish.write(2, [entry("two")])
        _ = try publish.publish()
        // Feed 3's database is damaged by hand: no change the log records, so no publication
        // opens it (its clients keep its last good snapshot) until one reads every feed.
        let garbage = Data(repeating: 0x41, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: publish.harness.databasePath(3)))
        try publish.write(1, [entry("new")])
        let report = try publish.publish()
        #expect(report.failures.isEmpty && report.feedsWritten == 1, "\(report)")
        #expect(try version(publish, 1) == 2 && version(publish, 2) == 2 && version(publish, 3) == 1)
        let full = try publish.publish(full: true)
        #expect(full.failures.map(\.feedID) == [3], "a full publication reads it, and refuses it")
    }

    @Test func aWriteInFlightWhenAPublicationReadsIsPublishedByTheNext() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        _ = try publish.publish()
        // The update marks feed 1 as being written; the publication reads it before the commit.
        try publish.harness.catalog.markWriting(1)
        _ = try publish.publish()
        #expect(try version(publish, 1) == 1)
        let upsert = try FeedDatabase(path: publish.harness.databasePath(1)).beginUpsert(now: 6_000)
        try upsert.add(entry("in-flight"))
        _ = try upsert.commit()
        // Killed before the catalog learnt the commit: still being written, so still read.
        let next = try publish.publish()
        #expect(try next.feedsWritten == 1 && version(publish, 1) == 2)
        #expect(try publishedIDs(publish, 1).contains("in-flight"))
        // The next update settles the mark; the publication after reads feed 1 once more (unchanged).
        #expect(try publish.harness.catalog.settleInterruptedWrites(now: 2_000) == 1)
        let settled = try publish.publish()
        #expect(settled.feedsWritten == 0 && settled.failures.isEmpty)
        #expect(try publish.publish().unchanged)
    }

    @Test func aCatalogReplacedOrRestoredIsReadWhole() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        _ = try publish.publish()
        try publish.write(1, [entry("one")])
        _ = try publish.publish()
        let catalogPath = publish.harness.directory.url.path + "/all_feeds.sqlite"
        // A change the log cannot know of (written without it): not read...
        try unlogged(publish, 2, entry("unlogged"))
        _ = try publish.publish()
        #expect(try version(publish, 2) == 1)
        // ...until the log is another catalog's (rebuilt, replaced): every feed is read.
        try tamper(catalogPath, "UPDATE feedmill_catalog SET value = value + 1 WHERE key = 'changes_epoch'")
        _ = try publish.publish()
        #expect(try version(publish, 2) == 2 && publishedIDs(publish, 2).contains("unlogged"))
        // A catalog restored from a backup: its marks are below the record's. Read whole.
        try unlogged(publish, 2, entry("restored"))
        try tamper(catalogPath, "UPDATE feed_changes SET change_seq = 1, listing_seq = 1; UPDATE feedmill_catalog SET value = 1 WHERE key = 'changes_clock'")
        _ = try publish.publish()
        #expect(try version(publish, 2) == 3 && publishedIDs(publish, 2).contains("restored"))
    }

    @Test func aPublicationOfChosenFeedsLeavesTheOtherChangesToTheNext() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 1)
        _ = try publish.publish()
        try publish.write(1, [entry("one")])
        try publish.write(2, [entry("two")])
        _ = try publish.publish(only: [1])
        #expect(try version(publish, 1) == 2 && version(publish, 2) == 1)
        let rest = try publish.publish()
        #expect(try rest.feedsWritten == 1 && version(publish, 2) == 2)
        #expect(try publishedIDs(publish, 2).contains("two"))
    }

    @Test func aFeedRefusedStaysToReadUntilItIsPublished() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        _ = try publish.publish()
        try publish.write(1, [entry("bad")])
        try tamper(publish.harness.databasePath(1), "UPDATE items SET title = X'00' WHERE id = 'bad'")
        let refused = try publish.publish()
        #expect(refused.failures.map(\.feedID) == [1])
        // Another feed changes: the record moves its mark on, and keeps feed 1 to read.
        try publish.write(2, [entry("two")])
        let again = try publish.publish()
        #expect(try again.failures.map(\.feedID) == [1] && publish.manifest().pendingFeeds == [1])
        // Put right by hand, which the log does not see: read all the same, as pending.
        try tamper(publish.harness.databasePath(1), "UPDATE items SET title = 'fine' WHERE id = 'bad'")
        let caughtUp = try publish.publish()
        #expect(try caughtUp.failures.isEmpty && version(publish, 1) == 2)
        #expect(try publish.manifest().pendingFeeds == nil)
    }

    @Test func fetchesThatChangeNothingChangeNothingPublished() throws {
        let publish = try PublishHarness()
        let feeds = try FeedServer()
        feeds.set("/a.xml", rss("A", items: [("a1", "One", nil, "Tue, 21 Apr 2009 23:32:00 +0000")]))
        feeds.set("/b.xml", rss("B", items: [("b1", "One", nil, nil)]))
        _ = try publish.harness.add([feeds.url("/a.xml"), feeds.url("/b.xml")])
        _ = try publish.harness.update()
        _ = try publish.publish()
        let catalog = try #require(try publish.root().catalog)
        // Fetched again: a 304, and the same body without validators.
        feeds.override("/b.xml", .init(body: Array(rss("B", items: [("b1", "One", nil, nil)]).utf8)))
        for _ in 0..<2 {
            publish.harness.now += 7_200
            _ = try publish.harness.update(.all)
            let quiet = try publish.publish()
            #expect(quiet.unchanged && quiet.filesWritten == 0, "\(quiet)")
        }
        #expect(try publish.root().catalog == catalog, "the clients' catalog is the same file")
        #expect(try sqlite(publish.outPath + "/all_feeds.sqlite", "SELECT when_unix_time FROM last_update ORDER BY feedid")
            == [["\(publish.harness.now - 14_400)"], ["\(publish.harness.now - 14_400)"]], "last_update: when the items last changed")
        // A new item: the feed, its last_update and the catalog change.
        feeds.set("/a.xml", rss("A", items: [("a1", "One", nil, "Tue, 21 Apr 2009 23:32:00 +0000"), ("a2", "Two", nil, nil)]))
        publish.harness.now += 7_200
        _ = try publish.harness.update(.all)
        let changed = try publish.publish()
        #expect(changed.feedsWritten == 1)
        #expect(try publish.root().catalog?.version == catalog.version + 1)
        #expect(try sqlite(publish.outPath + "/all_feeds.sqlite", "SELECT when_unix_time FROM last_update WHERE feedid = 1") == [["\(publish.harness.now)"]])
    }
}

/// What a client fetches for a feed that changed: its pointer (issue 51).
@Suite("Publication: the pointer's size")
struct PointerSizeTests {
    @Test func aPointerWithTheDefaultThreeDeltasIsAsSmallAsTheContractSays() throws {
        let publish = try PublishHarness()
        publish.retained = 3
        try publish.seed(feeds: 12, items: 3)
        _ = try publish.publish()
        for round in 1...4 {
            try publish.write(12, [entry("round-\(round)")])
            _ = try publish.publish()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/feed_12.json"))
        let pointer = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        let entries = try #require(pointer?["entries"] as? [[String: Any]])
        #expect(entries.count == 2 && (entries[0]["deltas"] as? [Any])?.count == 3 && (entries[1]["deltas"] as? [Any])?.count == 0,
            "the newest entry with its three deltas, the last committed one without: \(entries.map { $0["version"] ?? "?" })")
        // Since issue 51 the pointer carries the feed's `about` too, as long as the feed's title
        // and description are: counted apart.
        let about = try #require(pointer?["about"] as? [String: Any])
        #expect(about["title"] as? String == "Feed 12" && about["url"] as? String == "https://feeds.example/12.xml")
        let aboutBytes = try JSONSerialization.data(withJSONObject: about, options: [.sortedKeys, .withoutEscapingSlashes]).count + 9
        #expect(bytes.count - aboutBytes <= 1_600, "docs/client-contract.md#what-a-sync-costs gives the figure: \(bytes.count) bytes")
        print("pointer of feed 12 with 3 deltas and the previous entry: \(bytes.count) bytes, \(aboutBytes) of them its about")
    }
}
