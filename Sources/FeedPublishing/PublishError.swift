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
    /// The root was changed by someone else between its reading and this publication's
    /// commit: another publisher of this shard won. Nothing this one wrote is named by the
    /// root; its intent stays for the next run to repair.
    case rootChanged(location: String, detail: String)
    /// The target itself refused or could not be reached (object storage: credentials, a
    /// missing bucket, an endpoint that does not answer), said with what to fix.
    case target(location: String, reason: String, kind: TargetFailure)

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
        case .rootChanged(let location, let detail):
            return "\(location): the root was changed by another publisher while this one ran (\(detail)); nothing of this "
                + "publication is named by it: run again to publish on top of the other"
        case .target(let location, let reason, _):
            return "cannot publish to \(location): \(reason)"
        }
    }
}

/// What kind of failure a target's was, for the exit status: the endpoint did not answer
/// (69), the credentials were refused (77), the place does not exist (66), anything else (74).
public enum TargetFailure: Sendable, Equatable {
    case unreachable, denied, missing, other
}
