import Dispatch

/// How many fetched feeds a run parses, normalises and writes at once, across its workers.
///
/// A run has more workers than cores (``FetchScheduler``: one per transfer slot and a quarter
/// more), and each worker parses the feed it fetched once its transfer slot is free. Without
/// a limit, once parsing fell behind the transfers every worker parsed at once: on 2 cores,
/// 40 feeds' parsers, decoders and database page caches in memory, with no more done per
/// second. Past the limit, a feed waits with its body for a permit. Over 5,000 benchmark feeds
/// at concurrency 32 (2 cores) the heap's peak is 25–27 MiB where it was 31–36, and the cold
/// run at 100 ms was faster in 7 of 10 interleaved pairs (`Scripts/bench/results/README.md`).
///
/// A body too large to be held is parsed while it arrives, inside its transfer, without a
/// permit: waiting there would hold the transfer slot.
public struct ParsePermits: Sendable {
    private let semaphore: DispatchSemaphore

    public init(limit: Int) {
        semaphore = DispatchSemaphore(value: max(1, limit))
    }

    /// Runs `work` once a permit is free, and frees it after.
    public func withPermit<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        semaphore.wait()
        defer { semaphore.signal() }
        return try work()
    }
}
