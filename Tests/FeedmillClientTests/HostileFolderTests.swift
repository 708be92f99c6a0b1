import FeedPublishing
import FeedmillClient
import Foundation
import PipelineTestSupport
import Testing
import TestSupport

/// What a root or a pointer (a broken or hostile publisher, a mirror) or the folder itself may
/// hold that must not make the client give one feed's items to another or replace a file it
/// did not write.
struct HostileFolderTests {
    /// Pointers that file feed 3 under feed 2's name (and the reverse): an app opens
    /// `feed_2.sqlite` for feed 2, so the client must not put feed 3's items there.
    @Test func aManifestThatSwapsTwoFeedsNamesDoesNotSwapTheirFiles() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let feed2 = try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false)
        let feed3 = try IndependentDigest.of(fixture.path("feed_3.sqlite"), catalog: false)
        try fixture.addEntries(3, ["f3-new"])
        try fixture.publish()
        try fixture.editEntries(2) { $0["name"] = "feed_3.sqlite" }
        try fixture.editEntries(3) { $0["name"] = "feed_2.sqlite" }
        let report = try await fixture.sync()
        #expect(try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false) == feed2)
        #expect(try IndependentDigest.of(fixture.path("feed_3.sqlite"), catalog: false) == feed3)
        #expect(report.problems.map(\.error).contains(.misnamed(name: "feed_3.sqlite", expected: "feed_2.sqlite")))
        #expect(report.problems.map(\.error).contains(.misnamed(name: "feed_2.sqlite", expected: "feed_3.sqlite")))
    }

    /// A catalog the root names like a feed's file would land where the app reads that feed.
    @Test func aCatalogNotNamedAllFeedsIsRefused() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        try fixture.editRoot { root in
            var catalog = root["catalog"] as? [String: Any] ?? [:]
            catalog["name"] = "feed_9.sqlite"
            root["catalog"] = catalog
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

}

extension HostileFolderTests {
    /// A followed feed still published under another name is refused, but it has not left the
    /// publication: its file stays.
    @Test func aFeedPublishedUnderAnotherNameKeepsItsFile() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let feed2 = try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false)
        try fixture.editEntries(2) { $0["name"] = "feed_2b.sqlite" }
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
        let deltaURL = URL(fileURLWithPath: fixture.servedPath + "/" + deltaName)
        var delta = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: deltaURL)) as? [String: Any])
        delta["deletes"] = ["f3-new"]
        let bytes = try JSONSerialization.data(withJSONObject: delta, options: [.sortedKeys])
        // Content-addressed: the changed delta is another file, named by its own SHA-256.
        let sha256 = SHA256.hexDigest([UInt8](bytes))
        try bytes.write(to: URL(fileURLWithPath: fixture.servedPath + "/feed_3.\(sha256).delta.json"))
        try fixture.editEntries(3) { entry in
            var deltas = entry["deltas"] as? [[String: Any]] ?? []
            for step in deltas.indices where deltas[step]["file"] as? String == deltaName {
                deltas[step]["file"] = "feed_3.\(sha256).delta.json"
                deltas[step]["sha256"] = sha256
                deltas[step]["size"] = bytes.count
            }
            entry["deltas"] = deltas
        }
        let report = try await fixture.sync()
        #expect(report.deltaFallbacks.isEmpty)
        #expect(report.deltaDownloads == ["feed_3.sqlite"])
        #expect(report.problems.isEmpty)
    }
}
