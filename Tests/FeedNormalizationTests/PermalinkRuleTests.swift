import FeedModel
import Foundation
import Testing

@testable import FeedNormalization

@Suite("permalink: one rule per format, resolved, http(s) only")
struct PermalinkRuleTests {
    private func permalinks(_ document: String, feedURL: String? = "https://feed.example/dir/feed.xml") throws -> [String?] {
        try normalized(document, feedURL: feedURL).entries.map(\.permalink)
    }

    private func atom(_ entry: String, base: String = "") -> String {
        "<feed xmlns='http://www.w3.org/2005/Atom' \(base)><entry><id>urn:x</id>\(entry)</entry></feed>"
    }

    private func rss(_ item: String, channelLink: String = "") -> String {
        "<rss xmlns:atom='http://www.w3.org/2005/Atom' xmlns:feedburner='http://rssnamespace.org/feedburner/ext/1.0'><channel>\(channelLink)<item>\(item)</item></channel></rss>"
    }

    @Test func atomPrefersAnHTMLAlternateOverItsID() throws {
        // From a real feed: the id is not the page; the alternate link is.
        let document = atom("""
            <link type="text/html" rel="alternate" href="http://zumero.com/2013/04/04/just-released-the-zumero-development-server.html"/>
            """).replacingOccurrences(of: "<id>urn:x</id>", with: "<id>http://zumero.com/2013/04/04/just-released-the-zumero-development-server</id>")
        let entry = try #require(try normalized(document).entries.first)
        #expect(entry.id == "http://zumero.com/2013/04/04/just-released-the-zumero-development-server")
        #expect(entry.permalink == "http://zumero.com/2013/04/04/just-released-the-zumero-development-server.html")
    }

    @Test("Atom link selection", arguments: [
        ("<link href='https://e.com/a'/>", "https://e.com/a"),  // missing rel means alternate
        ("<link rel='self' href='https://e.com/self'/><link rel='alternate' href='https://e.com/alt'/>", "https://e.com/alt"),
        ("<link rel='alternate' type='application/pdf' href='https://e.com/p.pdf'/><link rel='alternate' type='text/html; charset=utf-8' href='https://e.com/h'/>", "https://e.com/h"),
        ("<link rel='alternate' type='application/xhtml+xml' href='https://e.com/x'/>", "https://e.com/x"),
        ("<link rel='http://www.iana.org/assignments/relation/alternate' href='https://e.com/iana'/>", "https://e.com/iana"),
        ("<link rel='enclosure' href='https://e.com/a.mp3'/><link rel='replies' href='https://e.com/r'/>", nil),
        ("<link href='ftp://e.com/file'/>", nil),
        ("<link href='javascript:alert(1)'/><link href='https://e.com/ok'/>", "https://e.com/ok"),
    ] as [(String, String?)])
    func atomLinks(links: String, expected: String?) throws {
        #expect(try permalinks(atom(links)) == [expected])
    }

    @Test func atomResolvesAgainstNestedXMLBaseThenTheFeedURL() throws {
        let nested = atom("<link href='page.html'/>", base: "xml:base='https://base.example/blog/'")
            .replacingOccurrences(of: "<entry>", with: "<entry xml:base='2024/'>")
        #expect(try permalinks(nested) == ["https://base.example/blog/2024/page.html"])
        let relativeBase = atom("<link href='page.html'/>", base: "xml:base='sub/'")
        #expect(try permalinks(relativeBase) == ["https://feed.example/dir/sub/page.html"])
        #expect(try permalinks(atom("<link href='/root.html'/>")) == ["https://feed.example/root.html"])
    }

    @Test("RSS precedence: link, origLink, atom:link, guid", arguments: [
        ("<link>https://e.com/link</link><feedburner:origLink>https://e.com/orig</feedburner:origLink><guid>https://e.com/guid</guid>", "https://e.com/link"),
        ("<feedburner:origLink>https://e.com/orig</feedburner:origLink><atom:link href='https://e.com/atom'/><guid>https://e.com/guid</guid>", "https://e.com/orig"),
        ("<atom:link rel='alternate' href='https://e.com/atom'/><guid>https://e.com/guid</guid>", "https://e.com/atom"),
        ("<atom:link rel='self' href='https://e.com/self'/><guid>https://e.com/guid</guid>", "https://e.com/guid"),
        ("<guid isPermaLink='true'>https://e.com/guid</guid>", "https://e.com/guid"),
        ("<guid isPermaLink='false'>https://e.com/guid</guid>", nil),
        ("<guid>tag:e.com,2004:1</guid>", nil),
        ("<guid>12345</guid>", nil),  // a relative guid is an id, not a path
        ("<guid>/posts/1</guid>", nil),
        ("<link>mailto:someone@e.com</link><guid>https://e.com/g</guid>", "https://e.com/g"),
        ("<link>  https://e.com/spaced  </link>", "https://e.com/spaced"),
    ] as [(String, String?)])
    func rssPrecedence(item: String, expected: String?) throws {
        #expect(try permalinks(rss(item)) == [expected])
    }

    @Test func rssRelativeLinksUseTheFeedURLThenTheChannelLink() throws {
        #expect(try permalinks(rss("<link>/posts/1</link>")) == ["https://feed.example/posts/1"])
        let channel = "<link>https://site.example/blog/</link>"
        #expect(try permalinks(rss("<link>posts/1</link>", channelLink: channel), feedURL: nil) == ["https://site.example/blog/posts/1"])
        #expect(try permalinks(rss("<link>posts/1</link>"), feedURL: nil) == [nil])
    }

    @Test func rdfFallsBackToRDFAbout() throws {
        let document = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <item rdf:about="https://e.com/about"><title>x</title></item>
            <item rdf:about="https://e.com/about2"><link>https://e.com/link2</link></item></rdf:RDF>
            """
        #expect(try permalinks(document) == ["https://e.com/about", "https://e.com/link2"])
    }

    @Test func jsonFeedUsesURLThenExternalURL() throws {
        let document = """
            {"version": "https://jsonfeed.org/version/1.1", "items": [
              {"id": "1", "url": "https://e.com/1", "external_url": "https://x.com/"},
              {"id": "2", "external_url": "https://x.com/2"}, {"id": "3", "url": "rel/3"}]}
            """
        #expect(try permalinks(document) == ["https://e.com/1", "https://x.com/2", "https://feed.example/dir/rel/3"])
    }
}
