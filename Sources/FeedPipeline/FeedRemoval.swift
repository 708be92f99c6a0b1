import FeedStorage
import Foundation

/// Removing a feed's database, which the operator asked for (`--prune`, `rss-feeds remove`).
public enum FeedRemoval {
    /// Removes `feed_<id>.sqlite` only if it is this feed's database: a regular SQLite file
    /// stamped for this feed (or unstamped, written before stamps). Anything else at that name
    /// is not known to be Feedmill's and is never deleted: a file stamped for another feed
    /// (copied in by hand, left by a lost catalog), a link, or something that is not a
    /// database. The feed's id is never given again, so a file left by a failed or refused
    /// removal is never adopted by another feed. Returns why the file was kept, or `nil`
    /// when it is gone.
    public static func removeDatabase(of feed: CatalogFeed, configuration: PipelineConfiguration) -> String? {
        let path = configuration.feedDatabasePath(feed.feedID)
        switch FeedDatabaseFile.condition(of: path) {
        case .missing: return nil
        case .healthy: break
        case .empty: return "\(path): kept, it is empty, not a database this feed wrote"
        case .unusable(let reason): return "\(path): kept, \(reason)"
        }
        if let mismatch = FeedDatabase.mismatch(at: path, for: feed.identity) {
            return "\(path): kept, \(mismatch.message)"
        }
        return unlink(path) == 0 ? nil : "\(path): \(String(cString: strerror(errno)))"
    }
}
