import Foundation
import Logging

/// Keeps `rss-serve`'s subscriptions in line with what the catalog says feeds advertise: a
/// feed with a hub and a topic is subscribed to (a new secret and callback each), re-asked
/// when a request went unverified or a lease nears its end, and unsubscribed from when it no
/// longer advertises them or is gone. Every change of state is written to the store before
/// the hub is asked, since a hub may verify before it even answers the request.
struct WebSubSubscriber: Sendable {
    let settings: WebSubSettings
    let store: SubscriptionStore
    let logger: Logger
    let metrics: ServeMetrics

    var hubs: HubClient { HubClient(configuration: settings.pipeline.fetch) }

    /// One look: what is due is asked, one request at a time (hubs are few; each waits at most the fetch timeout).
    func reconcile(now: Int64) {
        let advertised: [AdvertisedHubs.Feed]
        let existing: [Subscription]
        do {
            advertised = try AdvertisedHubs.read(catalogPath: settings.pipeline.catalogPath)
            existing = try store.all()
        } catch {
            logger.warning("websub: cannot read the subscriptions or the catalog: \(error)")
            return
        }
        var byFeed: [Int64: Subscription] = [:]
        for subscription in existing { byFeed[subscription.feedID] = subscription }
        for feed in advertised {
            let current = byFeed.removeValue(forKey: feed.feedID)
            guard let next = due(feed, current, now: now) else { continue }
            subscribe(next, now: now)
        }
        // What no feed advertises any more.
        for (_, subscription) in byFeed.sorted(by: { $0.key < $1.key }) {
            if subscription.state == .unsubscribing {
                if now - subscription.requestedAt > settings.verificationWait { try? store.remove(callback: subscription.callback) }
                continue
            }
            unsubscribe(subscription, now: now)
        }
        metrics.setSubscriptions((try? store.all()) ?? [])
    }

    /// The subscription to ask for, if one is due for this feed.
    func due(_ feed: AdvertisedHubs.Feed, _ current: Subscription?, now: Int64) -> Subscription? {
        let fresh = Subscription(
            feedID: feed.feedID, hub: feed.hub, topic: feed.topic, callback: Subscription.randomToken(),
            secret: Subscription.randomToken(), state: .requested, leaseUntil: nil, requestedAt: now)
        guard var subscription = current else { return fresh }
        guard subscription.hub == feed.hub, subscription.topic == feed.topic else {
            // Another hub or topic: the old subscription is ended first (its row kept until the
            // old hub verifies, or a while), then the new one asked.
            if subscription.state != .unsubscribing {
                unsubscribe(subscription, now: now)
                return nil
            }
            guard now - subscription.requestedAt > settings.verificationWait else { return nil }
            try? store.remove(callback: subscription.callback)
            return fresh
        }
        switch subscription.state {
        case .active:
            let left = (subscription.leaseUntil ?? 0) - now
            guard left < settings.renewMargin(lease: settings.leaseSeconds) else { return nil }
        case .requested:
            guard now - subscription.requestedAt > settings.verificationWait else { return nil }
        case .denied:
            guard now - subscription.requestedAt > settings.deniedWait else { return nil }
        case .unsubscribing:
            break
        }
        // The same callback and secret: a hub that still pushes under the old lease is still understood.
        subscription.state = subscription.state == .active ? .active : .requested
        subscription.requestedAt = now
        return subscription
    }

    func subscribe(_ subscription: Subscription, now: Int64) {
        var asked = subscription
        if asked.state != .active { asked.state = .requested }
        asked.requestedAt = now
        do { try store.save(asked) } catch {
            logger.warning("websub: feed \(asked.feedID): cannot record the subscription: \(error)")
            return
        }
        let failure = hubs.request(
            mode: "subscribe", hub: asked.hub, topic: asked.topic, callback: settings.callbackURL(asked.callback),
            secret: asked.secret, lease: settings.leaseSeconds)
        _ = try? store.update(callback: asked.callback) { $0.lastError = failure }
        if let failure {
            logger.warning("websub: feed \(asked.feedID): \(asked.hub) refused the subscription to \(asked.topic): \(failure)")
        } else {
            logger.info("websub: feed \(asked.feedID): subscription to \(asked.topic) asked of \(asked.hub)")
        }
    }

    func unsubscribe(_ subscription: Subscription, now: Int64) {
        let marked = try? store.update(callback: subscription.callback) {
            $0.state = .unsubscribing
            $0.requestedAt = now
        }
        guard marked != nil else { return }
        let failure = hubs.request(
            mode: "unsubscribe", hub: subscription.hub, topic: subscription.topic,
            callback: settings.callbackURL(subscription.callback), secret: nil, lease: nil)
        logger.notice("websub: feed \(subscription.feedID): unsubscribing from \(subscription.topic)\(failure.map { ": \($0)" } ?? "")")
    }
}
