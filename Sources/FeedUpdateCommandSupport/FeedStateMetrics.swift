import FeedCommandSupport
import FeedPipeline
import FeedStorage

extension FeedStateCount {
    /// The catalog's feeds as gauges: every state and every failure kind has a sample, 0
    /// included, so an alert rule always finds its series (an absent series reads as "no
    /// data", not as "no failing feeds").
    public var families: [MetricFamily] {
        [
            MetricFamily(
                "feedmill_feeds", help: "Feeds of the catalog (this shard's under --shard) by state, as the last run left them.",
                label: "state", Self.states.map { ($0, byState[$0] ?? 0) }),
            MetricFamily(
                "feedmill_feeds_failing", help: "Failing feeds by the kind of their last failure.",
                label: "kind", failingByKind.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
            MetricFamily(
                "feedmill_feeds_without_success",
                help: "Failing feeds whose last success is older than older_than (feeds that never succeeded are not counted here).",
                label: "older_than", Self.ages.map { ($0.label, withoutSuccess[$0.label] ?? 0) }),
            MetricFamily(
                "feedmill_feeds_never_succeeded", help: "Failing feeds that have never been fetched successfully.",
                value: .init(neverSucceeded)),
            // No sample when no feed has succeeded yet (rather than a made-up time); given
            // even then, so the previous file's value is not carried over.
            MetricFamily(
                "feedmill_feed_oldest_success_timestamp_seconds",
                help: "The oldest last success among feeds that are not gone (Unix time).",
                oldestSuccess.map { [.init($0)] } ?? []),
        ]
    }
}

extension CommandContext {
    /// The catalog's feeds by state for `--metrics-file` (nothing is read without one): `nil`,
    /// and a warning, when the catalog cannot be read now; the metrics file then keeps the
    /// previous counts.
    public func feedStates(_ catalog: Catalog, configuration: PipelineConfiguration) -> FeedStateCount? {
        guard settings[Settings.metricsFile] != nil else { return nil }
        do {
            return try FeedStateCount(catalog: catalog, shard: configuration.shard, now: configuration.clock())
        } catch {
            logger.warning("could not count the feeds by state for the metrics file: \(error)")
            return nil
        }
    }
}

extension CommandResult {
    /// The result of a command's work that ran an update and counted the catalog after it.
    public init(report: RunReport, feedStates: FeedStateCount?, exitCode: Int32) {
        self.init(metrics: RunMetrics(report), families: feedStates?.families ?? [], exitCode: exitCode)
    }
}
