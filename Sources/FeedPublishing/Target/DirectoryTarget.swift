import FeedBasics
import FeedStorage
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A publish directory on a local file system, served by any static web server.
///
/// Files are written under a temporary name and renamed (``DurableFiles``). Immutable
/// snapshots, deltas and records, and the pointers, which nobody relies on before the root
/// names them, are not flushed one by one: ``makeDurable()`` flushes the whole file system
/// once (`syncfs`), before the root, which is then synced, renamed, and its directory synced;
/// pages and the intent are synced each. Stable names are hard links to the versioned
/// snapshot, swapped in with one `rename` and flushed together afterwards; only regular
/// files are removed, with `unlink`, which removes a link itself and never its target; the
/// lock is an `flock` on the directory itself, so publishing writes no lock file to serve.
public struct DirectoryTarget: PublicationTarget {
    public let path: String
    /// The data directory, which the publish directory must never be, contain or lie in.
    public let dataDirectory: String

    /// The flush of this publication's files, opened when the lock is taken (before any of
    /// them is written) so that ``makeDurable()`` hears of a write-back error in any of them.
    private let flush = OpenedFlush()

    public init(path: String, awayFrom dataDirectory: String) {
        self.path = path
        self.dataDirectory = dataDirectory
    }

    public var location: String { path }

    /// Refuses an overlap with the data directory (before anything is created), creates the
    /// directory when missing, and locks it. The lock is the directory's own `flock`, one for
    /// every shard: the whole feed list (`1/1`) is refused at once when another publisher holds
    /// it, as before shards existed; a shard of several waits its turn (at most `lease`), since
    /// shards publishing into one directory are expected to meet there.
    public func lock(for shard: Shard, lease: Duration) throws(PublishError) -> AnyObject {
        try DirectoryOverlap.refuse(output: path, data: dataDirectory)
        try createIfMissing()
        if let problem = FileSystemDiagnosis.directoryProblem(path, create: false) { throw .unusableTarget(location: path, reason: problem) }
        let deadline = ContinuousClock.now + (shard.isAll ? .zero : lease)
        var lock: RunLock?
        while lock == nil {
            do throws(RunLock.Refusal) {
                lock = try RunLock(lockingDirectory: path)
            } catch {
                guard case .held = error, ContinuousClock.now < deadline else { throw refused(error) }
                usleep(20_000)
            }
        }
        let pending = try rethrowing(
            try PendingFlush(holding: path), as: { (error: FileError) in PublishError.unusableTarget(location: path, reason: error.message) })
        flush.current.withLock { $0 = pending }
        return lock as AnyObject
    }

    /// `mkdir -p` of the output directory, failing as 73 (cannot create) or 77 (permission).
    private func createIfMissing() throws(PublishError) {
        var info = stat()
        guard stat(path, &info) != 0, errno == ENOENT else { return }
        do throws(FileSystemDiagnosis.CreationFailure) {
            try FileSystemDiagnosis.makeDirectories(path)
        } catch {
            let diagnosis = FileSystemDiagnosis.problem(writing: error.path).map { "\($0); " } ?? ""
            throw .outputNotCreated(path: path, reason: diagnosis + error.description, denied: error.isPermission)
        }
    }

    /// Why the lock was not taken, as the publication says it.
    private func refused(_ refusal: RunLock.Refusal) -> PublishError {
        switch refusal {
        case .cannotOpen(let reason): return .unusableTarget(location: path, reason: reason)
        case .held: return .busy(lock: path, holder: "another rss-publish")
        }
    }

    public func names() throws(PublishError) -> [String] {
        guard let directory = opendir(path) else { throw unlisted() }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw unlisted() }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// The listing's failure, with the system's reason (read from `errno`).
    private func unlisted() -> PublishError {
        .unusableTarget(location: path, reason: "cannot be listed (\(String(cString: strerror(errno))))")
    }

