import FeedBasics
import FeedModel

/// How long a failing feed waits before its next attempt: `base × 2^(failures − 1)`, capped,
/// times a jitter in [0.8, 1.2) so that feeds that failed together do not retry together.
/// The jitter comes from a hash of the feed id and failure count, not a random generator,
/// so the same run gives the same schedule (reproducible CI). A feed is never dropped: at
/// the cap it is still retried once per cap.
public enum Backoff {
    public static func delay(feedID: Int64, consecutiveFailures: Int, base: Int, cap: Int) -> Int {
        let exponent = min(max(consecutiveFailures, 1) - 1, 30)
        let raw = min(Double(cap), Double(base) * Double(1 << exponent))
        let digest = SHA256.hexDigest("\(feedID):\(consecutiveFailures)")
        let fraction = Double(UInt32(digest.prefix(8), radix: 16) ?? 0) / Double(UInt32.max)
        return Int(saturating: raw * (0.8 + 0.4 * fraction))
    }
}
