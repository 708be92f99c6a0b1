import FeedPublishing
import FeedmillClient
import Foundation
import PipelineTestSupport
import Testing
import TestSupport

/// What a manifest (a broken or hostile publisher, a mirror) or the folder itself may hold that
/// must not make the client give one feed's items to another or replace a file it did not write.
struct HostileFolderTests {
    /// A manifest that files feed 3 under feed 2's name (and the reverse): an app opens
    /// `feed_2.sqlite` for feed 2, so the client must not put feed 3's items there.
    @Test func aManifestThatSwapsTwoFeedsNamesDoesNotSwapTheirFiles() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let feed2 = try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false)
        let feed3 = try IndependentDigest.of(fixture.path("feed_3.sqlite"), catalog: false)
        try fixture.addEntries(3, ["f3-new"])
        try fixture.publish()
        try Self.editManifest(fixture) { manifest in
            var feeds = manifest["feeds"] as? [[String: Any]] ?? []
            for index in feeds.indices {
                switch (feeds[index]["feedid"] as? NSNumber)?.int64Value {
                case 2: feeds[index]["name"] = "feed_3.sqlite"
                case 3: feeds[index]["name"] = "feed_2.sqlite"
                default: break
                }
            }
            manifest["feeds"] = feeds
            manifest["generation"] = ((manifest["generation"] as? NSNumber)?.intValue ?? 0) + 1
        }
        let report = try await fixture.sync()
        #expect(try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false) == feed2)
        #expect(try IndependentDigest.of(fixture.path("feed_3.sqlite"), catalog: false) == feed3)
        #expect(report.problems.map(\.error).contains(.misnamed(name: "feed_3.sqlite", expected: "feed_2.sqlite")))
        #expect(report.problems.map(\.error).contains(.misnamed(name: "feed_2.sqlite", expected: "feed_3.sqlite")))
    }

    /// A catalog the manifest names like a feed's file would land where the app reads that feed.
    @Test func aCatalogNotNamedAllFeedsIsRefused() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        try Self.editManifest(fixture) { manifest in
            var catalog = manifest["catalog"] as? [String: Any] ?? [:]
            catalog["name"] = "feed_9.sqlite"
            manifest["catalog"] = catalog
        }
        let report = try await fixture.sync()
        #expect(!FileManager.default.fileExists(atPath: fixture.path("feed_9.sqlite")))
        #expect(report.problems.map(\.error) == [.misnamed(name: "feed_9.sqlite", expected: "all_feeds.sqlite")])
    }

    /// A symbolic link of the user's at a feed's name, pointing nowhere (yet): not the client's
    /// file, so it is neither replaced nor removed.
    @Test func aDanglingSymbolicLinkAtAFeedsNameIsLeftAlone() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        let link = fixture.path("feed_1.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent/feedmill-review/feed_1.sqlite")
        let report = try await fixture.sync()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/nonexistent/feedmill-review/feed_1.sqlite")
        #expect(report.problems.map(\.file) == ["feed_1.sqlite"])
        guard case .foreignFile? = report.problems.first?.error else {
            Issue.record("expected a foreign file, got \(report.problems)")
            return
        }
    }

    private static func editManifest(_ fixture: ClientFixture, _ edit: (inout [String: Any]) -> Void) throws {
        let url = URL(fileURLWithPath: fixture.publisher.outPath + "/manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        edit(&manifest)
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: url, options: .atomic)
    }
}

extension HostileFolderTests {
    /// A followed feed still published under another name is refused, but it has not left the
    /// publication: its file stays.
    @Test func aFeedPublishedUnderAnotherNameKeepsItsFile() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let feed2 = try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false)
        let url = URL(fileURLWithPath: fixture.publisher.outPath + "/manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var feeds = manifest["feeds"] as? [[String: Any]] ?? []
        for index in feeds.indices where (feeds[index]["feedid"] as? NSNumber)?.int64Value == 2 { feeds[index]["name"] = "feed_2b.sqlite" }
        manifest["feeds"] = feeds
        manifest["generation"] = ((manifest["generation"] as? NSNumber)?.intValue ?? 0) + 1
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: url, options: .atomic)
        let report = try await fixture.sync()
        #expect(report.removed.isEmpty)
        #expect(report.problems.map(\.error) == [.misnamed(name: "feed_2b.sqlite", expected: "feed_2.sqlite")])
        #expect(try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false) == feed2)
    }
}

import FeedBasics

extension HostileFolderTests {
    /// The contract applies a delta's `deletes` before its `upserts`: a delta naming an id in
    /// both (which the publisher never writes, a hand-made one may) leaves the row upserted.
    @Test func aDeltaDeletesBeforeItUpsertsAsTheContractSays() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        try fixture.addEntries(3, ["f3-new"])
        let published = try fixture.publish()
        let deltaName = try #require(published.feeds.first { $0.feedID == 3 }?.deltas.first?.file)
        let deltaURL = URL(fileURLWithPath: fixture.publisher.outPath + "/" + deltaName)
        var delta = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: deltaURL)) as? [String: Any])
        delta["deletes"] = ["f3-new"]
        let bytes = try JSONSerialization.data(withJSONObject: delta, options: [.sortedKeys])
        try bytes.write(to: deltaURL)
        let url = URL(fileURLWithPath: fixture.publisher.outPath + "/manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var feeds = manifest["feeds"] as? [[String: Any]] ?? []
        for index in feeds.indices where (feeds[index]["feedid"] as? NSNumber)?.int64Value == 3 {
            var deltas = feeds[index]["deltas"] as? [[String: Any]] ?? []
            for step in deltas.indices where deltas[step]["file"] as? String == deltaName {
                deltas[step]["sha256"] = SHA256.hexDigest([UInt8](bytes))
                deltas[step]["size"] = bytes.count
            }
            feeds[index]["deltas"] = deltas
        }
        manifest["feeds"] = feeds
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: url, options: .atomic)
        let report = try await fixture.sync()
        #expect(report.deltaFallbacks.isEmpty)
        #expect(report.deltaDownloads == ["feed_3.sqlite"])
        #expect(report.problems.isEmpty)
    }
}
