import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// What a fetch that went wrong leaves in the catalog and the logs, through the built binaries.
@Suite("Failed and interrupted fetches, as the catalog and the logs tell them", .serialized)
struct FetchFailureTests {
    /// A 304 to a first fetch used to leave the feed `ok`, with a last success and a
    /// `last_update` published as if it were healthy, and never fetched in full.
    @Test func a304ToAFirstFetchLeavesAFailingFeedNotAHealthyOne() throws {
        let server = try TestHTTPServer { request in
            request.path == "/list.opml"
                ? .init(contentType: "text/x-opml", body: #"<opml version="2.0"><body><outline xmlUrl="/feed.xml"/></body></opml>"#)
                : .init(status: 304)
        }
        let root = try TemporaryDirectory()
        let catalog = root.url.path + "/all_feeds.sqlite"
        let created = try Executable(name: "rss-create").runCapturing([
            "--opml", server.baseURL + "/list.opml", "--data-dir", root.url.path, "--allow-private-networks", "--now", "1700000000",
        ])
        #expect(created.status == 1, "\(created.stderr)")
        #expect(created.stdout.contains("answered 304 Not Modified to a request that was not conditional") && created.stdout.contains("[protocol]"), "\(created.stdout)")
        #expect(try sqlite(catalog, "SELECT last_error_kind, last_success_unix_time, consecutive_errors FROM fetch_state") == [["protocol", nil, "1"]])
        #expect(try sqlite(catalog, "SELECT COUNT(*) FROM last_update") == [["0"]])
    }

    /// An aborted feed used to be logged with `duration=0.000` after seconds in flight.
    @Test func aFeedInterruptedInFlightLogsTheTimeItTook() throws {
        let server = try feedFarm(count: 2, items: 1, delay: 30)
        let root = try TemporaryDirectory()
        let process = try Executable(name: "rss-create").start(
            ["--opml", server.baseURL + "/list.opml", "--data-dir", root.url.path, "--allow-private-networks", "--log-format", "json"],
            captureOutput: true)
        let output = Output(process)
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        let lines = output.stderr().split(separator: "\n").filter { $0.contains("interrupted in flight") }
        #expect(lines.count == 2, "\(output.stderr())")
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((object["duration"] as? Double ?? 0) >= 1.0, "\(line)")
        }
    }
}
