import FeedFetching
import FeedModel
import FeedPipeline
import FeedStorage
import FeedUpdateCommandSupport
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

@Suite("rss-update against a real server and real files")
struct UpdateRunTests {
    @Test func anOriginalDatabaseGetsPermalinksOnTheNextUpdate() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/f.xml", rss("F", items: [("item-1", "First post", "https://site.example/1", nil), ("item-2", "Second post", "https://site.example/2", nil)]))
        let id = try #require(try harness.add([feeds.url("/f.xml")]).first)
        let fixture = try originalSchemaDatabase()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: harness.databasePath(id))
        let rowids = try sqlite(harness.databasePath(id), "SELECT rowid, id FROM items ORDER BY rowid")

        let report = try harness.update()
        #expect(report.feeds.first?.outcome == .updated(UpsertSummary(inserted: 0, updated: 2)))
        let items = try harness.items(id)
        #expect(items["item-1"]?[1] == "https://site.example/1")
        #expect(items["item-2"]?[1] == "https://site.example/2")
        #expect(items["dropped-item"]?[0] == "No longer in the feed", "entries that left the feed are kept")
        #expect(items["dropped-item"]?[1] == nil)
        #expect(items["item-1"]?[2] == "1240356720", "an undated entry keeps the pubdate it had")
        #expect(try sqlite(harness.databasePath(id), "SELECT rowid, id FROM items ORDER BY rowid") == rowids)
    }

    @Test func aRunWhereNothingChangedLeavesEveryFileByteIdentical() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/a.xml", rss("A", items: [("a1", "One", nil, "Tue, 21 Apr 2009 23:32:00 +0000"), ("a2", "Undated", nil, nil)]))
        feeds.set("/b.xml", rss("B", items: [("b1", "One", nil, nil)]))
        let ids = try harness.add([feeds.url("/a.xml"), feeds.url("/b.xml")])
        _ = try harness.update()
        let before = ids.map { harness.fileBytes(harness.databasePath($0)) }
        harness.now += 7200
        let second = try harness.update(.all)
        #expect(second.unchanged == 2)
        #expect(ids.map { harness.fileBytes(harness.databasePath($0)) } == before)
        #expect(try harness.feed(ids[0]).state.lastSuccess == harness.now, "a 304 is a successful update")
        #expect(try harness.feed(ids[0]).lastUpdate == harness.now - 7200, "but last_update is when the items last changed")
        // The same body served without ETag support: recognised by its hash.
        feeds.override("/b.xml", .init(body: Array(rss("B", items: [("b1", "One", nil, nil)]).utf8)))
        harness.now += 7200
        #expect(try harness.update(.all).unchanged == 2)
        #expect(ids.map { harness.fileBytes(harness.databasePath($0)) } == before)
    }

    @Test func aChangedEntryIsUpdatedAndANewOneInserted() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/a.xml", rss("A", items: [("a1", "One", nil, nil)]))
        let id = try #require(try harness.add([feeds.url("/a.xml")]).first)
        _ = try harness.update()
        feeds.set("/a.xml", rss("A", items: [("a2", "Two", nil, nil), ("a1", "One, edited", nil, nil)]))
        harness.now += 3600
        let report = try harness.update()
        #expect(report.feeds.first?.outcome == .updated(UpsertSummary(inserted: 1, updated: 1)))
        #expect(try harness.items(id)["a1"]?[0] == "One, edited")
    }

    @Test func editingADuplicatedEntrysSummaryUpdatesItsRowInPlace() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        func document(_ summary: String) -> String {
            """
            <rss version="2.0"><channel><title>Dup</title>
            <item><guid>same</guid><title>One</title><link>https://site.example/1</link><description>first</description></item>
            <item><guid>same</guid><title>Two</title><link>https://site.example/2</link><description>\(summary)</description></item>
            </channel></rss>
            """
        }
        feeds.set("/dup.xml", document("as first written"))
        let id = try #require(try harness.add([feeds.url("/dup.xml")]).first)
        _ = try harness.update()
        let before = try harness.items(id)
        #expect(before.count == 2)
        feeds.set("/dup.xml", document("edited by the publisher"))
        harness.now += 3600
        let report = try harness.update()
        #expect(report.feeds.first?.outcome == .updated(UpsertSummary(inserted: 0, updated: 1, unchanged: 1)))
        let after = try harness.items(id)
        #expect(Set(after.keys) == Set(before.keys), "same ids, same rows")
        let summaries = try sqlite(harness.databasePath(id), "SELECT summary FROM items ORDER BY summary")
        #expect(summaries == [["edited by the publisher"], ["first"]])
    }

    @Test func failuresAreRecordedBackedOffAndOthersCarryOn() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/ok.xml", rss("OK", items: [("1", "One", nil, nil)]))
        feeds.override("/html", .init(contentType: "text/html", body: "<!doctype html><p>hi</p>"))
        feeds.override("/busy", .init(status: 429, headers: [("Retry-After", "120")]))
        let ids = try harness.add([feeds.url("/ok.xml"), feeds.url("/html"), feeds.url("/missing"), feeds.url("/busy")])
        let report = try harness.update()
        #expect(report.updated == 1)
        #expect(report.failures.map(\.feedID) == Array(ids[1...]))
        #expect(report.exitCode == 1)
        let html = try harness.feed(ids[1])
        #expect(html.state.lastErrorKind == .notAFeed)
        #expect(html.state.consecutiveErrors == 1)
        let firstDelay = try #require(html.state.nextAttempt) - harness.now
        #expect(firstDelay >= 720 && firstDelay < 1080)
        #expect(try harness.feed(ids[2]).state.lastStatus == 404)
        #expect(try harness.feed(ids[3]).state.nextAttempt == harness.now + 120, "Retry-After, exactly")
        // Not due during the backoff; due after it, and the count grows.
        harness.now += 200
        #expect(try harness.update().feeds.map(\.feedID) == [ids[3]])
        harness.now += 2000
        _ = try harness.update()
        #expect(try harness.feed(ids[1]).state.consecutiveErrors == 2)
        #expect(try harness.feed(ids[1]).state.nextAttempt ?? 0 > harness.now + 1400)
    }

    /// Every feed's report reaches the progress callback exactly once; the run report counts
    /// them all and keeps only the failures, so it does not grow with the feeds fetched.
    @Test func everyFeedIsReportedAsItFinishesAndTheRunKeepsOnlyTheFailures() throws {
        let server = try feedFarm(count: 12, items: 2, delay: 0)
        let harness = try Harness()
        let ids = try harness.add((0..<12).map { server.baseURL + "/feed/\($0).xml" } + [server.baseURL + "/nope", server.baseURL + "/feed/x.xml"])
        let first = try harness.update()
        #expect(first.feeds.map(\.feedID) == ids, "one report per feed, none twice")
        #expect(first.tally.feeds == 14 && first.updated == 12 && first.newItems == 24)
        #expect(first.notable.map(\.feedID) == Array(ids[12...]))
        #expect(first.notable == first.feeds.filter { if case .failed = $0.outcome { return true } else { return false } })
        #expect(first.bytes == first.feeds.map(\.bytes).reduce(0, +) && first.bytes > 0)
        harness.now += 7_200
        let second = try harness.update(.feeds(Array(ids[..<12])))
        #expect(second.unchanged == 12 && second.notable.isEmpty && second.nothingHappened)
    }

    @Test func permanentRedirectsSeenThreeRunsInARowMoveTheURL() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/new.xml", rss("Moved", items: [("m1", "Kept", nil, nil)]))
        feeds.override("/old.xml", .init(status: 301, headers: [("Location", "/new.xml")]))
        feeds.override("/temp.xml", .init(status: 302, headers: [("Location", "/new.xml")]))
        let ids = try harness.add([feeds.url("/old.xml"), feeds.url("/temp.xml")])
        for run in 1...3 {
            let report = try harness.update(.all)
            #expect(report.feeds.first?.movedTo == (run == 3 ? feeds.url("/new.xml") : nil))
            harness.now += 7200
        }
        let moved = try harness.feed(ids[0])
        #expect(moved.url == feeds.url("/new.xml"))
        #expect(try harness.items(ids[0])["m1"]?[0] == "Kept", "same feedid, same items")
        #expect(try harness.feed(ids[1]).url == feeds.url("/temp.xml"), "a 302 never moves a feed")
    }

    @Test func goneFeedsAreMarkedAndSkipped() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.override("/gone.xml", .init(status: 410))
        let id = try #require(try harness.add([feeds.url("/gone.xml")]).first)
        #expect(try harness.update().gone == 1)
        #expect(try harness.feed(id).state.gone)
        harness.now += 100_000
        #expect(try harness.update().feeds.isEmpty)
        #expect(try harness.update(.all).feeds.isEmpty)
        #expect(try harness.update(.feeds([id])).feeds.count == 1, "--feed asks for it anyway")
    }

    @Test func aDryRunWritesNothing() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/a.xml", rss("A", items: [("a1", "One", nil, nil), ("a2", "Two", nil, nil)]))
        let id = try #require(try harness.add([feeds.url("/a.xml")]).first)
        let catalogBefore = try sqlite(harness.catalog.path, "SELECT * FROM fetch_state")
        let report = try harness.update(dryRun: true)
        #expect(report.feeds.first?.outcome == .wouldUpdate(UpsertSummary(inserted: 2)))
        #expect(!FileManager.default.fileExists(atPath: harness.databasePath(id)))
        #expect(try sqlite(harness.catalog.path, "SELECT * FROM fetch_state") == catalogBefore)
        #expect(try harness.feed(id).lastUpdate == nil)
    }

    @Test func createIsIdempotent() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/a.xml", rss("Alpha", items: [("a1", "One", nil, nil)]))
        feeds.set("/list.opml", """
            <opml version="2.0"><body><outline text="Group"><outline text="A" xmlUrl="a.xml"/></outline>
            <outline text="Broken" xmlUrl="missing.xml"/></body></opml>
            """)
        let first = try harness.create(feeds.url("/list.opml"))
        #expect(try first.importResult.added.map { try harness.feed($0).url } == [feeds.url("/a.xml"), feeds.url("/missing.xml")])
        #expect(try harness.feed(1).title == "Alpha")
        #expect(try harness.feed(1).state.category == "Group")
        let catalogRows = try sqlite(harness.catalog.path, "SELECT * FROM feeds JOIN about USING (feedid) JOIN last_update USING (feedid)")
        let database = harness.fileBytes(harness.databasePath(1))
        let requestsBefore = feeds.server.requests.count
        let second = try harness.create(feeds.url("/list.opml"))
        #expect(second.importResult.added.isEmpty)
        #expect(second.update.feeds.isEmpty, "titled feeds and feeds in backoff are not fetched again")
        #expect(feeds.server.requests.count == requestsBefore + 1, "only the list itself")
        #expect(try sqlite(harness.catalog.path, "SELECT * FROM feeds JOIN about USING (feedid) JOIN last_update USING (feedid)") == catalogRows)
        #expect(harness.fileBytes(harness.databasePath(1)) == database)
    }

    @Test func relativeURLsInALocalListAreRefusedWithAReasonNotStoredAsFileURLs() throws {
        let harness = try Harness()
        let path = try harness.directory.write("list.opml", "<opml><body><outline xmlUrl=\"feeds/a.xml\"/><outline xmlUrl=\"https://x.example/b\"/></body></opml>")
        let report = try harness.create(path)
        let urls = try harness.catalog.feeds().map(\.url)
        #expect(urls == ["https://x.example/b"])
        #expect(report.importResult.rejected == ["feeds/a.xml: a relative feed URL in a local file; give --base URL to resolve it"])
    }

    @Test func anotherRunHoldingTheLockIsReportedAtOnce() throws {
        let harness = try Harness()
        let lock = try RunLock(directory: harness.directory.url.path)
        #expect {
            _ = try RunLock(directory: harness.directory.url.path)
        } throws: { error in
            guard case DataDirectoryError.busy(_, let holder) = error else { return false }
            return holder == String(getpid())
        }
        withExtendedLifetime(lock) {}
    }
}
