import FeedBasics
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
    /// What a person should know that is not a failure: values repaired in the feed's
    /// database or read as absent from the catalog, a clock that was set back.
    public var notes: [String] = []

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

/// How many feeds of a run ended each way, and the items and bytes they came to: what a
/// run's summary and metrics need, whatever the number of feeds.
public struct RunTally: Sendable, Equatable {
    /// Feeds with a report: fetched, set aside, or aborted in flight.
    public var feeds = 0
    public var updated = 0
    public var unchanged = 0
    public var failed = 0
    public var gone = 0
    /// `--dry-run`: feeds an update would have written.
    public var wouldUpdate = 0
    public var interrupted = 0
    /// Feeds whose catalog URL was moved after repeated permanent redirects.
    public var moved = 0
    /// Feeds with notes (repairs, a clock set back).
    public var noted = 0
    public var newItems = 0
    public var changedItems = 0
    /// Items removed by retention.
    public var removedItems = 0
    public var bytes = 0

    public init() {}

    public mutating func add(_ feed: FeedReport) {
        feeds += 1
        bytes += feed.bytes
        if feed.movedTo != nil { moved += 1 }
        if !feed.notes.isEmpty { noted += 1 }
        switch feed.outcome {
        case .updated(let summary):
            updated += 1
            add(summary)
        case .wouldUpdate(let summary):
            wouldUpdate += 1
            add(summary)
        case .unchanged: unchanged += 1
        case .failed: failed += 1
        case .gone: gone += 1
        case .interrupted: interrupted += 1
        }
    }

    private mutating func add(_ summary: UpsertSummary) {
        newItems += summary.inserted
        changedItems += summary.updated
        removedItems += summary.removed
    }
}

/// A whole run: the tally of every feed, the reports a person must read (in feedid order),
/// and the exit code.
///
/// Every feed's own report goes to the run's `progress` callback as it finishes (the log
/// line, the progress bar); the run report keeps only ``notable`` ones. Keeping all of them
/// cost ~190 bytes per feed for the whole run, its URL among them: ~190 MB for a
/// million-feed run, for a summary that prints counts.
public struct RunReport: Sendable, Equatable {
    public var tally: RunTally
    /// Failed, gone, moved and interrupted feeds, and under `--dry-run` those an update would
    /// change (``isNotable(_:)``); in feedid order.
    public var notable: [FeedReport]
    public var duration: Double
    /// Selected feeds never started (deadline or signal); untouched, due next run.
    public var notStarted: [Int64]
    public var stoppedBy: StopCause?
    /// What opening the catalog repaired (values written by hand, ``Catalog/repairs``).
    public var catalogRepairs: [String] = []
    /// The shard the run worked on (`--shard`; ``Shard/all`` without it).
    public var shard = Shard.all
    /// Feed databases in the data directory whose feeds are other shards' now (N changed):
    /// left in place, never deleted, said once in the run's log.
    public var otherShardsDatabases = 0
    /// The catalog rows read to choose the feeds: every feed's, or, when a due run found its
    /// feeds by the schedule's index (``CatalogSchedule``), only the due feeds'.
    public var feedsRead = 0
    /// Whether the feeds were chosen by the schedule's index.
    public var chosenByIndex = false

    public init(tally: RunTally, notable: [FeedReport], duration: Double, notStarted: [Int64] = [], stoppedBy: StopCause? = nil) {
        self.tally = tally
        self.notable = notable.sorted { $0.feedID < $1.feedID }
        self.duration = duration
        self.notStarted = notStarted.sorted()
        self.stoppedBy = stoppedBy
    }

    /// Tallies `feeds` and keeps the notable ones.
    public init(feeds: [FeedReport], duration: Double, notStarted: [Int64] = [], stoppedBy: StopCause? = nil) {
        var tally = RunTally()
        for feed in feeds { tally.add(feed) }
        self.init(tally: tally, notable: feeds.filter(Self.isNotable), duration: duration, notStarted: notStarted, stoppedBy: stoppedBy)
    }

    /// What the summary names feed by feed: a failure, a gone or moved feed, a feed aborted
    /// in flight, a feed with notes, a dry run's change. Updated and unchanged feeds are only
    /// counted.
    public static func isNotable(_ feed: FeedReport) -> Bool {
        if feed.movedTo != nil || !feed.notes.isEmpty { return true }
        switch feed.outcome {
        case .updated, .unchanged: return false
        case .wouldUpdate(let summary): return summary.changed
        case .failed, .gone, .interrupted: return true
        }
    }

    /// Selected feeds this run did not finish: never started, or aborted in flight.
    public var leftForNextRun: Int { notStarted.count + tally.interrupted }

    /// Selected feeds that ran to an outcome (updated, unchanged, failed, gone): each
    /// selected feed is in exactly one of ``finished`` and ``leftForNextRun``.
    public var finished: Int { tally.feeds - tally.interrupted }

    /// Every feed the run selected: finished, aborted in flight, or never started.
    public var selected: Int { tally.feeds + notStarted.count }

    public var updated: Int { tally.updated }
    public var unchanged: Int { tally.unchanged }
    public var gone: Int { tally.gone }
    public var failures: [FeedReport] { notable.filter { if case .failed = $0.outcome { return true } else { return false } } }
    public var newItems: Int { tally.newItems }
    public var changedItems: Int { tally.changedItems }
    /// Items removed by retention.
    public var removedItems: Int { tally.removedItems }
    public var bytes: Int { tally.bytes }

    /// No new or changed items, no failures, nothing gone, moved or left for the next run:
    /// a scheduled run like this prints nothing.
    public var nothingHappened: Bool {
        newItems == 0 && changedItems == 0 && removedItems == 0 && tally.failed == 0 && gone == 0 && leftForNextRun == 0
            && stoppedBy == nil && tally.moved == 0 && tally.noted == 0 && catalogRepairs.isEmpty
    }
}
