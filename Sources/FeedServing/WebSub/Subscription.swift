import FeedBasics

/// One WebSub subscription of `rss-serve` (W3C WebSub §5): the feed it is for, the hub and the
/// topic the feed advertised, the callback path the hub calls (`/websub/<callback>`, random, so
/// that a callback names exactly one subscription and cannot be guessed) and the secret the
/// hub signs distributions with.
public struct Subscription: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        /// Asked of the hub, its verification of intent not seen yet.
        case requested
        /// Verified: distributions are accepted until ``Subscription/leaseUntil``.
        case active
        /// The hub refused it (`hub.mode=denied`); asked again a day later.
        case denied
        /// The feed no longer advertises the hub (or is gone): an unsubscription was asked.
        case unsubscribing
    }

    public var feedID: Int64
    public var hub: String
    public var topic: String
    public var callback: String
    public var secret: String
    public var state: State
    /// When the hub's lease ends (unix seconds); `nil` before any verification.
    public var leaseUntil: Int64?
    /// When the last (un)subscription request was sent.
    public var requestedAt: Int64
    public var lastError: String?
    /// Distributions accepted.
    public var pushes: Int64 = 0

    /// Whether a distribution signed with this subscription's secret is taken: once verified,
    /// and while a lease runs (a renewal asked but not yet verified keeps the lease it has).
    public func accepts(at now: Int64) -> Bool {
        switch state {
        case .active, .requested: return (leaseUntil ?? 0) > now
        case .denied, .unsubscribing: return false
        }
    }

    /// 32 random bytes in hex: callbacks and secrets (`SystemRandomNumberGenerator` reads the
    /// kernel's `getrandom`).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return SHA256.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
