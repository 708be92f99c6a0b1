import FeedBasics
import FeedObjectStorage
import FeedPublishing
@testable import FeedPublishingObjectStorage
import Foundation
import TestSupport
import Testing

/// The lock object: one publisher per shard, a live lock refuses the next naming its holder,
/// a released, expired or orphaned one (its process gone, on this host) is taken over.
@Suite("the S3 target's lock object")
struct TargetLockTests {
    private func record(_ server: S3TestServer, shard: String = "1of1") throws -> LockRecord? {
        try bystander(server).get("site/.feedmill-lock.\(shard).json").map { try JSONDecoder().decode(LockRecord.self, from: Data($0.body)) }
    }

    private func plant(_ record: LockRecord, _ server: S3TestServer) throws {
        try bystander(server).put("site/.feedmill-lock.1of1.json", record.bytes)
    }

    @Test("a live lock refuses a second publisher by name; released, it is taken", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func liveAndReleased() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let first = try target(server), second = try target(server)
        var hold: AnyObject? = try first.lock(for: .all, lease: .seconds(60))
        let held = try #require(try record(server))
        #expect(held.pid == getpid() && !held.released && held.expires - held.started == 60)
        let busy = try #require(throws: PublishError.self) { try second.lock(for: .all, lease: .seconds(60)) }
        guard case .busy(let lockPath, let holder) = busy else { Issue.record("\(busy)"); return }
        #expect(lockPath == "s3://\(server.bucket)/site/.feedmill-lock.1of1.json")
        #expect(holder.contains("pid \(getpid())") && holder.contains(ProcessInfo.processInfo.hostName))
        // Shards have locks of their own.
        let otherShard = try second.lock(for: try Shard(index: 2, count: 2), lease: .seconds(60))
        #expect(try record(server, shard: "2of2")?.released == false)
        withExtendedLifetime(otherShard) {}

        withExtendedLifetime(hold) {}
        hold = nil
        #expect(try record(server)?.released == true, "released at the end by a conditional write")
        let again = try second.lock(for: .all, lease: .seconds(60))
        #expect(try record(server)?.released == false)
        withExtendedLifetime(again) {}
    }

    @Test("an expired lease or a holder gone from this host is taken over; a live one elsewhere is not", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func takeOver() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let publisher = try target(server)
        let now = Int64(Date().timeIntervalSince1970)
        try plant(LockRecord(host: "elsewhere", pid: 4242, started: now - 700, expires: now - 100, released: false), server)
        do {
            let hold = try publisher.lock(for: .all, lease: .seconds(60))
            #expect(try record(server)?.host == ProcessInfo.processInfo.hostName, "the expired lease was taken over")
            withExtendedLifetime(hold) {}
        }
        try plant(LockRecord(host: "elsewhere", pid: 4242, started: now, expires: now + 600, released: false), server)
        let busy = try #require(throws: PublishError.self) { try publisher.lock(for: .all, lease: .seconds(60)) }
        #expect(busy.description.contains("pid 4242 on elsewhere"))
        #expect(try record(server)?.host == "elsewhere", "a live lock is left alone")

        try plant(LockRecord(host: ProcessInfo.processInfo.hostName, pid: try deadPID(), started: now, expires: now + 600, released: false), server)
        let hold = try publisher.lock(for: .all, lease: .seconds(60))
        #expect(try record(server)?.pid == getpid(), "a killed publisher's lock on this host is taken at once")
        withExtendedLifetime(hold) {}
    }

    @Test("a publisher whose lease ran out and was taken over stops before writing more", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func lostLease() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let publisher = try target(server)
        let hold = try publisher.lock(for: .all, lease: .seconds(2))
        try publisher.put(Array("{}".utf8), as: "feed_1.json")
        let now = Int64(Date().timeIntervalSince1970)
        try plant(LockRecord(host: "elsewhere", pid: 7, started: now, expires: now + 600, released: false), server)
        Thread.sleep(forTimeInterval: 1.2)
        let error = try #require(throws: PublishError.self) { try publisher.put(Array("{\"late\":1}".utf8), as: "feed_2.json") }
        guard case .busy = error else { Issue.record("\(error)"); return }
        #expect(try bystander(server).get("site/feed_2.json") == nil)
        withExtendedLifetime(hold) {}
        #expect(try record(server)?.host == "elsewhere", "its release does not touch the new holder's lock")
    }
}
