import FeedModel
import FeedNormalization
import FeedParsing
import Foundation
import Testing

/// The edges of issue 40 as readers get them: the fixtures FeedParsingTests ships, parsed and
/// normalised (docs/fidelity.md, "Edges").
@Suite("Edges read right, normalised")
struct EdgeFidelityTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../FeedParsingTests/Fixtures").standardized

    private func normalizedFixture(_ name: String, feedURL: String? = nil) throws -> NormalizedFeed {
        let bytes = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
        return FeedNormalizer.normalize(try FeedParser.parse(bytes), feedURL: feedURL, now: readingTime)
    }

    @Test func jsonFeedTitlesHaveTheirCharacterReferencesDecodedAndKeepTheirAngleBrackets() throws {
        let feed = try normalizedFixture("json-feed-title-entities.json")
        #expect(feed.title == "Tasks & Lists")
        #expect(feed.entries.map(\.title) == [
            "Add Task & Sub Tasks",
            "It’s \"done\" été",
            "Why <script> tags <matter> & AT&T",
        ])
    }

    @Test func jsonFeedTextOtherThanTitlesIsUnchanged() throws {
        let feed = try normalized("""
            {"version": "https://jsonfeed.org/version/1.1", "items": [
             {"id": "1", "title": "A  &amp;\\n B", "content_text": "x &amp; y"}]}
            """)
        #expect(feed.entries.first?.title == "A & B")
        #expect(feed.entries.first?.summary.text.contains("x &amp;amp; y") == true)
    }

    @Test func atomAndRSSTitlesAreReadAsBefore() throws {
        let atom = try normalized("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>a</id><title>A &amp;amp; &lt;b&gt;</title></entry></feed>")
        #expect(atom.entries.first?.title == "A &amp; <b>")
        let rss = try normalized("<rss><channel><item><guid>a</guid><title>AT&amp;amp;T &lt;b&gt;x&lt;/b&gt;</title></item></channel></rss>")
        #expect(rss.entries.first?.title == "AT&T x")
    }

    @Test func atomTitlesTypedWithAnUnknownMIMETypeReachReaders() throws {
        let feed = try normalizedFixture("atom10-unknown-type-text.xml")
        #expect(feed.title == "Typed by mistake")
        #expect(feed.entries.map(\.title) == ["Hello, world", "Test", "Base64 title"])
        #expect(feed.entries.map(\.summary.text) == ["A summary, in plain words.", "Content that is no base64 at all.", "Base64 content"])
    }

    @Test func aLatin1FeedWithUTF8ItemsHasNoMojibake() throws {
        let feed = try normalizedFixture("rss20-latin1-declared-utf8-items.xml")
        #expect(feed.title == "Le Café des Arts")
        #expect(feed.entries.map(\.title) == ["Crème brûlée — la recette", "Naïve “quotes” déjà vu"])
    }

    @Test func atomLinksWrittenAsTextArePermalinksAndTheSiteLink() throws {
        let feed = try normalizedFixture("atom03-link-as-text.xml", feedURL: "https://text-links.example/atom.xml")
        #expect(feed.link == "https://text-links.example/")
        #expect(feed.entries.map(\.permalink) == [
            "https://text-links.example/2004/03/first", "https://text-links.example/2004/03/second",
        ])
    }

    @Test func severalRSSLinksGiveThePermalinkNotTheFeedURL() throws {
        let feed = try normalizedFixture("rss20-item-several-links.xml", feedURL: "https://links.example/feed.xml")
        #expect(feed.entries.map(\.permalink) == [
            "https://links.example/markets/2022/11/10/panic/?utm_medium=referral&utm_source=rss",
            "https://links.example/first",
        ])
    }

    @Test func userLandRSSIsReadAsAFeed() throws {
        for name in ["rss-userland-namespace.xml", "rss21-userland-namespace.xml"] {
            let feed = try normalizedFixture(name)
            #expect(feed.format == .rss)
            #expect(feed.entries.map(\.permalink) == ["https://userland.example/2004/01/01"], "\(name)")
        }
    }
}
