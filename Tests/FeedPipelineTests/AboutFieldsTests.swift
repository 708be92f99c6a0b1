import FeedFetching
import FeedModel
import FeedPipeline
import FeedStorage
import Foundation
import PipelineTestSupport
import Testing

/// The catalog's `about` side beyond the title (issue 40): the site's home page, the feed's
/// description, picture and language, written whenever the feed's content is read.
@Suite("The catalog's about fields")
struct AboutFieldsTests {
    private func fetched(_ feed: CatalogFeed, link: String?, about: FeedDescription) throws -> CatalogFeed {
        let parsed = NormalizedFeed(format: .rss, title: "Title", link: link, about: about, entries: [])
        let response = FetchResponse(requestedURL: feed.url, finalURL: feed.url, status: 200)
        return try FeedTransition.next(
            feed, after: .fetched(response, parsed), now: 5_000, configuration: PipelineConfiguration(), isURLTaken: { _ in false }
        ).feed
    }

    @Test func aFetchWritesWhatTheFeedSaysOfItselfNowAndTheHomePageFallsBackToTheFeedLists() throws {
        var feed = CatalogFeed(feedID: 1, url: "https://site.example/feed.xml")
        feed.state.siteLink = "https://list.example/site"
        let described = FeedDescription(description: "About it", imageURL: "https://site.example/logo.png", language: "en-us")
        let first = try fetched(feed, link: "https://site.example/", about: described)
        #expect(first.link == "https://site.example/" && first.about == described)
        // The feed stops describing itself: so does the catalog. Its link stays the last one given.
        let second = try fetched(first, link: nil, about: FeedDescription())
        #expect(second.link == "https://site.example/" && second.about == FeedDescription())
        // A feed that never gave a link shows the one the feed list gave.
        let listed = try fetched(feed, link: nil, about: FeedDescription(language: "fr"))
        #expect(listed.link == "https://list.example/site" && listed.about.language == "fr")
        // A 304 reads nothing and changes nothing.
        let unchanged = try FeedTransition.next(
            first, after: .notModified(FetchResponse(requestedURL: feed.url, finalURL: feed.url, status: 304)), now: 6_000,
            configuration: PipelineConfiguration(), isURLTaken: { _ in false }
        ).feed
        #expect(unchanged.link == first.link && unchanged.about == first.about)
    }

    @Test func anUpdateStoresTheHomePageAndPublishingHandsItToClientsBesideTheOriginalQuery() throws {
        let publish = try PublishHarness()
        let harness = publish.harness
        let feeds = try FeedServer()
        feeds.set("/a.xml", rss("Alpha", items: [("a1", "One", nil, nil)]))
        let id = try #require(try harness.add([feeds.url("/a.xml")]).first)
        _ = try harness.update()
        #expect(try harness.feed(id).link == "https://site.example/")
        #expect(try sqlite(harness.catalog.path, "SELECT title, link FROM about WHERE feedid = \(id)") == [["Alpha", "https://site.example/"]])
        _ = try publish.publish()
        let published = publish.outPath + "/" + Catalog.fileName
        #expect(try sqlite(published, "SELECT feedid, title, link, description, image_url, language FROM about")
            == [["\(id)", "Alpha", "https://site.example/", nil, nil, nil]])
        #expect(try sqlite(published, "select feeds.feedid, url, title from feeds, about where (feeds.feedid = about.feedid)")
            == [["\(id)", feeds.url("/a.xml"), "Alpha"]])
        #expect(try sqlite(published, "PRAGMA user_version") == [["\(Snapshot.catalogSchemaVersion)"]])
    }
}
