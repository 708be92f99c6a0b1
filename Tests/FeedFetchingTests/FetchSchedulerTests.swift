@testable import FeedFetching
import Foundation
import TestSupport
import Testing

@Suite("Many feeds at once")
struct FetchSchedulerTests {
    @Test func thePerHostLimitIsObserved() throws {
        let server = try TestHTTPServer { request in .init(body: Array("<rss>\(request.path)</rss>".utf8), delay: 0.1) }
        let hosts = ["a", "b", "c"]
        let requests = (0..<36).map { FetchRequest(url: "http://\(hosts[$0 % 3]).localhost:\(server.port)/feed\($0)") }
        let scheduler = FetchScheduler(configuration: localConfiguration(), concurrency: 16, perHostLimit: 2)
        let results = scheduler.fetchAll(requests)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        for (index, result) in results.enumerated() {
            #expect((try? result.get())?.response.body == Array("<rss>/feed\(index)</rss>".utf8))
        }
        for host in hosts.map({ "\($0).localhost" }) {
            #expect((1...2).contains(server.peakInFlightByHost[host] ?? 0), "at most two at a time to \(host)")
        }
        #expect(hosts.contains { server.peakInFlightByHost["\($0).localhost"] == 2 }, "and the limit was actually used")
    }

    @Test func concurrencyBoundsTransfersInFlight() throws {
        let server = try TestHTTPServer { _ in .init(body: Array("<rss/>".utf8), delay: 0.1) }
        let requests = (0..<40).map { FetchRequest(url: "http://h\($0).localhost:\(server.port)/") }
        let start = ContinuousClock.now
        let results = FetchScheduler(configuration: localConfiguration(), concurrency: 8, perHostLimit: 2).fetchAll(requests)
        let elapsed = ContinuousClock.now - start
        #expect(results.count == 40)
        #expect((5...8).contains(server.peakInFlight), "never more than 8 in flight, and most of them used: \(server.peakInFlight)")
        #expect(elapsed >= .milliseconds(500), "40 feeds × 0.1 s over 8 transfers take at least 0.5 s")
    }

    @Test func aFeedsWorkAfterItsTransferDoesNotHoldTheTransferSlot() throws {
        let server = try TestHTTPServer { _ in .init(body: Array("<rss/>".utf8), delay: 0.05) }
        let hosts = (0..<4).map { "h\($0).localhost:\(server.port)" }
        let started = (0..<4).map { _ in DispatchSemaphore(value: 0) }
        let sawNextStart = Flags(count: 4)
        FetchScheduler(configuration: localConfiguration(), concurrency: 1).fetchEach(hosts: hosts) { index, fetch in
            started[index].signal()
            _ = fetch(FetchRequest(url: "http://\(hosts[index])/"), nil)
            // Still busy with this feed after its transfer: the next feed's transfer starts meanwhile.
            if index < 3 { sawNextStart.set(index, started[index + 1].wait(timeout: .now() + 5) == .success) }
        }
        #expect(sawNextStart.values == [true, true, true, false])
        #expect(server.peakInFlight == 1, "one transfer at a time all the same")
    }

    @Test func oneHostsFeedsShareAConnection() throws {
        let server = try TestHTTPServer { _ in .init(body: Array("<rss/>".utf8)) }
        let requests = (0..<10).map { FetchRequest(url: "http://only.localhost:\(server.port)/feed\($0)") }
        _ = FetchScheduler(configuration: localConfiguration(), concurrency: 1).fetchAll(requests)
        #expect(server.requests.count == 10)
        #expect(server.connectionsByHost["only.localhost"] == 1)
    }

    @Test func failuresAreReportedPerFeedAndOthersCarryOn() throws {
        let server = try TestHTTPServer { request in
            request.path == "/bad" ? .init(status: 500) : .init(body: Array("<rss/>".utf8))
        }
        let requests = ["/good1", "/bad", "/good2"].map { FetchRequest(url: server.baseURL + $0) }
        let results = FetchScheduler(configuration: localConfiguration(), concurrency: 2).fetchAll(requests)
        #expect((try? results[0].get()) != nil)
        #expect(results[1].failureStatus == 500)
        #expect((try? results[2].get()) != nil)
    }

    @Test func anEmptyBatchReturnsAtOnce() {
        #expect(FetchScheduler().fetchAll([]).isEmpty)
    }
}

extension Result where Failure == FetchError {
    var failureStatus: Int? {
        if case .failure(let error) = self { return error.status }
        return nil
    }
}

/// Booleans set from many threads.
private final class Flags: @unchecked Sendable {
    private let lock = NSLock()
    private var flags: [Bool]

    init(count: Int) { flags = Array(repeating: false, count: count) }

    func set(_ index: Int, _ value: Bool) { lock.withLock { flags[index] = value } }

    var values: [Bool] { lock.withLock { flags } }
}
