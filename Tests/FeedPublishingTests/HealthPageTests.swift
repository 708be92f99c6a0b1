import FeedBasics
import FeedModel
@testable import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `index.html` as a health page, read as text: what it leads with, the order of the failing
/// feeds, one date format, everything escaped, the same bytes for the same input. The
/// browser's view (widths, dark mode, accessibility) is in HealthPageBrowserTests.
@Suite("health page")
struct HealthPageTests {
    @Test func theStatesAreTheCatalogsAsOneFunctionReadsThem() {
        func feed(_ id: Int64, _ change: (inout FetchState) -> Void) -> CatalogFeed {
            var feed = CatalogFeed(feedID: id, url: "https://x.example/\(id)")
            change(&feed.state)
            return feed
        }
        let feeds = [
            feed(1) { _ in },
            feed(2) { $0.lastAttempt = 10; $0.lastSuccess = 10 },
            feed(3) { $0.lastAttempt = 20; $0.lastSuccess = 5; $0.consecutiveErrors = 2; $0.lastErrorKind = .timeout; $0.lastError = "slow" },
            feed(4) { $0.lastAttempt = 20; $0.consecutiveErrors = 7; $0.lastErrorKind = .dns },
            feed(5) { $0.gone = true; $0.lastErrorKind = .gone; $0.consecutiveErrors = 1; $0.lastSuccess = 1 },
            feed(6) { $0.lastAttempt = 20; $0.lastSuccess = 3; $0.consecutiveErrors = 2; $0.lastErrorKind = .timeout },
        ]
        // A catalog from before fetch_state: only last_update says the feed was read.
        var old = CatalogFeed(feedID: 7, url: "https://x.example/7", lastUpdate: 30)
        old.state = FetchState()
        #expect(FeedHealth(old).state == .ok && FeedHealth(old).lastSuccess == 30)
        #expect(FeedHealth.State.of(gone: false, consecutiveErrors: 1, lastErrorKind: nil, lastAttempt: nil, lastSuccess: nil) == .failing)
        let summary = FeedHealthSummary(feeds)
        #expect(summary.feeds.map(\.state) == [.failing, .failing, .failing, .gone, .neverFetched, .ok])
        // Longest streak first; at equal streaks the older last success first.
        #expect(summary.feeds.map(\.feedID) == [4, 6, 3, 5, 1, 2])
        #expect(summary.byState.map(\.count) == [3, 1, 1, 1])
        #expect(summary.byState.map(\.state.rawValue) == ["failing", "gone", "never-fetched", "ok"])
        #expect(summary.failingByKind.count == FailureKind.allCases.count)
        #expect(summary.failingByKind.filter { $0.count > 0 }.map { "\($0.kind.rawValue)=\($0.count)" } == ["dns=1", "timeout=2"])
        #expect(summary.oldestSuccess == 3, "the gone feed's older success is left out")
        #expect(summary.feeds.first { $0.feedID == 3 }?.lastError == "slow")
        #expect(summary.feeds.first { $0.feedID == 2 }?.failureKind == nil)
    }

