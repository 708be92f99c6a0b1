import FeedModel
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// What an operator's monitoring reads, through the built binaries: metrics files that
/// promtool accepts and alert rules can use, the journal's priorities and one summary record,
/// and an interrupted run that counts each feed once.
@Suite("Metrics, journald and interrupted runs, as an operator sees them", .serialized)
struct ObservabilityTests {
    let create = Executable(name: "rss-create")
    let update = Executable(name: "rss-update")
    let publish = Executable(name: "rss-publish")

    /// Three feeds: one fine, one missing (404, an error), one gone (410, a notice).
    static func threeFeeds() throws -> TestHTTPServer {
        try TestHTTPServer { request in
            switch request.path {
            case "/list.opml":
                return .init(contentType: "text/x-opml", body: #"<opml version="2.0"><body><outline xmlUrl="/ok.xml"/><outline xmlUrl="/missing.xml"/><outline xmlUrl="/gone.xml"/></body></opml>"#)
            case "/ok.xml": return .init(contentType: "application/rss+xml", body: rss("OK", items: [("1", "One", nil, nil)]))
            case "/gone.xml": return .init(status: 410)
            default: return .init(status: 404)
            }
        }
    }

    /// A metrics file's samples, by name and labels.
    static func samples(_ path: String) throws -> [String: String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return Dictionary(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            (String($0.prefix { $0 != " " }), String($0.split(separator: " ").last ?? ""))
        }, uniquingKeysWith: { $1 })
    }

