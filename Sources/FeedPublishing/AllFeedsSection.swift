import FeedBasics
import FeedStorage

/// Every feed, compactly, closed by default (`<details>`): one short row each (name, state,
/// items, last success), in the same attention order as the health section, so a page for
/// thousands of feeds stays short until someone opens the list. The table scrolls inside its
/// own box if a phone is too narrow for it, never the page.
enum AllFeedsSection {
    /// At most this many rows by default (those needing attention first): the page is
    /// rewritten by every publication, and listing a million feeds made it 230 MB (issue 51);
    /// 250 rows are about 50 KB (1,000 were 200 KB: a fifth of what one changed feed wrote at a
    /// million feeds). Past it, the catalog's pages and `rss-feeds list` have them all.
    static let rowLimit = 250

    static func html(_ summary: FeedHealthSummary, feeds: [Int64: CatalogFeed], itemCounts: [Int64: Int], limit: Int = rowLimit) -> String {
        var html = """
            <section aria-labelledby="feeds">
            <h2 id="feeds">All feeds</h2>
            <details>
            <summary>\(summary.feedCount > limit ? "Show the first \(PageText.grouped(Swift.max(0, limit))) of \(PageText.grouped(summary.feedCount)) feeds" : "Show all \(PageText.grouped(summary.feedCount)) feeds")</summary>
            <div class="scroll" role="region" aria-label="All feeds" tabindex="0">
            <table class="compact">
            <thead><tr><th scope="col">Feed</th><th scope="col">State</th><th scope="col" class="num">Items</th><th scope="col">Last success</th></tr></thead>
            <tbody>

            """
        for health in summary.feeds.prefix(Swift.max(0, limit)) {
            guard let feed = feeds[health.feedID] else { continue }
            let state = health.state == .failing ? "failing ×\(health.streak)" : HealthSection.words(health.state)
            html += "<tr><td>\(PageText.linkedName(of: feed))</td><td class=\"\(health.state.rawValue)\">\(state)</td>"
            html += "<td class=\"num\">\(PageText.grouped(itemCounts[feed.feedID] ?? 0))</td>"
            html += "<td>\(health.lastSuccess.map(PageText.time) ?? "never")</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</div>\n"
        if summary.feedCount > limit {
            html += "<p>The first \(PageText.grouped(Swift.max(0, limit))) are listed; <code>rss-feeds list</code> and the catalog's pages "
                + "(<a href=\"manifest.json\">manifest</a>, <code>catalog_index</code>) list all \(PageText.grouped(summary.feedCount)).</p>\n"
        }
        return html + "</details>\n</section>\n"
    }
}
