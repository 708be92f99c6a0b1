import FeedModel
import Testing

@testable import FeedParsing

@Suite("RSS 0.9x and 2.0")
struct RSSFormatTests {
    @Test func readsAnRSS20ChannelAndItsItems() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
                 xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom"
                 xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"
                 xmlns:media="http://search.yahoo.com/mrss/">
              <channel>
                <title>Example &amp; Co</title>
                <link>https://example.com/</link>
                <atom:link rel="self" href="https://example.com/feed.xml" type="application/rss+xml"/>
                <ttl>90</ttl>
                <image><title>Logo title</title><link>https://example.com/logo</link></image>
                <item>
                  <title>First post</title>
                  <link>https://example.com/1</link>
                  <description>Short</description>
                  <content:encoded><![CDATA[<p>Long <b>body</b></p>]]></content:encoded>
                  <guid isPermaLink="false">post-1</guid>
                  <pubDate>Tue, 21 Apr 2009 23:32:00 +0000</pubDate>
                  <dc:creator>Ann</dc:creator>
                  <category>swift</category>
                  <enclosure url="https://example.com/1.mp3" type="audio/mpeg" length="1234"/>
                  <feedburner:origLink>https://origin.example.com/1</feedburner:origLink>
                  <media:thumbnail url="https://example.com/1.jpg"/>
                </item>
              </channel>
            </rss>
            """)
        #expect(feed.format == .rss)
        #expect(feed.version == "2.0")
        #expect(feed.title == FeedText("Example & Co", kind: .html))
        #expect(feed.siteLink?.href == "https://example.com/")
        #expect(feed.links.first?.rel == "self")
        #expect(feed.hints.ttlMinutes == 90)
        #expect(feed.entries.count == 1)
        let item = try #require(feed.entries.first)
        #expect(item.title?.value == "First post")
        #expect(item.itemLink?.href == "https://example.com/1")
        #expect(item.summary == FeedText("Short", kind: .html))
        #expect(item.content == FeedText("<p>Long <b>body</b></p>", kind: .html))
        #expect(item.nativeID == "post-1")
        #expect(item.guidIsPermaLink == false)
        #expect(item.published == 1_240_356_720)
        #expect(item.authors.map(\.name) == ["Ann"])
        #expect(item.categories.map(\.term) == ["swift"])
        #expect(item.enclosures == [ParsedEnclosure(link: FeedLink(href: "https://example.com/1.mp3", type: "audio/mpeg"), length: 1234)])
        #expect(item.originalLink?.href == "https://origin.example.com/1")
        #expect(item.thumbnails.map(\.href) == ["https://example.com/1.jpg"])
    }

    @Test func readsRSS091WithItsNetscapeDoctype() throws {
        let feed = try parse("""
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">
            <rss version="0.91"><channel><title>Old</title><link>http://old.example.com/</link>
            <item><title>Caf&eacute; &nbsp;news</title><link>http://old.example.com/a</link><description>x</description></item>
            </channel></rss>
            """)
        #expect(feed.version == "0.91")
        #expect(feed.entries.first?.title?.value == "Café \u{00A0}news")
    }

    @Test func pubDateWinsOverDCDateWhicheverComesFirst() throws {
        let feed = try parse("""
            <rss xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><item>
            <dc:date>2003-12-13T18:30:02Z</dc:date><pubDate>Tue, 21 Apr 2009 23:32:00 +0000</pubDate>
            </item><item><dc:date>2003-12-13T18:30:02Z</dc:date></item></channel></rss>
            """)
        #expect(feed.entries.map(\.published) == [1_240_356_720, 1_071_340_202])
    }

    @Test func anUnreadableDateIsMissingButItsTextIsKept() throws {
        let feed = try parse("<rss><channel><item><pubDate>someday</pubDate></item></channel></rss>")
        #expect(feed.entries.first?.published == nil)
        #expect(feed.entries.first?.publishedText == "someday")
    }

    @Test func readsSchedulingHints() throws {
        let feed = try parse("""
            <rss xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel>
            <ttl>60</ttl><skipHours><hour>0</hour><hour>24</hour><hour>7</hour></skipHours>
            <skipDays><day>Saturday</day><day>Sunday</day></skipDays>
            <sy:updatePeriod>Daily</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>
            </channel></rss>
            """)
        #expect(feed.hints == SchedulingHints(ttlMinutes: 60, skipHours: [0, 0, 7], skipDays: ["Saturday", "Sunday"], updatePeriod: "daily", updateFrequency: 2))
    }

    @Test func undeclaredNamespacePrefixesAreReadByTheirUsualMeaning() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><item><title>t</title><dc:creator>Bo</dc:creator>
            <content:encoded>&lt;p&gt;full&lt;/p&gt;</content:encoded></item></channel></rss>
            """)
        #expect(feed.entries.first?.authors.map(\.name) == ["Bo"])
        #expect(feed.entries.first?.content?.value == "<p>full</p>")
    }

    @Test func aDefaultNamespaceOnTheRSSRootStillReadsAsRSS() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns="http://backend.userland.com/rss2"><channel><title>NS</title>
            <item><title>x</title></item></channel></rss>
            """)
        #expect(feed.title?.value == "NS")
        #expect(feed.entries.count == 1)
    }

    @Test func mediaGroupContentBecomesEnclosuresAndImageThumbnails() throws {
        let feed = try parse("""
            <rss xmlns:media="http://search.yahoo.com/mrss/"><channel><item>
            <media:group><media:content url="https://e.com/v.mp4" type="video/mp4" fileSize="99"/>
            <media:content url="https://e.com/p.jpg" medium="image"/></media:group>
            </item></channel></rss>
            """)
        let item = try #require(feed.entries.first)
        #expect(item.enclosures.map(\.link.href) == ["https://e.com/v.mp4", "https://e.com/p.jpg"])
        #expect(item.enclosures.first?.length == 99)
        #expect(item.thumbnails.map(\.href) == ["https://e.com/p.jpg"])
    }
}

@Suite("RSS 1.0 and 0.90 (RDF)")
struct RDFFormatTests {
    @Test func readsRSS10ItemsThatAreSiblingsOfTheChannel() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="http://example.org/rss.rdf">
                <title>RDF Site</title><link>http://example.org/</link>
                <items><rdf:Seq><rdf:li resource="http://example.org/a"/></rdf:Seq></items>
              </channel>
              <image rdf:about="http://example.org/logo.png"><title>Image title</title><link>http://example.org/</link></image>
              <item rdf:about="http://example.org/a">
                <title>Item A</title><link>http://example.org/a.html</link>
                <description>About A</description><dc:date>2003-12-13T18:30:02Z</dc:date><dc:creator>Cy</dc:creator>
              </item>
            </rdf:RDF>
            """)
        #expect(feed.format == .rdf)
        #expect(feed.title?.value == "RDF Site")
        #expect(feed.siteLink?.href == "http://example.org/")
        let item = try #require(feed.entries.first)
        #expect(feed.entries.count == 1)
        #expect(item.nativeID == "http://example.org/a")
        #expect(item.itemLink?.href == "http://example.org/a.html")
        #expect(item.published == 1_071_340_202)
        #expect(item.authors.map(\.name) == ["Cy"])
    }

    @Test func readsRSS090() throws {
        let feed = try parse("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
            <channel><title>Mozilla Dot Org</title><link>http://www.mozilla.org</link></channel>
            <item><title>New Status Updates</title><link>http://www.mozilla.org/status/</link></item>
            <item><title>Bugzilla Reorganized</title><link>http://www.mozilla.org/bugs/</link></item>
            </rdf:RDF>
            """)
        #expect(feed.format == .rdf)
        #expect(feed.entries.map { $0.title?.value } == ["New Status Updates", "Bugzilla Reorganized"])
    }
}
