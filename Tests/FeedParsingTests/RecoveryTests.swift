import FeedModel
import Testing

@testable import FeedParsing

/// What the parser does with each kind of malformed input: recover, and lose nothing it can keep.
@Suite("Malformed XML is recovered, not rejected")
struct RecoveryTests {
    @Test func htmlNamedEntitiesDecodeToTheirCharacters() throws {
        let feed = try parse("<rss><channel><item><title>&eacute;t&eacute;&nbsp;&mdash; &hellip; &copy;&trade;</title></item></channel></rss>")
        #expect(feed.entries.first?.title?.value == "été\u{00A0}— … ©™")
    }

    @Test func bareAmpersandsAreKeptAsText() throws {
        let feed = try parse("""
            <rss><channel><item><title>Fish & Chips &; AT&T</title><link>http://e.com/?a=1&b=2</link>
            <enclosure url="http://e.com/x?a=1&b=2" type="audio/mpeg"/></item></channel></rss>
            """)
        let item = try #require(feed.entries.first)
        #expect(item.title?.value == "Fish & Chips &; AT&T")
        #expect(item.itemLink?.href == "http://e.com/?a=1&b=2")
        #expect(item.enclosures.first?.link.href == "http://e.com/x?a=1&b=2")
    }

    @Test func unknownEntityNamesAreShownAsWritten() throws {
        let feed = try parse("<rss><channel><item><title>a &bogus; b</title></item></channel></rss>")
        #expect(feed.entries.first?.title?.value == "a &bogus; b")
    }

    @Test func windows1252NumericReferencesAreReadAsBrowsersDo() throws {
        let feed = try parse("<rss><channel><item><title>&#147;quoted&#148; &#150; &#8364;5 &#x20AC;</title></item></channel></rss>")
        #expect(feed.entries.first?.title?.value == "“quoted” – €5 €")
    }

    @Test func entitiesInsideCDATAAreLeftAlone() throws {
        let feed = try parse("<rss><channel><item><description><![CDATA[a &nbsp; b & c]]></description></item></channel></rss>")
        #expect(feed.entries.first?.summary?.value == "a &nbsp; b & c")
    }

    @Test func escapedMarkupSurvivesAnEarlierWellFormednessError() throws {
        // libxml2 drops named references after the first error; the rewriter makes that harmless.
        let feed = try parse("""
            <rss><channel><item><title>One</titl><description>x</description></item>
            <item><title>Two</title><description>&lt;p&gt;Para&lt;/p&gt; &amp; more</description></item></channel></rss>
            """)
        #expect(feed.entries.last?.summary?.value == "<p>Para</p> & more")
        #expect(feed.diagnostics.contains { $0.hasPrefix("recovered from") })
    }

    @Test func aStrayLessThanSignIsText() throws {
        let feed = try parse("<rss><channel><item><title>x < y <3</title></item><item><title>next</title></item></channel></rss>")
        #expect(feed.entries.map { $0.title?.value } == ["x < y <3", "next"])
    }

    @Test("later items survive every kind of markup error", arguments: [
        "<title>One</titl>",  // mismatched end tag
        "<description><a href=foo>x</a></description>",  // unquoted attribute
        "<description><input disabled>x</description>",  // attribute without value
        "<description><a title=\"a<b\">x</a></description>",  // '<' in an attribute value
        "<description><a x=\"1\" x=\"2\">x</a></description>",  // duplicate attribute
        "<title>One\u{01}</title>",  // invalid character
        "<foo:bar>x</foo:bar>",  // undeclared prefix
    ])
    func laterItemsSurvive(broken: String) throws {
        let feed = try parse("<rss><channel><item>\(broken)</item><item><title>Two</title><description>&lt;p&gt;Para&lt;/p&gt;</description></item></channel></rss>")
        #expect(feed.entries.count == 2)
        #expect(feed.entries.last?.title?.value == "Two")
        #expect(feed.entries.last?.summary?.value == "<p>Para</p>")
    }

    @Test func contentAfterTheRootElementIsIgnored() throws {
        let feed = try parse("<rss><channel><item><title>One</title></item></channel></rss><rss><channel><item><title>Extra</title></item></channel></rss>")
        #expect(feed.entries.map { $0.title?.value } == ["One"])
    }

    @Test func anUnclosedBreakInRawHTMLDoesNotSwallowTheItem() throws {
        let feed = try parse("""
            <rss><channel>
            <item><title>A</title><description>line one<br>line two<br>three</description><link>http://e.com/a</link></item>
            <item><title>B</title><link>http://e.com/b</link></item>
            </channel></rss>
            """)
        #expect(feed.entries.count == 2)
        #expect(feed.entries[0].summary?.value == "line one<br>line two<br>three")
        #expect(feed.entries[0].itemLink?.href == "http://e.com/a")
        #expect(feed.entries[1].title?.value == "B")
        #expect(feed.entries[1].itemLink?.href == "http://e.com/b")
    }

