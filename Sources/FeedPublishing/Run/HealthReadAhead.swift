import Dispatch
import FeedStorage
import Foundation

/// Every catalogued feed's health for `index.html`, read on a connection of its own while the
/// publication does the rest (issue 51): at a million feeds the reading was 40% of a
/// publication of one changed feed, and nothing else in it needs that connection or waits for
/// it. It starts with the run; a run that finds it needs no reading (nothing in the change log,
/// or every feed's record read anyway) cancels it, which interrupts SQLite's statement (a run
/// that needs it after all reads it then). Whether used or not, it is waited for before the
/// run returns: no reading outlives its publication.
final class HealthReadAhead: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    // Under `lock`: the connection to interrupt, and whether the reading is no longer wanted.
    private var reading: Catalog?
    private var cancelled = false
    // Written once by the reading, before `done` is signalled; read only after waiting for it.
    private var result: Result<FeedHealthSummary, StorageError>?
    private var waited = false

    /// Starts reading the catalog at `path` (opened for reading, as the publisher opens it),
    /// keeping `listing` ok feeds (``FeedHealthSummary``).
    init(catalogAt path: String, listing: Int = FeedHealthSummary.everyFeed) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            defer { done.signal() }
            do throws(StorageError) {
                let catalog = try Catalog(readingAt: path)
                guard lock.withLock({ () -> Bool in
                    reading = catalog
                    return !cancelled
                }) else { return }
                result = .success(try catalog.healthSummary(listing: listing))
            } catch {
                result = .failure(error)
            }
            lock.withLock { reading = nil }
        }
    }

    /// The summary, once read; nil when the reading was cancelled or failed.
    func summaryIfRead() -> FeedHealthSummary? {
        wait()
        if case .success(let summary)? = result { return summary }
        return nil
    }

    /// Stops the reading (its statement interrupted): the run will not use it.
    func cancel() {
        lock.withLock {
            cancelled = true
            reading?.interrupt()
        }
    }

    /// Waits for the reading to end (once; later calls return at once).
    func wait() {
        guard !waited else { return }
        done.wait()
        waited = true
    }
}
