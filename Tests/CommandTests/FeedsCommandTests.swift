import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-feeds`: the catalog managed without SQL, through the built binary.
@Suite("rss-feeds", .serialized)
struct FeedsCommandTests {
    let feeds = Executable(name: "rss-feeds")

    @Test func listShowsEachFeedsStateAsATableAndAsJSON() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        let added = try feeds.runCapturing(["add", run.server.baseURL + "/missing.xml", "--data-dir", run.data])
        #expect(added.status == 0 && added.stdout.contains("added feed 3"), "\(added.stderr)")
        #expect(try run.update.runCapturing(["--feed", "3"] + run.options).status == 1)

        let table = try feeds.runCapturing(["list", "--data-dir", run.data, "--now", "1900000000"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ID  TITLE") == true)
        #expect(lines.contains { $0.hasPrefix("1 ") && $0.contains("Feed 0") && $0.contains(" 3 ") && $0.contains(" ok ") })
        #expect(lines.contains { $0.hasPrefix("3 ") && $0.contains("failing ×1: http-status") && $0.contains("/missing.xml") })
        #expect(lines.last == "3 feed(s)")

        let json = try feeds.runCapturing(["list", "--format", "json", "--data-dir", run.data])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["feedid"] as? Int } == [1, 2, 3])
        #expect(rows[0]["items"] as? Int == 3 && rows[0]["title"] as? String == "Feed 0")
        #expect(rows[0]["last_success_unix_time"] is Int && rows[0]["next_due_unix_time"] is Int)
        #expect(rows[2]["last_error_kind"] as? String == "http-status" && rows[2]["items"] is NSNull)
    }

    @Test func aFeedAddedByHandIsFetchedByTheNextUpdateAndAddingItAgainKeepsItsID() throws {
        let run = try BinaryRun(feeds: 3)
        let opml = run.root.url.path + "/one.opml"
        try Data(#"<opml version="2.0"><body><outline xmlUrl="\#(run.server.baseURL)/feed/0.xml"/></body></opml>"#.utf8)
            .write(to: URL(fileURLWithPath: opml))
        #expect(try run.create.runCapturing(["--opml", opml] + run.options).status == 0)
        let url = run.server.baseURL + "/feed/2.xml"
        #expect(try feeds.runCapturing(["add", url, "--title", "Two", "--category", "News/Tech", "--data-dir", run.data]).status == 0)
        let again = try feeds.runCapturing(["add", url.uppercased().replacingOccurrences(of: "/FEED/2.XML", with: "/feed/2.xml"), "--data-dir", run.data])
        #expect(again.stdout.contains("already listed as feed 2"), "\(again.stdout)")
        #expect(try run.update.runCapturing(run.options).status == 0)
        #expect(try run.itemCount(2) == 3)
        let refused = try feeds.runCapturing(["add", "feeds/relative.xml", "--data-dir", run.data])
        #expect(refused.status == 70 && refused.stderr.contains("absolute http or https URL"))
    }

    @Test func removeDeletesTheFeedsRowsAndItsOwnDatabaseButNeverAFileStampedForAnotherFeed() throws {
        let run = try BinaryRun(feeds: 4)
        #expect(try run.createAll().status == 0)
        // feed_3.sqlite replaced by a copy of feed 1's database: not feed 3's to delete.
        try FileManager.default.removeItem(atPath: run.data + "/feed_3.sqlite")
        try FileManager.default.copyItem(atPath: run.data + "/feed_1.sqlite", toPath: run.data + "/feed_3.sqlite")
        // feed_4.sqlite replaced by a link to an operator's file: neither is Feedmill's to delete.
        let mine = run.root.url.path + "/operator-notes.txt"
        try Data("notes".utf8).write(to: URL(fileURLWithPath: mine))
        try FileManager.default.removeItem(atPath: run.data + "/feed_4.sqlite")
        try FileManager.default.createSymbolicLink(atPath: run.data + "/feed_4.sqlite", withDestinationPath: mine)
        let removed = try feeds.runCapturing(["remove", "2", "3", "4", "--data-dir", run.data])
        #expect(removed.status == 1)
        #expect(removed.stderr.contains("feed 3's database not removed") && removed.stderr.contains("belongs to feed 1"), "\(removed.stderr)")
        #expect(removed.stderr.contains("feed 4's database not removed"))
        #expect(!FileManager.default.fileExists(atPath: run.data + "/feed_2.sqlite"))
        #expect(FileManager.default.fileExists(atPath: run.data + "/feed_3.sqlite"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: run.data + "/feed_4.sqlite")) == mine)
        #expect(FileManager.default.contents(atPath: mine) == Data("notes".utf8))
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT feedid FROM feeds") == [["1"]])
        // Run again (after an interruption, say): what is gone is said, the rest removed.
        let again = try feeds.runCapturing(["remove", "2", "--data-dir", run.data])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("feed 2 is not in the catalog (already removed)"))
        // A feedid never given is a mistake: nothing is removed.
        let unknown = try feeds.runCapturing(["remove", "1", "99", "--data-dir", run.data])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no feed with feedid 99"))
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT feedid FROM feeds") == [["1"]])
        // The freed ids are never given again.
        #expect(try feeds.runCapturing(["add", run.server.baseURL + "/feed/1.xml", "--data-dir", run.data]).stdout.contains("added feed 5"))
    }

    @Test func exportedOPMLImportsToTheSameFeedsAndCategories() throws {
        let run = try BinaryRun(feeds: 3)
        let list = run.root.url.path + "/two.opml"
        try Data(#"<opml version="2.0"><body><outline text="G"><outline xmlUrl="\#(run.server.baseURL)/feed/0.xml"/></outline><outline xmlUrl="\#(run.server.baseURL)/feed/1.xml"/></body></opml>"#.utf8)
            .write(to: URL(fileURLWithPath: list))
        #expect(try run.create.runCapturing(["--opml", list] + run.options).status == 0)
        let add = ["add", run.server.baseURL + "/feed/2.xml", "--title", "<Two> & \"2\"", "--category", "A & B/C", "--data-dir", run.data]
        #expect(try feeds.runCapturing(add).status == 0)
        let export = try feeds.runCapturing(["export", "--data-dir", run.data])
        #expect(export.status == 0)
        let opml = run.root.url.path + "/exported.opml"
        try Data(export.stdout.utf8).write(to: URL(fileURLWithPath: opml))
        let copy = run.root.url.path + "/copy"
        let imported = try run.create.runCapturing(["--opml", opml, "--data-dir", copy, "--allow-private-networks"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let query = "SELECT feeds.url, fetch_state.category FROM feeds JOIN fetch_state USING (feedid) ORDER BY feeds.url"
        #expect(try sqlite(copy + "/all_feeds.sqlite", query) == (try sqlite(run.data + "/all_feeds.sqlite", query)))
        let titles = "SELECT opml_title FROM fetch_state ORDER BY origin_url"
        #expect(try sqlite(copy + "/all_feeds.sqlite", titles) == [["Feed 0"], ["Feed 1"], [#"<Two> & "2""#]])
    }

    @Test func setGivesOneFeedItsOwnRetention() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        let set = try feeds.runCapturing(["set", "1", "--keep-items", "5", "--keep-days", "30", "--data-dir", run.data])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT keep_items, keep_days FROM fetch_state") == [["5", "30"]])
        #expect(try feeds.runCapturing(["set", "1", "--run-defaults", "--data-dir", run.data]).status == 0)
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT keep_items, keep_days FROM fetch_state") == [[nil, nil]])
        #expect(try feeds.runCapturing(["set", "9", "--keep-items", "5", "--data-dir", run.data]).status == 64)
    }
}
