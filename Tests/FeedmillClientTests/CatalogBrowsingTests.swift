@testable import FeedmillClient
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// Browsing and searching the catalog a page or a chunk at a time (issue 51), over HTTP from a
/// real publication, every file checked by its SHA-256 and size before it is read.
@Suite("FeedmillClient: browsing the catalog")
struct CatalogBrowsingTests {
    @Test func pagesFeedsAndTitlesWithoutTheCatalog() async throws {
        let fixture = try ClientFixture(feeds: 5)
        try fixture.publish()
        let catalog = PublicationCatalog(baseURL: fixture.base)
        let index = try await catalog.index()
        #expect(fixture.server.requests.map(\.path).filter { $0.hasPrefix("/catalog_index.") }.count == 1, "the index is read once")
        #expect(index.feedCount == 5 && index.pageSize == 250 && index.groupSize == 64 && index.pageGroups.map(\.group) == [0])
        #expect(index.titleCount == 5 && index.titleGroups.map(\.chunks) == [1])
        let page = try await catalog.page(0, of: index)
        #expect(page.map(\.feedID) == [1, 2, 3, 4, 5] && page.map(\.title) == ["Feed 1", "Feed 2", "Feed 3", "Feed 4", "Feed 5"])
        #expect(try await catalog.page(7, of: index).isEmpty)
        #expect(try await catalog.feed(3, in: index)?.url == "https://feeds.example/3.xml")
        #expect(try await catalog.search("  fEEd 3", in: index).map(\.feedID) == [3])
        #expect(try await catalog.search("feed", in: index, limit: 2).map(\.feedID) == [1, 2])
        #expect(try await catalog.search("nothing like it", in: index).isEmpty)
        #expect(!fixture.server.requests.contains { $0.path.hasPrefix("/all_feeds") }, "the catalog itself is never asked for")
    }

    @Test func aFileThatIsNotWhatTheIndexSaysIsRefused() async throws {
        let fixture = try ClientFixture(feeds: 2)
        try fixture.publish()
        let catalog = PublicationCatalog(baseURL: fixture.base)
        let index = try await catalog.index()
        let group = try #require(index.pageGroups.first)
        let pages = try Format2Publication.readJSON(fixture.servedPath + "/" + group.file)["pages"] as? [[String: Any]]
        let page = (file: try #require(pages?.first?["file"] as? String), ())
        let path = fixture.servedPath + "/" + page.file
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "Feed 1", with: "Feed X")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try await catalog.page(0, of: index)
            Issue.record("a changed page was read")
        } catch {
            guard case .sha256Mismatch(let file, _, _) = error else {
                Issue.record("expected a SHA-256 mismatch, got \(error)")
                return
            }
            #expect(file == page.file)
        }

        try fixture.editRoot { $0["catalog_index"] = nil }
        do {
            _ = try await catalog.index()
            Issue.record("a root without an index gave one")
        } catch {
            #expect(error.description.contains("names no catalog_index"), "\(error)")
        }
    }

    /// An index of a format this client does not read (format 1 listed every page) is refused
    /// with a line that says so, not misread.
    @Test func anIndexOfAnotherFormatIsRefused() async throws {
        let fixture = try ClientFixture(feeds: 2)
        try fixture.publish()
        let bytes = Data(#"{"feed_count":0,"format":"feedmill-catalog-index","format_version":1,"page_size":1000,"pages":[],"titles":[]}"#.utf8)
        let sha256 = SHA256Hasher.hexDigest(bytes)
        try bytes.write(to: URL(fileURLWithPath: fixture.servedPath + "/catalog_index.\(sha256).json"))
        try fixture.editRoot { $0["catalog_index"] = ["file": "catalog_index.\(sha256).json", "sha256": sha256, "size": bytes.count] }
        do {
            _ = try await PublicationCatalog(baseURL: fixture.base).index()
            Issue.record("a format-1 index was read")
        } catch {
            #expect(error.description.contains("format_version 1, which this client does not read (it reads 2)"), "\(error)")
        }
    }

    /// 6,000 titles sharing a prefix longer than format 1 ever split (it made one chunk of
    /// them all): a search reads the index, a title group and the run or two that can hold
    /// its matches, and finds them in the index's order.
    @Test func titlesSharingALongPrefixAreSearchedARunAtATime() async throws {
        let fixture = try ClientFixture(feeds: 2)
        let harness = fixture.publisher.harness
        let ids = try harness.add((1...6_000).map { "https://many.example/\($0).xml" })
        try harness.catalog.beginChanges()
        let queue = try DatabaseQueue(path: harness.directory.url.path + "/all_feeds.sqlite")
        try queue.inDatabase { db in
            try db.inTransaction {
                for id in ids { try db.execute(sql: "INSERT INTO about (feedid, title) VALUES (?, ?)", arguments: [id, "Synthetic feed \(id)"]) }
                return .commit
            }
        }
        try fixture.publish()
        let catalog = PublicationCatalog(baseURL: fixture.base)
        let index = try await catalog.index()
        #expect(index.titleCount == 6_002 && index.titleGroups.reduce(0) { $0 + $1.chunks } > 2, "\(index.titleGroups)")
        let before = fixture.server.requests.count
        let one = ids[4_321]
        #expect(try await catalog.search("SYNTHETIC  feed \(one)", in: index).map(\.feedID) == [one])
        let runsRead = fixture.server.requests.dropFirst(before).filter { $0.path.hasPrefix("/catalog_titles.") }.count
        #expect((1...2).contains(runsRead), "\(runsRead) runs read for one title")

        // Every match, in the index's order: by the key's UTF-8, then feedid.
        let expected = ids.map { (key: "synthetic feed \($0)", id: $0) }
            .sorted { Array($0.key.utf8) == Array($1.key.utf8) ? $0.id < $1.id : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        #expect(try await catalog.search("synthetic", in: index, limit: 10_000).map(\.feedID) == expected.map(\.id))
        #expect(try await catalog.search("synthetic feed 59", in: index, limit: 10_000).map(\.feedID) == expected.filter { $0.key.hasPrefix("synthetic feed 59") }.map(\.id))
        #expect(try await catalog.search("synthetic", in: index, limit: 7).map(\.feedID) == Array(expected.prefix(7).map(\.id)))
        #expect(try await catalog.search("feed", in: index).map(\.feedID) == [1, 2])
        #expect(try await catalog.search("zzz", in: index).isEmpty)
        #expect(try await catalog.search("", in: index, limit: 3).count == 3)
    }
}
