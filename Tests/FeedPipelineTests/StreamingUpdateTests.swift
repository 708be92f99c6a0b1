import FeedFetching
import FeedModel
import FeedPipeline
import FeedStorage
import Foundation
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
        guard case .failed(let kind, _)? = report.feeds.first?.outcome else {
            Issue.record("expected a failure, got \(String(describing: report.feeds.first?.outcome))")
            return
        }
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
        guard case .failed(let kind, _)? = report.feeds.first?.outcome else {
            Issue.record("expected a failure")
            return
        }
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
        guard case .failed(let kind, let message)? = report.feeds.first?.outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(kind == .notAFeed)
        #expect(message.contains("nested deeper"))
        #expect(!FileManager.default.fileExists(atPath: harness.databasePath(id)))
    }
}
