import FeedBasics
import FeedFetching
import FeedStorage
import Foundation

/// Everything a create or update run needs to know: the typed settings of `rss-create` and
/// `rss-update`, built once from the command line, environment and configuration file. Its
/// initial values are the documented defaults (declared here and nowhere else). No globals,
/// and the clock is injectable for reproducible runs.
public struct PipelineConfiguration: Sendable {
    /// Where `all_feeds.sqlite` and the `feed_<id>.sqlite` files live (``DataDirectory``).
    public var dataDirectory: String = DataDirectory.defaultPath
    /// Where `dataDirectory` came from (`data-dir from /etc/feedmill/feedmill.toml`), for
    /// the message that says there is no catalog in it.
    public var dataDirectoryOrigin: String?
    /// Whether this run may write into a data directory another user owns.
    public var writer = OtherUserPolicy()
    public var fetch = FetchConfiguration()
    public var concurrency = FetchScheduler.defaultConcurrency
    public var perHostLimit = FetchScheduler.defaultPerHostLimit
    /// Fetched feeds parsed and written at once (``ParsePermits``), each on a thread of its
    /// own: as many as there are cores, at least 2. More adds memory, not speed.
    public var parsingLimit = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// A feed is due when its last update is this old (seconds), unless it asks for longer.
    public var staleAfter = 3600
    /// How much history feed databases keep; a feed's own limits in the catalog override it.
    public var retention = Retention.keepEverything
    /// A feed's own hints (ttl, sy:updatePeriod, Cache-Control …) never stretch its interval
    /// past this: a feed that asks for a year is still checked daily.
    public var maxInterval = 86_400
    /// Runs in a row a feed must answer with permanent redirects to the same URL before its
    /// URL is moved in the catalog.
    public var redirectSightingsToMove = 3
    /// Backoff after the first failure, doubling per consecutive failure up to `backoffCap`.
    public var backoffBase = 900
    public var backoffCap = 86_400

    /// The longest a feed is ever told to wait: the backoff cap with its largest jitter, or
    /// the longest `Retry-After` honoured. A next attempt further ahead was written by a clock
    /// that was wrong (``UpdateSchedule/clockAnomaly(_:now:configuration:)``).
    public var longestWait: Int64 {
        max(Int64(backoffCap).saturatingMultiply(6) / 5, Int64(fetch.maxRetryAfter)) + 1
    }
    /// Seconds since the epoch; `--now` and `SOURCE_DATE_EPOCH` replace it.
    public var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// Wall-clock seconds after which no feed starts (`--deadline`); feeds in flight finish.
    public var deadline: Double?
    /// `--shard K/N`: only the feeds of this shard's hosts are fetched (``Shard/owns(url:)``).
    public var shard = Shard.all

    /// Pins every reading of the current time, the fetcher's included, to `now`.
    public mutating func fixClock(at now: Int64) {
        clock = { now }
        fetch.fixedNow = now
    }

    public init() {}

    /// The data directory's layout: every file name in it.
    public var data: DataDirectory { DataDirectory(dataDirectory, origin: dataDirectoryOrigin) }

    public var catalogPath: String { data.catalogPath }

    public func feedDatabasePath(_ feedID: Int64) -> String { data.feedDatabasePath(feedID) }
}
