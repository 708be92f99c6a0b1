import FeedBasics
import FeedObjectStorage
import FeedPublishing
import FeedStorage
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A publication in an S3-compatible bucket under a prefix (`rss-publish --out
/// s3://bucket/prefix`), on the same promises as the publish directory (SPEC-41 §6):
///
/// - every object is put whole (S3 has no partial objects) with its `Content-Type`, its
///   `Cache-Control` (a year and `immutable` for content-addressed names, 30 s for the root and
///   pointers) and `x-amz-checksum-sha256`, which the server checks against the bytes;
/// - an immutable name already there is not uploaded again (same name, same bytes): the
///   names listed when the lock was taken are known present, and the upload itself is
///   conditional (`If-None-Match: *`), so a killed publication resumes without re-uploading;
/// - the root is committed last by a conditional write (`If-Match` on the ETag read at the
///   start, `If-None-Match: *` for the first): of two publishers exactly one commits, the
///   other gets ``PublishError/rootChanged(location:detail:)``;
/// - a shard is taken by its lock object (``ObjectStorageLockHold``), not by `flock`;
/// - only names passed to ``delete(_:)`` are deleted, one by one; the prefix is never a scope
///   of deletion, so nothing Feedmill did not write is ever removed.
///
/// Every request is retried on the network, 429 and 5xx (``RetryPolicy``); failures become
/// ``PublishError/target(location:reason:kind:)`` naming what to fix.
public struct ObjectStorageTarget: PublicationTarget {
    public let place: ObjectStorageLocation
    public let client: S3Client
    private let failure: ObjectStorageFailure
    let state = TargetState()

    /// The grace period a retired object is kept by default (`retire_after`): longer than a
    /// client's sync and a CDN's cache of the root, so that no client is sent to a deleted object.
    public static let defaultRetireAfterSeconds = 3600

    /// How long a lock object holds without being renewed, when the caller does not say.
    public static let defaultLease: Duration = .seconds(600)

    /// What a write may take beyond the client's retry deadline (one slow try, clocks that
    /// differ between hosts): a write starts only while the lease has at least both left.
    public static let defaultFencingMargin: Duration = .seconds(10)

    /// The time a write may take, retries included: less lease than this left, and no write
    /// starts (``ObjectStorageLockHold/fence(before:writeTime:failure:)``).
    let writeTime: Duration

    public init(
        place: ObjectStorageLocation, settings: ObjectStorageSettings, retry: RetryPolicy = .standard,
        fencingMargin: Duration = defaultFencingMargin
    ) {
        self.place = place
        writeTime = retry.deadline + fencingMargin
        client = S3Client(settings: settings, bucket: place.bucket, retry: retry)
        failure = ObjectStorageFailure(location: place, settings: settings, retry: retry)
    }

    /// The target `--out s3://bucket/prefix` names, with the settings of the AWS variables and
    /// files in `environment`.
    public static func make(out: String, environment: [String: String]) throws(PublishError) -> ObjectStorageTarget {
        let place: ObjectStorageLocation
        do { place = try ObjectStorageLocation(parsing: out) } catch {
            throw .target(location: out, reason: error.reason, kind: .other)
        }
        do {
            return ObjectStorageTarget(place: place, settings: try ObjectStorageSettings.fromEnvironment(environment))
        } catch {
            let settings = ObjectStorageSettings(endpoint: "(no endpoint)", region: "", credentials: .init(accessKeyID: "", secretAccessKey: ""))
            throw ObjectStorageFailure(location: place, settings: settings, retry: .standard).publishError(error)
        }
    }

    public var location: String { place.description }

    // MARK: the lock

    /// Takes shard `shard`'s lock object for `lease` (renewed while this publication writes),
    /// and lists the prefix once, so that immutable names already there are not uploaded again.
    public func lock(for shard: Shard, lease: Duration) throws(PublishError) -> AnyObject {
        let name = ".feedmill-lock.\(shard.fileLabel).json"
        let scratch = state
        let hold = try ObjectStorageLockHold.take(
            key: place.key(name), lockPath: place.description + "/" + name, lease: lease, client: client, failure: failure,
            onRelease: { scratch.removeScratch() })
        state.hold(hold)
        _ = try listNames()
        return hold
    }

