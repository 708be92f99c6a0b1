import FeedModel
import FeedPipeline
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A due run finds its feeds by the schedule's index (issue 51): it reads only the due
/// feeds' rows, and chooses exactly what reading every feed would have chosen.
@Suite("rss-update: the due feeds found by their next due time", .serialized)
struct ScheduleIndexTests {
    private static func document(_ id: Int, items: Int) -> String {
        rss("Feed \(id)", items: (0..<items).map { ("f\(id)-\($0)", "Entry \($0)", nil, nil) })
    }

    /// What reading every feed chooses now: the pure rule over the whole catalog.
    private static func expectedDue(_ harness: Harness, configuration: PipelineConfiguration) throws -> Set<Int64> {
        let feeds = try harness.catalog.feeds()
        let withoutDatabase = Set(feeds.filter { $0.lastUpdate != nil && !FileManager.default.fileExists(atPath: harness.databasePath($0.feedID)) }.map(\.feedID))
        return Set(UpdateSchedule.select(feeds, .due(limit: nil), now: harness.now, configuration: configuration, withoutDatabase: withoutDatabase).map(\.feedID))
    }

    @Test func dueRunsChooseWhatReadingEveryFeedChoosesAndReadOnlyTheDueFeeds() throws {
        var generator = SeededGenerator.announced()
        let harness = try Harness()
        let server = try FeedServer()
        let count = 16
        var items = [Int](repeating: 1, count: count + 1)
        for id in 1...count { server.set("/\(id).xml", Self.document(id, items: 1)) }
        _ = try harness.add((1...count).map { server.url("/\($0).xml") })
        var configuration = harness.configuration
        configuration.staleAfter = 1_800
        configuration.backoffBase = 600
        _ = try harness.update(.due(limit: nil), configuration: configuration)
        var byIndex = 0
        var setBack = false
        for step in 1...30 {
            harness.now += Int64.random(in: 0...2_400, using: &generator)
            // What the feeds answer this time: a new entry, an error, gone, or the same (a 304).
            for id in 1...count {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<3:
                    items[id] += 1
                    server.override("/\(id).xml", nil)
                    server.set("/\(id).xml", Self.document(id, items: items[id]))
                case 3: server.override("/\(id).xml", .init(status: 500))
                case 4 where step % 7 == 0: server.override("/\(id).xml", .init(status: 410))
                default: server.override("/\(id).xml", nil)
                }
            }
            // Sometimes a person: a backoff cleared by hand, the clock set back once, a new feed.
            switch Int.random(in: 0..<8, using: &generator) {
            case 0:
                let id = Int.random(in: 1...count, using: &generator)
                try tamper(harness.directory.url.path + "/all_feeds.sqlite", "UPDATE fetch_state SET next_attempt_unix_time = NULL WHERE feedid = \(id)")
            case 1 where step > 20 && !setBack:
                harness.now -= 3_600
                setBack = true
            case 2 where step == 12:
                server.set("/extra.xml", Self.document(99, items: 2))
                _ = try harness.add([server.url("/extra.xml")])
            default: break
            }
            let expected = try Self.expectedDue(harness, configuration: configuration)
            let ran = try harness.update(.due(limit: nil), configuration: configuration)
            #expect(Set(ran.feeds.map(\.feedID)) == expected, "step \(step) at \(harness.now): \(ran.report.chosenByIndex ? "by the index" : "every feed read")")
            // How few rows a run reads is checked where it can be told exactly (below): here the
            // stored times are lower bounds (a clock set back, a row edited by hand), so a run
            // may read a few rows more than it fetches.
            if ran.report.chosenByIndex { byIndex += 1 }
        }
        // The others read every feed: after a clock set back (until it passes the latest run's
        // time) and after a feed was added.
        #expect(byIndex >= 15, "runs used the index (\(byIndex) of 30)")
    }

    @Test func everyFeedIsReadWhenTheIndexCannotBeTrusted() throws {
        let harness = try Harness()
        let server = try FeedServer()
        for id in 1...6 { server.set("/\(id).xml", Self.document(id, items: 1)) }
        let ids = try harness.add((1...6).map { server.url("/\($0).xml") })
        #expect(try harness.update().report.chosenByIndex == false, "the first run reads every feed")
        harness.now += 600
        let quiet = try harness.update()
        #expect(quiet.report.chosenByIndex && quiet.report.feedsRead == 0 && quiet.feeds.isEmpty, "nothing due, nothing read")

        // Other settings: every stored time is computed again, and the feeds due by them fetched.
        var shorter = harness.configuration
        shorter.staleAfter = 300
        let resettled = try harness.update(.due(limit: nil), configuration: shorter)
        #expect(!resettled.report.chosenByIndex && resettled.feeds.count == 6)
        harness.now += 400
        let next = try harness.update(.due(limit: nil), configuration: shorter)
        #expect(next.report.chosenByIndex && next.feeds.count == 6, "due again after 300 s, found by the index")

        // A backoff written by hand far ahead: the row's time is unknown, so the feed is read.
        harness.now += 60
        try tamper(harness.directory.url.path + "/all_feeds.sqlite", "UPDATE fetch_state SET next_attempt_unix_time = \(harness.now + 999_999_999) WHERE feedid = \(ids[0])")
        let edited = try harness.update(.due(limit: nil), configuration: shorter)
        #expect(edited.report.chosenByIndex && edited.report.feedsRead == 1, "\(edited.report.feedsRead)")
        #expect(edited.feeds.map(\.feedID) == [ids[0]], "further ahead than any wait Feedmill sets: due now")

        // A feed added: its URL may be another's, so every feed is read once.
        _ = try harness.add([server.url("/1.xml?again")])
        #expect(try !harness.update(.due(limit: nil), configuration: shorter).report.chosenByIndex)

        // A clock set back: stored times cannot be trusted.
        harness.now -= 7_200
        #expect(try !harness.update(.due(limit: nil), configuration: shorter).report.chosenByIndex)
        // Until the clock is past the latest time a run ran at.
        harness.now += 7_200 + 60
        #expect(try harness.update(.due(limit: nil), configuration: shorter).report.chosenByIndex)
    }

    /// Rows whose schedule was changed by hand (their next due time unknown) are read by the
    /// index's next run, which gives those it does not fetch their time: the run after reads
    /// only what is due (issue 51: such rows stayed unknown and every due run read them).
    @Test func rowsChangedByHandAreReadOnceNotByEveryRun() throws {
        let harness = try Harness()
        let server = try FeedServer()
        for id in 1...20 { server.set("/\(id).xml", Self.document(id, items: 1)) }
        let ids = try harness.add((1...20).map { server.url("/\($0).xml") })
        _ = try harness.update()
        harness.now += 600
        #expect(try harness.update().report.chosenByIndex)
        // Every row's last success rewritten by hand (as a tool would), the first two made due.
        try tamper(harness.directory.url.path + "/all_feeds.sqlite", "UPDATE fetch_state SET last_success_unix_time = last_success_unix_time + 1")
        try tamper(harness.directory.url.path + "/all_feeds.sqlite",
            "UPDATE fetch_state SET last_success_unix_time = \(harness.now - 86_400) WHERE feedid IN (\(ids[0]), \(ids[1]))")
        harness.now += 60
        let first = try harness.update()
        #expect(first.report.chosenByIndex && first.report.feedsRead == 20 && Set(first.feeds.map(\.feedID)) == [ids[0], ids[1]], "\(first.report)")
        harness.now += 60
        let second = try harness.update()
        #expect(second.report.chosenByIndex && second.report.feedsRead == 0 && second.feeds.isEmpty, "\(second.report)")
        #expect(try Self.expectedDue(harness, configuration: harness.configuration).isEmpty)

        // The same by a run that reads every feed (a feed added): the rows it reads without a
        // time get one, and the index's next run reads nothing.
        try tamper(harness.directory.url.path + "/all_feeds.sqlite", "UPDATE fetch_state SET last_success_unix_time = last_success_unix_time + 1")
        server.set("/21.xml", Self.document(21, items: 1))
        _ = try harness.add([server.url("/21.xml")])
        harness.now += 60
        let full = try harness.update()
        #expect(!full.report.chosenByIndex && full.feeds.count == 1, "\(full.report)")
        harness.now += 60
        let after = try harness.update()
        #expect(after.report.chosenByIndex && after.report.feedsRead == 0, "\(after.report)")
    }

    @Test func aFeedListedTwiceIsRefusedByRunsThatUseTheIndexToo() throws {
        let harness = try Harness()
        let server = try FeedServer()
        server.set("/a.xml", Self.document(1, items: 1))
        _ = try harness.add([server.url("/a.xml")])
        // Written by hand: the same feed under a second spelling.
        try tamper(harness.directory.url.path + "/all_feeds.sqlite", "INSERT INTO feeds (feedid, url) VALUES (2, '\(server.url("/a.xml#again"))')")
        let first = try harness.update()
        #expect(!first.report.chosenByIndex && first.report.tally.failed == 1)
        // The first run read every feed before it saved the one added by hand: the next reads
        // every feed again, and records that each has its row; the one after uses the index.
        harness.now += 100_000
        #expect(try !harness.update().report.chosenByIndex)
        harness.now += 100_000
        let later = try harness.update()
        #expect(later.report.chosenByIndex)
        let refused = try #require(later.feeds.first { $0.feedID == 2 })
        guard case .failed(let kind, _) = refused.outcome else { Issue.record("\(refused.outcome)"); return }
        #expect(kind == .duplicate)
    }
}
