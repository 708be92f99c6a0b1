import FeedModel
import FeedNormalization
import FeedParsing

/// The work each benchmark measures, shared by the in-process benchmarks and the
/// command-line harnesses so that both measure the same thing.
public enum Workloads {
    /// A fixed time of reading: normalisation bounds the dates it keeps by it, and a fixed
    /// value keeps every run's work (and malloc count) the same.
    public static let now: Int64 = 1_732_000_000

    /// Parses a whole document as `rss-inspect` and the tests do; returns the entry count.
    public static func parse(_ bytes: [UInt8]) throws -> Int {
        try FeedParser.parse(bytes).entries.count
    }

    /// Parses and normalises (ids, permalinks, dates, sanitised HTML): what every fetched
    /// feed costs before storage. Returns the normalised entries.
    public static func parseAndNormalise(_ bytes: [UInt8], feedURL: String = "https://bench.example/feed") throws -> [Entry] {
        FeedNormalizer.normalize(try FeedParser.parse(bytes), feedURL: feedURL, now: now).entries
    }
}
