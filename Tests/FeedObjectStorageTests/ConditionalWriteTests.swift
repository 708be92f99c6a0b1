import FeedObjectStorage
import Foundation
import TestSupport
import Testing

@Suite("conditional writes: how two publishers race for the root")
struct ConditionalWriteTests {
    @Test("If-None-Match: * creates once; If-Match takes only the version read", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func conditionsHold() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let s3 = try client(for: server)
        let first = try s3.put("root.json", Array("generation 1".utf8), options: PutOptions(condition: .absent))
        #expect(throws: ObjectStorageError.preconditionFailed(key: "root.json")) {
            try s3.put("root.json", Array("someone else's 1".utf8), options: PutOptions(condition: .absent))
        }
        let second = try s3.put("root.json", Array("generation 2".utf8), options: PutOptions(condition: .matches(etag: first)))
        #expect(second != first)
        #expect(throws: ObjectStorageError.preconditionFailed(key: "root.json")) {
            try s3.put("root.json", Array("stale 2".utf8), options: PutOptions(condition: .matches(etag: first)))
        }
        // If-Match on a key with nothing there fails too: the root was deleted underneath.
        #expect(throws: ObjectStorageError.preconditionFailed(key: "other.json")) {
            try s3.put("other.json", Array("x".utf8), options: PutOptions(condition: .matches(etag: first)))
        }
        let root = try #require(try s3.get("root.json"))
        #expect(root.body == Array("generation 2".utf8))
        #expect(root.etag == second)
        #expect(try s3.head("other.json") == nil)
    }

    @Test("of eight writers creating the same root at once, exactly one wins", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func racingCreatesHaveOneWinner() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let s3 = try client(for: server)
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            do {
                try s3.put("root.json", Array("writer \(writer)".utf8), options: PutOptions(condition: .absent))
                outcomes.add(winner: writer)
            } catch {
                outcomes.add(error)
            }
        }
        let (winners, errors) = outcomes.result()
        #expect(winners.count == 1)
        #expect(errors.count == 7)
        #expect(errors.allSatisfy { $0 == .preconditionFailed(key: "root.json") })
        let winner = try #require(winners.first)
        #expect(try s3.get("root.json")?.body == Array("writer \(winner)".utf8))
    }
}

/// What the racing writers report, gathered under a lock.
private final class Outcomes: @unchecked Sendable {
    // @unchecked: both arrays are touched only while `lock` is held.
    private let lock = NSLock()
    private var winners: [Int] = []
    private var errors: [ObjectStorageError] = []

    func add(winner: Int) { lock.withLock { winners.append(winner) } }
    func add(_ error: any Error) { lock.withLock { errors.append(error as? ObjectStorageError ?? .malformedResponse("\(error)")) } }
    func result() -> ([Int], [ObjectStorageError]) { lock.withLock { (winners, errors) } }
}
