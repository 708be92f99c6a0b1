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
        switch databaseRemoval(of: feed, configuration: configuration) {
        case .gone: return nil
        case .kept(let reason): return reason
        case .failed(let cause): return "\(configuration.feedDatabasePath(feed.feedID)): \(cause)"
        }
    }

    /// What became of the feed's database: gone (removed now, or there was none), kept
    /// because it is not known to be this feed's (never deleted), or not removed because the
    /// removal failed (an I/O error: the caller keeps the feed listed, so that the same
    /// command run again finishes it, issue 52).
    public enum Outcome: Equatable {
        case gone
        /// Why, with the path.
        case kept(String)
        /// The errno's meaning.
        case failed(String)
    }

    public static func databaseRemoval(of feed: CatalogFeed, configuration: PipelineConfiguration) -> Outcome {
        let path = configuration.feedDatabasePath(feed.feedID)
        switch FeedDatabaseFile.condition(of: path) {
        case .missing: return .gone
        case .healthy: break
        case .empty: return .kept("\(path): kept, it is empty, not a database this feed wrote")
        case .unusable(let reason): return .kept("\(path): kept, \(reason)")
        }
        if let mismatch = FeedDatabase.mismatch(at: path, for: feed.identity) {
            return .kept("\(path): kept, \(mismatch.message)")
        }
        guard unlink(path) == 0 else { return errno == ENOENT ? .gone : .failed(String(cString: strerror(errno))) }
        return .gone
    }
}
