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
/// no `about` row yet (and is not waiting out a backoff), so it gets its database and title.
/// A second run changes nothing.
public struct CreateRun: Sendable {
    public let configuration: PipelineConfiguration
    public let catalog: Catalog

    public init(configuration: PipelineConfiguration, catalog: Catalog) {
        self.configuration = configuration
        self.catalog = catalog
    }

    /// - Parameter feedList: an OPML file path or http(s) URL. Relative `xmlUrl`s are
    ///   resolved against where the OPML came from.
    public func run(
        feedList: String, prune: Bool, progress: (@Sendable (FeedReport, Int, Int) -> Void)? = nil
    ) throws(PipelineError) -> CreateReport {
        let (outlines, rejected) = try loadOutlines(feedList)
        var imported: ImportResult
        let untitled: [Int64]
        do {
            imported = try catalog.importOutlines(outlines, prune: prune)
            imported.rejected = rejected
            if imported.pruned { imported.removalFailures = removeDatabases(of: imported.missing) }
            // Feeds that failed their first fetch wait for their backoff like any other.
            let now = configuration.clock()
            untitled = try catalog.feeds().filter { feed in
                feed.title == nil && !feed.state.gone && (feed.state.nextAttempt ?? now) <= now
            }.map(\.feedID)
        } catch {
            throw .storage(error)
        }
        let update = try UpdateRun(configuration: configuration, catalog: catalog).run(.feeds(untitled), progress: progress)
        return CreateReport(importResult: imported, update: update)
    }

    /// Removes the databases of pruned feeds, which the operator asked for. Their feedids are
    /// never given again, so a file left by a failed or interrupted removal is never adopted
    /// by another feed; failures are reported, not ignored.
    private func removeDatabases(of feeds: [CatalogFeed]) -> [String] {
        var failures: [String] = []
        for feed in feeds {
            let path = configuration.feedDatabasePath(feed.feedID)
            guard FeedDatabaseFile.condition(of: path) != .missing else { continue }
            if unlink(path) != 0 { failures.append("\(path): \(String(cString: strerror(errno)))") }
        }
        return failures
    }

    /// The outlines to import, and the ones refused with the reason: a feed URL must be an
    /// absolute http(s) URL (the only kind fetched, and the only kind that reaches clients);
    /// a site link that is not one is dropped.
    func loadOutlines(_ source: String) throws(PipelineError) -> (outlines: [CatalogOutline], rejected: [String]) {
        let document: LoadedDocument
        do {
            document = try FeedSource(source).load(configuration: configuration.fetch)
        } catch {
            throw .feedList(source: source, reason: error.description)
        }
        let base = document.origin
        let outlines: [OPMLOutline]
        do {
            outlines = try OPMLParser.parse(document.bytes)
        } catch {
            throw .feedList(source: source, reason: error.description)
        }
        var accepted: [CatalogOutline] = []
        var rejected: [String] = []
        for outline in outlines {
            guard let url = URLResolver.resolve(outline.xmlURL, against: base), URLResolver.isWebURL(url) else {
                rejected.append("\(outline.xmlURL): a feed URL must be an absolute http or https URL")
                continue
            }
            let siteLink = outline.htmlURL.flatMap { URLResolver.resolve($0, against: base) }.flatMap { URLResolver.isWebURL($0) ? $0 : nil }
            accepted.append(CatalogOutline(
                url: url, title: outline.title, siteLink: siteLink,
                category: outline.categoryPath.isEmpty ? nil : outline.categoryPath.joined(separator: "/")))
        }
        return (accepted, rejected)
    }
}
