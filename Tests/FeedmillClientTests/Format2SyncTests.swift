import FeedmillClient
import Foundation
import PipelineTestSupport
import Testing
import TestSupport

/// Publication format 2 as the client reads it (SPEC-41 §3–4): the usable-entry rule against a
/// publication in flight and a publisher that died, the pointer's ETag, a pointer that lies
/// about its feed, the catalog downloaded only when needed. Real publications, served over
/// HTTP on 127.0.0.1, real SQLite files.
struct Format2SyncTests {
    /// A client that read the root before a publication committed, while that publication has
    /// already written its pointers: the pointer's newer entry is not the root's, so the client
    /// takes the entry before it, whose files are still there.
    @Test func aPublicationInFlightLeavesTheClientOnThePreviousEntry() async throws {
        let fixture = try ClientFixture()
        let first = try fixture.publish()
        let committedRoot = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.servedPath + "/manifest.json")))
        try fixture.addEntries(1, ["f1-new"])
        let second = try fixture.publish()
        let pointer = try Format2Publication.readJSON(fixture.servedPath + "/feed_1.json")
        #expect((pointer["entries"] as? [[String: Any]])?.count == 2)
        // The root of the first publication still served: the second is in flight.
        fixture.server.respond { path, _ in path == "/manifest.json" ? .init(body: committedRoot) : nil }
        let report = try await fixture.sync()
        #expect(report.problems.isEmpty && report.notPublished.isEmpty, "\(report)")
        #expect(report.generation == first.generation)
        let old = try #require(first.feed(1)), new = try #require(second.feed(1))
        #expect(old.version < new.version)
        #expect(try IndependentDigest.of(fixture.path("feed_1.sqlite"), catalog: false) == old.contentDigest)
        #expect(fixture.server.requests.contains { $0.path == "/" + old.file })
        #expect(!fixture.server.requests.contains { $0.path == "/" + new.file })

        // Committed: the same pointer (a 304) now gives the newer entry, by a delta.
        fixture.server.respond(with: nil)
        let committed = try await fixture.sync()
        #expect(committed.problems.isEmpty)
        #expect(committed.deltaDownloads == ["feed_1.sqlite"])
        #expect(committed.notModified >= 1)
        try expectFolder(fixture, holds: second)
    }

    /// A publisher that wrote its pointers and died before committing, at the generation the
    /// root has since been committed with by another publication: its entry is not used.
    @Test func aCrashedPublishersEntryIsNotUsed() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let held = try IndependentDigest.of(fixture.path("feed_1.sqlite"), catalog: false)
        try fixture.addEntries(1, ["f1-new"])
        let second = try fixture.publish()
        let previous = try #require(
            (try Format2Publication.readJSON(fixture.servedPath + "/feed_1.json")["entries"] as? [[String: Any]])?.last)
        // The newest entry: same generation as the root's shard, another publication.
        try fixture.editPointer(1) { pointer in
            var entries = pointer["entries"] as? [[String: Any]] ?? []
            entries[0]["publication"] = "deadbeefdeadbeef"
            pointer["entries"] = entries
        }
        let report = try await fixture.sync()
        #expect(report.problems.isEmpty)
        #expect(!report.fullDownloads.contains("feed_1.sqlite") && !report.deltaDownloads.contains("feed_1.sqlite"))
        #expect(try IndependentDigest.of(fixture.path("feed_1.sqlite"), catalog: false) == held)
        #expect(held == previous["content_digest"] as? String)
        // A fresh client takes the previous entry too.
        let fresh = try TemporaryDirectory()
        let freshReport = try await PublicationSync(baseURL: fixture.base, folder: fresh.url, feeds: .only([1])).run()
        #expect(freshReport.problems.isEmpty)
        #expect(try IndependentDigest.of(fresh.url.path + "/feed_1.sqlite", catalog: false) == held)

        // Only the crashed entry: not published for this root; the local file is kept.
        try fixture.editPointer(1) { pointer in
            pointer["entries"] = Array((pointer["entries"] as? [[String: Any]] ?? []).prefix(1))
        }
        let none = try await fixture.sync()
        #expect(none.notPublished == [1])
        #expect(none.problems.isEmpty && none.removed.isEmpty)
        #expect(try IndependentDigest.of(fixture.path("feed_1.sqlite"), catalog: false) == held)
        #expect(none.summary.contains("not yet published"))
        #expect(second.feed(1)?.contentDigest != held)
    }

    /// Nothing changed: the root and one 304 per followed pointer, no other body. One feed
    /// changed: its pointer alone is downloaded again.
    @Test func anUnchangedPointerCostsOnlyHeaders() async throws {
        let fixture = try ClientFixture(feeds: 5)
        try fixture.publish()
        let first = try await fixture.sync(.only([1, 2, 4]))
        #expect(first.notModified == 0 && first.bytesInPointers > 0)
        let before = fixture.server.requests.count

        let second = try await fixture.sync(.only([1, 2, 4]))
        #expect(second.outcome == .upToDate)
        #expect(second.requests == 4 && second.notModified == 3, "\(second)")
        #expect(second.bytesDownloaded == second.bytesInManifest && second.bytesInPointers == 0)
        let pointerRequests = fixture.server.requests.dropFirst(before).filter { $0.path.hasSuffix(".json") && $0.path != "/manifest.json" }
        #expect(pointerRequests.map(\.path).sorted() == ["/feed_1.json", "/feed_2.json", "/feed_4.json"])
        #expect(pointerRequests.allSatisfy { $0.headers["if-none-match"] != nil })
        print(
            "format 2, following 3 of 5 feeds, nothing changed: \(second.bytesDownloaded) bytes of bodies "
                + "(the root) in \(second.requests) requests, \(second.notModified) of them 304")

        try fixture.addEntries(2, ["f2-new"])
        let published = try fixture.publish()
        // (A maximum age of 0: the catalog too is the published one, for expectFolder.)
        let third = try await fixture.sync(.only([1, 2, 4]), catalogMaxAge: 0)
        #expect(third.notModified == 2)
        #expect(third.deltaDownloads == ["feed_2.sqlite"])
        let pointer2 = try Data(contentsOf: URL(fileURLWithPath: fixture.servedPath + "/feed_2.json")).count
        #expect(third.bytesInPointers == pointer2)
        print(
            "format 2, following 3 of 5 feeds, 1 changed: \(third.bytesDownloaded) bytes of bodies in \(third.requests) requests "
                + "(root \(third.bytesInManifest), pointers \(third.bytesInPointers), deltas \(third.bytesInDeltas), "
                + "whole files \(third.bytesInFullFiles)), \(third.notModified) of them 304")
        try expectFolder(fixture, holds: published, following: [1, 2, 4])
    }

    /// Pointers are asked for a few at a time: a slow server costs a sync a few round trips,
    /// not one per feed, and never more than `pointerConcurrency` requests at once.
    @Test func pointersAreFetchedAFewAtATime() async throws {
        let fixture = try ClientFixture(feeds: 12, items: 1)
        let published = try fixture.publish()
        fixture.server.respond { path, bytes in
            guard path.hasPrefix("/feed_"), path.hasSuffix(".json"), let bytes else { return nil }
            return .init(headers: [("ETag", StaticDirectoryServer.etag(of: bytes))], body: bytes, delay: 0.3)
        }
        let report = try await fixture.sync()
        #expect(report.problems.isEmpty && report.fullDownloads.count == 13)
        // Each pointer is held 0.3 s: fetched one by one, no two would ever be in flight at once.
        // (Counted, not timed: tests run in parallel.)
        #expect(fixture.server.peakInFlight > 1 && fixture.server.peakInFlight <= 8, "\(fixture.server.peakInFlight)")
        try expectFolder(fixture, holds: published)
    }

    /// A pointer that says it is another feed's, or names another feed's file, or a file
    /// outside the publication's names: refused, the local file kept, the other feeds synced.
    @Test(arguments: ["feedid", "file", "delta", "case"])
    func aPointerThatIsNotItsFeedsIsRefused(lie: String) async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let held = try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false)
        try fixture.addEntries(2, ["f2-new"])
        try fixture.addEntries(3, ["f3-new"])
        let published = try fixture.publish()
        let feed3 = try #require(published.feed(3))
        switch lie {
        case "feedid": try fixture.editPointer(2) { $0["feedid"] = 3 }
        case "file": try fixture.editEntries(2) { $0["file"] = feed3.file }
        case "delta":
            try fixture.editEntries(2) { entry in
                entry["deltas"] = [["from_version": 1, "file": "../feed_2.v1-v2.delta.json", "sha256": String(repeating: "0", count: 64), "size": 1]]
            }
        default: try fixture.editEntries(2) { $0["file"] = ($0["file"] as? String ?? "").uppercased() }
        }
        let report = try await fixture.sync()
        #expect(report.problems.map(\.file) == ["feed_2.sqlite"], "\(report.problems)")
        let error = try #require(report.problems.first?.error)
        switch lie {
        case "feedid": #expect(error == .wrongFeed(pointer: "feed_2.json", feedID: 3, expected: 2))
        case "delta": #expect(error == .unsafeName("../feed_2.v1-v2.delta.json"))
        default:
            guard case .misnamed = error else {
                Issue.record("expected a misnamed file, got \(error)")
                return
            }
        }
        #expect(try IndependentDigest.of(fixture.path("feed_2.sqlite"), catalog: false) == held)
        #expect(try IndependentDigest.of(fixture.path("feed_3.sqlite"), catalog: false) == feed3.contentDigest)
        // Never cached: the next sync downloads the pointer again.
        let again = try await fixture.sync()
        #expect(again.problems.map(\.file) == ["feed_2.sqlite"])
        #expect(again.bytesInPointers > 0)
    }

    /// The catalog is downloaded when the client has none, when a followed feed is not in the
    /// one it has, or when the one it has is older than the maximum age; otherwise kept.
    @Test func theCatalogIsDownloadedOnlyWhenNeeded() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        let first = try await fixture.sync(.only([1]))
        #expect(first.catalog?.action == .downloaded && first.catalog?.reason == "missing")
        #expect(first.fullDownloads.contains("all_feeds.sqlite"))

        // A newer catalog (feed 2's last update), the local one an hour old: kept.
        try fixture.addEntries(2, ["f2-new"])
        var feed = try fixture.publisher.harness.feed(2)
        feed.lastUpdate = 1_700_009_999
        try fixture.publisher.harness.catalog.save(feed)
        let second = try fixture.publish()
        fixture.now.set(fixture.now.value + 3_600)
        let kept = try await fixture.sync(.only([1]))
        #expect(kept.catalog?.action == .kept, "\(kept)")
        #expect(!kept.fullDownloads.contains("all_feeds.sqlite"))
        #expect(!fixture.server.requests.contains { $0.path == "/" + second.catalog.file })
        #expect(kept.summary.contains("catalog kept"))

        // A day and a second after it was last checked: downloaded.
        fixture.now.set(fixture.now.value + 86_401 - 3_600)
        let aged = try await fixture.sync(.only([1]))
        #expect(aged.catalog?.action == .downloaded && aged.catalog?.reason.contains("86401 s old") == true, "\(String(describing: aged.catalog))")
        #expect(aged.fullDownloads == ["all_feeds.sqlite"])
        try expectFolder(fixture, holds: second, following: [1])

        // A new feed followed, not in the local catalog: downloaded at once.
        let added = try #require(try fixture.publisher.harness.add(["https://feeds.example/new.xml"]).first)
        try fixture.publisher.write(added, [entry("f\(added)-0", title: "Entry 0")])
        let third = try fixture.publish()
        let following = try await fixture.sync(.only([1, added]))
        #expect(following.catalog?.reason == "feed \(added) is not in the local catalog")
        #expect(Set(following.fullDownloads) == ["all_feeds.sqlite", "feed_\(added).sqlite"])
        try expectFolder(fixture, holds: third, following: [1, added])

        // The published one held: current, nothing downloaded; a maximum age of 0 changes nothing.
        let current = try await fixture.sync(.only([1, added]), catalogMaxAge: 0)
        #expect(current.catalog?.action == .current && current.outcome == .upToDate)

        // A maximum age of 0: a newer catalog is downloaded at once, even within the second
        // the last one was checked (the clock has not moved).
        feed.lastUpdate = 1_700_019_999
        try fixture.publisher.harness.catalog.save(feed)
        let fourth = try fixture.publish()
        #expect(fourth.catalog.version > third.catalog.version)
        let atOnce = try await fixture.sync(.only([1, added]), catalogMaxAge: 0)
        #expect(atOnce.catalog?.action == .downloaded && atOnce.catalog?.reason == "0 s old, the maximum is 0 s", "\(atOnce)")
        try expectFolder(fixture, holds: fourth, following: [1, added])
    }

    /// A followed feed the publication does not list (never listed, or removed after it was
    /// followed) makes the client download the catalog once, not on every sync after (issue 51:
    /// the loop cost a whole catalog per sync, forever).
    @Test func aFollowedFeedTheCatalogDoesNotListCostsOneCatalogNotOnePerSync() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        let first = try await fixture.sync(.only([1, 3, 999]))
        #expect(first.catalog?.action == .downloaded && first.catalog?.reason == "missing")

        // Each publication changes the catalog; feed 999 is still not in it: kept, every time.
        func republish(_ round: Int64) throws -> PublishedView {
            var feed = try fixture.publisher.harness.feed(2)
            feed.lastUpdate = 1_700_009_999 + round
            try fixture.publisher.harness.catalog.save(feed)
            return try fixture.publish()
        }
        for round in Int64(1)...3 {
            let published = try republish(round)
            fixture.now.set(fixture.now.value + 60)
            let next = try await fixture.sync(.only([1, 3, 999]))
            #expect(next.catalog?.action == .kept, "\(next)")
            #expect(!fixture.server.requests.contains { $0.path == "/" + published.catalog.file })
        }

        // Feed 3 removed from the publication: the local catalog still lists it, so the client
        // learns it at the catalog's maximum age, once; then no more downloads for it.
        _ = try fixture.publisher.harness.catalog.remove(feedID: 3)
        _ = try republish(4)
        fixture.now.set(fixture.now.value + 86_401)
        let aged = try await fixture.sync(.only([1, 3, 999]))
        #expect(aged.catalog?.action == .downloaded && aged.catalog?.reason.hasSuffix("s old, the maximum is 86400 s") == true, "\(aged)")
        #expect(aged.removed == ["feed_3.sqlite"], "\(aged)")
        for round in Int64(5)...6 {
            _ = try republish(round)
            fixture.now.set(fixture.now.value + 60)
            let next = try await fixture.sync(.only([1, 3, 999]))
            #expect(next.catalog?.action == .kept, "\(next)")
            #expect(!next.fullDownloads.contains("all_feeds.sqlite"))
        }

        // A newly followed feed the catalog held does not list is still a reason, once.
        let fresh = try await fixture.sync(.only([1, 3, 999, 1_000]))
        #expect(fresh.catalog?.reason == "feed 1000 is not in the local catalog", "\(fresh)")
        fixture.now.set(fixture.now.value + 60)
        _ = try republish(7)
        let after = try await fixture.sync(.only([1, 3, 999, 1_000]))
        #expect(after.catalog?.action == .kept, "\(after)")
    }

    /// A followed feed whose pointer is missing (404) is not published yet: no problem, its
    /// local file kept; the next sync finds it.
    @Test func aMissingPointerIsNotYetPublished() async throws {
        let fixture = try ClientFixture()
        let published = try fixture.publish()
        _ = try await fixture.sync()
        let held = try IndependentDigest.of(fixture.path("feed_3.sqlite"), catalog: false)
        let pointer = fixture.servedPath + "/feed_3.json"
        try FileManager.default.moveItem(atPath: pointer, toPath: pointer + ".away")
        let report = try await fixture.sync()
        #expect(report.notPublished == [3] && report.problems.isEmpty && report.removed.isEmpty)
        #expect(try IndependentDigest.of(fixture.path("feed_3.sqlite"), catalog: false) == held)
        try FileManager.default.moveItem(atPath: pointer + ".away", toPath: pointer)
        let back = try await fixture.sync()
        #expect(back.notPublished.isEmpty)
        try expectFolder(fixture, holds: published)
    }

    /// A format-1 publication (one from before issue 40, with the digests format 1 added) still
    /// syncs; upgraded in place to format 2 (same generation, same versions), the same folder
    /// continues from it without downloading a file again.
    @Test func aFormat1PublicationStillSyncsAndItsUpgradeToFormat2DownloadsNothing() async throws {
        let fixture = try schema1Publication()
        let publish = fixture.url.path + "/publish"
        try PublishedDigests.check(publish)
        let served = try TemporaryDirectory()
        try Self.copyFiles(from: publish, to: served.url.path)
        let server = try StaticDirectoryServer(directory: served.url.path)
        let client = try TemporaryDirectory()
        let sync = PublicationSync(baseURL: try #require(URL(string: server.baseURL)), folder: client.url)
        let format1 = try await sync.run()
        #expect(format1.formatVersion == 1 && format1.problems.isEmpty, "\(format1)")
        #expect(Set(format1.fullDownloads) == ["all_feeds.sqlite", "feed_1.sqlite", "feed_2.sqlite", "feed_3.sqlite"])
        let files = try Dictionary(uniqueKeysWithValues: ["feed_1.sqlite", "feed_2.sqlite", "feed_3.sqlite"].map {
            ($0, try Data(contentsOf: client.url.appendingPathComponent($0)))
        })

        let upgraded = try Format2Publication(source: publish)
        try upgraded.update()
        try Self.copyFiles(from: upgraded.path, to: served.url.path)
        let format2 = try await sync.run()
        #expect(format2.formatVersion == 2 && format2.problems.isEmpty, "\(format2)")
        #expect(format2.outcome == .upToDate && format2.fullDownloads.isEmpty && format2.deltaDownloads.isEmpty)
        #expect(format2.requests == 4 && format2.catalog?.action == .current)
        for (name, bytes) in files { #expect(try Data(contentsOf: client.url.appendingPathComponent(name)) == bytes, "\(name)") }
    }

    /// Copies every file (not the hidden ones), the manifest last.
    private static func copyFiles(from source: String, to destination: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: source).filter { !$0.hasPrefix(".") }
        for name in names.filter({ $0 != "manifest.json" }) + ["manifest.json"] {
            try? FileManager.default.removeItem(atPath: destination + "/" + name)
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: destination + "/" + name)
        }
    }
}
