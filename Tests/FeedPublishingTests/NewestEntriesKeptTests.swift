@testable import FeedPublishing
import FeedModel
import FeedStorage
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// `atom.xml` and `index.html` follow a publication from the newest entries its record kept and
/// the snapshots that changed (issue 51). Their bytes must be those reading every snapshot
/// gives: checked over random publications against a second publication of the same data with
/// `--full`, which reads every one.
@Suite("NewestEntriesKept")
struct NewestEntriesKeptTests {
    /// Publishes `harness` into `out` with `limit` entries on the pages.
    private func publish(
        _ harness: Harness, into out: String, limit: Int, full: Bool = false, only: [Int64]? = nil, listedFeeds: Int = 1_000
    ) throws -> PublishReport {
        var configuration = PublishConfiguration()
        configuration.outputDirectory = out
        configuration.aggregateEntries = limit
        configuration.full = full
        configuration.listedFeeds = listedFeeds
        return try PublishRun(harness: harness, configuration: configuration).run(only: only)
    }

    /// The pages, and the catalog index the root names (content-addressed: its name says its
    /// pages' and title chunks' bytes).
    private func pages(_ directory: String) -> [String?] {
        let root = FileManager.default.contents(atPath: directory + "/manifest.json")
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        let index = (root?["catalog_index"] as? [String: Any])?["file"] as? String
        return ["atom.xml", "index.html"].map { name in
            FileManager.default.contents(atPath: directory + "/" + name).map { String(decoding: $0, as: UTF8.self) }
        } + [index]
    }

