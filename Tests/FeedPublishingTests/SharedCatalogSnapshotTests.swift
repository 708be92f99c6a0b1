import FeedBasics
import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Catalog snapshots are named by their bytes: two shards whose catalogs are byte-identical
/// share one name, and one shard retiring it must not delete what another still names.
@Suite("A catalog snapshot two shards share", .serialized)
struct SharedCatalogSnapshotTests {
    @Test func aShardDoesNotDeleteTheCatalogSnapshotAnotherShardsRecordStillNames() throws {
        let shards = try (1...3).map { try Shard(index: $0, count: 3) }
        func host(of shard: Shard) -> String {
            (0..<256).map { "h\($0).example" }.first { ShardAssignment.shardIndex(ofHost: $0, count: 3) == shard.index } ?? ""
        }
        // One data directory for the three shards: 1 and 2 publish the same catalog bytes.
        let publish = try PublishHarness()
        let ids = try publish.harness.add(shards.map { "https://\(host(of: $0))/feed.xml" })
        for id in ids { try publish.write(id, [entry("item of \(id)")]) }
        func retitle(_ index: Int, _ title: String) throws {
            var feed = try publish.harness.feed(ids[index])
            feed.title = title
            try publish.harness.catalog.save(feed)
        }
        let out = try TemporaryDirectory()
        _ = try publish.publish(into: out.url.path, shard: shards[1])
        _ = try publish.publish(into: out.url.path, shard: shards[0])
        let shared = try #require(try PublicationReader.record(out.url.path, shard: shards[1].label).catalog?.file)
        #expect(try PublicationReader.record(out.url.path, shard: shards[0].label).catalog?.file == shared, "one name for both")
        // Shard 3 commits last with a catalog of its own: the root's catalog is no longer it.
        try retitle(2, "Shard 3's title")
        _ = try publish.publish(into: out.url.path, shard: shards[2])
        #expect(try PublicationReader.root(out.url.path).catalog?.file != shared)

        // Shard 1's catalog changes twice: it retires the shared snapshot, and its next
        // publication would remove it (retire_after 0, a generation later).
        for round in 1...2 {
            try retitle(0, "Title \(round)")
            try publish.write(ids[0], [entry("item of \(ids[0]) in round \(round)")], now: 6_000 + Int64(round))
            _ = try publish.publish(into: out.url.path, shard: shards[0])
        }
        #expect(try PublicationReader.record(out.url.path, shard: shards[0].label).catalog?.file != shared)
        #expect(try PublicationReader.record(out.url.path, shard: shards[1].label).catalog?.file == shared)
        #expect(FileManager.default.fileExists(atPath: out.url.path + "/" + shared), "shard 2's record still names \(shared)")
        #expect(PublicationReader.problems(out.url.path).isEmpty, "\(PublicationReader.problems(out.url.path))")

        // Shard 2 moves on (its catalog changed too), and publishes once more: nobody names the
        // old snapshot any more, and it is removed.
        _ = try publish.publish(into: out.url.path, shard: shards[1])
        let now = try #require(try PublicationReader.record(out.url.path, shard: shards[1].label).catalog?.file)
        try retitle(1, "Shard 2's title")
        _ = try publish.publish(into: out.url.path, shard: shards[1])
        _ = try publish.publish(into: out.url.path, shard: shards[0])
        if now != shared {
            #expect(!FileManager.default.fileExists(atPath: out.url.path + "/" + shared), "retired and named by no one: removed")
        }
        #expect(PublicationReader.problems(out.url.path).isEmpty, "\(PublicationReader.problems(out.url.path))")
    }
}
