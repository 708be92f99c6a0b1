import FeedStorage

/// Settings of the commands that work on a data directory: where it is, how many transfers,
/// when a feed is due, what is kept.
///
/// The defaults of `concurrency`, `per-host` and `stale-after` are written out rather than
/// read from `PipelineConfiguration`, so that rss-publish does not link the pipeline;
/// `SettingDefaultsTests` holds each to the library's own.
extension Settings {
    public static let dataDirectory = Setting(
        "data-dir", type: .text, default: DataDirectory.defaultPath, valueName: "dir",
        "Directory holding all_feeds.sqlite and the feed_<id>.sqlite files.")

    public static let feedList = Setting(
        "opml", type: .text, default: "feeds.opml", valueName: "path-or-url", "The feed list: an OPML file path or http(s) URL.")

    public static let concurrency = Setting(
        "concurrency", type: .wholeNumber(in: 1...256), default: 16, valueName: "n",
        "Transfers in flight at most (1-256).")

    public static let perHost = Setting(
        "per-host", type: .wholeNumber(in: 1...64), default: 2, valueName: "n",
        "Transfers in flight to one host at most.")

    public static let staleAfter = Setting(
        "stale-after", type: .duration, default: Seconds(3600), valueName: "duration",
        "A feed is due when its last update is this old (90s, 15m, 1h, 2d).")

    public static let deadline = Setting(
        "deadline", type: SettingType.duration.orUnset, default: nil, valueName: "duration", unsetMeans: "no deadline",
        "Start no feed after this long (90s, 15m, 1h); feeds not started are left for the next run.")

    public static let keepItems = Setting(
        "keep-items", type: SettingType.wholeNumber(in: Retention.itemLimits).orUnset, default: nil, valueName: "n", unsetMeans: "all",
        "Keep at most this many items per feed, newest first; items the feed still lists are always kept.")

    public static let keepDays = Setting(
        "keep-days", type: SettingType.wholeNumber(in: Retention.dayLimits).orUnset, default: nil, valueName: "days", unsetMeans: "all",
        "Keep items published within this many days; items the feed still lists are always kept.")
}
