/// Which dates an entry keeps: one rule for its published and updated dates alike.
///
/// A date is kept when it lies after 1970-01-01T00:00:00Z and no later than one day after the
/// feed was read; otherwise it is missing (`nil`), exactly as a date that could not be read:
/// - the epoch itself, and anything before it, is what feeds write for "no date" (a zero
///   timestamp, Go's zero time `0001-01-01`, a spreadsheet's `1900-01-01`); no entry of a
///   feed was published before 1970;
/// - a date in the future (year 9999, a mistyped year) kept its entry at the top of
///   `atom.xml` and `index.html` for good; a day's margin covers a wrong zone (at most 14
///   hours) and a publisher's clock ahead of ours;
/// - never clamped to a bound: a clamped date would change with every fetch and rewrite the
///   row on every run. A missing date takes the first-seen time once, when stored; an entry
///   dated a little ahead (an event) gets its date on the first run after the day comes.
///
/// It needs the time the feed was read, passed in explicitly (`--now`/`SOURCE_DATE_EPOCH`
/// pin it for reproducible runs), never read from a clock here.
public struct DateRule: Sendable {
    /// How far past the time of reading a date may lie.
    public static let futureMargin: Int64 = 86_400

    /// The latest date kept.
    public let latest: Int64

    /// - Parameter now: when the feed was read, in seconds since 1970-01-01T00:00:00Z.
    public init(readAt now: Int64) {
        let (sum, overflow) = now.addingReportingOverflow(Self.futureMargin)
        latest = overflow ? .max : sum
    }

    /// `date` when it is plausible for an entry, else `nil`.
    public func kept(_ date: Int64?) -> Int64? {
        guard let date, date > 0, date <= latest else { return nil }
        return date
    }
}
