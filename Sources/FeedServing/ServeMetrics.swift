import FeedModel
import Foundation
import Synchronization

/// What `GET /metrics` says, in Prometheus' text format (version 0.0.4): connections, events
/// sent, resyncs and slow readers closed (from the ``EventHub``), how long after a root's
/// commit its events were handed to the connections, how long after a WebSub push was received
/// its feed's event was, pushes by what became of them, and subscriptions by state.
final class ServeMetrics: Sendable {
    /// Seconds: from a tenth of a second to a minute.
    static let bounds: [Double] = [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30, 60]

    struct Histogram {
        var counts = [Int](repeating: 0, count: ServeMetrics.bounds.count)
        var count = 0
        var sum = 0.0

        mutating func observe(_ seconds: Double) {
            for (index, bound) in ServeMetrics.bounds.enumerated() where seconds <= bound { counts[index] += 1 }
            count += 1
            sum += seconds
        }
    }

    /// What became of a content distribution.
    enum PushResult: String, CaseIterable {
        case accepted, stored, unchanged, failed, busy
        case unknownCallback = "unknown_callback", notSubscribed = "not_subscribed", oversized, unsigned, forged
    }

    private struct State {
        var publication = Histogram()
        var push = Histogram()
        var pushes: [PushResult: Int] = [:]
        var subscriptions: [Subscription.State: Int] = [:]
        var resyncs = 0
        /// Feeds whose push is stored, not yet in an event: when each push was received.
        var pending: [Int64: ContinuousClock.Instant] = [:]
    }

    private let state = Mutex(State())

    func observePublication(_ seconds: Double) { state.withLock { $0.publication.observe(max(0, seconds)) } }

    func count(_ result: PushResult) { state.withLock { $0.pushes[result, default: 0] += 1 } }

    func countResyncs(_ count: Int) { state.withLock { $0.resyncs += count } }

    /// A push for `feedID` received at `instant` was stored; its event is awaited.
    func awaitEvent(feedID: Int64, receivedAt instant: ContinuousClock.Instant) {
        state.withLock { state in if state.pending[feedID] == nil { state.pending[feedID] = instant } }
    }

    /// Events for these feeds were handed to the connections: the pushes awaiting them are timed.
    func eventsSent(feeds: [Int64]) {
        let now = ContinuousClock.now
        state.withLock { state in
            for feedID in feeds {
                guard let received = state.pending.removeValue(forKey: feedID) else { continue }
                state.push.observe((now - received).inSeconds)
            }
        }
    }

    func setSubscriptions(_ all: [Subscription]) {
        var counts: [Subscription.State: Int] = [:]
        for subscription in all { counts[subscription.state, default: 0] += 1 }
        state.withLock { $0.subscriptions = counts }
    }

    /// The exposition, with the hub's own counters.
    func text(hub: EventHub) -> String {
        let snapshot = state.withLock { $0 }
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for sample in samples { lines.append("\(name)\(sample.labels) \(sample.value)") }
        }
        func histogram(_ name: String, _ help: String, _ histogram: Histogram) {
            var samples = zip(Self.bounds, histogram.counts).map { (labels: "_bucket{le=\"\(Self.format($0))\"}", value: String($1)) }
            samples.append(("_bucket{le=\"+Inf\"}", String(histogram.count)))
            samples.append(("_sum", Self.format(histogram.sum)))
            samples.append(("_count", String(histogram.count)))
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) histogram")
            for sample in samples { lines.append("\(name)\(sample.labels) \(sample.value)") }
        }
        metric("feedmill_serve_connections", "gauge", "Event streams open now.", [("", String(hub.connections))])
        metric("feedmill_serve_events_sent_total", "counter", "Events handed to connections (entries on connect excluded).", [("", String(hub.eventsSent))])
        metric("feedmill_serve_resyncs_total", "counter", "Resync events sent after publications (commits missed or deltas unusable).", [("", String(snapshot.resyncs))])
        metric(
            "feedmill_serve_slow_readers_closed_total", "counter", "Connections closed for not keeping up: their buffer filled (a resync queued) or a write was not taken within the send timeout.",
            [("", String(hub.overflows))])
        metric("feedmill_serve_generation", "gauge", "The generation of the publication served.", [("", String(hub.root?.generation ?? 0))])
        histogram(
            "feedmill_serve_publication_to_event_seconds", "From a root's commit (manifest.json's mtime) to its events handed to connections.",
            snapshot.publication)
        histogram("feedmill_serve_push_to_event_seconds", "From a WebSub push received to its feed's event handed to connections.", snapshot.push)
        metric(
            "feedmill_serve_websub_pushes_total", "counter", "WebSub content distributions, by what became of them.",
            PushResult.allCases.map { ("{result=\"\($0.rawValue)\"}", String(snapshot.pushes[$0] ?? 0)) })
        metric(
            "feedmill_serve_websub_subscriptions", "gauge", "WebSub subscriptions, by state.",
            Subscription.State.allCases.map { ("{state=\"\($0.rawValue)\"}", String(snapshot.subscriptions[$0] ?? 0)) })
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