    /// Deletes items of a feed's database by hand, marked as an update marks its writes.
    private func delete(_ ids: [String], of feedID: Int64, in harness: Harness) throws {
        try harness.catalog.beginChanges()
        try harness.catalog.markWriting(feedID)
        let queue = try DatabaseQueue(path: harness.databasePath(feedID))
        try queue.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [id]) }
        }
        try harness.catalog.markWritten(feedID)
    }

    @Test func thePagesAreThoseOfReadingEverySnapshotOverRandomPublications() throws {
        var random = SeededGenerator.announced()
        for round in 0..<12 {
            let publisher = try PublishHarness()
            let harness = publisher.harness
            harness.now = 1_800_000_000
            let full = try TemporaryDirectory()
            let limit = [1, 2, 3, 5][round % 4]
            var ids = try harness.add((1...8).map { "https://feeds.example/\(round)/\($0).xml" })
            // Catalogued, never fetched: no snapshot, in the catalog's pages and the health page.
            var unfetched = try harness.add((1...12).map { "https://later.example/\(round)/\($0).xml" })
            // The list of all feeds shows a few: the records of the others need not be read.
            let listedFeeds = [3, 30][round % 2]
            var items: [Int64: Set<String>] = [:]
            var counter = 0
            // Few dates so that ties are common; some old (below what the record keeps), some
            // dated after the cutoff (now + a day).
            func date() -> Int64 {
                harness.now + [Int64(-900), -600, -300, -5, -4, -3, -2, -1, 0, 86_400 + 30, 86_400 + 200][Int.random(in: 0..<11, using: &random)]
            }
            var incremental = 0
            var partial = 0
            for step in 0..<25 {
                switch Int.random(in: 0..<11, using: &random) {
                case 0..<5:
                    // Entries added to (or rewritten in) a few feeds.
                    for _ in 0..<Int.random(in: 1...2, using: &random) {
                        let feedID = ids.randomElement(using: &random)!
                        var entries: [Entry] = []
                        for _ in 0..<Int.random(in: 1...4, using: &random) {
                            counter += 1
                            let id = Bool.random(using: &random) ? "e\(counter)" : (items[feedID]?.randomElement(using: &random) ?? "e\(counter)")
                            entries.append(entry(id, title: "Entry \(counter)", pubdate: date()))
                            items[feedID, default: []].insert(id)
                        }
                        try publisher.write(feedID, entries, now: harness.now)
                    }
                case 5..<7:
                    // Entries removed, the newest among them often.
                    let feedID = ids.randomElement(using: &random)!
                    let gone = Array((items[feedID] ?? []).shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
                    try delete(gone, of: feedID, in: harness)
                    items[feedID]?.subtract(gone)
                case 7:
                    // The clock moves on: items once after the cutoff come within it.
                    harness.now += Int64.random(in: 1...200, using: &random)
                case 8:
                    // A feed renamed: its entries keep their place, under the new name.
                    var feed = try harness.feed((ids + unfetched).randomElement(using: &random)!)
                    feed.title = "Renamed \(step)"
                    try harness.catalog.save(feed)
                case 9:
                    // A feed's fetches fail or succeed again (its state alone: nothing logged), or
                    // a feed is added or removed.
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0, 1:
                        var feed = try harness.feed((ids + unfetched).randomElement(using: &random)!)
                        if feed.state.consecutiveErrors > 0 {
                            feed.state.consecutiveErrors = 0
                            feed.state.lastErrorKind = nil
                            feed.state.lastSuccess = harness.now
                        } else {
                            feed.state.consecutiveErrors = Int.random(in: 1...3, using: &random)
                            feed.state.lastErrorKind = .timeout
                            feed.state.lastError = "timed out at step \(step)"
                        }
                        feed.state.lastAttempt = harness.now
                        try harness.catalog.save(feed)
                    case 2:
                        unfetched += try harness.add(["https://later.example/\(round)/added-\(step).xml"])
                    default:
                        guard ids.count > 2 else { break }
                        let gone = ids.remove(at: Int.random(in: 0..<ids.count, using: &random))
                        _ = try harness.catalog.remove(feedID: gone)
                        items[gone] = nil
                    }
                default:
                    break
                }
                let report = try publish(harness, into: publisher.outPath, limit: limit, listedFeeds: listedFeeds)
                // Pages are written by a publication that commits (one that finds nothing
                // changed keeps them): compared then.
                guard report.rootGeneration != nil else { continue }
                _ = try publish(harness, into: full.url.path, limit: limit, full: true, listedFeeds: listedFeeds)
                let same = pages(publisher.outPath) == pages(full.url.path)
                #expect(same, "round \(round), step \(step), limit \(limit): the pages differ from reading every snapshot and record")
                if !same { return }
                if report.pageSnapshotsRead < ids.count { incremental += 1 }
                if report.catalogRecordsRead < ids.count + unfetched.count { partial += 1 }
            }
            #expect(incremental > 0, "round \(round): every publication read every snapshot")
            // With every feed listed on index.html every record is read.
            if listedFeeds < 20 { #expect(partial > 0, "round \(round): every publication read every catalog record") }
        }
    }

    /// A publication that changed one feed of many reads one snapshot for the pages; the
    /// record keeps a few times the entries the pages show.
    @Test func oneChangedFeedReadsOneSnapshot() throws {
        let publisher = try PublishHarness()
        try publisher.seed(feeds: 20, items: 5)
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publisher.outPath
        configuration.aggregateEntries = 4
        let first = try PublishRun(harness: publisher.harness, configuration: configuration).run()
        #expect(first.pageSnapshotsRead == 20)
        let kept = try #require(try publisher.manifest().newest)
        #expect(kept.entries.count == NewestEntriesKept.capacity(for: 4) && !kept.complete)

        try publisher.write(7, [entry("f7-new", title: "New", pubdate: 2_000)])
        let second = try PublishRun(harness: publisher.harness, configuration: configuration).run()
        #expect(second.pageSnapshotsRead == 1)
        let atom = try String(contentsOfFile: publisher.outPath + "/atom.xml", encoding: .utf8)
        #expect(atom.contains("f7-new"))

        // --full reads every one again.
        try publisher.write(8, [entry("f8-new", title: "New", pubdate: 2_001)])
        configuration.full = true
        let full = try PublishRun(harness: publisher.harness, configuration: configuration).run()
        #expect(full.pageSnapshotsRead == 20)
    }

    /// Below the last entry kept, entries of feeds that did not change may lie unseen: a feed
    /// that held every entry kept and lost them is not followed by its own older entries but
    /// by a reading of every snapshot, which finds the other feed's.
    @Test func belowTheLastEntryKeptNothingIsTakenOnTrust() throws {
        let publisher = try PublishHarness()
        let harness = publisher.harness
        // One entry on the pages, three kept: feeds 1-3's newest; feed 4's is not kept.
        let ids = try harness.add((1...4).map { "https://feeds.example/\($0).xml" })
        try publisher.write(ids[0], [entry("f1-100", pubdate: 100), entry("f1-10", pubdate: 10)])
        try publisher.write(ids[1], [entry("f2-99", pubdate: 99)])
        try publisher.write(ids[2], [entry("f3-98", pubdate: 98)])
        try publisher.write(ids[3], [entry("f4-50", pubdate: 50)])
        let out = publisher.outPath
        _ = try publish(harness, into: out, limit: 1)
        let kept = try #require(try publisher.manifest().newest)
        #expect(kept.entries.map(\.id) == ["f1-100", "f2-99", "f3-98"] && !kept.complete, "\(kept)")

        // The three lose what was kept: feed 1 still has an older entry, below what was kept.
        try delete(["f1-100"], of: ids[0], in: harness)
        try delete(["f2-99"], of: ids[1], in: harness)
        try delete(["f3-98"], of: ids[2], in: harness)
        let report = try publish(harness, into: out, limit: 1)
        #expect(report.pageSnapshotsRead == 4, "too few entries known: every snapshot read")
        let atom = try String(contentsOfFile: out + "/atom.xml", encoding: .utf8)
        #expect(atom.contains("site.example/f4-50") && !atom.contains("site.example/f1-10"))
    }

    /// A snapshot that cannot be read leaves its entries out and is read again by the next
    /// refresh, which puts them back once it can.
    @Test func anUnreadableSnapshotIsReadAgainNextTime() throws {
        let publisher = try PublishHarness()
        try publisher.seed(feeds: 3, items: 2)
        _ = try publisher.publish()
        let record = try publisher.manifest()
        let feeds = CatalogFeeds(all: try (Int64(1)...3).map { try publisher.harness.feed($0) })
        let files = Dictionary(record.feeds.map { ($0.feedID, $0.file) }, uniquingKeysWith: { first, _ in first })
        func refresh(_ previous: NewestEntriesKept?, failing: Int64?) -> NewestEntriesKept.Refreshed {
            NewestEntriesKept.refresh(
                previous, previousFiles: files, published: record.feeds, feeds: feeds, limit: 10, notAfter: 10_000,
                path: { (name: String) throws(StorageError) -> String in
                    if let failing, name == files[failing] { throw StorageError(path: name, message: "cannot be read") }
                    return publisher.outPath + "/" + name
                })
        }
        let broken = refresh(nil, failing: 2)
        #expect(broken.unreadable.count == 1 && broken.unreadable[0].hasPrefix("feed 2:"), "\(broken.unreadable)")
        #expect(broken.kept.unread == [2] && !broken.entries.contains { $0.feedID == 2 })
        let repaired = refresh(broken.kept, failing: nil)
        #expect(repaired.snapshotsRead == 1 && repaired.unreadable.isEmpty && repaired.kept.unread == nil)
        #expect(repaired.entries.filter { $0.feedID == 2 }.count == 2)
        #expect(repaired.entries == refresh(nil, failing: nil).entries)
    }

    /// An item dated after the cutoff (a day after the publication) stays off the pages until
    /// the clock reaches it; the publication then reads its snapshot again, changed or not.
    @Test func anItemDatedAfterTheCutoffComesOnceTheClockReachesIt() throws {
        let publisher = try PublishHarness()
        try publisher.seed(feeds: 3, items: 2)
        let harness = publisher.harness
        harness.now = 1_800_000_000
        try publisher.write(2, [entry("f2-ahead", title: "Ahead", pubdate: harness.now + 86_400 + 100)])
        _ = try publisher.publish()
        #expect(try publisher.manifest().newest?.later == [NewestEntriesKept.Later(feedID: 2, from: harness.now + 86_400 + 100)])
        #expect(!(try String(contentsOfFile: publisher.outPath + "/atom.xml", encoding: .utf8)).contains("Ahead"))
        harness.now += 150
        try publisher.write(3, [entry("f3-new", pubdate: 1_500)])
        let later = try publisher.publish()
        #expect(later.pageSnapshotsRead == 2)
        #expect((try String(contentsOfFile: publisher.outPath + "/atom.xml", encoding: .utf8)).contains("Ahead"))
        #expect(try publisher.manifest().newest?.later == nil)
    }
}
