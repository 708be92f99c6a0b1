import FeedBasics
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Several processes share one catalogue, each with `--shard K/N` and a data directory of its
/// own, against one loopback server whose feeds sit on several hosts (`*.localhost`, which
/// libcurl resolves to the loopback address itself).
@Suite("Shards: four processes over one catalogue")
struct ShardCommandTests {
    static let hosts = (0..<12).map { "feeds\($0).localhost" }
    static let feedsPerHost = 4

    /// The feeds' paths, `/feed/<host>/<n>.xml`, one per feed.
    static var paths: [String] {
        hosts.flatMap { host in (0..<feedsPerHost).map { "/feed/\(host)/\($0).xml" } }
    }

    static func host(ofPath path: String) -> String {
        String(path.split(separator: "/")[1])
    }

    /// An OPML of every feed, some hosts spelled in capitals, and the feeds, each with an
    /// ETag (a 304 when it is sent back); each answer takes a little while, so that transfers
    /// overlap and the server sees how many are in flight per host.
    static func feedServer(edition: Edition = Edition()) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            let port = request.headers["host"].flatMap { $0.split(separator: ":").last.map(String.init) } ?? ""
            if request.path == "/list.opml" {
                let outlines = paths.enumerated().map { index, path in
                    let host = host(ofPath: path)
                    return "<outline text=\"Feed \(index)\" xmlUrl=\"http://\(index % 3 == 1 ? host.uppercased() : host):\(port)\(path)\"/>"
                }
                return .init(contentType: "text/x-opml", body: "<opml version=\"2.0\"><body>\(outlines.joined())</body></opml>")
            }
            guard paths.contains(request.path) else { return .init(status: 404) }
            let version = edition.value
            let etag = "\"v\(version)\""
            if request.headers["if-none-match"] == etag { return .init(status: 304, headers: [("ETag", etag)], delay: 0.03) }
            let body = rss("Feed \(request.path)", items: [("\(request.path)#\(version)", "Entry \(version)", nil, nil)])
            return .init(headers: [("Content-Type", "application/rss+xml"), ("ETag", etag)], body: Array(body.utf8), delay: 0.03)
        }
    }

    /// Which edition of every feed the server gives: each lists one entry, of this edition.
    /// `@unchecked Sendable`: `current` is only touched under `lock`.
    final class Edition: @unchecked Sendable {
        private let lock = NSLock()
        private var current = 1
        var value: Int {
            get { lock.withLock { current } }
            set { lock.withLock { current = newValue } }
        }
    }

    /// Requests per feed path, and whether each request was conditional.
    static func requests(_ server: TestHTTPServer, after skipped: Int = 0) -> (counts: [String: Int], conditional: [String: Bool]) {
        var counts: [String: Int] = [:]
        var conditional: [String: Bool] = [:]
        for request in server.requests.dropFirst(skipped) where request.path != "/list.opml" {
            counts[request.path, default: 0] += 1
            conditional[request.path] = request.headers["if-none-match"] != nil
        }
        return (counts, conditional)
    }

    /// Runs one process per shard at once; each one's status and standard error.
    static func runTogether(_ name: String, _ arguments: (Shard) -> [String], shards: [Shard]) throws -> [(status: Int32, stderr: String)] {
        let processes = try shards.map { try Executable(name: name).start(arguments($0), captureOutput: true) }
        let outputs = processes.map(Output.init)
        for process in processes { process.waitUntilExit() }
        return zip(processes, outputs).map { ($0.terminationStatus, $1.stderr()) }
    }

    /// `feed_<id>.sqlite` files of a data directory.
    static func databases(_ directory: String) throws -> Set<Int64> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory).compactMap { name -> Int64? in
            guard name.hasPrefix("feed_"), name.hasSuffix(".sqlite") else { return nil }
            return Int64(name.dropFirst("feed_".count).dropLast(".sqlite".count))
        })
    }

    /// The states `feedmill_feeds` counts feeds by.
    static let feedStates = ["ok", "failing", "never-fetched", "gone"]

    /// A metrics file's samples, by name and labels.
    static func samples(_ path: String) throws -> [String: String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return Dictionary(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            (String($0.prefix { $0 != " " }), String($0.split(separator: " ").last ?? ""))
        }, uniquingKeysWith: { $1 })
    }

    @Test func fourShardsUpdateEveryFeedExactlyOnceAndKeepEachHostInOneShard() throws {
        let server = try Self.feedServer()
        let root = try TemporaryDirectory()
        let shards = try (1...4).map { try Shard(index: $0, count: 4) }
        func data(_ shard: Shard) -> String { root.url.path + "/data-\(shard.fileLabel)" }
        func metrics(_ shard: Shard) -> String { root.url.path + "/update-\(shard.fileLabel).prom" }
        let common = ["--allow-private-networks", "--concurrency", "8", "--per-host", "2"]
        let owner = Dictionary(uniqueKeysWithValues: Self.hosts.map { ($0, ShardAssignment.shardIndex(ofHost: $0, count: 4)) })
        #expect(Set(owner.values) == Set(1...4), "the hosts chosen give every shard some feeds")

        // rss-create on each shard, at once: the whole list in every catalog, databases only
        // for the shard's own feeds, each feed fetched by one of them.
        let created = try Self.runTogether("rss-create", { ["--opml", server.baseURL + "/list.opml", "--shard", $0.label, "--data-dir", data($0)] + common }, shards: shards)
        for (shard, run) in zip(shards, created) { #expect(run.status == 0, "rss-create --shard \(shard): \(run.stderr)") }
        let afterCreate = Self.requests(server)
        #expect(afterCreate.counts == Dictionary(uniqueKeysWithValues: Self.paths.map { ($0, 1) }), "every feed fetched once by the four creates")
        let catalogs = try shards.map { try sqlite(data($0) + "/all_feeds.sqlite", "SELECT feedid, url FROM feeds ORDER BY feedid") }
        #expect(catalogs.allSatisfy { $0 == catalogs[0] } && catalogs[0].count == Self.paths.count, "one catalogue, the same on every shard")
        let pathOf = Dictionary(uniqueKeysWithValues: catalogs[0].compactMap { row -> (Int64, String)? in
            guard let id = row[0].flatMap({ Int64($0) }), let url = row[1], let path = url.range(of: "/feed/").map({ String(url[$0.lowerBound...]) }) else { return nil }
            return (id, path)
        })
        var holder: [String: Int] = [:]
        for shard in shards {
            for id in try Self.databases(data(shard)) {
                let path = try #require(pathOf[id])
                #expect(owner[Self.host(ofPath: path)] == shard.index, "feed \(id) (\(path)) has a database on shard \(shard)")
                #expect(holder.updateValue(shard.index, forKey: path) == nil, "\(path) has databases on two shards")
            }
        }
        #expect(Set(holder.keys) == Set(Self.paths), "every feed has its database on its shard")

        // rss-update --all on each shard, at once: each feed requested exactly once more, and
        // never more transfers in flight to one host than --per-host, across the four.
        let before = server.requests.count
        let updated = try Self.runTogether(
            "rss-update", { ["--all", "--shard", $0.label, "--data-dir", data($0), "--metrics-file", metrics($0)] + common }, shards: shards)
        for (shard, run) in zip(shards, updated) { #expect(run.status == 0, "rss-update --shard \(shard): \(run.stderr)") }
        let afterUpdate = Self.requests(server, after: before)
        #expect(afterUpdate.counts == Dictionary(uniqueKeysWithValues: Self.paths.map { ($0, 1) }), "every feed updated exactly once across the four")
        #expect(afterUpdate.conditional.values.allSatisfy { $0 }, "each shard revalidates its own feeds with their ETags")
        #expect(server.peakInFlightByHost.filter { $0.key.hasSuffix(".localhost") }.values.allSatisfy { $0 <= 2 }, "\(server.peakInFlightByHost)")
        #expect(server.peakInFlightByHost.values.contains(2), "transfers overlapped: the limit was reached, not merely unused")
        var counted = 0, statesCounted = 0
        for shard in shards {
            let samples = try Self.samples(metrics(shard))
            let labels = "command=\"rss-update\",shard=\"\(shard.label)\""
            let unchanged = Int(samples["feedmill_last_run_feeds{\(labels),outcome=\"unchanged\"}"] ?? "") ?? -1
            #expect(unchanged == holder.values.filter { $0 == shard.index }.count, "\(shard): \(samples)")
            #expect(samples["feedmill_last_run_exit_code{\(labels)}"] == "0")
            #expect(try Promtool.problems(inMetricsFile: metrics(shard)) == "")
            // Each shard counts its own feeds: the four files add up to the whole list.
            statesCounted += Self.feedStates.reduce(0) { $0 + (Int(samples["feedmill_feeds{\(labels),state=\"\($1)\"}"] ?? "") ?? -1) }
            counted += unchanged
        }
        #expect(counted == Self.paths.count)
        #expect(statesCounted == Self.paths.count)

        // --feed of another shard's feed: refused before anything is fetched, naming its shard.
        let foreign = try #require(pathOf.sorted { $0.key < $1.key }.first { owner[Self.host(ofPath: $0.value)] != 1 })
        let foreignID: Int64 = foreign.key
        let foreignOwner: Int = try #require(owner[Self.host(ofPath: foreign.value)])
        let requestsBefore = server.requests.count
        let refused = try Executable(name: "rss-update").runCapturing(["--feed", "\(foreignID)", "--shard", "1/4", "--data-dir", data(shards[0])] + common)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("feed \(foreignID)") && refused.stderr.contains("shard \(foreignOwner)/4"), "\(refused.stderr)")
        #expect(server.requests.count == requestsBefore)
    }

    /// N changed: shard 2 of 4's data directory now runs as shard 1 of 2. Feeds new to it get
    /// databases, fetched in full; databases of feeds it no longer owns are left as they were,
    /// and the log says so once.
    @Test func whenNChangesNewFeedsAreRebuiltAndOldDatabasesLeftAlone() throws {
        let server = try Self.feedServer()
        let root = try TemporaryDirectory()
        let data = root.url.path + "/data"
        let common = ["--allow-private-networks", "--data-dir", data, "--concurrency", "8"]
        let created = try Executable(name: "rss-create").runCapturing(["--opml", server.baseURL + "/list.opml", "--shard", "2/4"] + common)
        #expect(created.status == 0, "\(created.stderr)")
        let kept = try Self.databases(data)
        #expect(!kept.isEmpty)
        let keptBytes = try kept.map { try Data(contentsOf: URL(fileURLWithPath: data + "/feed_\($0).sqlite")) }

        let before = server.requests.count
        let moved = try Executable(name: "rss-update").runCapturing(["--shard", "1/2"] + common)
        #expect(moved.status == 0, "\(moved.stderr)")
        let requests = Self.requests(server, after: before)
        let newlyOwned = Self.paths.filter { ShardAssignment.shardIndex(ofHost: Self.host(ofPath: $0), count: 2) == 1 }
        #expect(!newlyOwned.isEmpty)
        #expect(requests.counts == Dictionary(uniqueKeysWithValues: newlyOwned.map { ($0, 1) }), "only shard 1 of 2's feeds, each once")
        #expect(requests.conditional.values.allSatisfy { !$0 }, "fetched in full: no database here to revalidate")
        let now = try Self.databases(data)
        #expect(now.count == kept.count + newlyOwned.count, "a database for each feed new to the shard")
        #expect(now.isSuperset(of: kept))
        #expect(try kept.map { try Data(contentsOf: URL(fileURLWithPath: data + "/feed_\($0).sqlite")) } == keptBytes, "left as they were")
        let notices = moved.stderr.split(separator: "\n").filter { $0.contains("other shards own now") }
        #expect(notices.count == 1, "\(moved.stderr)")
        let expected = "\(kept.count) feed database(s)"
        #expect(notices.first?.contains(expected) == true)
    }

    /// Halving N takes whole shards: shard 2 of 2 is old shards 2 and 4 of 4. Given both old
    /// data directories' feed databases, the new shard rebuilds nothing: each feed is fetched
    /// once, in full (this catalog has no ETag for the half that was shard 4's), and the
    /// history the old shard kept (an entry the feed no longer lists) is still there.
    @Test func halvingNMovesWholeShardsAndTheirDatabasesFollow() throws {
        let edition = Edition()
        let server = try Self.feedServer(edition: edition)
        let root = try TemporaryDirectory()
        func data(_ k: Int) -> String { root.url.path + "/data-\(k)of4" }
        let owner4 = Dictionary(uniqueKeysWithValues: Self.hosts.map { ($0, ShardAssignment.shardIndex(ofHost: $0, count: 4)) })
        for k in [2, 4] {
            let created = try Executable(name: "rss-create").runCapturing(
                ["--opml", server.baseURL + "/list.opml", "--shard", "\(k)/4", "--data-dir", data(k), "--allow-private-networks"])
            #expect(created.status == 0, "\(created.stderr)")
        }
        let fromFour = try Self.databases(data(4))
        let fromTwo = try Self.databases(data(2))
        #expect(!fromFour.isEmpty && !fromTwo.isEmpty)
        for id in fromFour {
            try FileManager.default.copyItem(atPath: data(4) + "/feed_\(id).sqlite", toPath: data(2) + "/feed_\(id).sqlite")
        }
        edition.value = 2
        let before = server.requests.count
        let halved = try Executable(name: "rss-update").runCapturing(["--all", "--shard", "2/2", "--data-dir", data(2), "--allow-private-networks"])
        #expect(halved.status == 0, "\(halved.stderr)")
        let requests = Self.requests(server, after: before)
        let owned = Self.paths.filter { [2, 4].contains(owner4[Self.host(ofPath: $0)] ?? 0) }
        #expect(owned.allSatisfy { ShardAssignment.shardIndex(ofHost: Self.host(ofPath: $0), count: 2) == 2 })
        #expect(requests.counts == Dictionary(uniqueKeysWithValues: owned.map { ($0, 1) }), "each of old shards 2 and 4's feeds once")
        #expect(try Self.databases(data(2)).count == owned.count, "no feed without its database, none rebuilt")
        #expect(!halved.stderr.contains("other shards own now"), "\(halved.stderr)")
        for id in fromFour {
            let entries = try sqlite(data(2) + "/feed_\(id).sqlite", "SELECT title FROM items ORDER BY title").map { $0[0] ?? "" }
            #expect(entries == ["Entry 1", "Entry 2"], "feed \(id) keeps what shard 4 of 4 stored: \(entries)")
        }
    }

    static func json(_ path: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return try #require(object as? [String: Any], "\(path) is a JSON object")
    }

    /// The four shards publish into one directory, at once: one root lists the four, every
    /// feed's pointer names a snapshot that its own shard published and that is there with
    /// its digest, and the published catalog has every feed's title, each from its own shard.
    @Test func fourShardsPublishOneConsistentRoot() throws {
        let server = try Self.feedServer()
        let root = try TemporaryDirectory()
        let out = root.url.path + "/publish"
        let shards = try (1...4).map { try Shard(index: $0, count: 4) }
        func data(_ shard: Shard) -> String { root.url.path + "/data-\(shard.fileLabel)" }
        let owner = Dictionary(uniqueKeysWithValues: Self.hosts.map { ($0, ShardAssignment.shardIndex(ofHost: $0, count: 4)) })
        let created = try Self.runTogether(
            "rss-create", { ["--opml", server.baseURL + "/list.opml", "--shard", $0.label, "--data-dir", data($0), "--allow-private-networks"] },
            shards: shards)
        for (shard, run) in zip(shards, created) { #expect(run.status == 0, "rss-create --shard \(shard): \(run.stderr)") }
        let published = try Self.runTogether("rss-publish", { ["--shard", $0.label, "--data-dir", data($0), "--out", out] }, shards: shards)
        for (shard, run) in zip(shards, published) { #expect(run.status == 0, "rss-publish --shard \(shard): \(run.stderr)") }

        let manifest = try Self.json(out + "/manifest.json")
        #expect(manifest["format_version"] as? Int == 2)
        let entries = try #require(manifest["shards"] as? [String: [String: Any]])
        #expect(Set(entries.keys) == Set(shards.map(\.label)), "one root lists the four shards")
        for (label, entry) in entries {
            let record = try #require(entry["record"] as? String)
            #expect(FileManager.default.fileExists(atPath: out + "/" + record), "\(label)'s record \(record)")
        }
        let catalog = try #require(manifest["catalog"] as? [String: Any])
        let catalogFile = out + "/" + (try #require(catalog["file"] as? String))
        #expect(SHA256.hexDigest(Array(try Data(contentsOf: URL(fileURLWithPath: catalogFile)))) == catalog["sha256"] as? String)
        #expect(catalog["feed_count"] as? Int == Self.paths.count)
        let feeds = try sqlite(catalogFile, "SELECT feeds.feedid, feeds.url, about.title FROM feeds LEFT JOIN about USING (feedid) ORDER BY feeds.feedid")
        #expect(feeds.count == Self.paths.count)
        for row in feeds {
            let id = try #require(row[0].flatMap { Int64($0) })
            let url = try #require(row[1])
            let host = try #require(url.range(of: "/feed/").map { Self.host(ofPath: String(url[$0.lowerBound...])) })
            let ownerLabel = "\(try #require(owner[host]))/4"
            #expect(row[2] != nil, "feed \(id)'s title, from shard \(ownerLabel)")
            // The client's rule (SPEC-41 §4): the first entry whose shard's generation and
            // publication the root vouches for.
            let pointer = try Self.json(out + "/feed_\(id).json")
            #expect((pointer["feedid"] as? NSNumber)?.int64Value == id)
            let usable = (pointer["entries"] as? [[String: Any]] ?? []).first { entry in
                guard let shard = entry["shard"] as? String, let current = entries[shard],
                    let generation = entry["generation"] as? Int, let rootGeneration = current["generation"] as? Int
                else { return false }
                return generation < rootGeneration
                    || (generation == rootGeneration && entry["publication"] as? String == current["publication"] as? String)
            }
            let entry = try #require(usable, "feed \(id) is published for this root")
            #expect(entry["shard"] as? String == ownerLabel, "feed \(id) published by its own shard")
            let file = out + "/" + (try #require(entry["file"] as? String))
            #expect(SHA256.hexDigest(Array(try Data(contentsOf: URL(fileURLWithPath: file)))) == entry["sha256"] as? String)
            let path = try #require(url.range(of: "/feed/").map { String(url[$0.lowerBound...]) })
            #expect(try sqlite(file, "SELECT id FROM items") == [["\(path)#1"]], "feed \(id)'s own items")
        }
    }
}
