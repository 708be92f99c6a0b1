import FeedModel
import FeedStorage
import GRDB

/// One entry of the aggregated outputs, with the feed it came from.
struct AggregateEntry: Equatable {
    var feedID: Int64
    var feedTitle: String
    var feedURL: String
    var siteLink: String?
    var id: String
    var title: String
    var summary: String
    var permalink: String?
    var published: Int64
    var updated: Int64?
    var author: String?
    /// The feed gave no date: `published` is when Feedmill first saw the entry.
    var undated: Bool

    /// The newest `limit` entries across the published snapshots: newest first, then by
    /// feedid and id, so the order never depends on timing.
    static func newest(_ limit: Int, feeds: [(feed: CatalogFeed, snapshot: String)]) throws -> [AggregateEntry] {
        var entries: [AggregateEntry] = []
        for (feed, path) in feeds {
            let queue = try DatabaseQueue(path: path, configuration: Snapshot.readOnly)
            let rows = try queue.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, title, summary, permalink, pubdate_unix_time, updated_unix_time, author, pubdate_is_first_seen
                        FROM items ORDER BY pubdate_unix_time DESC, id LIMIT ?
                        """,
                    arguments: [limit])
            }
            for row in rows {
                entries.append(AggregateEntry(
                    feedID: feed.feedID, feedTitle: feed.title ?? feed.url, feedURL: feed.url, siteLink: feed.state.siteLink,
                    id: row["id"], title: row["title"], summary: row["summary"], permalink: row["permalink"],
                    published: row["pubdate_unix_time"], updated: row["updated_unix_time"], author: row["author"],
                    undated: row["pubdate_is_first_seen"] == 1))
            }
        }
        entries.sort { ($1.published, $0.feedID, $0.id) < ($0.published, $1.feedID, $1.id) }
        return Array(entries.prefix(limit))
    }
}

/// RFC 3339 UTC timestamps (`2024-11-04T09:12:44Z`) from seconds since the epoch.
enum RFC3339 {
    static func format(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// Howard Hinnant's `civil_from_days`.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Escaping for XML and HTML text and attribute values.
enum Markup {
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            default:
                // Characters XML 1.0 forbids are dropped rather than making the document invalid.
                if XMLCharacters.isAllowed(scalar) { output.unicodeScalars.append(scalar) }
            }
        }
        return output
    }
}
