import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import Testing

/// `--keep-items` / `--keep-days` and their per-feed values, against a real server and files.
@Suite("Retention")
struct RetentionTests {
    /// `a<day>` dated 2023-11-<day>.
    static func dated(_ days: [Int]) -> String {
        let names = [1: "Wed", 2: "Thu", 3: "Fri", 4: "Sat", 5: "Sun", 6: "Mon", 14: "Tue"]
        return rss("R", items: days.map { day in
            ("a\(day)", "Day \(day)", "https://site.example/\(day)", "\(names[day] ?? "Wed"), \(String(format: "%02d", day)) Nov 2023 00:00:00 +0000")
        })
    }

    @Test func keepItemsRemovesTheOldestItemsTheFeedNoLongerListsAndDeltasSayDelete() throws {
        let publish = try PublishHarness()
        let harness = publish.harness
        let feeds = try FeedServer()
        feeds.set("/r.xml", Self.dated([1, 2, 3, 4, 5]))
        let id = try #require(try harness.add([feeds.url("/r.xml")]).first)
        harness.retention = Retention(keepItems: 3)
        _ = try harness.update()
        #expect(try harness.items(id).keys.sorted() == ["a1", "a2", "a3", "a4", "a5"], "an item the feed lists is never removed")
        _ = try publish.publish()

        feeds.set("/r.xml", Self.dated([4, 5, 6]))
        harness.now += 7200
        let report = try harness.update(.all)
        #expect(report.feeds.first?.outcome == .updated(UpsertSummary(inserted: 1, unchanged: 2, removed: 3)))
        #expect(try harness.items(id).keys.sorted() == ["a4", "a5", "a6"])
        _ = try publish.publish()
        let manifest = try publish.manifest()
        let delta = try #require(manifest.feeds.first?.deltas.first)
        let decoded = try JSONDecoder().decode(Delta.self, from: Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/" + delta.file)))
        #expect(decoded.deletes == ["a1", "a2", "a3"])
        #expect(decoded.upserts.count == 1)
    }

    @Test func keepDaysRemovesOldItemsAndARemovedItemThatReappearsComesBackUnderItsID() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/r.xml", Self.dated([4, 14]))
        let id = try #require(try harness.add([feeds.url("/r.xml")]).first)
        harness.retention = Retention(keepDays: 7)
        _ = try harness.update()
        let original = try #require(try harness.items(id)["a4"])

        feeds.set("/r.xml", Self.dated([14]))
        harness.now += 7200
        #expect(try harness.update(.all).removedItems == 1)
        #expect(try harness.items(id).keys.sorted() == ["a14"])

        feeds.set("/r.xml", Self.dated([4, 14]))
        harness.now += 7200
        #expect(try harness.update(.all).newItems == 1)
        #expect(try harness.items(id)["a4"] == original, "same id, title, permalink and date as before")
    }

    @Test func aFeedsOwnRetentionInTheCatalogOverridesTheRunsDefaultOfKeepingEverything() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/r.xml", Self.dated([1, 2, 3]))
        feeds.set("/s.xml", Self.dated([1, 2, 3]))
        let ids = try harness.add([feeds.url("/r.xml"), feeds.url("/s.xml")])
        _ = try harness.update()
        var feed = try harness.feed(ids[0])
        feed.state.retention = Retention(keepItems: 1)
        try harness.catalog.save(feed)
        #expect(try harness.feed(ids[0]).state.retention == Retention(keepItems: 1))
        feeds.set("/r.xml", Self.dated([5]))
        feeds.set("/s.xml", Self.dated([5]))
        harness.now += 7200
        _ = try harness.update(.all)
        #expect(try harness.items(ids[0]).keys.sorted() == ["a5"])
        #expect(try harness.items(ids[1]).keys.sorted() == ["a1", "a2", "a3", "a5"], "by default nothing is removed")
    }
}
