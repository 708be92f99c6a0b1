import ArgumentParser

/// `30`, `30s`, `1.5s`, `5m`, `1h`, `1d` for `--deadline` and `--every`. The same words as the
/// server commands' durations (FeedCommandSupport's `Seconds`, which rss-pull does not link: it
/// links nothing of the server side), with fractions, since a test or a phone counts in less
/// than seconds.
struct PullDuration: ExpressibleByArgument, Sendable, Equatable {
    var seconds: Double

    /// A year: past it a deadline or a period is a typing mistake, not a plan.
    static let longest = 31_536_000.0

    init(seconds: Double) {
        self.seconds = seconds
    }

    init?(argument: String) {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = argument.lowercased()
        var multiplier = 1.0
        if let last = text.last, let unit = units[last] {
            multiplier = unit
            text.removeLast()
        }
        guard let number = Double(text), number.isFinite, number > 0, number * multiplier <= Self.longest else { return nil }
        seconds = number * multiplier
    }

    var duration: Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    var defaultValueDescription: String { "\(seconds)s" }
}
