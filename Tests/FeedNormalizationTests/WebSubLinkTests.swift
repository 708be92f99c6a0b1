import FeedModel
import FeedNormalization
import Testing

/// The hub and topic a feed advertises for WebSub (`rel="hub"` and `rel="self"` in Atom and
/// RSS's `atom:link`, `hubs` and `feed_url` in JSON Feed 1.1), recorded by rss-update for
/// rss-serve to subscribe with.
@Suite("WebSub links: hub and topic")
struct WebSubLinkTests {
    @Test func atomLinksResolvedAgainstTheDocument() throws {
        let feed = try normalized("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <link rel="alternate" href="/"/><link rel="hub" href="https://hub.example/"/><link rel="self" href="feed.xml"/>
            <link rel="hub" href="https://second.example/"/></feed>
            """)
        #expect(feed.websub == WebSubLinks(hub: "https://hub.example/", topic: "https://feed.example/dir/feed.xml"))
    }

    @Test func rssAtomLinksAndOnlyWebURLs() throws {
        let feed = try normalized("""
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>T</title>
            <atom:link rel="hub" href="javascript:alert(1)"/><atom:link rel="hub" href="http://pubsubhubbub.example/"/>
            <atom:link rel="self" type="application/rss+xml" href="https://site.example/rss"/></channel></rss>
            """)
        #expect(feed.websub == WebSubLinks(hub: "http://pubsubhubbub.example/", topic: "https://site.example/rss"))
    }

    @Test func jsonFeedHubsOfTypeWebSub() throws {
        let feed = try normalized("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "T", "feed_url": "https://site.example/feed.json",
             "hubs": [{"type": "rssCloud", "url": "https://cloud.example/"}, {"type": "WebSub", "url": "https://hub.example/websub"}, 7],
             "items": []}
            """)
        #expect(feed.websub == WebSubLinks(hub: "https://hub.example/websub", topic: "https://site.example/feed.json"))
    }

    @Test func noTopicOrNoWebSubHubIsNothingToSubscribeTo() throws {
        let hubOnly = try normalized(#"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><link rel="hub" href="https://hub.example/"/></feed>"#)
        #expect(hubOnly.websub == nil)
        let cloudOnly = try normalized("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "T", "feed_url": "https://site.example/feed.json",
             "hubs": [{"type": "rssCloud", "url": "https://cloud.example/"}], "items": []}
            """)
        #expect(cloudOnly.websub == nil)
    }
}
