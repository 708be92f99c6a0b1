import FeedBasics
import FeedFetching
import FeedPipeline
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `--shard K/N`: every feed of one host is one shard's, whatever the URL's spelling, so the
/// per-host limit (keyed by ``FetchScheduler/hostKey(_:)``) holds across the machines that
/// share a catalogue; a run fetches its shard's feeds only and touches no other.
@Suite("Shards: a feed is its host's shard's")
struct ShardSelectionTests {
    /// One host, spelled as feed lists spell it: any case, a trailing dot, a port, user info,
    /// either scheme, any path.
    static func spelling(_ host: String, _ generator: inout SeededGenerator) -> String {
        var name = String(host.map { Bool.random(using: &generator) ? Character($0.uppercased()) : $0 })
        if Bool.random(using: &generator) { name += "." }
        let scheme = Bool.random(using: &generator) ? "http" : "https"
        let user = Int.random(in: 0..<4, using: &generator) == 0 ? "reader@" : ""
        let port = Bool.random(using: &generator) ? ":\(Int.random(in: 1...65535, using: &generator))" : ""
        let path = ["/feed.xml", "/a/b/rss?x=1", "", "/#top", "/Feed/\(Int.random(in: 0..<1000, using: &generator))"]
            .randomElement(using: &generator) ?? ""
        return "\(scheme)://\(user)\(name)\(port)\(path)"
    }

