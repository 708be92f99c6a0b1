import FeedBasics
import FeedPublishing
import FeedStorage

// The publication protocol as it is on main before format 2 (lock(), put(_:writtenBy:),
// putManifest(_:as:)), over the SPEC-41 §6 methods above, so that rss-publish --out s3://
// works and is tested now. When format 2's PublicationTarget lands, this file goes: the
// target already implements the new protocol's methods.
extension ObjectStorageTarget {
    /// Shard 1/1's lock, and the root's version read now: the version the commit expects.
    public func lock() throws(PublishError) -> AnyObject {
        let hold = try lock(for: .all, lease: Self.defaultLease)
        state.expectedRoot = try readRoot(PublishRun.manifestName).version
        return hold
    }

    public func put<Made>(_ name: String, writtenBy write: (_ path: String) throws(StorageError) -> Made) throws(PublishError) -> Made {
        let path = try scratchPath()
        let made = try rethrowing(try write(path), as: PublishError.storage)
        try putImmutable(fileAt: path, as: name)
        return made
    }

    public func putManifest(_ bytes: [UInt8], as name: String) throws(PublishError) {
        let committed = try commitRoot(bytes, as: name, expecting: state.expectedRoot ?? RootVersion(token: nil))
        state.expectedRoot = committed
    }
}
