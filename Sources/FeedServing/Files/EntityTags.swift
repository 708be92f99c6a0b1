import FeedBasics
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Strong ETags from the bytes (the first 128 bits of their SHA-256), computed once per version
/// of a file: a file is known by its device, inode, size and modification time, which a
/// rename into place (how the publisher writes everything) always changes. So an unchanged
/// pointer keeps its ETag across publications and across `rss-serve` instances serving one
/// directory (they compute the same one), and a client's `If-None-Match` costs a 304.
final class EntityTags: Sendable {
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    private let known = Mutex<[Identity: String]>([:])
    /// Past this, the cache starts over (a publication's pointers and root turn over anyway).
    let capacity: Int

    init(capacity: Int = 65_536) { self.capacity = capacity }

    static func identity(of status: stat) -> Identity {
        Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    /// The tag of a file version: from the cache, or from `hexDigest` (its bytes' SHA-256 in
    /// hex, computed once per version); nil when the file cannot be read to compute it.
    func tag(for identity: Identity, hexDigest: () -> String?) -> String? {
        if let tag = known.withLock({ $0[identity] }) { return tag }
        guard let digest = hexDigest() else { return nil }
        let tag = "\"" + digest.prefix(32) + "\""
        known.withLock { tags in
            if tags.count >= capacity { tags.removeAll(keepingCapacity: true) }
            tags[identity] = tag
        }
        return tag
    }
}
