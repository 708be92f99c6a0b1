@testable import FeedmillClient
import Foundation
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
        #expect(index.feedCount == 5 && index.pageSize == 1_000 && index.pages.map(\.page) == [0])
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
        let page = try #require(index.pages.first)
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
}
