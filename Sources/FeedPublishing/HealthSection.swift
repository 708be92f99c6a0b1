import FeedBasics
import FeedModel
import FeedStorage

/// What `index.html` leads with: the feeds' counts by state and by failure kind, the age
/// chart, then every failing or gone feed (longest streak first) with its last error, its next
/// attempt and its last success. Titles and errors are anything a feed or a server sent: all
/// escaped here.
enum HealthSection {
    /// At most this many rows in the failing feeds' table: past it (a network outage failing
    /// a third of 100,000 feeds) the rest are in the full list, and the page stays a page.
    static let attentionRows = 500

    static func html(_ summary: FeedHealthSummary, feeds: [Int64: CatalogFeed], now: Int64, limit: Int = attentionRows) -> String {
        var html = "<section aria-labelledby=\"health\">\n<h2 id=\"health\">Feed health</h2>\n<ul class=\"counts\">\n"
        for (state, count) in summary.byState {
            // A zero is not an alarm: only a state that has feeds wears its colour.
            html += "<li class=\"\(count > 0 ? state.rawValue : "none")\"><strong>\(PageText.grouped(count))</strong> \(words(state))</li>\n"
        }
        html += "</ul>\n"
        let kinds = summary.failingByKind.filter { $0.count > 0 }
        if !kinds.isEmpty {
            html += "<h3>Failing, by kind</h3>\n<ul class=\"kinds\">\n"
            for (kind, count) in kinds { html += "<li><code>\(kind.rawValue)</code> \(PageText.grouped(count))</li>\n" }
            html += "</ul>\n"
        }
        if let oldest = summary.oldestSuccess {
            html += "<p class=\"meta\">Oldest last success of a live feed: \(PageText.time(oldest)).</p>\n"
        }
        html += AgeChart.figure(AgeChart.buckets(summary, now: now))
        html += "</section>\n"
        html += attention(summary.feeds.filter { $0.state == .failing || $0.state == .gone }, feeds: feeds, now: now, limit: limit)
        return html
    }

    /// `failing`, `gone`, `never fetched`, `ok`.
    static func words(_ state: FeedHealth.State) -> String {
        state == .neverFetched ? "never fetched" : state.rawValue
    }

    /// The table of feeds that need a person, or a line saying none does. On a phone its rows
    /// become blocks (the stylesheet's `reflow`); the explicit roles keep it a table for
    /// assistive technology when they do.
    private static func attention(_ failing: [FeedHealth], feeds: [Int64: CatalogFeed], now: Int64, limit: Int) -> String {
        let goneCount = failing.filter { $0.state == .gone }.count
        let counted = "\(PageText.grouped(failing.count - goneCount))" + (goneCount > 0 ? ", and \(PageText.grouped(goneCount)) gone" : "")
        var html = "<section aria-labelledby=\"failing\">\n<h2 id=\"failing\">Failing feeds (\(counted))</h2>\n"
        guard !failing.isEmpty else { return html + "<p>No feed is failing.</p>\n</section>\n" }
        html += """
            <table class="reflow" role="table">
            <thead role="rowgroup"><tr role="row"><th role="columnheader" scope="col">Feed</th><th role="columnheader" scope="col">Failed runs</th>\
            <th role="columnheader" scope="col">Last error</th><th role="columnheader" scope="col">Next attempt</th>\
            <th role="columnheader" scope="col">Last success</th></tr></thead>
            <tbody role="rowgroup">

            """
        for health in failing.prefix(limit) {
            guard let feed = feeds[health.feedID] else { continue }
            let kind = health.failureKind.map { "<code>\($0.rawValue)</code> " } ?? ""
            let error = Markup.escape(PageText.oneLine(health.lastError ?? (health.state == .gone ? "gone (HTTP 410)" : ""), limit: 120))
            let next = health.state == .gone ? "not retried" : health.nextAttempt.flatMap { $0 > now ? PageText.time($0) : nil } ?? "next run"
            html += "<tr role=\"row\" data-state=\"\(health.state.rawValue)\" data-feed=\"\(health.feedID)\">"
            html += "<td role=\"cell\">\(PageText.linkedName(of: feed))<div class=\"url\">\(Markup.escape(feed.url))</div></td>"
            html += "<td role=\"cell\" class=\"num brief\" data-label=\"Failed runs\">\(PageText.grouped(health.streak))</td>"
            html += "<td role=\"cell\" class=\"error\" data-label=\"Last error\">\(kind)\(error)</td>"
            html += "<td role=\"cell\" class=\"brief\" data-label=\"Next attempt\">\(next)</td>"
            html += "<td role=\"cell\" class=\"brief\" data-label=\"Last success\">\(health.lastSuccess.map(PageText.time) ?? "never")</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        if failing.count > limit {
            html += "<p>\(PageText.grouped(failing.count - limit)) more are in <a href=\"#feeds\">all feeds</a>, in the same order.</p>\n"
        }
        return html + "</section>\n"
    }
}
