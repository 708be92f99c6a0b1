import Dispatch
import Foundation

/// How many fetched feeds a run parses, normalises and writes at once, across its workers,
/// and the threads that do it.
///
/// A run has more workers than cores (``FetchScheduler``: one per transfer slot and a quarter
/// more), and each worker parses the feed it fetched once its transfer slot is free. Without
/// a limit, once parsing fell behind the transfers every worker parsed at once: on 2 cores,
/// 40 feeds' parsers, decoders and database page caches in memory, with no more done per
/// second. Past the limit, a feed waits with its body for a permit: the heap's peak is lower
/// and the cold run no slower (docs/perf-notes/README.md).
///
/// The work runs on one of `limit` threads of its own (``ParseLanes``) while the worker that
/// asked waits, so only those threads' malloc caches fill with what parsing, normalising and
/// storing free (glibc keeps up to 7 freed chunks of each small size per thread). Run on the
/// workers themselves, it filled every worker's cache: at concurrency 256, 320 of them
/// (docs/perf-notes/parse-lanes.md).
///
/// A body too large to be held is parsed while it arrives, inside its transfer, without a
/// permit: waiting there would hold the transfer slot.
public final class ParsePermits: Sendable {
    private let lanes: ParseLanes

    public init(limit: Int) {
        lanes = ParseLanes(count: max(1, limit))
    }

    /// The threads end once the jobs queued before are done.
    deinit { lanes.close() }

    /// Runs `work` on a parse thread once one is free, and returns when it is done: the caller
    /// waits meanwhile, so `work` may use what the caller holds. What is per thread (libxml2's
    /// error handlers, `errno`) is the parse thread's: set it inside `work`.
    public func withPermit<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        var outcome: Result<T, E>?
        withoutActuallyEscaping(work) { work in
            lanes.run(ParseLanes.Job { outcome = Result { () throws(E) -> T in try work() } })
        }
        // `run` returns only once the job has run, so `outcome` is set.
        guard let outcome else { preconditionFailure("a parse job returned without running") }
        return try outcome.get()
    }
}

/// A fixed set of threads taking jobs from one queue, first come first served.
///
/// `@unchecked Sendable`: `queue` and `closing` are touched only while `condition` is locked.
final class ParseLanes: @unchecked Sendable {
    /// One caller's work, and the signal that it is done.
    ///
    /// `@unchecked Sendable`: the caller blocks in ``ParseLanes/run(_:)`` from handing the
    /// job over until `done` is signalled, so the closure and what it captures are used by
    /// one thread at a time, with the semaphore ordering the two.
    final class Job: @unchecked Sendable {
        fileprivate var body: (() -> Void)?
        fileprivate let done = DispatchSemaphore(value: 0)

        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var closing = false

    /// The threads hold `self` until ``close()``.
    init(count: Int) {
        for lane in 0..<count {
            let thread = Thread { [self] in work() }
            thread.name = "feedmill.parse-\(lane)"
            thread.start()
        }
    }

    /// Hands `job` to a lane and waits until it has run.
    func run(_ job: Job) {
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
        job.done.wait()
    }

    /// Lets the threads end once the queue is empty.
    func close() {
        condition.lock()
        closing = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while let job = next() {
            job.body?()
            // Let go of the closure before the caller resumes: `withoutActuallyEscaping`
            // checks that nothing else holds it.
            job.body = nil
            job.done.signal()
        }
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty {
            if closing { return nil }
            condition.wait()
        }
        return queue.removeFirst()
    }
}
