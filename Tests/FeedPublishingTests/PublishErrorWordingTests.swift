import FeedPublishing
import Testing

/// What a publication that could not be made says: a directory target is the output
/// directory (as `--out` calls it), never the data directory; a bucket's URL is named as
/// itself; a busy target names what is locked and who holds it.
@Suite("Publication: what its errors call the target")
struct PublishErrorWordingTests {
    @Test func aDirectoryIsTheOutputDirectoryAndABucketIsItsURL() {
        let directory = PublishError.unusableTarget(location: "ro/pub", reason: "the file system holding ro is mounted read-only")
        #expect(directory.description == "cannot use output directory ro/pub: the file system holding ro is mounted read-only")
        let bucket = PublishError.unusableTarget(location: "s3://bucket/prefix", reason: "manifest.json's generation cannot count further")
        #expect(bucket.description == "cannot use s3://bucket/prefix: manifest.json's generation cannot count further")
        for error in [directory, bucket] { #expect(!error.description.contains("data directory")) }
    }

    @Test func aBusyTargetNamesWhatIsLockedAndWhoHoldsIt() {
        let busy = PublishError.busy(lock: "s3://bucket/prefix/.feedmill-lock", holder: "rss-publish on host-a (pid 42)")
        #expect(busy.description == "rss-publish on host-a (pid 42) is using s3://bucket/prefix/.feedmill-lock; try again when it has finished")
        let lease = PublishError.leaseRunningOut(lock: "s3://bucket/prefix/.feedmill-lock", detail: "2 s left")
        #expect(lease.description.hasPrefix("stopped before the lease of s3://bucket/prefix/.feedmill-lock could run out mid-write (2 s left)"))
    }
}
