import FeedBasics
@testable import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `PublishRun` publishes through the ``PublicationTarget`` protocol alone: the same run, given
/// a target that keeps its files in memory (``MemoryTarget``), makes a whole publication there
/// and touches no directory.
@Suite("A publication through a target of another kind")
struct PublicationTargetTests {
    private func run(_ publish: PublishHarness, into target: MemoryTarget, only: [Int64]? = nil) throws -> PublishReport {
        var configuration = PublishConfiguration()
        // A directory that does not exist: the run must not need it.
        configuration.outputDirectory = publish.outPath + "/never-created"
        configuration.retainedVersions = publish.retained
        return try PublishRun(harness: publish.harness, configuration: configuration, target: target).run(only: only)
    }

    private func root(_ target: MemoryTarget) throws -> PublicationRoot {
        let bytes = try #require(target.read("manifest.json"))
        return try JSONDecoder().decode(PublicationRoot.self, from: Data(bytes))
    }

    /// The record the root names.
    /// The record the root names, with its feeds from its pages, as the publisher reads it.
    private func manifest(_ target: MemoryTarget) throws -> Manifest {
        let name = try #require(try root(target).shards["1/1"]?.record)
        guard case .found(let record) = ManifestStore(target: target, shard: .all).read(name) else {
            Issue.record("\(name) is not a record the publisher reads")
            throw PublicationReader.Problem.unusable(name)
        }
        return record
    }

    @Test func aPublicationIsWholeInTheTargetWithTheManifestPutLast() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 4)
        let target = try MemoryTarget()
        let report = try run(publish, into: target)
        #expect(report.generation == 1 && report.feedsWritten == 3 && report.failures.isEmpty)
        let manifest = try manifest(target)
        let catalog = try #require(manifest.catalog)
        #expect(target.read(catalog.file).map(SHA256.hexDigest) == catalog.sha256)
        #expect(target.read("all_feeds.sqlite") == target.read(catalog.file), "the stable name serves the current snapshot")
        for feed in manifest.feeds {
            #expect(target.read(feed.file).map(SHA256.hexDigest) == feed.sha256)
            #expect(target.read(feed.name) == target.read(feed.file))
            #expect(feed.itemCount == 4)
        }
        #expect(target.read("atom.xml").map { String(decoding: $0, as: UTF8.self).contains("Entry 3") } == true)
        #expect(target.read("index.html") != nil)
        // Every file the root names, directly or through a pointer, was put before it; only the
        // stable names, the pages and the intent saying the pages are written after.
        let puts = target.events.compactMap { if case .put(let name) = $0 { return name } else { return nil } }
        let manifestAt = try #require(puts.firstIndex(of: "manifest.json"))
        let record = try #require(try root(target).shards["1/1"]?.record)
        let named = manifest.feeds.map(\.file) + [catalog.file, record, ".feedmill-intent.1of1.json"]
            + manifest.feeds.map { "feed_\($0.feedID).json" } + (manifest.feedPages ?? []).map(\.file)
        #expect(named.allSatisfy { (puts.firstIndex(of: $0) ?? .max) < manifestAt })
        #expect(Set(puts[(manifestAt + 1)...]) == Set(["all_feeds.sqlite", "atom.xml", "index.html", ".feedmill-intent.1of1.json"] + manifest.feeds.map(\.name)))
        #expect(puts.lastIndex(of: ".feedmill-intent.1of1.json")! > puts.lastIndex(of: "index.html")!, "the pages are said written once they are")
        #expect(!FileManager.default.fileExists(atPath: publish.outPath + "/never-created"), "no directory was touched")
    }

    @Test func aChangeIsANewVersionWithADeltaAndAnUnchangedRunPutsNothing() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 2)
        let target = try MemoryTarget()
        _ = try run(publish, into: target)
        let quiet = try run(publish, into: target)
        #expect(quiet.unchanged && quiet.generation == 1)
        let before = target.events.count
        try publish.write(2, [entry("new")])
        let report = try run(publish, into: target)
        #expect(report.generation == 2 && report.feedsWritten == 1 && report.feedsUnchanged == 1 && report.deltasWritten == 1)
        let feed = try #require(try manifest(target).feeds.first { $0.feedID == 2 })
        #expect(feed.version == 2 && feed.file == "feed_2.\(feed.sha256).sqlite")
        #expect(feed.history.map(\.version) == [1] && feed.history.map(\.file) == ["feed_2.\(feed.history[0].sha256).sqlite"])
        #expect(feed.deltas.map(\.fromVersion) == [1] && feed.deltas.map(\.file) == ["feed_2.\(feed.deltas[0].sha256).delta.json"])
        #expect(target.read(feed.deltas[0].file).map(SHA256.hexDigest) == feed.deltas[0].sha256)
        #expect(target.events.count > before)
    }

    @Test func onlyThePublishersOwnFilesAreEverDeleted() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        let foreign: [String: [UInt8]] = ["notes.txt": Array("mine".utf8), "feed_9.v1.sqlite.bak": [1, 2, 3]]
        let target = try MemoryTarget(holding: foreign)
        publish.retained = 0
        for round in 0..<4 {
            try publish.write(1, [entry("round-\(round)")])
            _ = try run(publish, into: target)
        }
        let deleted = target.events.compactMap { if case .delete(let name) = $0 { return name } else { return nil } }
        #expect(!deleted.isEmpty, "old versions were retired")
        #expect(deleted.allSatisfy { PublishedName(fileName: $0) != nil })
        #expect(target.read("notes.txt") == foreign["notes.txt"] && target.read("feed_9.v1.sqlite.bak") == foreign["feed_9.v1.sqlite.bak"])
    }

    @Test func aSecondPublicationIntoAHeldTargetIsRefused() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 1, items: 1)
        let target = try MemoryTarget()
        do {
            let held = try target.lock(for: .all, lease: .seconds(60))
            #expect(throws: PublishError.busy(lock: "memory:", holder: "another publication")) { try run(publish, into: target) }
            withExtendedLifetime(held) {}
        }
        #expect(try run(publish, into: target).generation == 1, "the target is free again once the lock is let go")
    }
}
