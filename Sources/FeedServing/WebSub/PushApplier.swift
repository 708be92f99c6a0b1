import FeedBasics
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import Logging
import Synchronization

/// Stores and publishes what hubs push, one push at a time on a thread of its own (the
/// pipeline and the publisher are blocking): the data directory's lock is taken as `rss-update`
/// takes it (waiting while a run holds it: never two writers of one file), the body goes
/// through ``UpdateRun/applyPush(_:body:contentType:)``, the lock is let go, and the feed is
/// published alone into `--out` (the publisher's own lock, waited for the same way). The
/// watcher then sees the new root like any other, and readers get the feed's event.
final class PushApplier: Sendable {
    struct Push: Sendable {
        var feedID: Int64
        var body: [UInt8]
        var contentType: String?
        var received: ContinuousClock.Instant
    }

    let settings: WebSubSettings
    let metrics: ServeMetrics
    let logger: Logger
    private let queue = DispatchQueue(label: "rss-serve.websub.push")
    /// Pushes handed over and not yet applied. Past ``pendingLimit`` a push is refused (503,
    /// which a hub retries later), so that a flood of valid pushes is never held without limit
    /// (at most the limit times the size cap).
    private let pending = Atomic<Int>(0)
    let pendingLimit: Int

    init(settings: WebSubSettings, metrics: ServeMetrics, logger: Logger, pendingLimit: Int = 32) {
        self.settings = settings
        self.pendingLimit = pendingLimit
        self.metrics = metrics
        self.logger = logger
    }

    /// Hands a push over; false when ``pendingLimit`` are already waiting.
    func enqueue(_ push: Push) -> Bool {
        let (_, taken) = pending.add(1, ordering: .relaxed)
        guard taken <= pendingLimit else {
            pending.subtract(1, ordering: .relaxed)
            return false
        }
        queue.async {
            self.apply(push)
            self.pending.subtract(1, ordering: .relaxed)
        }
        return true
    }

    /// A graceful stop: waits up to `limit` for the pushes already answered 202 to be stored
    /// and published; the number left (logged: their feeds' next polls bring the same items).
    func finish(within limit: Duration) async -> Int {
        let deadline = ContinuousClock.now + limit
        while pending.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let left = pending.load(ordering: .relaxed)
        if left > 0 { logger.warning("websub: stopping with \(left) push(es) taken and not stored; their feeds' next polls bring the same items") }
        return left
    }

    /// Waits for every push handed over so far (tests).
    func drain() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    private func apply(_ push: Push) {
        let deadline = ContinuousClock.now + settings.lockWait
        guard let report = store(push, deadline: deadline) else { return }
        switch report.outcome {
        case .updated(let summary) where summary.changed:
            metrics.count(.stored)
            logger.info("websub: feed \(push.feedID): push stored: \(summary.inserted) new, \(summary.updated) updated item(s)")
        case .updated, .unchanged:
            metrics.count(.unchanged)
            logger.info("websub: feed \(push.feedID): push stored, nothing changed")
            return
        case .failed(let kind, let message):
            metrics.count(.failed)
            logger.warning("websub: feed \(push.feedID): push not stored (\(kind.rawValue)): \(message)")
            return
        default:
            metrics.count(.failed)
            logger.warning("websub: feed \(push.feedID): push not stored: \(report.outcome)")
            return
        }
        metrics.awaitEvent(feedID: push.feedID, receivedAt: push.received)
        publish(push.feedID, deadline: deadline)
    }

    /// Under the data directory's lock, released before returning.
    private func store(_ push: Push, deadline: ContinuousClock.Instant) -> FeedReport? {
        while true {
            do throws(PipelineError) {
                let (catalog, lock) = try CatalogAccess.openForUpdate(settings.pipeline)
                defer { withExtendedLifetime(lock) {} }
                return UpdateRun(configuration: settings.pipeline, catalog: catalog).applyPush(
                    push.feedID, body: push.body, contentType: push.contentType)
            } catch {
                if case .dataDirectory(.busy) = error, ContinuousClock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.2)
                    continue
                }
                metrics.count(.failed)
                logger.warning("websub: feed \(push.feedID): push not stored: \(error.description)")
                return nil
            }
        }
    }

    private func publish(_ feedID: Int64, deadline: ContinuousClock.Instant) {
        let data = settings.pipeline.data
        while true {
            do throws(PublishError) {
                let catalog = try PublishRun.openCatalog(data)
                let report = try PublishRun(data: data, configuration: settings.publish, catalog: catalog, target: settings.target).run(only: [feedID])
                for failure in report.failures { logger.warning("websub: feed \(failure.feedID) not published: \(failure.message)") }
                return
            } catch {
                if case .busy = error, ContinuousClock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.2)
                    continue
                }
                logger.warning("websub: feed \(feedID): stored, not published (the next rss-publish will): \(error.description)")
                return
            }
        }
    }
}