    @Test func thePageLeadsWithHealthAndListsFailingFeedsFirst() throws {
        var random = SeededGenerator.announced()
        let catalog = try HealthPageCatalog(count: 400, failing: 15, gone: 3, neverFetched: 5, random: &random)
        let page = try catalog.publishPage()
        #expect(page.contains("<html lang=\"en\">"))
        for landmark in ["<header>", "<nav aria-label=\"Sections\">", "<main>", "<footer>"] { #expect(page.contains(landmark), "\(landmark)") }
        #expect(page.contains("<li class=\"failing\"><strong>15</strong> failing</li>"))
        #expect(page.contains("<li class=\"gone\"><strong>3</strong> gone</li>"))
        #expect(page.contains("<li class=\"never-fetched\"><strong>5</strong> never fetched</li>"))
        #expect(page.contains("<li class=\"ok\"><strong>377</strong> ok</li>"))
        #expect(page.contains("<svg viewBox=") && page.contains("role=\"img\""))
        // Health, then the failing feeds, then the entries, then every feed (closed).
        let order = ["id=\"health\"", "id=\"failing\"", "id=\"entries\"", "id=\"feeds\"", "<details>"].map { page.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        #expect(!page.contains("<details open"))
        // The failing table's rows, in order: longest streak first.
        let listed = page.components(separatedBy: "data-feed=\"").dropFirst().compactMap { Int64($0.prefix { $0.isNumber }) }
        #expect(listed == catalog.failing + catalog.gone)
        // Headings in order: one h1, then h2s (h3 only under an h2).
        let headings = page.components(separatedBy: "<h").dropFirst().compactMap { $0.first?.wholeNumberValue }
        #expect(headings.first == 1 && headings.filter { $0 == 1 }.count == 1)
        #expect(zip(headings, headings.dropFirst()).allSatisfy { $1 <= $0 + 1 })
    }

    @Test func everyDateIsATimeElementInOneFormat() throws {
        var random = SeededGenerator.announced()
        let catalog = try HealthPageCatalog(count: 200, failing: 10, gone: 2, neverFetched: 4, random: &random)
        let page = try catalog.publishPage()
        let time = try Regex(#"<time datetime="(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):\d\dZ">(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d) UTC</time>"#)
        let times = page.matches(of: time)
        #expect(times.count > 200)
        for match in times {
            let parts = (1...10).map { match.output[$0].substring.map(String.init) ?? "" }
            #expect(parts[0..<5] == parts[5..<10], "the datetime and the text say the same minute")
        }
        // No date outside a <time>: take the elements out and no date-like text is left.
        let rest = page.replacing(time, with: "")
        #expect(rest.firstMatch(of: try Regex(#"\d{4}-\d\d-\d\d"#)) == nil)
        #expect(rest.firstMatch(of: try Regex(#"<time"#)) == nil)
        #expect(page.contains("published <time datetime=\"2026-11-27T07:55:00Z\">2026-11-27 07:55 UTC</time>"), "the run's clock")
        #expect(page.contains("time { white-space: nowrap; }"))
    }

    @Test func hostileTitlesAndErrorsStayText() throws {
        var random = SeededGenerator.announced()
        let catalog = try HealthPageCatalog(count: 200, failing: 30, gone: 2, neverFetched: 4, random: &random)
        let page = try catalog.publishPage()
        #expect(!page.contains("<script>alert") && !page.contains("<img src=x") && !page.contains("<b>bold"))
        #expect(!page.lowercased().contains("javascript:"))
        #expect(page.contains("&lt;img src=x onerror=alert(25)&gt; Feed 25"))
        #expect(page.contains("HTTP 503 &lt;script&gt;alert('x')&lt;/script&gt; Retry later &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;"),
            "the last error on one line, escaped")
        #expect(page.contains(String(repeating: "E", count: 119) + "…"), "a long error cut to one line")
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        var random = SeededGenerator.announced()
        let catalog = try HealthPageCatalog(count: 150, failing: 12, random: &random)
        let first = try catalog.publishPage()
        let other = try TemporaryDirectory()
        _ = try catalog.publish.publish(into: other.url.path)
        #expect(try String(contentsOfFile: other.url.path + "/index.html", encoding: .utf8) == first)
    }

    @Test func theFailingTableStopsAtItsLimitAndSaysWhereTheRestAre() {
        let feeds = (1...8).map { id -> CatalogFeed in
            var feed = CatalogFeed(feedID: Int64(id), url: "https://x.example/\(id)")
            feed.state.consecutiveErrors = id
            feed.state.lastErrorKind = .timeout
            return feed
        }
        let html = HealthSection.html(
            FeedHealthSummary(feeds), feeds: Dictionary(uniqueKeysWithValues: feeds.map { ($0.feedID, $0) }), now: 0, limit: 5)
        let listed = html.components(separatedBy: "data-feed=\"").dropFirst().compactMap { Int64($0.prefix { $0.isNumber }) }
        #expect(listed == [8, 7, 6, 5, 4])
        #expect(html.contains("Failing feeds (8)") && html.contains("<p>3 more are in <a href=\"#feeds\">all feeds</a>, in the same order.</p>"))
    }

    @Test func aCatalogWithNoFailureSaysSo() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 1)
        _ = try publish.publish()
        let page = try String(contentsOfFile: publish.outPath + "/index.html", encoding: .utf8)
        #expect(page.contains("Failing feeds (0)") && page.contains("<p>No feed is failing.</p>"))
        #expect(!page.contains("<table class=\"reflow\""))
        // A zero is not coloured as an alarm.
        #expect(page.contains("<li class=\"none\"><strong>0</strong> failing</li>"), "\(page)")
        #expect(page.contains("<li class=\"none\"><strong>0</strong> gone</li>"))
    }
}
