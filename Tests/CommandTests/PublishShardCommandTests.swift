import FeedBasics
import FeedPublishing
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-publish --shard K/N` from the command line: a shard publishes its own hosts' feeds and
/// commits the one root with the others' entries; a shard that cannot be is refused at once.
@Suite("rss-publish --shard", .serialized)
struct PublishShardCommandTests {
    @Test func twoShardsOfOneDataDirectoryMakeOneRoot() throws {
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        // Every feed of the farm is on 127.0.0.1: one shard owns them all, the other none.
        let owner = ShardAssignment.shardIndex(ofHost: "127.0.0.1", count: 2)
        for index in [3 - owner, owner] {
            let result = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--shard", "\(index)/2"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("shard \(index)/2 generation 1"), "\(result.stdout)")
        }
        let root = try PublicationReader.root(run.out)
        #expect(root.shards.keys.sorted() == ["1/2", "2/2"] && root.generation == 2)
        let feeds = try PublicationReader.feeds(run.out)
        #expect(feeds.keys.sorted() == [1, 2, 3])
        #expect(feeds.values.allSatisfy { $0?.shard == "\(owner)/2" })
        #expect(PublicationReader.problems(run.out).isEmpty, "\(PublicationReader.problems(run.out))")
        #expect(try PublicationReader.record(run.out, shard: "\(3 - owner)/2").feeds.isEmpty)
        #expect(try sqlite(run.out + "/all_feeds.sqlite", "SELECT COUNT(*) FROM feeds") == [["3"]])
    }

    @Test(arguments: ["3/2", "0/1", "1/0", "2", "1/1025"])
    func aShardThatCannotBeIsRefusedBeforeAnythingIsDone(shard: String) throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        let result = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--shard", shard])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: run.out))
    }
}
