import FeedModel
import FeedNormalization
import FeedParsing
import Foundation
import Testing

/// The classes of disagreement a differential comparison with feedparser found, one test
/// (or table) each, on small inline documents named by what they show.
@Suite("Every entry right: fidelity at the edges")
struct FidelityTests {
    private func first(_ document: String) throws -> Entry {
        let feed = try normalized(document)
        return try #require(feed.entries.first)
    }

    // MARK: Dates

    @Test func atom03PublishedWinsOverIssuedInEitherOrder() throws {
        for order in [
            "<issued>2003-12-13T08:29:29-04:00</issued><published>2004-01-01T00:00:00Z</published>",
            "<published>2004-01-01T00:00:00Z</published><issued>2003-12-13T08:29:29-04:00</issued>",
        ] {
            let entry = try first("<feed xmlns=\"http://purl.org/atom/ns#\" version=\"0.3\"><entry><id>a</id>\(order)</entry></feed>")
            #expect(entry.pubdate == 1_072_915_200, "\(order)")
        }
    }

    @Test func aRepeatedDateElementKeepsTheLastThatReads() throws {
        let entry = try first("""
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>a</id>
            <updated>2004-01-01T00:00:00Z</updated><updated>2005-01-01T00:00:00Z</updated><updated>not a date</updated>
            </entry></feed>
            """)
        #expect(entry.updated == 1_104_537_600)
        let rss = try first("<rss><channel><item><guid>a</guid><pubDate>Sun, 19 May 2002 15:21:36 GMT</pubDate><pubDate>junk</pubDate><pubDate>Sun, 19 May 2002 16:21:36 GMT</pubDate></item></channel></rss>")
        #expect(rss.pubdate == 1_021_825_296)
    }

    @Test func anRDFDateWithAnOffsetCutShortIsRead() throws {
        let entry = try first("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel rdf:about="https://e.example/"><title>T</title></channel>
            <item rdf:about="https://e.example/1"><title>One</title><link>https://e.example/1</link><dc:date>2017-06-13T03:18:00+00:0</dc:date></item>
            </rdf:RDF>
            """)
        #expect(entry.pubdate == 1_497_323_880)
    }

    // MARK: Only an entry's own children

    @Test(arguments: ["<image><id>wrong</id><title>Wrong</title></image><id>right</id><title>Right</title>",
                      "<id>right</id><title>Right</title><image><id>wrong</id><title>Wrong</title></image>"])
    func fieldsNestedInAnUnknownChildAreNotTheEntrys(children: String) throws {
        let feed = try normalized("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>F</title><entry>\(children)</entry></feed>")
        #expect(feed.entries.map(\.id) == ["right"])
        #expect(feed.entries.map(\.title) == ["Right"])
    }

    @Test func feedLevelFieldsNestedInAnExtensionAreNotTheFeeds() throws {
        let feed = try normalized("""
            <rss version="2.0" xmlns:x="urn:x"><channel><x:meta><title>Wrong</title><link>https://wrong.example/</link></x:meta>
            <title>Right</title><link>https://right.example/</link></channel></rss>
            """)
        #expect(feed.title == "Right")
        #expect(feed.link == "https://right.example/")
    }

    // MARK: Decoded exactly as many times as the type says

    @Test(arguments: [
        ("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>a</id><title type=\"html\">History of the &amp;lt;blink&amp;gt; tag</title></entry></feed>",
         "History of the <blink> tag"),
        ("<rss version=\"2.0\"><channel><item><guid>a</guid><title><![CDATA[&lt;p&gt;Item Title&lt;/p&gt;]]></title></item></channel></rss>",
         "<p>Item Title</p>"),
        ("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>a</id><title type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">&lt;p&gt;Item <b>bold</b></div></title></entry></feed>",
         "<p>Item bold"),
        ("<rss version=\"2.0\"><channel><item><guid>a</guid><title>Using Vec&lt;T&gt; in &lt;Rust&gt;</title></item></channel></rss>",
         "Using Vec<T> in <Rust>"),
        ("<rss version=\"2.0\"><channel><item><guid>a</guid><title>List&lt;Map&lt;K, V&gt;&gt; &lt;b&gt;now&lt;/b&gt;</title></item></channel></rss>",
         "List<Map<K, V>> now"),
        ("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>a</id><title type=\"text\">a &lt;p&gt; b</title></entry></feed>",
         "a <p> b"),
    ])
    func literalMarkupCharactersSurviveOnlyRealMarkupIsStripped(document: String, title: String) throws {
        #expect(try first(document).title == title)
    }

    // MARK: Base64

    @Test func atom03Base64TitlesAndContentAreDecoded() throws {
        let title = Data("Example <b>Atom</b>".utf8).base64EncodedString()
        let content = Data("<p>Hello, base64</p>".utf8).base64EncodedString()
        let entry = try first("""
            <feed xmlns="http://purl.org/atom/ns#" version="0.3"><entry><id>a</id>
            <title type="text/html" mode="base64">\(title)</title>
            <content type="text/html" mode="base64">\(content)</content></entry></feed>
            """)
        #expect(entry.title == "Example Atom")
        #expect(entry.summary == "<p>Hello, base64</p>")
    }

    @Test func atom10NonTextTypesAreBase64() throws {
        let encoded = Data("Plain words".utf8).base64EncodedString()
        let entry = try first("""
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>a</id>
            <title type="application/octet-stream">\(encoded)</title>
            <content type="application/octet-stream">\(encoded)</content></entry></feed>
            """)
        #expect(entry.title == "Plain words")
        #expect(entry.summary == "Plain words")
    }

    @Test func base64ThatIsNotTextIsLeftOut() throws {
        let binary = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]).base64EncodedString()
        let entry = try first("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>a</id><title>T</title><content type=\"image/png\">\(binary)</content></entry></feed>")
        #expect(entry.summary == "")
    }

    // MARK: Entities

    @Test func entitiesDeclaredInTheInternalSubsetExpand() throws {
        let feed = try normalized("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY id "tag:example.com,2024:"><!ENTITY who 'Ann &#38; Bob'><!ENTITY ext SYSTEM "file:///etc/passwd">]>
            <rss version="2.0"><channel><title>By &who;</title>
            <item><guid isPermaLink="false">&id;1</guid><title>&#X41;&#x42;C &ext;</title></item></channel></rss>
            """)
        #expect(feed.title == "By Ann & Bob")
        #expect(feed.entries.map(\.id) == ["tag:example.com,2024:1"])
        #expect(feed.entries.first?.title == "ABC &ext;", "external entities are never read")
    }

