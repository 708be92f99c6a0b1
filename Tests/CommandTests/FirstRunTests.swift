import FeedBasics
import FeedPipeline
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Mistakes a new operator makes, and a scheduled run's manners, through the built binaries.
@Suite("First-run traps and quiet scheduled runs", .serialized)
struct FirstRunTests {
    @Test func unknownFeedIDsAreNamedWithStatus64() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        let update = try run.update.runCapturing(["--feed", "999", "--feed", "2", "--feed", "998"] + run.options)
        #expect(update.status == 64)
        #expect(update.stderr.contains("no feed with feedid 999, 998"), "\(update.stderr)")
        let publish = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--feed", "7"])
        #expect(publish.status == 64)
        #expect(publish.stderr.contains("feedid 7"))
        #expect(!FileManager.default.fileExists(atPath: run.out + "/manifest.json"))
        for command in [run.create, run.update, run.publish, Executable(name: "rss-inspect"), Executable(name: "rss-feeds")] {
            let version = try command.runCapturing(["--version"])
            // `rss-update 0.1.0 (commit …, built …)`: the version, then where it was built from.
            #expect(version.status == 0 && version.stdout.hasPrefix("\(command.name) \(FeedmillVersion.current) (commit "), "\(command.name)")
        }
    }

    @Test func aMissingFeedListLeavesNoCatalogBehind() throws {
        let root = try TemporaryDirectory()
        let data = root.url.path + "/data"
        let create = try Executable(name: "rss-create").runCapturing(["--opml", root.url.path + "/nothere.opml", "--data-dir", data])
        #expect(create.status == 66, "EX_NOINPUT: \(create.stderr)")
        #expect(create.stderr.contains("cannot read the feed list \(root.url.path)/nothere.opml: No such file or directory (ENOENT)"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data + "/all_feeds.sqlite"))
        let update = try Executable(name: "rss-update").runCapturing(["--data-dir", data])
        #expect(update.status == 66, "EX_NOINPUT: \(update.stderr)")
        #expect(update.stderr.contains("run rss-create first"))
    }

    @Test func relativeFeedURLsInALocalFileAreRefusedOrResolvedAgainstBase() throws {
        let run = try BinaryRun(feeds: 2)
        let opml = run.root.url.path + "/list.opml"
        try Data(#"<opml version="2.0"><body><outline xmlUrl="/feed/0.xml"/><outline xmlUrl="/feed/1.xml"/></body></opml>"#.utf8)
            .write(to: URL(fileURLWithPath: opml))
        let refused = try run.create.runCapturing(["--opml", opml] + run.options)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("/feed/0.xml: a relative feed URL in a local file; give --base URL"), "\(refused.stderr)")
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT COUNT(*) FROM feeds") == [["0"]])
        let resolved = try run.create.runCapturing(["--opml", opml, "--base", run.server.baseURL + "/"] + run.options)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT url FROM feeds ORDER BY feedid") == [
            [run.server.baseURL + "/feed/0.xml"], [run.server.baseURL + "/feed/1.xml"],
        ])
        #expect(try run.itemCount(1) == 3)
    }

    @Test func replayingFromADirectoryThatDoesNotExistFailsAtOnceAndRecordsNothing() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        let before = try sqlite(run.data + "/all_feeds.sqlite", "SELECT * FROM fetch_state ORDER BY feedid")
        let update = try run.update.runCapturing(["--all", "--replay", run.root.url.path + "/no-such-recording"] + run.options)
        #expect(update.status == 64)
        #expect(update.stderr.contains("--replay \(run.root.url.path)/no-such-recording: no such directory"))
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT * FROM fetch_state ORDER BY feedid") == before)
    }

    /// Standard error and output are pipes here, as under cron.
    @Test func aScheduledRunInWhichNothingHappenedPrintsNothing() throws {
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let update = try run.update.runCapturing(["--all"] + run.options)
        #expect(update.status == 0)
        #expect(update.stdout.isEmpty && update.stderr.isEmpty, "\(update.stdout)\(update.stderr)")
        let create = try run.createAll()
        #expect(create.stdout.isEmpty && create.stderr.isEmpty, "\(create.stdout)\(create.stderr)")
        // The update moved last_update, which clients see: that publication is news; the next is not.
        #expect(try run.publishAll().status == 0)
        let publish = try run.publishAll()
        #expect(publish.stdout.isEmpty && publish.stderr.isEmpty, "\(publish.stdout)\(publish.stderr)")
        // Something happening is still reported.
        run.server.stop()
        let failing = try run.update.runCapturing(["--all"] + run.options)
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("3 failed"))
    }

    @Test func aFailedFetchLogsTheTimeItTook() throws {
        let server = try TestHTTPServer { request in
            if request.path == "/list.opml" {
                return .init(contentType: "text/x-opml", body: #"<opml version="2.0"><body><outline xmlUrl="/slow-error.xml"/></body></opml>"#)
            }
            var response = TestHTTPServer.Response(status: 500, contentType: "text/plain", body: "no")
            response.delay = 0.4
            return response
        }
        let root = try TemporaryDirectory()
        let result = try Executable(name: "rss-create").runCapturing([
            "--opml", server.baseURL + "/list.opml", "--data-dir", root.url.path, "--allow-private-networks", "--log-format", "json",
        ])
        #expect(result.status == 1)
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("slow-error") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let duration = try #require(object["duration"] as? Double)
        #expect(duration >= 0.4, "\(line)")
    }

    @Test func theCommandsFetchThroughTheProxyFromTheEnvironmentOrFromProxy() throws {
        let run = try BinaryRun(feeds: 2)
        let proxy = try TestForwardProxy()
        let created = try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml"] + run.options, environment: ["http_proxy": proxy.url])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(proxy.requestedURLs.sorted() == [run.server.baseURL + "/feed/0.xml", run.server.baseURL + "/feed/1.xml", run.server.baseURL + "/list.opml"])
        let other = try TestForwardProxy()
        let updated = try run.update.runCapturing(["--all", "--proxy", other.url] + run.options, environment: ["http_proxy": proxy.url])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(other.requestedURLs.count == 2, "--proxy wins over the environment")
        let direct = try run.update.runCapturing(["--all", "--proxy", "none"] + run.options, environment: ["http_proxy": proxy.url])
        #expect(direct.status == 0)
        #expect(proxy.requestedURLs.count == 3 && other.requestedURLs.count == 2)
        let bad = try run.update.runCapturing(["--all", "--proxy", "proxy.example:3128"] + run.options)
        #expect(bad.status == 64 && bad.stderr.contains("expected a proxy URL"))
    }

    /// A Windows-edited file used to be ignored whole, every setting at its default, exit 0.
    @Test func aConfigurationFileWithCRLFLineEndingsIsReadNotIgnored() throws {
        let root = try TemporaryDirectory()
        let path = root.url.path + "/feedmill.toml"
        try Data("\u{FEFF}concurrency = 7\r\n[update]\r\n\"stale-after\" = \"2h\"\r\n".utf8).write(to: URL(fileURLWithPath: path))
        let shown = try Executable(name: "rss-update").runCapturing(["--config", path, "--print-config"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let lines = shown.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("concurrency ") && $0.contains("= 7") && $0.contains("feedmill.toml:1") }, "\(shown.stdout)")
        #expect(lines.contains { $0.hasPrefix("stale-after ") && $0.contains("= \"2h\"") && $0.contains("feedmill.toml:3 [update]") })
        try Data("concurrency = 7\r\nconcurrency = 8\r\n".utf8).write(to: URL(fileURLWithPath: path))
        let twice = try Executable(name: "rss-update").runCapturing(["--config", path, "--print-config"])
        #expect(twice.status == 64 && twice.stderr.contains("feedmill.toml:2"), "\(twice.stderr)")
    }
}
