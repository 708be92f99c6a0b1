/// Why a data directory cannot be worked on at all: it is busy, unusable, has no catalog yet,
/// or has lost its catalog. Said before any feed is touched, whichever command finds it.
public enum DataDirectoryError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Another run holds the lock (``RunLock``); `holder` is its pid, or who it is.
    case busy(lockPath: String, holder: String)
    /// The directory cannot be used: it is a file, or cannot be reached.
    case unusable(path: String, reason: String)
    /// The directory, or a file Feedmill makes in it (the lock), cannot be created.
    case cannotCreate(path: String, reason: String)
    /// This user may not write there (EACCES, EPERM); the reason names the errno and the path.
    case denied(path: String, reason: String)
    /// A writing command run by a user who does not own the directory (``OtherUserPolicy``).
    case otherOwner(OtherOwnerRefusal)
    /// The catalog is missing or empty while feed databases exist beside it.
    case catalogLost(path: String, feedDatabases: [Int64])
    /// There is no catalog yet (and no feed databases): `rss-create` comes first, or the
    /// command was pointed at the wrong directory. `origin`: where the directory's path came from.
    case noCatalog(directory: String, origin: String?)
    /// The catalog could not be opened or read.
    case storage(StorageError)

    public var description: String {
        switch self {
        case .busy(let lockPath, let holder):
            let who = holder.allSatisfy(\.isNumber) ? "another Feedmill run (pid \(holder))" : holder
            return "\(who) is using \(lockPath); try again when it has finished"
        case .unusable(let path, let reason):
            return "cannot use data directory \(path): \(reason)"
        case .cannotCreate(let path, let reason):
            return "cannot use data directory \(path): \(reason)"
        case .denied(let path, let reason):
            return "cannot write in data directory \(path): \(reason)"
        case .otherOwner(let refusal):
            return refusal.description
        case .storage(let error):
            return error.description
        case .noCatalog(let directory, let origin):
            return "no catalog in \(directory)\(origin.map { " (\($0))" } ?? ""): run rss-create first, "
                + "or point at another data directory with --data-dir or FEEDMILL_DATA_DIR"
        case .catalogLost(let path, let ids):
            let shown = ids.prefix(5).map(DataDirectory.feedDatabaseFileName).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
            return "\(path) is missing or empty, but \(ids.count) feed database(s) are beside it (\(shown)); "
                + "a new catalog could give their feedids to other feeds. Restore \(DataDirectory.catalogFileName) from a backup, "
                + "or run rss-create --rebuild-catalog to list them again from their own stamps, "
                + "or move the feed_*.sqlite files elsewhere to start a new catalog"
        }
    }
}

/// `--feed` named feedids the catalog does not have: said before anything is done, by every
/// command that takes `--feed`.
public struct UnknownFeeds: Error, CustomStringConvertible, Equatable, Sendable {
    public var feedIDs: [Int64]

    public init(_ feedIDs: [Int64]) {
        self.feedIDs = feedIDs
    }

    public var description: String {
        "no feed with feedid \(feedIDs.map(String.init).joined(separator: ", ")) in the catalog; "
            + "rss-feeds list shows the feedids there are"
    }

    /// Every id in `requested` that `known` lacks, in order and once each; `nil` when none.
    public static func among(_ requested: [Int64], known: some Sequence<Int64>) -> UnknownFeeds? {
        let known = Set(known)
        var seen = Set<Int64>()
        let unknown = requested.filter { !known.contains($0) && seen.insert($0).inserted }
        return unknown.isEmpty ? nil : UnknownFeeds(unknown)
    }
}
