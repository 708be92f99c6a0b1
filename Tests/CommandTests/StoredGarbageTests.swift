import FeedModel
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// A catalog holds what older or newer versions, or a person with sqlite3, stored: failure
/// kinds this build does not know, text where a time belongs, times no clock gives, streaks of
/// Int64.max. The metrics still pass promtool, the page is still escaped, nothing dies with a
/// signal; and an environment's garbage (`JOURNAL_STREAM`) changes nothing either.
@Suite("Garbage stored in the catalog or given in the environment", .serialized)
struct StoredGarbageTests {
    @Test func metricsAndTheHealthPageSurviveWhatACatalogMayHold() throws {
        let server = try ObservabilityTests.threeFeeds()
        let root = try TemporaryDirectory()
        let data = root.url.path + "/data", out = root.url.path + "/pub", metrics = root.url.path + "/update.prom"
        let common = ["--data-dir", data, "--allow-private-networks"]
        #expect(try Executable(name: "rss-create").runCapturing(["--opml", server.baseURL + "/list.opml", "--now", "1700000000"] + common).status == 1)
        let catalog = try DatabaseQueue(path: data + "/all_feeds.sqlite")
        let ids = try catalog.read { db in try Int64.fetchAll(db, sql: "SELECT feedid FROM feeds ORDER BY feedid") }
        try #require(ids.count == 3)
        try catalog.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO fetch_state (feedid) VALUES (?), (?)", arguments: [ids[0], ids[1]])
            try db.execute(
                sql: """
                    UPDATE fetch_state SET last_error_kind = 'flux-"capacitor"\n{x}\\', consecutive_errors = 9223372036854775807,
                        last_success_unix_time = 'yesterday', last_attempt_unix_time = -5, next_attempt_unix_time = 9223372036854775807,
                        last_error = '<script>alert(1)</script>' WHERE feedid = ?
                    """, arguments: [ids[0]])
            try db.execute(
                sql: """
                    UPDATE fetch_state SET last_error_kind = X'00FF', consecutive_errors = -3,
                        last_success_unix_time = -9223372036854775808, next_attempt_unix_time = 'soon' WHERE feedid = ?
                    """, arguments: [ids[1]])
        }
        try catalog.close()
        let updated = try Executable(name: "rss-update").runCapturing(
            ["--feed", String(ids[2]), "--now", "1700090000", "--metrics-file", metrics] + common)
        #expect([0, 1].contains(updated.status), "an exit status, never a signal: \(updated.status) \(updated.stderr)")
        #expect(try Promtool.problems(inMetricsFile: metrics) == "")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(!text.contains("flux") && !text.contains("capacitor"), "only the kinds this build knows are labels")
        let published = try Executable(name: "rss-publish").runCapturing(["--data-dir", data, "--out", out, "--now", "1700091000"])
        #expect(published.status == 0, "\(published.stderr)")
        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(!page.contains("<script>alert") && page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("an impossible time (Unix -9223372036854775808)"), "a time no clock gives is said as such")
        for datetime in page.matches(of: #/datetime="([^"]*)"/#).map({ String($0.output.1) }) {
            #expect(datetime.wholeMatch(of: #/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/#) != nil, "\(datetime)")
        }
        let listed = try Executable(name: "rss-feeds").runCapturing(["list", "--data-dir", data])
        #expect(listed.status == 0, "\(listed.stderr)")
    }

    @Test(arguments: ["garbage", "1:2:3", ":", "99999999999999999999999:1", "-1:-1", "", "0:0"])
    func aJournalStreamThatIsNotStandardErrorAddsNoPrefix(_ value: String) throws {
        let root = try TemporaryDirectory()
        let result = try Executable(name: "rss-update").runCapturing(
            ["--all", "--data-dir", root.url.path + "/none"], environment: ["JOURNAL_STREAM": value])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("rss-update: no catalog in "), "no priority prefix: \(result.stderr)")
    }
}
