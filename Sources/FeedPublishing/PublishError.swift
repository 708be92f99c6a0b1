import FeedStorage

/// Why a publication could not be made at all (as opposed to one feed that could not be
/// published, which is a ``PublishFailure`` in the report). Nothing was published: the
/// previous publication is what clients still see.
public enum PublishError: Error, CustomStringConvertible, Equatable {
    /// Another publisher holds the target (``PublicationTarget/lock()``).
    case busy(lockPath: String, holder: String)
    /// The publish directory cannot be used (it is a file, it cannot be created or locked).
    case outputDirectory(path: String, reason: String)
    /// The publish directory and the data directory overlap.
    case overlappingDirectories(output: String, data: String, relation: String)
    /// `--feed` named feedids the catalog does not have: nothing was done.
    case unknownFeeds([Int64])
    /// The data directory to publish cannot be read: no catalog, a lost one, not a directory.
    case dataDirectory(DataDirectoryError)
    /// A file could not be read or written; the manifest is missing or not the publisher's.
    case storage(StorageError)

    public var description: String {
        switch self {
        case .busy(let lockPath, let holder):
            return "\(holder) is using \(lockPath); try again when it has finished"
        case .outputDirectory(let path, let reason):
            return "cannot use output directory \(path): \(reason)"
        case .overlappingDirectories(let output, let data, let relation):
            return "refusing to publish into \(output): it \(relation) \(data), and publishing removes old files from "
                + "its output directory; choose an output directory outside the data directory"
        case .unknownFeeds(let ids):
            return UnknownFeeds(ids).description
        case .dataDirectory(let error):
            return error.description
        case .storage(let error):
            return error.description
        }
    }
}
