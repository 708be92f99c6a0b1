import FeedBasics

/// How much of a feed's history its database keeps. Clients download feed databases whole,
/// so an operator may bound them; by default nothing is ever removed. An item the feed still
/// lists is never removed, whatever the limits: it would only come back on the next fetch.
///
/// `keepItems` N keeps the items the feed lists now, all of them, and fills the room left up
/// to N with the newest of the others (by publication date, then first-seen time, then id):
/// never more than max(N, the number listed now). `keepDays` removes the others published
/// (or, undated, first seen) before the cutoff, whatever room is left.
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

    /// The ids to remove from `items` (id, pubdate, first seen) when the feed lists `listed`,
    /// in id order. The items listed stay; of the rest, ranked newest first by publication
    /// date, then first-seen time, then id ascending (the same choice on every machine), the
    /// first `keepItems` minus the number listed stay, unless older than `keepDays`.
    ///
    /// The listed items are not ranked with the others: ranked together, listed items that
    /// tie with older ones (seen in the same second) could fall behind them and leave their
    /// places inside N to items the feed no longer lists, keeping more than N.
    func expired(_ items: [(id: String, pubdate: Int64, firstSeen: Int64)], listed: Set<String>, now: Int64) -> [String] {
        guard !keepsEverything else { return [] }
        let others = items.filter { !listed.contains($0.id) }
        let listedCount = items.count - others.count
        let room = keepItems.map { max(0, $0 - listedCount) } ?? others.count
        let ranked = others.sorted { ($1.pubdate, $1.firstSeen, $0.id) < ($0.pubdate, $0.firstSeen, $1.id) }
        let cutoff = keepDays.map { now.saturatingSubtract(Int64($0).saturatingMultiply(86_400)) }
        var expired: [String] = []
        for (rank, item) in ranked.enumerated() {
            let tooMany = rank >= room
            let tooOld = cutoff.map { item.pubdate < $0 } ?? false
            if tooMany || tooOld { expired.append(item.id) }
        }
        return expired.sorted()
    }
}
