import FeedFetching
import FeedModel
import FeedPipeline
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A feed is parsed and stored while it downloads, in one transaction that commits only when
/// the whole document has arrived: a transfer that fails half-way leaves nothing behind.
@Suite("rss-update streams large feeds into their databases")
struct StreamingUpdateTests {
    /// About 1.4 MB: past the 1 MiB held before parsing starts.
    static func largeFeed(items: Int = 6_000, tag: String = "v1") -> [UInt8] {
        Array(rss("Large", items: (0..<items).map { ("g\($0)", "Entry \($0) \(tag)", "https://site.example/\($0)", nil) }).utf8)
    }

    /// A response without validators: only the body's hash tells an unchanged feed.
    static func response(_ body: [UInt8], gzip: Bool = false, chunkSize: Int? = nil, chunkDelay: Double = 0) throws -> TestHTTPServer.Response {
        var headers = [("Content-Type", "application/rss+xml")]
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        return .init(headers: headers, body: gzip ? try gzipped(body) : body, chunkSize: chunkSize, chunkDelay: chunkDelay)
    }

    /// The run's one feed's failure; an issue recorded when it did not fail.
    static func failure(of report: Ran) -> (kind: FailureKind, message: String)? {
        guard case .failed(let kind, let message)? = report.feeds.first?.outcome else {
            Issue.record("expected a failure, got \(String(describing: report.feeds.first?.outcome))")
            return nil
        }
        return (kind, message)
    }

    static func serve(_ response: TestHTTPServer.Response) throws -> FeedServer {
        let server = try FeedServer()
        server.override("/f.xml", response)
        return server
    }

    @Test(arguments: [false, true])
    func aLargeGzippedFeedIsStoredWhole(closeDelimited: Bool) throws {
        let harness = try Harness()
        let server = try Self.serve(Self.response(Self.largeFeed(), gzip: true, chunkSize: closeDelimited ? 8_192 : nil))
        let id = try #require(try harness.add([server.url("/f.xml")]).first)
        let report = try harness.update()
        #expect(report.feeds.first?.outcome == .updated(UpsertSummary(inserted: 6_000)))
        let items = try harness.items(id)
        #expect(items.count == 6_000)
        #expect(items["g5999"]?[0] == "Entry 5999 v1")
        #expect(try harness.feed(id).title == "Large")
    }

    @Test func aTransferThatTimesOutHalfWayStoresNothingAndIsRetried() throws {
        let harness = try Harness()
        let server = try Self.serve(Self.response(Self.largeFeed(tag: "v1")))
        let id = try #require(try harness.add([server.url("/f.xml")]).first)
        _ = try harness.update()
        let before = try #require(harness.fileBytes(harness.databasePath(id)))

        // The same URL now sends 400 KB of changed entries (past what is held before parsing
        // starts), then stalls; the fetch is cut off at 1 s. (libcurl checks its timeout when
        // the socket runs dry, so the stall, not a slow trickle, makes this deterministic.)
        server.override("/f.xml", try Self.response(Self.largeFeed(tag: "v2"), chunkSize: 400_000, chunkDelay: 5))
        harness.tuneFetch = { $0.totalTimeout = 1 }
        harness.now += 7_200
        let report = try harness.update(.feeds([id]))
        guard let (kind, _) = Self.failure(of: report) else { return }
        #expect(kind == .timeout)
        #expect(harness.fileBytes(harness.databasePath(id)) == before, "entries parsed before the cut-off were rolled back")
        #expect(try harness.feed(id).state.consecutiveErrors == 1)
        #expect(try harness.feed(id).state.nextAttempt != nil, "due again after its backoff")
    }

    @Test func aFirstFetchThatFailsHalfWayLeavesNoFileBehind() throws {
        let harness = try Harness()
        let server = try Self.serve(Self.response(Self.largeFeed()))
        harness.tuneFetch = { $0.maxBodyBytes = 600_000 }
        let id = try #require(try harness.add([server.url("/f.xml")]).first)
        let report = try harness.update()
        guard let (kind, _) = Self.failure(of: report) else { return }
        #expect(kind == .tooLarge)
        #expect(!FileManager.default.fileExists(atPath: harness.databasePath(id)), "the file it created for the feed is gone again")
        #expect(!FileManager.default.fileExists(atPath: harness.databasePath(id) + "-journal"))
    }

