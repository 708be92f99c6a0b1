import Foundation

/// The transfer slots of a ``FetchScheduler`` run, each with its own ``HTTPFetcher`` (one curl
/// handle, so one pool of open connections): a worker takes a slot for a transfer and gives it
/// back when the transfer ends, while it carries on with the feed.
///
/// Why the connections belong to the slots and not to the workers: there are more workers
/// than slots, and a host's next feed is often taken by another worker than its last one.
/// With a handle per worker, that worker opened a new connection (and, over TLS, a new
/// handshake); here it takes the free slot that last talked to the host. libcurl cannot share
/// one connection pool between threads safely, but a handle may move between threads as long
/// as one thread uses it at a time, which the slots ensure.
///
/// `@unchecked Sendable`: `free` is read and written only while `condition` is locked, and a
/// slot's fetcher is used only by the worker holding the slot.
final class TransferSlots: @unchecked Sendable {
    final class Slot {
        let fetcher: HTTPFetcher
        /// The host of the slot's last transfer, whose connection it may still hold open.
        var lastHost: String?

        init(fetcher: HTTPFetcher) {
            self.fetcher = fetcher
        }
    }

    private let condition = NSCondition()
    /// Free slots, the most recently freed last.
    private var free: [Slot]

    init(count: Int, configuration: FetchConfiguration) {
        free = (0..<count).map { _ in Slot(fetcher: HTTPFetcher(configuration: configuration)) }
    }

    /// The most recently freed slot (its connection is the likeliest to be open still),
    /// waiting until one is free.
    func take() -> Slot {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty { condition.wait() }
        return free.removeLast()
    }

    /// `slot`, or a free slot whose last transfer was to `host` (`slot` is freed instead).
    func exchange(_ slot: Slot, for host: String) -> Slot {
        guard slot.lastHost != host else { return slot }
        condition.lock()
        defer { condition.unlock() }
        guard let index = free.lastIndex(where: { $0.lastHost == host }) else { return slot }
        let better = free.remove(at: index)
        free.append(slot)
        return better
    }

    func giveBack(_ slot: Slot) {
        condition.lock()
        free.append(slot)
        condition.signal()
        condition.unlock()
    }
}
