import FeedBasics
import FeedStorage

/// Every feed, compactly, closed by default (`<details>`): one short row each (name, state,
/// items, last success), in the same attention order as the health section, so a page for
/// thousands of feeds stays short until someone opens the list. The table scrolls inside its
/// own box if a phone is too narrow for it, never the page.
enum AllFeedsSection {
    static func html(_ summary: FeedHealthSummary, feeds: [Int64: CatalogFeed], itemCounts: [Int64: Int]) -> String {
        var html = """
            <section aria-labelledby="feeds">
            <h2 id="feeds">All feeds</h2>
            <details>
            <summary>Show all \(PageText.grouped(summary.feeds.count)) feeds</summary>
            <div class="scroll" role="region" aria-label="All feeds" tabindex="0">
            <table class="compact">
            <thead><tr><th scope="col">Feed</th><th scope="col">State</th><th scope="col" class="num">Items</th><th scope="col">Last success</th></tr></thead>
            <tbody>

            """
        for health in summary.feeds {
            guard let feed = feeds[health.feedID] else { continue }
            let state = health.state == .failing ? "failing ×\(health.streak)" : HealthSection.words(health.state)
            html += "<tr><td>\(PageText.linkedName(of: feed))</td><td class=\"\(health.state.rawValue)\">\(state)</td>"
            html += "<td class=\"num\">\(PageText.grouped(itemCounts[feed.feedID] ?? 0))</td>"
            html += "<td>\(health.lastSuccess.map(PageText.time) ?? "never")</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</div>\n</details>\n</section>\n"
    }
}
