import Dispatch
import FeedBasics
import Foundation
import Synchronization

/// Fetches many feeds at once: at most `concurrency` transfers in flight, at most
/// `perHostLimit` to any one host, so a batch never bursts one site.
///
/// Each worker is a serial Dispatch queue. Serial queues, because libdispatch on Linux
/// overcommits threads for them but not for a concurrent queue, which ran only ~5 blocking
/// transfers at a time on 2 cores.
///
/// There are more workers than transfer slots (``extraWorkers(_:)``). A worker holds a slot,
/// and the slot's ``HTTPFetcher`` (one curl handle, see ``TransferSlots``), from taking a feed
/// until its transfer ends, then gives it back while its job carries on (committing the feed,
/// recording it in the catalog), so the next transfer starts at once. When each worker's job
/// held its slot to the end, a cold run over 1,000 feeds at 100 ms and concurrency 32 kept
/// only ~28 of the 32 slots busy.
///
/// A free worker takes the next feed of the host with the most feeds left that is under its
/// limit (that host is the critical path of the batch), and among equals the host its slot
/// last fetched from, so that host's connection is reused. Always preferring the last host
/// measured 19% slower: workers settled on some hosts and left others for a slow tail.
public struct FetchScheduler: Sendable {
    public var configuration: FetchConfiguration
    /// Transfers in flight at most.
    public var concurrency: Int
    /// Transfers in flight to one host at most.
    public var perHostLimit: Int
    /// No feed starts after this instant (`--deadline`); feeds in flight finish.
    public var deadline: ContinuousClock.Instant?

    /// The defaults of `--concurrency` and `--per-host`, declared here once.
    public static let defaultConcurrency = 16
    public static let defaultPerHostLimit = 2

    public init(
        configuration: FetchConfiguration = .default, concurrency: Int = defaultConcurrency, perHostLimit: Int = defaultPerHostLimit
    ) {
        self.configuration = configuration
        self.concurrency = max(1, concurrency)
        self.perHostLimit = max(1, perHostLimit)
    }

    /// One transfer on the worker's slot: the request, and the consumer that reads its body as
    /// it arrives (``BodyConsumer``). The host's slot and the transfer slot are free again as
    /// soon as it returns.
    public typealias Fetch = (_ request: FetchRequest, _ consumer: BodyConsumer?) -> Result<FetchOutcome, FetchError>

    /// Runs `job` once per entry of `hosts` that starts, on a worker, concurrently; `job`
    /// builds its request when it starts, calls `fetch` once, and carries on with the result
    /// after the transfer slot is free. `hosts` holds each job's ``hostKey(_:)``, which the
    /// per-host limit needs up front: a batch over many thousands of feeds holds a host per
    /// feed, not every feed's request. Returns the indices of the jobs never started because
    /// the deadline passed or the configuration's ``StopSignal`` was raised.
    @discardableResult
    public func fetchEach(hosts: [String], _ job: @escaping @Sendable (_ index: Int, _ fetch: Fetch) -> Void) -> [Int] {
        guard !hosts.isEmpty else { return [] }
        let stop = configuration.stop, deadline = deadline
        let board = JobBoard(hosts: hosts, perHostLimit: perHostLimit) {
            if stop?.isRaised == true { return false }
            if let deadline, ContinuousClock.now >= deadline { return false }
            return true
        }
        let group = DispatchGroup()
        let slots = TransferSlots(count: concurrency, configuration: configuration)
        for worker in 0..<min(concurrency + Self.extraWorkers(concurrency), hosts.count) {
            let queue = DispatchQueue(label: "feedmill.fetch.worker-\(worker)")
            queue.async(group: group) {
                // A transfer slot is taken before the feed, so the deadline is checked when a
                // transfer can really start, and given back as soon as the transfer ends.
                while true {
                    let taken = slots.take()
                    guard let next = board.next(preferring: taken.lastHost) else {
                        slots.giveBack(taken)
                        break
                    }
                    let slot = slots.exchange(taken, for: next.host)
                    var slotFreed = false
                    let freeSlot = {
                        guard !slotFreed else { return }
                        slotFreed = true
                        slot.lastHost = next.host
                        board.finished(next.host)
                        slots.giveBack(slot)
                    }
                    job(next.index) { request, consumer in
                        defer { freeSlot() }
                        do throws(FetchError) {
                            return .success(try slot.fetcher.fetch(request, consumer: consumer))
                        } catch {
                            return .failure(error)
                        }
                    }
                    freeSlot()
                }
            }
        }
        group.wait()
        return board.unstarted()
    }

