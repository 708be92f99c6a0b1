import FeedBasics
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
        try kept(out).document
    }

    /// The index the root names, with every page and title run its groups name (read as a
    /// record reads them: each file checked against its SHA-256).
    private func kept(_ out: String) throws -> CatalogPagesKept {
        let named = try #require(try root(out)["catalog_index"] as? [String: Any])
        let index = try RootCatalogIndex(
            file: #require(named["file"] as? String), sha256: #require(named["sha256"] as? String), size: #require(named["size"] as? Int))
        let kept = CatalogPagesKept.read(index, from: { name in try? [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/" + name))) })
        #expect(kept.document != CatalogPagesKept.unread, "\(out): the index or a group is not what it should be")
        return kept
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
        let first = try kept(out.url.path)
        #expect(first.pages.map(\.page) == Array(0...10) && first.document.feedCount == 2_600)
        #expect(first.document.pageGroups.map(\.group) == [0] && first.document.titleCount == 2_600)
        #expect(first.titles.count > 1 && first.titles.allSatisfy { $0.count <= CatalogTitleIndex.runLimit }, "\(first.titles.map(\.count))")

        // One feed's last_update moves: its page, its group and the index, nothing else.
        var feed = try harness.feed(1_500)
        feed.lastUpdate = 1_800_000_000
        try harness.catalog.save(feed)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: out.url.path))
        let moved = try publish(harness, into: out.url.path)
        let second = try kept(out.url.path)
        #expect(second.titles == first.titles && second.document.titleGroups == first.document.titleGroups, "no title changed: the runs are kept")
        #expect(zip(first.pages, second.pages).filter { $0.0 != $0.1 }.map(\.1.page) == [6])
        let catalogWritten = Set(try FileManager.default.contentsOfDirectory(atPath: out.url.path)).subtracting(before).filter { $0.hasPrefix("catalog_") }
        #expect(catalogWritten == [second.pages[6].file, second.document.pageGroups[0].file, second.index.file], "\(catalogWritten)")
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
        #expect(try kept(publisher.outPath).pages.last?.page == Int(Int64.max / Int64(PublishRun.catalogPageSize)))
        #expect(try index(publisher.outPath).pageGroups.last?.group == Int(Int64.max / Int64(PublishRun.catalogPageSize)) / PublishRun.catalogGroupSize)
    }

    /// The record keeps only the catalog index's file (format 4): an index, a page group or a
    /// title group damaged or removed is not trusted; the next publication writes the pages
    /// again from every feed (the same bytes, so the same names).
    @Test(arguments: ["damaged", "removed", "page group damaged", "title group removed"])
    func aCatalogIndexThatIsNotWhatTheRecordNamesIsWrittenAgain(how: String) throws {
        let publisher = try PublishHarness()
        try publisher.seed(feeds: 4, items: 1)
        _ = try publish(publisher.harness, into: publisher.outPath)
        let before = try index(publisher.outPath)
        let named = try #require(try root(publisher.outPath)["catalog_index"] as? [String: Any])
        let file = publisher.outPath + "/"
            + (how.hasPrefix("page group") ? before.pageGroups[0].file : how.hasPrefix("title group") ? before.titleGroups[0].file : try #require(named["file"] as? String))
        if how.hasSuffix("damaged") { try Data("{}".utf8).write(to: URL(fileURLWithPath: file)) } else { try FileManager.default.removeItem(atPath: file) }
        try publisher.write(2, [entry("after")])
        let report = try publish(publisher.harness, into: publisher.outPath)
        #expect(report.failures.isEmpty && report.rootGeneration != nil)
        #expect(try index(publisher.outPath) == before, "the same pages, written again")
        #expect(try ContractCheck.validate([publisher.outPath]).status == 0)
    }
}

/// Format 1 of the catalog index (every page and title chunk named in it) is upgraded in
/// place: the next publication writes format 2 and retires the files format 1 named.
@Suite("Publication: the catalog index upgraded from format 1")
struct CatalogIndexUpgradeTests {
    @Test func aFormat1IndexIsReplacedAndItsFilesRetired() throws {
        let publisher = try PublishHarness()
        try publisher.seed(feeds: 3, items: 1)
        _ = try publisher.publish()
        func put(_ text: String, _ prefix: String) throws -> (file: String, sha256: String, size: Int) {
            let bytes = [UInt8](text.utf8)
            let sha256 = SHA256.hexDigest(bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: publisher.outPath + "/\(prefix).\(sha256).json"))
            return ("\(prefix).\(sha256).json", sha256, bytes.count)
        }
        // What a format-1 publisher wrote: a page of 1,000 ids, a chunk by prefix, an index naming them.
        let page = try put(#"{"feeds":[{"feedid":1,"url":"https://feeds.example/1.xml"}],"format":"feedmill-catalog-page","format_version":1,"page":0}"#, "catalog_page_0")
        let chunk = try put(#"{"format":"feedmill-catalog-titles","format_version":1,"prefix":"","titles":[]}"#, "catalog_titles")
        let index = try put(
            #"{"feed_count":1,"format":"feedmill-catalog-index","format_version":1,"page_size":1000,"#
                + #""pages":[{"count":1,"file":"\#(page.file)","page":0,"sha256":"\#(page.sha256)","size":\#(page.size)}],"#
                + #""titles":[{"count":0,"file":"\#(chunk.file)","prefix":"","sha256":"\#(chunk.sha256)","size":\#(chunk.size)}]}"#,
            "catalog_index")
        try ContractTests.editRecord(in: publisher.outPath) { record in
            record["catalog_pages"] = ["index": ["file": index.file, "sha256": index.sha256, "size": index.size]]
        }

        try publisher.write(2, [entry("after")])
        let report = try publisher.publish()
        #expect(report.failures.isEmpty && report.rootGeneration != nil, "\(report)")
        let upgraded = try #require(try publisher.root().catalogIndex)
        let document = try JSONDecoder().decode(
            CatalogIndexDocument.self, from: Data(contentsOf: URL(fileURLWithPath: publisher.outPath + "/" + upgraded.file)))
        #expect(document.formatVersion == 2 && document.feedCount == 3 && document.titleCount == 3)
        // Retired with no grace period: gone by the publication after.
        try publisher.write(3, [entry("later")])
        _ = try publisher.publish()
        for file in [page.file, chunk.file, index.file] {
            #expect(!FileManager.default.fileExists(atPath: publisher.outPath + "/" + file), "\(file) is still there")
        }
        #expect(try ContractCheck.validate([publisher.outPath]).status == 0)
    }
}
