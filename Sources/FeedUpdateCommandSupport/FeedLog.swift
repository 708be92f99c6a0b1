import FeedCommandSupport
import FeedPipeline
import Logging

/// One log line per feed, with the feed's metadata (feedid, url, status, duration) on it.
///
/// Levels decide who sees what: failures are errors (cron mails them); moves, gone feeds and
/// notes (a value repaired, a clock set back) are notices; updates are info and unchanged
/// feeds debug (`--verbose`).
public enum FeedLog {
    public static func log(_ feed: FeedReport, to logger: Logger) {
        var metadata: Logger.Metadata = [
            "feedid": "\(feed.feedID)",
            "url": .string(feed.url),
            "duration": .string(String(format: "%.3f", feed.duration)),
        ]
        if let status = feed.status { metadata["status"] = "\(status)" }
        if feed.bytes > 0 { metadata["bytes"] = "\(feed.bytes)" }
        switch feed.outcome {
        case .updated(let summary), .wouldUpdate(let summary):
            metadata["inserted"] = "\(summary.inserted)"
            metadata["changed"] = "\(summary.updated)"
            let verb = { if case .wouldUpdate = feed.outcome { return "would update" } else { return "updated" } }()
            logger.info("\(verb)", metadata: metadata)
        case .unchanged:
            logger.debug("unchanged", metadata: metadata)
        case .failed(let kind, let message):
            metadata["kind"] = .string(kind.rawValue)
            logger.error("failed: \(message)", metadata: metadata)
        case .gone:
            logger.notice("gone (HTTP 410): no longer fetched unless asked by --feed", metadata: metadata)
        case .interrupted:
            logger.notice("interrupted in flight; due next run", metadata: metadata)
        }
        for note in feed.notes {
            logger.notice("\(note)", metadata: metadata)
        }
        if let moved = feed.movedTo {
            metadata["to"] = .string(moved)
            logger.notice("moved after repeated permanent redirects", metadata: metadata)
        }
    }
}
