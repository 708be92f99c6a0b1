import FeedBasics
import FeedStorage

extension NewestEntriesKept {
    /// The entries for the pages, what the next record keeps, and what it cost.
    struct Refreshed {
        var kept: NewestEntriesKept
        /// The newest `limit`, for `atom.xml` and `index.html`.
        var entries: [AggregateEntry]
        /// Snapshots that could not be read, with why: their entries are left out.
        var unreadable: [String]
        var snapshotsRead: Int
    }

    /// The newest entries of `published` (feeds the catalog no longer lists left out), from
    /// `previous` and the snapshots that need reading (see ``NewestEntriesKept``); every
    /// snapshot when there is no `previous`, it was kept for another `limit` or a later cutoff
    /// (a clock set back), or too few entries would be known.
    static func refresh(
        _ previous: NewestEntriesKept?, previousFiles: [Int64: String], published: [PublishedFeed], feeds: CatalogFeeds,
        limit: Int, notAfter: Int64, path: (String) throws(StorageError) -> String
    ) -> Refreshed {
        if let previous, previous.limit == limit, previous.notAfter <= notAfter,
            let refreshed = merge(previous, previousFiles: previousFiles, published: published, feeds: feeds, limit: limit, notAfter: notAfter, path: path)
        {
            return refreshed
        }
        // Without a previous state every snapshot is read, and the result is always usable.
        return merge(nil, previousFiles: [:], published: published, feeds: feeds, limit: limit, notAfter: notAfter, path: path)
            ?? Refreshed(kept: NewestEntriesKept(limit: limit, notAfter: notAfter, complete: false, entries: []), entries: [], unreadable: [], snapshotsRead: 0)
    }

    private static func merge(
        _ previous: NewestEntriesKept?, previousFiles: [Int64: String], published: [PublishedFeed], feeds: CatalogFeeds,
        limit: Int, notAfter: Int64, path: (String) throws(StorageError) -> String
    ) -> Refreshed? {
        let capacity = capacity(for: limit)
        let listed = published.filter { feeds.lists($0.feedID) }
        let listedIDs = Set(listed.map(\.feedID))
        let laterFrom = Dictionary((previous?.later ?? []).map { ($0.feedID, $0.from) }, uniquingKeysWith: Swift.min)
        let unread = Set(previous?.unread ?? [])
        let toRead = listed.filter { feed in
            previous == nil || previousFiles[feed.feedID] != feed.file || unread.contains(feed.feedID)
                || laterFrom[feed.feedID].map { $0 <= notAfter } == true
        }
        let readIDs = Set(toRead.map(\.feedID))

        // Below the last entry kept, entries of unchanged feeds may lie that were never kept:
        // nothing below it is known to be in order.
        let boundary = previous.flatMap { $0.complete ? nil : $0.entries.last }.map { AggregateEntry($0, feed: nil) }
        var newest = NewestEntries(limit: capacity)
        var added = 0
        func add(_ entry: AggregateEntry) {
            if let boundary, NewestEntries.precedes(boundary, entry) { return }
            newest.add(entry)
            added += 1
        }
        var later: [Later] = []
        for kept in previous?.entries ?? [] where listedIDs.contains(kept.feedID) && !readIDs.contains(kept.feedID) {
            add(AggregateEntry(kept, feed: feeds[kept.feedID]))
        }
        later += (previous?.later ?? []).filter { listedIDs.contains($0.feedID) && !readIDs.contains($0.feedID) }
        var unreadable: [String] = []
        var unreadIDs: [Int64] = []
        for feed in toRead {
            guard let catalogFeed = feeds[feed.feedID] else { continue }
            do throws(StorageError) {
                let read = try Snapshot.newestItemsAndLater(ofSnapshot: try path(feed.file), limit: limit, notAfter: notAfter)
                for item in read.items { add(AggregateEntry(item, feed: catalogFeed)) }
                if let from = read.later { later.append(Later(feedID: feed.feedID, from: from)) }
            } catch {
                unreadable.append("feed \(feed.feedID): \(error.description)")
                unreadIDs.append(feed.feedID)
            }
        }
        let complete = (previous?.complete ?? true) && added <= capacity
        let entries = newest.entries
        guard complete || entries.count >= limit else { return nil }
        later.sort { $0.feedID < $1.feedID }
        let kept = NewestEntriesKept(
            limit: limit, notAfter: notAfter, complete: complete, entries: entries.map(Kept.init),
            later: later.isEmpty ? nil : later, unread: unreadIDs.isEmpty ? nil : unreadIDs.sorted())
        return Refreshed(kept: kept, entries: Array(entries.prefix(limit)), unreadable: unreadable, snapshotsRead: toRead.count)
    }
}

extension NewestEntriesKept.Kept {
    init(_ entry: AggregateEntry) {
        self.init(
            feedID: entry.feedID, id: entry.id, title: entry.title, summary: entry.summary, permalink: entry.permalink,
            published: entry.published, updated: entry.updated, author: entry.author, undated: entry.undated)
    }
}

extension AggregateEntry {
    /// A kept entry with its feed's title and links as the catalog gives them now (a feed
    /// renamed since shows its new name).
    init(_ kept: NewestEntriesKept.Kept, feed: CatalogFeed?) {
        self.init(
            feedID: kept.feedID, feedTitle: feed.map { $0.title ?? $0.url } ?? "", feedURL: feed?.url ?? "", siteLink: feed?.state.siteLink,
            id: kept.id, title: kept.title, summary: kept.summary, permalink: kept.permalink,
            published: kept.published, updated: kept.updated, author: kept.author, undated: kept.undated)
    }

    init(_ item: SnapshotItem, feed: CatalogFeed) {
        self.init(
            feedID: feed.feedID, feedTitle: feed.title ?? feed.url, feedURL: feed.url, siteLink: feed.state.siteLink,
            id: item.id, title: item.title, summary: item.summary, permalink: item.permalink,
            published: item.published, updated: item.updated, author: item.author, undated: item.undated)
    }
}
