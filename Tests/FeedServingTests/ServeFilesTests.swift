import FeedBasics
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-serve` serving a publication as the client contract asks of any static server, checked
/// with curl and with rss-pull, the reference client, over real HTTP.
@Suite("rss-serve: the publication's files", .serialized)
struct ServeFilesTests {
    @Test func filesAreServedWithTheContractsHeadersETagsAndRanges() throws {
        let run = try BinaryRun(feeds: 2, items: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let serve = try ServeProcess(out: run.out, in: run.root.url.path)
        let base = serve.baseURL

        let root = try curl([base + "/manifest.json"])
        #expect(root.head.hasPrefix("HTTP/1.1 200"), "\(root.head)")
        #expect(header("Content-Type", in: root.head) == "application/json")
        #expect(header("Cache-Control", in: root.head) == "public, max-age=30")
        #expect(root.body == (try String(contentsOfFile: run.out + "/manifest.json", encoding: .utf8)))
        let tag = try #require(header("ETag", in: root.head))
        #expect(tag.hasPrefix("\"") && tag.count == 34, "a strong ETag: \(tag)")
        let again = try curl(["-H", "If-None-Match: \(tag)", base + "/manifest.json"])
        #expect(again.head.hasPrefix("HTTP/1.1 304") && again.body.isEmpty, "\(again.head)")

        let snapshot = try #require(try FileManager.default.contentsOfDirectory(atPath: run.out).first { $0.hasPrefix("feed_1.") && $0.hasSuffix(".sqlite") && $0.count > 70 })
        let bytes = try #require(FileManager.default.contents(atPath: run.out + "/" + snapshot))
        let head = try curl(["-I", base + "/" + snapshot])
        #expect(head.head.hasPrefix("HTTP/1.1 200") && header("Content-Length", in: head.head) == "\(bytes.count)", "\(head.head)")
        #expect(header("Content-Type", in: head.head) == "application/vnd.sqlite3")
        #expect(header("Cache-Control", in: head.head) == "public, max-age=31536000, immutable")
        let part = try runToCompletion("/usr/bin/curl", ["-s", "-r", "0-15", base + "/" + snapshot])
        #expect(part.stdout == "SQLite format 3\0", "the first 16 bytes")
        let range = try curl(["-r", "100-", base + "/" + snapshot])
        #expect(range.head.hasPrefix("HTTP/1.1 206") && header("Content-Range", in: range.head) == "bytes 100-\(bytes.count - 1)/\(bytes.count)")
        let beyond = try curl(["-r", "\(bytes.count)-", base + "/" + snapshot])
        #expect(beyond.head.hasPrefix("HTTP/1.1 416") && header("Content-Range", in: beyond.head) == "bytes */\(bytes.count)")

        let page = try curl([base + "/"])
        #expect(page.head.hasPrefix("HTTP/1.1 200") && header("Content-Type", in: page.head) == "text/html; charset=utf-8")
        #expect(serve.stop().status == 0)
    }

    /// A file larger than one chunk (a catalog snapshot of a large publication) is hashed and
    /// sent a chunk at a time: the same bytes, the same tag rule, ranges across chunk boundaries.
    @Test func aLargeFileIsStreamedByteForByte() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(3 * 1_048_576 + 12_345)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let name = "large.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: run.out + "/" + name))
        let serve = try ServeProcess(out: run.out, in: run.root.url.path)
        let copy = run.root.url.path + "/copy.bin"
        let whole = try runToCompletion("/usr/bin/curl", ["-s", "-D", run.root.url.path + "/head.txt", "-o", copy, serve.baseURL + "/" + name])
        #expect(whole.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(bytes), "the same bytes")
        let head = try String(contentsOfFile: run.root.url.path + "/head.txt", encoding: .utf8)
        let digest = SHA256.hexDigest(bytes)
        #expect(header("ETag", in: head) == "\"" + digest.prefix(32) + "\"", "\(head)")
        #expect(header("Content-Length", in: head) == "\(bytes.count)")
        // Across the first chunk boundary (256 KiB) and to the end.
        for (first, last) in [(262_000, 263_000), (1_000, 2_000_000), (bytes.count - 10, bytes.count - 1)] {
            let part = run.root.url.path + "/part.bin"
            #expect(try runToCompletion("/usr/bin/curl", ["-s", "-r", "\(first)-\(last)", "-o", part, serve.baseURL + "/" + name]).status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: part)) == Data(bytes[first...last]), "\(first)-\(last)")
        }
        #expect(serve.stop().status == 0)
    }

    /// JSON is gzipped for a reader that takes it: its own strong tag, Vary, the same bytes
    /// once inflated; not when refused (q=0) or asked by range; either tag revalidates.
    @Test func jsonIsGzippedForReadersThatTakeIt() throws {
        let run = try BinaryRun(feeds: 2, items: 3)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let serve = try ServeProcess(out: run.out, in: run.root.url.path)
        let url = serve.baseURL + "/manifest.json"
        let original = try Data(contentsOf: URL(fileURLWithPath: run.out + "/manifest.json"))
        let plain = try curl([url])
        let tag = try #require(header("ETag", in: plain.head))
        #expect(header("Content-Encoding", in: plain.head) == nil && header("Vary", in: plain.head) == "Accept-Encoding")
        let scratch = run.root.url.path
        let raw = try runToCompletion("/usr/bin/curl", ["-s", "-D", scratch + "/gz-head.txt", "-H", "Accept-Encoding: gzip", "-o", scratch + "/m.gz", url])
        #expect(raw.status == 0)
        let head = try String(contentsOfFile: scratch + "/gz-head.txt", encoding: .utf8)
        let gzipTag = String(tag.dropLast()) + "-gzip\""
        #expect(header("Content-Encoding", in: head) == "gzip" && header("ETag", in: head) == gzipTag, "\(head)")
        let inflated = try runToCompletion("/bin/sh", ["-c", "gzip -dc < \(scratch)/m.gz"])
        #expect(Data(inflated.stdout.utf8) == original, "the same bytes once inflated")
        let compressedSize = (try FileManager.default.attributesOfItem(atPath: scratch + "/m.gz")[.size] as? Int) ?? 0
        #expect(compressedSize > 0 && compressedSize < original.count)
        #expect(try curl(["--compressed", url]).body == String(decoding: original, as: UTF8.self))
        for asked in [gzipTag, tag] {
            let revalidated = try curl(["-H", "Accept-Encoding: gzip", "-H", "If-None-Match: \(asked)", url])
            #expect(revalidated.head.hasPrefix("HTTP/1.1 304"), "\(asked): \(revalidated.head)")
        }
        let refused = try curl(["-H", "Accept-Encoding: gzip;q=0, identity", url])
        #expect(header("Content-Encoding", in: refused.head) == nil && refused.body == String(decoding: original, as: UTF8.self))
        let ranged = try curl(["-H", "Accept-Encoding: gzip", "-r", "0-9", url])
        #expect(ranged.head.hasPrefix("HTTP/1.1 206") && header("Content-Encoding", in: ranged.head) == nil && ranged.body.utf8.count == 10)
        #expect(serve.stop().status == 0)
    }

    /// Nothing outside the publication, nothing hidden, no listing, no link followed.
    @Test func nothingOutsideThePublicationIsServed() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let scratch = run.root.url.path
        try "secret\n".write(toFile: scratch + "/secret.txt", atomically: true, encoding: .utf8)
        #expect(symlink(scratch + "/secret.txt", run.out + "/link.json") == 0)
        #expect(symlink("/etc/passwd", run.out + "/passwd") == 0)
        try FileManager.default.createDirectory(atPath: run.out + "/sub", withIntermediateDirectories: true)
        try "x".write(toFile: run.out + "/sub/file.json", atomically: true, encoding: .utf8)
        let serve = try ServeProcess(out: run.out, in: scratch)
        let base = serve.baseURL
        for path in ["/.feedmill-intent.1of1.json", "/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/link.json", "/passwd", "/sub",
            "/sub/file.json", "/sub/", "//etc/passwd", "/feed_1.json%00"]
        {
            let answer = try curl(["--path-as-is", base + path])
            #expect(answer.head.hasPrefix("HTTP/1.1 404"), "\(path): \(answer.head)")
            #expect(!answer.body.contains("secret") && !answer.body.contains("root:"), "\(path)")
        }
        let post = try curl(["-X", "POST", base + "/manifest.json"])
        #expect(post.head.hasPrefix("HTTP/1.1 405"), "\(post.head)")
        #expect(serve.stop().status == 0)
    }

    /// The reference client syncs from rss-serve, and a second sync costs 304s.
    @Test func theReferenceClientSyncsFromIt() throws {
        let run = try BinaryRun(feeds: 3, items: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let serve = try ServeProcess(out: run.out, in: run.root.url.path)
        let folder = run.root.url.path + "/client"
        let pull = Executable(name: "rss-pull")
        let first = try pull.runCapturing([serve.baseURL + "/", folder])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try pull.runCapturing([serve.baseURL + "/", folder, "--json"])
        #expect(second.status == 0 && second.stdout.contains("\"not_modified\":3"), "\(second.stdout)")
        #expect(serve.stop().status == 0)
    }
}
