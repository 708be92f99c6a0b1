import FeedCommandSupport
import FeedPipeline
import FeedStorage
import FeedUpdateCommandSupport
import Foundation
import Logging
import TestSupport
import Testing

/// Collects what the console would write. `@unchecked Sendable`: `text` is only touched under `lock`.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func append(_ chunk: String) { lock.withLock { text += chunk } }
    var lines: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
}

@Suite("Logs and metrics for operators")
struct OutputTests {
    private func logger(_ format: LogLineHandler.Format, level: Logger.Level = .debug, terminal: Bool = false) -> (Logger, CapturedOutput) {
        let captured = CapturedOutput()
        let console = Console(isTerminal: terminal) { captured.append($0) }
        let logger = Logger(label: "test") { _ in
            LogLineHandler(command: "rss-update", format: format, level: level, console: console, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        }
        return (logger, captured)
    }

    private let feeds = [
        FeedReport(feedID: 42, url: "https://example.org/feed.xml", outcome: .failed(kind: .httpStatus, message: "HTTP status 404"), bytes: 312, duration: 0.25, status: 404),
        FeedReport(feedID: 7, url: "https://example.com/rss", outcome: .updated(UpsertSummary(inserted: 3, updated: 1)), bytes: 20_480, duration: 1.5, status: 200),
        FeedReport(feedID: 9, url: "https://example.net/atom", outcome: .unchanged, bytes: 180, duration: 0.1, status: 304),
    ]

    @Test func jsonLogsAreOneObjectPerLineWithTheFeedsMetadata() throws {
        let (logger, captured) = logger(.json)
        for feed in feeds { FeedLog.log(feed, to: logger) }
        #expect(captured.lines.count == 3)
        let objects = try captured.lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        for (object, feed) in zip(objects, feeds) {
            #expect(object["command"] as? String == "rss-update")
            #expect(object["time"] as? String == "2023-11-14T22:13:20.000Z")
            #expect((object["feedid"] as? NSNumber)?.int64Value == feed.feedID)
            #expect(object["url"] as? String == feed.url)
            #expect((object["status"] as? NSNumber)?.intValue == feed.status)
            #expect((object["duration"] as? NSNumber)?.doubleValue == feed.duration)
        }
        #expect(objects[0]["level"] as? String == "error")
        #expect(objects[0]["message"] as? String == "failed: HTTP status 404")
        #expect(objects[0]["kind"] as? String == "http-status")
        #expect(objects[1]["level"] as? String == "info")
        #expect((objects[1]["inserted"] as? NSNumber)?.intValue == 3)
        #expect(objects[2]["level"] as? String == "debug")
    }

    @Test func textLogsAreReadableAndCarryTheSameFields() {
        let (logger, captured) = logger(.text)
        FeedLog.log(feeds[0], to: logger)
        #expect(captured.lines == [
            "rss-update: failed: HTTP status 404 bytes=312 duration=0.250 feedid=42 kind=http-status status=404 url=https://example.org/feed.xml",
        ])
    }

    @Test func theDefaultLevelShowsFailuresButNotRoutineFeeds() {
        let (logger, captured) = logger(.text, level: .notice, terminal: true)
        for feed in feeds { FeedLog.log(feed, to: logger) }
        #expect(captured.lines.count == 1)
        #expect(captured.lines.first?.hasPrefix("rss-update: failed: HTTP status 404") == true)
    }

    @Test func metricsAreWrittenAtomicallyInPrometheusTextFormat() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feedmill.prom"
        let report = RunReport(feeds: feeds, duration: 2.5, notStarted: [11, 12], stoppedBy: .deadline)
        try MetricsFile.write(.init(command: "rss-update", finishedAt: 1_700_000_000, succeeded: true, exitCode: 1, metrics: RunMetrics(report)), to: path)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        let samples = Dictionary(uniqueKeysWithValues: text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line -> (String, String) in
            let parts = line.split(separator: " ")
            return (String(parts[0]), String(parts[1]))
        })
        #expect(samples["feedmill_last_success_timestamp_seconds{command=\"rss-update\"}"] == "1700000000")
        #expect(samples["feedmill_last_run_exit_code{command=\"rss-update\"}"] == "1")
        #expect(samples["feedmill_last_run_feeds{command=\"rss-update\",outcome=\"failed\"}"] == "1")
        #expect(samples["feedmill_last_run_feeds{command=\"rss-update\",outcome=\"updated\"}"] == "1")
        #expect(samples["feedmill_last_run_feeds{command=\"rss-update\",outcome=\"not_finished\"}"] == "2")
        #expect(samples["feedmill_last_run_items_inserted{command=\"rss-update\"}"] == "3")
        #expect(samples["feedmill_update_fetched_bytes{command=\"rss-update\"}"] == "20972", "renamed from feedmill_last_run_bytes_fetched")
        #expect(samples["feedmill_last_run_duration_seconds{command=\"rss-update\"}"] == "2.500")
        // Every sample has HELP and TYPE lines, and no temporary file is left behind.
        for name in Set(samples.keys.map { String($0.prefix { $0 != "{" }) }) {
            #expect(text.contains("# HELP \(name) ") && text.contains("# TYPE \(name) gauge"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["feedmill.prom"])
        #expect(try Promtool.problems(inMetricsFile: path) == "")

        // A run that did not complete keeps the last success time of the one before.
        try MetricsFile.write(.init(command: "rss-update", finishedAt: 1_700_003_600, succeeded: false, exitCode: 143, metrics: nil), to: path)
        let after = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        #expect(after.contains("feedmill_last_success_timestamp_seconds{command=\"rss-update\"} 1700000000\n"))
        #expect(after.contains("feedmill_last_run_timestamp_seconds{command=\"rss-update\"} 1700003600\n"))
        #expect(after.contains("feedmill_last_run_exit_code{command=\"rss-update\"} 143\n"))
        #expect(try Promtool.problems(inMetricsFile: path) == "")
    }

    /// Two shards on one machine write two files for one textfile collector: every sample of
    /// a shard's file carries its `shard` label, so no series is given twice; a failed run
    /// keeps that shard's own last success.
    @Test func eachShardsMetricsAreLabelledWithItsShard() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feedmill-update-2-4.prom"
        let report = RunReport(feeds: feeds, duration: 1, notStarted: [])
        try MetricsFile.write(
            .init(command: "rss-update", finishedAt: 1_700_000_000, succeeded: true, exitCode: 0, metrics: RunMetrics(report), shard: "2/4"), to: path)
        try MetricsFile.write(.init(command: "rss-update", finishedAt: 1_700_000_900, succeeded: false, exitCode: 70, metrics: nil, shard: "2/4"), to: path)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(!samples.isEmpty)
        for sample in samples { #expect(sample.contains("{command=\"rss-update\",shard=\"2/4\"}"), "\(sample)") }
        #expect(text.contains("feedmill_last_success_timestamp_seconds{command=\"rss-update\",shard=\"2/4\"} 1700000000\n"))
        #expect(text.contains("feedmill_last_run_exit_code{command=\"rss-update\",shard=\"2/4\"} 70\n"))
        #expect(try Promtool.problems(inMetricsFile: path) == "")
    }

    /// The run report counts every feed but keeps only those the summary names one by one,
    /// so a run's memory does not grow with its feeds; the summary reads the same.
    @Test func aRunReportCountsEveryFeedAndKeepsOnlyTheNotableOnes() {
        let moved = FeedReport(feedID: 5, url: "https://old.example/f", outcome: .updated(UpsertSummary(inserted: 2)), bytes: 100, movedTo: "https://new.example/f")
        let all = feeds + [
            moved,
            FeedReport(feedID: 3, url: "https://example.org/gone", outcome: .gone, bytes: 10),
            FeedReport(feedID: 8, url: "https://example.org/late", outcome: .interrupted),
            FeedReport(feedID: 1, url: "https://example.org/same", outcome: .unchanged, bytes: 1),
            FeedReport(feedID: 2, url: "https://example.org/new", outcome: .updated(UpsertSummary(inserted: 4, updated: 2, removed: 1)), bytes: 7),
        ]
        let report = RunReport(feeds: all, duration: 1, notStarted: [20])
        #expect(report.notable.map(\.feedID) == [3, 5, 8, 42], "failed, gone, moved, interrupted; in feedid order")
        #expect(report.tally.feeds == 8)
        #expect((report.updated, report.unchanged, report.failures.count, report.gone, report.tally.interrupted) == (3, 2, 1, 1, 1))
        #expect((report.newItems, report.changedItems, report.removedItems) == (9, 3, 1))
        #expect(report.bytes == 312 + 20_480 + 180 + 100 + 10 + 1 + 7)
        #expect(report.leftForNextRun == 2)
        #expect(!report.nothingHappened && report.exitCode == 1)
        let summary = RunSummary.render(report, command: "rss-update")
        #expect(summary.hasPrefix("rss-update: 8 feed(s) in 1.0 s: 3 updated, 2 unchanged, 1 failed, 1 gone\n  items: 9 new, 3 changed, 1 removed by retention;"))
        #expect(summary.contains("    #42 https://example.org/feed.xml: HTTP status 404 [http-status]"))
        #expect(summary.contains("  moved: #5 https://old.example/f -> https://new.example/f (permanent redirects)"))
        #expect(summary.contains("  gone: #3 https://example.org/gone (HTTP 410"))

        // A dry run names the feeds it would change, and only those.
        let dry = RunReport(
            feeds: [
                FeedReport(feedID: 4, url: "https://example.org/a", outcome: .wouldUpdate(UpsertSummary(inserted: 1))),
                FeedReport(feedID: 6, url: "https://example.org/b", outcome: .wouldUpdate(UpsertSummary(unchanged: 3))),
            ], duration: 0)
        #expect(dry.notable.map(\.feedID) == [4])
        let dryText = RunSummary.render(dry, command: "rss-update", dryRun: true)
        #expect(dryText.hasPrefix("rss-update: 2 feed(s) in 0.0 s: 2 would update, 0 unchanged"))
        #expect(dryText.contains("  #4 https://example.org/a: would insert 1, update 0") && !dryText.contains("#6"))
    }

    /// Workers report in the order they finish, not the order they counted.
    @Test func theProgressBarNeverGoesBackwards() {
        let captured = CapturedOutput()
        let bar = ProgressBar(console: Console(isTerminal: true) { captured.append($0) }, enabled: true)
        let feed = FeedReport(feedID: 1, url: "https://example.org/f", outcome: .unchanged)
        for done in [1, 3, 2, 4] { bar.update(feed, done: done, total: 10) }
        let counts = captured.lines.joined().components(separatedBy: "\r").compactMap { draw in
            draw.split(separator: " ").first { $0.contains("/10") }.flatMap { Int($0.split(separator: "/")[0]) }
        }
        #expect(counts == [1, 3, 3, 4])
    }

    @Test func theProgressBarShowsDoneFailedRateAndTimeLeft() {
        #expect(ProgressBar.render(done: 250, total: 1000, failed: 3, elapsed: 10, width: 8) == "[##······] 250/1000  3 failed  25.0 feeds/s  ~30 s left")
    }
}