    public func serves(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: path(of: name))
    }

    public func holdsFile(_ name: String) -> Bool {
        var info = stat()
        return lstat(path(of: name), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    public func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(of: name)).map { [UInt8]($0) }
    }

    /// Pointers wait for ``makeDurable()`` (the root is committed after it); the pages and
    /// the intent are flushed now.
    public func put(_ bytes: [UInt8], as name: String) throws(PublishError) {
        let flushing: DurableFiles.Flushing
        switch PublishedName(fileName: name) {
        case .pointer?: flushing = .later
        case let published? where published.isImmutable: flushing = .later
        default: flushing = .now
        }
        try rethrowing(try DurableFiles.write(bytes, to: path(of: name), flushing: flushing), as: { PublishError.storage(StorageError($0)) })
        adopt(name)
    }

    /// Root publishing into another user's directory (`--allow-other-user`) gives the file to
    /// the directory's owner (``CreatedFileOwnership``); otherwise nothing is done.
    private func adopt(_ name: String) {
        CreatedFileOwnership.adopt(paths: [path(of: name)], in: path)
    }

    /// A name in the publish directory itself (so the file is renamed into place, never
    /// copied), `.feedmill-scratch.<pid>.<n>`: one an interrupted run leaves is removed by the
    /// next (``PublishedFiles/staleTemporaries(in:)``).
    public func scratchPath() throws(PublishError) -> String {
        let number = Self.scratchCounter.add(1, ordering: .relaxed).newValue
        let scratch = path(of: "\(PublishedFiles.scratchPrefix)\(getpid()).\(number)")
        unlink(scratch)
        return scratch
    }

    private static let scratchCounter = Atomic<Int>(0)

    /// Renames the scratch file into place, unflushed (``makeDurable()`` flushes it with the
    /// rest), or removes it when the name is already there with the bytes it names.
    public func putImmutable(fileAt scratch: String, as name: String) throws(PublishError) -> Bool {
        if holdsIntact(name) {
            unlink(scratch)
            return false
        }
        try rethrowing(try DurableFiles.rename(scratch, to: path(of: name), flushing: .later), as: { PublishError.storage(StorageError($0)) })
        adopt(name)
        return true
    }

    public func putImmutable(_ bytes: [UInt8], as name: String) throws(PublishError) -> Bool {
        if holdsIntact(name) { return false }
        try rethrowing(try DurableFiles.write(bytes, to: path(of: name), flushing: .later), as: { PublishError.storage(StorageError($0)) })
        adopt(name)
        return true
    }

    /// A file is at the content-addressed `name` and its bytes have the SHA-256 the name gives.
    /// A file of a run cut short by a power cut before its flush can be at its name, empty or
    /// partly written (renamed, not yet written back): it is put again, never taken as there.
    private func holdsIntact(_ name: String) -> Bool {
        guard holdsFile(name) else { return false }
        let expected: String
        switch PublishedName(fileName: name) {
        case .feedSnapshot(_, let sha256)?, .feedDeltaFile(_, let sha256)?, .catalogSnapshot(let sha256)?, .record(_, let sha256)?,
            .recordPage(_, _, let sha256)?, .catalogPage(_, let sha256)?, .catalogTitles(let sha256)?, .catalogIndex(let sha256)?,
            .catalogPageGroup(_, let sha256)?, .catalogTitleGroup(let sha256)?:
            expected = sha256
        default:
            return true
        }
        return read(name).map(SHA256.hexDigest) == expected
    }

    /// The root's bytes, and their SHA-256 as the version to commit over.
    public func readRoot(_ name: String) throws(PublishError) -> (bytes: [UInt8]?, version: RootVersion) {
        guard serves(name) else { return (nil, .absent) }
        guard let bytes = read(name) else { throw .unusableTarget(location: path, reason: "\(name) cannot be read") }
        return (bytes, RootVersion(token: SHA256.hexDigest(bytes)))
    }

    /// Compares the root there with the version expected (under the directory's lock, which
    /// every publisher into it takes), then writes it whole: synced, renamed, directory synced.
    public func commitRoot(_ bytes: [UInt8], as name: String, expecting: RootVersion) throws(PublishError) -> RootVersion {
        let current = try readRoot(name).version
        guard current == expecting else {
            throw .rootChanged(
                location: path + "/" + name,
                detail: "read as \(expecting.token.map { "sha256 " + $0.prefix(12) } ?? "absent"), now \(current.token.map { "sha256 " + $0.prefix(12) } ?? "absent")")
        }
        try rethrowing(try DurableFiles.write(bytes, to: path(of: name), flushing: .now), as: { PublishError.storage(StorageError($0)) })
        adopt(name)
        return RootVersion(token: SHA256.hexDigest(bytes))
    }

    /// One `syncfs` of the file system the directory is on: the files written since the
    /// last flush, their names and removals, whatever their number.
    public func makeDurable() throws(PublishError) {
        try rethrowing(try flushFileSystem(), as: { PublishError.storage(StorageError($0)) })
    }

    /// Through the flush opened with the lock; without a lock taken, one opened now.
    private func flushFileSystem() throws(FileError) {
        if let pending = flush.current.withLock({ $0 }) {
            try pending.flush()
        } else {
            try DurableFiles.syncFileSystem(holding: path)
        }
    }

    public func localCopy(of name: String) throws(PublishError) -> String { path(of: name) }

    /// A hard link, renamed into place and flushed by the next ``makeDurable()`` (its bytes
    /// are a snapshot's, already durable: a power cut before then leaves the old link, whole),
    /// or on a file system without them a copy, written in full, synced and renamed.
    public func alias(_ name: String, to file: String) throws(PublishError) -> Bool {
        let link = path(of: name)
        let target = path(of: file)
        var targetInfo = stat()
        var nameInfo = stat()
        guard stat(target, &targetInfo) == 0 else { return false }
        if lstat(link, &nameInfo) == 0, nameInfo.st_ino == targetInfo.st_ino, nameInfo.st_dev == targetInfo.st_dev { return false }
        try rethrowing(try Self.link(link, to: target, publishedAs: name), as: { PublishError.storage(StorageError($0)) })
        adopt(name)
        return true
    }

    /// Makes `link` serve `target`'s bytes in one rename: a hard link to it under a temporary
    /// name, or a copy where hard links cannot be made.
    private static func link(_ link: String, to target: String, publishedAs name: String) throws(FileError) {
        let temporary = link + ".tmp-\(getpid())"
        unlink(temporary)
        if Glibc.link(target, temporary) == 0 {
            do throws(FileError) {
                try DurableFiles.rename(temporary, to: link, flushing: .later)
            } catch {
                // The temporary link is this call's own: a failed rename must not leave it in
                // the publication until some later one changes that content (issue 52).
                unlink(temporary)
                throw error
            }
        } else {
            guard let bytes = FileManager.default.contents(atPath: target) else {
                throw FileError(path: target, message: "cannot read to publish as \(name)")
            }
            try DurableFiles.write([UInt8](bytes), to: link)
        }
    }

    public func delete(_ name: String) -> Bool {
        holdsFile(name) && unlink(path(of: name)) == 0
    }

    private func path(of name: String) -> String { path + "/" + name }
}

/// The ``PendingFlush`` of the publication holding the lock, shared by the copies of a
/// ``DirectoryTarget`` (a struct).
private final class OpenedFlush: Sendable {
    let current = Mutex<PendingFlush?>(nil)
}
