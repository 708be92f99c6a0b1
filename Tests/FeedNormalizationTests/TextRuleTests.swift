import FeedModel
import Testing

@testable import FeedNormalization

@Suite("title: plain text")
struct TitleRuleTests {
    @Test("RSS titles are read as HTML", arguments: [
        ("  Hello \n\t world  ", "Hello world"),
        ("<b>Bold</b> move", "Bold move"),
        ("AT&amp;T", "AT&T"),  // double-escaped in the feed
        ("Caf&eacute;&nbsp;&mdash; ok", "Café — ok"),
        ("x < y", "x < y"),
        ("<p>One</p><p>Two</p>", "One Two"),
        ("<script>alert(1)</script>Safe", "Safe"),
        ("", ""),
    ])
    func rssTitles(input: String, expected: String) {
        #expect(PlainText.from(FeedText(input, kind: .html)) == expected)
    }

    @Test func atomTextTitlesAreLiteral() {
        #expect(PlainText.from(FeedText("A <b> literal &amp; kept", kind: .text)) == "A <b> literal &amp; kept")
    }

    @Test func aMissingTitleIsEmpty() throws {
        #expect(try normalized("<rss><channel><item><guid>1</guid></item></channel></rss>").entries.first?.title == "")
    }
}

@Suite("summary: the richest HTML, made safe and absolute")
struct SummaryRuleTests {
    let sanitizer = HTMLSanitizer(baseURL: "https://e.com/posts/1")

    @Test func contentWinsOverDescription() throws {
        let feed = try normalized("""
            <rss xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><item>
            <description>short</description><content:encoded><![CDATA[<p>long</p>]]></content:encoded></item>
            <item><description>only short</description><content:encoded>  </content:encoded></item></channel></rss>
            """)
        #expect(feed.entries.map(\.summary) == ["<p>long</p>", "only short"])
    }

