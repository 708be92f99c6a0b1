import FeedBasics
import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Two shards' catalogs that disagree on a feed's URL (the feed list changed on one machine
/// before the other: a feedid freed by `rss-feeds remove` is given again by `add`): the merged
/// catalog never lists one feed's URL beside the items another feed's pointer carries.
@Suite("Shards whose catalogs disagree", .serialized)
struct ShardCatalogDisagreementTests {
    let one: Shard
    let two: Shard

    init() throws {
        one = try Shard(index: 1, count: 2)
        two = try Shard(index: 2, count: 2)
    }

    /// Host names of the given shard of two.
    func hosts(of shard: Shard, count: Int) -> [String] {
        (0..<256).map { "h\($0).example" }.filter { ShardAssignment.shardIndex(ofHost: $0, count: 2) == shard.index }.prefix(count).map { $0 }
    }

    /// A machine of `shard` whose catalog lists `urls` (in that order) and which fetched the
    /// feeds of its own shard: each feed's one entry and title name the URL it was fetched from.
    func machine(_ shard: Shard, urls: [String]) throws -> PublishHarness {
        let publish = try PublishHarness()
        let ids = try publish.harness.add(urls)
        for (id, url) in zip(ids, urls) where shard.owns(host: URL(string: url)?.host) {
            try publish.write(id, [entry("item of \(url)")])
            var feed = try publish.harness.feed(id)
            feed.title = "Title of \(url)"
            try publish.harness.catalog.save(feed)
        }
        return publish
    }

    /// What the root's catalog lists: feedid → (url, title).
    func listed(_ directory: String) throws -> [Int: [String?]] {
        let root = try PublicationReader.root(directory)
        let catalog = directory + "/" + (try #require(root.catalog)).file
        let rows = try sqlite(catalog, "SELECT feeds.feedid, feeds.url, about.title FROM feeds LEFT JOIN about USING (feedid)")
        return Dictionary(uniqueKeysWithValues: rows.map { (Int($0[0] ?? "") ?? 0, Array($0.dropFirst())) })
    }

    @Test func aFeedTheOwnersCatalogGivesAnotherURLIsListedAsTheOwnerHasIt() throws {
        let mine = "https://\(hosts(of: one, count: 1)[0])/feed.xml"
        let theirs = hosts(of: two, count: 2).map { "https://\($0)/feed.xml" }
        // Feed 2 is theirs[0] on the first machine, theirs[1] on the second (which fetched it).
        let first = try machine(one, urls: [mine, theirs[0]])
        let second = try machine(two, urls: [mine, theirs[1]])
        let out = try TemporaryDirectory()
        _ = try second.publish(into: out.url.path, shard: two)
        let report = try first.publish(into: out.url.path, shard: one)
        let feeds = try listed(out.url.path)
        // The pointer of feed 2 carries the items the second machine fetched from theirs[1].
        #expect(feeds[2] == [theirs[1], "Title of \(theirs[1])"], "\(feeds)")
        #expect(feeds[1] == [mine, "Title of \(mine)"])
        #expect(report.warnings.contains { $0.contains("feed 2") && $0.contains("different URLs") }, "\(report.warnings)")
        #expect(PublicationReader.problems(out.url.path).isEmpty, "\(PublicationReader.problems(out.url.path))")
    }

    @Test func twoFeedsWhoseURLsTheCatalogsSwapAreLeftOutOfTheMergedCatalog() throws {
        let mine = "https://\(hosts(of: one, count: 1)[0])/feed.xml"
        let theirs = hosts(of: two, count: 2).map { "https://\($0)/feed.xml" }
        let first = try machine(one, urls: [mine, theirs[0], theirs[1]])
        let second = try machine(two, urls: [mine, theirs[1], theirs[0]])
        let out = try TemporaryDirectory()
        _ = try second.publish(into: out.url.path, shard: two)
        _ = try first.publish(into: out.url.path, shard: one)
        let feeds = try listed(out.url.path)
        // Neither can be listed under the first machine's URL (its pointer has the other's items),
        // nor under the second's (the first machine's catalog gives that URL to the other feed).
        #expect(feeds.keys.sorted() == [1], "\(feeds)")
        let catalog = out.url.path + "/" + (try #require(try PublicationReader.root(out.url.path).catalog)).file
        #expect(try sqlite(catalog, "SELECT COUNT(*) FROM about WHERE feedid IN (2, 3)") == [["0"]])
    }

    /// Feed 2 of shard 1 becomes a feed of a host of shard 2 on both machines (its feedid given
    /// again to another feed): shard 2 publishes it under its names, and shard 1 never removes
    /// them, however often it publishes after.
    @Test func aFeedThatMovedToAnotherShardKeepsThePointerAndStableNameItsNewShardWrote() throws {
        let mine = hosts(of: one, count: 2).map { "https://\($0)/feed.xml" }
        let theirs = "https://\(hosts(of: two, count: 1)[0])/feed.xml"
        let first = try machine(one, urls: mine)
        let second = try machine(two, urls: mine)
        let out = try TemporaryDirectory()
        let path = out.url.path
        _ = try first.publish(into: path, shard: one)
        _ = try second.publish(into: path, shard: two)
        #expect(try PublicationReader.pointer(path, 2)?.entries.first?.shard == "1/2")
        for machine in [first, second] {
            var feed = try machine.harness.feed(2)
            feed.url = theirs
            try machine.harness.catalog.save(feed)
        }
        try second.write(2, [entry("item of \(theirs)")])
        _ = try first.publish(into: path, shard: one)
        #expect(try PublicationReader.pointer(path, 2) == nil, "shard 1's pointer of feed 2 (another feed's items now) is gone")
        _ = try second.publish(into: path, shard: two)
        let written = try #require(try PublicationReader.pointer(path, 2))
        #expect(written.entries.map(\.shard) == ["2/2"])
        // Shard 1 publishes again, with a change and without one.
        try first.write(1, [entry("again")])
        _ = try first.publish(into: path, shard: one)
        _ = try first.publish(into: path, shard: one)
        #expect(try PublicationReader.pointer(path, 2) == written, "shard 2's pointer of feed 2 is left as shard 2 wrote it")
        let usable = try #require(try PublicationReader.feeds(path)[2] ?? nil)
        #expect(usable.shard == "2/2")
        #expect(sha256(ofFile: path + "/feed_2.sqlite") == usable.sha256, "shard 2's feed_2.sqlite is left where it wrote it")
        #expect(PublicationReader.problems(path).isEmpty, "\(PublicationReader.problems(path))")
    }

    /// With a grace period (object storage), the pointer of a feed that moved to another shard
    /// is not kept for it: it would give the items of the feed that had its feedid to the one
    /// the catalog lists now.
    @Test func aMovedFeedsOldPointerIsNotKeptForTheGracePeriod() throws {
        let mine = hosts(of: one, count: 2).map { "https://\($0)/feed.xml" }
        let theirs = "https://\(hosts(of: two, count: 1)[0])/feed.xml"
        let first = try machine(one, urls: mine)
        first.retireAfter = 3600
        let out = try TemporaryDirectory()
        _ = try first.publish(into: out.url.path, shard: one)
        var feed = try first.harness.feed(2)
        feed.url = theirs
        try first.harness.catalog.save(feed)
        _ = try first.publish(into: out.url.path, shard: one)
        #expect(try PublicationReader.pointer(out.url.path, 2) == nil)
        #expect(try PublicationReader.feeds(out.url.path)[1] != nil)
    }
}
