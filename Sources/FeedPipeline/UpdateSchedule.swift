import FeedBasics
import FeedFetching
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
        return choice.plan().feedIDs.compactMap { byID[$0] }
    }

    /// The feeds a run fetches, in the order they are to be fetched, and the host each one's
    /// fetch goes to (``FetchScheduler/hostKey(_:)``, one string per host, shared by its
    /// feeds): what the run needs before its first transfer, and no more.
    public struct Plan: Sendable, Equatable {
        public var feedIDs: [Int64]
        public var hosts: [String]

        public init(feedIDs: [Int64] = [], hosts: [String] = []) {
            (self.feedIDs, self.hosts) = (feedIDs, hosts)
        }

        mutating func append(_ candidate: Candidate) {
            feedIDs.append(candidate.feedID)
            hosts.append(candidate.host)
        }
    }

    /// A feed the choice may take, with its fetch's host.
    struct Candidate: Sendable {
        let feedID: Int64
        let host: String
    }

    /// The same choice as ``select(_:_:now:configuration:withoutDatabase:)``, made one feed at
    /// a time as the catalog is read: it keeps a feedid, a host and a sort key per chosen feed,
    /// never the feeds' records, so choosing among many thousands of feeds takes little memory,
    /// and the catalog is read once: reading each chosen feed's record again for its host
    /// delayed the first transfer of a large run (docs/perf-notes/files-checked-by-workers.md).
    public struct Choice: Sendable {
        private let selection: FeedSelection
        private let now: Int64
        private let configuration: PipelineConfiguration
        /// Feeds never updated or without their database, then the others by their last update.
        private var first: [Candidate] = []
        private var stale: [(lastUpdate: Int64, candidate: Candidate)] = []
        /// `.feeds`: the requested feedids, and those of them the catalog has, with their hosts.
        private let requested: Set<Int64>
        private var foundHosts: [Int64: String] = [:]
        /// One string per host.
        private var hostNames: [String: String] = [:]

        public init(_ selection: FeedSelection, now: Int64, configuration: PipelineConfiguration) {
            (self.selection, self.now, self.configuration) = (selection, now, configuration)
            if case .feeds(let ids) = selection { requested = Set(ids) } else { requested = [] }
        }

        /// `.feeds`: the requested feedids the catalog has.
        public var found: Set<Int64> { Set(foundHosts.keys) }

        public mutating func consider(_ feed: CatalogFeed, hasNoDatabase: Bool = false) {
            switch selection {
            case .feeds:
                if requested.contains(feed.feedID) { foundHosts[feed.feedID] = host(of: feed) }
            case .all:
                if !feed.state.gone { first.append(Candidate(feedID: feed.feedID, host: host(of: feed))) }
            case .due:
                let eligible = isDue(feed, now: now, configuration: configuration)
                    || hasNoDatabase && !feed.state.gone && (feed.state.nextAttempt ?? now) <= now
                guard eligible else { return }
                let candidate = Candidate(feedID: feed.feedID, host: host(of: feed))
                if let lastUpdate = feed.lastFetched, !hasNoDatabase {
                    stale.append((lastUpdate, candidate))
                } else {
                    first.append(candidate)
                }
            }
        }

        private mutating func host(of feed: CatalogFeed) -> String {
            let key = FetchScheduler.hostKey(feed.url)
            if let known = hostNames[key] { return known }
            hostNames[key] = key
            return key
        }

        /// The chosen feeds in the order they are to be fetched. Sorts in place, so the
        /// choice is used up.
        public consuming func plan() -> Plan {
            var plan = Plan()
            switch selection {
            case .feeds(let ids):
                var seen: Set<Int64> = []
                for id in ids where seen.insert(id).inserted {
                    if let host = foundHosts[id] { plan.append(Candidate(feedID: id, host: host)) }
                }
            case .all:
                first.sort { $0.feedID < $1.feedID }
                for candidate in first { plan.append(candidate) }
            case .due(let limit):
                first.sort { $0.feedID < $1.feedID }
                stale.sort { ($0.lastUpdate, $0.candidate.feedID) < ($1.lastUpdate, $1.candidate.feedID) }
                let count = min(first.count + stale.count, limit.map { max(0, $0) } ?? .max)
                for candidate in first.prefix(count) { plan.append(candidate) }
                for entry in stale.prefix(count - min(count, first.count)) { plan.append(entry.candidate) }
            }
            return plan
        }
    }

    /// Whether the feed is due at `now`. Times the catalog holds that this run's clock
    /// cannot have written (``clockAnomaly(_:now:configuration:)``: a last update after now,
    /// a next attempt past any wait Feedmill sets) are read as "due now", never as a wait: a
    /// clock that ran fast and was then set back must not stop polling for as long as it was
    /// wrong.
    public static func isDue(_ feed: CatalogFeed, now: Int64, configuration: PipelineConfiguration) -> Bool {
        if feed.state.gone { return false }
        // A wait Feedmill could have set (backoff, Retry-After) is honoured whatever else is wrong.
        if isWaiting(feed, now: now, configuration: configuration) { return false }
        if clockAnomaly(feed, now: now, configuration: configuration) != nil { return true }
        guard let last = feed.lastFetched else { return true }
        let age = now.saturatingSubtract(last)
        if age < Int64(interval(feed, configuration: configuration)) { return false }
        // skipHours/skipDays are honoured, but never for longer than maxInterval.
        if age < Int64(configuration.maxInterval), inSkipWindow(feed.state, now: now) { return false }
        return true
    }

    /// When the feed is next due (skip hours and days aside): `nil` for a gone feed; a time
    /// at or before `now` means due now, as it does for times this clock cannot have written.
    public static func nextDue(_ feed: CatalogFeed, now: Int64, configuration: PipelineConfiguration) -> Int64? {
        if feed.state.gone { return nil }
        if isWaiting(feed, now: now, configuration: configuration) { return feed.state.nextAttempt }
        if clockAnomaly(feed, now: now, configuration: configuration) != nil { return now }
        let byAge = feed.lastFetched.map { $0.saturatingAdd(Int64(interval(feed, configuration: configuration))) } ?? 0
        return max(byAge, feed.state.nextAttempt ?? 0)
    }

    /// ``nextDue(_:now:configuration:)`` as stored for the schedule's index
    /// (``Catalog/save(_:nextDue:)``): a gone feed is never due, `Int64.max`.
    public static func storedNextDue(_ feed: CatalogFeed, now: Int64, configuration: PipelineConfiguration) -> Int64 {
        nextDue(feed, now: now, configuration: configuration) ?? .max
    }

    /// What the stored next due times depend on besides each feed's own state: another
    /// stale-after, maximum interval or longest wait makes them all wrong.
    public static func key(_ configuration: PipelineConfiguration) -> Int64 {
        let settings = "\(configuration.staleAfter)/\(configuration.maxInterval)/\(configuration.longestWait)"
        var hasher = SHA256()
        hasher.update(settings)
        // 53 bits: an integer SQLite and every JSON reader hold exactly.
        return hasher.finalize().prefix(7).reduce(Int64(0)) { $0 << 8 | Int64($1) } >> 3
    }

    /// The feed waits out a backoff or a `Retry-After`: its next attempt lies ahead of `now`,
    /// but no further than the longest wait Feedmill sets.
    public static func isWaiting(_ feed: CatalogFeed, now: Int64, configuration: PipelineConfiguration) -> Bool {
        guard let next = feed.state.nextAttempt, next > now else { return false }
        return next.saturatingSubtract(now) <= configuration.longestWait
    }

    /// Why the feed's stored times cannot have been written by a clock that agrees with `now`,
    /// if they cannot: its last update lies after now, or its next attempt lies further ahead
    /// than the longest wait Feedmill ever sets (``PipelineConfiguration/longestWait``). Either
    /// means the clock ran fast when they were written, or has been set back since.
    public static func clockAnomaly(_ feed: CatalogFeed, now: Int64, configuration: PipelineConfiguration) -> String? {
        if let last = feed.lastFetched, last > now {
            return "its last update (\(CivilDate.rfc3339(last))) is \(last.saturatingSubtract(now)) s after this run's clock "
                + "(\(CivilDate.rfc3339(now))): the clock was wrong or has been set back; due now"
        }
        if let next = feed.state.nextAttempt, next.saturatingSubtract(now) > configuration.longestWait {
            return "its next attempt (\(CivilDate.rfc3339(next))) is further ahead than any wait Feedmill sets "
                + "(\(configuration.longestWait) s): the clock was wrong or has been set back; due now"
        }
        return nil
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
