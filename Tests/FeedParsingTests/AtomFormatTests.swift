import FeedModel
import Testing

@testable import FeedParsing

@Suite("Atom 1.0 and 0.3")
struct AtomFormatTests {
    @Test func readsAnAtom10FeedWithEveryTextKind() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.com/blog/">
              <title type="text">A &lt;b&gt; literal</title>
              <link rel="alternate" href="/"/>
              <author><name>Feed Author</name></author>
              <entry>
                <id>tag:example.com,2024:1</id>
                <title type="html">&lt;i&gt;Hi&lt;/i&gt;</title>
                <link rel="self" type="application/atom+xml" href="1.atom"/>
                <link href="posts/1" rel="alternate" type="text/html"/>
                <link rel="enclosure" href="1.mp3" type="audio/mpeg" length="10"/>
                <summary>Sum &amp; more</summary>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>A &lt; B <a href="x">x</a></p><br/></div></content>
                <published>2003-12-13T18:30:02Z</published>
                <updated>2003-12-14T18:30:02Z</updated>
                <category term="news"/>
                <source><id>other</id><title>Other feed</title><updated>2001-01-01T00:00:00Z</updated></source>
              </entry>
            </feed>
            """)
        #expect(feed.format == .atom)
        #expect(feed.version == "1.0")
        #expect(feed.title == FeedText("A <b> literal", kind: .text))
        #expect(feed.authors.map(\.name) == ["Feed Author"])
        #expect(feed.baseChain == ["https://example.com/blog/"])
        let entry = try #require(feed.entries.first)
        #expect(entry.nativeID == "tag:example.com,2024:1")
        #expect(entry.title == FeedText("<i>Hi</i>", kind: .html))
        #expect(entry.links.map(\.href) == ["1.atom", "posts/1", "1.mp3"])
        #expect(entry.links[1].baseChain == ["https://example.com/blog/"])
        #expect(entry.enclosures.first?.length == 10)
        #expect(entry.summary == FeedText("Sum & more", kind: .text))
        #expect(entry.content == FeedText("<p>A &lt; B <a href=\"x\">x</a></p><br>", kind: .xhtml))
        #expect(entry.published == 1_071_340_202)
        #expect(entry.updated == 1_071_426_602)
        #expect(entry.categories.map(\.term) == ["news"])
        #expect(entry.authors.isEmpty, "the source element's data must not leak into the entry")
    }

    @Test func nestedXMLBaseValuesAreKeptOutermostFirst() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://a.example/x/">
            <entry xml:base="y/"><link xml:base="z/" href="page.html"/></entry></feed>
            """)
        let link = try #require(feed.entries.first?.links.first)
        #expect(link.baseChain == ["http://a.example/x/", "y/", "z/"])
        #expect(feed.entries.first?.baseChain == ["http://a.example/x/", "y/"])
    }

    @Test func contentWithSrcIsNotContent() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><content src="http://e.com/x" type="text/html"/>
            <summary>fallback</summary></entry></feed>
            """)
        #expect(feed.entries.first?.content == nil)
        #expect(feed.entries.first?.summary?.value == "fallback")
    }

    @Test func readsAtom03() throws {
        let feed = try parse("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#">
              <title>Old Atom</title>
              <link rel="alternate" type="text/html" href="http://example.org/"/>
              <entry>
                <title>Entry</title>
                <link rel="alternate" type="text/html" href="http://example.org/2003/12/13/atom03"/>
                <id>tag:example.org,2003:3.2397</id>
                <issued>2003-12-13T08:29:29-04:00</issued>
                <modified>2003-12-13T18:30:02Z</modified>
                <content type="text/html" mode="escaped">&lt;p&gt;Escaped&lt;/p&gt;</content>
                <summary type="text/html" mode="xml"><b>Inline</b></summary>
              </entry>
            </feed>
            """)
        #expect(feed.version == "0.3")
        let entry = try #require(feed.entries.first)
        #expect(entry.published == 1_071_318_569)
        #expect(entry.updated == 1_071_340_202)
        #expect(entry.content == FeedText("<p>Escaped</p>", kind: .html))
        #expect(entry.summary == FeedText("<b>Inline</b>", kind: .xhtml))
    }

    @Test func readsAPlanetAggregatorFeed() throws {
        let feed = try FeedParser.parse(try fixture("planet-aggregator.atom.xml"))
        #expect(feed.format == .atom)
        #expect(feed.title?.value == "Example Engineering Blogs")
        #expect(feed.entries.count == 5)
        #expect(feed.diagnostics.isEmpty)
        let first = try #require(feed.entries.first)
        #expect(first.nativeID == "https://ana.example.org/2013/05/merging-offline-edits")
        #expect(first.links.map(\.href) == ["https://ana.example.org/2013/05/merging-offline-edits.html"])
        #expect(first.content?.value.contains("That&#8217;s not how work gets done") == true)
        #expect(feed.entries.allSatisfy { $0.updated != nil && $0.published == nil })
        #expect(feed.entries.allSatisfy { $0.content?.kind == .html })
    }
}

@Suite("JSON Feed 1.0 and 1.1")
struct JSONFeedFormatTests {
    @Test func readsJSONFeed11() throws {
        let feed = try parse("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "home_page_url": "https://j.example/",
             "authors": [{"name": "Jo"}],
             "items": [
               {"id": "1", "url": "https://j.example/1", "title": "One", "content_html": "<p>Hi</p>",
                "summary": "S", "date_published": "2003-12-13T18:30:02Z", "date_modified": "2003-12-14T18:30:02Z",
                "authors": [{"name": "Al"}], "tags": ["t"], "image": "https://j.example/1.png",
                "attachments": [{"url": "https://j.example/1.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 5}]},
               {"id": 2, "content_text": "Plain < text", "external_url": "https://elsewhere.example/"},
               "not an object"
             ]}
            """)
        #expect(feed.format == .json)
        #expect(feed.version == "1.1")
        #expect(feed.title?.value == "J")
        #expect(feed.siteLink?.href == "https://j.example/")
        #expect(feed.entries.count == 2)
        let first = feed.entries[0]
        #expect(first.nativeID == "1")
        #expect(first.content == FeedText("<p>Hi</p>", kind: .html))
        #expect(first.published == 1_071_340_202)
        #expect(first.updated == 1_071_426_602)
        #expect(first.authors.map(\.name) == ["Al"])
        #expect(first.enclosures.first?.length == 5)
        let second = feed.entries[1]
        #expect(second.nativeID == "2")
        #expect(second.content == FeedText("Plain < text", kind: .text))
        #expect(second.originalLink?.href == "https://elsewhere.example/")
    }

    @Test func readsJSONFeed10SingleAuthor() throws {
        let feed = try parse("""
            {"version": "https://jsonfeed.org/version/1", "title": "Old", "items": [{"id": "a", "author": {"name": "Solo"}}]}
            """)
        #expect(feed.entries.first?.authors.map(\.name) == ["Solo"])
    }

    @Test func jsonThatIsNotAFeedIsRefused() {
        #expect(throws: FeedParseError.notAFeed(found: "a JSON document without a JSON Feed \"version\"")) {
            try parse("{\"hello\": \"world\"}")
        }
    }

    @Test func brokenJSONIsAClearError() {
        #expect {
            try parse("{\"version\": \"https://jsonfeed.org/version/1\", ")
        } throws: { error in
            guard case FeedParseError.unreadable(_, _, let reason) = error else { return false }
            return reason.hasPrefix("invalid JSON")
        }
    }
}
