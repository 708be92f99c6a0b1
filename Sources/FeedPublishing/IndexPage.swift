import FeedBasics
import FeedStorage

/// `index.html`: what a person opens first. It leads with the feeds' health (counts by state
/// and failure kind, a chart of how old the last successes are, the failing feeds with their
/// streak, last error and next attempt), then the newest entries, then every feed in a list
/// closed by default. One file, no script; light and dark schemes; landmarks, one date format
/// in `<time>` elements. `now` is the run's clock, so the same input gives the same bytes.
enum IndexPage {
    /// `feeds`: the records of the feeds the page names (``listedFeedIDs(_:)``), or more.
    static func document(
        _ entries: [AggregateEntry], health summary: FeedHealthSummary, feeds byID: [Int64: CatalogFeed], itemCounts: [Int64: Int],
        title: String, now: Int64, listedFeeds: Int = AllFeedsSection.rowLimit
    ) -> String {
        let failing = summary.count(.failing)
        let title = Markup.escape(title)
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(failing > 0 ? "(\(PageText.grouped(failing)) failing) " : "")\(title)</title>
            <link rel="alternate" type="application/atom+xml" href="atom.xml" title="\(title)">
            <style>
            \(IndexPageStyle.css)
            </style>
            </head>
            <body>
            <header>
            <h1>\(title)</h1>
            <p class="meta">\(PageText.grouped(summary.feedCount)) feeds · published \(PageText.time(now)) · <a href="atom.xml">Atom feed</a> · <a href="manifest.json">manifest</a></p>
            </header>
            <nav aria-label="Sections">
            <ul><li><a href="#health">Health</a></li><li><a href="#failing">Failing feeds</a></li><li><a href="#entries">Newest entries</a></li><li><a href="#feeds">All feeds</a></li></ul>
            </nav>
            <main>

            """
        html += HealthSection.html(summary, feeds: byID, now: now)
        html += "<section aria-labelledby=\"entries\">\n<h2 id=\"entries\">Newest entries</h2>\n<ol class=\"entries\">\n"
        for entry in entries {
            let heading = Markup.escape(entry.title.isEmpty ? "(untitled)" : entry.title)
            let link = entry.permalink.flatMap(WebLink.checked).map { "<a href=\"\(Markup.escape($0))\">\(heading)</a>" } ?? "<strong>\(heading)</strong>"
            let date = (entry.undated ? "first seen " : "") + PageText.time(entry.published)
            let byline = [Markup.escape(entry.feedTitle), entry.author.map(Markup.escape), date]
                .compactMap { $0 }.joined(separator: " · ")
            let excerpt = Excerpt.of(summaryHTML: entry.summary)
            let excerptLine = excerpt.isEmpty ? "" : "<p class=\"excerpt\">\(Markup.escape(excerpt))</p>"
            html += "<li>\(link)\(excerptLine)<div class=\"source\">\(byline)</div></li>\n"
        }
        html += "</ol>\n</section>\n"
        html += AllFeedsSection.html(summary, feeds: byID, itemCounts: itemCounts, limit: listedFeeds)
        html += """
            </main>
            <footer>
            <p class="meta">Written by Feedmill at \(PageText.time(now)) from the catalog and the published snapshots.</p>
            </footer>
            </body>
            </html>

            """
        return html
    }

    /// The feeds the page names by their records: the failing and gone feeds of the health
    /// section, and the first feeds of the list of all feeds.
    static func listedFeedIDs(_ summary: FeedHealthSummary, listedFeeds: Int = AllFeedsSection.rowLimit) -> [Int64] {
        let attention = summary.feeds.lazy.filter { $0.state == .failing || $0.state == .gone }.prefix(HealthSection.attentionRows)
        return Array(Set(attention.map(\.feedID)).union(summary.feeds.prefix(Swift.max(0, listedFeeds)).map(\.feedID)))
    }
}
