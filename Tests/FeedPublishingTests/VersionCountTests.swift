import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Versions are counted up by one, to 2^53 at most (``Manifest`` numbers a client reads
/// exactly): a file whose name gives a larger number was not written by a publisher. It is
/// left alone, never deleted and never a version to count above, and no number read back
/// can make a count overflow.
@Suite("Publication: versions past what a publisher counts", .serialized)
struct VersionCountTests {
    @Test func aNumberPastWhatAPublisherCountsToIsNotAPublisherName() {
        #expect(PublishedName(fileName: "feed_1.v9007199254740992.sqlite") == .feedVersion(1, version: 1 << 53))
        #expect(PublishedName(fileName: "feed_1.v9007199254740993.sqlite") == nil)
        #expect(PublishedName(fileName: "feed_1.v9223372036854775807.sqlite") == nil)
        #expect(PublishedName(fileName: "feed_1.v99999999999999999999.sqlite") == nil)
        #expect(PublishedName(fileName: "all_feeds.v9223372036854775807.sqlite") == nil)
        #expect(PublishedName(fileName: "feed_1.v1-v9223372036854775807.delta.json") == nil)
        #expect(PublishedName(fileName: "feed_1.v9223372036854775807-v2.delta.json") == nil)
        // A feed id is the catalog's, not counted: any the catalog can hold is read back.
        #expect(PublishedName(fileName: "feed_9223372036854775807.sqlite") == .feed(Int64.max))
    }

    @Test func strayFilesNumberedPastAnyCountAreLeftAloneAndPublishingSucceeds() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        try FileManager.default.createDirectory(atPath: run.out, withIntermediateDirectories: true)
        let strays = [
            "feed_1.v9223372036854775807.sqlite", "all_feeds.v9223372036854775807.sqlite",
            "feed_2.v1-v9223372036854775807.delta.json", "feed_2.v9007199254740993.sqlite",
        ]
        for name in strays { _ = try TemporaryDirectory.writeFile(run.out + "/" + name, "a user's file") }
        // The first publication counts above what it finds; later ones retire old versions.
        for round in 0..<5 {
            if round > 0 { try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("extra-\(round)")], now: 5_000) }
            let result = try run.publishAll()
            #expect(result.status == 0, "round \(round): \(result.stderr)")
        }
        let manifest = try PublishHarnessReader.manifest(run.out)
        #expect((1...5).contains(manifest.catalog?.version ?? 0) && manifest.feeds.map(\.version) == [5, 1], "counted from 1, as in an empty directory")
        for name in strays {
            #expect(try String(contentsOfFile: run.out + "/" + name, encoding: .utf8) == "a user's file", "\(name) untouched")
        }
    }

    @Test func aFeedWhoseVersionsAreCountedOutFailsAloneAndTheManifestStaysReadable() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        try FileManager.default.createDirectory(atPath: run.out, withIntermediateDirectories: true)
        // A publisher name at the last version: feed 1 has no version left to publish here.
        let last = try TemporaryDirectory.writeFile(run.out + "/feed_1.v9007199254740992.sqlite", "left over")
        let first = try run.publishAll()
        #expect(first.status == 1, "\(first.stderr)")
        #expect(first.stderr.contains("feed 1 not published") && first.stderr.contains("the last number a client reads exactly"), "\(first.stderr)")
        #expect(try PublishHarnessReader.manifest(run.out).feeds.map(\.feedID) == [2])
        // The next publication reads the manifest (no version past 2^53 was written) and feed 1
        // fails again, alone, for as long as the file is there.
        let second = try run.publishAll()
        #expect(second.status == 1 && !second.stderr.contains("not one a publisher counts to"), "\(second.stderr)")
        #expect(second.stderr.contains("the last number a client reads exactly"), "\(second.stderr)")
        #expect(try String(contentsOfFile: last, encoding: .utf8) == "left over")
    }
}

/// A file at the name the next version would take, put there by someone else after the last
/// publication: the manifest does not name it, so the publication counts above it.
@Suite("Publication: a file at the next version's name")
struct NextVersionNameTests {
    @Test func aFileAtTheNextVersionsNameIsNeverWrittenOver() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 1, items: 1)
        _ = try publish.publish()
        let foreign = try publish.out.write("feed_1.v2.sqlite", "not the publisher's")
        try publish.write(1, [entry("new")])
        let report = try publish.publish()
        #expect(report.failures.isEmpty && report.feedsWritten == 1)
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not the publisher's")
        #expect(try publish.manifest().feeds.map(\.version) == [3], "counted above the file found there")
        // Never the publisher's: kept through the publications that retire versions 1 and 3.
        for round in 0..<5 {
            try publish.write(1, [entry("round-\(round)")])
            _ = try publish.publish()
        }
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not the publisher's")
    }
}
