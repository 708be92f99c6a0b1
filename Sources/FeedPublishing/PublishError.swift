import FeedStorage

/// Why a publication could not be made at all (as opposed to one feed that could not be
/// published, which is a ``PublishFailure`` in the report). Nothing was published: the
/// previous publication is what clients still see.
public enum PublishError: Error, CustomStringConvertible, Equatable {
    /// Another publisher holds the target (``PublicationTarget/lock(for:lease:)``). `lock` is
    /// what it holds: the publish directory (its own `flock`), or the lock object's URL in a
    /// bucket.
    case busy(lock: String, holder: String)
    /// A lock that can expire (object storage's lease) has too little time left for a write
    /// to be sure to land before it does, and renewing it did not help: the publication stops
    /// before that write, so it cannot overwrite what the next holder commits.
    case leaseRunningOut(lock: String, detail: String)
    /// The target cannot be used: a publish directory that is a file or cannot be created,
    /// locked, listed or read; a publication whose generation cannot count further. `location`
    /// is the target's (``PublicationTarget/location``): a directory's path, or a URL.
    case unusableTarget(location: String, reason: String)
    /// The publish directory belongs to another user (``OtherUserPolicy``): nothing was written.
    case otherOwner(OtherOwnerRefusal)
    /// The publish directory is missing and cannot be created (EX_CANTCREAT); `denied` when the
    /// system said permission (EACCES, EPERM: EX_NOPERM), so the exit status tells the operator
    /// which of the two to fix.
    case outputNotCreated(path: String, reason: String, denied: Bool)
    /// The publish directory and the data directory overlap.
    case overlappingDirectories(output: String, data: String, relation: String)
    /// `--feed` named feedids the catalog does not have: nothing was done.
    case unknownFeeds([Int64])
    /// The data directory to publish cannot be read: no catalog, a lost one, not a directory.
    case dataDirectory(DataDirectoryError)
    /// A file could not be read or written; the manifest is missing or not the publisher's.
    case storage(StorageError)
    /// The root (`manifest.json`) changed between the start of this publication and its
    /// commit, in this shard's entry: another publisher published this shard meanwhile. The
    /// root was not written; the next run repairs what this one wrote (its intent is kept).
    case rootChanged(location: String, detail: String)
    /// The target refused or failed an operation (object storage: a network error, a denied
    /// request, a missing bucket); nothing half-done is visible to clients.
    case target(location: String, reason: String, kind: TargetFailure)

    public var description: String {
        switch self {
        case .busy(let lock, let holder):
            return "\(holder) is using \(lock); try again when it has finished"
        case .leaseRunningOut(let lock, let detail):
            return "stopped before the lease of \(lock) could run out mid-write (\(detail)); "
                + "the next rss-publish repairs or finishes what this one left"
        case .unusableTarget(let location, let reason):
            // A directory is called what --out's help calls it; a bucket's URL says what it is.
            return location.contains("://") ? "cannot use \(location): \(reason)" : "cannot use output directory \(location): \(reason)"
        case .otherOwner(let refusal):
            return refusal.description
        case .outputNotCreated(let path, let reason, _):
            return "cannot create output directory \(path): \(reason)"
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
            return "\(location): the root changed while this publication ran (\(detail)); nothing was committed, "
                + "and the next rss-publish repairs what this one wrote"
        case .target(let location, let reason, let kind):
            return "\(location): \(kind.description): \(reason)"
        }
    }
}

/// Why a target operation failed, as far as the publication tells apart what an operator does
/// about it: wait and retry, fix the permissions, create what is missing, or look closer.
public enum TargetFailure: Sendable, Equatable, CustomStringConvertible {
    /// Could not be reached (a refused connection, a timeout, retries exhausted on 5xx).
    case unreachable
    /// Refused for lack of rights (wrong credentials, a denied request).
    case denied
    /// What the target is in is not there (a missing bucket).
    case missing
    case other

    public var description: String {
        switch self {
        case .unreachable: "unreachable"
        case .denied: "access denied"
        case .missing: "not found"
        case .other: "failed"
        }
    }
}
