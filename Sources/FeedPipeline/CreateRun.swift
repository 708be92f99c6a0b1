import FeedBasics
import FeedFetching
import FeedNormalization
import FeedParsing
import FeedStorage
import Foundation

/// What `rss-create` did: the import, then the first fetch of every feed without a title.
public struct CreateReport: Sendable {
    public var importResult: ImportResult
    public var update: RunReport
}

/// The create step: imports the feed list into the catalog, then fetches every feed that has
/// no `about` row yet (and is not waiting out a backoff after a failure of the publisher's),
/// so it gets its database and title.
/// A second run changes nothing. Under `--shard K/N` the whole list is imported (every shard
/// holds the same catalog) and only this shard's feeds are fetched, so only they get databases.
public struct CreateRun: Sendable {
    public let configuration: PipelineConfiguration
    public let catalog: Catalog

    public init(configuration: PipelineConfiguration, catalog: Catalog) {
        self.configuration = configuration
        self.catalog = catalog
    }

    /// - Parameter feedList: read with ``FeedList/load(_:base:configuration:)`` before the
    ///   catalog is opened, so an unreadable list leaves no catalog behind.
    public func run(
        feedList: consuming FeedList, prune: Bool, progress: (@Sendable (FeedReport, Int, Int) -> Void)? = nil
    ) throws(PipelineError) -> CreateReport {
        var imported: ImportResult
        let untitled: [Int64]
        do {
            imported = try catalog.importOutlines(feedList.outlines, prune: prune)
            imported.rejected = feedList.rejected
            _ = consume feedList
            if imported.pruned { imported.removalFailures = removeDatabases(of: imported.missing) }
            // Feeds that failed their first fetch wait for their backoff like any other, unless
            // what failed was this machine's own storage (an I/O error, a full disk): the
            // publisher was not at fault, and the next plain run must finish what that run
            // could not (issue 52), not leave the feed untitled until its backoff ends.
            let now = configuration.clock()
            var ids: [Int64] = []
            try catalog.forEachFeed { feed in
                guard feed.title == nil, !feed.state.gone, configuration.shard.owns(url: feed.url) else { return }
                let ownFailure = feed.state.lastErrorKind == .storage
                if ownFailure || !UpdateSchedule.isWaiting(feed, now: now, configuration: configuration) { ids.append(feed.feedID) }
            }
            untitled = ids
        } catch {
            throw .storage(error)
        }
        let update = try UpdateRun(configuration: configuration, catalog: catalog).run(.feeds(untitled), progress: progress)
        return CreateReport(importResult: imported, update: update)
    }

    /// Removes the databases of pruned feeds, which the operator asked for; failures are
    /// reported, not ignored.
    private func removeDatabases(of feeds: [CatalogFeed]) -> [String] {
        feeds.compactMap { FeedRemoval.removeDatabase(of: $0, configuration: configuration) }
    }
}
