import FeedModel
@testable import FeedStorage
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// The parts of the catalog a publication that follows the change log reads (issue 51) must
/// say what reading every whole record says.
@Suite("Catalog: reading part of it")
struct CatalogSelectionsTests {
    /// A catalog of `count` feeds in every state, some with values of the wrong type written
    /// by hand (a whole record reads them as absent; so must the health columns).
    private func catalog(_ count: Int, random: inout SeededGenerator) throws -> Harness {
        let harness = try Harness()
        let ids = try harness.add((1...count).map { "https://h\($0 % 7).example/\($0).xml" })
        for id in ids {
            var feed = try harness.feed(id)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: break
            case 1:
                feed.state.lastAttempt = 100
                feed.state.lastSuccess = Int64.random(in: 1...100, using: &random)
            case 2, 3:
                feed.state.lastAttempt = 200
                feed.state.lastSuccess = Bool.random(using: &random) ? Int64.random(in: 1...100, using: &random) : nil
                feed.state.consecutiveErrors = Int.random(in: 1...4, using: &random)
                feed.state.lastErrorKind = [FailureKind.dns, .timeout, .storage][Int.random(in: 0..<3, using: &random)]
                feed.state.lastError = "failed \(id)"
            case 4:
                feed.state.gone = true
                feed.state.lastErrorKind = .gone
                feed.state.lastError = "HTTP 410"
            default:
                feed.lastUpdate = Int64.random(in: 1...100, using: &random)
                feed.title = "Feed \(id)"
            }
            try harness.catalog.save(feed)
        }
        let queue = try DatabaseQueue(path: harness.catalog.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE fetch_state SET consecutive_errors = 'many' WHERE feedid = ?", arguments: [ids[1]])
            try db.execute(sql: "UPDATE fetch_state SET last_success_unix_time = x'0102' WHERE feedid = ?", arguments: [ids[2]])
            try db.execute(sql: "UPDATE fetch_state SET last_error_kind = 'from-the-future', consecutive_errors = 2 WHERE feedid = ?", arguments: [ids[3]])
            try db.execute(sql: "UPDATE fetch_state SET gone = 'yes' WHERE feedid = ?", arguments: [ids[4]])
            try db.execute(sql: "UPDATE about SET title = 42 WHERE feedid = ?", arguments: [ids[5]])
            try db.execute(sql: "DELETE FROM fetch_state WHERE feedid = ?", arguments: [ids[6]])
            // Rows of no listed feed: one that reads as ok, one failing. Neither is counted.
            try db.execute(sql: "INSERT INTO fetch_state (feedid, last_attempt_unix_time, last_success_unix_time) VALUES (1000001, 5, 5)")
            try db.execute(sql: "INSERT INTO fetch_state (feedid, consecutive_errors, last_error_kind) VALUES (1000002, 3, 'dns')")
            // Reals: GRDB truncates one within Int64's range and reads any other as absent
            // (then `last_update` stands in for the last success); a real flag is true unless 0.
            let reals: [(column: String, value: Double)] = [
                ("last_success_unix_time", 1e300), ("last_success_unix_time", 42.9), ("consecutive_errors", 2.5),
                ("gone", 0.0), ("gone", 0.5), ("last_success_unix_time", -9_223_372_036_854_775_808.0),
                ("last_success_unix_time", 9_223_372_036_854_775_807.0), ("last_attempt_unix_time", -0.5),
            ]
            for (offset, real) in reals.enumerated() {
                let id = ids[7 + offset]
                try db.execute(sql: "UPDATE fetch_state SET \(real.column) = ? WHERE feedid = ?", arguments: [real.value, id])
                try db.execute(
                    sql: "INSERT INTO last_update (feedid, when_unix_time) VALUES (?, 77) ON CONFLICT(feedid) DO UPDATE SET when_unix_time = 77",
                    arguments: [id])
            }
        }
        return harness
    }

    @Test func theHealthColumnsSayWhatWholeRecordsSay() throws {
        var random = SeededGenerator.announced()
        let harness = try catalog(300, random: &random)
        let whole = FeedHealthSummary(try harness.catalog.feeds())
        let light = try harness.catalog.healthSummary()
        #expect(light == whole)
        #expect(light.byState.map(\.count) == whole.byState.map(\.count))
        #expect(light.failingByKind.map(\.count) == whole.failingByKind.map(\.count))
        #expect(whole.count(.failing) > 0 && whole.count(.gone) > 0 && whole.count(.ok) > 0 && whole.count(.neverFetched) > 0)
        // In any order, the same attention order.
        let shuffled = whole.feeds.shuffled(using: &random)
        #expect(FeedHealthSummary(health: shuffled) == whole)
        #expect(whole.feedCount == 300 && whole.feeds.count == 300)
    }

    /// Read through the health indexes (the feeds not plainly ok whole, the others by feedid and
    /// last success), the summary keeping a few ok feeds is the one every whole record gives;
    /// without the indexes (a catalog this Feedmill has not opened for writing), too.
    @Test(arguments: [0, 3, 40, 1_000])
    func theHealthIndexesSayWhatWholeRecordsSay(listing: Int) throws {
        var random = SeededGenerator.announced()
        let harness = try catalog(300, random: &random)
        let whole = FeedHealthSummary(try harness.catalog.feeds(), listing: listing)
        let queue = try DatabaseQueue(path: harness.catalog.path)
        let indexed = try queue.read { db in try CatalogHealthReading.summary(db, listing: listing) }
        #expect(indexed == whole)
        #expect(try harness.catalog.healthSummary(listing: listing) == whole)
        let notOK = 300 - whole.count(.ok)
        #expect(whole.feeds.count == notOK + Swift.min(listing, whole.count(.ok)))
        #expect(whole.feedCount == 300)

        try queue.write { db in
            try db.execute(sql: "DROP INDEX \(CatalogHealthReading.settledIndex); DROP INDEX \(CatalogHealthReading.unsettledIndex)")
        }
        #expect(try queue.read { db in try CatalogHealthReading.summary(db, listing: listing) } == nil)
        #expect(try Catalog(readingAt: harness.catalog.path).healthSummary(listing: listing) == whole)
        // Opened for writing, the catalog has them again.
        _ = try Catalog(path: harness.catalog.path)
        #expect(try queue.read { db in try CatalogHealthReading.hasIndexes(db) })
    }

    /// The settled index holds only rows whose every value says ok; a row changed to failing
    /// leaves it (SQLite keeps a partial index as the rows change, whoever writes them).
    @Test func aFeedThatStartsFailingLeavesTheSettledIndex() throws {
        let harness = try Harness()
        let ids = try harness.add(["https://a.example/1.xml", "https://a.example/2.xml"])
        for id in ids {
            var feed = try harness.feed(id)
            feed.state.lastAttempt = 10
            feed.state.lastSuccess = 10
            try harness.catalog.save(feed)
        }
        let queue = try DatabaseQueue(path: harness.catalog.path)
        func settled() throws -> [Int64] {
            try queue.read { db in
                try Int64.fetchAll(db, sql: "SELECT feedid FROM fetch_state INDEXED BY \(CatalogHealthReading.settledIndex) WHERE \(CatalogHealthReading.settled)")
            }
        }
        #expect(try settled() == ids)
        var failing = try harness.feed(ids[1])
        failing.state.consecutiveErrors = 1
        failing.state.lastErrorKind = .timeout
        try harness.catalog.save(failing)
        #expect(try settled() == [ids[0]])
        let summary = try harness.catalog.healthSummary(listing: 0)
        #expect(summary.feeds.map(\.feedID) == [ids[1]] && summary.count(.failing) == 1 && summary.count(.ok) == 1)
    }

    /// A failing feed that never succeeded comes before one whose last success is stored as
    /// Int64.min, in whatever order they are given (both read as `.min` once, and the page's
    /// order then depended on the rows' order).
    @Test func neverSucceededComesBeforeTheEarliestTimeInEitherOrder() {
        func failing(_ id: Int64, lastSuccess: Int64?) -> FeedHealth {
            FeedHealth(
                feedID: id, gone: false, consecutiveErrors: 2, lastErrorKind: .timeout, lastError: { nil }, lastAttempt: 1,
                nextAttempt: nil, lastSuccess: lastSuccess, lastUpdate: nil)
        }
        let never = failing(9, lastSuccess: nil), earliest = failing(3, lastSuccess: .min)
        #expect(FeedHealth.attentionOrder(never, earliest) && !FeedHealth.attentionOrder(earliest, never))
        #expect(FeedHealthSummary(health: [earliest, never]).feeds.map(\.feedID) == [9, 3])
        #expect(FeedHealthSummary(health: [never, earliest]).feeds.map(\.feedID) == [9, 3])
    }

    /// The attention order's ranks are the states' order, which the page and the metrics list
    /// them in (the feeds are put in place by rank as they are read).
    @Test func theRanksAreTheStatesOrder() {
        #expect(FeedHealth.State.allCases.map(\.rank) == Array(FeedHealth.State.allCases.indices))
    }

    @Test func recordsByIDByRangeAndTitlesAreThoseOfEveryRecord() throws {
        var random = SeededGenerator.announced()
        let harness = try catalog(120, random: &random)
        let every = try harness.catalog.feeds()
        #expect(try harness.catalog.feedIDs() == every.map(\.feedID))
        let chosen = Set(every.map(\.feedID).shuffled(using: &random).prefix(30))
        #expect(try harness.catalog.feeds(ids: chosen + [999_999, -4]) == every.filter { chosen.contains($0.feedID) })
        #expect(try harness.catalog.feeds(ids: []) == [])
        #expect(try harness.catalog.feeds(in: 10...19) == every.filter { (10...19).contains($0.feedID) })
        let titles = try harness.catalog.feedTitles()
        #expect(titles.map(\.feedID) == every.map(\.feedID) && titles.map(\.title) == every.map(\.title))
    }

    @Test func manyIDsAreReadInBatches() throws {
        let harness = try Harness()
        let ids = try harness.add((1...(Catalog.idsPerStatement + 50)).map { "https://many.example/\($0)" })
        let read = try harness.catalog.feeds(ids: ids)
        #expect(read.map(\.feedID) == ids.sorted())
    }
}
