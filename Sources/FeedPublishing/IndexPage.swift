import FeedBasics
import Foundation
import FeedStorage

/// `index.html`: what a person reads — the newest entries, each with a short plain-text
/// excerpt, then every feed with its last successful update and its current error, if any.
enum IndexPage {
    static func document(_ entries: [AggregateEntry], feeds: [CatalogFeed], itemCounts: [Int64: Int], title: String) -> String {
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Markup.escape(title))</title>
            <link rel="alternate" type="application/atom+xml" href="atom.xml" title="\(Markup.escape(title))">
            <style>
            body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
            h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
            h2 { font-size: 1.2rem; margin-top: 2.5rem; border-bottom: 1px solid #ddd; padding-bottom: 0.3rem; }
            .meta, .source { color: #666; font-size: 0.85rem; }
            ol.entries { list-style: none; padding: 0; }
            ol.entries li { margin: 0.9rem 0; }
            .excerpt { margin: 0.15rem 0; color: #333; font-size: 0.92rem; }
            ol.entries a { font-weight: 600; color: #0b57d0; text-decoration: none; }
            table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
            th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid #eee; vertical-align: top; }
            td.num { text-align: right; }
            .ok { color: #137333; }
            .error { color: #b3261e; }
            </style>
            </head>
            <body>
            <h1>\(Markup.escape(title))</h1>
            <p class="meta">\(feeds.count) feeds · newest entries first · <a href="atom.xml">Atom feed</a> · <a href="manifest.json">manifest</a></p>
            <h2>Newest entries</h2>
            <ol class="entries">

            """
        for entry in entries {
            let heading = Markup.escape(entry.title.isEmpty ? "(untitled)" : entry.title)
            let link = entry.permalink.flatMap(WebLink.checked).map { "<a href=\"\(Markup.escape($0))\">\(heading)</a>" } ?? "<strong>\(heading)</strong>"
            let date = (entry.undated ? "first seen " : "") + CivilDate.rfc3339(entry.published).prefix(10)
            let byline = [Markup.escape(entry.feedTitle), entry.author.map(Markup.escape), date]
                .compactMap { $0 }.joined(separator: " · ")
            let excerpt = Excerpt.of(summaryHTML: entry.summary)
            let excerptLine = excerpt.isEmpty ? "" : "<p class=\"excerpt\">\(Markup.escape(excerpt))</p>"
            html += "<li>\(link)\(excerptLine)<div class=\"source\">\(byline)</div></li>\n"
        }
        html += """
            </ol>
            <h2>Feeds</h2>
            <table>
            <thead><tr><th>Feed</th><th>Items</th><th>Last successful update</th><th>Status</th></tr></thead>
            <tbody>

            """
        for feed in feeds {
            let name = Markup.escape(feed.title.flatMap { $0.isEmpty ? nil : $0 } ?? feed.state.opmlTitle ?? feed.url)
            let cell = feed.state.siteLink.flatMap(WebLink.checked).map { "<a href=\"\(Markup.escape($0))\">\(name)</a>" } ?? name
            let updated = feed.state.lastSuccess.map { CivilDate.rfc3339($0).replacingOccurrences(of: "T", with: " ") } ?? "never"
            let status: String
            if feed.state.gone {
                status = "<span class=\"error\">gone (HTTP 410)</span>"
            } else if let kind = feed.state.lastErrorKind {
                status = "<span class=\"error\">\(Markup.escape(kind.rawValue)): \(Markup.escape(feed.state.lastError ?? ""))</span>"
            } else {
                status = "<span class=\"ok\">ok</span>"
            }
            html += "<tr><td>\(cell)<div class=\"source\">\(Markup.escape(feed.url))</div></td><td class=\"num\">\(itemCounts[feed.feedID] ?? 0)</td><td>\(updated)</td><td>\(status)</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</body>\n</html>\n"
        return html
    }
}