    // MARK: reading

    /// Every name directly under the prefix; deeper keys are not names of this publication.
    /// While the lock is held, the listing taken with it, kept up to date with this target's
    /// own writes and deletions: a shard's names change only by its holder, and a listing is
    /// one request per 1,000 names (3,000 requests for a million feeds), so a publication
    /// lists once however often it asks. Without the lock, a fresh paginated listing.
    public func names() throws(PublishError) -> [String] {
        if state.currentHold() != nil, let listed = state.listedNames { return listed.keys.sorted() }
        return try listNames()
    }

    private func listNames() throws(PublishError) -> [String] {
        let objects: [StoredObjectInfo]
        do { objects = try client.list(prefix: place.listingPrefix) } catch { throw failure.publishError(error) }
        let named = objects.compactMap { object in place.name(ofKey: object.key).map { ($0, object.etag) } }
        state.listed(named)
        return named.map(\.0)
    }

    /// An immutable name is answered from the listing taken with the lock and this
    /// publication's own uploads and deletions (only the shard that wrote such a name ever
    /// deletes it), so asking about every feed's earlier snapshot costs no request; any other
    /// name, or any name before a listing, is asked with a HEAD.
    public func serves(_ name: String) -> Bool {
        if PublishedHeaders.isImmutable(name), let listed = state.isListed(name) { return listed }
        return (try? client.head(place.key(name))).flatMap { $0 } != nil
    }

    /// Object storage has neither links nor directories at a name: an object is a plain file.
    public func holdsFile(_ name: String) -> Bool { serves(name) }

    public func read(_ name: String) -> [UInt8]? {
        (try? client.get(place.key(name))).flatMap { $0 }?.body
    }

    /// The root's bytes and its ETag, the version ``commitRoot(_:as:expecting:)`` expects.
    public func readRoot(_ name: String) throws(PublishError) -> (bytes: [UInt8]?, version: RootVersion) {
        do {
            guard let object = try client.get(place.key(name)) else { return (nil, RootVersion(token: nil)) }
            return (object.body, RootVersion(token: object.etag))
        } catch {
            throw failure.publishError(error)
        }
    }

    public func localCopy(of name: String) throws(PublishError) -> String {
        let path = try scratchPath()
        let found: String?
        do { found = try client.download(place.key(name), to: path) } catch { throw failure.publishError(error) }
        guard found != nil else { throw .storage(StorageError(path: location + "/" + name, message: "is not there to be read")) }
        return path
    }

    // MARK: writing

    public func put(_ bytes: [UInt8], as name: String) throws(PublishError) {
        try fenceWrite(of: name)
        do {
            state.add(name, etag: try client.put(place.key(name), bytes, options: ObjectHeaders.options(for: name)))
        } catch {
            throw failure.publishError(error)
        }
    }

    /// A fresh path in this publication's scratch directory (removed with the lock).
    public func scratchPath() throws(PublishError) -> String {
        do { return try state.scratchPath() } catch { throw .storage(StorageError(path: NSTemporaryDirectory(), message: "\(error)")) }
    }

    /// Uploads the file at `path` as `name` unless `name` is there already; the file is
    /// removed either way. `false`: it was there.
    @discardableResult
    public func putImmutable(fileAt path: String, as name: String) throws(PublishError) -> Bool {
        defer { unlink(path) }
        return try putImmutable(name) { () throws(ObjectStorageError) in
            try client.put(place.key(name), fileAt: path, options: ObjectHeaders.options(for: name, condition: .absent))
        }
    }

    @discardableResult
    public func putImmutable(_ bytes: [UInt8], as name: String) throws(PublishError) -> Bool {
        try putImmutable(name) { () throws(ObjectStorageError) in
            try client.put(place.key(name), bytes, options: ObjectHeaders.options(for: name, condition: .absent))
        }
    }

