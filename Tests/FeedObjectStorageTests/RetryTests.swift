import FeedBasics
import FeedObjectStorage
import Foundation
import TestSupport
import Testing

/// Retries against a real server behind a real relay that refuses some requests itself
/// (``S3RequestRelay``): what is tried again, how often, and what never is.
@Suite("retries with backoff and jitter")
struct RetryTests {
    private let quick = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(20), maxDelay: .milliseconds(100), deadline: .seconds(20))

    private func relayedClient(_ server: S3TestServer, _ relay: S3RequestRelay, secret: String? = nil, retry: RetryPolicy) throws -> S3Client {
        var environment = server.environment
        environment["AWS_ENDPOINT_URL"] = relay.endpoint
        if let secret { environment["AWS_SECRET_ACCESS_KEY"] = secret }
        return S3Client(settings: try ObjectStorageSettings.fromEnvironment(environment), bucket: server.bucket, retry: retry)
    }

    private func puts(_ relay: S3RequestRelay, _ key: String) -> [Int] {
        relay.exchanges.filter { $0.method == "PUT" && $0.path.hasSuffix("/" + key) }.map(\.status)
    }

    @Test("503 and 429 are tried again until the server answers; 4xx and a refused condition are not", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func retriesTransientOnly() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let relay = try S3RequestRelay(upstream: server.endpoint)
        defer { relay.stop() }
        let s3 = try relayedClient(server, relay, retry: quick)

        relay.failNext(2, status: 503)
        let etag = try s3.put("recovers", Array("after two 503s".utf8))
        #expect(puts(relay, "recovers") == [503, 503, 200])
        #expect(try s3.get("recovers")?.etag == etag)

        relay.failNext(1, status: 429)
        try s3.put("throttled", [1, 2, 3])
        #expect(puts(relay, "throttled") == [429, 200])

        relay.failNext(10, status: 503)
        let error = try #require(throws: ObjectStorageError.self) { try s3.put("never", [1]) }
        #expect(error == .server(status: 503, code: "SlowDown", message: "relay says 503"))
        #expect(puts(relay, "never") == [503, 503, 503, 503], "exactly maxAttempts tries")
        relay.clear()

        // A refused condition: another writer won; trying again cannot change that.
        try s3.put("root", [1], options: PutOptions(condition: .absent))
        #expect(throws: ObjectStorageError.preconditionFailed(key: "root")) { try s3.put("root", [2], options: PutOptions(condition: .absent)) }
        #expect(puts(relay, "root") == [200, 412])

        // Wrong credentials stay wrong.
        let wrong = try relayedClient(server, relay, secret: "not-the-secret", retry: quick)
        #expect(throws: ObjectStorageError.self) { try wrong.put("denied", [1]) }
        #expect(puts(relay, "denied") == [403])
    }

    @Test("an endpoint that refuses connections is tried maxAttempts times, within the deadline")
    func refusedEndpointIsBounded() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        close(listener)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let settings = try ObjectStorageSettings.fromEnvironment([
            "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_ENDPOINT_URL": "http://127.0.0.1:\(port)",
        ])
        let tries = Counter()
        let policy = RetryPolicy(maxAttempts: 50, baseDelay: .milliseconds(50), maxDelay: .milliseconds(200), deadline: .milliseconds(700))
        let s3 = S3Client(settings: settings, bucket: "bucket", retry: policy, onRetry: { _, _, _ in tries.add() })
        let started = ContinuousClock.now
        #expect(throws: ObjectStorageError.self) { try s3.put("a", [1]) }
        let took = ContinuousClock.now - started
        #expect(took < .milliseconds(1500), "gave up at the deadline, not after 50 tries: \(took)")
        #expect(tries.value >= 2 && tries.value < 49, "\(tries.value) retries")
    }

    @Test("pauses are drawn whole from 0 to a cap that doubles up to the maximum (full jitter)")
    func fullJitter() {
        var random = SeededGenerator.announced()
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(100), maxDelay: .seconds(1), deadline: .seconds(60))
        for attempt in 1...8 {
            let cap = min(1000, 100 << (attempt - 1))
            let pauses = (0..<200).map { _ in policy.pause(after: attempt, using: &random) }
            #expect(pauses.allSatisfy { $0 >= .zero && $0 <= .milliseconds(cap) }, "attempt \(attempt)")
            // Spread over the whole range, not bunched at the cap.
            #expect(pauses.contains { $0 < .milliseconds(cap / 4) } && pauses.contains { $0 > .milliseconds(cap * 3 / 4) }, "attempt \(attempt)")
        }
    }
}

/// A count shared with a @Sendable closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
