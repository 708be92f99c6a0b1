import ArgumentParser
import FeedBasics
import FeedPipeline
import FeedStorage
import Foundation

enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

/// `rss-feeds list` output: an aligned table for people, JSON for scripts.
enum FeedTable {
    static func render(_ feeds: [FeedListing], format: ListFormat, now: Int64) throws(PipelineError) -> String {
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(feeds) else {
                throw .storage(StorageError(path: "rss-feeds list", message: "the listing could not be encoded as JSON"))
            }
            return String(decoding: data, as: UTF8.self) + "\n"
        case .table:
            let header = ["ID", "TITLE", "ITEMS", "LAST SUCCESS", "NEXT DUE", "STATUS", "URL"]
            let rows = feeds.map { feed in
                [
                    String(feed.feedID), clip(feed.title ?? "(not read yet)", 32), feed.items.map(String.init) ?? "-",
                    feed.lastSuccess.map(time) ?? "never", feed.nextDue.map { $0 <= now ? "now" : time($0) } ?? "-",
                    status(feed), feed.url,
                ]
            }
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            let lines = ([header] + rows).map { row in
                row.enumerated().map { column, cell in
                    column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                }.joined(separator: "  ")
            }
            return lines.joined(separator: "\n") + "\n" + "\(feeds.count) feed(s)\n"
        }
    }

    /// `ok`, `gone`, or `failing ×3: timeout (the message)`.
    static func status(_ feed: FeedListing) -> String {
        if feed.gone { return "gone" }
        guard feed.consecutiveErrors > 0 else { return feed.lastSuccess == nil ? "new" : "ok" }
        return "failing ×\(feed.consecutiveErrors): \(feed.lastErrorKind ?? "error")" + (feed.lastError.map { " (\(clip($0, 60)))" } ?? "")
    }

    static func describe(_ retention: Retention) -> String {
        var parts: [String] = []
        if let items = retention.keepItems { parts.append("at most \(items) items") }
        if let days = retention.keepDays { parts.append("items of the last \(days) days") }
        return parts.isEmpty ? "what the run's settings keep" : parts.joined(separator: " and ")
    }

    /// `2023-11-14 22:13Z`.
    static func time(_ seconds: Int64) -> String {
        let text = CivilDate.rfc3339(seconds)
        return String(text.prefix(16)).replacingOccurrences(of: "T", with: " ") + "Z"
    }

    static func clip(_ text: String, _ length: Int) -> String {
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return oneLine.count <= length ? oneLine : String(oneLine.prefix(length - 1)) + "…"
    }
}
