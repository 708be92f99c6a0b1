import FeedModel
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The catalog's change log (issue 51): what a publisher reads instead of every feed.
@Suite("Catalog: the change log")
struct CatalogChangesTests {
    private func changes(_ harness: Harness, from mark: Int64) throws -> CatalogChanges {
        try #require(try harness.catalog.changes(from: mark))
    }

    /// A new run's mark, as a run holding the lock raises it, read as a publisher would.
    private func newRun(_ harness: Harness, at now: Int64) throws -> Int64 {
        try harness.catalog.beginChanges(now: now)
        return try changes(harness, from: .max).highest
    }

    @Test func everyWriteToTheClientTablesMarksItsFeedAndNothingElseDoes() throws {
        let harness = try Harness()
        let ids = try harness.add(["https://a.example/f", "https://b.example/f", "https://c.example/f"])
        #expect(try changes(harness, from: 0).feedIDs == Set(ids), "a feed listed is a change")

        // A title: the feed, and the listing.
        var mark = try newRun(harness, at: 2_000)
        #expect(mark == 2_000)
        var a = try harness.feed(ids[0])
        a.title = "A"
        try harness.catalog.save(a)
        var now = try changes(harness, from: mark)
        #expect(now.feedIDs == [ids[0]] && now.highest == mark && now.listingHighest == mark)

        // Saved again unchanged (what every fetch of an unchanged feed does): no change.
        mark = try newRun(harness, at: 3_000)
        try harness.catalog.save(a)
        a.state.lastAttempt = 99
        a.state.etag = "\"v2\""
        try harness.catalog.save(a)
        now = try changes(harness, from: mark)
        #expect(now.feedIDs.isEmpty, "fetch state is not what clients read")

        // last_update moves only with the items, and marks the feed when it does.
        a.lastUpdate = 1_000
        try harness.catalog.save(a)
        #expect(try changes(harness, from: mark).feedIDs == [ids[0]])

        // By hand, as an operator with sqlite3 would: a description, a removal, a row of no feed.
        mark = try newRun(harness, at: 4_000)
        try tamper(harness.directory.url.path + "/all_feeds.sqlite", """
            INSERT INTO about (feedid, title) VALUES (\(ids[1]), 'B');
            UPDATE about SET description = 'about B' WHERE feedid = \(ids[1]);
            DELETE FROM feeds WHERE feedid = \(ids[2]);
            INSERT INTO last_update (feedid, when_unix_time) VALUES ('not a feed', 5);
            """)
        now = try changes(harness, from: mark)
        #expect(now.feedIDs == [ids[1], ids[2]], "the write by hand went through, and marked only real feeds")
    }

    @Test func marksNeverGoDownAndEveryMarkOfARunIsTheSame() throws {
        let harness = try Harness()
        let ids = try harness.add(["https://a.example/f", "https://b.example/f"])
        let first = try newRun(harness, at: 5_000)
        // A clock set back: the mark stays where it was.
        #expect(try newRun(harness, at: 4_000) == first)
        // Lowered by hand: the highest change made still holds the mark up.
        for id in ids {
            var feed = try harness.feed(id)
            feed.title = "T\(id)"
            try harness.catalog.save(feed)
        }
        try tamper(harness.directory.url.path + "/all_feeds.sqlite", "UPDATE feedmill_catalog SET value = 7 WHERE key = 'changes_clock'")
        #expect(try changes(harness, from: 0).highest == first)
        #expect(try sqlite(harness.directory.url.path + "/all_feeds.sqlite", "SELECT DISTINCT change_seq FROM feed_changes") == [["5000"]],
            "in whatever order a run's feeds are saved, they get one mark")
        // Without a time, a new mark is one above.
        try harness.catalog.beginChanges()
        #expect(try changes(harness, from: 0).highest == first + 1)
    }

    @Test func aFeedWrittenIsReadFromBeforeItsCommitUntilItsSaveAndAfter() throws {
        let harness = try Harness()
        let id = try #require(try harness.add(["https://a.example/f"]).first)
        let mark = try newRun(harness, at: 2_000)
        #expect(try changes(harness, from: mark).feedIDs.isEmpty)
        try harness.catalog.markWriting(id)
        // A publisher reading now reads the feed, whichever side of the commit it finds.
        #expect(try changes(harness, from: .max).feedIDs == [id], "being written: read whatever the mark")
        // Killed here: the next run holding the lock settles it into a change of its own mark.
        #expect(try harness.catalog.settleInterruptedWrites(now: 3_000) == 1)
        let settled = try changes(harness, from: 3_000)
        #expect(settled.feedIDs == [id] && settled.highest == 3_000)
        #expect(try changes(harness, from: .max).feedIDs.isEmpty)
        #expect(try harness.catalog.settleInterruptedWrites(now: 4_000) == 0)
        // The update's own save settles it the same way; a feed database is no listing change.
        try harness.catalog.markWriting(id)
        try harness.catalog.save(try harness.feed(id))
        let saved = try changes(harness, from: 4_000)
        #expect(saved.feedIDs == [id] && saved.listingHighest < 4_000)
    }

    @Test func anExistingCatalogGetsTheLogInPlaceWithEveryFeedMarkedAndAnEpochOfItsOwn() throws {
        let harness = try Harness()
        let ids = try harness.add(["https://a.example/f", "https://b.example/f"])
        let path = harness.directory.url.path + "/all_feeds.sqlite"
        // As a catalog from before the log: no table, no triggers, no epoch, no migration.
        try tamper(path, """
            DROP TABLE feed_changes;
            DELETE FROM feedmill_catalog WHERE key IN ('changes_epoch', 'changes_clock');
            DELETE FROM grdb_migrations WHERE identifier = 'catalog-change-log';
            """ + ["feeds", "about", "last_update"].flatMap { table in
                ["insert", "update", "delete"].map { "DROP TRIGGER feed_changes_\(table)_\($0);" }
            }.joined(separator: "\n"))
        #expect(throws: StorageError.self, "a catalog without the log is not published until an update migrates it") {
            try Catalog(readingAt: path)
        }
        let migrated = try Catalog(path: path)
        #expect(try migrated.changes(from: 0) == nil, "no epoch until a run holding the lock gives it one")
        #expect(try migrated.settleInterruptedWrites(now: 1_700_000_000) == 0)
        let log = try #require(try migrated.changes(from: 0))
        #expect(log.feedIDs == Set(ids) && log.epoch == 1_700_000_000)
        // Kept: the next run's time does not replace it.
        _ = try migrated.settleInterruptedWrites(now: 1_800_000_000)
        #expect(try migrated.changes(from: 0)?.epoch == 1_700_000_000)
        // Another catalog, made at another time, has another: a publisher can tell it was replaced.
        let other = try TemporaryDirectory()
        let second = try Catalog(path: other.url.path + "/all_feeds.sqlite")
        _ = try second.settleInterruptedWrites(now: 1_700_000_500)
        #expect(try #require(try second.changes(from: 0)).epoch != log.epoch)
    }
}