    @Test func entityExpansionIsBounded() throws {
        let value = String(repeating: "x", count: 1000)
        let references = String(repeating: "&big;", count: 5000)
        let feed = try normalized("""
            <!DOCTYPE rss [<!ENTITY big "\(value)">]><rss version="2.0"><channel><title>T</title>
            <item><guid>a</guid><description>\(references)</description></item></channel></rss>
            """)
        let summary = try #require(feed.entries.first?.summary)
        let size = summary.utf8.count
        #expect(size > 1_000_000 && size < 1_200_000, "expanded up to the budget: \(size) bytes")
        let unexpandedLeft = summary.text.hasSuffix("&amp;big;")
        #expect(unexpandedLeft, "past the budget references stay as written")
    }

    // MARK: Titles from Media RSS

    @Test(arguments: [
        "<media:title>Episode 7</media:title>",
        "<media:group><media:title>Episode 7</media:title></media:group>",
        "<media:content url=\"https://e.example/7.mp3\"><media:title>Episode 7</media:title></media:content>",
    ])
    func aMissingTitleFallsBackToMediaTitle(media: String) throws {
        let entry = try first("<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><item><guid>a</guid>\(media)</item></channel></rss>")
        #expect(entry.title == "Episode 7")
    }

    @Test func aRealTitleBeatsMediaTitle() throws {
        let entry = try first("<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><item><guid>a</guid><media:title>Media</media:title><title>Real</title></item></channel></rss>")
        #expect(entry.title == "Real")
    }

    // MARK: Mixed vocabularies

    @Test func anRSSItemWithAtomNamesKeepsItsIDLinkDateAndSummary() throws {
        let entry = try first("""
            <rss version="2.0"><channel><title>Podcast</title><item>
            <title>Episode</title><id>urn:uuid:1234</id><updated>2024-05-01T10:00:00Z</updated>
            <summary>What it is about</summary><link href="https://pod.example/ep"/>
            <link rel="enclosure" href="https://pod.example/ep.mp3" type="audio/mpeg" length="123"/>
            </item></channel></rss>
            """)
        #expect(entry.id == "urn:uuid:1234" && entry.idSource == .native)
        #expect(entry.permalink == "https://pod.example/ep")
        #expect(entry.pubdate == 1_714_557_600)
        #expect(entry.summary == "What it is about")
        #expect(entry.enclosures.map(\.url) == ["https://pod.example/ep.mp3"])
    }

    // MARK: Encodings

    @Test(arguments: [("ISO-8859-1", nil), ("windows-1252", nil), (nil, "iso-8859-1")] as [(String?, String?)])
    func validUTF8LabelledSingleByteIsUTF8(declared: String?, transport: String?) throws {
        let declaration = declared.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? ""
        let document = "\(declaration)<rss version=\"2.0\"><channel><title>Brøndby IF</title><item><guid>a</guid><title>Brøndby vandt</title></item></channel></rss>"
        let parsed = try FeedParser.parse(Array(document.utf8), charset: transport)
        let feed = FeedNormalizer.normalize(parsed, feedURL: nil, now: readingTime)
        #expect(feed.title == "Brøndby IF")
        #expect(feed.entries.first?.title == "Brøndby vandt")
    }

