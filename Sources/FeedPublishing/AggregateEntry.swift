import FeedBasics
import FeedModel
import FeedStorage

/// One entry of the aggregated outputs, with the feed it came from.
struct AggregateEntry: Equatable {
    var feedID: Int64
    var feedTitle: String
    var feedURL: String
    var siteLink: String?
    var id: String
    var title: String
    var summary: String
    var permalink: String?
    var published: Int64
    var updated: Int64?
    var author: String?
    /// The feed gave no date: `published` is when Feedmill first saw the entry.
    var undated: Bool

    /// How far after a publication an entry's date may lie and still count among the newest
    /// (the one day normalisation allows a feed's clock to run ahead).
    static let futureAllowance: Int64 = 86_400

    /// The newest `limit` entries across the published snapshots, dated no later than
    /// `notAfter`: newest first, then by feedid and id, so the order never depends on timing.
    /// A snapshot that cannot be read is named in `unreadable` and its entries left out. Only
    /// the newest are held while the snapshots are read (``NewestEntries``).
    static func newest(
        _ limit: Int, feeds: [(feed: CatalogFeed, snapshot: String)], notAfter: Int64
    ) -> (entries: [AggregateEntry], unreadable: [String]) {
        var newest = NewestEntries(limit: limit)
        var unreadable: [String] = []
        for (feed, path) in feeds {
            let items: [SnapshotItem]
            do {
                items = try Snapshot.newestItems(ofSnapshot: path, limit: limit, notAfter: notAfter)
            } catch {
                unreadable.append("feed \(feed.feedID): \(error.description)")
                continue
            }
            for item in items { newest.add(AggregateEntry(item, feed: feed)) }
        }
        return (newest.entries, unreadable)
    }
}
