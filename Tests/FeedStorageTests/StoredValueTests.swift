import FeedModel
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The storage half of "stored values never stop a command": feed databases and the catalog
/// read, repair and copy values written by hand (the commands' half is in FeedPipelineTests).
@Suite("Stored values never stop storage")
struct StoredValueTests {
    @Test(arguments: [
        ("pubdate_unix_time", "'x'"), ("pubdate_unix_time", "1e300"), ("pubdate_unix_time", "X'00'"), ("first_seen_unix_time", "'x'"),
        ("change_seq", "'x'"), ("change_seq", "1e300"), ("title", "X'00ff'"), ("summary", "X''"), ("id", "X'6531'"),
        ("pubdate_is_first_seen", "'yes'"), ("updated_unix_time", "2.5"), ("author", "X'4a6f'"), ("permalink", "X'41'"),
        ("id_source", "X'00'"), ("content_hash", "X'00'"),
        ("image_url", "X'41'"), ("image_url", "X''"), ("enclosures_json", "X'5b5d'"), ("enclosures_json", "'not json'"),
        ("categories_json", "'{\"term\":\"x\"}'"), ("categories_json", "2.5"), ("authors_json", "'[{'"), ("authors_json", "1"),
    ])
    func retentionRepairsAWronglyTypedValueInsteadOfStopping(column: String, value: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try FeedDatabase(path: path).upsert((0..<5).map { entry("e\($0)", pubdate: 1_000 + Int64($0)) }, now: 5_000)
        try tamper(path, "UPDATE items SET \(column) = \(value) WHERE id = 'e1'")
        let summary = try FeedDatabase(path: path).upsert([entry("e4", pubdate: 1_004)], now: 6_000, retention: Retention(keepItems: 3))
        #expect(summary.repairs.contains { $0.contains("items.\(column)") }, "\(summary.repairs)")
        #expect(try sqlite(path, "SELECT COUNT(*) FROM items WHERE \(anyWronglyTypedItemValue)") == [["0"]])
        #expect(try sqlite(path, "SELECT COUNT(*) FROM items") == [["3"]], "retention went on to keep the newest three")
        // Repaired once: the next run finds nothing to repair.
        let next = try FeedDatabase(path: path).upsert([entry("e4", pubdate: 1_004)], now: 7_000, retention: Retention(keepItems: 3))
        #expect(next.repairs.isEmpty)
    }

