import FeedModel
import FeedPublishing
@testable import FeedStorage
import GRDB
import Foundation
import PipelineTestSupport
import TestSupport

/// A catalog shaped like the issue's: `count` feeds of which `failing` fail (random streaks,
/// kinds, next attempts and last successes from a seeded generator), a few gone and never
/// fetched, the rest ok; some feeds with entries. Titles, site links and errors include
/// hostile text (markup, `javascript:` links, unbroken 150-character words that would push a
/// phone's page sideways). Rows are written through the catalog (real SQLite files), not by
/// fetching thousands of feeds.
struct HealthPageCatalog {
    /// 2026-11-27 07:55 UTC: the run's clock.
    static let now: Int64 = 1_795_766_100

    let publish: PublishHarness
    /// The failing feeds, in the order the page must list them: longest streak first, then the
    /// oldest last success (never first), then feedid.
    let failing: [Int64]
    let gone: [Int64]
    let neverFetched: [Int64]

    init(count: Int, failing failingCount: Int, gone goneCount: Int = 10, neverFetched neverCount: Int = 40, random: inout SeededGenerator) throws {
        publish = try PublishHarness()
        publish.harness.now = Self.now
        let ids = try publish.harness.add((1...count).map { "https://host\($0 % 97).example/feeds/\($0).xml" })
        var shuffled = ids.shuffled(using: &random)
        let failingIDs = Set(shuffled.prefix(failingCount))
        shuffled.removeFirst(failingCount)
        let goneIDs = Set(shuffled.prefix(goneCount))
        shuffled.removeFirst(goneCount)
        let neverIDs = Set(shuffled.prefix(neverCount))
        let kinds: [FailureKind] = [.timeout, .dns, .httpStatus, .notAFeed, .tls, .connect, .tooLarge]
        let errors = [
            "the operation timed out after 30 s",
            "HTTP 503 <script>alert('x')</script>\nRetry later\n\"quoted\" & <b>bold</b>",
            "could not resolve host: " + String(repeating: "very-long-label-", count: 12) + "example",
            String(repeating: "E", count: 400),
        ]
        var expected: [(id: Int64, streak: Int, success: Int64?)] = []
        var rows: [CatalogFeed] = []
        for var feed in try publish.harness.catalog.feeds() {
            let id = feed.feedID
            switch id % 25 {
            case 0: feed.title = "<img src=x onerror=alert(\(id))> Feed \(id)"
            case 1: feed.title = String(repeating: "W", count: 150)
            case 2: feed.title = nil
            default: feed.title = "Feed \(id) on host \(id % 97)"
            }
            feed.state.siteLink = id % 31 == 0 ? "javascript:alert(\(id))" : "https://site\(id % 97).example/"
            if failingIDs.contains(id) {
                feed.state.consecutiveErrors = Int.random(in: 1...40, using: &random)
                feed.state.lastErrorKind = kinds.randomElement(using: &random)
                feed.state.lastError = errors.randomElement(using: &random)
                feed.state.lastAttempt = Self.now - 600
                feed.state.nextAttempt = Bool.random(using: &random) ? Self.now + Int64.random(in: 60...172_800, using: &random) : nil
                feed.state.lastSuccess = Int.random(in: 0..<5, using: &random) == 0 ? nil : Self.now - Int64.random(in: 3_600...40 * 86_400, using: &random)
                expected.append((id, feed.state.consecutiveErrors, feed.state.lastSuccess))
            } else if goneIDs.contains(id) {
                feed.state.gone = true
                feed.state.lastErrorKind = .gone
                feed.state.lastError = "the publisher says the feed is gone (HTTP 410)"
                feed.state.consecutiveErrors = 3
                feed.state.lastAttempt = Self.now - 600
                feed.state.lastSuccess = Self.now - 30 * 86_400
            } else if !neverIDs.contains(id) {
                feed.state.lastAttempt = Self.now - Int64.random(in: 0...7_200, using: &random)
                feed.state.lastSuccess = Self.now - Int64.random(in: 0...(id % 10 == 0 ? 9 * 86_400 : 20_000), using: &random)
                feed.lastUpdate = feed.state.lastSuccess
            }
            rows.append(feed)
        }
        // One transaction for all rows (Catalog.save is one per feed: minutes for thousands here).
        try publish.harness.catalog.queue.write { db in for feed in rows { try Catalog.save(feed, db: db) } }
        failing = expected.sorted { a, b in
            if a.streak != b.streak { return a.streak > b.streak }
            if a.success != b.success { return (a.success ?? .min) < (b.success ?? .min) }
            return a.id < b.id
        }.map(\.id)
        gone = goneIDs.sorted()
        neverFetched = neverIDs.sorted()
        // Entries for the newest-entries list: long titles, markup in summaries.
        for id in ids.prefix(60) where !neverIDs.contains(id) {
            try publish.write(id, (0..<2).map { n in
                entry("e\(id)-\(n)", title: n == 0 ? "Entry \(id) <script>alert(1)</script>" : String(repeating: "Longword", count: 20),
                    pubdate: Self.now - id * 600 - Int64(n) * 60, summary: "<p>Summary of entry \(n) of feed \(id), <b>with</b> markup.</p>")
            })
        }
    }

    func publishPage() throws -> String {
        _ = try publish.publish()
        return try String(contentsOfFile: publish.outPath + "/index.html", encoding: .utf8)
    }
}