    @Test func everySpellingOfAHostIsInTheSameShard() throws {
        var generator = SeededGenerator.announced()
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789-")
        for _ in 0..<200 {
            let labels = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                String((0..<Int.random(in: 1...12, using: &generator)).map { _ in letters.randomElement(using: &generator) ?? "a" })
            }
            let host = labels.joined(separator: ".") + ([".example", ".co.uk", ".org", ""].randomElement(using: &generator) ?? "")
            let urls = (0..<6).map { _ in Self.spelling(host, &generator) }
            for count in [2, 3, 4, 7, 16, 64, Int.random(in: 1...Shard.largestCount, using: &generator)] {
                let shard = try Shard(index: 1, count: count)
                let owners = Set(urls.map { ShardAssignment.shardIndex(ofURL: $0, count: shard.count) })
                #expect(owners.count == 1, "\(host) in \(count) shards: \(urls) -> \(owners)")
                #expect(owners.first == ShardAssignment.shardIndex(ofHost: host, count: count))
                // Exactly one shard of the N owns each spelling.
                for url in urls where count <= 64 {
                    let claimed = try (1...count).filter { try Shard(index: $0, count: count).owns(url: url) }
                    #expect(claimed == [ShardAssignment.shardIndex(ofHost: host, count: count)], "\(url)")
                }
            }
        }
    }

    /// The fetcher's per-host limit counts by ``FetchScheduler/hostKey(_:)``: two feeds the
    /// limit counts as one host are never in two shards.
    @Test func feedsThePerHostLimitCountsTogetherAreInOneShard() throws {
        var generator = SeededGenerator.announced()
        let hosts = (0..<40).map { "host\($0).example" } + ["EXAMPLE.org", "example.org.", "Example.Org"]
        let urls = (0..<2000).map { _ in Self.spelling(hosts.randomElement(using: &generator) ?? "", &generator) }
        let byKey = Dictionary(grouping: urls, by: FetchScheduler.hostKey)
        for count in [2, 4, 5, 32] {
            let shard = try Shard(index: 1, count: count)
            for (key, group) in byKey {
                #expect(Set(group.map { ShardAssignment.shardIndex(ofURL: $0, count: shard.count) }).count == 1, "\(key) in \(count) shards")
            }
        }
        // Case and a trailing dot make other keys for the limit, never other shards.
        let spellings = ["http://EXAMPLE.org/a", "http://example.org./b", "https://Example.Org:8443/c", "http://example.org/d"]
        for count in 2...64 {
            let shard = try Shard(index: 1, count: count)
            #expect(Set(spellings.map { ShardAssignment.shardIndex(ofURL: $0, count: shard.count) }).count == 1)
        }
        #expect(Shard.all.owns(url: "feeds.opml"), "a URL without a host is shard 1's")
        #expect(try Shard(index: 1, count: 4).owns(url: "/srv/feed.xml"))
    }

    /// Four runs over one catalog, one per shard: each fetches only its own feeds, together
    /// every feed once; `--feed` of another shard's feed is refused, naming that shard.
    @Test func fourShardsFetchEveryFeedOnceAndOnlyTheirOwn() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        let hosts = (0..<8).map { "s\($0).localhost" }
        var urls: [String] = []
        for (index, host) in hosts.enumerated() {
            for number in 0..<3 {
                let path = "/\(host)/\(number).xml"
                feeds.set(path, rss("Feed \(index).\(number)", items: [("\(host)-\(number)", "Entry", nil, nil)]))
                urls.append(feeds.url(path).replacingOccurrences(of: "127.0.0.1", with: number == 1 ? host.uppercased() : host))
            }
        }
        let ids = try harness.add(urls)
        let shards = try (1...4).map { try Shard(index: $0, count: 4) }
        var fetchedBy: [Int64: Int] = [:]
        for shard in shards {
            var configuration = harness.configuration
            configuration.shard = shard
            let ran = try harness.update(.due(limit: nil), configuration: configuration)
            #expect(ran.report.shard == shard)
            for feed in ran.feeds {
                #expect(fetchedBy.updateValue(shard.index, forKey: feed.feedID) == nil, "feed \(feed.feedID) fetched twice")
                #expect(shard.owns(url: feed.url))
                if case .updated = feed.outcome {} else { Issue.record("feed \(feed.feedID): \(feed.outcome)") }
            }
            // Each shard's run sees the databases the shards before it wrote into this directory.
            #expect(ran.report.otherShardsDatabases == fetchedBy.filter { $0.value != shard.index }.count)
        }
        #expect(Set(fetchedBy.keys) == Set(ids), "every feed fetched by one of the four")
        #expect(Set(fetchedBy.values).count > 1, "the hosts are spread over more than one shard")
        for (offset, id) in ids.enumerated() {
            let sameHost = ids[(offset / 3 * 3)..<(offset / 3 * 3 + 3)]
            #expect(Set(sameHost.map { fetchedBy[$0] }).count == 1, "one host's feeds in one shard")
            #expect(fetchedBy[id] == ShardAssignment.shardIndex(ofURL: urls[offset], count: shards[0].count))
        }
        #expect(feeds.server.requests.count == ids.count)

        // --feed of another shard's feed: nothing fetched, and the error names its shard.
        let foreign = try #require(ids.first { fetchedBy[$0] != 1 })
        let owner = try #require(fetchedBy[foreign])
        var first = harness.configuration
        first.shard = shards[0]
        #expect(throws: PipelineError.otherShardsFeeds(OtherShardsFeeds(
            shard: shards[0], feeds: [.init(feedID: foreign, url: urls[ids.firstIndex(of: foreign) ?? 0], owner: owner)]))) {
            try harness.update(.feeds([foreign]), configuration: first)
        }
        let message = PipelineError.otherShardsFeeds(OtherShardsFeeds(shard: shards[0], feeds: [.init(feedID: foreign, url: "u", owner: owner)]))
            .description
        #expect(message.contains("shard \(owner)/4"), "\(message)")
        #expect(feeds.server.requests.count == ids.count, "nothing fetched")
        // An id no shard has is still "unknown", first.
        #expect(throws: PipelineError.unknownFeeds([999])) { try harness.update(.feeds([foreign, 999]), configuration: first) }
    }

    /// A permanent redirect to a host of another shard never moves the feed: only this
    /// shard's catalog would learn the move, and no shard would fetch the feed any more.
    @Test func aRedirectToAnotherShardsHostIsNotMadeAMove() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/new.xml", rss("Moved", items: [("m1", "One", nil, nil)]))
        let source = "r0.localhost"
        // A host of another shard of 4 than the source's.
        let owner = ShardAssignment.shardIndex(ofHost: source, count: 4)
        let candidates: [String] = (1...50).map { "t\($0).localhost" }.filter { ShardAssignment.shardIndex(ofHost: $0, count: 4) != owner }
        let target: String = try #require(candidates.first)
        let targetURL = feeds.url("/new.xml").replacingOccurrences(of: "127.0.0.1", with: target)
        feeds.override("/old.xml", .init(status: 301, headers: [("Location", targetURL)], body: []))
        let id = try #require(try harness.add([feeds.url("/old.xml").replacingOccurrences(of: "127.0.0.1", with: source)]).first)
        var configuration = harness.configuration
        configuration.shard = try Shard(index: owner, count: 4)
        var notes: [String] = []
        for _ in 0..<(configuration.redirectSightingsToMove + 1) {
            let ran = try harness.update(.all, configuration: configuration)
            #expect(ran.feeds.first?.movedTo == nil)
            notes += ran.feeds.flatMap(\.notes)
            harness.now += 3600
        }
        #expect(try harness.feed(id).url.contains(source), "still listed under its URL")
        #expect(notes.contains { $0.contains("not moved") && $0.contains(target) }, "\(notes)")
        // Without shards the same redirects move it, as before.
        _ = try harness.update(.all)
        #expect(try harness.feed(id).url == targetURL)
    }
}
