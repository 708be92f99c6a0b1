import FeedBasics
import FeedStorage
import Foundation

/// How the pipeline's commands open the catalog: the checks are the data directory's own
/// (``DataDirectory/openCatalogForUpdate()``); creating adds the lock before a lost catalog
/// is rebuilt or refused.
public enum CatalogAccess {
    /// `rss-update`: the catalog must exist and not be lost; the data directory is locked
    /// for the life of the returned lock.
    public static func openForUpdate(_ configuration: PipelineConfiguration) throws(PipelineError) -> (Catalog, RunLock) {
        let (catalog, lock) = try dataDirectory { () throws(DataDirectoryError) in
            try configuration.data.openCatalogForUpdate(writer: configuration.writer)
        }
        settleInterruptedWrites(catalog, now: configuration.clock())
        return (catalog, lock)
    }

    /// With the lock held no feed is being written: a write still marked was a killed run's,
    /// and becomes a change for the next publication to read; a change log without its epoch
    /// gets one. Left as it was if this fails (the publisher keeps reading the feed, or every
    /// feed), so the failure is no reason to stop.
    private static func settleInterruptedWrites(_ catalog: Catalog, now: Int64) {
        _ = try? catalog.settleInterruptedWrites(now: now)
    }

    /// `rss-create`: the data directory is created if needed and locked. With `rebuild`, a
    /// lost catalog's leftover `-wal`/`-shm` are set aside (returned) before a new catalog is
    /// opened; without it, a lost catalog is refused.
    public static func openForCreate(
        _ configuration: PipelineConfiguration, rebuild: Bool
    ) throws(PipelineError) -> (catalog: Catalog, lock: RunLock, setAside: [String]?) {
        let data = configuration.data
        let lock = try dataDirectory { () throws(DataDirectoryError) in
            try data.createIfMissing(writer: configuration.writer)
            return try RunLock(directory: data.path)
        }
        var setAside: [String]?
        if rebuild {
            setAside = try CatalogRebuild.prepare(configuration, now: configuration.clock())
        } else {
            try dataDirectory { () throws(DataDirectoryError) in try data.refuseLostCatalog() }
        }
        let isNew = data.catalogIsMissingOrEmpty
        let catalog = try rethrowing(try Catalog(path: data.catalogPath), as: PipelineError.storage)
        // Root allowed to write another user's directory gives the owner what it created.
        if isNew { CreatedFileOwnership.adopt(paths: ["", "-wal", "-shm"].map { data.catalogPath + $0 }, in: data.path) }
        settleInterruptedWrites(catalog, now: configuration.clock())
        return (catalog, lock, setAside)
    }

    /// `rss-feeds list` and `export`: read only, no lock on the data directory.
    public static func openForReading(_ configuration: PipelineConfiguration) throws(PipelineError) -> Catalog {
        try dataDirectory { () throws(DataDirectoryError) in try configuration.data.openCatalogForReading() }
    }

    private static func dataDirectory<T>(_ body: () throws(DataDirectoryError) -> T) throws(PipelineError) -> T {
        do {
            return try body()
        } catch {
            // A catalog that cannot be read is a storage failure, said as such.
            if case .storage(let storage) = error { throw .storage(storage) }
            throw .dataDirectory(error)
        }
    }
}
