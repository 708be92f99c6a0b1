import FeedBasics
import FeedStorage
import Foundation

/// Why a create, update or feed-management run could not do its work at all (as opposed to
/// one feed failing).
public enum PipelineError: Error, CustomStringConvertible, Equatable {
    /// The data directory is busy, unusable, or has no (or a lost) catalog.
    case dataDirectory(DataDirectoryError)
    case feedList(source: String, reason: String)
    /// The feed list is a local file that cannot be opened: `code` is the errno (ENOENT, EACCES).
    case feedListUnreadable(path: String, code: Int32)
    case storage(StorageError)
    /// `--feed` named feedids the catalog does not have: nothing was done.
    case unknownFeeds([Int64])
    /// `--feed` named feeds of other shards' hosts: nothing was done.
    case otherShardsFeeds(OtherShardsFeeds)

    public var description: String {
        switch self {
        case .dataDirectory(let error): return error.description
        case .feedList(let source, let reason): return "cannot read the feed list \(source): \(reason)"
        case .feedListUnreadable(let path, let code): return "cannot read the feed list \(path): \(SystemError.describe(code))"
        case .storage(let error): return error.description
        case .unknownFeeds(let ids): return UnknownFeeds(ids).description
        case .otherShardsFeeds(let feeds): return feeds.description
        }
    }
}

extension PipelineError {
    /// Throws `.unknownFeeds` naming every id in `requested` that `known` lacks, in order.
    public static func refuseUnknown(_ requested: [Int64], known: some Sequence<Int64>) throws(PipelineError) {
        if let unknown = UnknownFeeds.among(requested, known: known) { throw .unknownFeeds(unknown.feedIDs) }
    }
}
