import FeedBasics
import FeedObjectStorage
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Four `rss-publish --shard K/4 --out s3://…` processes at once against SeaweedFS on
/// 127.0.0.1: their root commits meet (`If-Match` refused), each re-reads the root, merges
/// again and retries, and the bucket ends with one root listing the four shards, every feed
/// published by its own shard, and one catalog with every feed's title.
@Suite("four shards publishing to one bucket at once", .serialized)
struct FourShardsToBucketTests {
    static let hosts = (0..<12).map { "feeds\($0).localhost" }
    static let feedsPerHost = 4
    static var paths: [String] { hosts.flatMap { host in (0..<feedsPerHost).map { "/feed/\(host)/\($0).xml" } } }

    /// An OPML of every feed, on twelve hosts (`*.localhost` is the loopback address), and the feeds.
    static func feedServer() throws -> TestHTTPServer {
        try TestHTTPServer { request in
            let port = request.headers["host"].flatMap { $0.split(separator: ":").last.map(String.init) } ?? ""
            if request.path == "/list.opml" {
                let outlines = paths.enumerated().map { index, path in
                    "<outline text=\"Feed \(index)\" xmlUrl=\"http://\(path.split(separator: "/")[1]):\(port)\(path)\"/>"
                }
                return .init(contentType: "text/x-opml", body: "<opml version=\"2.0\"><body>\(outlines.joined())</body></opml>")
            }
            guard paths.contains(request.path) else { return .init(status: 404) }
            return .init(
                headers: [("Content-Type", "application/rss+xml")],
                body: Array(rss("Feed \(request.path)", items: [("\(request.path)#1", "Entry 1", nil, nil)]).utf8))
        }
    }

    @Test("rounds of four concurrent shard publications: one consistent root each time", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func fourShardsPublishOneConsistentRootToABucket() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let relay = try S3RequestRelay(upstream: server.endpoint)
        defer { relay.stop() }
        relay.delayEachRequest(by: 0.005)
        let feeds = try Self.feedServer()
        let root = try TemporaryDirectory()
        let shards = try (1...4).map { try Shard(index: $0, count: 4) }
        #expect(Set(Self.hosts.map { ShardAssignment.shardIndex(ofHost: $0, count: 4) }) == Set(1...4), "every shard has feeds")
        func data(_ shard: Shard) -> String { root.url.path + "/data-\(shard.fileLabel)" }
        for shard in shards {
            let created = try Executable(name: "rss-create").runCapturing([
                "--opml", feeds.baseURL + "/list.opml", "--shard", shard.label, "--data-dir", data(shard), "--allow-private-networks",
            ])
            #expect(created.status == 0, "rss-create --shard \(shard.label): \(created.stderr)")
        }
        // Each feed's owner, by the databases each shard's data directory holds.
        var owner: [Int64: String] = [:]
        for shard in shards {
            for name in try FileManager.default.contentsOfDirectory(atPath: data(shard)) where name.hasPrefix("feed_") && name.hasSuffix(".sqlite") {
                let id = try #require(Int64(name.dropFirst("feed_".count).dropLast(".sqlite".count)))
                #expect(owner[id] == nil, "feed \(id) has one shard")
                owner[id] = shard.label
            }
        }
        #expect(owner.count == Self.paths.count)

        let environment = awsEnvironment(server, endpoint: relay.endpoint)
        let check = try BucketCheck(server)
        var generator = SeededGenerator.announced()
        var conflicts = 0
        for round in 1...3 {
            if round > 1 {
                for (id, label) in owner {
                    let shard = try Shard(parsing: label)
                    try ChangedFeed(path: data(shard) + "/feed_\(id).sqlite").upsert([entry("round-\(round)-\(id)")], now: 7_000 + Int64(round))
                }
            }
            relay.clear()
            let delays = shards.map { _ in Double.random(in: 0...0.05, using: &generator) }
            let processes = try zip(shards, delays).map { shard, delay in
                Thread.sleep(forTimeInterval: delay)
                return try Executable(name: "rss-publish").start(
                    ["--shard", shard.label, "--data-dir", data(shard), "--out", "s3://feedmill-test/site"], environment: environment, captureOutput: true)
            }
            let outputs = processes.map(Output.init)
            processes.forEach { $0.waitUntilExit() }
            for (shard, (process, output)) in zip(shards, zip(processes, outputs)) {
                #expect(process.terminationStatus == 0, "round \(round), rss-publish --shard \(shard.label): \(output.stderr())")
            }
            conflicts += relay.exchanges.filter { $0.method == "PUT" && $0.path.contains("/manifest.json") && ($0.status == 412 || $0.status == 409) }.count

            let manifest = try #require(try check.root())
            let entries = try #require(manifest["shards"] as? [String: [String: Any]])
            #expect(Set(entries.keys) == Set(shards.map(\.label)), "round \(round): one root lists the four shards")
            #expect(try check.generation() == 4 * round, "round \(round): every shard committed once")
            let problems = try check.problems(complete: true)
            #expect(problems.isEmpty, "round \(round): \(problems)")

            let catalog = try #require(manifest["catalog"] as? [String: Any])
            #expect(catalog["feed_count"] as? Int == Self.paths.count)
            let catalogName = try #require(catalog["file"] as? String)
            let catalogBytes = try #require(try check.object(catalogName))
            let scratch = try TemporaryDirectory()
            let catalogPath = scratch.url.path + "/catalog.sqlite"
            _ = FileManager.default.createFile(atPath: catalogPath, contents: Data(catalogBytes))
            let titles = try sqlite(catalogPath, "SELECT feeds.feedid, about.title FROM feeds LEFT JOIN about USING (feedid)")
            #expect(titles.count == Self.paths.count)
            for row in titles { #expect(row[1] != nil, "round \(round): feed \(row[0] ?? "?") has its title in the merged catalog") }

            for (id, label) in owner {
                let taken = try check.takenEntry(feed: id)
                #expect(taken?["shard"] as? String == label, "round \(round): feed \(id)'s usable entry is from its shard \(label)")
                let items = try check.takenItemIDs(feed: id)
                let expected = round == 1 ? (items.first { $0.hasSuffix("#1") } ?? "(none)") : "round-\(round)-\(id)"
                #expect(items.contains(expected), "round \(round): feed \(id) carries this round's rows: \(items)")
            }
        }
        #expect(conflicts >= 1, "the shards' root commits met and were retried (\(conflicts) refused)")
    }
}
