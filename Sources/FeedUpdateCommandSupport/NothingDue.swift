import FeedBasics
import FeedPipeline
import FeedStorage

/// What `rss-update` says, by hand on a terminal, when no feed was due: how many feeds there
/// are, when the next one is due and how to update now. A run that fetched nothing and said
/// nothing left a person wondering whether it worked; under cron or systemd it stays silent
/// (nothing happened, and whatever cron sees it mails).
public enum NothingDue {
    /// One line, e.g. `rss-update: nothing due: 3 feeds, next due in 59 min (2026-11-27 08:55 UTC); --all or --feed <feedid> updates now`.
    public static func line(_ feeds: [CatalogFeed], now: Int64, configuration: PipelineConfiguration) -> String {
        let shard = configuration.shard
        let mine = shard.isAll ? feeds : feeds.filter { shard.owns(url: $0.url) }
        let place = shard.isAll ? "" : " in shard \(shard.label)"
        guard !mine.isEmpty else {
            return "rss-update: nothing due: no feeds\(place) in the catalog; add one with rss-feeds add <url>, "
                + "or import a feed list with rss-create --opml <file>\n"
        }
        var counts = ["\(mine.count) \(mine.count == 1 ? "feed" : "feeds")\(place)"]
        let waiting = mine.filter { UpdateSchedule.isWaiting($0, now: now, configuration: configuration) }.count
        if waiting > 0 { counts.append("\(waiting) waiting out a backoff or Retry-After") }
        let gone = mine.filter(\.state.gone).count
        if gone > 0 { counts.append("\(gone) gone") }
        let next = mine.compactMap { UpdateSchedule.nextDue($0, now: now, configuration: configuration) }.min()
        let when: String
        switch next {
        case let next? where next > now: when = "next due in \(span(next - now)) (\(stamp(next)))"
        case _?: when = "the feeds due wait out their skipHours/skipDays"
        case nil: when = "none will be due again (every feed is gone)"
        }
        return "rss-update: nothing due: \(counts.joined(separator: ", ")); \(when); --all or --feed <feedid> updates now\n"
    }

    /// `45 s`, `59 min`, `5 h 2 min`, `3 d 4 h`: rounded to what a person plans with.
    static func span(_ seconds: Int64) -> String {
        switch seconds {
        case ..<90: return "\(seconds) s"
        case ..<5400: return "\((seconds + 30) / 60) min"
        case ..<172_800: return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        default: return "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h"
        }
    }

    /// `2026-11-27 08:55 UTC`: the one date format people read.
    static func stamp(_ seconds: Int64) -> String {
        String(CivilDate.rfc3339(seconds).prefix(16)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }
}
