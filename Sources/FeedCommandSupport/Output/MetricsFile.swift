import FeedBasics
import Foundation

/// Prometheus text-format metrics of the last run, for node_exporter's textfile collector.
///
/// Written to a temporary file in the same directory and renamed (``DurableFiles``), so the
/// collector never reads half a file. `feedmill_last_success_timestamp_seconds` is carried over from the
/// previous file when this run did not succeed (interrupted, or nothing could be done), so
/// an alert on "no success for a day" keeps working across failed runs.
public enum MetricsFile {
    public struct Run: Sendable {
        public var command: String
        public var finishedAt: Int64
        public var succeeded: Bool
        public var exitCode: Int32
        public var metrics: RunMetrics?
        /// `K/N` under `--shard` (a `shard` label on every sample, so that the shards of one
        /// machine, each with its own file, never give the collector the same series twice);
        /// `nil` for the whole feed list.
        public var shard: String?

        public init(command: String, finishedAt: Int64, succeeded: Bool, exitCode: Int32, metrics: RunMetrics?, shard: String? = nil) {
            self.command = command
            self.shard = shard
            self.finishedAt = finishedAt
            self.succeeded = succeeded
            self.exitCode = exitCode
            self.metrics = metrics
        }
    }

    public static func write(_ run: Run, to path: String) throws {
        let previous = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        let labels = labels(command: run.command, shard: run.shard)
        let text = render(run, previousLastSuccess: previous.flatMap { lastSuccess(in: $0, labels: labels) })
        try DurableFiles.write(Array(text.utf8), to: path)
    }

    public static func render(_ run: Run, previousLastSuccess: Int64?) -> String {
        let label = labels(command: run.command, shard: run.shard)
        var lines: [String] = []
        func metric(_ name: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) gauge")
            for sample in samples { lines.append("\(name){\(sample.labels)} \(sample.value)") }
        }
        metric("feedmill_last_run_timestamp_seconds", "When the last run finished (Unix time).", [(label, "\(run.finishedAt)")])
        if let lastSuccess = run.succeeded ? run.finishedAt : previousLastSuccess {
            metric("feedmill_last_success_timestamp_seconds", "When the last run that completed finished (Unix time).", [(label, "\(lastSuccess)")])
        }
        metric("feedmill_last_run_exit_code", "Exit status of the last run (see --help).", [(label, "\(run.exitCode)")])
        if let report = run.metrics {
            metric("feedmill_last_run_duration_seconds", "Wall time of the last run.", [(label, String(format: "%.3f", report.duration))])
            metric("feedmill_last_run_feeds", "Feeds of the last run by outcome.", report.feeds.map { ("\(label),outcome=\"\($0.outcome)\"", "\($0.count)") })
            metric("feedmill_last_run_items_inserted", "Items inserted by the last run.", [(label, "\(report.itemsInserted)")])
            metric("feedmill_last_run_items_changed", "Items rewritten by the last run.", [(label, "\(report.itemsChanged)")])
            metric("feedmill_last_run_items_removed", "Items removed by retention in the last run.", [(label, "\(report.itemsRemoved)")])
            metric("feedmill_last_run_bytes_fetched", "Bytes received by the last run, headers included.", [(label, "\(report.bytesFetched)")])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func labels(command: String, shard: String?) -> String {
        "command=\"\(command)\"" + (shard.map { ",shard=\"\($0)\"" } ?? "")
    }

    static func lastSuccess(in text: String, labels: String) -> Int64? {
        let prefix = "feedmill_last_success_timestamp_seconds{\(labels)} "
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            return Int64(line.dropFirst(prefix.count))
        }
        return nil
    }
}

/// What the metrics file says of a run that fetched feeds: what a run report comes to
/// (``MetricsFile``), whichever command made it.
public struct RunMetrics: Sendable, Equatable {
    public var duration: Double
    /// Feeds by outcome, in the order the metrics list them (`updated`, `unchanged`, …).
    public var feeds: [(outcome: String, count: Int)]
    public var itemsInserted: Int
    public var itemsChanged: Int
    public var itemsRemoved: Int
    public var bytesFetched: Int

    public init(
        duration: Double, feeds: [(outcome: String, count: Int)], itemsInserted: Int, itemsChanged: Int, itemsRemoved: Int,
        bytesFetched: Int
    ) {
        self.duration = duration
        self.feeds = feeds
        self.itemsInserted = itemsInserted
        self.itemsChanged = itemsChanged
        self.itemsRemoved = itemsRemoved
        self.bytesFetched = bytesFetched
    }

    public static func == (lhs: RunMetrics, rhs: RunMetrics) -> Bool {
        lhs.duration == rhs.duration && lhs.feeds.elementsEqual(rhs.feeds) { $0 == $1 } && lhs.itemsInserted == rhs.itemsInserted
            && lhs.itemsChanged == rhs.itemsChanged && lhs.itemsRemoved == rhs.itemsRemoved && lhs.bytesFetched == rhs.bytesFetched
    }
}
