import FeedBasics
import FeedObjectStorage
import FeedPublishing
@testable import FeedPublishingObjectStorage
import Foundation
import TestSupport
import Testing

/// Bad settings get a clear error, of the kind that decides the exit status, naming the
/// bucket, the endpoint and the variable or file to fix; nothing is written.
@Suite("the S3 target's refusals")
struct TargetFailureTests {
    @Test("wrong credentials are denied, a missing bucket is missing, a closed port is unreachable", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func refusals() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let wrong = try target(server, secret: "not-the-secret")
        let denied = try #require(throws: PublishError.self) { try wrong.lock(for: .all, lease: .seconds(60)) }
        guard case .target(let location, let reason, .denied) = denied else { Issue.record("\(denied)"); return }
        #expect(location == "s3://\(server.bucket)/site")
        #expect(reason.contains(server.endpoint) && reason.contains("AWS_SECRET_ACCESS_KEY") && reason.contains("SignatureDoesNotMatch"))
        #expect(!denied.description.contains("not-the-secret"))

        let noBucket = try target(server, bucket: "no-such-bucket")
        let missing = try #require(throws: PublishError.self) { try noBucket.lock(for: .all, lease: .seconds(60)) }
        guard case .target(_, let why, .missing) = missing else { Issue.record("\(missing)"); return }
        #expect(why.contains("\"no-such-bucket\"") && why.contains(server.endpoint) && why.contains("AWS_ENDPOINT_URL"))

        let closed = try target(
            server, endpoint: "http://127.0.0.1:\(try closedPort())",
            retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(20), deadline: .seconds(5)))
        let unreachable = try #require(throws: PublishError.self) { try closed.lock(for: .all, lease: .seconds(60)) }
        guard case .target(_, let because, .unreachable) = unreachable else { Issue.record("\(unreachable)"); return }
        #expect(because.contains("after 3 tries") && because.contains("AWS_ENDPOINT_URL"))

        // None of them wrote anything.
        #expect(try bystander(server).list().isEmpty)
    }

    @Test("s3://bucket/prefix is parsed strictly; missing settings name the variable")
    func locations() throws {
        let place = try ObjectStorageLocation(parsing: "s3://my-bucket.example/a/b/")
        #expect(place.bucket == "my-bucket.example" && place.prefix == "a/b" && place.key("manifest.json") == "a/b/manifest.json")
        #expect(try ObjectStorageLocation(parsing: "s3://bucket").key("manifest.json") == "manifest.json")
        #expect(place.name(ofKey: "a/b/feed_1.json") == "feed_1.json")
        #expect(place.name(ofKey: "a/b/deeper/feed_1.json") == nil && place.name(ofKey: "a/bc/feed_1.json") == nil)
        for bad in ["s3://", "s3://ab", "s3://Upper", "s3://-bucket", "s3://bucket./x", "s3://bucket/a b", "s3://bucket/a//b", "/dir", "s3://bucket/..", "s3://bucket/a/../b", "s3://bucket/./a", "s3://bucket/a/."] {
            #expect(throws: ObjectStorageLocation.Invalid.self, "\(bad)") { try ObjectStorageLocation(parsing: bad) }
        }
        let error = try #require(throws: PublishError.self) {
            try ObjectStorageTarget.make(out: "s3://bucket/site", environment: ["AWS_SECRET_ACCESS_KEY": "s"])
        }
        guard case .target(_, let reason, .denied) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("AWS_ACCESS_KEY_ID") && reason.contains("~/.aws/credentials"))
    }

    @Test("every name is uploaded with the Cache-Control and Content-Type of its kind (SPEC-41 §2)")
    func headersByName() {
        let hex = String(repeating: "ab", count: 32)
        let expected: [(String, String, String)] = [
            ("manifest.json", "public, max-age=30", "application/json"),
            ("feed_42.json", "public, max-age=30", "application/json"),
            ("feed_42.\(hex).sqlite", "public, max-age=31536000, immutable", "application/vnd.sqlite3"),
            ("feed_42.\(hex).delta.json", "public, max-age=31536000, immutable", "application/json"),
            ("all_feeds.\(hex).sqlite", "public, max-age=31536000, immutable", "application/vnd.sqlite3"),
            ("publisher.2of4.\(hex).json", "public, max-age=31536000, immutable", "application/json"),
            ("all_feeds.sqlite", "public, max-age=60", "application/vnd.sqlite3"),
            ("feed_42.sqlite", "public, max-age=60", "application/vnd.sqlite3"),
            ("atom.xml", "public, max-age=60", "application/atom+xml"),
            ("index.html", "public, max-age=60", "text/html; charset=utf-8"),
            (".feedmill-intent.1of1.json", "no-store", "application/json"),
            (".feedmill-lock.1of1.json", "no-store", "application/json"),
            // Format 1's versioned names never change either.
            ("feed_3.v2.sqlite", "public, max-age=31536000, immutable", "application/vnd.sqlite3"),
            ("feed_3.v1-v2.delta.json", "public, max-age=31536000, immutable", "application/json"),
            ("all_feeds.v4.sqlite", "public, max-age=31536000, immutable", "application/vnd.sqlite3"),
        ]
        for (name, cache, type) in expected {
            #expect(PublishedHeaders.cacheControl(of: name) == cache, "\(name)")
            #expect(PublishedHeaders.contentType(of: name) == type, "\(name)")
        }
    }

    private func closedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
