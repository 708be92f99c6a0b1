import FeedStorage
import Foundation

/// Removing a feed's database, which the operator asked for (`--prune`, `rss-feeds remove`).
public enum FeedRemoval {
    /// Removes `feed_<id>.sqlite` if it is this feed's: a file stamped for another feed (copied
    /// in by hand, left by a lost catalog) is never deleted. The feed's id is never given again,
    /// so a file left by a failed or refused removal is never adopted by another feed.
    /// Returns why the file was kept, or `nil` when it is gone.
    public static func removeDatabase(of feed: CatalogFeed, configuration: PipelineConfiguration) -> String? {
        let path = configuration.feedDatabasePath(feed.feedID)
        guard FeedDatabaseFile.condition(of: path) != .missing else { return nil }
        if let mismatch = FeedDatabase.mismatch(at: path, for: feed.identity), mismatch.kind == .foreign {
            return "\(path): kept, \(mismatch.message)"
        }
        return unlink(path) == 0 ? nil : "\(path): \(String(cString: strerror(errno)))"
    }
}
