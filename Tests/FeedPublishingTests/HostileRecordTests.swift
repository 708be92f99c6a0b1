import FeedBasics
import FeedPublishing
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A record edited by someone with access to the publication (and sealed again: renamed to its
/// new digest, named by the root) is read as untrusted input: odd numbers in it never trap.
@Suite("Hostile publisher records", .serialized)
struct HostileRecordTests {
    /// Replaces shard 1/1's record by `edit` of it, under its new digest, and points the root at it.
    func reseal(_ directory: String, _ edit: (inout [String: Any]) -> Void) throws {
        let root = try PublicationReader.root(directory)
        let entry = try #require(root.shards["1/1"])
        let old = directory + "/" + entry.record
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: old))) as? [String: Any])
        edit(&json)
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
        let digest = SHA256.hexDigest(bytes)
        let name = "publisher.1of1.\(digest).json"
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
        try FileManager.default.removeItem(atPath: old)
        var edited = root
        edited.shards["1/1"] = ShardEntry(generation: entry.generation, publication: String(digest.prefix(16)), record: name)
        try Data(try edited.encoded()).write(to: URL(fileURLWithPath: directory + "/manifest.json"))
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1, Int64.max])
    func aRetiredTimeFromAnEditedRecordNeverTraps(_ retiredAt: Int64) throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        _ = try publish.publish()
        // A file at a name of the publisher's, which the edited record says it retired.
        let victim = "feed_99.v1.sqlite"
        try Data("x".utf8).write(to: URL(fileURLWithPath: publish.outPath + "/" + victim))
        try reseal(publish.outPath) { record in
            record["retired"] = [["name": victim, "generation": 0, "retired_unix_time": NSNumber(value: retiredAt)]]
        }
        try publish.write(1, [entry("next")])
        let report = try publish.publish()
        #expect(report.failures.isEmpty)
        let removed = !FileManager.default.fileExists(atPath: publish.outPath + "/" + victim)
        // Retired "before" now (however long): due; retired in the future (a clock gone back): kept.
        #expect(removed == (retiredAt < 0), "retired at \(retiredAt)")
        #expect(PublicationReader.problems(publish.outPath).isEmpty, "\(PublicationReader.problems(publish.outPath))")
    }

    /// An operator's own `feed_1.json` where the first publication would put feed 1's pointer:
    /// the publication stops before writing anything, and the file stays as it was.
    @Test func aForeignFileAtAPointerNameStopsThePublicationAndStays() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        let theirs = Data("{\"mine\": true}\n".utf8)
        try theirs.write(to: URL(fileURLWithPath: publish.outPath + "/feed_1.json"))
        #expect(throws: PublishError.self) { try publish.publish() }
        #expect(FileManager.default.contents(atPath: publish.outPath + "/feed_1.json") == theirs)
        #expect(!FileManager.default.fileExists(atPath: publish.outPath + "/manifest.json"))
        // Moved away, the publication goes ahead.
        try FileManager.default.removeItem(atPath: publish.outPath + "/feed_1.json")
        _ = try publish.publish()
        #expect(PublicationReader.problems(publish.outPath).isEmpty, "\(PublicationReader.problems(publish.outPath))")
    }

    /// `--recover` from a record older than the one the root names (the newer ones damaged):
    /// the shard's generation still goes up from the root's, so no pointer entry this
    /// publication writes is usable by the root still there before it commits.
    @Test func recoveringFromAnOlderRecordNeverTakesTheShardsGenerationBack() throws {
        let publish = try PublishHarness()
        publish.retireAfter = 3600
        try publish.seed(feeds: 2, items: 1)
        var records: [String] = []
        for round in 1...3 {
            if round > 1 { try publish.write(1, [entry("round \(round)")]) }
            _ = try publish.publish()
            records.append(try #require(try publish.root().shards["1/1"]).record)
        }
        let before = try publish.root()
        #expect(before.shards["1/1"]?.generation == 3)
        // The records of generations 2 and 3 damaged: the newest intact one is generation 1's.
        for record in records.dropFirst() { try Data("{".utf8).write(to: URL(fileURLWithPath: publish.outPath + "/" + record)) }
        // Feed 1's stable name serves generation 3's snapshot, which that record does not vouch for: moved away, as told.
        try FileManager.default.removeItem(atPath: publish.outPath + "/feed_1.sqlite")
        try publish.write(2, [entry("after the damage")])
        // Before the recovering publication commits, its pointers are not usable by the root there.
        let target = InterceptingTarget(DirectoryTarget(path: publish.outPath, awayFrom: publish.harness.configuration.data.path))
        let seen = Locked<[Int64: String]>([:])
        target.beforeNextCommit { [out = publish.outPath] in
            var usable: [Int64: String] = [:]
            for id: Int64 in [1, 2] {
                if let pointer = try? PublicationReader.pointer(out, id) { usable[id] = PublicationReader.usable(pointer, in: before)?.publication ?? "none" }
            }
            seen.set(usable)
        }
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publish.outPath
        configuration.retireAfter = 3600
        let report = try PublishRun(harness: publish.harness, configuration: configuration, target: target).run(recover: true)
        let after = try publish.root()
        #expect(try #require(after.shards["1/1"]).generation > 3, "\(after.shards)")
        #expect(after.shards["1/1"]?.generation == after.generation)
        #expect(seen.value.count == 2, "the pointers were read before the commit")
        for (id, publication) in seen.value {
            #expect(publication != report.publication, "feed \(id): the uncommitted entry was usable by the root of generation 3")
        }
        #expect(PublicationReader.problems(publish.outPath).isEmpty, "\(PublicationReader.problems(publish.outPath))")
    }
}
