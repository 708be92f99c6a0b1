import FeedmillClient
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The connected readers of `GET /events` and the recent publications' events. Each
/// connection has a bounded buffer (`bufferLimit` events): a reader too slow to keep up gets
/// what its buffer holds, then a `resync`, and is closed; nothing is buffered without limit.
/// The last `historyLimit` publications' events are kept, to replay to a reader that
/// reconnects with `Last-Event-ID`.
final class EventHub: Sendable {
    /// Set when a connection was ended because its buffer was full.
    final class Overflow: Sendable {
        let happened = Atomic<Bool>(false)
    }

    /// When the write a connection is waiting on began (uptime nanoseconds; 0: none): what
    /// ``closeStalled(after:now:)`` looks at, instead of a timer per write (two cross-thread
    /// operations per event, 20,000 for a publication sent to 10,000 readers).
    final class WriteWatch: Sendable {
        let since = Atomic<Int64>(0)
        let close: @Sendable () -> Void

        init(close: @escaping @Sendable () -> Void) { self.close = close }

        /// Uptime in nanoseconds (CLOCK_MONOTONIC), never 0.
        static func now() -> Int64 {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return max(1, Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
        }
    }

    /// What one connection writes: what it is sent first, then the stream until it ends.
    /// `root` and `history` are the hub's when it connected: every later publication is in
    /// the stream, so what is sent first is made from them.
    struct Connection: Sendable {
        let id: UInt64
        let root: RootManifest?
        let history: [Publication]
        let stream: AsyncStream<String>
        let overflow: Overflow
        let watch: WriteWatch
    }

    /// A publication as the hub saw it: the generation of the root before it (the history is
    /// a chain: each one's `from` is the previous one's `generation`), its own, its events.
    typealias Publication = (from: Int, generation: Int, events: [FeedEvent])

    private struct Subscriber {
        var feeds: Set<Int64>?
        var continuation: AsyncStream<String>.Continuation
        var overflow: Overflow
        var watch: WriteWatch
    }

    private struct State {
        var next: UInt64 = 0
        var subscribers: [UInt64: Subscriber] = [:]
        var history: [Publication] = []
        var root: RootManifest?
        var eventsSent = 0
        var overflows = 0
        /// The server is stopping: a connection made now ends at once.
        var closed = false
    }

    private let state = Mutex(State())
    let bufferLimit: Int
    let historyLimit: Int

    init(bufferLimit: Int = 256, historyLimit: Int = 64) {
        self.bufferLimit = max(1, bufferLimit)
        self.historyLimit = max(1, historyLimit)
    }

    var connections: Int { state.withLock { $0.subscribers.count } }
    var eventsSent: Int { state.withLock { $0.eventsSent } }
    var overflows: Int { state.withLock { $0.overflows } }

    /// A connection closed because a write was not taken in time: counted with the overflows
    /// (both are readers too slow to keep).
    func countSlowReaderClosed() { state.withLock { $0.overflows += 1 } }
    var root: RootManifest? { state.withLock { $0.root } }

    /// A new connection following `feeds` (nil: every feed), with the root and history the
    /// hub had at that moment, under its lock, so that no publication falls in between.
    /// `close` ends the connection (its channel) when a write to it stalls.
    func connect(feeds: Set<Int64>?, close: @escaping @Sendable () -> Void = {}) -> Connection {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(bufferLimit))
        let overflow = Overflow()
        let watch = WriteWatch(close: close)
        let (id, root, history, closed) = state.withLock { state -> (UInt64, RootManifest?, [Publication], Bool) in
            state.next += 1
            if !state.closed {
                state.subscribers[state.next] = Subscriber(feeds: feeds, continuation: continuation, overflow: overflow, watch: watch)
            }
            return (state.next, state.root, state.history, state.closed)
        }
        if closed { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.disconnect(id) }
        return Connection(id: id, root: root, history: history, stream: stream, overflow: overflow, watch: watch)
    }

    /// Closes every connection whose current write began more than `limit` nanoseconds before
    /// `now` (a reader that stopped reading: its buffers and the kernel's are full); how many.
    @discardableResult
    func closeStalled(after limit: Int64, now: Int64 = WriteWatch.now()) -> Int {
        let stalled = state.withLock { state in
            state.subscribers.values.filter { subscriber in
                let since = subscriber.watch.since.load(ordering: .relaxed)
                return since != 0 && now - since > limit
            }.map(\.watch)
        }
        for watch in stalled {
            // Counted once, however many sweeps see it before its task ends.
            guard watch.since.exchange(0, ordering: .relaxed) != 0 else { continue }
            countSlowReaderClosed()
            watch.close()
        }
        return stalled.count
    }

    func disconnect(_ id: UInt64) {
        let gone = state.withLock { $0.subscribers.removeValue(forKey: id) }
        gone?.continuation.finish()
    }

    /// The root a publication committed, without events (the one found at start).
    func start(at root: RootManifest) {
        state.withLock { $0.root = root }
    }

    /// A publication's events, to every connection following their feeds.
    func publish(_ root: RootManifest, events: [FeedEvent]) {
        let ended = state.withLock { state -> [Subscriber] in
            state.history.append((state.root?.generation ?? 0, root.generation, events))
            if state.history.count > historyLimit { state.history.removeFirst(state.history.count - historyLimit) }
            state.root = root
            var ended: [Subscriber] = []
            for (id, subscriber) in state.subscribers {
                let mine = events.filter { subscriber.feeds?.contains($0.feedID) ?? true }
                guard !mine.isEmpty else { continue }
                state.eventsSent += mine.count
                if !Self.deliver(mine.map(\.wire), to: subscriber) {
                    state.overflows += 1
                    state.subscribers[id] = nil
                    ended.append(subscriber)
                }
            }
            return ended
        }
        // Outside the lock: ending a stream calls its termination handler, which takes it.
        for subscriber in ended { subscriber.continuation.finish() }
    }

    /// A comment to every connection, for proxies that close idle ones.
    func heartbeat() {
        let ended = state.withLock { state -> [Subscriber] in
            var ended: [Subscriber] = []
            for (id, subscriber) in state.subscribers where !Self.deliver([": heartbeat\n\n"], to: subscriber) {
                state.overflows += 1
                state.subscribers[id] = nil
                ended.append(subscriber)
            }
            return ended
        }
        for subscriber in ended { subscriber.continuation.finish() }
    }

    /// Every connection ended: the server is stopping.
    func closeAll() {
        let all = state.withLock { state -> [Subscriber] in
            state.closed = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in all { subscriber.continuation.finish() }
    }

    /// Queues `texts`; false when the connection is gone, or its buffer is full (then it is
    /// marked: the caller ends it, and what it holds is written, then a `resync`).
    private static func deliver(_ texts: [String], to subscriber: Subscriber) -> Bool {
        for text in texts {
            switch subscriber.continuation.yield(text) {
            case .enqueued: continue
            case .dropped:
                subscriber.overflow.happened.store(true, ordering: .releasing)
                return false
            case .terminated: return false
            @unknown default: return false
            }
        }
        return true
    }
}
