import FeedBasics
import Foundation

/// Prometheus text-format metrics of the last run, for node_exporter's textfile collector.
///
/// Written to a temporary file in the same directory and renamed (``DurableFiles``), so the
/// collector never reads half a file. What describes more than the last run is carried over
/// from the previous file when this run could not say it (``carriedOver``): the last success
/// of the command and of a publication, the publication's generation, and the catalog's feeds
/// by state. So an alert on "no success for a day" or "feeds failing for a day" keeps working
/// across runs that failed, were interrupted or found the data directory busy.
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
        /// What the command adds beyond the run's outcome: the catalog's feeds by state, a
        /// publication's generation and what it wrote.
        public var families: [MetricFamily]

        public init(
            command: String, finishedAt: Int64, succeeded: Bool, exitCode: Int32, metrics: RunMetrics?, shard: String? = nil,
            families: [MetricFamily] = []
        ) {
            self.command = command
            self.shard = shard
            self.finishedAt = finishedAt
            self.succeeded = succeeded
            self.exitCode = exitCode
            self.metrics = metrics
            self.families = families
        }
    }

    /// Metrics that describe the state of things rather than the last run: a run that does not
    /// give one keeps the previous file's samples of it.
    public static let carriedOver: Set<String> = [
        "feedmill_last_success_timestamp_seconds",
        "feedmill_feeds", "feedmill_feeds_failing", "feedmill_feed_oldest_success_timestamp_seconds",
        "feedmill_feeds_without_success", "feedmill_feeds_never_succeeded",
        "feedmill_publish_generation", "feedmill_publish_last_success_timestamp_seconds",
    ]

    public static func write(_ run: Run, to path: String) throws {
        let previous = try previousFile(at: path)
        try DurableFiles.write(Array(render(run, previous: previous).utf8), to: path)
    }

    /// A metrics path that already holds something Feedmill did not write (a typo such as
    /// `--metrics-file feedmill.toml`, a FIFO, a link): the metrics are not written, and the
    /// file is left as it is. Feedmill never replaces a file it did not create.
    public struct NotAMetricsFile: Error, CustomStringConvertible, Equatable {
        public var path: String
        /// What is wrong with it: `is not a plain file`, `holds lines that are not feedmill_ metrics`.
        public var what: String

        public init(path: String, what: String) {
            self.path = path
            self.what = what
        }

        public var description: String {
            "\(path) \(what), not a metrics file Feedmill wrote: it is left as it is; choose another metrics-file, or remove it"
        }
    }

    /// The text of the file this run replaces: nil when there is none; an error when what is
    /// there is not a plain file of `feedmill_` metrics (an empty file, made ready by a
    /// person, counts as one).
    static func previousFile(at path: String) throws(NotAMetricsFile) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else { throw NotAMetricsFile(path: path, what: "is not a plain file") }
        guard case .success(let bytes) = SmallFile.read(path) else { throw NotAMetricsFile(path: path, what: "cannot be read or is too large") }
        let text = String(decoding: bytes, as: UTF8.self)
        let ours = text.split(separator: "\n").allSatisfy { line in
            line.hasPrefix("feedmill_") || line.hasPrefix("# HELP feedmill_") || line.hasPrefix("# TYPE feedmill_")
        }
        guard ours else { throw NotAMetricsFile(path: path, what: "holds lines that are not feedmill_ metrics") }
        return text
    }

    /// The file's text; `previous` is the file this run replaces, if any.
    public static func render(_ run: Run, previous: String?) -> String {
        let fileLabels = labels(command: run.command, shard: run.shard)
        var families = [
            MetricFamily("feedmill_last_run_timestamp_seconds", help: "When the last run finished (Unix time).", value: .init(run.finishedAt))
        ]
        if run.succeeded {
            families.append(
                MetricFamily(
                    "feedmill_last_success_timestamp_seconds", help: "When the last run that completed finished (Unix time).",
                    value: .init(run.finishedAt)))
        }
        families.append(MetricFamily("feedmill_last_run_exit_code", help: "Exit status of the last run (see --help).", value: .init(Int(run.exitCode))))
        if let report = run.metrics { families += report.families }
        families += run.families
        var lines = families.flatMap { $0.lines(fileLabels: fileLabels) }
        if let previous {
            let given = Set(families.map(\.name))
            lines += carriedLines(from: previous, fileLabels: fileLabels, except: given)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func labels(command: String, shard: String?) -> [MetricFamily.Label] {
        [MetricFamily.Label("command", command)] + (shard.map { [MetricFamily.Label("shard", $0)] } ?? [])
    }

    /// The previous file's lines of each ``carriedOver`` metric not in `except`, when its
    /// samples are this command's (the same file labels).
    static func carriedLines(from previous: String, fileLabels: [MetricFamily.Label], except given: Set<String>) -> [String] {
        let labelText = fileLabels.map { "\($0.name)=\"\(MetricFamily.escapedLabelValue($0.value))\"" }.joined(separator: ",")
        var lines: [String] = []
        for name in carriedOver.sorted() where !given.contains(name) {
            let samples = previous.split(separator: "\n").filter { line in
                line.hasPrefix("\(name){\(labelText),") || line.hasPrefix("\(name){\(labelText)} ")
            }
            guard !samples.isEmpty else { continue }
            let comments = previous.split(separator: "\n").filter { $0.hasPrefix("# HELP \(name) ") || $0.hasPrefix("# TYPE \(name) ") }
            lines += comments.map(String.init) + samples.map(String.init)
        }
        return lines
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

extension RunMetrics {
    /// The run's outcome as metrics. Bytes received were `feedmill_last_run_bytes_fetched`
    /// before issue 42 (renamed so that the unit ends the name).
    public var families: [MetricFamily] {
        [
            MetricFamily("feedmill_last_run_duration_seconds", help: "Wall time of the last run.", value: .init(seconds: duration)),
            MetricFamily(
                "feedmill_last_run_feeds", help: "Feeds of the last run by outcome; each selected feed is counted once.",
                label: "outcome", feeds.map { ($0.outcome, $0.count) }),
            MetricFamily("feedmill_last_run_items_inserted", help: "Items inserted by the last run.", value: .init(itemsInserted)),
            MetricFamily("feedmill_last_run_items_changed", help: "Items rewritten by the last run.", value: .init(itemsChanged)),
            MetricFamily("feedmill_last_run_items_removed", help: "Items removed by retention in the last run.", value: .init(itemsRemoved)),
            MetricFamily(
                "feedmill_update_fetched_bytes", help: "Bytes received by the last run, headers included.", value: .init(bytesFetched)),
        ]
    }
}
