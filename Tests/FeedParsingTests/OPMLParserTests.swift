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
}
