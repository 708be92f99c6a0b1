import Foundation

/// One metric of a metrics file: its name, `# HELP`, `# TYPE` and samples, in Prometheus
/// text format (version 0.0.4, what node_exporter's textfile collector reads).
///
/// Names follow Prometheus conventions: base units in the name's last word (`_seconds`,
/// `_bytes`), `_timestamp_seconds` for Unix times (an age is the alert rule's `time() - …`,
/// so a file read late never shows a stale age), `_total` only on counters. Feedmill writes
/// gauges only: every value describes the last run or the catalog as it is, not a count that
/// grows across runs.
public struct MetricFamily: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case gauge, counter
    }

    public struct Sample: Sendable, Equatable {
        /// Labels besides those of the whole file (`command`, `shard`), in the order written.
        public var labels: [Label]
        /// As written: an integer, or a decimal for durations.
        public var value: String

        public init(text value: String, labels: [Label] = []) {
            self.labels = labels
            self.value = value
        }

        public init(_ value: Int64, labels: [Label] = []) {
            self.init(text: String(value), labels: labels)
        }

        public init(_ value: Int, labels: [Label] = []) {
            self.init(text: String(value), labels: labels)
        }

        /// Seconds to the millisecond.
        public init(seconds: Double, labels: [Label] = []) {
            self.init(text: String(format: "%.3f", seconds), labels: labels)
        }
    }

    public struct Label: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [Sample]

    public init(_ name: String, _ kind: Kind = .gauge, help: String, _ samples: [Sample]) {
        self.name = name
        self.kind = kind
        self.help = help
        self.samples = samples
    }

    /// One sample with no labels of its own.
    public init(_ name: String, _ kind: Kind = .gauge, help: String, value: Sample) {
        self.init(name, kind, help: help, [value])
    }

    /// One sample per `(label value, count)`, each with the label `label`.
    public init(_ name: String, help: String, label: String, _ counts: [(String, Int)]) {
        self.init(name, help: help, counts.map { Sample($0.1, labels: [Label(label, $0.0)]) })
    }

    /// The family's lines, every sample carrying `fileLabels` first.
    func lines(fileLabels: [Label]) -> [String] {
        var lines = ["# HELP \(name) \(Self.escapedHelp(help))", "# TYPE \(name) \(kind.rawValue)"]
        for sample in samples {
            let labels = (fileLabels + sample.labels).map { "\($0.name)=\"\(Self.escapedLabelValue($0.value))\"" }
            lines.append("\(name)\(labels.isEmpty ? "" : "{\(labels.joined(separator: ","))}") \(sample.value)")
        }
        return lines
    }

    /// The text format escapes backslash, double quote and newline in label values.
    static func escapedLabelValue(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// ... and backslash and newline in HELP text.
    static func escapedHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
