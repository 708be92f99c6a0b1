import FeedCommandSupport
import FeedPipeline
import FeedStorage
import FeedUpdateCommandSupport
import Foundation
import Logging
import TestSupport
import Testing

/// What an operator's alerting and journal read: the catalog's feeds as gauges, carried over
/// by runs that could not count them, priority prefixes for the journal, and a run summary
/// that counts each feed once.
@Suite("Metrics for alerting, journald, the run summary")
struct AlertingOutputTests {
    private let now: Int64 = 1_700_000_000

    /// A feed's state columns; `change` sets the failure kind (`{ $0.lastErrorKind = .dns }`).
    private func feed(_ id: Int64, attempt: Int64? = nil, success: Int64? = nil, errors: Int = 0, gone: Bool = false, _ change: (inout FeedStateRow) -> Void = { _ in }) -> FeedStateRow {
        var row = FeedStateRow(url: "https://example.org/\(id)", gone: gone, consecutiveErrors: errors, lastAttempt: attempt, lastSuccess: success)
        change(&row)
        return row
    }

    /// One feed of each kind the gauges tell apart, and the samples they come to.
    @Test func theCatalogsFeedsAreCountedByStateKindAndAgeOfLastSuccess() throws {
        var count = FeedStateCount(now: now)
        let feeds = [
            feed(1),  // never fetched
            feed(2, attempt: now - 60, success: now - 60),  // ok
            feed(3, attempt: now - 60, success: now - 2 * 86_400, errors: 9) { $0.lastErrorKind = .dns },  // failing two days
            feed(4, attempt: now - 60, success: now - 7_200, errors: 2) { $0.lastErrorKind = .dns },  // failing two hours
            feed(5, attempt: now - 60, errors: 4) { $0.lastErrorKind = .httpStatus },  // failing, never succeeded
            feed(6, attempt: now - 60, success: now - 30 * 86_400, gone: true),  // gone: not the oldest success
        ]
        for feed in feeds { count.add(feed) }
        #expect(count.byState == ["ok": 1, "failing": 3, "never-fetched": 1, "gone": 1])
        #expect(count.byState.values.reduce(0, +) == feeds.count, "each feed in one state")
        #expect(count.failingByKind["dns"] == 2 && count.failingByKind["http-status"] == 1)
        #expect(count.failingByKind.values.reduce(0, +) == 3)
        #expect(count.withoutSuccess == ["1h": 2, "6h": 1, "1d": 1, "7d": 0])
        #expect(count.neverSucceeded == 1)
        #expect(count.oldestSuccess == now - 2 * 86_400)

        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/update.prom"
        try MetricsFile.write(.init(command: "rss-update", finishedAt: now, succeeded: true, exitCode: 1, metrics: nil, families: count.families), to: path)
        let first = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try Promtool.problems(inMetricsFile: path) == "")
        for line in [
            "feedmill_feeds{command=\"rss-update\",state=\"failing\"} 3", "feedmill_feeds{command=\"rss-update\",state=\"never-fetched\"} 1",
            "feedmill_feeds_failing{command=\"rss-update\",kind=\"dns\"} 2", "feedmill_feeds_failing{command=\"rss-update\",kind=\"timeout\"} 0",
            "feedmill_feeds_without_success{command=\"rss-update\",older_than=\"1d\"} 1", "feedmill_feeds_never_succeeded{command=\"rss-update\"} 1",
            "feedmill_feed_oldest_success_timestamp_seconds{command=\"rss-update\"} \(now - 2 * 86_400)",
        ] {
            #expect(first.contains(line + "\n"), "\(line)\n\(first)")
        }

