import FeedBasics
import FeedFetching
import FeedModel
import FeedPipeline
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Clocks that jump and times no clock could have written: scheduling saturates, and a time
/// in the future is read as "due now", said, never as a wait.
@Suite("Clocks that jump", .serialized)
struct ClockTests {
    let now: Int64 = 1_700_000_000
    let configuration = PipelineConfiguration()

    private func feed(lastUpdate: Int64?, nextAttempt: Int64? = nil, hint: Int? = nil) -> CatalogFeed {
        var state = FetchState()
        state.nextAttempt = nextAttempt
        state.hintInterval = hint
        return CatalogFeed(feedID: 1, url: "https://e.example/f", lastUpdate: lastUpdate, state: state)
    }

    @Test("scheduling arithmetic saturates on any stored time", arguments: [
        (Int64.max, nil, nil, true, true),  // a last update at the end of time: the clock was wrong, due now
        (Int64.min, nil, nil, true, false),  // at the start of time: long stale
        (1_699_999_000, Int64.max, nil, true, true),  // told to wait past any wait Feedmill sets
        (1_699_999_000, Int64.min, nil, false, false),  // a past attempt time; updated 1000 s ago
        (1_690_000_000, nil, Int.max, true, false),  // a hint of forever is a day at most
        (1_699_990_000, 1_700_086_000, nil, false, false),  // a real backoff (a day ahead): waited out
        (1_700_000_100, nil, nil, true, true),  // 100 s ahead of the clock
        (1_700_000_100, 1_700_003_600, nil, false, true),  // ahead, but waiting out a real backoff: the wait is honoured
    ] as [(Int64?, Int64?, Int?, Bool, Bool)])
    func schedulingSaturates(lastUpdate: Int64?, nextAttempt: Int64?, hint: Int?, due: Bool, anomaly: Bool) {
        let subject = feed(lastUpdate: lastUpdate, nextAttempt: nextAttempt, hint: hint)
        #expect(UpdateSchedule.isDue(subject, now: now, configuration: configuration) == due)
        #expect((UpdateSchedule.clockAnomaly(subject, now: now, configuration: configuration) != nil) == anomaly)
        let next = UpdateSchedule.nextDue(subject, now: now, configuration: configuration)
        #expect(next.map { $0 <= now } == due, "nextDue agrees with isDue: \(String(describing: next))")
    }

    @Test func printingAnyTimeNeverTraps() {
        for seconds in [Int64.min, Int64.min + 1, -1, 0, 86_399, 86_400, 253_402_300_799, Int64.max] {
            #expect(!CivilDate.rfc3339(seconds).isEmpty)
        }
        #expect(CivilDate.rfc3339(-1) == "1969-12-31T23:59:59Z")
        #expect(CivilDate.rfc3339(253_402_300_799) == "9999-12-31T23:59:59Z")
    }

    @Test func aClockThatRanADayOrAYearFastThenWasSetBackKeepsPollingAndSaysSo() throws {
        for ahead in [Int64(86_400), 31_536_000] {
            let run = try BinaryRun(feeds: 2)
            let real: Int64 = 1_700_000_000
            #expect(try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml", "--now", "\(real + ahead)"] + run.options).status == 0)
            // Corrected: two hours later by the real clock. Before, nothing was fetched and nothing said.
            let corrected = try run.update.runCapturing(["--now", "\(real + 7_200)"] + run.options)
            #expect(corrected.status == 0, "\(corrected.stderr)")
            #expect(corrected.stdout.contains("2 feed(s)"), "both fetched: \(corrected.stdout)")
            #expect(corrected.stdout.contains("the clock was wrong or has been set back; due now"), "\(corrected.stdout)")
            #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT DISTINCT when_unix_time FROM last_update") == [["\(real + 7_200)"]])
            // Then the schedule is the clock's again: an hour later nothing is due, and nothing is said.
            let quiet = try run.update.runCapturing(["--now", "\(real + 7_300)"] + run.options)
            #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout)")
        }
    }

