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
}
