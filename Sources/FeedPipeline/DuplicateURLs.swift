import FeedModel
import FeedStorage

/// Finds feeds the catalog lists twice, under URLs that are one once normalised
/// (``FeedURLKey``): `http://Example.COM/feed` and `http://example.com/feed` written into the
/// catalog by hand. Imports and `rss-feeds add` never list a URL twice; a person with
/// `sqlite3` can, and then the same items would be fetched and published under two feedids.
///
/// Seen once per run while the catalog is read to plan it, one feed at a time, keeping a hash
/// of each normal form (8 bytes a feed, not the URL): a million-feed catalog costs ~16 MB
/// while it is read, given back before the first transfer. A repeated hash is confirmed by
/// reading both feeds' URLs again, so a collision of hashes never reports a duplicate.
struct DuplicateURLs {
    private var seen: Set<Int> = []
    /// Feeds whose normal form's hash an earlier feed had, in feedid order.
    private var suspects: [Int64] = []

    mutating func see(_ feed: CatalogFeed) {
        if !seen.insert(FeedURLKey.key(feed.url).hashValue).inserted { suspects.append(feed.feedID) }
    }

    /// Each duplicate's feedid → the feedid of the first feed (lowest) with the same normal form.
    func confirmed(in catalog: Catalog) throws(StorageError) -> [Int64: Int64] {
        guard !suspects.isEmpty else { return [:] }
        var keys: [String: Int64] = [:]
        var duplicates: [Int64: Int64] = [:]
        var suspectKeys: Set<String> = []
        for id in suspects {
            if let feed = try catalog.feed(id: id) { suspectKeys.insert(FeedURLKey.key(feed.url)) }
        }
        try catalog.forEachFeed { feed in
            let key = FeedURLKey.key(feed.url)
            guard suspectKeys.contains(key) else { return }
            if let first = keys[key] { duplicates[feed.feedID] = first } else { keys[key] = feed.feedID }
        }
        return duplicates
    }
}
