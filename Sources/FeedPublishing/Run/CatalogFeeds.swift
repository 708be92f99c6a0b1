import FeedStorage

/// The catalog's feeds as a publication knows them: every feedid, and the records it read. A
/// publication of every feed whose change log can be trusted reads only the records it needs
/// (the changed feeds, the pages' and pointers' feeds: ``PublishRun/readCatalog(reading:only:previous:start:recovering:)``);
/// one it did not read beforehand is read when asked for, so a lookup never answers "not
/// listed" for a listed feed.
final class CatalogFeeds {
    /// Ascending.
    let ids: [Int64]
    private let listed: SortedFeedIDs
    private var rows: [Int64: CatalogFeed]
    /// Where a record not read yet is read from; `nil`: `rows` holds every feed.
    private let catalog: Catalog?

    /// Every record, in feedid order, when every one was read (``complete``).
    let all: [CatalogFeed]

    /// Every feed, read.
    init(all feeds: [CatalogFeed]) {
        ids = feeds.map(\.feedID)
        listed = SortedFeedIDs(ids)
        rows = Dictionary(feeds.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
        catalog = nil
        all = feeds
    }

    /// Every feedid, and the records of `read`; the others are read from `catalog` when asked for.
    init(ids: [Int64], read: [CatalogFeed], catalog: Catalog) {
        self.ids = ids
        listed = SortedFeedIDs(ids)
        rows = Dictionary(read.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
        self.catalog = catalog
        all = []
    }

    var count: Int { ids.count }

    /// The records read so far (every one when ``complete``).
    var recordsRead: Int { rows.count }

    /// Whether the catalog lists `id`.
    func lists(_ id: Int64) -> Bool { listed.contains(id) }

    /// The feed's record; `nil` when the catalog does not list it (or it can no longer be read:
    /// removed since, or the catalog unreadable, when it was not read beforehand).
    subscript(id: Int64) -> CatalogFeed? {
        if let row = rows[id] { return row }
        guard let catalog, listed.contains(id), let row = try? catalog.feed(id: id) else { return nil }
        rows[id] = row
        return row
    }

    /// Reads the records of `ids` not read yet, in one pass.
    func prefetch(_ ids: some Sequence<Int64>) throws(StorageError) {
        guard let catalog else { return }
        let missing = ids.filter { listed.contains($0) && rows[$0] == nil }
        guard !missing.isEmpty else { return }
        for row in try catalog.feeds(ids: missing) { rows[row.feedID] = row }
    }

    /// The records of every feed in `range` (a catalog page), in feedid order.
    func feeds(in range: ClosedRange<Int64>) throws(StorageError) -> [CatalogFeed] {
        guard let catalog else { return all.filter { range.contains($0.feedID) } }
        let read = try catalog.feeds(in: range)
        for row in read { rows[row.feedID] = row }
        return read
    }

    /// Whether every record has been read: then the whole catalog is in memory anyway.
    var complete: Bool { catalog == nil }
}
