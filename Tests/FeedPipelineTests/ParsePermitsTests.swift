import FeedModel
import FeedPipeline
import FeedStorage
import Foundation
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