    @Test func aRepairKeepsWhatTheRowStillSaysAndIsPublishedAsAChange() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try FeedDatabase(path: path).upsert([entry("a", pubdate: 1_000), entry("b", pubdate: 2_000)], now: 4_000)
        let before = try Snapshot.feedFingerprint(path)
        try tamper(path, "UPDATE items SET pubdate_unix_time = 'soon', title = X'4869' WHERE id = 'a'")
        let lines = try FeedDatabase(path: path).repairValues(now: 9_000)
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("repaired items.") && $0.contains("of item 'a'") }, "\(lines)")
        let row = try sqlite(path, "SELECT pubdate_unix_time, pubdate_is_first_seen, title, content_hash IS NULL, change_seq FROM items WHERE id = 'a'")
        #expect(row == [["4000", "1", "Hi", "1", "2"]], "first-seen time as the date, the BLOB's text, a new change number")
        #expect(try Snapshot.feedFingerprint(path) != before, "the publisher sees the repair")
        #expect(try FeedDatabase(path: path).repairValues(now: 9_000).isEmpty)
    }

    @Test func idsThatAreBLOBsOrHoldANulBecomeIdsOfTheirOwnAndArePublished() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try FeedDatabase(path: path).upsert([entry("a"), entry("b"), entry("c"), entry("d")], now: 4_000)
        try tamper(path, """
            UPDATE items SET id = X'00ab' WHERE id = 'a'; UPDATE items SET id = X'00cd' WHERE id = 'b';
            UPDATE items SET id = CAST(X'630064' AS TEXT) WHERE id = 'c'; UPDATE items SET id = X'6565' WHERE id = 'd';
            """)
        // Read up to their NULs, two of them would be one id: the copy for clients is refused.
        let out = try TemporaryDirectory()
        #expect(throws: StorageError.self) { try Snapshot.writeFeed(from: path, to: out.url.path + "/feed_1.v1.sqlite") }
        let lines = try FeedDatabase(path: path).repairValues(now: 5_000)
        #expect(lines.count == 4, "\(lines)")
        #expect(try sqlite(path, "SELECT id FROM items ORDER BY id")
            == [["ee"], ["urn:feedmill:repaired-id:00ab"], ["urn:feedmill:repaired-id:00cd"], ["urn:feedmill:repaired-id:630064"]])
        #expect(try Snapshot.writeFeed(from: path, to: out.url.path + "/feed_1.v1.sqlite").rowCount == 4)
    }

    @Test func aChangeNumberAtTheLargestIntegerIsRenumberedSoChangesKeepBeingPublished() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try FeedDatabase(path: path).upsert([entry("a"), entry("b")], now: 4_000)
        try tamper(path, "UPDATE items SET change_seq = 9223372036854775807 WHERE id = 'a'")
        let before = try Snapshot.feedFingerprint(path)
        try FeedDatabase(path: path).upsert([entry("a"), entry("b", title: "changed")], now: 5_000)
        #expect(try Snapshot.feedFingerprint(path) != before)
        #expect(try sqlite(path, "SELECT id, change_seq FROM items ORDER BY id") == [["a", "1"], ["b", "3"]])
    }

    @Test func aWronglyTypedCatalogValueIsReadAsAbsentByReadersAndRepairedByWriters() throws {
        let harness = try Harness()
        try harness.add(["https://a.example/f", "https://b.example/f"])
        let path = harness.directory.url.path + "/all_feeds.sqlite"
        var first = try harness.feed(1)
        (first.title, first.lastUpdate) = ("A", 100)
        try harness.catalog.save(first)
        try tamper(path, """
            UPDATE fetch_state SET keep_items = 'x', keep_days = -5, next_attempt_unix_time = 1e300, gone = 7, etag = X'00ff' WHERE feedid = 1;
            UPDATE last_update SET when_unix_time = 'yesterday' WHERE feedid = 1;
            UPDATE about SET title = X'4162' WHERE feedid = 1;
            INSERT INTO about (feedid, title) VALUES ('zz', 'orphan');
            UPDATE feedmill_catalog SET value = 'many';
            """)
        // A reader: every value reads, the wrong ones as absent, each named.
        let reader = try Catalog(readingAt: path)
        let feed = try #require(try reader.feed(id: 1))
        #expect(feed.state.retention == .keepEverything && feed.lastUpdate == nil && feed.state.nextAttempt == nil)
        #expect(feed.unreadable.contains("fetch_state.keep_items holds text 'x'"), "\(feed.unreadable)")
        #expect(feed.unreadable.contains { $0.contains("keep_days holds -5") } && feed.unreadable.contains { $0.contains("next_attempt_unix_time") })
        // The clients' copy: only values of the client tables' types.
        let directory = try TemporaryDirectory()
        let snapshot = try Snapshot.writeCatalog(from: path, to: directory.url.path + "/all_feeds.v1.sqlite")
        #expect(snapshot.problems.count == 3, "\(snapshot.problems)")
        #expect(try sqlite(snapshot.path, "SELECT feedid, typeof(title) FROM about ORDER BY feedid") == [["1", "null"]])
        #expect(try sqlite(snapshot.path, "SELECT feedid, typeof(when_unix_time) FROM last_update") == [["1", "null"]])
        // A writer: each value repaired once, and said.
        let writer = try Catalog(path: path)
        #expect(writer.repairs.count == 13, "twelve values (four in feedmill_catalog) and the orphan row: \(writer.repairs)")
        #expect(try sqlite(path, "SELECT typeof(value) FROM feedmill_catalog WHERE key = 'changes_epoch'") == [["integer"]])
        #expect(writer.repairs.contains("removed 1 about row(s) whose feedid is not an integer"))
        #expect(writer.repairs.contains { $0.contains("fetch_state.keep_items of feed 1 holds text 'x'") })
        #expect(try writer.feed(id: 1)?.unreadable == [])
        #expect(try sqlite(path, "SELECT typeof(keep_items), typeof(keep_days), typeof(next_attempt_unix_time), gone, typeof(etag) FROM fetch_state WHERE feedid = 1")
            == [["null", "null", "null", "1", "text"]], "gone = 7 is true, as it read")
        #expect(try sqlite(path, "SELECT title FROM about") == [["Ab"]], "a BLOB holding text is that text")
        #expect(try sqlite(path, "SELECT COUNT(*) FROM about") == [["1"]], "the orphan row is gone")
        #expect(try writer.feedIDHighWater() == 2)
        #expect(try Catalog(path: path).repairs.isEmpty)
    }
}
