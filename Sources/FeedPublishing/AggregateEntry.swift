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

    /// The newest `limit` entries across the published snapshots: newest first, then by
    /// feedid and id, so the order never depends on timing.
    static func newest(_ limit: Int, feeds: [(feed: CatalogFeed, snapshot: String)]) throws(StorageError) -> [AggregateEntry] {
        var entries: [AggregateEntry] = []
        for (feed, path) in feeds {
            for item in try Snapshot.newestItems(ofSnapshot: path, limit: limit) {
                entries.append(AggregateEntry(
                    feedID: feed.feedID, feedTitle: feed.title ?? feed.url, feedURL: feed.url, siteLink: feed.state.siteLink,
                    id: item.id, title: item.title, summary: item.summary, permalink: item.permalink,
                    published: item.published, updated: item.updated, author: item.author, undated: item.undated))
            }
        }
        entries.sort { ($1.published, $0.feedID, $0.id) < ($0.published, $1.feedID, $1.id) }
        return Array(entries.prefix(limit))
    }
}