    @Test func aBackoffWrittenByAFastClockIsNotWaitedOut() throws {
        let run = try BinaryRun(feeds: 1)
        let real: Int64 = 1_700_000_000
        #expect(try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml", "--now", "\(real)"] + run.options).status == 0)
        try tamper(run.data + "/all_feeds.sqlite", "UPDATE fetch_state SET next_attempt_unix_time = \(real + 31_536_000), consecutive_errors = 3")
        try tamper(run.data + "/all_feeds.sqlite", "UPDATE last_update SET when_unix_time = \(real - 7_200)")
        let result = try run.update.runCapturing(["--now", "\(real)"] + run.options)
        #expect(result.status == 0 && result.stdout.contains("1 feed(s)"), "\(result.stdout)")
        #expect(result.stdout.contains("further ahead than any wait Feedmill sets"), "\(result.stdout)")
    }

    @Test func countersAtTheLargestIntegerNeitherTrapNorStopBackoff() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        // Feed 2's URL now fails; its counters were written at the largest integer by hand.
        try tamper(run.data + "/all_feeds.sqlite", """
            UPDATE feeds SET url = url || '-gone' WHERE feedid = 2;
            UPDATE fetch_state SET consecutive_errors = 9223372036854775807, redirect_sightings = 9223372036854775807 WHERE feedid = 2;
            """)
        let result = try run.updateAll()
        #expect(result.status == 1, "a failure, not a trap: \(result.stderr)")
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT consecutive_errors, next_attempt_unix_time IS NOT NULL FROM fetch_state WHERE feedid = 2")
            == [["9223372036854775807", "1"]])
    }

    @Test(arguments: [["--now", "9223372036854775807"], ["--now", "253402300800"], ["--now", "-1"]])
    func aCurrentTimeOutsideYears1970To9999IsAUsageError(arguments: [String]) throws {
        let run = try BinaryRun(feeds: 1)
        let result = try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml"] + arguments + run.options)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: run.data + "/all_feeds.sqlite"), "refused before anything is written")
    }

    @Test func sourceDateEpochIsBoundedAsNowIs() throws {
        let run = try BinaryRun(feeds: 1)
        let refused = try run.create.runCapturing(
            ["--opml", run.server.baseURL + "/list.opml"] + run.options, environment: ["SOURCE_DATE_EPOCH": "9223372036854775807"])
        #expect(refused.status == 64 && refused.stderr.contains("SOURCE_DATE_EPOCH") && refused.stderr.contains("253402300799"), "\(refused.stderr)")
        let latest = try run.create.runCapturing(
            ["--opml", run.server.baseURL + "/list.opml"] + run.options, environment: ["SOURCE_DATE_EPOCH": "253402300799"])
        #expect(latest.status == 0, "the last second of 9999 is a time: \(latest.stderr)")
    }

    @Test func extremeTimesInTheCatalogNeitherTrapTheListNorStopPolling() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        try tamper(run.data + "/all_feeds.sqlite", """
            UPDATE last_update SET when_unix_time = 9223372036854775807 WHERE feedid = 1;
            UPDATE fetch_state SET last_success_unix_time = 9223372036854775807 WHERE feedid = 1;
            UPDATE fetch_state SET last_success_unix_time = -9223372036854775808, next_attempt_unix_time = 9223372036854775807,
                hint_interval_seconds = 9223372036854775807 WHERE feedid = 2;
            """)
        let feeds = Executable(name: "rss-feeds")
        for format in ["table", "json"] {
            let listed = try feeds.runCapturing(["list", "--format", format, "--data-dir", run.data])
            #expect(listed.status == 0, "\(format): \(listed.stderr)")
        }
        let table = try feeds.runCapturing(["list", "--data-dir", run.data])
        #expect(table.stdout.split(separator: "\n").filter { $0.contains(" now ") }.count == 2, "both due now: \(table.stdout)")
        let update = try run.update.runCapturing(run.options)
        #expect(update.status == 0 && update.stdout.contains("2 feed(s)"), "\(update.stdout) \(update.stderr)")
        // A last change after the run's clock is brought back to it, though the items did not change.
        let lastChange = try sqlite(run.data + "/all_feeds.sqlite", "SELECT when_unix_time FROM last_update WHERE feedid = 1")
        #expect(lastChange.first?.first.flatMap { $0.flatMap { Int64($0) } }.map { $0 < 9_223_372_036_854_775_807 } == true, "\(lastChange)")
    }
}
