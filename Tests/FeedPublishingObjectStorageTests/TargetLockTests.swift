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
        // A write may take 0.4 s here (retries and margin), well within the 2 s lease.
        let publisher = try target(server, retry: Self.quick, fencingMargin: .milliseconds(200))
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

    /// Retries that give up within a second: a write's time is this deadline plus the margin.
    static let quick = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(50), maxDelay: .milliseconds(100), deadline: .seconds(1))

    /// Sleeps until `seconds` after `start`.
    private static func sleep(until seconds: Double, after start: ContinuousClock.Instant) {
        let left = (start + .milliseconds(Int64(seconds * 1000))) - ContinuousClock.now
        if left > .zero { Thread.sleep(forTimeInterval: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18) }
    }

    @Test("a write that could land after the lease runs out is not started: the lease is renewed first, and a takeover meanwhile stops the publisher", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func stalledWriteCannotLandAfterTakeover() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let relay = try S3RequestRelay(upstream: server.endpoint)
        defer { relay.stop() }
        // A write may take 4 s (1 s of retries, 3 s of margin); the lease is 6 s.
        let publisher = try target(server, endpoint: relay.endpoint, retry: Self.quick, fencingMargin: .seconds(3))
        let started = ContinuousClock.now
        let hold = try publisher.lock(for: .all, lease: .seconds(6))
        // 2.5 s in, 3.5 s of lease left: less than a write may take. The link stalls: every
        // request takes 5 s, so a write started now would land at 7.5 s, after the lease.
        Self.sleep(until: 2.5, after: started)
        relay.delayEachRequest(by: 5)
        let next = try target(server)
        let nextOutcome = NextHolderOutcome()
        let nextHolder = Thread {
            // 6.6 s in the lease has run out: the next publisher takes the shard and writes.
            Self.sleep(until: 6.6, after: started)
            do {
                let nextHold = try next.lock(for: .all, lease: ObjectStorageTarget.defaultLease)
                try next.put(Array("{\"next\":1}".utf8), as: "feed_2.json")
                withExtendedLifetime(nextHold) {}
                nextOutcome.set("wrote")
            } catch {
                nextOutcome.set("\(error)")
            }
        }
        nextHolder.start()
        let error = try #require(throws: PublishError.self) { try publisher.put(Array("{\"stale\":1}".utf8), as: "feed_2.json") }
        guard case .busy = error else { Issue.record("\(error)"); return }
        Self.sleep(until: 8, after: started)
        relay.delayEachRequest(by: 0)
        #expect(nextOutcome.value == "wrote", "the next holder took the shard and wrote")
        #expect(try bystander(server).get("site/feed_2.json").map { String(decoding: $0.body, as: UTF8.self) } == "{\"next\":1}",
            "the stalled publisher's write never lands over the next holder's")
        withExtendedLifetime(hold) {}
    }

    @Test("a renewal too slow to leave a write's time on the lease refuses the write (exit 75's error); a quick one lets it through", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func slowRenewalRefusesTheWrite() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let relay = try S3RequestRelay(upstream: server.endpoint)
        defer { relay.stop() }
        let publisher = try target(server, endpoint: relay.endpoint, retry: Self.quick, fencingMargin: .seconds(3))
        var started = ContinuousClock.now
        var hold: AnyObject? = try publisher.lock(for: .all, lease: .seconds(6))
        // 2.5 s in: renewed first (3.5 s left is less than the 4 s a write may take); the
        // renewal takes 3 s, which leaves 3 s: still too little, so the write is refused.
        Self.sleep(until: 2.5, after: started)
        relay.delayEachRequest(by: 3)
        let error = try #require(throws: PublishError.self) { try publisher.put(Array("{}".utf8), as: "feed_3.json") }
        guard case .leaseRunningOut(let lockPath, _) = error else { Issue.record("\(error)"); return }
        #expect(lockPath.hasSuffix("/site/.feedmill-lock.1of1.json"))
        #expect(error.description.contains("feed_3.json") && error.description.contains("lease"))
        relay.delayEachRequest(by: 0)
        #expect(try bystander(server).get("site/feed_3.json") == nil, "not written")
        withExtendedLifetime(hold) {}
        hold = nil

        started = ContinuousClock.now
        hold = try publisher.lock(for: .all, lease: .seconds(6))
        let before = try #require(try record(server)).expires
        Self.sleep(until: 2.5, after: started)
        try publisher.put(Array("{}".utf8), as: "feed_3.json")
        #expect(try bystander(server).get("site/feed_3.json") != nil)
        #expect(try #require(try record(server)).expires > before, "renewed before the write")
        withExtendedLifetime(hold) {}
    }
}

/// What the next holder's thread did: "wrote", or its error.
final class NextHolderOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome = "(nothing yet)"
    func set(_ value: String) { lock.withLock { outcome = value } }
    var value: String { lock.withLock { outcome } }
}
