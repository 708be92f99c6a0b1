import FeedBasics
import FeedModel
import FeedPipeline
@testable import FeedStorage
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// The health page counts feeds from whole catalog records (``FeedHealthSummary``), the
/// metrics from seven columns (``FeedStateCount``, for speed): two readings of one catalog,
/// which must come to the same counts, or the page and an alert disagree about the same feeds.
@Suite("The health page and the metrics count the same feeds")
struct OneReadingOfFeedStateTests {
    @Test func bothReadingsGiveTheSameStatesKindsAndOldestSuccess() throws {
        var random = SeededGenerator.announced()
        let harness = try Harness()
        let now: Int64 = 1_795_766_100
        _ = try harness.add((1...600).map { "https://host\($0 % 37).example/\($0).xml" })
        let kinds: [FailureKind?] = [nil] + FailureKind.allCases.map { $0 }
        var rows: [CatalogFeed] = []
        for var feed in try harness.catalog.feeds() {
            // Every combination the catalog can hold, including those only a hand edit or an
            // older version writes (a streak without a kind, a kind without a streak, gone
            // with no kind, a last update without fetch_state's last success).
            feed.state.gone = Int.random(in: 0..<12, using: &random) == 0
            feed.state.consecutiveErrors = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 1...50, using: &random) : 0
            feed.state.lastErrorKind = kinds.randomElement(using: &random) ?? nil
            feed.state.lastAttempt = Bool.random(using: &random) ? now - Int64.random(in: 0...86_400, using: &random) : nil
            feed.state.lastSuccess = Bool.random(using: &random) ? now - Int64.random(in: 0...30 * 86_400, using: &random) : nil
            feed.lastUpdate = Int.random(in: 0..<4, using: &random) == 0 ? now - Int64.random(in: 0...60 * 86_400, using: &random) : nil
            rows.append(feed)
        }
        // And one feed in each state whatever the seed (one seed in ~50 left no feed never
        // fetched among the few neither failing nor gone).
        for (index, state) in FeedHealth.State.allCases.enumerated() {
            var feed = rows[index]
            (feed.state.gone, feed.state.consecutiveErrors, feed.state.lastErrorKind) = (state == .gone, state == .failing ? 3 : 0, nil)
            feed.state.lastAttempt = state == .neverFetched ? nil : now - 60
            feed.state.lastSuccess = state == .neverFetched || state == .failing ? nil : now - 60
            rows[index] = feed
        }
        try harness.catalog.queue.write { db in for feed in rows { try Catalog.save(feed, db: db) } }

        let page = try harness.catalog.health()
        let metrics = try FeedStateCount(catalog: harness.catalog, shard: .all, now: now)
        for (state, count) in page.byState {
            #expect(metrics.byState[state.rawValue] == count, "\(state)")
        }
        for (kind, count) in page.failingByKind {
            #expect(metrics.failingByKind[kind.rawValue] == count, "\(kind)")
        }
        #expect(metrics.oldestSuccess == page.oldestSuccess)
        #expect(page.byState.map(\.count).reduce(0, +) == 600)
        #expect(page.byState.allSatisfy { $0.count > 0 }, "every state is exercised: \(page.byState)")
    }
}