    /// Runs `executable` to completion with standard error written to a file, as systemd
    /// connects it to the journal: `JOURNAL_STREAM` is that file's `device:inode` when
    /// `journal`, another file's when `journal` is false and `otherStream` is true, absent otherwise.
    /// An empty configuration file stands for the machine's.
    static func run(
        _ executable: Executable, _ arguments: [String], journal: Bool, otherStream: Bool = false, in directory: TemporaryDirectory
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let config = directory.url.path + "/empty.toml"
        let stderrPath = directory.url.path + "/stderr-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: config, contents: Data())
        FileManager.default.createFile(atPath: stderrPath, contents: Data())
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        var status = stat()
        #expect(stat(otherStream ? config : stderrPath, &status) == 0)
        let process = Process()
        process.executableURL = executable.url
        process.arguments = arguments + ["--config", config]
        process.currentDirectoryURL = directory.url
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("FEEDMILL_") && !$0.key.lowercased().hasSuffix("_proxy") && $0.key != "SOURCE_DATE_EPOCH" && $0.key != "JOURNAL_STREAM"
        }
        if journal || otherStream { environment["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)" }
        process.environment = environment
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try stderr.close()
        let err = try String(contentsOfFile: stderrPath, encoding: .utf8)
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), err)
    }

    /// Under systemd every line on standard error starts with its priority, and the summary is
    /// one JSON record with the counts, which add up; nothing goes to standard output.
    @Test func underTheJournalEveryJSONLineHasItsPriorityAndTheSummaryIsOneRecord() throws {
        let server = try Self.threeFeeds()
        let root = try TemporaryDirectory()
        let options = ["--opml", server.baseURL + "/list.opml", "--data-dir", root.url.path + "/data", "--allow-private-networks", "--verbose"]
        let result = try Self.run(create, options + ["--log-format", "json"], journal: true, in: root)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "the summary is a journal record, not lines on standard output: \(result.stdout)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        var objects: [(priority: String, object: [String: Any])] = []
        for line in lines {
            let priority = String(line.prefix(3))
            #expect(["<3>", "<4>", "<5>", "<6>", "<7>"].contains(priority), "\(line)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(3).utf8)) as? [String: Any], "\(line)")
            objects.append((priority, object))
        }
        let byURL = Dictionary(objects.compactMap { entry in (entry.object["url"] as? String).map { ($0, entry.priority) } }, uniquingKeysWith: { a, _ in a })
        #expect(byURL[server.baseURL + "/missing.xml"] == "<3>")
        #expect(byURL[server.baseURL + "/gone.xml"] == "<5>")
        #expect(byURL[server.baseURL + "/ok.xml"] == "<6>")
        let summaries = objects.filter { $0.object["event"] as? String == "summary" }
        #expect(summaries.count == 1, "\(lines)")
        let summary = try #require(summaries.first)
        #expect(summary.priority == "<4>", "a run with failed feeds is a warning")
        #expect(summary.object["command"] as? String == "rss-create")
        #expect((summary.object["message"] as? String)?.hasPrefix("rss-create: ") == true)
        func number(_ key: String) -> Int? { (summary.object[key] as? NSNumber)?.intValue }
        #expect(number("feeds") == 3 && number("updated") == 1 && number("failed") == 1 && number("gone") == 1)
        #expect(number("feeds_new") == 3)
        let parts = ["updated", "unchanged", "failed", "gone", "interrupted", "not_started"].compactMap(number)
        #expect(parts.count == 6 && parts.reduce(0, +) == number("feeds"))
        #expect(lines.last?.contains(#""event":"summary""#) == true, "the summary comes last")
    }

    @Test func underTheJournalTextLinesHaveTheirPriorityAndTheSummaryIsOneLine() throws {
        let server = try Self.threeFeeds()
        let root = try TemporaryDirectory()
        let options = ["--opml", server.baseURL + "/list.opml", "--data-dir", root.url.path + "/data", "--allow-private-networks"]
        // A metrics file named relative to the working directory (it used to be written, then
        // reported as "cannot open to sync" for its directory "").
        let result = try Self.run(create, options + ["--metrics-file", "create.prom"], journal: true, in: root)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(!result.stderr.contains("could not write metrics"), "\(result.stderr)")
        #expect(try Promtool.problems(inMetricsFile: root.url.path + "/create.prom") == "")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("<") && $0.dropFirst(3).hasPrefix("rss-create: ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<3>rss-create: failed: HTTP status 404") }, "\(lines)")
        let summary = lines.filter { $0.contains(" feed(s) in ") }
        #expect(summary.count == 1, "\(lines)")
        #expect(summary.first?.hasPrefix("<4>rss-create: ") == true)
        #expect(summary.first?.contains("3 new feed(s)") == true && summary.first?.contains("1 updated, 0 unchanged, 1 failed, 1 gone; items: 1 new") == true, "\(summary)")
    }

    /// Not under systemd, or standard error redirected by a shell started from a unit (the
    /// variable inherited, the stream another): no prefixes, the summary on standard output.
    @Test(arguments: [false, true])
    func withoutTheJournalNothingChanges(inheritedVariable: Bool) throws {
        let server = try Self.threeFeeds()
        let root = try TemporaryDirectory()
        let options = ["--opml", server.baseURL + "/list.opml", "--data-dir", root.url.path + "/data", "--allow-private-networks", "--log-format", "json"]
        let result = try Self.run(create, options, journal: false, otherStream: inheritedVariable, in: root)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("{") }, "\(lines)")
        #expect(!result.stderr.contains(#""event":"summary""#))
        #expect(result.stdout.hasPrefix("rss-create: "), "\(result.stdout)")
        #expect(result.stdout.contains("rss-create: 3 feed(s) in "))
    }

    /// "4 + 33 of 35": an interrupted run counted the feeds it aborted among those it did
    /// and again among those left. Against a server that answers four feeds at once and then
    /// hangs: four finished, two aborted in flight, four never started: 4 + 6 of 10.
    @Test func anInterruptedRunCountsEachFeedOnce() throws {
        let answered = LockedCount()
        let server = try TestHTTPServer { request in
            if request.path == "/list.opml" {
                let outlines = (0..<10).map { "<outline xmlUrl=\"/feed/\($0).xml\"/>" }.joined()
                return .init(contentType: "text/x-opml", body: "<opml version=\"2.0\"><body>\(outlines)</body></opml>")
            }
            let slow = answered.increment() > 4
            return .init(headers: [("Content-Type", "application/rss+xml")], body: Array(rss("F", items: [("1", "One", nil, nil)]).utf8), delay: slow ? 30 : 0)
        }
        let root = try TemporaryDirectory()
        let metrics = root.url.path + "/create.prom"
        let process = try create.start(
            ["--opml", server.baseURL + "/list.opml", "--data-dir", root.url.path + "/data", "--allow-private-networks",
             "--concurrency", "2", "--per-host", "2", "--metrics-file", metrics],
            captureOutput: true)
        let output = Output(process)
        let started = ContinuousClock.now
        while answered.value < 6 && ContinuousClock.now - started < .seconds(20) { Thread.sleep(forTimeInterval: 0.05) }
        #expect(answered.value == 6, "four answered, two in flight")
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        let stdout = output.stdout()
        #expect(stdout.contains("rss-create: 4 of 10 feed(s) finished in "), "\(stdout)")
        #expect(stdout.contains(": 4 updated, 0 unchanged, 0 failed, 0 gone\n"), "\(stdout)")
        #expect(stdout.contains("interrupted by SIGTERM: 6 feed(s) not finished, due next run (2 aborted in flight, 4 not started)"), "\(stdout)")
        let samples = try Self.samples(metrics)
        let outcomes = ["updated", "unchanged", "failed", "gone", "not_finished"].map {
            Int(samples["feedmill_last_run_feeds{command=\"rss-create\",outcome=\"\($0)\"}"] ?? "") ?? -1
        }
        #expect(outcomes == [4, 0, 0, 0, 6], "\(samples)")
        #expect(samples["feedmill_feeds{command=\"rss-create\",state=\"ok\"}"] == "4")
        #expect(samples["feedmill_feeds{command=\"rss-create\",state=\"never-fetched\"}"] == "6", "aborted feeds are as they were")
        #expect(try Promtool.problems(inMetricsFile: metrics) == "")
    }

    /// rss-update's and rss-publish's files pass promtool, carry every state and failure kind,
    /// and keep what describes the catalog and the publication when a run cannot say it.
    @Test func updateAndPublishMetricsAreWhatAlertRulesNeed() throws {
        let server = try Self.threeFeeds()
        let root = try TemporaryDirectory()
        let data = root.url.path + "/data", out = root.url.path + "/pub"
        let updateMetrics = root.url.path + "/update.prom", publishMetrics = root.url.path + "/publish.prom"
        let common = ["--data-dir", data, "--allow-private-networks"]
        #expect(try create.runCapturing(["--opml", server.baseURL + "/list.opml", "--now", "1700000000"] + common).status == 1)
        let updated = try update.runCapturing(["--all", "--now", "1700090000", "--metrics-file", updateMetrics] + common)
        #expect(updated.status == 1, "\(updated.stderr)")
        #expect(try Promtool.problems(inMetricsFile: updateMetrics) == "")
        var samples = try Self.samples(updateMetrics)
        let labels = "command=\"rss-update\""
        #expect(samples["feedmill_feeds{\(labels),state=\"ok\"}"] == "1")
        #expect(samples["feedmill_feeds{\(labels),state=\"failing\"}"] == "1")
        #expect(samples["feedmill_feeds{\(labels),state=\"gone\"}"] == "1")
        #expect(samples["feedmill_feeds{\(labels),state=\"never-fetched\"}"] == "0")
        for kind in FailureKind.allCases {
            let expected = kind == .httpStatus ? "1" : "0"
            #expect(samples["feedmill_feeds_failing{\(labels),kind=\"\(kind.rawValue)\"}"] == expected, "\(kind)")
        }
        #expect(samples["feedmill_feeds_never_succeeded{\(labels)}"] == "1", "the 404 never succeeded")
        #expect(samples["feedmill_feeds_without_success{\(labels),older_than=\"1d\"}"] == "0")
        #expect(samples["feedmill_feed_oldest_success_timestamp_seconds{\(labels)}"] == "1700090000")
        #expect(samples["feedmill_update_fetched_bytes{\(labels)}"].flatMap { Int($0) } ?? 0 > 0)
        #expect(samples["feedmill_last_run_bytes_fetched{\(labels)}"] == nil, "renamed")

        // A run that fails as a whole keeps the catalog's counts and the last success.
        let refused = try update.runCapturing(["--feed", "999", "--now", "1700090900", "--metrics-file", updateMetrics] + common)
        #expect(refused.status == 64)
        #expect(try Promtool.problems(inMetricsFile: updateMetrics) == "")
        samples = try Self.samples(updateMetrics)
        #expect(samples["feedmill_last_run_exit_code{\(labels)}"] == "64")
        #expect(samples["feedmill_last_run_timestamp_seconds{\(labels)}"] == "1700090900")
        #expect(samples["feedmill_last_success_timestamp_seconds{\(labels)}"] == "1700090000")
        #expect(samples["feedmill_feeds{\(labels),state=\"failing\"}"] == "1")
        #expect(samples["feedmill_feeds_failing{\(labels),kind=\"http-status\"}"] == "1")

        // Under the journal, with JSON logs, as the contrib unit runs it (without --quiet here).
        let published = try Self.run(
            publish, ["--data-dir", data, "--out", out, "--now", "1700091000", "--metrics-file", publishMetrics, "--log-format", "json"], journal: true,
            in: root)
        #expect(published.status == 0, "\(published.stderr)")
        #expect(published.stdout.isEmpty)
        let record = try #require(published.stderr.split(separator: "\n").last.map(String.init))
        #expect(record.hasPrefix("<5>{"), "\(record)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(record.dropFirst(3).utf8)) as? [String: Any])
        #expect(object["event"] as? String == "summary" && object["command"] as? String == "rss-publish")
        #expect((object["files_written"] as? NSNumber)?.intValue ?? 0 > 0 && (object["feeds_failed"] as? NSNumber)?.intValue == 0)
        #expect(try Promtool.problems(inMetricsFile: publishMetrics) == "")
        samples = try Self.samples(publishMetrics)
        let publishLabels = "command=\"rss-publish\""
        let generation = try #require(samples["feedmill_publish_generation{\(publishLabels)}"].flatMap { Int($0) })
        #expect(generation >= 1 && (object["generation"] as? NSNumber)?.intValue == generation)
        #expect(samples["feedmill_publish_last_success_timestamp_seconds{\(publishLabels)}"] == "1700091000")
        #expect(samples["feedmill_publish_written_files{\(publishLabels)}"].flatMap { Int($0) } ?? 0 > 0)
        #expect(samples["feedmill_publish_written_bytes{\(publishLabels)}"].flatMap { Int($0) } ?? 0 > 0)
        #expect(samples["feedmill_publish_feeds{\(publishLabels),outcome=\"failed\"}"] == "0")
        #expect(samples["feedmill_publish_duration_seconds{\(publishLabels)}"] != nil)

        // Nothing new: the same generation, nothing written, and a new last success.
        let again = try publish.runCapturing(["--data-dir", data, "--out", out, "--now", "1700092000", "--metrics-file", publishMetrics])
        #expect(again.status == 0)
        samples = try Self.samples(publishMetrics)
        #expect(samples["feedmill_publish_generation{\(publishLabels)}"] == "\(generation)")
        #expect(samples["feedmill_publish_written_files{\(publishLabels)}"] == "0")
        #expect(samples["feedmill_publish_last_success_timestamp_seconds{\(publishLabels)}"] == "1700092000")

        // A publication that cannot run keeps the generation and its last success.
        let failed = try publish.runCapturing(["--data-dir", data, "--out", out, "--feed", "999", "--now", "1700093000", "--metrics-file", publishMetrics])
        #expect(failed.status == 64)
        #expect(try Promtool.problems(inMetricsFile: publishMetrics) == "")
        samples = try Self.samples(publishMetrics)
        #expect(samples["feedmill_publish_generation{\(publishLabels)}"] == "\(generation)")
        #expect(samples["feedmill_publish_last_success_timestamp_seconds{\(publishLabels)}"] == "1700092000")
        #expect(samples["feedmill_publish_written_files{\(publishLabels)}"] == nil, "what a run wrote is not carried over")
    }
}

