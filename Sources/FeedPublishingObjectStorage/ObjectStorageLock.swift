import FeedObjectStorage
import FeedPublishing
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The lock object `.feedmill-lock.<K>of<N>.json`: object storage has no `flock`, so a
/// publisher of shard K of N takes the shard by a conditional write of this object
/// (`If-None-Match: *` when there is none, `If-Match` on the ETag of a released or expired
/// one): of two publishers exactly one write succeeds. The body says who holds it and until
/// when (a lease, renewed while the publication writes); a live lock refuses the second
/// publisher (``PublishError/busy(lock:holder:)``, exit 75) naming the holder. The lock is
/// released at the end by a conditional write marking it released.
///
/// A holder killed with SIGKILL cannot release it: its lease expires, or, on the same host,
/// the next publisher sees that the holder's process is gone and takes the lock at once.
struct LockRecord: Codable, Equatable {
    var host: String
    var pid: Int32
    /// Unix seconds.
    var started: Int64
    var expires: Int64
    var released: Bool

    var describedHolder: String {
        "rss-publish (pid \(pid) on \(host), since \(Self.time(started)), lease until \(Self.time(expires)))"
    }

    static func time(_ unix: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }

    var bytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return ((try? encoder.encode(self)).map { [UInt8]($0) } ?? []) + [0x0A]
    }

    /// Free for the taking: released, expired, or held by a process of this host that is gone.
    func isFree(now: Int64, thisHost: String) -> Bool {
        if released || expires <= now { return true }
        return host == thisHost && kill(pid, 0) != 0 && errno == ESRCH
    }
}

/// A held lock object: released (conditionally) when this goes away, renewed while held.
final class ObjectStorageLockHold: Sendable {
    let key: String
    let lockPath: String
    let lease: Duration
    private let client: S3Client
    private let state: Mutex<(etag: String, record: LockRecord, renewedAt: ContinuousClock.Instant, lost: Bool)>
    private let onRelease: @Sendable () -> Void

    init(
        key: String, lockPath: String, lease: Duration, client: S3Client, etag: String, record: LockRecord,
        renewedAt: ContinuousClock.Instant, onRelease: @escaping @Sendable () -> Void
    ) {
        self.key = key
        self.lockPath = lockPath
        self.lease = lease
        self.client = client
        self.onRelease = onRelease
        state = Mutex((etag, record, renewedAt, false))
    }

    /// Takes the lock for shard `shardLabel` or throws why not.
    static func take(
        key: String, lockPath: String, lease: Duration, client: S3Client, failure: ObjectStorageFailure,
        onRelease: @escaping @Sendable () -> Void
    ) throws(PublishError) -> ObjectStorageLockHold {
        let host = ProcessInfo.processInfo.hostName
        let asked = ContinuousClock.now
        let now = Int64(Date().timeIntervalSince1970)
        let record = LockRecord(host: host, pid: getpid(), started: now, expires: now + lease.components.seconds, released: false)
        let found: StoredObject?
        do { found = try client.get(key) } catch { throw failure.publishError(error) }
        let condition: WriteCondition
        if let found {
            let existing = try? JSONDecoder().decode(LockRecord.self, from: Data(found.body))
            guard let existing else {
                throw .busy(lock: lockPath, holder: "an unreadable lock object (delete it if no rss-publish is running)")
            }
            guard existing.isFree(now: now, thisHost: host) else { throw .busy(lock: lockPath, holder: existing.describedHolder) }
            condition = .matches(etag: found.etag)
        } else {
            condition = .absent
        }
        do {
            let etag = try client.put(key, record.bytes, options: ObjectHeaders.options(for: ".feedmill-lock.json", condition: condition))
            return ObjectStorageLockHold(
                key: key, lockPath: lockPath, lease: lease, client: client, etag: etag, record: record, renewedAt: asked, onRelease: onRelease)
        } catch .preconditionFailed {
            // Another publisher wrote it between the read and this write: it holds it now.
            let holder = (try? client.get(key)).flatMap { $0 }.flatMap { try? JSONDecoder().decode(LockRecord.self, from: Data($0.body)) }
            throw .busy(lock: lockPath, holder: holder?.describedHolder ?? "another rss-publish")
        } catch {
            throw failure.publishError(error)
        }
    }

    /// Fences the write of `name`: it may start only if the lease outlasts it, that is if
    /// more than `writeTime` (the client's retry deadline plus a margin) is left, so that a
    /// publisher that stalled cannot land a write after its lease ran out and the next
    /// holder took the shard. The lease is renewed (a conditional write on the ETag written
    /// last) when half of it has passed or when too little is left; if that is refused,
    /// another publisher took the lock and this publication stops before it writes anything
    /// more. If even after renewing too little is left (the renewal itself was slow), the
    /// write is refused too: ``PublishError/leaseRunningOut(lock:detail:)``, exit 75.
    func fence(before name: String, writeTime: Duration, failure: ObjectStorageFailure) throws(PublishError) {
        if state.withLock({ $0.lost }) { throw .busy(lock: lockPath, holder: "another rss-publish (this one's lease ran out)") }
        let renewedAt = state.withLock { $0.renewedAt }
        let sinceRenewal = ContinuousClock.now - renewedAt
        if sinceRenewal >= lease / 2 || lease - sinceRenewal < writeTime {
            try renew(failure: failure)
        }
        let left = lease - (ContinuousClock.now - state.withLock { $0.renewedAt })
        guard left >= writeTime else {
            throw .leaseRunningOut(
                lock: lockPath,
                detail: "the lease has \(Self.seconds(left)) s left, less than the \(Self.seconds(writeTime)) s a write of \(name) may take "
                    + "with its retries, and renewing it did not give more (lease \(Self.seconds(lease)) s); it was not written")
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f", max(0, Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18))
    }

    /// Extends the lease by a conditional write on the ETag written last; the lease is
    /// counted from before the write, when its expiry was computed.
    private func renew(failure: ObjectStorageFailure) throws(PublishError) {
        var (etag, record) = state.withLock { ($0.etag, $0.record) }
        let asked = ContinuousClock.now
        record.expires = Int64(Date().timeIntervalSince1970) + lease.components.seconds
        do {
            let newETag = try client.put(key, record.bytes, options: ObjectHeaders.options(for: ".feedmill-lock.json", condition: .matches(etag: etag)))
            state.withLock { $0 = (newETag, record, asked, false) }
        } catch .preconditionFailed {
            state.withLock { $0.lost = true }
            throw .busy(lock: lockPath, holder: "another rss-publish (this one's lease ran out and the lock was taken over)")
        } catch {
            throw failure.publishError(error)
        }
    }

    deinit {
        let (etag, record, lost) = state.withLock { ($0.etag, $0.record, $0.lost) }
        if !lost {
            var released = record
            released.released = true
            released.expires = Int64(Date().timeIntervalSince1970)
            // One try: a lock left behind expires with its lease, or is taken at once on this host.
            _ = try? client.retrying(.once).put(
                key, released.bytes, options: ObjectHeaders.options(for: ".feedmill-lock.json", condition: .matches(etag: etag)))
        }
        onRelease()
    }
}
