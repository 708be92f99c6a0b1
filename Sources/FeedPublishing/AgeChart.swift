import FeedBasics
import FeedStorage

/// The health section's chart: feeds by the age of their last success, as a small SVG written
/// here (no script, no library). Why this chart and not failures over the last runs: the
/// catalog keeps each feed's current state only (its streak, last success, next attempt), not
/// a history of runs, and the age of the last success is what an operator asks first ("how
/// stale is what readers see?"). Every feed is in exactly one bucket, so the bars add up to
/// the feed count.
enum AgeChart {
    struct Bucket: Equatable {
        let label: String
        /// The stylesheet's bar colour: `fresh`, `aging`, `stale`, `never`.
        let tone: String
        var count = 0
    }

    /// The buckets, youngest first: under an hour, 1–6 hours, 6–24 hours, 1–7 days, over 7
    /// days, never. A last success after `now` (a clock gone wrong) counts as under an hour.
    static func buckets(_ summary: FeedHealthSummary, now: Int64) -> [Bucket] {
        var buckets = [
            Bucket(label: "under 1 h", tone: "fresh"), Bucket(label: "1–6 h", tone: "fresh"), Bucket(label: "6–24 h", tone: "aging"),
            Bucket(label: "1–7 days", tone: "stale"), Bucket(label: "over 7 days", tone: "stale"), Bucket(label: "never", tone: "never"),
        ]
        let limits: [Int64] = [3_600, 6 * 3_600, 86_400, 7 * 86_400]
        buckets[5].count = summary.feedCount - summary.lastSuccesses.count
        for success in summary.lastSuccesses {
            let age = now.saturatingSubtract(success)
            buckets[limits.firstIndex { age < $0 } ?? 4].count += 1
        }
        return buckets
    }

    /// The `<figure>`: the SVG (its numbers as text in it, and in its description) and a caption.
    static func figure(_ buckets: [Bucket]) -> String {
        let rowHeight = 24, labelWidth = 84, barSpace = 180
        let height = buckets.count * rowHeight + 4
        let largest = Swift.max(1, buckets.map(\.count).max() ?? 1)
        let description = buckets.map { "\($0.label): \(PageText.grouped($0.count))" }.joined(separator: "; ")
        var svg = """
            <figure class="chart">
            <svg viewBox="0 0 320 \(height)" width="320" height="\(height)" role="img" aria-labelledby="age-title age-desc">
            <title id="age-title">Feeds by age of their last success</title>
            <desc id="age-desc">\(description)</desc>

            """
        for (row, bucket) in buckets.enumerated() {
            let top = row * rowHeight + 4
            // A bucket that is not empty shows at least a sliver.
            let width = bucket.count == 0 ? 0 : Swift.max(2, bucket.count * barSpace / largest)
            svg += "<text x=\"0\" y=\"\(top + 14)\">\(bucket.label)</text>"
            svg += "<rect class=\"\(bucket.tone)\" x=\"\(labelWidth)\" y=\"\(top + 2)\" width=\"\(width)\" height=\"16\"></rect>"
            svg += "<text x=\"\(labelWidth + width + 6)\" y=\"\(top + 14)\">\(PageText.grouped(bucket.count))</text>\n"
        }
        svg += "</svg>\n<figcaption>Feeds by age of their last successful update</figcaption>\n</figure>\n"
        return svg
    }
}
