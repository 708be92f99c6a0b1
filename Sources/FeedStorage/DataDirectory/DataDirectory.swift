import FeedBasics
import Foundation

/// The layout of a data directory, known here and nowhere else: the catalog
/// (`all_feeds.sqlite`), one database per feed (`feed_<id>.sqlite`, the names the original
/// clients know), set-aside copies beside them (`feed_<id>.sqlite.set-aside-<time>`) and the
/// run lock (`.feedmill.lock`). Every command, the publisher included, builds and reads these
/// names through this type, so a name cannot be spelt two ways.
public struct DataDirectory: Sendable, Equatable {
    /// The directory itself, as given.
    public let path: String
    /// Where the path came from, as `--print-config` says it (`data-dir from
    /// /etc/feedmill/feedmill.toml`), for messages that send a person to another directory.
    public var origin: String?

    public init(_ path: String, origin: String? = nil) {
        self.path = path
        self.origin = origin
    }

    /// Where the commands look when nothing else is said.
    public static let defaultPath = "./data"

    /// The catalog's file name, which is also the name clients know the catalog by.
    public static let catalogFileName = "all_feeds.sqlite"

    /// The lock file that keeps runs on one data directory from overlapping (``RunLock``).
    public static let lockFileName = ".feedmill.lock"

    /// `feed_<id>.sqlite`: a feed's database, and the name clients know it by.
    public static func feedDatabaseFileName(_ feedID: Int64) -> String { "feed_\(feedID).sqlite" }

    /// The feedid a file of the data directory is named for: `feed_<id>.sqlite` and anything
    /// that starts so (a journal, a set-aside copy); `nil` for any other name.
    public static func feedID(inFileName name: String) -> Int64? {
        guard name.hasPrefix("feed_") else { return nil }
        let digits = name.dropFirst("feed_".count).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, name.dropFirst("feed_".count + digits.count).hasPrefix(".sqlite") else { return nil }
        return Int64(digits)
    }

    public var catalogPath: String { path + "/" + Self.catalogFileName }

    public func feedDatabasePath(_ feedID: Int64) -> String { path + "/" + Self.feedDatabaseFileName(feedID) }

    public var lockPath: String { path + "/" + Self.lockFileName }
}