    /// Skips a name the listing had; else uploads it only where nothing is (`If-None-Match:
    /// *`), so a name that appeared since (a racing shard's identical catalog snapshot, or an
    /// earlier try whose answer was lost) is not written twice. Without a listing (no lock
    /// taken) a HEAD asks first.
    private func putImmutable(_ name: String, upload: () throws(ObjectStorageError) -> String) throws(PublishError) -> Bool {
        switch state.isListed(name) {
        case .some(true): return false
        case .some(false): break
        case .none: if serves(name) { return false }
        }
        try fenceWrite(of: name)
        do {
            state.add(name, etag: try upload())
        } catch .preconditionFailed {
            state.add(name, etag: nil)
            return false
        } catch {
            throw failure.publishError(error)
        }
        state.countUpload()
        return true
    }

    /// Nothing to do: an object is durable when its PUT is answered.
    public func makeDurable() throws(PublishError) {}

    /// Puts the root only if it is still the version read (`If-Match`), or if there is none
    /// (`If-None-Match: *`); a refusal (412, or AWS's 409) is ``PublishError/rootChanged``.
    /// A refusal of a retried write whose first try did land is told apart by the bytes there.
    public func commitRoot(_ bytes: [UInt8], as name: String, expecting: RootVersion) throws(PublishError) -> RootVersion {
        try fenceWrite(of: name)
        let condition: WriteCondition = expecting.token.map { .matches(etag: $0) } ?? .absent
        do {
            let etag = try client.put(place.key(name), bytes, options: ObjectHeaders.options(for: name, condition: condition))
            state.add(name, etag: etag)
            return RootVersion(token: etag)
        } catch .preconditionFailed {
            if let current = (try? client.get(place.key(name))).flatMap({ $0 }), current.body == bytes {
                return RootVersion(token: current.etag)
            }
            let detail = expecting.token.map { "\(name) is no longer the version read, ETag \($0)" } ?? "\(name) appeared where there was none"
            throw .rootChanged(location: location, detail: detail)
        } catch {
            throw failure.publishError(error)
        }
    }

    /// Copies `file`'s bytes to the stable name `name` (S3 has no links): downloaded to the
    /// scratch directory and uploaded. `false` when `name` already has those bytes (the same
    /// ETag: S3's is the MD5 of a single-part upload) or `file` is not there. The ETags come
    /// from the listing and this target's writes where they are authoritative (an immutable
    /// `file`; a feed's stable name, which only its shard writes), else from a HEAD: an
    /// unchanged feed costs no request.
    public func alias(_ name: String, to file: String) throws(PublishError) -> Bool {
        let sourceETag: String
        let currentETag: String?
        do {
            if PublishedHeaders.isImmutable(file), let known = state.knownETag(file) {
                guard let known else { return false }
                sourceETag = known
            } else {
                guard let source = try client.head(place.key(file)) else { return false }
                sourceETag = source.etag
            }
            if PublishedHeaders.isFeedStableName(name), let known = state.knownETag(name) {
                currentETag = known
            } else {
                currentETag = try client.head(place.key(name))?.etag
            }
        } catch {
            throw failure.publishError(error)
        }
        if !sourceETag.isEmpty, currentETag == sourceETag { return false }
        let path = try localCopy(of: file)
        defer { unlink(path) }
        try fenceWrite(of: name)
        do {
            state.add(name, etag: try client.put(place.key(name), fileAt: path, options: ObjectHeaders.options(for: name)))
        } catch {
            throw failure.publishError(error)
        }
        return true
    }

    /// Deletes the object at `name` (only ever a name the publisher recorded as its own);
    /// `true` when one was there. Only a name the publisher gives (``PublishedName``): it puts
    /// no temporary or scratch object, so an object named like a directory's temporaries
    /// (`feed_1.json.tmp-42`) is someone else's, and stays.
    public func delete(_ name: String) -> Bool {
        guard PublishedName(fileName: name) != nil else { return false }
        // A lease running out keeps the object: it is deleted by a later publication.
        guard (try? fenceWrite(of: name)) != nil else { return false }
        guard (try? client.head(place.key(name))).flatMap({ $0 }) != nil else { return false }
        do { try client.delete(place.key(name)) } catch { return false }
        state.remove(name)
        return true
    }

    /// Immutable objects uploaded by this target so far (not the skipped ones), for reports.
    public var immutableUploads: Int { state.uploads }

    /// Every mutable write and delete starts only while the lease outlasts it.
    private func fenceWrite(of name: String) throws(PublishError) {
        try state.currentHold()?.fence(before: name, writeTime: writeTime, failure: failure)
    }
}
