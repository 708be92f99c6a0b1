import FeedStorage
import Foundation

/// Which feeds a run updates.
public enum FeedSelection: Sendable, Equatable {
    /// Feeds never updated (by feedid), then feeds whose interval has passed (oldest first),
    /// skipping feeds that are gone, in backoff, told to wait, or in their skip hours/days.
    case due(limit: Int?)
    /// Every feed that is not gone, whatever its schedule.
    case all
    /// These feeds, now, whatever their schedule (even gone or in backoff).
    case feeds([Int64])
}

/// The scheduling rules, pure: feeds and a time in, an ordered list out.
public enum UpdateSchedule {
    /// - Parameter withoutDatabase: feeds read before whose database is not there (set aside
    ///   as damaged, or removed by a person): due now, like feeds never updated, whatever
    ///   their interval, so that their items come back at the next run.
    public static func select(
        _ feeds: [CatalogFeed], _ selection: FeedSelection, now: Int64, configuration: PipelineConfiguration,
        withoutDatabase: Set<Int64> = []
    ) -> [CatalogFeed] {
        switch selection {
        case .feeds(let ids):
            let byID = Dictionary(feeds.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
            var seen: Set<Int64> = []
            return ids.compactMap { seen.insert($0).inserted ? byID[$0] : nil }
        case .all:
            return feeds.filter { !$0.state.gone }
        case .due(let limit):
            let eligible = feeds.filter {
                isDue($0, now: now, configuration: configuration)
                    || withoutDatabase.contains($0.feedID) && !$0.state.gone && ($0.state.nextAttempt ?? now) <= now
            }
            let never = eligible.filter { $0.lastUpdate == nil || withoutDatabase.contains($0.feedID) }.sorted { $0.feedID < $1.feedID }
            let stale = eligible.filter { $0.lastUpdate != nil && !withoutDatabase.contains($0.feedID) }.sorted {
                ($0.lastUpdate ?? 0, $0.feedID) < ($1.lastUpdate ?? 0, $1.feedID)
            }
            let ordered = never + stale
            return limit.map { Array(ordered.prefix(max(0, $0))) } ?? ordered
        }
    }

    public static func isDue(_ feed: CatalogFeed, now: Int64, configuration: PipelineConfiguration) -> Bool {
        if feed.state.gone { return false }
        if let next = feed.state.nextAttempt, next > now { return false }
        guard let last = feed.lastUpdate else { return true }
        let age = now - last
        if age < Int64(interval(feed, configuration: configuration)) { return false }
        // skipHours/skipDays are honoured, but never for longer than maxInterval.
        if age < Int64(configuration.maxInterval), inSkipWindow(feed.state, now: now) { return false }
        return true
    }

    /// When the feed is next due (skip hours and days aside): `nil` for a gone feed; a time
    /// at or before now means due now.
    public static func nextDue(_ feed: CatalogFeed, configuration: PipelineConfiguration) -> Int64? {
        if feed.state.gone { return nil }
        let byAge = feed.lastUpdate.map { $0 + Int64(interval(feed, configuration: configuration)) } ?? 0
        return max(byAge, feed.state.nextAttempt ?? 0)
    }

    /// `stale-after`, stretched by the feed's own hint up to `maxInterval`.
    public static func interval(_ feed: CatalogFeed, configuration: PipelineConfiguration) -> Int {
        max(configuration.staleAfter, min(feed.state.hintInterval ?? 0, configuration.maxInterval))
    }

    /// RSS skipHours (GMT hours) and skipDays (English day names).
    static func inSkipWindow(_ state: FetchState, now: Int64) -> Bool {
        let hour = Int((now % 86_400 + 86_400) % 86_400 / 3600)
        if state.skipHours.contains(hour) { return true }
        // 1970-01-01 was a Thursday.
        let days = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
        let day = days[Int(((now / 86_400) % 7 + 7) % 7)]
        return state.skipDays.contains { $0.caseInsensitiveCompare(day) == .orderedSame }
    }
}
