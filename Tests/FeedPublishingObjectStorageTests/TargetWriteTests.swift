import FeedBasics
import FeedObjectStorage
import FeedPublishing
@testable import FeedPublishingObjectStorage
import Foundation
import TestSupport
import Testing

/// What the target writes: immutable names once, the root only over the version read, stable
/// names as copies, deletions one name at a time.
@Suite("the S3 target's writes")
struct TargetWriteTests {
    @Test("the root is committed over the version read only; changed underneath, nothing is half-done", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func rootChangedUnderneath() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let publisher = try target(server)
        let hold = try publisher.lock(for: .all, lease: ObjectStorageTarget.defaultLease)
        defer { withExtendedLifetime(hold) {} }
        let empty = try publisher.readRoot("manifest.json")
        #expect(empty.bytes == nil && empty.version == RootVersion(token: nil))
        let first = Array("{\"generation\": 1}\n".utf8)
        let committed = try publisher.commitRoot(first, as: "manifest.json", expecting: empty.version)
        let read = try publisher.readRoot("manifest.json")
        #expect(read.bytes == first && read.version == committed)
        let stored = try #require(try bystander(server).get("site/manifest.json"))
        #expect(stored.cacheControl == "public, max-age=30" && stored.contentType == "application/json")

        // Someone overwrites the root between this publisher's read and its commit.
        let theirs = Array("{\"generation\": 2, \"by\": \"someone else\"}\n".utf8)
        try bystander(server).put("site/manifest.json", theirs)
        let error = try #require(throws: PublishError.self) {
            try publisher.commitRoot(Array("{\"generation\": 2}\n".utf8), as: "manifest.json", expecting: read.version)
        }
        guard case .rootChanged(let location, _) = error else { Issue.record("\(error)"); return }
        #expect(location == "s3://\(server.bucket)/site")
        #expect(try bystander(server).get("site/manifest.json")?.body == theirs, "the other's root stands, whole")
        // A first root where one appeared meanwhile.
        #expect(throws: PublishError.self) { try publisher.commitRoot(first, as: "manifest.json", expecting: RootVersion(token: nil)) }
        #expect(try bystander(server).get("site/manifest.json")?.body == theirs)
    }

    @Test("six publishers committing over the same root: exactly one wins", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func racingCommits() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let publishers = try (0..<6).map { _ in try target(server) }
        try bystander(server).put("site/manifest.json", Array("{}".utf8))
        let version = try publishers[0].readRoot("manifest.json").version
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: publishers.count) { index in
            do {
                _ = try publishers[index].commitRoot(Array("{\"by\": \(index)}".utf8), as: "manifest.json", expecting: version)
                outcomes.add(index, nil)
            } catch {
                outcomes.add(index, error)
            }
        }
        let winners = outcomes.all.filter { $0.1 == nil }.map(\.0)
        #expect(winners.count == 1)
        #expect(outcomes.all.filter { if case .rootChanged = $0.1 { true } else { false } }.count == publishers.count - 1)
        #expect(try bystander(server).get("site/manifest.json")?.body == Array("{\"by\": \(winners.first ?? -1)}".utf8))
    }

    @Test("an immutable name already there is not uploaded again: listed at lock time, or refused by If-None-Match", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func putImmutableSkips() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let relay = try S3RequestRelay(upstream: server.endpoint)
        defer { relay.stop() }
        var random = SeededGenerator.announced()
        let snapshot = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let name = contentName(snapshot)
        let publisher = try target(server, endpoint: relay.endpoint)
        do {
            let hold = try publisher.lock(for: .all, lease: ObjectStorageTarget.defaultLease)
            let path = try publisher.scratchPath()
            #expect(FileManager.default.createFile(atPath: path, contents: Data(snapshot)))
            #expect(try publisher.putImmutable(fileAt: path, as: name))
            #expect(!FileManager.default.fileExists(atPath: path), "the scratch file is removed")
            #expect(try !publisher.putImmutable(snapshot, as: name), "known present: skipped")
            withExtendedLifetime(hold) {}
        }
        let puts = relay.exchanges.filter { $0.method == "PUT" && $0.path.hasSuffix(name) }
        #expect(puts.map(\.status) == [200])
        var digest = SHA256()
        digest.update(snapshot)
        #expect(puts.first?.checksum == Data(digest.finalize()).base64EncodedString())
        let stored = try #require(try bystander(server).get("site/" + name))
        #expect(stored.body == snapshot && stored.cacheControl == "public, max-age=31536000, immutable" && stored.contentType == "application/vnd.sqlite3")

        // A rerun (a new process): the listing at lock time knows it; no request at all.
        relay.clear()
        let rerun = try target(server, endpoint: relay.endpoint)
        var late = ""
        do {
            let hold = try rerun.lock(for: .all, lease: ObjectStorageTarget.defaultLease)
            #expect(try !rerun.putImmutable(snapshot, as: name))
            #expect(rerun.serves(name) && !rerun.serves(contentName(Array("never".utf8), feed: 4)))
            // A stable name: copied once; then known to serve those bytes, by the ETags at hand.
            #expect(try rerun.alias("feed_1.sqlite", to: name))
            #expect(try !rerun.alias("feed_1.sqlite", to: name))
            // Put by someone after the listing: the conditional upload is refused, nothing replaced.
            late = contentName(Array("late".utf8), feed: 2)
            try bystander(server).put("site/" + late, Array("late".utf8))
            #expect(try !rerun.putImmutable(Array("late".utf8), as: late))
            #expect(try rerun.putImmutable(Array("new".utf8), as: contentName(Array("new".utf8), feed: 3)))
            withExtendedLifetime(hold) {}
            let uploads = relay.exchanges.filter { $0.method == "PUT" && !$0.path.contains(".feedmill-lock") }
            #expect(uploads.map(\.path) == ["/\(server.bucket)/site/feed_1.sqlite", "/\(server.bucket)/site/\(late)", "/\(server.bucket)/site/\(contentName(Array("new".utf8), feed: 3))"])
            #expect(uploads.map(\.status) == [200, 412, 200], "the stable copy, the late name refused, the new name")
            #expect(!relay.exchanges.contains { $0.method == "HEAD" }, "immutable names and feeds' stable names are answered from the listing and the writes")
            let names = try rerun.names(), again = try rerun.names()
            #expect(names.contains(name) && names.contains(contentName(Array("new".utf8), feed: 3)) && names == again)
            #expect(relay.exchanges.filter { $0.path.contains("list-type=2") }.count == 1, "one listing per lock, kept up to date")
            #expect(rerun.immutableUploads == 1)
        }
    }

    @Test("stable names are copies, local copies are downloads, deletions take only the names given", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func aliasCopyDelete() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let publisher = try target(server)
        let hold = try publisher.lock(for: .all, lease: ObjectStorageTarget.defaultLease)
        defer { withExtendedLifetime(hold) {} }
        let bytes = Array("snapshot bytes".utf8)
        let name = contentName(bytes)
        try publisher.putImmutable(bytes, as: name)
        #expect(try publisher.alias("feed_1.sqlite", to: name))
        #expect(try !publisher.alias("feed_1.sqlite", to: name), "already serving those bytes")
        #expect(try !publisher.alias("feed_2.sqlite", to: contentName(Array("absent".utf8))))
        let stable = try #require(try bystander(server).get("site/feed_1.sqlite"))
        #expect(stable.body == bytes && stable.cacheControl == "public, max-age=60")

        let local = try publisher.localCopy(of: name)
        #expect(FileManager.default.contents(atPath: local) == Data(bytes))
        #expect(throws: PublishError.self) { try publisher.localCopy(of: "feed_9.sqlite") }

        // Beside the publication: a deeper key, and another prefix sharing its start.
        try bystander(server).put("site/deeper/feed_1.sqlite", [1])
        try bystander(server).put("site-other/feed_1.sqlite", [1])
        let names = Set(try publisher.names())
        #expect(names.isSuperset(of: [name, "feed_1.sqlite", ".feedmill-lock.1of1.json"]))
        #expect(!names.contains { $0.contains("/") } && !names.contains("deeper"))
        #expect(publisher.delete("feed_1.sqlite"))
        #expect(!publisher.delete("feed_1.sqlite"))
        #expect(!publisher.serves("feed_1.sqlite") && publisher.serves(name) && publisher.holdsFile(name))
        #expect(try bystander(server).get("site/deeper/feed_1.sqlite") != nil && bystander(server).get("site-other/feed_1.sqlite") != nil)
    }
}

private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(Int, PublishError?)] = []
    func add(_ index: Int, _ error: Error?) {
        lock.lock()
        list.append((index, error.map { $0 as? PublishError ?? .target(location: "", reason: "\($0)", kind: .other) }))
        lock.unlock()
    }
    var all: [(Int, PublishError?)] { lock.lock(); defer { lock.unlock() }; return list }
}
