import FeedObjectStorage
import Foundation
import TestSupport
import Testing

@Suite("put, get, head, delete and list against a real S3 server")
struct ObjectVerbTests {
    @Test("an object comes back byte for byte with its type, and a deleted one is gone", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func roundTrip() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let s3 = try client(for: server)
        var random = SeededGenerator.announced()
        let body = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let etag = try s3.put("feeds/1/v3.sqlite", body, options: PutOptions(contentType: "application/vnd.sqlite3", cacheControl: "public, max-age=31536000, immutable"))
        #expect(etag.hasPrefix("\"") && etag.count > 2)

        let read = try #require(try s3.get("feeds/1/v3.sqlite"))
        #expect(read.body == body)
        #expect(read.etag == etag)
        #expect(read.contentType == "application/vnd.sqlite3")
        let head = try #require(try s3.head("feeds/1/v3.sqlite"))
        #expect(head.etag == etag)
        #expect(head.size == body.count)

        let empty = try s3.put("empty", [])
        #expect(try s3.get("empty")?.body == [])
        #expect(try s3.head("empty")?.etag == empty)

        try s3.delete("feeds/1/v3.sqlite")
        #expect(try s3.get("feeds/1/v3.sqlite") == nil)
        #expect(try s3.head("feeds/1/v3.sqlite") == nil)
        // Deleting what is not there is not an error: a resumed clean-up may repeat a delete.
        try s3.delete("feeds/1/v3.sqlite")
        #expect(try s3.list().map(\.key) == ["empty"])
    }

    @Test("a conditional get answers unchanged while the ETag holds, the object once it changes, absent when gone", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func conditionalGet() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let s3 = try client(for: server)
        #expect(try s3.get("site/manifest.json", unlessETag: nil) == .absent)
        let first = try s3.put("site/manifest.json", Array("{\"generation\":1}".utf8))
        guard case .changed(let read) = try s3.get("site/manifest.json", unlessETag: nil) else {
            Issue.record("no object read")
            return
        }
        #expect(read.etag == first && read.body == Array("{\"generation\":1}".utf8))
        #expect(try s3.get("site/manifest.json", unlessETag: first) == .unchanged)
        let second = try s3.put("site/manifest.json", Array("{\"generation\":2}".utf8))
        #expect(second != first)
        guard case .changed(let changed) = try s3.get("site/manifest.json", unlessETag: first) else {
            Issue.record("the new version not read")
            return
        }
        #expect(changed.etag == second && changed.body == Array("{\"generation\":2}".utf8))
        try s3.delete("site/manifest.json")
        #expect(try s3.get("site/manifest.json", unlessETag: second) == .absent)
    }

    @Test("a listing follows continuation tokens, keeps to its prefix and reads back keys that need encoding", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func listingPaginates() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let s3 = try client(for: server)
        // Each printable ASCII character S3 allows in a key, so the path, the prefix and the
        // continuation token all go through the one SigV4 encoding.
        let awkward = ["p/a b", "p/a+b", "p/a=b", "p/a&b", "p/a%20b", "p/a~b", "p/(a)!*'", "p/a,b;c:d@e$", "p/<a>\"&'"]
        let plain = (0..<11).map { "p/feed-\(String($0 + 100))" }
        for key in awkward + plain + ["q/outside"] { try s3.put(key, Array(key.utf8)) }

        let listed = try s3.list(prefix: "p/", pageSize: 3)
        #expect(listed.map(\.key) == (awkward + plain).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for object in listed {
            #expect(object.size == object.key.utf8.count)
            #expect(try s3.get(object.key)?.body == Array(object.key.utf8))
            #expect(try s3.head(object.key)?.etag == object.etag)
        }
        #expect(try s3.list(prefix: "p/", pageSize: 1000).map(\.key) == listed.map(\.key))
        #expect(try s3.list(prefix: "nothing/").isEmpty)
        #expect(try s3.list().count == listed.count + 1)
    }
}
