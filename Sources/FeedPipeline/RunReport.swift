import FeedStorage

/// What happened to one feed in a run.
public struct FeedReport: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case updated(UpsertSummary)
        case unchanged
        case failed(kind: String, message: String)
        case gone
        /// `--dry-run`: what an update would have written.
        case wouldUpdate(UpsertSummary)
    }

    public var feedID: Int64
    public var url: String
    public var outcome: Outcome
    public var bytes: Int
    public var duration: Double
    /// The catalog URL was moved here after repeated permanent redirects.
    public var movedTo: String?

    public init(feedID: Int64, url: String, outcome: Outcome, bytes: Int = 0, duration: Double = 0, movedTo: String? = nil) {
        self.feedID = feedID
        self.url = url
        self.outcome = outcome
        self.bytes = bytes
        self.duration = duration
        self.movedTo = movedTo
    }
}

/// A whole run: per-feed reports in feedid order, totals, and the exit code.
public struct RunReport: Sendable, Equatable {
    public var feeds: [FeedReport]
    public var duration: Double

    public init(feeds: [FeedReport], duration: Double) {
        self.feeds = feeds.sorted { $0.feedID < $1.feedID }
        self.duration = duration
    }

    public var updated: Int { feeds.filter { if case .updated = $0.outcome { return true } else { return false } }.count }
    public var unchanged: Int { feeds.filter { $0.outcome == .unchanged }.count }
    public var gone: Int { feeds.filter { $0.outcome == .gone }.count }
    public var failures: [FeedReport] { feeds.filter { if case .failed = $0.outcome { return true } else { return false } } }
    public var newItems: Int { summaries.map(\.inserted).reduce(0, +) }
    public var changedItems: Int { summaries.map(\.updated).reduce(0, +) }
    public var bytes: Int { feeds.map(\.bytes).reduce(0, +) }

    private var summaries: [UpsertSummary] {
        feeds.compactMap {
            switch $0.outcome {
            case .updated(let summary), .wouldUpdate(let summary): return summary
            default: return nil
            }
        }
    }

    /// 0 when every feed was read; 1 when some failed (they are recorded and retried later).
    public var exitCode: Int32 { failures.isEmpty ? 0 : ExitStatus.someFeedsFailed }
}

/// The documented exit codes of every Feedmill command.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// The run finished; some feeds failed and were recorded for a later retry.
    public static let someFeedsFailed: Int32 = 1
    /// Bad options (swift-argument-parser's validation code).
    public static let usage: Int32 = 64
    /// Nothing could be done: unreadable feed list, unusable data directory, database error.
    public static let fatal: Int32 = 70
    /// Another Feedmill run holds the data directory's lock; try again later.
    public static let busy: Int32 = 75
}
