import FeedBasics
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// `/websub/<callback>`, where hubs call (W3C WebSub §5.3, §7):
/// - `GET`: verification of intent. Echoes `hub.challenge` only for a subscription this server
///   asked for, with the topic it asked for, in the state that asked (subscribe while requested
///   or active, unsubscribe while unsubscribing); anything else is 404, so that no one can
///   subscribe or unsubscribe this server in its name. `hub.mode=denied` is recorded.
/// - `POST`: content distribution. Taken only for a subscription whose lease runs, no larger
///   than the cap (413, not read past it), and signed: `X-Hub-Signature: sha256=…` (or sha384,
///   sha512; sha1 is refused) HMAC of the body under the subscription's secret, compared in
///   constant time. Anything else is refused (403) and nothing of it kept. A valid one is
///   answered 202 and handed to ``PushApplier`` (503 with `Retry-After` when 32 already wait).
struct WebSubCallback: Sendable {
    let settings: WebSubSettings
    let store: SubscriptionStore
    let pushes: PushApplier
    let metrics: ServeMetrics
    let logger: Logger
    let clock: @Sendable () -> Int64

    static let prefix = "/websub/"

    func respond(to request: Request, callback: String) async -> Response {
        switch request.method {
        case .get: return verify(request, callback: callback)
        case .post: return await distribution(request, callback: callback)
        default: return PublicationFiles.plain(.methodNotAllowed, "only GET and POST\n", extra: [.allow: "GET, POST"])
        }
    }

    func verify(_ request: Request, callback: String) -> Response {
        let query = request.uri.queryParameters
        let mode = query["hub.mode"].map(String.init) ?? ""
        let topic = query["hub.topic"].map(String.init)
        let challenge = query["hub.challenge"].map(String.init)
        let lease = query["hub.lease_seconds"].flatMap { Int64(String($0)) }
        let now = clock()
        guard let subscription = try? store.subscription(callback: callback), topic == subscription.topic else {
            logger.notice("websub: verification for no subscription of ours refused (\(mode) \(topic ?? "no topic"))")
            return PublicationFiles.plain(.notFound, "no such subscription\n")
        }
        switch mode {
        case "subscribe" where subscription.state == .requested || subscription.state == .active:
            guard let challenge, !challenge.isEmpty else { return PublicationFiles.plain(.badRequest, "hub.challenge missing\n") }
            let granted = max(1, min(lease ?? settings.leaseSeconds, 366 * 86_400))
            let updated = try? store.update(callback: callback) { subscription in
                subscription.state = .active
                subscription.leaseUntil = now.saturatingAdd(granted)
                subscription.lastError = nil
            }
            guard updated != nil else { return PublicationFiles.plain(.notFound, "no such subscription\n") }
            logger.notice("websub: feed \(subscription.feedID): subscription to \(subscription.topic) verified, lease \(granted) s")
            metrics.setSubscriptions((try? store.all()) ?? [])
            return PublicationFiles.plain(.ok, challenge)
        case "unsubscribe" where subscription.state == .unsubscribing:
            guard let challenge, !challenge.isEmpty else { return PublicationFiles.plain(.badRequest, "hub.challenge missing\n") }
            try? store.remove(callback: callback)
            logger.notice("websub: feed \(subscription.feedID): unsubscribed from \(subscription.topic)")
            metrics.setSubscriptions((try? store.all()) ?? [])
            return PublicationFiles.plain(.ok, challenge)
        case "denied" where subscription.state == .requested:
            let reason = query["hub.reason"].map(String.init) ?? "no reason given"
            _ = try? store.update(callback: callback) { subscription in
                subscription.state = .denied
                subscription.lastError = "denied by the hub: \(reason)"
            }
            logger.warning("websub: feed \(subscription.feedID): \(subscription.hub) denied the subscription to \(subscription.topic): \(reason)")
            return PublicationFiles.plain(.ok, "")
        default:
            logger.notice("websub: feed \(subscription.feedID): verification \(mode) refused (subscription \(subscription.state.rawValue))")
            return PublicationFiles.plain(.notFound, "no such request\n")
        }
    }

    func distribution(_ request: Request, callback: String) async -> Response {
        let received = ContinuousClock.now
        guard let subscription = try? store.subscription(callback: callback) else {
            metrics.count(.unknownCallback)
            logger.notice("websub: push to an unknown callback refused")
            return PublicationFiles.plain(.notFound, "no such subscription\n")
        }
        guard subscription.accepts(at: clock()) else {
            metrics.count(.notSubscribed)
            logger.notice("websub: feed \(subscription.feedID): push refused: the subscription is \(subscription.state.rawValue), without a running lease")
            return PublicationFiles.plain(.forbidden, "not subscribed\n")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > settings.pushLimit {
            metrics.count(.oversized)
            logger.notice("websub: feed \(subscription.feedID): push of \(length) bytes refused (cap \(settings.pushLimit))")
            return PublicationFiles.plain(.contentTooLarge, "larger than \(settings.pushLimit) bytes\n")
        }
        let body: [UInt8]
        do {
            var buffer = try await request.body.collect(upTo: settings.pushLimit)
            body = buffer.readBytes(length: buffer.readableBytes) ?? []
        } catch {
            metrics.count(.oversized)
            logger.notice("websub: feed \(subscription.feedID): push refused: larger than \(settings.pushLimit) bytes")
            return PublicationFiles.plain(.contentTooLarge, "larger than \(settings.pushLimit) bytes\n")
        }
        let signature = request.headers[HTTPField.Name("X-Hub-Signature")!]
        switch Self.check(signature: signature, body: body, secret: subscription.secret) {
        case .valid:
            break
        case .missing:
            metrics.count(.unsigned)
            logger.notice("websub: feed \(subscription.feedID): unsigned push refused")
            return PublicationFiles.plain(.forbidden, "X-Hub-Signature missing\n")
        case .refused(let why):
            metrics.count(.forged)
            logger.warning("websub: feed \(subscription.feedID): push refused: \(why)")
            return PublicationFiles.plain(.forbidden, "signature refused\n")
        }
        guard pushes.enqueue(.init(feedID: subscription.feedID, body: body, contentType: request.headers[.contentType], received: received)) else {
            metrics.count(.busy)
            logger.warning("websub: feed \(subscription.feedID): push refused for now: \(pushes.pendingLimit) pushes wait already")
            return PublicationFiles.plain(.serviceUnavailable, "busy, try again\n", extra: [.retryAfter: "30"])
        }
        metrics.count(.accepted)
        _ = try? store.update(callback: callback) { $0.pushes += 1 }
        return PublicationFiles.plain(.accepted, "")
    }

    enum SignatureCheck: Equatable {
        case valid, missing
        case refused(String)
    }

    /// `method=hex`, the HMAC of the body under the secret.
    static func check(signature: String?, body: [UInt8], secret: String) -> SignatureCheck {
        guard let signature, !signature.isEmpty else { return .missing }
        guard let equals = signature.firstIndex(of: "=") else { return .refused("X-Hub-Signature is not method=signature") }
        let method = signature[..<equals].lowercased()
        let hex = signature[signature.index(after: equals)...].lowercased()
        guard method.hasPrefix("sha"), let bits = Int(method.dropFirst(3)), HMAC.widths.contains(bits) else {
            return .refused("X-Hub-Signature method \(method) not accepted (sha256, sha384, sha512)")
        }
        guard let given = Self.bytes(hex: hex), let expected = HMAC.mac(bits: bits, key: Array(secret.utf8), message: body),
            HMAC.equal(given, expected)
        else { return .refused("X-Hub-Signature does not match the body") }
        return .valid
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
