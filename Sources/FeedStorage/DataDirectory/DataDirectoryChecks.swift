import FeedBasics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How every command opens the catalog, with every check that comes first, in one place.
/// The catalog is what ties each `feed_<id>.sqlite` to its feed: a catalog that is gone or
/// emptied while feed databases remain is a lost catalog, not a fresh start (a new one would
/// number feeds from 1 again and hand the old files to other feeds).
extension DataDirectory {
    /// `rss-update`, `rss-feeds add`: the catalog must exist and not be lost, and the
    /// directory be this user's (unless `writer` allows others); the data directory is
    /// locked for the life of the returned lock.
    public func openCatalogForUpdate(writer: OtherUserPolicy = OtherUserPolicy()) throws(DataDirectoryError) -> (Catalog, RunLock) {
        try refuseNonDirectory()
        try refuseOtherUser(writer)
        try refuseLostCatalog()
        guard FileManager.default.fileExists(atPath: catalogPath) else { throw .noCatalog(directory: path, origin: origin) }
        let lock = try RunLock(directory: path)
        let catalog = try Self.storage { () throws(StorageError) in try Catalog(path: catalogPath) }
        try refuseEmptyCatalog(catalog)
        return (catalog, lock)
    }

    /// `rss-publish`, `rss-feeds list`: read only, no lock on the data directory (reading runs
    /// beside updates).
    public func openCatalogForReading() throws(DataDirectoryError) -> Catalog {
        try refuseNonDirectory()
        try refuseLostCatalog()
        guard FileManager.default.fileExists(atPath: catalogPath) else { throw .noCatalog(directory: path, origin: origin) }
        let catalog = try Self.storage { () throws(StorageError) in try Catalog(readingAt: catalogPath) }
        try refuseEmptyCatalog(catalog)
        return catalog
    }

    /// `rss-create`: the directory is created when missing and must then be usable, and be
    /// this user's unless `writer` allows others.
    public func createIfMissing(writer: OtherUserPolicy = OtherUserPolicy()) throws(DataDirectoryError) {
        var info = stat()
        if stat(path, &info) != 0, errno == ENOENT {
            // Judged before it is made: inside another user's directory it would be this one's.
            try refuseOtherUser(writer)
            do throws(FileSystemDiagnosis.CreationFailure) {
                try FileSystemDiagnosis.makeDirectories(path)
            } catch {
                let reason = FileSystemDiagnosis.problem(writing: error.path).map { "\($0); " } ?? ""
                throw error.isPermission
                    ? .denied(path: path, reason: error.description) : .cannotCreate(path: path, reason: reason + error.description)
            }
        }
        // A file where the directory would be: it cannot be created (73), not "no input".
        if let problem = FileSystemDiagnosis.directoryProblem(path, create: false) { throw .cannotCreate(path: path, reason: problem) }
        try refuseOtherUser(writer)
    }

    /// A writing command run by someone who does not own the directory (``OtherUserPolicy``).
    public func refuseOtherUser(_ writer: OtherUserPolicy) throws(DataDirectoryError) {
        try rethrowing(try writer.check(writingInto: path, role: "data directory"), as: DataDirectoryError.otherOwner)
    }

    /// A data directory that is a file is named as such, not reported as "no catalog".
    public func refuseNonDirectory() throws(DataDirectoryError) {
        if let problem = FileSystemDiagnosis.directoryProblem(path, create: false) { throw .unusable(path: path, reason: problem) }
    }

    /// The catalog file is missing or has zero bytes.
    public var catalogIsMissingOrEmpty: Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: catalogPath)[.size] as? Int) ?? nil
        return size == nil || size == 0
    }

    /// Refuses a missing or zero-length catalog when feed databases are beside it.
    public func refuseLostCatalog() throws(DataDirectoryError) {
        guard catalogIsMissingOrEmpty else { return }
        let databases = FeedDatabaseFile.databases(inDirectory: path)
        guard databases.isEmpty else { throw .catalogLost(path: catalogPath, feedDatabases: databases) }
    }

    /// Refuses a catalog without a single feed when feed databases are beside it: updating or
    /// publishing it would report success over a data directory whose feeds it no longer knows.
    public func refuseEmptyCatalog(_ catalog: Catalog) throws(DataDirectoryError) {
        guard try !Self.storage({ () throws(StorageError) in try catalog.hasFeeds() }) else { return }
        let databases = FeedDatabaseFile.databases(inDirectory: path)
        guard databases.isEmpty else { throw .catalogLost(path: catalogPath, feedDatabases: databases) }
    }

    private static func storage<T>(_ body: () throws(StorageError) -> T) throws(DataDirectoryError) -> T {
        try rethrowing(try body(), as: DataDirectoryError.storage)
    }
}
