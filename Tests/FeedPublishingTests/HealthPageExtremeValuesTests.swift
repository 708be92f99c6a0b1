@testable import FeedPublishing
import FeedModel
import FeedStorage
import Foundation
import Testing

/// A catalog's times and counts are whatever was stored: a clock gone wrong, a value written
/// by hand, a streak of millions. The health page must still be a well-formed page with a
/// valid `datetime` on every `<time>`, and the same bytes for the same input.
@Suite("The health page with extreme stored values")
struct HealthPageExtremeValuesTests {
    @Test func everyTimeElementHasAValidDatetimeWhateverTheCatalogHolds() throws {
        let extremes: [Int64] = [.min, .max, -1, 0, -62_135_596_801, -30_610_224_001, 253_402_300_800, 1_795_766_100]
        let feeds = extremes.enumerated().map { index, value -> CatalogFeed in
            var feed = CatalogFeed(feedID: Int64(index + 1), url: "https://x.example/\(index)")
            feed.state.consecutiveErrors = index == 0 ? Int.max : 1_000_000 + index
            feed.state.lastErrorKind = .timeout
            feed.state.lastSuccess = value
            feed.state.nextAttempt = value
            feed.state.lastAttempt = value
            return feed
        }
        let byID = Dictionary(uniqueKeysWithValues: feeds.map { ($0.feedID, $0) })
        for now in [Int64.min, 0, 1_795_766_100, Int64.max] {
            let html = HealthSection.html(FeedHealthSummary(feeds), feeds: byID, now: now)
                + AllFeedsSection.html(FeedHealthSummary(feeds), feeds: byID, itemCounts: [1: .max])
            let datetimes = html.matches(of: #/<time datetime="([^"]*)">/#).map { String($0.output.1) }
            #expect(!datetimes.isEmpty)
            for value in datetimes {
                #expect(value.wholeMatch(of: #/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/#) != nil, "\(value)")
            }
            #expect(html.contains("an impossible time (Unix \(Int64.max))"))
            #expect(html.contains("an impossible time (Unix -30610224001)"))
            #expect(html.contains("<time datetime=\"2026-11-27T07:55:00Z\">2026-11-27 07:55 UTC</time>"))
            #expect(html == HealthSection.html(FeedHealthSummary(feeds), feeds: byID, now: now)
                + AllFeedsSection.html(FeedHealthSummary(feeds), feeds: byID, itemCounts: [1: .max]), "the same bytes")
        }
        #expect(PageText.time(-30_610_224_000) == "<time datetime=\"1000-01-01T00:00:00Z\">1000-01-01 00:00 UTC</time>")
        #expect(PageText.time(253_402_300_799) == "<time datetime=\"9999-12-31T23:59:59Z\">9999-12-31 23:59 UTC</time>")
    }

    @Test func noFeedsAtAllIsAPageToo() {
        let html = HealthSection.html(FeedHealthSummary([]), feeds: [:], now: 1_795_766_100)
        #expect(html.contains("<strong>0</strong> failing") && html.contains("<p>No feed is failing.</p>"))
        #expect(!html.contains("Oldest last success"))
    }
}

/// `index.html`'s list of every feed stops at its row limit (issue 51: a million rows made the
/// page 230 MB, rewritten by every publication), those needing attention first, and says where
/// the rest are.
@Suite("index.html: the list of every feed at scale")
struct AllFeedsLimitTests {
    @Test func theListStopsAtItsLimitAndSaysWhereTheRestAre() {
        var feeds = (1...30).map { CatalogFeed(feedID: Int64($0), url: "https://feeds.example/\($0).xml", title: "Feed \($0)") }
        feeds[24].state.consecutiveErrors = 3
        feeds[24].state.lastStatus = 500
        let byID = Dictionary(uniqueKeysWithValues: feeds.map { ($0.feedID, $0) })
        let summary = FeedHealthSummary(feeds)
        let capped = AllFeedsSection.html(summary, feeds: byID, itemCounts: [:], limit: 10)
        #expect(capped.components(separatedBy: "<tr><td>").count - 1 == 10)
        #expect(capped.contains("Show the first 10 of 30 feeds") && capped.contains("list all 30"))
        #expect(capped.contains("Feed 25"), "a failing feed is among the first listed")
        let whole = AllFeedsSection.html(summary, feeds: byID, itemCounts: [:], limit: 30)
        #expect(whole.components(separatedBy: "<tr><td>").count - 1 == 30 && whole.contains("Show all 30 feeds") && !whole.contains("list all"))
    }
}
