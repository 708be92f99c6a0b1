import FeedPublishing
import FeedmillClient
import Foundation
import GRDB
import PipelineTestSupport
import Testing
import TestSupport

/// The client contract's rules, each on a real publication (served in format 2) over HTTP on
/// 127.0.0.1 and real SQLite files in the client's folder.
struct PublicationSyncTests {
    @Test func firstSyncDownloadsEverythingWholeAndTheNextUsesADelta() async throws {
        let fixture = try ClientFixture()
        var manifest = try fixture.publish()
        let first = try await fixture.sync()
        #expect(first.problems.isEmpty)
        #expect(Set(first.fullDownloads) == ["all_feeds.sqlite", "feed_1.sqlite", "feed_2.sqlite", "feed_3.sqlite"])
        try expectFolder(fixture, holds: manifest)

        try fixture.addEntries(2, ["f2-new"])
        manifest = try fixture.publish()
        let second = try await fixture.sync()
        #expect(second.problems.isEmpty)
        #expect(second.deltaDownloads == ["feed_2.sqlite"])
        #expect(second.fullDownloads == ["all_feeds.sqlite"] || second.fullDownloads.isEmpty)
        #expect(second.bytesInDeltas > 0 && second.bytesInDeltas < (manifest.feeds.first { $0.feedID == 2 }?.size ?? 0))
        try expectFolder(fixture, holds: manifest)
        #expect(try sqlite(fixture.path("feed_2.sqlite"), "SELECT title FROM items WHERE id = 'f2-new'") == [["New f2-new"]])

        let third = try await fixture.sync()
        #expect(third.outcome == .upToDate)
        #expect(third.fullDownloads.isEmpty && third.deltaDownloads.isEmpty)
        // Format 2: the root, then each pointer revalidated: three 304s, no body but the root's.
        #expect(third.formatVersion == 2)
        #expect(third.requests == 4 && third.notModified == 3, "\(third)")
        #expect(third.bytesDownloaded == third.bytesInManifest && third.bytesInPointers == 0)
    }

