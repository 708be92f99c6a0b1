import FeedPublishing
import FeedStorage
import FeedPublishingObjectStorage
import Foundation

/// Where `--out` sends a publication: `s3://bucket/prefix` is object storage (settings from the
/// standard AWS variables and files, never from the command line); anything else is the
/// publish directory, the default.
public enum PublicationTargetChoice {
    /// The object-storage target `out` names, or nil for a directory (``PublishRun`` makes it).
    /// A directory that exists and belongs to another user is refused unless `writer` allows
    /// it: what rss-publish writes there would not be the owner's (``OtherUserPolicy``).
    public static func target(
        for out: String, writer: OtherUserPolicy = OtherUserPolicy(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(PublishError) -> (any PublicationTarget)? {
        guard ObjectStorageLocation.names(out) else {
            do throws(OtherOwnerRefusal) {
                try writer.check(writingInto: out, role: "output directory")
            } catch {
                throw .otherOwner(error)
            }
            return nil
        }
        return try ObjectStorageTarget.make(out: out, environment: environment)
    }

    /// The grace period before a retired name is deleted when `retire_after` is not set:
    /// 0 for a directory (the next publication removes it, as format 1 did), an hour for object
    /// storage, whose clients and CDN may hold the root that names it a while longer.
    public static func defaultRetireAfter(for out: String) -> Int {
        ObjectStorageLocation.names(out) ? ObjectStorageTarget.defaultRetireAfterSeconds : 0
    }
}
