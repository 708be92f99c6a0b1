import FeedBasics
import FeedStorage

/// The small pieces of text every part of `index.html` writes the same way: one date format,
/// numbers grouped by thousands, a feed's name, a message on one line.
enum PageText {
    /// `<time datetime="2026-11-27T07:55:12Z">2026-11-27 07:55 UTC</time>`: the one date
    /// format on the page (the stylesheet keeps a time on one line).
    /// A time outside the years 1000 to 9999 (a catalog value written by a clock gone wrong,
    /// or by hand) has no four-digit year, so no valid `datetime`: it is said as the number
    /// it is, not as a malformed element.
    static func time(_ seconds: Int64) -> String {
        guard representable.contains(seconds) else { return "<span class=\"time\">an impossible time (Unix \(seconds))</span>" }
        return "<time datetime=\"\(CivilDate.rfc3339(seconds))\">\(timeText(seconds))</time>"
    }

    /// 1000-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
    static let representable: ClosedRange<Int64> = -30_610_224_000...253_402_300_799

    /// `2026-11-27 07:55 UTC`.
    static func timeText(_ seconds: Int64) -> String {
        CivilDate.rfc3339(seconds).prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC"
    }

    /// `3,000`: the same on every machine (no locale).
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    /// The feed's title, else its OPML title, else its URL; escaped.
    static func name(of feed: CatalogFeed) -> String {
        Markup.escape(feed.title.flatMap { $0.isEmpty ? nil : $0 } ?? feed.state.opmlTitle ?? feed.url)
    }

    /// The feed's name, as a link to its site when it has a safe one.
    static func linkedName(of feed: CatalogFeed) -> String {
        let name = name(of: feed)
        return feed.state.siteLink.flatMap(WebLink.checked).map { "<a href=\"\(Markup.escape($0))\">\(name)</a>" } ?? name
    }

    /// `text` on one line (line breaks and runs of white space as one space), at most `limit`
    /// characters (cut with `…`); not escaped.
    static func oneLine(_ text: String, limit: Int = 200) -> String {
        let line = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return line.count <= limit ? line : String(line.prefix(limit - 1)) + "…"
    }
}