    @Test func aLargeBodyThatHashesAsLastTimeLeavesTheFileByteIdentical() throws {
        let harness = try Harness()
        let server = try Self.serve(Self.response(Self.largeFeed()))
        let id = try #require(try harness.add([server.url("/f.xml")]).first)
        _ = try harness.update()
        let before = try #require(harness.fileBytes(harness.databasePath(id)))
        harness.now += 7_200
        let report = try harness.update(.feeds([id]))
        #expect(report.feeds.first?.outcome == .unchanged)
        #expect(harness.fileBytes(harness.databasePath(id)) == before)
    }

    @Test func aDryRunOfALargeFeedCountsWithoutWriting() throws {
        let harness = try Harness()
        let server = try Self.serve(Self.response(Self.largeFeed(items: 3_000)))
        let id = try #require(try harness.add([server.url("/f.xml")]).first)
        _ = try harness.update()
        let before = try #require(harness.fileBytes(harness.databasePath(id)))
        server.override("/f.xml", try Self.response(Self.largeFeed(items: 6_000)))
        let report = try harness.update(.feeds([id]), dryRun: true)
        #expect(report.feeds.first?.outcome == .wouldUpdate(UpsertSummary(inserted: 3_000, unchanged: 3_000)))
        #expect(harness.fileBytes(harness.databasePath(id)) == before)
    }

    @Test func aDocumentThatTurnsHostileHalfWayStoresNothing() throws {
        let harness = try Harness()
        var body = Self.largeFeed()
        body.removeLast("</channel></rss>".utf8.count)
        body += Array(("<item><description>" + String(repeating: "<x>", count: 300)).utf8)
        body += [UInt8](repeating: 0x20, count: 1 << 20)
        let server = try Self.serve(Self.response(body, chunkSize: 65_536, chunkDelay: 0.002))
        let id = try #require(try harness.add([server.url("/f.xml")]).first)
        let report = try harness.update()
        guard let (kind, message) = Self.failure(of: report) else { return }
        #expect(kind == .notAFeed)
        #expect(message.contains("nested deeper"))
        #expect(!FileManager.default.fileExists(atPath: harness.databasePath(id)))
    }

    /// Held compressed, a small body is inflated only when it is parsed: the cap still counts
    /// inflated bytes, and a bomb stores nothing, nor the validators that came with it.
    @Test func aSmallGzipBombFailsAsTooLargeAndStoresNothing() throws {
        let harness = try Harness()
        harness.tuneFetch = { $0.maxBodyBytes = 4 << 20 }
        let bomb = try gzipped(Array("<rss><channel><title>Bomb</title>".utf8) + [UInt8](repeating: 0x20, count: 32 << 20))
        #expect(bomb.count < 1 << 20, "small enough to be held")
        let server = try Self.serve(.init(headers: [("Content-Encoding", "gzip"), ("ETag", "\"bomb\"")], body: bomb))
        let id = try #require(try harness.add([server.url("/f.xml")]).first)
        let report = try harness.update()
        guard let (kind, message) = Self.failure(of: report) else { return }
        #expect(kind == .tooLarge, "\(message)")
        #expect(!FileManager.default.fileExists(atPath: harness.databasePath(id)))
        #expect(try harness.feed(id).state.etag == nil, "its ETag is not kept: the next run fetches it whole")
        #expect(try harness.feed(id).state.consecutiveErrors == 1)
    }

    @Test(arguments: ["damaged", "cut short"])
    func aBrokenGzipBodyStoresNothingAndKeepsWhatWasThere(_ breakage: String) throws {
        let harness = try Harness()
        let good = Array(rss("Small", items: [("a", "A", "https://site.example/a", nil)]).utf8)
        let server = try Self.serve(.init(headers: [("Content-Encoding", "gzip"), ("ETag", "\"v1\"")], body: try gzipped(good)))
        let id = try #require(try harness.add([server.url("/f.xml")]).first)
        _ = try harness.update()
        let before = try #require(harness.fileBytes(harness.databasePath(id)))

        var broken = try gzipped(Array(rss("Small", items: [("b", "B", "https://site.example/b", nil)]).utf8))
        if breakage == "damaged" {
            for index in 12..<24 { broken[index] ^= 0x5A }
        } else {
            broken.removeLast(broken.count / 2)
        }
        server.override("/f.xml", .init(headers: [("Content-Encoding", "gzip"), ("ETag", "\"v2\"")], body: broken))
        harness.now += 7_200
        let report = try harness.update(.feeds([id]))
        guard let (kind, _) = Self.failure(of: report) else { return }
        #expect(kind == .network)
        #expect(harness.fileBytes(harness.databasePath(id)) == before, "not a shorter document: nothing stored")
        #expect(try harness.feed(id).state.etag == "\"v1\"", "the new ETag is not kept")
        #expect(try harness.items(id).keys.sorted() == ["a"])
    }
}