    @Test("dangerous markup is removed", arguments: [
        ("<p>a</p><script>alert(1)</script>", "<p>a</p>"),
        ("<style>p{}</style><p>b</p>", "<p>b</p>"),
        ("<iframe src='https://evil.example/'></iframe>c", "c"),
        ("<p onclick='x()' onmouseover=\"y()\">d</p>", "<p>d</p>"),
        ("<a href='javascript:alert(1)'>e</a>", "<a>e</a>"),
        ("<a href=' JaVaScRiPt:alert(1)'>f</a>", "<a>f</a>"),
        ("<a href='java\tscript:alert(1)'>g</a>", "<a>g</a>"),
        ("<img src='data:image/png;base64,AAAA'>h", "h"),
        ("<object data='x.swf'><embed src='x.swf'></object>i", "i"),
        ("<form action='/'><input name='q'><button>go</button></form>j", "j"),
        ("<p style='background:url(javascript:x)' class='c' id='i'>k</p>", "<p>k</p>"),
        ("<!-- secret --><p>l</p>", "<p>l</p>"),
        ("<svg><script>alert(1)</script></svg>m", "m"),
    ])
    func dangerous(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test("relative URLs are resolved", arguments: [
        ("<a href='/about'>a</a>", "<a href=\"https://e.com/about\">a</a>"),
        ("<img src='img.png' alt='x'>", "<img src=\"https://e.com/posts/img.png\" alt=\"x\">"),
        ("<img srcset='a.png 1x, /b.png 2x' src='a.png'>", "<img srcset=\"https://e.com/posts/a.png 1x, https://e.com/b.png 2x\" src=\"https://e.com/posts/a.png\">"),
        ("<a href='mailto:me@e.com'>m</a>", "<a href=\"mailto:me@e.com\">m</a>"),
        ("<a href='MailTo:me@e.com'>m</a>", "<a href=\"MailTo:me@e.com\">m</a>"),
        ("<img src='mailto:me@e.com' alt='x'>", "x"),
        ("<a href='mailt:me@e.com'>m</a>", "<a>m</a>"),
        ("<a href='#note'>n</a>", "<a href=\"https://e.com/posts/1#note\">n</a>"),
    ])
    func relative(input: String, expected: String) {
        #expect(sanitizer.sanitize(html: input) == expected)
    }

    @Test func unknownElementsAreUnwrappedAndTextIsEscaped() {
        #expect(sanitizer.sanitize(html: "<custom-tag>x &amp; y &lt;z&gt;</custom-tag>") == "x &amp; y &lt;z&gt;")
    }

    @Test func tagSoupIsRepaired() {
        #expect(sanitizer.sanitize(html: "<p>one<p>two<b>bold") == "<p>one</p><p>two<b>bold</b></p>")
    }

    @Test func plainTextIsEscapedWithLineBreaksKept() {
        #expect(sanitizer.sanitize(FeedText("a < b\nc", kind: .text)) == "a &lt; b<br>c")
    }

    @Test func relativeURLsInContentUseTheEntrysXMLBase() throws {
        let feed = try normalized("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://base.example/blog/"><entry><id>1</id>
            <content type="html">&lt;img src="pic.png"&gt;</content></entry></feed>
            """)
        #expect(feed.entries.first?.summary == "<img src=\"https://base.example/blog/pic.png\">")
    }

    @Test func theOutputIsOneFixedText() {
        let html = "<div><p class=x>a<img src=y.png alt=z></p>b</div>"
        #expect(sanitizer.sanitize(html: html) == #"<div><p>a<img src="https://e.com/posts/y.png" alt="z"></p>b</div>"#, "class dropped, URL made absolute, alt kept")
    }
}

@Suite("pubdate, author and the feed itself")
struct EntryFieldTests {
    @Test func pubdateIsPublishedElseUpdated() throws {
        let feed = try normalized("""
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><published>2003-12-13T18:30:02Z</published>
            <updated>2003-12-14T18:30:02Z</updated></entry><entry><id>2</id><updated>2003-12-14T18:30:02Z</updated></entry>
            <entry><id>3</id></entry></feed>
            """)
        #expect(feed.entries.map(\.pubdate) == [1_071_340_202, 1_071_426_602, nil])
        #expect(feed.entries.map(\.updated) == [1_071_426_602, 1_071_426_602, nil])
    }

    @Test("author as a plain string", arguments: [
        ("<author>joe@example.com (Joe Bloggs)</author>", "Joe Bloggs"),
        ("<author>joe@example.com</author>", "joe@example.com"),
        ("<dc:creator>Ann</dc:creator><dc:creator>Bo</dc:creator><dc:creator>Ann</dc:creator>", "Ann, Bo"),
        ("<dc:creator>  <![CDATA[<b>Cy</b>]]> </dc:creator>", "Cy"),
        ("", nil),
    ] as [(String, String?)])
    func rssAuthor(item: String, expected: String?) throws {
        let feed = try normalized("<rss xmlns:dc='http://purl.org/dc/elements/1.1/'><channel><item><guid>1</guid>\(item)</item></channel></rss>")
        #expect(feed.entries.first?.author == expected)
    }

    @Test func atomEntriesInheritTheFeedAuthor() throws {
        let feed = try normalized("""
            <feed xmlns="http://www.w3.org/2005/Atom"><author><name>Feed Person</name></author>
            <entry><id>1</id></entry><entry><id>2</id><author><email>e@e.com</email></author></entry></feed>
            """)
        #expect(feed.entries.map(\.author) == ["Feed Person", "e@e.com"])
    }

    @Test func theFeedTitleAndSiteLink() throws {
        let rss = try normalized("<rss><channel><title>My &amp;amp; Blog</title><link>/home</link></channel></rss>")
        #expect(rss.title == "My & Blog")
        #expect(rss.link == "https://feed.example/home")
        let atom = try normalized("<feed xmlns='http://www.w3.org/2005/Atom'><title>A</title><link rel='self' href='/f'/><link href='https://site/'/></feed>")
        #expect(atom.link == "https://site/")
    }

    @Test func enclosuresAndThumbnailsAreResolvedAndFiltered() throws {
        let feed = try normalized("""
            <rss xmlns:media="http://search.yahoo.com/mrss/"><channel><item><guid>1</guid>
            <enclosure url="/a.mp3" type="audio/mpeg" length="12"/><enclosure url="javascript:x" type="audio/mpeg"/>
            <enclosure url="https://e.com/cover.jpg" type="image/jpeg"/></item></channel></rss>
            """)
        let entry = try #require(feed.entries.first)
        #expect(entry.enclosures == [
            Enclosure(url: "https://feed.example/a.mp3", type: "audio/mpeg", length: 12),
            Enclosure(url: "https://e.com/cover.jpg", type: "image/jpeg"),
        ])
        #expect(entry.image == "https://e.com/cover.jpg")
    }
}
