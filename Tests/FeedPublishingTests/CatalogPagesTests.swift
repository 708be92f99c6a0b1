@testable import FeedPublishing
import FeedStorage
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// The catalog's pages and title index (issue 51): a publication writes only the pages whose
/// feeds' rows changed, and what it writes is what a publication reading every feed writes.
@Suite("Publication: the catalog's pages and title index")
struct CatalogPagesTests {
    private func publish(_ harness: Harness, into out: String, full: Bool = false, listedFeeds: Int = 1_000) throws -> PublishReport {
        var configuration = PublishConfiguration()
        configuration.outputDirectory = out
        configuration.full = full
        configuration.listedFeeds = listedFeeds
        return try PublishRun(harness: harness, configuration: configuration).run()
    }

    private func root(_ out: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
    }

    private func index(_ out: String) throws -> CatalogIndexDocument {
        let named = try #require(try root(out)["catalog_index"] as? [String: Any])
        let file = try #require(named["file"] as? String)
        return try JSONDecoder().decode(CatalogIndexDocument.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/" + file)))
    }

    /// Titles for `ids`, written into the catalog in one transaction (the change log's
    /// triggers mark each, as `rss-update`'s saves do).
    private func name(_ ids: [Int64], _ title: (Int64) -> String?, in harness: Harness) throws {
        try harness.catalog.beginChanges()
        let queue = try DatabaseQueue(path: harness.directory.url.path + "/all_feeds.sqlite")
        try queue.write { db in
            for id in ids {
                if let title = title(id) {
                    try db.execute(
                        sql: "INSERT INTO about (feedid, title) VALUES (?, ?) ON CONFLICT(feedid) DO UPDATE SET title = excluded.title",
                        arguments: [id, title])
                } else {
                    try db.execute(sql: "DELETE FROM about WHERE feedid = ?", arguments: [id])
                }
            }
        }
    }

    @Test func oneChangedFeedWritesOnePageAndTheIndexAndTheRestIsWhatAFullReadingWrites() throws {
        var random = SeededGenerator.announced()
        let harness = try Harness()
        let full = try TemporaryDirectory(), out = try TemporaryDirectory()
        // 2,600 feeds: three pages; titles sharing first letters, so the title index splits.
        let ids = try harness.add((1...2_600).map { "https://feeds\($0 % 40).example/\($0).xml" })
        let words = ["the", "tech", "daily", "news", "weekly", "café", "Ünïcode", "tea", "zen"]
        func title(_ id: Int64) -> String { "\(words[Int(id) % words.count]) \(words[Int(id / 7) % words.count]) \(id)" }
        try name(ids, title, in: harness)
        _ = try publish(harness, into: out.url.path)
        let first = try index(out.url.path)
        #expect(first.pages.map(\.page) == [0, 1, 2] && first.feedCount == 2_600)
        #expect(first.titles.count > 1 && first.titles.allSatisfy { $0.count <= CatalogTitleIndex.chunkLimit }, "\(first.titles.map(\.prefix))")

        // One feed's last_update moves: its page and the index, nothing else of the catalog's pages.
        var feed = try harness.feed(1_500)
        feed.lastUpdate = 1_800_000_000
        try harness.catalog.save(feed)
        let moved = try publish(harness, into: out.url.path)
        let second = try index(out.url.path)
        #expect(second.titles == first.titles, "no title changed: the chunks are kept")
        #expect(zip(first.pages, second.pages).filter { $0.0 != $0.1 }.map(\.1.page) == [1])
        let pagesWritten = Set(try FileManager.default.contentsOfDirectory(atPath: out.url.path)).subtracting(
            first.pages.map(\.file) + first.titles.map(\.file)).filter { $0.hasPrefix("catalog_page_") || $0.hasPrefix("catalog_titles") }
        #expect(pagesWritten == [second.pages[1].file], "\(pagesWritten)")
        #expect(moved.filesWritten < 12, "\(moved)")

        // Random changes; after each, the same index (so the same pages and chunks, named by
        // their bytes) as a publication reading every feed.
        for step in 0..<12 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let added = try harness.add((0..<Int.random(in: 1...30, using: &random)).map { _ in "https://new.example/\(UUID().uuidString).xml" })
                try name(added, title, in: harness)
            case 1:
                let some = (0..<5).map { _ in ids.randomElement(using: &random)! }
                try name(some, { _ in Bool.random(using: &random) ? nil : "renamed \(words.randomElement(using: &random)!) \(step)" }, in: harness)
            case 2:
                _ = try harness.catalog.remove(feedID: ids.randomElement(using: &random)!)
            default:
                var feed = try harness.feed(ids.randomElement(using: &random)!)
                feed.lastUpdate = 1_800_000_000 + Int64(step)
                try harness.catalog.save(feed)
            }
            _ = try publish(harness, into: out.url.path)
            _ = try publish(harness, into: full.url.path, full: true)
            #expect(try index(out.url.path) == index(full.url.path), "step \(step)")
        }
        let checked = try ContractCheck.validate([out.url.path])
        #expect(checked.status == 0, "\(checked.output)")
    }

    /// Folding: case, accents and width aside, white space collapsed.
    @Test func titlesAreFoldedForSearch() {
        #expect(CatalogTitleIndex.fold("  Le  Monde — À la UNE ") == "le monde — a la une")
        #expect(CatalogTitleIndex.fold("Ｆｕｌｌ Ｗｉｄｔｈ") == "full width")
        #expect(CatalogTitleIndex.fold("Ünïcode") == "unicode")
    }

    /// A feedid written by hand at the edges (the largest there is, a negative one, an `about`
    /// row of no feed) is a change the next publication reads without stopping or crashing
    /// (the last page ends at the largest feedid), and the pages are those of reading every
    /// feed. Found by the random stored-values test: the page's end overflowed.
    @Test func feedidsAtTheEdgesAreReadWithoutOverflow() throws {
        let publisher = try PublishHarness()
        try publisher.seed(feeds: 3, items: 1)
        // Catalogued, never fetched: records a publication that follows the log does not read.
        _ = try publisher.harness.add((1...20).map { "https://later.example/\($0).xml" })
        _ = try publish(publisher.harness, into: publisher.outPath, listedFeeds: 0)
        _ = try publish(publisher.harness, into: publisher.outPath, listedFeeds: 0)
        let queue = try DatabaseQueue(path: publisher.harness.directory.url.path + "/all_feeds.sqlite")
        for edit in [
            "UPDATE about SET feedid = 9223372036854775807 WHERE feedid = 2",
            "INSERT INTO feeds (feedid, url) VALUES (9223372036854775807, 'https://edge.example/max.xml')",
            "INSERT INTO feeds (feedid, url) VALUES (-7, 'https://edge.example/negative.xml')",
        ] {
            try publisher.harness.catalog.beginChanges()
            try queue.write { db in try db.execute(sql: edit) }
            _ = try publish(publisher.harness, into: publisher.outPath, listedFeeds: 0)
            let full = try TemporaryDirectory()
            _ = try publish(publisher.harness, into: full.url.path, full: true, listedFeeds: 0)
            #expect(try index(publisher.outPath) == index(full.url.path), "\(edit)")
        }
        #expect(try index(publisher.outPath).pages.last?.page == Int(Int64.max / Int64(PublishRun.catalogPageSize)))
    }

    /// The record keeps only the catalog index's file (format 4): an index file damaged or
    /// removed is not trusted; the next publication writes the pages again from every feed.
    @Test(arguments: ["damaged", "removed"])
    func aCatalogIndexThatIsNotWhatTheRecordNamesIsWrittenAgain(how: String) throws {
        let publisher = try PublishHarness()
        try publisher.seed(feeds: 4, items: 1)
        _ = try publish(publisher.harness, into: publisher.outPath)
        let named = try #require(try root(publisher.outPath)["catalog_index"] as? [String: Any])
        let file = publisher.outPath + "/" + (try #require(named["file"] as? String))
        let before = try index(publisher.outPath)
        if how == "damaged" { try Data("{}".utf8).write(to: URL(fileURLWithPath: file)) } else { try FileManager.default.removeItem(atPath: file) }
        try publisher.write(2, [entry("after")])
        let report = try publish(publisher.harness, into: publisher.outPath)
        #expect(report.failures.isEmpty && report.rootGeneration != nil)
        #expect(try index(publisher.outPath) == before, "the same pages, written again")
        #expect(try ContractCheck.validate([publisher.outPath]).status == 0)
    }
}