    /// Workers beyond the transfer slots, finishing feeds whose transfers have ended: a
    /// quarter of `concurrency`, at least one. Each holds at most one feed's open transaction.
    static func extraWorkers(_ concurrency: Int) -> Int { max(1, concurrency / 4) }

    /// The host a URL's connection goes to, lowercased; the whole URL when it has none.
    public static func hostKey(_ url: String) -> String {
        URLHost.of(url) ?? url
    }

    /// Fetches every request, and gives the results in request order (those never started
    /// as failures).
    func fetchAll(_ requests: [FetchRequest]) -> [Result<FetchOutcome, FetchError>] {
        let results = ResultSlots(count: requests.count)
        fetchEach(hosts: requests.map { Self.hostKey($0.url) }) { index, fetch in
            results.set(index, fetch(requests[index], nil))
        }
        return results.values
    }
}

/// Which feeds are left, per host, and how many transfers each host has in flight.
///
/// `@unchecked Sendable`: every property is read and written only while `condition` is locked.
final class JobBoard: @unchecked Sendable {
    private let condition = NSCondition()
    private let perHostLimit: Int
    private var pending: [String: [Int]] = [:]
    private var hostOrder: [String] = []
    private var active: [String: Int] = [:]
    private var remaining: Int
    private let mayStart: @Sendable () -> Bool

    init(hosts: [String], perHostLimit: Int, mayStart: @escaping @Sendable () -> Bool = { true }) {
        self.perHostLimit = perHostLimit
        self.mayStart = mayStart
        remaining = hosts.count
        for (index, host) in hosts.enumerated() {
            if pending[host] == nil { hostOrder.append(host) }
            pending[host, default: []].append(index)
        }
        // Take each host's jobs from the front.
        for host in hostOrder { pending[host]?.reverse() }
    }

    /// The next job a worker may start, waiting while every host with work left is at its
    /// limit; `nil` when nothing is left to start.
    func next(preferring preferred: String?) -> (index: Int, host: String)? {
        condition.lock()
        defer { condition.unlock() }
        while remaining > 0 {
            guard mayStart() else { return nil }
            if let host = bestAvailableHost(preferring: preferred), let index = pending[host]?.popLast()
            {
                active[host, default: 0] += 1
                remaining -= 1
                return (index, host)
            }
            condition.wait()
        }
        return nil
    }

    /// Jobs no worker took, in request order.
    func unstarted() -> [Int] {
        condition.lock()
        defer { condition.unlock() }
        return pending.values.flatMap { $0 }.sorted()
    }

    func finished(_ host: String) {
        condition.lock()
        active[host, default: 1] -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func available(_ host: String) -> Bool {
        !(pending[host]?.isEmpty ?? true) && active[host, default: 0] < perHostLimit
    }

    /// Most feeds left first; then the preferred (last) host; then fewest in flight.
    private func bestAvailableHost(preferring preferred: String?) -> String? {
        var best: (host: String, key: (Int, Int, Int))?
        for host in hostOrder where available(host) {
            let key = (pending[host]?.count ?? 0, host == preferred ? 1 : 0, -active[host, default: 0])
            if let current = best, !(key > current.key) { continue }
            best = (host, key)
        }
        return best?.host
    }
}

/// Results written by many workers.
private final class ResultSlots: Sendable {
    private let slots: Mutex<[Result<FetchOutcome, FetchError>?]>

    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    func set(_ index: Int, _ result: Result<FetchOutcome, FetchError>) {
        slots.withLock { $0[index] = result }
    }

    var values: [Result<FetchOutcome, FetchError>] {
        slots.withLock { slots in
            slots.map { $0 ?? .failure(FetchError(kind: .network, url: "", message: "not fetched")) }
        }
    }
}
