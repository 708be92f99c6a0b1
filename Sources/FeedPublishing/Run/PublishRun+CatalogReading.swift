import FeedBasics
import FeedStorage

/// What a publication reads of the catalog (issue 51): every feed's record, or, when the change
/// log can be trusted, every feedid and the records of the feeds it needs. At 1,000,000
/// catalogued feeds, reading every record was most of a publication of one changed feed.
extension PublishRun {
    /// Every record when the publication must look at every feed: several shards (a feed's
    /// shard is its URL's), a mark that cannot be trusted (``readChanges(previous:legacy:recovered:)``),
    /// `--full`, a recovery or repair of every pointer, a format-1 manifest, or catalog pages
    /// of another size; otherwise every feedid, and the records of the changed feeds, the
    /// chosen ones, those with pointers to repair and those whose entries the pages keep. Any
    /// other record is read when asked for (``CatalogFeeds``).
    func readCatalog(reading: ChangeReading, only: [Int64]?, start: ManifestStore.Start, recovering: Bool) throws(PublishError) -> CatalogFeeds {
        let previous = start.manifest
        let followsLog = shard.isAll && !recovering && !configuration.full && !start.legacy && previous.isRecord && !start.repairAll
            && reading.feedIDs != nil && reading.listingFeedIDs != nil
            && previous.catalogPages?.fits(pageSize: Self.catalogPageSize, groupSize: Self.catalogGroupSize) == true
        guard followsLog, let changed = reading.feedIDs else {
            return CatalogFeeds(all: try rethrowing(try catalog.feeds(), as: PublishError.storage))
        }
        let ids = try rethrowing(try catalog.feedIDs(), as: PublishError.storage)
        let feeds = CatalogFeeds(ids: ids, read: [], catalog: catalog)
        var needed = changed.union(only ?? []).union(start.repair)
        if let newest = previous.newest {
            needed.formUnion(newest.entries.map(\.feedID))
            needed.formUnion((newest.later ?? []).map(\.feedID))
            needed.formUnion(newest.unread ?? [])
        }
        try rethrowing(try feeds.prefetch(needed), as: PublishError.storage)
        return feeds
    }

    /// The feeds a publication that follows the log looks at: those the previous record
    /// publishes, those the log names, the chosen ones; listed ones only, ascending. A feed
    /// in none of them has no snapshot and no change since the record: nothing to publish.
    func publishCandidates(reading: ChangeReading, only: [Int64]?, previous: Manifest, catalog: CatalogFeeds) -> [Int64] {
        var ids = Set(previous.feeds.map(\.feedID))
        ids.formUnion(reading.feedIDs ?? [])
        ids.formUnion(only ?? [])
        return ids.filter(catalog.lists).sorted()
    }

    /// Every feed's health for `index.html`: from the records when they were all read, else from
    /// the few columns it rests on (the same summary, ``Catalog/healthSummary()``), as read
    /// ahead when it was.
    func health(of feeds: CatalogFeeds, readAhead: HealthReadAhead? = nil) throws(PublishError) -> FeedHealthSummary {
        if feeds.complete { return FeedHealthSummary(feeds.all, listing: configuration.listedFeeds) }
        // Read ahead, unless it was cancelled or failed (then read here, where a failure is the run's).
        if let summary = readAhead?.summaryIfRead() { return summary }
        return try rethrowing(try catalog.healthSummary(listing: configuration.listedFeeds), as: PublishError.storage)
    }
}
