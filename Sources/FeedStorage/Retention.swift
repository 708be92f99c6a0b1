import FeedBasics

/// How much of a feed's history its database keeps. Clients download feed databases whole,
/// so an operator may bound them; by default nothing is ever removed. An item the feed still
/// lists is never removed, whatever the limits: it would only come back on the next fetch.
public struct Retention: Sendable, Equatable {
    /// Keep at most this many items, newest first by publication date.
    public var keepItems: Int?
    /// Keep items published (or, without a date, first seen) within this many days.
    public var keepDays: Int?

    public init(keepItems: Int? = nil, keepDays: Int? = nil) {
        self.keepItems = keepItems
        self.keepDays = keepDays
    }

    public static let keepEverything = Retention()

    /// The limits an operator may set, on the command line, in the configuration file and per
    /// feed alike (`rss-feeds set`): at least one item, up to ten million; at least a day, up
    /// to a hundred years. A limit outside them found in the catalog (written by hand) is
    /// read as unset, and said so.
    public static let itemLimits: ClosedRange<Int> = 1...10_000_000
    public static let dayLimits: ClosedRange<Int> = 1...36_500

    public var keepsEverything: Bool { keepItems == nil && keepDays == nil }

    /// The feed's own limits (set in the catalog) where it has them, else these.
    public func overridden(by feed: Retention) -> Retention {
        Retention(keepItems: feed.keepItems ?? keepItems, keepDays: feed.keepDays ?? keepDays)
    }

    /// The ids to remove from `items` (id, pubdate, first seen) when the feed lists `listed`.
    /// Ranked newest first by publication date, then first-seen time, then id, so the choice
    /// is the same on every machine.
    func expired(_ items: [(id: String, pubdate: Int64, firstSeen: Int64)], listed: Set<String>, now: Int64) -> [String] {
        guard !keepsEverything else { return [] }
        let ranked = items.sorted { ($1.pubdate, $1.firstSeen, $0.id) < ($0.pubdate, $0.firstSeen, $1.id) }
        let cutoff = keepDays.map { now.saturatingSubtract(Int64($0).saturatingMultiply(86_400)) }
        var expired: [String] = []
        for (rank, item) in ranked.enumerated() where !listed.contains(item.id) {
            let tooMany = keepItems.map { rank >= $0 } ?? false
            let tooOld = cutoff.map { item.pubdate < $0 } ?? false
            if tooMany || tooOld { expired.append(item.id) }
        }
        return expired.sorted()
    }
}
