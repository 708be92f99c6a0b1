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
}
