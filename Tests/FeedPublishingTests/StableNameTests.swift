import FeedBasics
import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import Testing

/// The z_rss client's way of syncing: `all_feeds.sqlite`, then `feed_<feedid>.sqlite` by name.
@Suite("rss-publish: stable names")
struct StableNameTests {
    /// The original client's query, verbatim.
    static let clientQuery = "select feeds.feedid, url, title from feeds, about where (feeds.feedid = about.feedid)"

    @Test func aClientSyncingByNameFindsTheCatalogAndEveryFeed() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 2)
        _ = try publish.publish()
        let rows = try sqlite(publish.outPath + "/all_feeds.sqlite", Self.clientQuery)
        #expect(rows.map { $0[0] } == ["1", "2", "3"])
        let manifest = try publish.manifest()
        for feed in manifest.feeds {
            #expect(sha256(ofFile: publish.outPath + "/feed_\(feed.feedID).sqlite") == feed.sha256)
        }
        #expect(sha256(ofFile: publish.outPath + "/all_feeds.sqlite") == manifest.catalog?.sha256)
        #expect(manifest.stableFiles == ["all_feeds.sqlite", "feed_1.sqlite", "feed_2.sqlite", "feed_3.sqlite"])
    }

    @Test func aReaderFetchingByNameDuringPublicationsNeverGetsATornOrMismatchedDatabase() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 4, items: 3)
        _ = try publish.publish()
        var published: [String: Set<String>] = [:]
        func remember() throws {
            let manifest = try publish.manifest()
            for feed in manifest.feeds { published["feed_\(feed.feedID).sqlite", default: []].insert(feed.sha256) }
            if let catalog = manifest.catalog { published["all_feeds.sqlite", default: []].insert(catalog.sha256) }
        }
        try remember()
        let reader = ByNameReader(directory: publish.outPath)
        let thread = Thread { reader.poll() }
        thread.start()
        for round in 0..<25 {
            try publish.write(Int64(round % 4 + 1), [entry("r\(round)-f\(round % 4 + 1)", title: "round \(round)")])
            var feed = try publish.harness.feed(Int64(round % 4 + 1))
            feed.title = "Feed \(feed.feedID) round \(round)"
            try publish.harness.catalog.save(feed)
            _ = try publish.publish()
            try remember()
        }
        reader.stop()
        while !reader.finished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(reader.downloads.count > 20)
        let unknown = reader.downloads.filter { published[$0.name]?.contains($0.sha256) != true }
        #expect(unknown.isEmpty, "bytes never published: \(unknown.prefix(3).map(\.name))")
        #expect(reader.problems.isEmpty, "\(reader.problems.prefix(3))")
    }

    @Test func aFileAtAStableNameThePublisherDidNotWriteIsNeverReplaced() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        let mine = publish.outPath + "/feed_2.sqlite"
        try Data("operator's own file".utf8).write(to: URL(fileURLWithPath: mine))
        #expect(throws: PublishError.self) { try publish.publish() }
        #expect(FileManager.default.contents(atPath: mine) == Data("operator's own file".utf8))
        #expect(!FileManager.default.fileExists(atPath: publish.outPath + "/manifest.json"))
    }

    /// A publish directory written before stable names existed: its (format-1) manifest has no
    /// `stable_files`. The first run adds the names and records them, so later runs own them.
    @Test func aPublicationFromBeforeStableNamesGainsThemAndKeepsWorking() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        _ = try publish.publish()
        var manifest = try publish.manifest()
        for name in manifest.stableFiles ?? [] { try FileManager.default.removeItem(atPath: publish.outPath + "/" + name) }
        manifest.stableFiles = nil
        manifest.format = Manifest.formatName
        manifest.formatVersion = Manifest.legacyFormatVersion
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: publish.outPath + "/manifest.json"))
        _ = try publish.publish()
        #expect(try publish.manifest().stableFiles == ["all_feeds.sqlite", "feed_1.sqlite", "feed_2.sqlite"])
        #expect(try publish.publish().unchanged)
    }

    @Test func aLostLinkIsRestoredByTheNextRunEvenWhenNothingChanged() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        _ = try publish.publish()
        try FileManager.default.removeItem(atPath: publish.outPath + "/feed_1.sqlite")
        _ = try publish.publish()
        #expect(sha256(ofFile: publish.outPath + "/feed_1.sqlite") == (try publish.manifest()).feeds.first?.sha256)
    }
}

/// Downloads by name the way the z_rss client does (the catalog, then each listed feed),
/// opening each download as SQLite: every copy must be whole and hold only its own feed.
/// `@unchecked Sendable`: its state is only touched under `lock`.
final class ByNameReader: @unchecked Sendable {
    struct Download {
        var name: String
        var sha256: String
    }

    let directory: String
    private let lock = NSLock()
    private var running = true
    private var done = false
    private var got: [Download] = []
    private var found: [String] = []

    init(directory: String) {
        self.directory = directory
    }

    func poll() {
        let scratch = NSTemporaryDirectory() + "by-name-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        while lock.withLock({ running }) {
            guard let catalog = download("all_feeds.sqlite", into: scratch) else { continue }
            let rows = (try? sqlite(catalog, StableNameTests.clientQuery)) ?? []
            if rows.isEmpty { record(problem: "all_feeds.sqlite: no rows") }
            for row in rows {
                guard let id = row[0], let copy = download("feed_\(id).sqlite", into: scratch) else { continue }
                let ids = (try? sqlite(copy, "SELECT id FROM items").compactMap { $0[0] }) ?? []
                // Seeded ids are f<feed>-n; round ids end in -f<feed>.
                let foreign = ids.filter { !$0.hasPrefix("f\(id)-") && !$0.hasSuffix("-f\(id)") }
                if ids.isEmpty || !foreign.isEmpty { record(problem: "feed_\(id).sqlite holds \(foreign.prefix(2))") }
            }
        }
        lock.withLock { done = true }
    }

    private func download(_ name: String, into scratch: String) -> String? {
        guard let bytes = FileManager.default.contents(atPath: directory + "/" + name) else {
            record(problem: "\(name) missing")
            return nil
        }
        let copy = scratch + "/" + name
        _ = FileManager.default.createFile(atPath: copy, contents: bytes)
        let check = (try? sqlite(copy, "PRAGMA integrity_check"))?.first?.first ?? nil
        if check != "ok" { record(problem: "\(name): integrity \(check ?? "unreadable")") }
        lock.withLock { got.append(Download(name: name, sha256: SHA256.hexDigest([UInt8](bytes)))) }
        return copy
    }

    private func record(problem: String) { lock.withLock { found.append(problem) } }
    func stop() { lock.withLock { running = false } }
    var finished: Bool { lock.withLock { done } }
    var downloads: [Download] { lock.withLock { got } }
    var problems: [String] { lock.withLock { found } }
}
