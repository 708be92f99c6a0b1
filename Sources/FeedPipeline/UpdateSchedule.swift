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
        var choice = Choice(selection, now: now, configuration: configuration)
        for feed in feeds { choice.consider(feed, hasNoDatabase: withoutDatabase.contains(feed.feedID)) }
        let byID = Dictionary(feeds.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
        return choice.chosen.compactMap { byID[$0] }
    }

    /// The same choice as ``select(_:_:now:configuration:withoutDatabase:)``, made one feed at
    /// a time as the catalog is read: it keeps a feedid and a sort key per chosen feed, never
    /// the feeds' records, so choosing among many thousands of feeds takes little memory.
    public struct Choice: Sendable {
        private let selection: FeedSelection
        private let now: Int64
        private let configuration: PipelineConfiguration
        /// Feeds never updated or without their database, then the others by their last update.
        private var first: [Int64] = []
        private var stale: [(lastUpdate: Int64, feedID: Int64)] = []
        /// `.feeds`: the requested feedids, and those of them the catalog has.
        private let requested: Set<Int64>
        public private(set) var found: Set<Int64> = []

        public init(_ selection: FeedSelection, now: Int64, configuration: PipelineConfiguration) {
            (self.selection, self.now, self.configuration) = (selection, now, configuration)
            if case .feeds(let ids) = selection { requested = Set(ids) } else { requested = [] }
        }

        public mutating func consider(_ feed: CatalogFeed, hasNoDatabase: Bool = false) {
            switch selection {
            case .feeds:
                if requested.contains(feed.feedID) { found.insert(feed.feedID) }
            case .all:
                if !feed.state.gone { first.append(feed.feedID) }
            case .due:
                let eligible = isDue(feed, now: now, configuration: configuration)
                    || hasNoDatabase && !feed.state.gone && (feed.state.nextAttempt ?? now) <= now
                guard eligible else { return }
                if let lastUpdate = feed.lastUpdate, !hasNoDatabase {
                    stale.append((lastUpdate, feed.feedID))
                } else {
                    first.append(feed.feedID)
                }
            }
        }

        /// The chosen feedids in the order they are to be fetched.
        public var chosen: [Int64] {
            switch selection {
            case .feeds(let ids):
                var seen: Set<Int64> = []
                return ids.filter { found.contains($0) && seen.insert($0).inserted }
            case .all:
                return first.sorted()
            case .due(let limit):
                let ordered = first.sorted() + stale.sorted { ($0.lastUpdate, $0.feedID) < ($1.lastUpdate, $1.feedID) }.map(\.feedID)
                return limit.map { Array(ordered.prefix(max(0, $0))) } ?? ordered
            }
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
