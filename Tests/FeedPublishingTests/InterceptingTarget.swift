import FeedBasics
import FeedPublishing
import FeedStorage
import Foundation
import Synchronization

/// A publish directory (``DirectoryTarget``) with a hand in it, for the tests: it can refuse
/// chosen immutable puts (as a full disk or a failing store would) and run something just
/// before the root is committed (another publisher's commit, an operator's edit).
final class InterceptingTarget: PublicationTarget {
    let directory: DirectoryTarget
    /// Immutable names whose put fails.
    let failing: @Sendable (String) -> Bool
    private let beforeCommit = Mutex<(@Sendable () -> Void)?>(nil)

    init(_ directory: DirectoryTarget, failing: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.directory = directory
        self.failing = failing
    }

    private let refuseCommit = Mutex(false)

    /// The next root commit fails as a publication killed just before it would: nothing of the
    /// run is taken back (``PublishError/rootChanged(location:detail:)`` takes nothing back).
    func refuseNextCommit() {
        refuseCommit.withLock { $0 = true }
    }

    /// Runs `action` once, just before the next root commit.
    func beforeNextCommit(_ action: @escaping @Sendable () -> Void) {
        beforeCommit.withLock { $0 = action }
    }

    var location: String { directory.location }
    func lock(for shard: Shard, lease: Duration) throws(PublishError) -> AnyObject { try directory.lock(for: shard, lease: lease) }
    func names() throws(PublishError) -> [String] { try directory.names() }
    func serves(_ name: String) -> Bool { directory.serves(name) }
    func holdsFile(_ name: String) -> Bool { directory.holdsFile(name) }
    func read(_ name: String) -> [UInt8]? { directory.read(name) }
    func readRoot(_ name: String) throws(PublishError) -> (bytes: [UInt8]?, version: RootVersion) { try directory.readRoot(name) }
    func put(_ bytes: [UInt8], as name: String) throws(PublishError) { try directory.put(bytes, as: name) }
    func scratchPath() throws(PublishError) -> String { try directory.scratchPath() }

    func putImmutable(fileAt path: String, as name: String) throws(PublishError) -> Bool {
        if failing(name) { throw refused(name) }
        return try directory.putImmutable(fileAt: path, as: name)
    }

    func putImmutable(_ bytes: [UInt8], as name: String) throws(PublishError) -> Bool {
        if failing(name) { throw refused(name) }
        return try directory.putImmutable(bytes, as: name)
    }

    func makeDurable() throws(PublishError) { try directory.makeDurable() }
    func localCopy(of name: String) throws(PublishError) -> String { try directory.localCopy(of: name) }

    func commitRoot(_ bytes: [UInt8], as name: String, expecting: RootVersion) throws(PublishError) -> RootVersion {
        let action = beforeCommit.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
        let refused = refuseCommit.withLock { refuse in
            defer { refuse = false }
            return refuse
        }
        if refused { throw .rootChanged(location: location + "/" + name, detail: "refused by the test") }
        return try directory.commitRoot(bytes, as: name, expecting: expecting)
    }

    func alias(_ name: String, to file: String) throws(PublishError) -> Bool { try directory.alias(name, to: file) }
    func delete(_ name: String) -> Bool { directory.delete(name) }

    private func refused(_ name: String) -> PublishError {
        .storage(.init(path: location + "/" + name, message: "refused by the test"))
    }
}
