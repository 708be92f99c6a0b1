import FeedPipeline
import FeedStorage
import Foundation
import PipelineTestSupport
import Testing

/// Issue 38, end to end: served by a real server, read by `rss-update`'s path, stored,
/// published.
@Suite("A NUL byte and a year-9999 date, from the server to the published files")
struct BadCharactersAndDatesTests {
    @Test func aNULInsideADescriptionKeepsTheItemAndTheRestOfItsText() throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/f.xml", """
            <rss version="2.0"><channel><title>F</title>\
            <item><guid>a</guid><title>Fir\u{0}st</title><description>before\u{0}after</description></item>\
            <item><guid>b</guid><title>Second</title><description>untouched</description></item></channel></rss>
            """)
        let id = try #require(try harness.add([feeds.url("/f.xml")]).first)
        let report = try harness.update()
        #expect(report.feeds.first?.outcome == .updated(UpsertSummary(inserted: 2)))
        let rows = try sqlite(harness.databasePath(id), "SELECT id, title, CAST(summary AS TEXT) FROM items ORDER BY id")
        #expect(rows == [["a", "First", "beforeafter"], ["b", "Second", "untouched"]])
    }

    @Test func anItemDatedInTheYear9999DoesNotStayAtTheTopOfAtomXML() throws {
        let publish = try PublishHarness()
        let harness = publish.harness
        let feeds = try FeedServer()
        let first: [(String, String, String?, String?)] = [
            ("future", "From the future", nil, "Fri, 31 Dec 9999 23:59:59 GMT"),
            ("old", "Old", nil, "Wed, 01 Nov 2023 00:00:00 GMT"),
        ]
        feeds.set("/f.xml", rss("F", items: first))
        let id = try #require(try harness.add([feeds.url("/f.xml")]).first)
        _ = try harness.update()
        // Undated, as if it had no date: its first-seen time, once.
        #expect(try harness.items(id)["future"] == ["From the future", nil, "1700000000", "1"])

        // A week later a new entry arrives, dated an hour ago.
        harness.now += 7 * 86_400
        feeds.set("/f.xml", rss("F", items: [("new", "New", nil, "Tue, 21 Nov 2023 21:13:20 GMT")] + first))
        _ = try harness.update(.all)
        _ = try publish.publish()
        let atom = try String(contentsOfFile: publish.outPath + "/atom.xml", encoding: .utf8)
        let titles = atom.components(separatedBy: "<title type=\"text\">").dropFirst().compactMap { $0.components(separatedBy: "<").first }
        #expect(titles == ["New", "From the future", "Old"])
        let index = try String(contentsOfFile: publish.outPath + "/index.html", encoding: .utf8)
        let newest = try #require(index.range(of: "<strong>New</strong>")), future = try #require(index.range(of: "<strong>From the future</strong>"))
        #expect(newest.lowerBound < future.lowerBound)
    }
}
