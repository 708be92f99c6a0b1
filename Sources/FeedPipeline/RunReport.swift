import FeedModel
import FeedStorage

/// What happened to one feed in a run.
public struct FeedReport: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case updated(UpsertSummary)
        case unchanged
        case failed(kind: FailureKind, message: String)
        case gone
        /// `--dry-run`: what an update would have written.
        case wouldUpdate(UpsertSummary)
        /// In flight when the run was told to stop: aborted, nothing recorded, due next run.
        case interrupted
    }

    public var feedID: Int64
    public var url: String
    public var outcome: Outcome
    public var bytes: Int
    public var duration: Double
    /// The final HTTP status, when there was one.
    public var status: Int?
    /// The catalog URL was moved here after repeated permanent redirects.
    public var movedTo: String?

    public init(
        feedID: Int64, url: String, outcome: Outcome, bytes: Int = 0, duration: Double = 0, status: Int? = nil, movedTo: String? = nil
    ) {
        self.feedID = feedID
        self.url = url
        self.outcome = outcome
        self.bytes = bytes
        self.duration = duration
        self.status = status
        self.movedTo = movedTo
    }
}

/// Why a run ended before every selected feed was started.
public enum StopCause: Sendable, Equatable {
    /// `--deadline` passed: feeds not started are left for the next run.
    case deadline
    /// SIGINT or SIGTERM.
    case signal(Int32)
}

/// A whole run: per-feed reports in feedid order, totals, and the exit code.
public struct RunReport: Sendable, Equatable {
    public var feeds: [FeedReport]
    public var duration: Double
    /// Selected feeds never started (deadline or signal); untouched, due next run.
    public var notStarted: [Int64]
    public var stoppedBy: StopCause?

    public init(feeds: [FeedReport], duration: Double, notStarted: [Int64] = [], stoppedBy: StopCause? = nil) {
        self.feeds = feeds.sorted { $0.feedID < $1.feedID }
        self.duration = duration
        self.notStarted = notStarted.sorted()
        self.stoppedBy = stoppedBy
    }

    /// Selected feeds this run did not finish: never started, or aborted in flight.
    public var leftForNextRun: Int { notStarted.count + feeds.filter { $0.outcome == .interrupted }.count }

    public var updated: Int { feeds.filter { if case .updated = $0.outcome { return true } else { return false } }.count }
    public var unchanged: Int { feeds.filter { $0.outcome == .unchanged }.count }
    public var gone: Int { feeds.filter { $0.outcome == .gone }.count }
    public var failures: [FeedReport] { feeds.filter { if case .failed = $0.outcome { return true } else { return false } } }
    public var newItems: Int { summaries.map(\.inserted).reduce(0, +) }
    public var changedItems: Int { summaries.map(\.updated).reduce(0, +) }
    /// Items removed by retention.
    public var removedItems: Int { summaries.map(\.removed).reduce(0, +) }
    public var bytes: Int { feeds.map(\.bytes).reduce(0, +) }

    private var summaries: [UpsertSummary] {
        feeds.compactMap {
            switch $0.outcome {
            case .updated(let summary), .wouldUpdate(let summary): return summary
            default: return nil
            }
        }
    }

    /// No new or changed items, no failures, nothing gone, moved or left for the next run:
    /// a scheduled run like this prints nothing.
    public var nothingHappened: Bool {
        newItems == 0 && changedItems == 0 && removedItems == 0 && failures.isEmpty && gone == 0 && leftForNextRun == 0 && stoppedBy == nil
            && feeds.allSatisfy { $0.movedTo == nil }
    }

    /// 128 + the signal when interrupted; else 0 when every feed was read (a deadline that
    /// left feeds for the next run is not a failure); 1 when some failed (recorded, retried later).
    public var exitCode: Int32 {
        if case .signal(let number) = stoppedBy { return ExitStatus.interrupted(by: number) }
        return failures.isEmpty ? 0 : ExitStatus.someFeedsFailed
    }
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

    /// Stopped by a signal: 130 for SIGINT (Ctrl-C), 143 for SIGTERM, as shells report them.
    public static func interrupted(by signal: Int32) -> Int32 { 128 + signal }

    /// One line per code, for every command's `--help`.
    public static let helpText = """
        Exit status: 0 done; 1 some feeds failed (recorded, retried later with backoff); 64 usage \
        or configuration error; 70 fatal error (unreadable feed list, unusable data directory, \
        database error); 75 another run holds the data directory; 130 interrupted by SIGINT \
        (Ctrl-C); 143 interrupted by SIGTERM (feeds in flight were aborted and are due next run).
        """
}
