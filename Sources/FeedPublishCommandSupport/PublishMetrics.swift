import FeedCommandSupport
import FeedPublishing

extension PublishReport {
    /// What `--metrics-file` says of a publication that ran (exit 0 or 1). A publication that
    /// could not run writes none of these: its file keeps the previous generation and last
    /// success (``MetricsFile/carriedOver``), so "publication stale" alerts on the age of that
    /// timestamp keep firing until one succeeds.
    public func metricFamilies(finishedAt: Int64) -> [MetricFamily] {
        [
            MetricFamily(
                "feedmill_publish_generation", help: "Generation of the publication (this shard's under --shard) after the last run.",
                value: .init(generation)),
            MetricFamily(
                "feedmill_publish_last_success_timestamp_seconds",
                help: "When the last publication that ran finished (Unix time), whether or not it had anything new to write.",
                value: .init(finishedAt)),
            MetricFamily("feedmill_publish_duration_seconds", help: "Wall time of the last publication.", value: .init(seconds: duration)),
            MetricFamily(
                "feedmill_publish_feeds", help: "Feeds of the last publication by outcome.",
                label: "outcome", [("written", feedsWritten), ("unchanged", feedsUnchanged), ("failed", failures.count)]),
            MetricFamily("feedmill_publish_written_files", help: "Files written (uploaded, for a bucket) by the last publication.", value: .init(filesWritten)),
            MetricFamily("feedmill_publish_written_bytes", help: "Bytes written (uploaded, for a bucket) by the last publication.", value: .init(bytesWritten)),
            MetricFamily("feedmill_publish_written_deltas", help: "Deltas written by the last publication.", value: .init(deltasWritten)),
            MetricFamily("feedmill_publish_removed_files", help: "Retired files removed by the last publication.", value: .init(filesRemoved)),
            MetricFamily("feedmill_publish_warnings", help: "Things the last publication published otherwise than the data says.", value: .init(warnings.count)),
        ]
    }
}
