import FeedBasics
import FeedDates

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
enum RetryAfter {
    /// Seconds to wait, capped at `cap`; `nil` when absent or unreadable.
    ///
    /// An HTTP-date is measured against the response's own `Date` header when there is one,
    /// so a server whose clock differs from ours still gets the wait it meant; otherwise
    /// against `now`.
    static func seconds(_ value: String?, serverDate: String?, now: Int64, cap: Int) -> Int? {
        guard let value = value?.trimmingASCII(" \t"), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isWholeNumber) {
            return min(Int(value) ?? cap, cap)
        }
        guard let target = FeedDate.parse(value) else { return nil }
        let reference = serverDate.flatMap(FeedDate.parse) ?? now
        return Int(max(0, min(Int64(cap), target.saturatingSubtract(reference))))
    }
}
