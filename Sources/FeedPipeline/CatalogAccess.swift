import FeedBasics
import FeedStorage
import Foundation

/// How each command opens the catalog, with every check that comes first, in one place.
/// The catalog is what ties each `feed_<id>.sqlite` to its feed: a catalog that is gone or
/// emptied while feed databases remain is a lost catalog, not a fresh start (a new one would
/// number feeds from 1 again and hand the old files to other feeds).
public enum CatalogAccess {
    /// `rss-update`: the catalog must exist and not be lost; the data directory is locked
    /// for the life of the returned lock.
    public static func openForUpdate(_ configuration: PipelineConfiguration) throws(PipelineError) -> (Catalog, RunLock) {
        try refuseNonDirectory(configuration)
        try refuseLostCatalog(configuration)
        guard FileManager.default.fileExists(atPath: configuration.catalogPath) else { throw .noCatalog(path: configuration.catalogPath) }
        let lock = try RunLock(directory: configuration.dataDirectory)
        let catalog = try open { () throws(StorageError) in try Catalog(path: configuration.catalogPath) }
        try refuseEmptyCatalog(catalog, configuration)
        return (catalog, lock)
    }

    /// `rss-create`: the data directory is created if needed and locked. With `rebuild`, a
    /// lost catalog's leftover `-wal`/`-shm` are set aside (returned) before a new catalog is
    /// opened; without it, a lost catalog is refused.
    public static func openForCreate(
        _ configuration: PipelineConfiguration, rebuild: Bool
    ) throws(PipelineError) -> (catalog: Catalog, lock: RunLock, setAside: [String]?) {
        if let problem = PipelineError.directoryProblem(configuration.dataDirectory, create: true) {
            throw .dataDirectory(path: configuration.dataDirectory, reason: problem)
        }
        let lock = try RunLock(directory: configuration.dataDirectory)
        var setAside: [String]?
        if rebuild {
            setAside = try CatalogRebuild.prepare(configuration, now: configuration.clock())
        } else {
            try refuseLostCatalog(configuration)
        }
        let catalog = try open { () throws(StorageError) in try Catalog(path: configuration.catalogPath) }
        return (catalog, lock, setAside)
    }

    /// `rss-publish`: read only, no lock on the data directory (publishing runs beside updates).
    public static func openForReading(_ configuration: PipelineConfiguration) throws(PipelineError) -> Catalog {
        try refuseNonDirectory(configuration)
        try refuseLostCatalog(configuration)
        guard FileManager.default.fileExists(atPath: configuration.catalogPath) else { throw .noCatalog(path: configuration.catalogPath) }
        let catalog = try open { () throws(StorageError) in try Catalog(readingAt: configuration.catalogPath) }
        try refuseEmptyCatalog(catalog, configuration)
        return catalog
    }

    /// A data directory that is a file is named as such, not reported as "no catalog".
    static func refuseNonDirectory(_ configuration: PipelineConfiguration) throws(PipelineError) {
        if let problem = PipelineError.directoryProblem(configuration.dataDirectory, create: false) {
            throw .dataDirectory(path: configuration.dataDirectory, reason: problem)
        }
    }

    /// The catalog file is missing or has zero bytes.
    static func isMissingOrEmpty(_ path: String) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        return size == nil || size == 0
    }

    /// Refuses a missing or zero-length catalog when feed databases are beside it.
    static func refuseLostCatalog(_ configuration: PipelineConfiguration) throws(PipelineError) {
        let path = configuration.catalogPath
        guard isMissingOrEmpty(path) else { return }
        let databases = FeedDatabaseFile.databases(inDirectory: configuration.dataDirectory)
        guard databases.isEmpty else { throw .catalogLost(path: path, feedDatabases: databases) }
    }

    /// Refuses a catalog without a single feed when feed databases are beside it: updating or
    /// publishing it would report success over a data directory whose feeds it no longer knows.
    static func refuseEmptyCatalog(_ catalog: Catalog, _ configuration: PipelineConfiguration) throws(PipelineError) {
        guard try !open({ () throws(StorageError) in try catalog.hasFeeds() }) else { return }
        let databases = FeedDatabaseFile.databases(inDirectory: configuration.dataDirectory)
        guard databases.isEmpty else { throw .catalogLost(path: configuration.catalogPath, feedDatabases: databases) }
    }

    private static func open<T>(_ body: () throws(StorageError) -> T) throws(PipelineError) -> T {
        try rethrowing(try body(), as: PipelineError.storage)
    }
}