    @Test func bytesThatAreNotUTF8KeepTheDeclaredEncoding() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>Br".utf8) + [0xF8]
            + Array("ndby</title></channel></rss>".utf8)
        let feed = FeedNormalizer.normalize(try FeedParser.parse(bytes), feedURL: nil, now: readingTime)
        #expect(feed.title == "Brøndby")
    }

    // MARK: Documents rejected as non-feeds

    @Test func anAtomEntryDocumentIsAOneEntryFeed() throws {
        let feed = try normalized("""
            <entry xmlns="http://www.w3.org/2005/Atom"><id>urn:e:1</id><title>Alone</title>
            <link href="https://e.example/1"/><updated>2024-05-01T10:00:00Z</updated></entry>
            """)
        #expect(feed.format == .atom)
        #expect(feed.entries.map(\.id) == ["urn:e:1"])
        #expect(feed.entries.first?.permalink == "https://e.example/1")
    }

    @Test func aFeedWrappedInAnXHTMLPageIsAFeed() throws {
        let feed = try normalized("""
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Page</title></head><body>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Inner</title>
            <entry><id>urn:e:1</id><title>Wrapped</title></entry></feed></body></html>
            """)
        #expect(feed.title == "Inner")
        #expect(feed.entries.map(\.title) == ["Wrapped"])
    }

    @Test func anHTMLPageWithoutAFeedIsStillNotAFeed() throws {
        #expect(throws: FeedParseError.self) {
            _ = try FeedParser.parse(Array("<html><head><title>x</title></head><body><p>rss and feeds</p></body></html>".utf8))
        }
    }

    @Test func microsoftCDFIsReadAsAFeed() throws {
        let feed = try normalized("""
            <CHANNEL HREF="http://www.example.org/"><TITLE>Old site</TITLE>
            <ITEM HREF="http://www.example.org/1" LASTMOD="2004-04-06T23:05:43-05:00"><TITLE>First</TITLE><ABSTRACT>About it</ABSTRACT></ITEM>
            </CHANNEL>
            """)
        #expect(feed.title == "Old site")
        let entry = try #require(feed.entries.first)
        #expect(entry.permalink == "http://www.example.org/1" && entry.id == "http://www.example.org/1")
        #expect(entry.title == "First" && entry.summary == "About it")
        #expect(entry.pubdate == 1_081_310_743)
    }

    // MARK: Permalinks

    @Test func anAtomIDIsThePermalinkOnlyWhenTheEntryHasNoLink() throws {
        let alone = try first("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>http://example.com/1</id></entry></feed>")
        #expect(alone.permalink == "http://example.com/1")
        let linked = try first("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>http://example.com/feed/1</id><link rel=\"alternate\" href=\"http://example.com/post\"/></entry></feed>")
        #expect(linked.permalink == "http://example.com/post")
        let enclosureOnly = try first("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>http://example.com/feed/1</id><link rel=\"enclosure\" href=\"http://example.com/a.mp3\"/></entry></feed>")
        #expect(enclosureOnly.permalink == nil, "an entry with links has an id that is not its page")
    }

    @Test(arguments: ["http://example.c[o.test/", "http://exa mple.com/", "http://[::1/x"])
    func aMalformedHostIsNoPermalink(guid: String) throws {
        let entry = try first("<rss version=\"2.0\"><channel><item><guid>\(guid)</guid></item></channel></rss>")
        #expect(entry.permalink == nil)
    }

    @Test func anAtomHTMLTitleIsStrippedOfEveryTagAnRSSTitleOnlyOfRealOnes() throws {
        let atom = try first("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>a</id><title type=\"html\">&lt;blink&gt;safe&lt;/blink&gt; description</title></entry></feed>")
        #expect(atom.title == "safe description")
        let rss = try first("<rss version=\"2.0\"><channel><item><guid>a</guid><title>&lt;blink&gt;safe&lt;/blink&gt; description</title></item></channel></rss>")
        #expect(rss.title == "<blink>safe</blink> description")
    }

    // MARK: Ids stable under edits

    @Test func aDuplicatedEntrysIDDoesNotChangeWhenItsSummaryIsEdited() throws {
        func ids(_ secondSummary: String) throws -> [String] {
            try normalized("""
                <rss version="2.0"><channel>
                <item><guid>same</guid><title>One</title><link>https://e.example/1</link><description>first</description></item>
                <item><guid>same</guid><title>Two</title><link>https://e.example/2</link><description>\(secondSummary)</description></item>
                </channel></rss>
                """).entries.map(\.id)
        }
        let before = try ids("original text")
        #expect(before.count == 2)
        #expect(try ids("edited text, twice as long") == before)
    }

    @Test func aRepeatDifferingOnlyInSummaryIsTheSameEntryListedTwice() throws {
        let feed = try normalized("""
            <rss version="2.0"><channel>
            <item><guid>same</guid><title>One</title><description>v1</description></item>
            <item><guid>same</guid><title>One</title><description>v2</description></item>
            </channel></rss>
            """)
        #expect(feed.entries.map(\.id) == ["same"])
    }
}