        // A run that could not count (busy, fatal) keeps the counts of the one before, and says
        // when it ran itself.
        try MetricsFile.write(.init(command: "rss-update", finishedAt: now + 900, succeeded: false, exitCode: 75, metrics: nil), to: path)
        let carried = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try Promtool.problems(inMetricsFile: path) == "")
        #expect(carried.contains("feedmill_last_run_timestamp_seconds{command=\"rss-update\"} \(now + 900)\n"))
        #expect(carried.contains("feedmill_last_success_timestamp_seconds{command=\"rss-update\"} \(now)\n"))
        for line in first.split(separator: "\n") where line.hasPrefix("feedmill_feed") {
            #expect(carried.contains(line + "\n"), "carried over: \(line)")
        }

        // A catalog where no feed has succeeded: no oldest success, and none carried over.
        var none = FeedStateCount(now: now)
        none.add(feed(7, attempt: now, errors: 1) { $0.lastErrorKind = .timeout })
        try MetricsFile.write(.init(command: "rss-update", finishedAt: now + 1_800, succeeded: true, exitCode: 1, metrics: nil, families: none.families), to: path)
        let fresh = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try Promtool.problems(inMetricsFile: path) == "")
        #expect(!fresh.contains("feedmill_feed_oldest_success_timestamp_seconds{"), "\(fresh)")
        #expect(fresh.contains("feedmill_feeds_failing{command=\"rss-update\",kind=\"timeout\"} 1\n"))
        #expect(fresh.contains("feedmill_feeds_failing{command=\"rss-update\",kind=\"dns\"} 0\n"))
    }

    /// Another command's or shard's samples in the file are never carried over as this one's.
    @Test func onlyThisCommandsAndShardsSamplesAreCarriedOver() throws {
        var count = FeedStateCount(now: now)
        count.add(feed(1, attempt: now, success: now))
        let other = MetricsFile.render(.init(command: "rss-update", finishedAt: now, succeeded: true, exitCode: 0, metrics: nil, shard: "1/2", families: count.families), previous: nil)
        let text = MetricsFile.render(.init(command: "rss-update", finishedAt: now, succeeded: false, exitCode: 70, metrics: nil, shard: "2/2"), previous: other)
        #expect(!text.contains("shard=\"1/2\""), "\(text)")
        #expect(!text.contains("feedmill_feeds{"))
    }

    /// Label values and HELP text are escaped as the text format says, so a value with a quote,
    /// a backslash or a newline cannot break the file.
    @Test func labelValuesAndHelpAreEscaped() throws {
        let family = MetricFamily(
            "feedmill_test_escaping", help: "A \\ backslash\nand a newline.",
            [MetricFamily.Sample(1, labels: [MetricFamily.Label("odd", "a \"quoted\" \\ value\nover two lines")])])
        let text = MetricsFile.render(.init(command: "rss-update", finishedAt: now, succeeded: true, exitCode: 0, metrics: nil, families: [family]), previous: nil)
        #expect(text.contains(#"feedmill_test_escaping{command="rss-update",odd="a \"quoted\" \\ value\nover two lines"} 1"#), "\(text)")
        #expect(text.contains(#"# HELP feedmill_test_escaping A \\ backslash\nand a newline."#), "\(text)")
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/escaped.prom"
        try MetricsFile.write(.init(command: "rss-update", finishedAt: now, succeeded: true, exitCode: 0, metrics: nil, families: [family]), to: path)
        #expect(try Promtool.problems(inMetricsFile: path) == "")
    }

    @Test("Log lines start with their sd-daemon priority when standard error is the journal", arguments: LogLineHandler.Format.allCases)
    func journalPriorityPrefixes(format: LogLineHandler.Format) {
        let captured = CapturedOutput()
        let console = Console(isTerminal: false, isJournal: true) { captured.append($0) }
        let logger = Logger(label: "test") { _ in
            LogLineHandler(command: "rss-update", format: format, level: .debug, console: console, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        }
        logger.error("failed")
        logger.warning("careful")
        logger.notice("gone")
        logger.info("updated")
        logger.debug("unchanged")
        logger.error("two\nlines")
        let prefixes = captured.lines.map { String($0.prefix(3)) }
        // A message of two lines: two lines in text, each with its priority; one JSON line.
        let last = format == .text ? ["<3>", "<3>"] : ["<3>"]
        #expect(prefixes == ["<3>", "<4>", "<5>", "<6>", "<7>"] + last, "\(captured.lines)")
        if format == .json {
            for line in captured.lines {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.dropFirst(3).utf8))) != nil, "\(line)")
            }
        }
    }

    @Test func withoutTheJournalLogLinesHaveNoPrefix() {
        let captured = CapturedOutput()
        let console = Console(isTerminal: false, isJournal: false) { captured.append($0) }
        let logger = Logger(label: "test") { _ in LogLineHandler(command: "rss-update", format: .text, level: .debug, console: console) }
        logger.error("failed")
        #expect(captured.lines == ["rss-update: failed"])
    }

    /// JOURNAL_STREAM must name standard error itself: a value inherited by a process whose
    /// standard error was redirected, or malformed, is not the journal.
    @Test func journalStreamMustBeStandardErrorsDeviceAndInode() {
        var status = stat()
        #expect(fstat(STDERR_FILENO, &status) == 0)
        #expect(JournalStream.isStandardError(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"]))
        #expect(!JournalStream.isStandardError(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino &+ 1)"]))
        #expect(!JournalStream.isStandardError(environment: ["JOURNAL_STREAM": "\(status.st_dev)"]))
        #expect(!JournalStream.isStandardError(environment: ["JOURNAL_STREAM": ""]))
        #expect(!JournalStream.isStandardError(environment: [:]))
    }

    /// "4 + 33 of 35": a stopped run counted its feeds in flight among those it did and again
    /// among those left. Each selected feed is counted once now.
    @Test func anInterruptedRunsSummaryCountsEachFeedOnce() throws {
        var feeds = (1...2).map { FeedReport(feedID: $0, url: "https://example.org/\($0)", outcome: .updated(UpsertSummary(inserted: 1))) }
        feeds += (3...4).map { FeedReport(feedID: $0, url: "https://example.org/\($0)", outcome: .interrupted) }
        let report = RunReport(feeds: feeds, duration: 3, notStarted: Array(5...35), stoppedBy: .signal(SIGTERM))
        #expect((report.selected, report.finished, report.leftForNextRun) == (35, 2, 33))
        let text = RunSummary.render(report, command: "rss-update")
        #expect(text.hasPrefix("rss-update: 2 of 35 feed(s) finished in 3.0 s: 2 updated, 0 unchanged, 0 failed, 0 gone\n"), "\(text)")
        #expect(text.contains("  interrupted by SIGTERM: 33 feed(s) not finished, due next run (2 aborted in flight, 31 not started)\n"), "\(text)")

        let record = RunSummary.record(report, command: "rss-update")
        #expect(record.text == text)
        #expect(!record.line.contains("\n"))
        #expect(record.line.hasPrefix("rss-update: 2 of 35 feed(s) finished") && record.line.contains("; interrupted by SIGTERM: 33 feed(s)"))
        #expect(record.level == .warning)
        func number(_ key: String) -> Int { Int("\(record.fields[key] ?? "-1")") ?? -1 }
        #expect(number("feeds") == 35)
        let parts = ["updated", "unchanged", "failed", "gone", "interrupted", "not_started"].map(number)
        #expect(parts == [2, 0, 0, 0, 2, 31])
        #expect(parts.reduce(0, +) == number("feeds"))
        #expect(record.fields["stopped_by"] == "SIGTERM")

        // A run that was not stopped keeps its first line, and is a notice.
        let whole = RunReport(feeds: Array(feeds.prefix(2)), duration: 1)
        #expect(RunSummary.render(whole, command: "rss-update").hasPrefix("rss-update: 2 feed(s) in 1.0 s: 2 updated,"))
        #expect(RunSummary.record(whole, command: "rss-update").level == .notice)
    }
}
