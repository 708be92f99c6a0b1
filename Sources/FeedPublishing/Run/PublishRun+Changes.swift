import FeedStorage

/// What a publication reads: the feeds the catalog's change log has marked at or above the
/// record's mark (``CatalogChanges``), or every feed when the mark cannot be trusted.
struct ChangeReading: Sendable {
    /// The feeds to read; `nil`: every feed.
    var feedIDs: Set<Int64>?
    /// The client tables changed since the mark (or it cannot be told): the catalog snapshot is
    /// checked again.
    var catalogChanged = true
    /// The mark the next record keeps: the log as read before any feed was.
    var seen: ChangesSeen?
    /// Feeds whose client-table rows changed since the mark; `nil`: every feed's may have.
    var listingFeedIDs: Set<Int64>?

    static let everything = ChangeReading(feedIDs: nil)
}

extension PublishRun {
    /// Read before the catalog's feeds and before any feed database: a change made after it
    /// gets a mark above it, which the next publication reads. Every feed is read when the
    /// record has no mark (written before the log, or by format 1), when the log is another
    /// catalog's (its epoch differs: rebuilt, replaced) or went back (restored from a backup:
    /// its highest mark is below the record's), with `--full`, after a recovery (the record
    /// adopted may have dropped entries), or when the log cannot be read.
    func readChanges(previous: Manifest, legacy: Bool, recovered: Bool) -> ChangeReading {
        let mark = previous.changes
        guard let log = try? catalog.changes(from: mark?.seen ?? .max) else { return .everything }
        var reading = ChangeReading.everything
        reading.seen = ChangesSeen(epoch: log.epoch, seen: log.highest)
        guard !configuration.full, !legacy, !recovered, previous.isRecord, let mark, mark.epoch == log.epoch, log.highest >= mark.seen else {
            return reading
        }
        reading.feedIDs = log.feedIDs.union(previous.pendingFeeds ?? [])
        reading.catalogChanged = log.listingHighest >= mark.seen
        reading.listingFeedIDs = log.listingFeedIDs
        return reading
    }
}
