import FeedModel
import Synchronization

/// Token buckets by key (a user, an address): `burst` requests at once, then one per
/// `interval`. Bounded: past `maxKeys` keys, the full buckets are forgotten (a full bucket is
/// what a new key gets anyway), then, if still too many, all.
final class RateLimiter: Sendable {
    let burst: Double
    let interval: Duration
    let maxKeys: Int
    private let buckets = Mutex<[String: (tokens: Double, at: ContinuousClock.Instant)]>([:])

    init(burst: Int, interval: Duration, maxKeys: Int = 100_000) {
        self.burst = Double(max(1, burst))
        self.interval = interval
        self.maxKeys = maxKeys
    }

    /// Takes a token for `key`: nil when there was one, else how long until the next.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Duration? {
        let perToken = interval.inSeconds
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? (burst, now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.at).inSeconds / perToken)
            bucket.at = now
            defer {
                if buckets.count >= maxKeys, buckets[key] == nil {
                    buckets = buckets.filter { $0.value.tokens < burst }
                    if buckets.count >= maxKeys { buckets.removeAll() }
                }
                buckets[key] = bucket
            }
            guard bucket.tokens >= 1 else { return .milliseconds(Int64(((1 - bucket.tokens) * perToken * 1_000).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }
}
