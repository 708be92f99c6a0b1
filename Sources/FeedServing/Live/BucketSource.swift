import FeedObjectStorage
import FeedPublishingObjectStorage

/// A publication in object storage (`rss-publish --out s3://bucket/prefix`), read with the
/// publisher's own target and credentials (the standard AWS variables). The root is watched by
/// a conditional GET (`If-None-Match` on the ETag last read), so an unchanged root costs one
/// request answered 304 without a body: what lets several instances on several hosts watch one
/// bucket each second. A bucket gives no commit time finer than a second, so no delay is measured.
struct BucketSource: PublicationSource {
    let target: ObjectStorageTarget
    /// The root is looked at again within a second anyway: a look gives up after a few
    /// seconds rather than after the publisher's long retry deadline, so a slow bucket delays
    /// the watcher by a look, not by minutes.
    let looks: S3Client

    init(target: ObjectStorageTarget) {
        self.target = target
        looks = target.client.retrying(RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100), maxDelay: .seconds(1), deadline: .seconds(5)))
    }

    var location: String { target.location }

    func lookAtRoot(known: String?) -> RootLook {
        do {
            switch try looks.get(target.place.key("manifest.json"), unlessETag: known) {
            case .unchanged: return .unchanged
            case .absent: return .absent
            case .changed(let object): return .root(bytes: object.body, version: object.etag, committed: nil)
            }
        } catch {
            return .failed(error.description)
        }
    }

    func read(_ name: String) -> [UInt8]? { target.read(name) }

    func names() -> [String]? { try? target.names() }

    var notifier: DirectoryNotifier? { nil }
}
