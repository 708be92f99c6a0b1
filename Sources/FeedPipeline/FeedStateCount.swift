import FeedBasics
import FeedModel
import FeedStorage

/// How the catalog's feeds stand at the end of a run, counted for the metrics file: what an
/// alert on "feeds failing for a day" needs, whatever the number of feeds (counts, never one
/// series per feed).
///
/// States are the health page's (`ok`, `failing`, `never-fetched`, `gone`): ``state(of:)``
/// asks `FeedHealth.State.of`, the one decision the page makes too.
public struct FeedStateCount: Sendable, Equatable {
    /// Every state, in the order the metrics list them.
    public static let states = [FeedHealth.State.ok, .failing, .neverFetched, .gone].map(\.rawValue)
    /// The ages ``withoutSuccess`` counts by, as their label values and in seconds.
    public static let ages: [(label: String, seconds: Int64)] = [("1h", 3_600), ("6h", 21_600), ("1d", 86_400), ("7d", 604_800)]

    /// The counts the health page shows too (``FeedStateTally``).
    private var tally = FeedStateTally()
    /// Feeds by state; every state is a key.
    public var byState: [String: Int] {
        Dictionary(uniqueKeysWithValues: FeedHealth.State.allCases.map { ($0.rawValue, tally.byState[$0] ?? 0) })
    }
    /// Failing feeds by the kind of their last failure; every ``FailureKind`` is a key.
    public var failingByKind: [String: Int] {
        Dictionary(uniqueKeysWithValues: FailureKind.allCases.map { ($0.rawValue, tally.failingByKind[$0] ?? 0) })
    }
    /// The oldest last success of a feed that is not gone; `nil` when none has succeeded.
    public var oldestSuccess: Int64? { tally.oldestSuccess }
    /// Feeds failing now whose last success is older than each of ``ages`` (by label).
    public private(set) var withoutSuccess: [String: Int] = Dictionary(uniqueKeysWithValues: ages.map { ($0.label, 0) })
    /// Feeds failing now that have never succeeded: how long they have failed is not recorded.
    public private(set) var neverSucceeded = 0
    /// The time the ages are measured from.
    public let now: Int64

    public init(now: Int64) {
        self.now = now
    }

    /// Counts the feeds of `catalog` that `shard` owns (each shard's metrics count its own
    /// feeds, so the shards' files add up to the whole list).
    public init(catalog: Catalog, shard: Shard, now: Int64) throws(PipelineError) {
        var count = FeedStateCount(now: now)
        try rethrowing(
            try catalog.forEachFeedState { feed in
                if shard.isAll || shard.owns(url: feed.url) { count.add(feed) }
            }, as: PipelineError.storage)
        self = count
    }

    /// The feed's state as the health page names it.
    public static func state(of feed: FeedStateRow) -> FeedHealth.State {
        FeedHealth.State.of(
            gone: feed.gone, consecutiveErrors: feed.consecutiveErrors, lastErrorKind: feed.lastErrorKind,
            lastAttempt: feed.lastAttempt, lastSuccess: feed.lastSuccess)
    }

    /// Counts one feed: its state, and when failing its kind and how long since it last succeeded.
    public mutating func add(_ feed: FeedStateRow) {
        let state = Self.state(of: feed)
        tally.add(state, kind: feed.lastErrorKind, lastSuccess: feed.lastSuccess)
        guard state == .failing else { return }
        guard let lastSuccess = feed.lastSuccess else {
            neverSucceeded += 1
            return
        }
        for age in Self.ages where lastSuccess < now - age.seconds {
            withoutSuccess[age.label, default: 0] += 1
        }
    }
}
