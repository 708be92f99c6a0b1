import FeedBasics
import FeedStorage
import Foundation

/// What rebuilding a lost catalog found.
public struct RebuildReport: Sendable, Equatable {
    /// Feeds listed again under their own feedids, from the stamps in their databases.
    public var adopted: [CatalogFeed] = []
    /// Feed databases with no stamp (written before stamping) or unreadable: left where they
    /// are, their feedids never given to another feed, but not listed.
    public var unrecoverable: [String] = []
    /// Leftover WAL files of the lost catalog, set aside so SQLite cannot replay them into the new one.
    public var setAside: [String] = []
}

/// `rss-create --rebuild-catalog`: when `all_feeds.sqlite` is missing or empty but feed
/// databases remain, list each stamped feed database again under its own feedid and URL, so
/// no feed inherits another's items and nothing is fetched into the wrong file. The feed list
/// is imported afterwards as usual: URLs already listed keep their feedids.
public enum CatalogRebuild {
    /// Call before the catalog is opened: sets aside a lost catalog's leftover `-wal`/`-shm`.
    public static func prepare(_ configuration: PipelineConfiguration, now: Int64) throws(PipelineError) -> [String] {
        let path = configuration.catalogPath
        guard configuration.data.catalogIsMissingOrEmpty else { return [] }
        var moved: [String] = []
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            let target = "\(path)\(suffix).set-aside-\(now)"
            try rethrowing(try DurableFiles.rename(path + suffix, to: target), as: { PipelineError.storage(StorageError($0)) })
            moved.append(target)
        }
        return moved
    }

    public static func adopt(_ configuration: PipelineConfiguration, into catalog: Catalog) throws(PipelineError) -> RebuildReport {
        var report = RebuildReport()
        var identities: [FeedIdentity] = []
        for feedID in FeedDatabaseFile.databases(inDirectory: configuration.dataDirectory) {
            let path = configuration.feedDatabasePath(feedID)
            guard FeedDatabaseFile.condition(of: path) == .healthy else {
                report.unrecoverable.append("\(path): not a usable database")
                continue
            }
            do {
                guard let identity = try FeedDatabase.stampedIdentity(at: path) else {
                    report.unrecoverable.append("\(path): written before feed databases were stamped; its URL is unknown")
                    continue
                }
                guard identity.feedID == feedID else {
                    report.unrecoverable.append("\(path): stamped for feed \(identity.feedID)")
                    continue
                }
                identities.append(identity)
            } catch {
                report.unrecoverable.append(error.description)
            }
        }
        report.adopted = try rethrowing(try catalog.adopt(identities), as: PipelineError.storage)
        return report
    }
}
