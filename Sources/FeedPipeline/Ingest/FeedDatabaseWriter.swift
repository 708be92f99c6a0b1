import FeedModel
import FeedStorage

/// `rss-update`'s destination: the feed's database, written in one transaction that commits
/// only once the whole document has been read (``FeedUpsert``); anything else rolls it back.
///
/// The database is opened at the first entry, so a body that is no feed at all never opens
/// it; a feed's first database appears under its name only once committed (``FeedDatabase``).
/// A dry run for a feed without a healthy database counts the entries instead.
final class FeedDatabaseWriter: EntryDestination {
    private let feed: CatalogFeed
    private let path: String
    private let now: Int64
    private let retention: Retention
    private let dryRun: Bool
    /// Told before the commit that the feed is being written (``Catalog/markWriting(_:)``);
    /// `nil` in a dry run, which writes nothing.
    private let changes: Catalog?
    /// Keeps the feed's database open while it lives.
    private var upsert: FeedUpsert?
    /// Entries counted instead of stored.
    private var counted = 0

    init(feed: CatalogFeed, path: String, now: Int64, retention: Retention, dryRun: Bool, changes: Catalog?) {
        (self.feed, self.path, self.now, self.retention, self.dryRun) = (feed, path, now, retention, dryRun)
        self.changes = dryRun ? nil : changes
    }

    deinit { cancel() }

    func add(_ entry: Entry) throws(StorageError) {
        guard let upsert = try openUpsert() else {
            counted += 1
            return
        }
        try upsert.add(entry)
    }

    /// Marks the feed as being written in the catalog, then commits: a publisher reading the
    /// catalog meanwhile reads this feed, whichever side of the commit it finds.
    func commit() throws(StorageError) -> UpsertSummary {
        guard let upsert = try openUpsert() else { return UpsertSummary(inserted: counted) }
        try changes?.markWriting(feed.feedID)
        return try upsert.commit()
    }

    /// Throws away whatever was written (a new file, whole).
    func cancel() {
        upsert?.cancel()
        upsert = nil
    }

    /// The feed's transaction, opened at the first use; `nil` in a dry run without a healthy file.
    private func openUpsert() throws(StorageError) -> FeedUpsert? {
        if let upsert { return upsert }
        if dryRun, FeedDatabaseFile.condition(of: path) != .healthy { return nil }
        let database = try FeedDatabase(path: path, identity: feed.identity)
        upsert = try database.beginUpsert(now: now, retention: retention, writes: !dryRun)
        return upsert
    }
}
