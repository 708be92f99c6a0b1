import FeedBasics
import FeedObjectStorage
import Foundation
import TestSupport
import Testing

@Suite("uploads from files and downloads into files")
struct StreamingTests {
    @Test("a 3 MB file is uploaded as it is read, with its checksum, and downloaded into a file whole", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func roundTripsThroughFiles() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let s3 = try client(for: server)
        let scratch = try TemporaryDirectory()
        var random = SeededGenerator.announced()
        let bytes = (0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let source = scratch.url.path + "/source.sqlite"
        #expect(FileManager.default.createFile(atPath: source, contents: Data(bytes)))
        let etag = try s3.put(
            "big.sqlite", fileAt: source,
            options: PutOptions(contentType: "application/vnd.sqlite3", cacheControl: "public, max-age=31536000, immutable", condition: .absent))
        let stored = try #require(try s3.get("big.sqlite"))
        #expect(stored.body == bytes)
        #expect(stored.etag == etag)
        #expect(stored.contentType == "application/vnd.sqlite3")
        #expect(stored.cacheControl == "public, max-age=31536000, immutable")
        // A conditional upload from a file is refused like one from memory.
        #expect(throws: ObjectStorageError.preconditionFailed(key: "big.sqlite")) {
            try s3.put("big.sqlite", fileAt: source, options: PutOptions(condition: .absent))
        }

        let copy = scratch.url.path + "/copy"
        #expect(try s3.download("big.sqlite", to: copy) == etag)
        #expect(FileManager.default.contents(atPath: copy) == Data(bytes))
        #expect(try s3.download("absent", to: copy) == nil)
        #expect(!FileManager.default.fileExists(atPath: copy), "no file is left where nothing was downloaded")
        #expect(throws: ObjectStorageError.localFile(path: scratch.url.path + "/missing", reason: "cannot be read to upload it")) {
            try s3.put("x", fileAt: scratch.url.path + "/missing")
        }
    }
}