    @Test func aStaleGenerationIsNotApplied() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        let old = try Data(contentsOf: URL(fileURLWithPath: fixture.servedPath + "/manifest.json"))
        try fixture.addEntries(1, ["f1-new"])
        let current = try fixture.publish()
        _ = try await fixture.sync()
        let before = try fixture.snapshot()
        // A CDN still serving the earlier manifest.
        fixture.server.respond { path, _ in path == "/manifest.json" ? .init(body: [UInt8](old)) : nil }
        let report = try await fixture.sync()
        #expect(report.outcome == .staleGeneration)
        #expect(report.previousGeneration == current.generation)
        #expect(report.generation < current.generation)
        #expect(report.fullDownloads.isEmpty && report.deltaDownloads.isEmpty && report.removed.isEmpty)
        #expect(try fixture.snapshot() == before)
    }

    // Format version 3 stands where 2 stood before format 2 was the client's.
    @Test(arguments: [("feedmill-manifest", 3), ("feedmill-manifest", 0), ("someone-elses-manifest", 1)])
    func anUnknownManifestFormatIsRefusedAndTheFilesKept(format: String, version: Int) async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let before = try fixture.snapshot()
        try fixture.addEntries(1, ["f1-new"])
        try fixture.publish()
        try fixture.serveManifest { manifest in
            manifest["format"] = format
            manifest["format_version"] = version
        }
        await #expect {
            _ = try await fixture.sync()
        } throws: { error in
            guard case .unsupportedFormat(_, let found, let foundVersion) = error as? ClientError else { return false }
            return found == format && foundVersion == version && "\(error)".contains("update the client")
        }
        #expect(try fixture.snapshot() == before)
    }

    /// A local file whose rows were changed (by hand, or damaged) no longer matches after the
    /// delta: the client downloads the whole file instead, and ends with the published rows.
    @Test func aDigestMismatchAfterADeltaFallsBackToTheWholeFile() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        try Self.change(fixture.path("feed_1.sqlite"), "UPDATE items SET title = 'changed locally' WHERE id = 'f1-0'")
        try fixture.addEntries(1, ["f1-new"])
        let manifest = try fixture.publish()
        let report = try await fixture.sync()
        #expect(report.problems.isEmpty)
        #expect(report.deltaFallbacks.map(\.file) == ["feed_1.sqlite"])
        guard case .contentDigestMismatch? = report.deltaFallbacks.first?.error else {
            Issue.record("expected a content digest mismatch, got \(report.deltaFallbacks)")
            return
        }
        #expect(report.fullDownloads.contains("feed_1.sqlite"))
        #expect(report.bytesInDeltas > 0)
        try expectFolder(fixture, holds: manifest)
        #expect(try sqlite(fixture.path("feed_1.sqlite"), "SELECT title FROM items WHERE id = 'f1-0'") == [["Entry 0"]])
    }

    /// A removed feed's file goes; nothing else does: not another feed's, not a file the
    /// client did not write (even one named like a feed database).
    @Test func aRemovedFeedLosesOnlyItsOwnFile() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        let foreign = ["notes.txt": Data("mine".utf8), "feed_99.sqlite": Data("not a database".utf8), "feed_2.sqlite.bak": Data("x".utf8)]
        for (name, data) in foreign { try data.write(to: fixture.folder.appendingPathComponent(name)) }
        _ = try await fixture.sync()
        #expect(try fixture.publisher.harness.catalog.remove(feedID: 2) != nil)
        let manifest = try fixture.publish()
        #expect(!manifest.feeds.contains { $0.feedID == 2 })
        let report = try await fixture.sync()
        #expect(report.removed == ["feed_2.sqlite"])
        #expect(!FileManager.default.fileExists(atPath: fixture.path("feed_2.sqlite")))
        try expectFolder(fixture, holds: manifest)
        for (name, data) in foreign { #expect(FileManager.default.contents(atPath: fixture.path(name)) == data, "\(name)") }
    }

    @Test func aFeedNoLongerFollowedLosesItsFileAndOnlyFollowedFeedsAreFetched() async throws {
        let fixture = try ClientFixture()
        let manifest = try fixture.publish()
        _ = try await fixture.sync(.only([1, 3]))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("feed_2.sqlite")))
        #expect(!fixture.server.requests.contains { $0.path.hasPrefix("/feed_2") })
        try expectFolder(fixture, holds: manifest, following: [1, 3])
        let report = try await fixture.sync(.only([1]))
        #expect(report.removed == ["feed_3.sqlite"])
        try expectFolder(fixture, holds: manifest, following: [1])
    }

    /// A file the client did not write, where it would write one, is left alone: that feed is
    /// not synced, the others are.
    @Test func aForeignFileAtAFeedsNameIsLeftAlone() async throws {
        let fixture = try ClientFixture()
        let manifest = try fixture.publish()
        let mine = Data("an app's own file".utf8)
        try mine.write(to: fixture.folder.appendingPathComponent("feed_1.sqlite"))
        let report = try await fixture.sync()
        #expect(report.problems.map(\.file) == ["feed_1.sqlite"])
        guard case .foreignFile? = report.problems.first?.error else {
            Issue.record("expected a foreign file, got \(report.problems)")
            return
        }
        #expect(FileManager.default.contents(atPath: fixture.path("feed_1.sqlite")) == mine)
        try expectFolder(fixture, holds: manifest, following: [2, 3])
        // Still not its own on the next sync, and still not removed when the feed goes.
        #expect(try fixture.publisher.harness.catalog.remove(feedID: 1) != nil)
        try fixture.publish()
        let later = try await fixture.sync()
        #expect(later.removed.isEmpty)
        #expect(FileManager.default.contents(atPath: fixture.path("feed_1.sqlite")) == mine)
    }

    /// A download cut short (a proxy, a dropped connection that still looked complete) never
    /// replaces a file; the next sync, served whole, completes.
    @Test func aTruncatedDownloadIsRejected() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let before = try fixture.snapshot()
        try fixture.addEntries(3, ["f3-new"])
        let manifest = try fixture.publish()
        let delta = try #require(manifest.feeds.first { $0.feedID == 3 }?.deltas.first?.file)
        let whole = try #require(manifest.feeds.first { $0.feedID == 3 }?.file)
        fixture.server.respond { path, bytes in
            guard path == "/" + delta || path == "/" + whole, let bytes else { return nil }
            return .init(body: Array(bytes.prefix(bytes.count / 2)))
        }
        let report = try await fixture.sync()
        #expect(report.problems.map(\.file) == ["feed_3.sqlite"])
        guard case .sizeMismatch? = report.problems.first?.error else {
            Issue.record("expected a size mismatch, got \(report.problems)")
            return
        }
        #expect(report.deltaFallbacks.map(\.file) == ["feed_3.sqlite"])
        #expect(FileManager.default.contents(atPath: fixture.path("feed_3.sqlite")) == before["feed_3.sqlite"])
        #expect(try fixture.snapshot().keys.filter { $0.hasPrefix(".feedmill-client.tmp.") }.isEmpty)

        fixture.server.respond(with: nil)
        let retried = try await fixture.sync()
        #expect(retried.problems.isEmpty)
        #expect(retried.deltaDownloads == ["feed_3.sqlite"])
        try expectFolder(fixture, holds: manifest)
    }

    /// The same bytes with one changed: the size is right, the SHA-256 is not.
    @Test func aChangedDownloadIsRejected() async throws {
        let fixture = try ClientFixture()
        let manifest = try fixture.publish()
        let whole = try #require(manifest.feeds.first { $0.feedID == 2 }?.file)
        fixture.server.respond { path, bytes in
            guard path == "/" + whole, var bytes else { return nil }
            bytes[bytes.count - 1] ^= 0xFF
            return .init(body: bytes)
        }
        let report = try await fixture.sync()
        guard case .sha256Mismatch? = report.problems.first?.error, report.problems.count == 1 else {
            Issue.record("expected one SHA-256 mismatch, got \(report.problems)")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.path("feed_2.sqlite")))
        try expectFolder(fixture, holds: manifest, following: [1, 3])
    }

    @Test func aSchemaVersionAboveWhatTheClientReadsKeepsTheOldFile() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let before = try fixture.snapshot()
        try fixture.addEntries(1, ["f1-new"])
        try fixture.publish()
        try fixture.editEntries(1) { entry in
            entry["schema_version"] = PublicationSync.knownFeedSchemaVersions.upperBound + 1
        }
        let report = try await fixture.sync()
        guard case .unsupportedSchema? = report.problems.first?.error, report.problems.count == 1 else {
            Issue.record("expected one unsupported schema, got \(report.problems)")
            return
        }
        #expect(FileManager.default.contents(atPath: fixture.path("feed_1.sqlite")) == before["feed_1.sqlite"])
    }

    /// A schema version going down (a replay, or a broken server: migrations only add) is
    /// refused, the newer file kept, whatever the entry's digests say.
    @Test func aSchemaVersionGoingDownKeepsTheNewerFile() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        _ = try await fixture.sync()
        let before = try fixture.snapshot()
        try fixture.addEntries(1, ["f1-new"])
        try fixture.publish()
        try fixture.editEntries(1) { entry in
            entry["schema_version"] = PublicationSync.knownFeedSchemaVersions.lowerBound
        }
        let report = try await fixture.sync()
        guard case .schemaWentBack(_, let version, let held)? = report.problems.first?.error, report.problems.count == 1 else {
            Issue.record("expected the schema going down refused, got \(report.problems)")
            return
        }
        #expect(version == PublicationSync.knownFeedSchemaVersions.lowerBound && held > version)
        #expect(FileManager.default.contents(atPath: fixture.path("feed_1.sqlite")) == before["feed_1.sqlite"])
    }

    /// What a sync killed mid-way leaves: temporaries of its own (and the journal SQLite kept
    /// beside one). The next sync removes them and nothing else.
    @Test func leftoverTemporariesAreRemovedAndNothingElse() async throws {
        let fixture = try ClientFixture()
        let manifest = try fixture.publish()
        let leftovers = [".feedmill-client.tmp.feed_1.sqlite.k3j2", ".feedmill-client.tmp.feed_1.sqlite.k3j2-journal"]
        for name in leftovers { try Data("half".utf8).write(to: fixture.folder.appendingPathComponent(name)) }
        try Data("other".utf8).write(to: fixture.folder.appendingPathComponent(".some-other-tmp.feed_1.sqlite"))
        let report = try await fixture.sync()
        #expect(report.temporariesRemoved == 2)
        for name in leftovers { #expect(!FileManager.default.fileExists(atPath: fixture.path(name))) }
        #expect(FileManager.default.fileExists(atPath: fixture.path(".some-other-tmp.feed_1.sqlite")))
        try expectFolder(fixture, holds: manifest)
    }

    @Test func aSecondSyncOfTheSameFolderIsRefusedWhileOneRuns() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        // The first sync waits on a slow manifest while the second starts.
        fixture.server.respond { path, bytes in path == "/manifest.json" ? .init(body: bytes ?? [], delay: 1) : nil }
        let sync = PublicationSync(baseURL: fixture.base, folder: fixture.folder)
        async let first = sync.run()
        try await Task.sleep(for: .milliseconds(300))
        await #expect {
            _ = try await fixture.sync()
        } throws: { error in
            guard case .busy = error as? ClientError else { return false }
            return true
        }
        #expect(try await first.problems.isEmpty)
    }

    @Test func aMissingManifestIsAnErrorThatSaysWhere() async throws {
        let fixture = try ClientFixture()
        await #expect {
            _ = try await fixture.sync()
        } throws: { error in
            guard case .httpStatus(let url, 404) = error as? ClientError else { return false }
            return url.path.hasSuffix("/manifest.json")
        }
    }

    /// Changes a local database as someone other than the client would.
    private static func change(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }
}

/// Every followed file of `manifest` is in the folder, its rows' digest the one the served
/// publication gives (read again from the served root and pointers); no other feed database
/// the client wrote is there.
func expectFolder(
    _ fixture: ClientFixture, holds manifest: PublishedView, following: Set<Int64>? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let given = try fixture.view()
    var expected: [String: String] = [:]
    expected[given.catalog.name] = given.catalog.contentDigest
    for feed in given.feeds {
        guard let id = feed.feedID, following?.contains(id) ?? true else { continue }
        expected[feed.name] = feed.contentDigest
    }
    #expect(expected.count == 1 + (following?.count ?? manifest.feeds.count), sourceLocation: sourceLocation)
    for (name, digest) in expected {
        let local = try IndependentDigest.of(fixture.path(name), catalog: name == "all_feeds.sqlite")
        #expect(local == digest, "\(name)", sourceLocation: sourceLocation)
    }
}
