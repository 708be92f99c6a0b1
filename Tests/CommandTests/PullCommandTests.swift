import FeedBasics
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-pull`, the reference client, against what the real binaries publish, served by a real
/// HTTP server on 127.0.0.1: a publication from before issue 40 (format 0), then many
/// generations of random changes in publication format 2 (a root, a pointer per feed), a
/// schema version bump, a kill -9 mid-transfer. Every sync must end with each local database's
/// rows digesting to the published `content_digest` (and to the published file's own rows).
@Suite("rss-pull", .serialized)
struct PullCommandTests {
    let update = Executable(name: "rss-update")
    let publish = Executable(name: "rss-publish")
    let feeds = Executable(name: "rss-feeds")
    let pull = Executable(name: "rss-pull")

    @Test func theReferenceClientFollowsTwelveGenerationsOfRealPublications() throws {
        var random = SeededGenerator.announced()
        let fixture = try schema1Publication()
        let data = fixture.url.path + "/data", out = fixture.url.path + "/publish"
        let fixtureSchema = try Self.manifest(out).feeds.map(\.schemaVersion).max() ?? 0
        let server = try StaticDirectoryServer(directory: out)
        let farm = try ChangingFeeds()
        let everything = try TemporaryDirectory(), some = try TemporaryDirectory(), own = try TemporaryDirectory()
        // Following every feed; following two with the published catalog; following the same
        // two with the catalog rss-pull writes from their pointers (the default since issue 51).
        let clients = [
            Client(folder: everything.url.path, follows: nil), Client(folder: some.url.path, follows: [2, 5], catalog: "published"),
            Client(folder: own.url.path, follows: [2, 5], catalog: "followed"),
        ]
        var ledger = Ledger()
        // Every manifest and delta of the run, checked at the end against the shipped schemas and
        // the contract's digest (Scripts/validate-contract, Scripts/content-digest).
        let contract = try ContractArchive()

        // The publication as the code before issue 40 wrote it (no format, no digests).
        for client in clients {
            let report = try runPull(server, client)
            if client.catalog != "followed" { ledger.add(report, manifest: try Self.manifest(out), previous: nil, follows: client.follows) }
            try expectConverged(client, publication: out)
        }
        var previous = try Self.manifest(out)

        var now: Int64 = 1_700_003_601
        var farmFeeds: [Int64] = []
        let killAt = 7
        for generation in 0..<12 {
            var bump = false
            if generation == 0 {
                // The server the fixture's feeds came from is gone: the farm serves them again (as
                // a permanent redirect would move them), so today's rss-update fetches them and
                // migrates their databases in place, and today's rss-publish republishes every
                // feed of an older schema version.
                for id in Int64(1)...3 {
                    try Self.moveFeed(id, to: farm.url(farm.addFeed(now: now, using: &random)), catalog: data + "/all_feeds.sqlite")
                    farmFeeds.append(id)
                }
                let migrated = try update.runCapturing(
                    ["--data-dir", data, "--now", "\(now)", "--allow-private-networks", "--quiet", "--feed", "1", "--feed", "2", "--feed", "3"])
                #expect(migrated.status == 0, "\(migrated.stderr)")
                bump = true
            } else {
                now += 7_200
                // Feeds come and go through rss-feeds: one added at generation 1 and 2, then at random;
                // one removed at generation 5, then at random.
                if generation <= 2 || (farmFeeds.count < 5 && Int.random(in: 0..<3, using: &random) == 0) {
                    let number = farm.addFeed(now: now, using: &random)
                    let added = try feeds.runCapturing(["add", farm.url(number), "--data-dir", data])
                    let id = try #require(Int64(added.stdout.split(separator: " ").dropFirst(3).first?.dropLast() ?? ""), "\(added)")
                    farmFeeds.append(id)
                }
                if generation == 5 || (generation > 5 && farmFeeds.count > 2 && Int.random(in: 0..<4, using: &random) == 0) {
                    let id = farmFeeds.remove(at: Int.random(in: 0..<farmFeeds.count, using: &random))
                    let removed = try feeds.runCapturing(["remove", "\(id)", "--data-dir", data])
                    #expect(removed.status == 0, "\(removed.stderr)")
                }
                farm.change(now: now, using: &random, everyFeed: generation == killAt)
                var arguments = ["--data-dir", data, "--now", "\(now)", "--allow-private-networks", "--quiet"]
                arguments += farmFeeds.flatMap { ["--feed", "\($0)"] }
                if Bool.random(using: &random) { arguments += ["--keep-items", "\(Int.random(in: 2...6, using: &random))"] }
                let updated = try update.runCapturing(arguments)
                #expect(updated.status == 0, "\(updated.stderr)")
            }
            let published = try publish.runCapturing(["--data-dir", data, "--out", out, "--now", "\(now)", "--quiet"])
            #expect(published.status == 0, "\(published.stderr)")
            let manifest = try Self.manifest(out)
            // rss-publish upgrades the publication in place to format 2.
            #expect(manifest.formatVersion == 2)
            try contract.keep(publication: out, label: "generation \(generation)")

            for client in clients {
                if generation == killAt && client.follows == nil {
                    try killMidTransfer(server, client, manifest: manifest)
                }
                let report = try runPull(server, client)
                if client.catalog != "followed" { ledger.add(report, manifest: manifest, previous: previous, follows: client.follows) }
                try expectConverged(client, publication: out)
                if bump, manifest.feeds.map(\.schemaVersion).max() ?? 0 > fixtureSchema {
                    // A schema version rise: every followed feed is downloaded whole, none by delta.
                    let followed = manifest.feeds.filter { client.follows?.contains($0.feedID) ?? true }
                    #expect(Set(followed.map(\.name)).isSubset(of: Set(report.full)), "\(report)")
                    #expect(report.deltas.isEmpty)
                    for feed in followed {
                        #expect(feed.version > (previous.feeds.first { $0.feedID == feed.feedID }?.version ?? 0))
                    }
                }
            }
            previous = manifest
        }
        #expect(ledger.deltaFiles > 0 && ledger.removed > 0)
        let problems = try contract.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        print(
            "rss-pull over 13 publications (2 clients): \(ledger.deltaBytes) bytes in \(ledger.deltaFiles) deltas, "
                + "\(ledger.fullBytes) bytes in \(ledger.fullFiles) whole files (\(ledger.deltaBytes + ledger.fullBytes) in all); "
                + "a client downloading whole files only: \(ledger.fullOnlyBytes) bytes; \(ledger.removed) file(s) removed; "
                + "fixture schema \(fixtureSchema), now \(previous.feeds.map(\.schemaVersion).max() ?? 0)")
    }

    @Test func versionIsFeedmills() throws {
        let result = try pull.runCapturing(["--version"])
        #expect(result.status == 0)
        // `rss-pull 0.1.0 (commit …, built …)`: the version is Feedmill's.
        let words = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        #expect(words.count == 6 && words[0] == "rss-pull" && words[2] == "(commit", "\(result.stdout)")
        #expect(words.dropFirst().first.map(String.init) == FeedmillVersion.current)
    }

    @Test func exitStatusesAreTheTablesOwn() throws {
        let help = try pull.runCapturing(["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        #expect(help.contains("Exit status: 0 done"))
        let missing = try TemporaryDirectory()
        let failed = try pull.runCapturing([missing.url.path + "/nothing-here", missing.url.path + "/client"])
        #expect(failed.status == 70 && failed.stderr.contains("manifest.json"), "\(failed)")
        #expect(try pull.runCapturing(["ftp://example.org/", missing.url.path]).status == 64)
    }

    /// Points feed `id` of the catalog at `url`, as `rss-update` does after a permanent redirect.
    private static func moveFeed(_ id: Int64, to url: String, catalog: String) throws {
        let queue = try DatabaseQueue(path: catalog)
        try queue.write { db in try db.execute(sql: "UPDATE feeds SET url = ? WHERE feedid = ?", arguments: [url, id]) }
        try queue.close()
    }

    /// `--search` reads the root, the catalog's index and a title chunk: it prints the matches,
    /// syncs nothing, and needs no folder (a folder with it is a usage error).
    @Test func searchPrintsMatchingTitlesFromTheTitleIndex() throws {
        let publication = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/generated/publish").path
        let found = try pull.runCapturing([publication, "--search", "CAFE"])
        #expect(found.status == 0 && found.stdout == "6\tCafé Müller — Tagesmenü\n", "\(found)")
        let json = try pull.runCapturing([publication, "--search", "d", "--json"])
        #expect(json.status == 0 && json.stdout == "[{\"feedid\":4,\"title\":\"Dive Into Legacy\"}]\n", "\(json)")
        let both = try pull.runCapturing([publication, "/tmp/somewhere", "--search", "x"])
        #expect(both.status == 64 && both.stderr.contains("give no folder"), "\(both)")
    }

    // MARK: - One client

    struct Client {
        let folder: String
        let follows: Set<Int64>?
        /// `--catalog` (following some feeds): nil, the default.
        var catalog: String?

        /// A client following some feeds keeps no catalog older than the publication's (a maximum
        /// age of 0): it learns at once that a feed it follows left. (Kept up to a day, the
        /// default, that client would keep a removed feed's file until its catalog is that old.)
        var arguments: [String] {
            [folder, "--json"] + (follows.map { ["--catalog-max-age", "0"] + $0.sorted().flatMap { ["--feed", "\($0)"] } } ?? [])
                + (catalog.map { ["--catalog", $0] } ?? [])
        }
    }

    struct PullReport: CustomStringConvertible {
        let full: [String], deltas: [String], removed: [String]
        let fullBytes: Int, deltaBytes: Int
        let json: String

        var description: String { json }
    }

    private func runPull(_ server: StaticDirectoryServer, _ client: Client) throws -> PullReport {
        let result = try pull.runCapturing([server.baseURL] + client.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        return PullReport(
            full: json["full_downloads"] as? [String] ?? [], deltas: json["delta_downloads"] as? [String] ?? [],
            removed: json["removed"] as? [String] ?? [], fullBytes: json["bytes_in_full_files"] as? Int ?? -1,
            deltaBytes: json["bytes_in_deltas"] as? Int ?? -1, json: result.stdout)
    }

    /// Feed files and deltas (not the pointers) answered 64 bytes at a time, 0.2 s apart;
    /// `rss-pull` killed with SIGKILL once one of them is on its way. Whatever it had replaced
    /// is whole and recorded.
    private func killMidTransfer(_ server: StaticDirectoryServer, _ client: Client, manifest: PublishedManifest) throws {
        @Sendable func feedFile(_ path: String) -> Bool { path.hasPrefix("/feed_") && (path.hasSuffix(".sqlite") || path.hasSuffix(".delta.json")) }
        server.respond { path, bytes in
            guard feedFile(path), let bytes else { return nil }
            return .init(body: bytes, chunkSize: 64, chunkDelay: 0.2)
        }
        defer { server.respond(with: nil) }
        let before = server.requests.count
        let process = try pull.start([server.baseURL] + client.arguments)
        let deadline = Date().addingTimeInterval(30)
        while !server.requests.dropFirst(before).contains(where: { feedFile($0.path) }), Date() < deadline, process.isRunning {
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(process.isRunning, "rss-pull ended before a feed file was on its way")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        // Every database the state says is in place is whole and is what the state says.
        let state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: client.folder + "/.feedmill-client.json"))) as? [String: Any])
        for (name, entry) in state["files"] as? [String: [String: Any]] ?? [:] where entry["version"] != nil {
            #expect(try IndependentDigest.of(client.folder + "/" + name, catalog: name == "all_feeds.sqlite") == entry["content_digest"] as? String, "\(name)")
        }
    }

    /// The folder holds exactly the followed databases of the current manifest (and the
    /// client's state), each with the rows the manifest's digest names, which are the rows of
    /// the published file.
    private func expectConverged(_ client: Client, publication out: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let manifest = try Self.manifest(out)
        if client.catalog == "followed", manifest.formatVersion == 2, let follows = client.follows {
            try expectConverged(following: follows, folder: client.folder, publication: out, sourceLocation: sourceLocation)
            return
        }
        var expected = [manifest.catalog.name: (manifest.catalog.file, manifest.catalog.contentDigest)]
        for feed in manifest.feeds where client.follows?.contains(feed.feedID) ?? true {
            expected[feed.name] = (feed.file, feed.contentDigest)
        }
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: client.folder))
        #expect(present == Set(expected.keys).union([".feedmill-client.json"]), sourceLocation: sourceLocation)
        for (name, (file, digest)) in expected {
            let catalog = name == manifest.catalog.name
            let local = try IndependentDigest.of(client.folder + "/" + name, catalog: catalog)
            #expect(local == (try IndependentDigest.of(out + "/" + file, catalog: catalog)), "\(name)", sourceLocation: sourceLocation)
            if let digest { #expect(local == digest, "\(name)", sourceLocation: sourceLocation) }
        }
    }

    /// A client writing its own catalog from the pointers: each followed feed that has a
    /// pointer is held at the pointer's usable entry, and the local catalog has exactly their
    /// rows, as the pointers' `about` gives them (read here without the client).
    private func expectConverged(
        following follows: Set<Int64>, folder: String, publication out: String, sourceLocation: SourceLocation
    ) throws {
        let root = try Self.readJSON(out + "/manifest.json")
        let shards = try #require(root["shards"] as? [String: [String: Any]])
        let pointerName = try #require(root["feed_pointer"] as? String)
        var expected: [String: (file: String, digest: String?)] = [:]
        var rows: [[String?]] = []
        for id in follows.sorted() {
            let path = out + "/" + pointerName.replacingOccurrences(of: "{feedid}", with: "\(id)")
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let pointer = try Self.readJSON(path)
            let usable = try #require(Self.usable(pointer, shards: shards), "feed \(id)", sourceLocation: sourceLocation)
            expected["feed_\(id).sqlite"] = (try #require(usable["file"] as? String), usable["content_digest"] as? String)
            let about = try #require(pointer["about"] as? [String: Any], "feed \(id)'s pointer has its about", sourceLocation: sourceLocation)
            rows.append(["\(id)", about["url"] as? String, about["title"] as? String])
        }
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(present == Set(expected.keys).union(["all_feeds.sqlite", ".feedmill-client.json"]), sourceLocation: sourceLocation)
        for (name, (file, digest)) in expected {
            let local = try IndependentDigest.of(folder + "/" + name, catalog: false)
            #expect(local == (try IndependentDigest.of(out + "/" + file, catalog: false)), "\(name)", sourceLocation: sourceLocation)
            if let digest { #expect(local == digest, "\(name)", sourceLocation: sourceLocation) }
        }
        let local = try sqlite(folder + "/all_feeds.sqlite", "SELECT feeds.feedid, feeds.url, about.title FROM feeds LEFT JOIN about ON about.feedid = feeds.feedid ORDER BY feeds.feedid")
        #expect(local == rows, sourceLocation: sourceLocation)
    }

    /// The first entry of `pointer` usable for a root whose shards are `shards` (SPEC-41 §4).
    private static func usable(_ pointer: [String: Any], shards: [String: [String: Any]]) -> [String: Any]? {
        (pointer["entries"] as? [[String: Any]] ?? []).first { candidate in
            guard let shard = candidate["shard"] as? String, let commit = shards[shard], let generation = candidate["generation"] as? Int,
                let committed = commit["generation"] as? Int
            else { return false }
            return generation < committed || (generation == committed && candidate["publication"] as? String == commit["publication"] as? String)
        }
    }

    // MARK: - The publication

    struct PublishedManifest {
        struct Entry {
            let feedID: Int64, name: String, file: String, version: Int, size: Int, schemaVersion: Int, contentDigest: String?
        }
        /// 0 (before issue 40), 1, or 2.
        let formatVersion: Int
        let catalog: Entry
        let feeds: [Entry]
    }

    /// The publication in `out` as a client must end up with it, read here without the client:
    /// format 0/1 from the manifest's list; format 2 from the root, the feeds its catalog
    /// lists, and each one's first pointer entry usable for the root (SPEC-41 §4).
    static func manifest(_ out: String) throws -> PublishedManifest {
        let json = try readJSON(out + "/manifest.json")
        func entry(_ object: [String: Any], feedID: Int64? = nil) throws -> PublishedManifest.Entry {
            PublishedManifest.Entry(
                feedID: feedID ?? (object["feedid"] as? NSNumber)?.int64Value ?? 0, name: try #require(object["name"] as? String),
                file: try #require(object["file"] as? String), version: try #require(object["version"] as? Int),
                size: try #require(object["size"] as? Int), schemaVersion: try #require(object["schema_version"] as? Int),
                contentDigest: object["content_digest"] as? String)
        }
        let formatVersion = json["format_version"] as? Int ?? 0
        let catalog = try entry(try #require(json["catalog"] as? [String: Any]))
        guard formatVersion == 2 else {
            return PublishedManifest(formatVersion: formatVersion, catalog: catalog, feeds: try (json["feeds"] as? [[String: Any]] ?? []).map { try entry($0) })
        }
        let shards = try #require(json["shards"] as? [String: [String: Any]])
        let pointerName = try #require(json["feed_pointer"] as? String)
        let queue = try DatabaseQueue(path: out + "/" + catalog.file, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let listed = try queue.read { db in try Int64.fetchAll(db, sql: "SELECT feedid FROM feeds ORDER BY feedid") }
        try queue.close()
        var feeds: [PublishedManifest.Entry] = []
        for id in listed {
            let path = out + "/" + pointerName.replacingOccurrences(of: "{feedid}", with: "\(id)")
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let pointer = try readJSON(path)
            #expect((pointer["feedid"] as? NSNumber)?.int64Value == id)
            if let usable = usable(pointer, shards: shards) { feeds.append(try entry(usable, feedID: id)) }
        }
        return PublishedManifest(formatVersion: formatVersion, catalog: catalog, feeds: feeds)
    }

    private static func readJSON(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Bytes downloaded by deltas and whole files, against what a client downloading only
    /// whole files would have downloaded for the same changes.
    struct Ledger {
        var deltaBytes = 0, fullBytes = 0, deltaFiles = 0, fullFiles = 0, fullOnlyBytes = 0, removed = 0

        mutating func add(_ report: PullReport, manifest: PublishedManifest, previous: PublishedManifest?, follows: Set<Int64>?) {
            deltaBytes += report.deltaBytes
            fullBytes += report.fullBytes
            deltaFiles += report.deltas.count
            fullFiles += report.full.count
            removed += report.removed.count
            let before = Dictionary((previous.map { [$0.catalog] + $0.feeds } ?? []).map { ($0.name, $0.version) }, uniquingKeysWith: { a, _ in a })
            for entry in [manifest.catalog] + manifest.feeds.filter({ follows?.contains($0.feedID) ?? true }) where before[entry.name] != entry.version {
                fullOnlyBytes += entry.size
            }
        }
    }
}

/// RSS feeds on 127.0.0.1 whose items change as a test says: new items, changed titles, items
/// no longer listed (which retention may then remove).
///
/// `@unchecked Sendable`: `feeds` and `counter` are only touched under `lock`.
final class ChangingFeeds: @unchecked Sendable {
    struct Item {
        var guid: String, title: String, date: Int64
    }

    private let lock = NSLock()
    private var feeds: [Int: [Item]] = [:]
    private var counter = 0
    private var server: TestHTTPServer?

    init() throws {
        server = try TestHTTPServer { [weak self] request in
            guard let self, let number = Int(request.path.dropFirst("/farm/".count).dropLast(".xml".count)) else { return .init(status: 404) }
            guard let items = lock.withLock({ feeds[number] }) else { return .init(status: 404) }
            let body = rss("Farm feed \(number)", items: items.map { ($0.guid, $0.title, "https://site.example/\($0.guid)", Self.rfc822($0.date)) })
            return .init(headers: [("Content-Type", "application/rss+xml")], body: Array(body.utf8))
        }
    }

    func url(_ number: Int) -> String { (server?.baseURL ?? "") + "/farm/\(number).xml" }

    func addFeed(now: Int64, using random: inout SeededGenerator) -> Int {
        lock.withLock {
            let number = feeds.count
            feeds[number] = (0..<Int.random(in: 2...5, using: &random)).map { _ in newItem(number, now: now, using: &random) }
            return number
        }
    }

    /// New items in every feed or some, titles changed, items dropped from the listing.
    func change(now: Int64, using random: inout SeededGenerator, everyFeed: Bool) {
        lock.withLock {
            for number in feeds.keys.sorted() {
                guard var items = feeds[number], everyFeed || Int.random(in: 0..<3, using: &random) > 0 else { continue }
                for _ in 0..<Int.random(in: everyFeed ? 1...3 : 0...3, using: &random) { items.append(newItem(number, now: now, using: &random)) }
                for _ in 0..<Int.random(in: 0...2, using: &random) where !items.isEmpty {
                    let index = Int.random(in: 0..<items.count, using: &random)
                    items[index].title += " (edited)"
                }
                for _ in 0..<Int.random(in: 0...2, using: &random) where items.count > 1 {
                    items.remove(at: Int.random(in: 0..<items.count, using: &random))
                }
                feeds[number] = items
            }
        }
    }

    private func newItem(_ number: Int, now: Int64, using random: inout SeededGenerator) -> Item {
        counter += 1
        return Item(guid: "farm-\(number)-\(counter)", title: "Item \(counter) of feed \(number)", date: now - Int64.random(in: 60...3_600, using: &random))
    }

    static func rfc822(_ time: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }
}
