@testable import FeedmillClient
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Following some feeds, the client writes `all_feeds.sqlite` itself from their pointers'
/// `about` and never downloads the published catalog (issue 51): a real publication over HTTP.
@Suite("FeedmillClient: the catalog written from the followed feeds' pointers")
struct FollowedCatalogTests {
    private func rows(_ fixture: ClientFixture) throws -> [[String?]] {
        try sqlite(
            fixture.path("all_feeds.sqlite"),
            "SELECT feeds.feedid, feeds.url, about.title, about.link, last_update.when_unix_time FROM feeds "
                + "LEFT JOIN about ON about.feedid = feeds.feedid LEFT JOIN last_update ON last_update.feedid = feeds.feedid ORDER BY feeds.feedid")
    }

    private func catalogRequests(_ fixture: ClientFixture) -> Int {
        fixture.server.requests.filter { $0.path.hasPrefix("/all_feeds") }.count
    }

    @Test func theFollowedFeedsAreListedWithoutTheCatalog() async throws {
        let fixture = try ClientFixture(feeds: 5)
        try fixture.publish()
        let first = try await fixture.sync(.only([1, 3]), catalog: .followed)
        #expect(first.problems.isEmpty, "\(first)")
        #expect(first.catalog?.action == .built && Set(first.fullDownloads) == ["feed_1.sqlite", "feed_3.sqlite"], "\(first)")
        #expect(catalogRequests(fixture) == 0, "the published catalog is never asked for")
        #expect(try rows(fixture) == [
            ["1", "https://feeds.example/1.xml", "Feed 1", nil, "1700000000"], ["3", "https://feeds.example/3.xml", "Feed 3", nil, "1700000000"],
        ])
        #expect(try sqlite(fixture.path("all_feeds.sqlite"), "PRAGMA user_version") == [["2"]])
        // The published catalog's tables, as an app queries them.
        #expect(try sqlite(fixture.path("all_feeds.sqlite"), "SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
            == (try sqlite(fixture.servedPath + "/all_feeds.sqlite", "SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY name")))

        // Nothing changed: nothing written, the pointers answered 304.
        let again = try await fixture.sync(.only([1, 3]), catalog: .followed)
        #expect(again.catalog?.action == .unchanged && again.outcome == .upToDate && again.notModified == 2, "\(again)")
    }

    /// A feed renamed, its items unchanged: its pointer is rewritten with its new `about` (the
    /// same entries), and the client's row follows.
    @Test func aRenamedFeedReachesTheClientWithItsPointer() async throws {
        let fixture = try ClientFixture(feeds: 3)
        let published = try fixture.publish()
        _ = try await fixture.sync(.only([2]), catalog: .followed)
        var feed = try fixture.publisher.harness.feed(2)
        feed.title = "Feed two, renamed"
        feed.link = "https://site.example/two"
        try fixture.publisher.harness.catalog.save(feed)
        let renamed = try fixture.publish()
        #expect(renamed.feed(2)?.version == published.feed(2)?.version, "the feed's snapshot did not change")
        let report = try await fixture.sync(.only([2]), catalog: .followed)
        #expect(report.catalog?.action == .built && report.fullDownloads.isEmpty && report.deltaDownloads.isEmpty, "\(report)")
        #expect(try rows(fixture) == [["2", "https://feeds.example/2.xml", "Feed two, renamed", "https://site.example/two", "1700000000"]])
    }

    /// A feed removed from the publication leaves the client (its file and its row) once its
    /// pointer goes; a feed never published has neither.
    @Test func aRemovedFeedLeavesWithItsPointer() async throws {
        let fixture = try ClientFixture(feeds: 3)
        try fixture.publish()
        _ = try await fixture.sync(.only([1, 2, 99]), catalog: .followed)
        #expect(try rows(fixture).map { $0[0] } == ["1", "2"])
        _ = try fixture.publisher.harness.catalog.remove(feedID: 2)
        try fixture.publish()
        try fixture.publish()
        #expect(!FileManager.default.fileExists(atPath: fixture.servedPath + "/feed_2.json"), "retired, then removed (no grace in the harness)")
        let report = try await fixture.sync(.only([1, 2, 99]), catalog: .followed)
        #expect(report.removed == ["feed_2.sqlite"] && report.notPublished == [2, 99], "\(report)")
        #expect(try rows(fixture).map { $0[0] } == ["1"])
        #expect(!FileManager.default.fileExists(atPath: fixture.path("feed_2.sqlite")))
    }

    /// A publisher from before issue 51 (pointers without `about`): the published catalog, as
    /// before; then one with `about` again: the client's own, replacing it.
    @Test func pointersWithoutAboutFallBackToThePublishedCatalog() async throws {
        let fixture = try ClientFixture(feeds: 3)
        let published = try fixture.publish()
        for id in Int64(1)...3 { try fixture.editPointer(id) { $0["about"] = nil } }
        let old = try await fixture.sync(.only([1, 2]), catalog: .followed)
        #expect(old.catalog?.action == .downloaded && old.problems.isEmpty, "\(old)")
        #expect(try IndependentDigest.of(fixture.path("all_feeds.sqlite"), catalog: true) == published.catalog.contentDigest)
        try fixture.publish()
        let new = try await fixture.sync(.only([1, 2]), catalog: .followed)
        #expect(new.catalog?.action == .built, "\(new)")
        #expect(try rows(fixture).map { $0[0] } == ["1", "2"])
        // And back to the published one: the client's own is replaced, as any file it wrote.
        let back = try await fixture.sync(.only([1, 2]), catalog: .published)
        #expect(back.catalog?.action == .downloaded, "\(back)")
        #expect(try IndependentDigest.of(fixture.path("all_feeds.sqlite"), catalog: true) == (try fixture.view()).catalog.contentDigest)
    }

    /// What the client writes holds no link that is not http(s), whatever a pointer says, and a
    /// catalog it did not write is never replaced.
    @Test func unsafeLinksAreLeftOutAndAForeignCatalogIsNotTouched() async throws {
        let fixture = try ClientFixture(feeds: 2)
        try fixture.publish()
        try fixture.editPointer(1) { pointer in
            var about = pointer["about"] as? [String: Any] ?? [:]
            about["link"] = "javascript:alert(1)"
            about["image_url"] = "data:image/png;base64,AAAA"
            pointer["about"] = about
        }
        _ = try await fixture.sync(.only([1]), catalog: .followed)
        #expect(try sqlite(fixture.path("all_feeds.sqlite"), "SELECT link, image_url FROM about") == [[nil, nil]])

        let other = try ClientFixture(feeds: 2)
        try other.publish()
        let foreign = Data("not the client's".utf8)
        try foreign.write(to: URL(fileURLWithPath: other.path("all_feeds.sqlite")))
        let report = try await other.sync(.only([1]), catalog: .followed)
        #expect(report.problems.map(\.file) == ["all_feeds.sqlite"], "\(report)")
        #expect(FileManager.default.contents(atPath: other.path("all_feeds.sqlite")) == foreign)
    }
}