    @Test func anUnclosedParagraphInRawHTMLEndsAtTheNextRSSElement() throws {
        let feed = try parse("""
            <rss><channel>
            <item><title>A</title><description><p>open paragraph</description><guid>a-1</guid><pubDate>Tue, 21 Apr 2009 23:32:00 +0000</pubDate></item>
            <item><title>B</title><guid>b-1</guid></item>
            </channel></rss>
            """)
        #expect(feed.entries.map(\.nativeID) == ["a-1", "b-1"])
        #expect(feed.entries[0].summary?.value == "<p>open paragraph</p>")
        #expect(feed.entries[0].published == 1_240_356_720)
    }

    @Test func anUnclosedTitleDoesNotMergeTwoItems() throws {
        let feed = try parse("""
            <rss><channel>
            <item><title>Unclosed<link>http://e.com/1</link></item>
            <item><title>Second</title><link>http://e.com/2</link></item>
            </channel></rss>
            """)
        #expect(feed.entries.count == 2)
        #expect(feed.entries.last?.title?.value == "Second")
        #expect(feed.entries.last?.itemLink?.href == "http://e.com/2")
    }

    @Test func aTruncatedDocumentKeepsEveryCompleteEntry() throws {
        let feed = try parse("""
            <rss><channel><title>T</title>
            <item><title>Complete</title><guid>1</guid></item>
            <item><title>Cut of
            """)
        #expect(feed.entries.map(\.nativeID) == ["1"])
        #expect(feed.diagnostics.contains { $0.contains("truncated") })
    }

    @Test func aMismatchedEndTagIsRecovered() throws {
        let feed = try parse("<feed xmlns='http://www.w3.org/2005/Atom'><title>T</titel><entry><id>x</id></entry></feed>")
        #expect(feed.format == .atom)
        #expect(feed.diagnostics.isEmpty == false)
    }

    @Test func invalidBytesNeverCrashAndNeverBecomeMojibake() throws {
        let bytes: [UInt8] = Array("<rss><channel><item><title>caf".utf8) + [0xE9, 0xFF, 0xFE] + Array("</title></item></channel></rss>".utf8)
        let feed = try FeedParser.parse(bytes)
        #expect(feed.entries.first?.title?.value == "caféÿþ")
        #expect(feed.encoding == "windows-1252")
    }

    @Test func controlCharactersInTextAreDroppedNotFatal() throws {
        let feed = try parse("<rss><channel><item><title>a\u{01}b</title><guid>g</guid></item></channel></rss>")
        #expect(feed.entries.first?.nativeID == "g")
    }
}

@Suite("What is not a feed is said clearly")
struct SniffingTests {
    @Test func anHTMLPageIsNotAFeed() {
        #expect(throws: FeedParseError.notAFeed(found: "an HTML page")) {
            try parse("<!DOCTYPE html><html><head><title>Hi</title></head><body>x</body></html>")
        }
    }

    @Test(arguments: ["<!doctype html><html><body>x</body></html>", "\n  <HTML><body>x</body></HTML>"])
    func html5PagesAreNotFeeds(page: String) {
        #expect(throws: FeedParseError.notAFeed(found: "an HTML page")) { try parse(page) }
    }

    @Test func anotherXMLVocabularyIsNotAFeed() {
        #expect(throws: FeedParseError.notAFeed(found: "an XML document whose root element is <svg>")) {
            try parse("<svg xmlns='http://www.w3.org/2000/svg'/>")
        }
    }

    @Test func emptyInputIsEmpty() {
        #expect(throws: FeedParseError.empty) { try parse(" \n ") }
    }

    @Test func plainTextIsUnreadable() {
        #expect { try parse("hello world") } throws: { error in
            guard case FeedParseError.unreadable = error else { return false }
            return true
        }
    }

    @Test func theFormatComesFromTheContentNotTheLabel() throws {
        // An Atom document served as RSS (the URL and Content-Type are not consulted at all).
        let feed = try parse("<feed xmlns='http://www.w3.org/2005/Atom'><entry><id>1</id></entry></feed>", charset: "utf-8")
        #expect(feed.format == .atom)
    }

    @Test func errorsPrintOneReadableLine() {
        #expect(FeedParseError.tooDeep(limit: 128, line: 3).description == "elements nested deeper than 128 levels at line 3")
        #expect(FeedParseError.notAFeed(found: "an HTML page").description == "not a feed: found an HTML page")
    }
}
