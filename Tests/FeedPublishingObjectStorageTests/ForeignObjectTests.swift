import FeedBasics
import FeedObjectStorage
import FeedPublishing
@testable import FeedPublishingObjectStorage
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Objects under the prefix that the publisher never puts (object storage has no temporary
/// files and no scratch files: every object is put whole): named like the temporaries a
/// publish directory may hold, they are still someone else's, and stay.
@Suite("Foreign objects beside a bucket publication", .serialized)
struct ForeignObjectTests {
    @Test("objects named like a directory's temporaries are not deleted", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func temporaryLookingObjectsStay() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        let environment = awsEnvironment(server)
        let out = "s3://\(server.bucket)/site"
        let first = try run.publish.runCapturing(["--data-dir", run.data, "--out", out], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let foreign = ["site/feed_1.json.tmp-42", "site/manifest.json.tmp-7", "site/feed_2.sqlite.tmp-9-journal", "site/.feedmill-scratch.1.2"]
        for key in foreign { try bystander(server).put(key, Array("someone else's".utf8)) }
        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("changed")], now: 9_000)
        let second = try run.publish.runCapturing(["--data-dir", run.data, "--out", out], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let check = try BucketCheck(server)
        #expect(try check.generation() == 2, "the second run committed (and so removed what it may)")
        for key in foreign { #expect(try bystander(server).get(key)?.body == Array("someone else's".utf8), "\(key)") }
    }

    @Test("the target deletes only names the publisher gives", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func deletesOnlyPublisherNames() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let publisher = try target(server)
        let hold = try publisher.lock(for: .all, lease: ObjectStorageTarget.defaultLease)
        defer { withExtendedLifetime(hold) {} }
        for name in ["feed_1.json.tmp-42", "notes.txt", ".feedmill-scratch.1.2", "manifest.json"] {
            try bystander(server).put("site/" + name, [1])
            #expect(!publisher.delete(name), "\(name)")
            #expect(try bystander(server).get("site/" + name) != nil, "\(name)")
        }
        try bystander(server).put("site/feed_1.json", [1])
        #expect(publisher.delete("feed_1.json"))
    }
}
