import FeedModel
import FeedPipeline
import FeedStorage
import Foundation
import PipelineTestSupport
import Testing

/// A run parses no more feeds at once than its limit, and a feed waiting for a permit is
/// still stored whole, under its own feedid.
@Suite("parse permits")
struct ParsePermitsTests {
    /// How many callers are inside at once, and the most seen.
    final class Occupancy: @unchecked Sendable {
        // `@unchecked Sendable`: both counts are only touched under `lock`.
        private let lock = NSLock()
        private var inside = 0
        private(set) var most = 0

        func enter() { lock.withLock { inside += 1; most = max(most, inside) } }
        func leave() { lock.withLock { inside -= 1 } }
    }

    @Test(arguments: [1, 3])
    func noMoreCallersThanTheLimitWorkAtOnce(limit: Int) {
        let permits = ParsePermits(limit: limit)
        let occupancy = Occupancy()
        let group = DispatchGroup()
        // Threads, not a concurrent queue: libdispatch on Linux may run only a few blocks at
        // once, which would let the test pass without permits.
        for _ in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                permits.withPermit {
                    occupancy.enter()
                    usleep(20_000)
                    occupancy.leave()
                }
                group.leave()
            }
        }
        group.wait()
        #expect(occupancy.most == limit)
    }

    /// Threads seen, once each, by id; with `keeping`, their `Thread` too, to see them end.
    /// The callers' are not kept: a detached thread's `Thread` holds its block, and with it
    /// the permits, which would then never be released.
    final class SeenThreads: @unchecked Sendable {
        // `@unchecked Sendable`: both arrays are only touched under `lock`.
        private let lock = NSLock()
        private var kept: [Thread] = []
        private var seen: [pthread_t] = []

        func addCurrent(keeping: Bool = false) {
            lock.withLock {
                guard !seen.contains(pthread_self()) else { return }
                seen.append(pthread_self())
                if keeping { kept.append(.current) }
            }
        }
        var ids: [pthread_t] { lock.withLock { seen } }
        var threads: [Thread] { lock.withLock { kept } }
    }

    /// The point of running the work on the permits' own threads: however many workers ask,
    /// only `limit` threads parse, so only their malloc caches fill with what parsing frees.
    @Test func theWorkRunsOnThePermitsOwnThreadsNeverTheCallers() {
        var permits: ParsePermits? = ParsePermits(limit: 2)
        let runners = SeenThreads()
        let callers = SeenThreads()
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread.detachNewThread { [permits] in
                callers.addCurrent()
                for _ in 0..<5 {
                    permits?.withPermit {
                        runners.addCurrent(keeping: true)
                        usleep(1_000)
                    }
                }
                group.leave()
            }
        }
        group.wait()
        #expect(runners.ids.count == 2)
        #expect(runners.ids.allSatisfy { runner in !callers.ids.contains(runner) })
        // Released with its run, the permits' threads end.
        permits = nil
        let deadline = Date().addingTimeInterval(10)
        let allEnded = { runners.threads.allSatisfy { $0.isFinished } }
        while !allEnded(), Date() < deadline { usleep(10_000) }
        #expect(allEnded())
    }

    @Test func theWorksResultComesBackToTheCaller() {
        let permits = ParsePermits(limit: 1)
        var local = [1, 2, 3]
        let sum = permits.withPermit { () -> Int in
            local.append(4)
            return local.reduce(0, +)
        }
        #expect(sum == 10)
        #expect(local == [1, 2, 3, 4])
    }

    @Test func aPermitIsGivenBackWhenTheWorkThrows() {
        struct Refused: Error {}
        let permits = ParsePermits(limit: 1)
        #expect(throws: Refused.self) { try permits.withPermit { () throws(Refused) in throw Refused() } }
        // With the permit kept, this would wait for ever.
        #expect(permits.withPermit { 42 } == 42)
    }

    @Test(.timeLimit(.minutes(1)))
    func withOnePermitEveryFeedIsStoredUnderItsOwnFeedidAndABadOneFailsAlone() throws {
        let harness = try Harness()
        harness.parsingLimit = 1
        let server = try FeedServer()
        server.override("/page.xml", .init(headers: [("Content-Type", "text/html")], body: Array("<!doctype html><p>no feed".utf8)))
        var urls = [server.url("/page.xml")]
        for n in 0..<12 {
            server.set("/\(n).xml", rss("Feed \(n)", items: (0..<30).map { ("f\(n)-\($0)", "Feed \(n) entry \($0)", nil, nil) }))
            urls.append(server.url("/\(n).xml"))
        }
        let ids = try harness.add(urls)
        let report = try harness.update()
        #expect(report.updated == 12)
        #expect(report.failures.map(\.feedID) == [ids[0]])
        for (n, id) in ids.dropFirst().enumerated() {
            let items = try harness.items(id)
            #expect(items.count == 30)
            #expect(items.keys.allSatisfy { $0.hasPrefix("f\(n)-") })
        }
    }
}
