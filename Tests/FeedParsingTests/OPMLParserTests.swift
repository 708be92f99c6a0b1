import FeedParsing
import Testing

@Suite("OPML feed lists")
struct OPMLParserTests {
    @Test func readsNestedOutlinesWithTheirCategoryPath() throws {
        let outlines = try OPMLParser.parse(Array("""
            <?xml version="1.0"?>
            <opml version="2.0"><head><title>Mine</title></head><body>
              <outline text="Tech"><outline text="Databases">
                <outline type="rss" text="SQLite news" xmlUrl="https://sqlite.example/news.rss" htmlUrl="https://sqlite.example/"/>
              </outline>
              <outline type="rss" title="Titled" text="Texted" xmlUrl="relative/feed.xml"/></outline>
              <outline type="rss" text="Top level &amp; bare &nbsp;" xmlUrl="https://top.example/feed"/>
              <outline text="Empty folder"/>
            </body></opml>
            """.utf8))
        #expect(outlines == [
            OPMLOutline(xmlURL: "https://sqlite.example/news.rss", title: "SQLite news", htmlURL: "https://sqlite.example/", categoryPath: ["Tech", "Databases"]),
            OPMLOutline(xmlURL: "relative/feed.xml", title: "Titled", categoryPath: ["Tech"]),
            OPMLOutline(xmlURL: "https://top.example/feed", title: "Top level & bare \u{00A0}", categoryPath: []),
        ])
    }

    @Test func somethingElseIsNotOPML() {
        #expect(throws: OPMLError.notOPML(found: "<rss>")) { try OPMLParser.parse(Array("<rss/>".utf8)) }
    }

    @Test func onlyOutlinesInTheBodyCountWhereverTheyNestAndAttributesAreReadAsXmlGetPropDid() throws {
        let outlines = try OPMLParser.parse(Array("""
            <opml><head><outline text="in head" xmlUrl="http://head.example/feed"/></head>
            <body>
              <outline text="Caf&#233; &amp; more"><outline xmlurl="http://lower.example/f" text="  spaced  " title=" "/>
                <div><outline text="inside another element" xmlUrl="http://div.example/f"/></div>
                <outline xmlns:x="urn:x" x:xmlUrl="http://ns.example/f" x:title="Namespaced"/>
              </outline>
            </body>
            <body><outline text="second body" xmlUrl="http://second.example/f"/></body>
            <outline text="outside any body" xmlUrl="http://outside.example/f"/>
            </opml>
            """.utf8))
        #expect(outlines == [
            OPMLOutline(xmlURL: "http://lower.example/f", title: "spaced", categoryPath: ["Café & more"]),
            OPMLOutline(xmlURL: "http://ns.example/f", title: "Namespaced", categoryPath: ["Café & more"]),
            OPMLOutline(xmlURL: "http://second.example/f", title: "second body", categoryPath: []),
        ])
    }

    @Test func brokenMarkupIsRecoveredAndInternalEntitiesAreExpandedAsText() throws {
        let outlines = try OPMLParser.parse(Array("""
            <!DOCTYPE opml [<!ENTITY e "expanded">]><opml><body>
            <outline text="&e; &lt;tag&gt;" xmlUrl="http://e.example/?a=1&b=2"/>
            <outline text="unclosed" xmlUrl="http://e.example/2">
            <outline text="&bogus; inside" xmlUrl="http://e.example/3"/>
            """.utf8))
        #expect(outlines.map(\.xmlURL) == ["http://e.example/?a=1&b=2", "http://e.example/2", "http://e.example/3"])
        #expect(outlines[2].categoryPath == ["unclosed"])
        #expect(outlines[0].title == "expanded <tag>")
    }

    @Test func aListNestedPastTheLimitIsRefusedWithItsLine() {
        let depth = 300
        var text = "<opml><body>\n"
        for level in 0..<depth { text += "<outline text=\"L\(level)\" xmlUrl=\"https://deep.example/\(level)\">\n" }
        #expect {
            _ = try OPMLParser.parse(Array(text.utf8))
        } throws: { error in
            guard case OPMLError.stopped(let line, let reason)? = error as? OPMLError else { return false }
            return reason == "outlines nest deeper than 256 levels" && line > 250
        }
    }

    @Test func aDocumentWithoutElementsIsNotOPML() {
        for text in ["", "just text", "<?xml version=\"1.0\"?>"] {
            #expect(throws: OPMLError.notOPML(found: "no XML document")) { try OPMLParser.parse(Array(text.utf8)) }
        }
    }
}
