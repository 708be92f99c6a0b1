import FeedModel
import GRDB

/// One feed added or removed by hand (`rss-feeds add` / `remove`), without an OPML file.
extension Catalog {
    /// Adds `outline`'s URL unless the catalog already has it (compared as ``FeedURLKey``
    /// normalises URLs). A new feed gets a feedid as an import gives one (``FeedIDAllocator``). Not being in the feed list,
    /// it is marked so: `rss-create --prune` with a list that lacks it removes it.
    public func add(_ outline: CatalogOutline) throws(StorageError) -> (feed: CatalogFeed, isNew: Bool) {
        let onDisk = Set(FeedDatabaseFile.feedIDs(inDirectory: directory))
        return try StorageError.wrap(path, "adding a feed") {
            try queue.write { db -> (CatalogFeed, Bool) in
                let key = FeedURLKey.key(outline.url)
                let existing = try Row.fetchAll(db, sql: Self.selectFeeds).map(Self.feed)
                if let known = existing.first(where: { FeedURLKey.key($0.url) == key }) { return (known, false) }
                var feedIDs = try FeedIDAllocator(highWater: Self.highWater(db), listed: existing.map(\.feedID).max() ?? 0, onDisk: onDisk)
                let id = try feedIDs.next(path: path)
                let feed = try Self.insertNew(outline, id: id, inOPML: false, db: db)
                try Self.raiseHighWater(db, to: id)
                return (feed, true)
            }
        }
    }

    /// Removes the feed's rows from every catalog table in one transaction; its feedid is
    /// never given again. Returns the feed removed, `nil` when there was none.
    public func remove(feedID: Int64) throws(StorageError) -> CatalogFeed? {
        try StorageError.wrap(path, "removing feed \(feedID)") {
            try queue.write { db -> CatalogFeed? in
                guard let feed = try Row.fetchOne(db, sql: Self.selectFeeds + " WHERE feeds.feedid = ?", arguments: [feedID]).map(Self.feed)
                else { return nil }
                try Self.deleteRows(of: feedID, db: db)
                return feed
            }
        }
    }
}
