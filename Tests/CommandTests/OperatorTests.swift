import FeedPipeline
import FeedUpdateCommandSupport
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

@Suite("Operator experience: clock, replay, logs, deadline, signals", .serialized)
struct OperatorTests {
    let create = Executable(name: "rss-create")
    let update = Executable(name: "rss-update")

    @Test func nowAndSourceDateEpochReplaceEveryReadingOfTheClock() throws {
        let server = try feedFarm(count: 2, items: 2, delay: 0)
        for (arguments, environment, expected) in [
            (["--now", "1600000000"], ["SOURCE_DATE_EPOCH": "1500000000"], "1600000000"),
            ([], ["SOURCE_DATE_EPOCH": "1500000000"], "1500000000"),
        ] {
            let directory = try TemporaryDirectory()
            let result = try create.runCapturing(
                ["--opml", server.baseURL + "/list.opml", "--data-dir", directory.url.path, "--allow-private-networks"] + arguments,
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let catalog = directory.url.path + "/all_feeds.sqlite"
            #expect(try sqlite(catalog, "SELECT DISTINCT when_unix_time FROM last_update") == [[expected]])
            #expect(try sqlite(directory.url.path + "/feed_1.sqlite", "SELECT DISTINCT first_seen_unix_time FROM items") == [[expected]])
        }
    }

    @Test func aRecordedRunReplaysToTheSameDatabasesWithNoServer() throws {
        var server: TestHTTPServer? = try feedFarm(count: 3, items: 4, delay: 0)
        let list = try TemporaryDirectory()
        // The list is a local file: only the feeds go through the recording.
        let opml = list.url.path + "/list.opml"
        let urls = (0..<3).map { server!.baseURL + "/feed/\($0).xml" }
        try Data("<opml version=\"2.0\"><body>\(urls.map { "<outline xmlUrl=\"\($0)\"/>" }.joined())</body></opml>".utf8)
            .write(to: URL(fileURLWithPath: opml))
        let recording = try TemporaryDirectory()
        let live = try TemporaryDirectory(), replayed = try TemporaryDirectory()
        let common = ["--opml", opml, "--allow-private-networks", "--now", "1700000000"]
        #expect(try create.runCapturing(common + ["--data-dir", live.url.path, "--record", recording.url.path]).status == 0)
        server = nil  // nothing listens any more
        let result = try create.runCapturing(common + ["--data-dir", replayed.url.path, "--replay", recording.url.path])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["all_feeds.sqlite", "feed_1.sqlite", "feed_2.sqlite", "feed_3.sqlite"] {
            let a = FileManager.default.contents(atPath: live.url.path + "/" + name)
            #expect(a != nil && a == FileManager.default.contents(atPath: replayed.url.path + "/" + name), "\(name) is byte-identical")
        }
        // A request the recording does not have: the feed fails with a message saying so.
        let forced = try update.runCapturing(["--all", "--data-dir", replayed.url.path, "--replay", recording.url.path, "--now", "1700009999"])
        #expect(forced.status == 0, "a second run replays the same requests: \(forced.stderr)")
        let missing = try TemporaryDirectory(), other = try TemporaryDirectory()
        let failed = try create.runCapturing(common + ["--data-dir", other.url.path + "/data", "--replay", missing.url.path])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("no recording of GET \(urls[0]) in \(missing.url.path)"))
        #expect(failed.stdout.contains("[not-recorded]"))
    }

    @Test func jsonLogsPutTheFeedsMetadataOnEveryLine() throws {
        let server = try TestHTTPServer { request in
            if request.path == "/list.opml" {
                return .init(contentType: "text/x-opml", body: "<opml version=\"2.0\"><body><outline xmlUrl=\"/ok.xml\"/><outline xmlUrl=\"/gone.xml\"/><outline xmlUrl=\"/missing.xml\"/></body></opml>")
            }
            if request.path == "/ok.xml" { return .init(contentType: "application/rss+xml", body: rss("OK", items: [("1", "One", nil, nil)])) }
            return .init(status: request.path == "/gone.xml" ? 410 : 404)
        }
        let directory = try TemporaryDirectory()
        let result = try create.runCapturing(
            ["--opml", server.baseURL + "/list.opml", "--data-dir", directory.url.path, "--allow-private-networks", "--log-format", "json", "--verbose"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 3)
        var byURL: [String: [String: Any]] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["command"] as? String == "rss-create")
            #expect(object["feedid"] is NSNumber && object["duration"] is NSNumber && object["status"] is NSNumber)
            byURL[object["url"] as? String ?? ""] = object
        }
        #expect(byURL[server.baseURL + "/ok.xml"]?["level"] as? String == "info")
        #expect(byURL[server.baseURL + "/gone.xml"]?["level"] as? String == "notice")
        #expect(byURL[server.baseURL + "/missing.xml"]?["level"] as? String == "error")
        #expect((byURL[server.baseURL + "/missing.xml"]?["status"] as? NSNumber)?.intValue == 404)
        // Standard output keeps the human summary.
        #expect(result.stdout.contains("rss-create: 3 feed(s)"))
    }

    @Test func aDeadlineLeavesFeedsNotStartedForTheNextRun() throws {
        let harness = try Harness()
        let server = try feedFarm(count: 6, items: 1, delay: 0.4)
        let ids = try harness.add((0..<6).map { server.baseURL + "/feed/\($0).xml" })
        var configuration = harness.configuration
        configuration.concurrency = 1
        configuration.deadline = 0.6
        let started = ContinuousClock.now
        let report = try harness.update(.all, configuration: configuration)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(report.stoppedBy == .deadline)
        #expect(report.feeds.count == 2, "0.0 s and 0.4 s started; 0.8 s is past the deadline")
        #expect(report.notStarted.count == 4)
        #expect(report.exitCode == 0)
        for id in report.notStarted {
            #expect(try harness.feed(id).state.lastAttempt == nil, "feed \(id) untouched")
        }
        // The next run picks them up first: they have never been updated.
        let next = try harness.update(.due(limit: nil))
        #expect(Set(next.feeds.map(\.feedID)) == Set(ids).subtracting(report.feeds.map(\.feedID)))
    }

    @Test func sigtermStopsARunWithinSecondsAndSaysSo() throws {
        let server = try feedFarm(count: 8, items: 2, delay: 30)
        let directory = try TemporaryDirectory()
        let process = try create.start(
            ["--opml", server.baseURL + "/list.opml", "--data-dir", directory.url.path, "--allow-private-networks", "--concurrency", "2"],
            captureOutput: true)
        let output = Output(process)
        Thread.sleep(forTimeInterval: 1)
        let signalled = ContinuousClock.now
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(ContinuousClock.now - signalled < .seconds(5))
        #expect(process.terminationStatus == 143)
        #expect(output.stdout().contains("interrupted by SIGTERM: 8 feed(s) not finished, due next run"))
        #expect(try sqlite(directory.url.path + "/all_feeds.sqlite", "PRAGMA integrity_check") == [["ok"]])
        #expect(try sqlite(directory.url.path + "/all_feeds.sqlite", "SELECT COUNT(*) FROM fetch_state WHERE last_attempt_unix_time IS NOT NULL") == [["0"]])
    }
}
