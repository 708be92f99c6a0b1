import FeedBasics
import FeedStorage
import Foundation
import Synchronization
import FeedPublishing

/// A second kind of ``PublicationTarget``, for the tests only: files held in memory, as an
/// object store would hold them (no links, no directories, no temporaries: `alias` copies,
/// `put` replaces whole). SQLite needs paths, so snapshots are written and read back through
/// a scratch directory of its own, never through the publish directory.
///
/// It records the order of every put and delete, so a test can check that the manifest goes
/// last and that only the publisher's own files are ever deleted.
final class MemoryTarget: PublicationTarget {
    enum Event: Equatable {
        case put(String)
        case delete(String)
        /// ``makeDurable()``: every put before it is durable.
        case madeDurable
    }

    private struct State {
        var files: [String: [UInt8]] = [:]
        var events: [Event] = []
        var locked = false
        /// Listing fails, as a store's listing can (a network error, a denied permission).
        var unlistable = false
    }

    private let state = Mutex(State())
    /// Where SQLite writes and reads snapshots; removed with the target.
    private let scratch: String

    init(holding files: [String: [UInt8]] = [:]) throws {
        scratch = NSTemporaryDirectory() + "/memory-target-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        state.withLock { $0.files = files }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    var location: String { "memory:" }
    var files: [String: [UInt8]] { state.withLock { $0.files } }
    var events: [Event] { state.withLock { $0.events } }

    /// From now on, listing the target fails.
    func failListing() {
        state.withLock { $0.unlistable = true }
    }

    /// The lock held by one publication; released when the publication lets it go.
    final class Held: Sendable {
        let release: @Sendable () -> Void
        init(release: @escaping @Sendable () -> Void) { self.release = release }
        deinit { release() }
    }

    func lock(for shard: Shard, lease: Duration) throws(PublishError) -> AnyObject {
        let taken = state.withLock { state in
            if state.locked { return false }
            state.locked = true
            return true
        }
        guard taken else { throw .busy(lock: location, holder: "another publication") }
        return Held { [self] in self.state.withLock { $0.locked = false } }
    }

    func names() throws(PublishError) -> [String] {
        let listing = state.withLock { $0.unlistable ? nil : Array($0.files.keys) }
        guard let listing else { throw .unusableTarget(location: location, reason: "cannot be listed") }
        return listing
    }
    func serves(_ name: String) -> Bool { state.withLock { $0.files[name] != nil } }
    func holdsFile(_ name: String) -> Bool { serves(name) }
    func read(_ name: String) -> [UInt8]? { state.withLock { $0.files[name] } }

    func put(_ bytes: [UInt8], as name: String) throws(PublishError) {
        state.withLock { state in
            state.files[name] = bytes
            state.events.append(.put(name))
        }
    }

    private let scratchCount = Mutex(0)

    func scratchPath() throws(PublishError) -> String {
        let number = scratchCount.withLock { count in
            count += 1
            return count
        }
        return scratch + "/scratch-\(number)"
    }

    func putImmutable(fileAt path: String, as name: String) throws(PublishError) -> Bool {
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw .storage(StorageError(path: path, message: "was not written"))
        }
        return try putImmutable([UInt8](bytes), as: name)
    }

    func putImmutable(_ bytes: [UInt8], as name: String) throws(PublishError) -> Bool {
        if serves(name) { return false }
        try put(bytes, as: name)
        return true
    }

    func readRoot(_ name: String) throws(PublishError) -> (bytes: [UInt8]?, version: RootVersion) {
        let bytes = read(name)
        return (bytes, RootVersion(token: bytes.map(SHA256.hexDigest)))
    }

    func commitRoot(_ bytes: [UInt8], as name: String, expecting: RootVersion) throws(PublishError) -> RootVersion {
        try state.withLock { state throws(PublishError) in
            let current = RootVersion(token: state.files[name].map(SHA256.hexDigest))
            guard current == expecting else { throw .rootChanged(location: location + name, detail: "changed") }
            state.files[name] = bytes
            state.events.append(.put(name))
        }
        return RootVersion(token: SHA256.hexDigest(bytes))
    }

    func localCopy(of name: String) throws(PublishError) -> String {
        let path = scratch + "/" + name
        guard let bytes = read(name) else { throw .storage(StorageError(path: location + name, message: "no such file")) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw .storage(StorageError(path: path, message: "cannot be written"))
        }
        return path
    }

    func makeDurable() throws(PublishError) {
        state.withLock { $0.events.append(.madeDurable) }
    }

    func alias(_ name: String, to file: String) throws(PublishError) -> Bool {
        state.withLock { state in
            guard let bytes = state.files[file], state.files[name] != bytes else { return false }
            state.files[name] = bytes
            state.events.append(.put(name))
            return true
        }
    }

    func delete(_ name: String) -> Bool {
        state.withLock { state in
            guard state.files.removeValue(forKey: name) != nil else { return false }
            state.events.append(.delete(name))
            return true
        }
    }
}