extension ObservabilityTests {
    /// A feed listed before `fetch_state` existed (no row there) that was updated once (its
    /// `last_update`) is counted as `ok` with that time as its success, not as never fetched.
    @Test func aFeedWithoutFetchStateCountsByItsLastUpdate() throws {
        let server = try Self.threeFeeds()
        let root = try TemporaryDirectory()
        let data = root.url.path + "/data", metrics = root.url.path + "/update.prom"
        let common = ["--data-dir", data, "--allow-private-networks"]
        #expect(try create.runCapturing(["--opml", server.baseURL + "/list.opml", "--now", "1700000000"] + common).status == 1)
        let catalog = try DatabaseQueue(path: data + "/all_feeds.sqlite")
        let ok = try #require(try catalog.read { db in try Int64.fetchOne(db, sql: "SELECT feedid FROM feeds WHERE url LIKE '%/ok.xml'") })
        let missing = try #require(try catalog.read { db in try Int64.fetchOne(db, sql: "SELECT feedid FROM feeds WHERE url LIKE '%/missing.xml'") })
        try catalog.write { db in
            try db.execute(sql: "DELETE FROM fetch_state WHERE feedid = ?", arguments: [ok])
            try db.execute(sql: "UPDATE last_update SET when_unix_time = 1600000000 WHERE feedid = ?", arguments: [ok])
        }
        try catalog.close()
        let updated = try update.runCapturing(["--feed", "\(missing)", "--now", "1700090000", "--metrics-file", metrics] + common)
        #expect(updated.status == 1, "\(updated.stderr)")
        let samples = try Self.samples(metrics)
        #expect(samples["feedmill_feeds{command=\"rss-update\",state=\"ok\"}"] == "1", "\(samples)")
        #expect(samples["feedmill_feeds{command=\"rss-update\",state=\"never-fetched\"}"] == "0")
        #expect(samples["feedmill_feed_oldest_success_timestamp_seconds{command=\"rss-update\"}"] == "1600000000")
        #expect(try Promtool.problems(inMetricsFile: metrics) == "")
    }
}

/// A count shared by the server's connection threads. `@unchecked Sendable`: `count` is only
/// touched under `lock`.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one; the new count.
    func increment() -> Int { lock.withLock { count += 1; return count } }
    var value: Int { lock.withLock { count } }
}
