import FeedStorage
import Foundation

/// The catalog is what ties each `feed_<id>.sqlite` to its feed. A catalog that is gone or
/// emptied while feed databases remain is a lost catalog, not a fresh start: a new one would
/// number feeds from 1 again and hand the old files to other feeds. Every command checks
/// here before it opens the catalog.
public enum CatalogGuard {
    /// The catalog file is missing or has zero bytes.
    static func isMissingOrEmpty(_ path: String) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        return size == nil || size == 0
    }

    /// Refuses a missing or zero-length catalog when feed databases are beside it.
    public static func refuseLostCatalog(_ configuration: PipelineConfiguration) throws(PipelineError) {
        let path = configuration.catalogPath
        guard isMissingOrEmpty(path) else { return }
        let databases = FeedDatabaseFile.databases(inDirectory: configuration.dataDirectory)
        guard databases.isEmpty else { throw .catalogLost(path: path, feedDatabases: databases) }
    }

    /// Refuses a catalog without a single feed when feed databases are beside it: updating or
    /// publishing it would report success over a data directory whose feeds it no longer knows.
    public static func refuseEmptyCatalog(_ catalog: Catalog, _ configuration: PipelineConfiguration) throws(PipelineError) {
        let feeds: [CatalogFeed]
        do {
            feeds = try catalog.feeds()
        } catch {
            throw .storage(error)
        }
        guard feeds.isEmpty else { return }
        let databases = FeedDatabaseFile.databases(inDirectory: configuration.dataDirectory)
        guard databases.isEmpty else { throw .catalogLost(path: configuration.catalogPath, feedDatabases: databases) }
    }
}
