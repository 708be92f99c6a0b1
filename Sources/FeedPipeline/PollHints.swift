import FeedBasics
import FeedDates
import FeedFetching
import FeedModel
import Foundation

/// How often a feed asks to be polled, from what it says (RSS `ttl`, `sy:updatePeriod` and
/// `sy:updateFrequency`) and what its server says (`Cache-Control: max-age`, `Expires`).
/// The longest request wins; the scheduler bounds it.
public enum PollHints {
    public static func interval(_ hints: SchedulingHints, response: FetchResponse?) -> Int? {
        var candidates: [Int] = []
        // Saturating: a feed may say `<ttl>9223372036854775807</ttl>`; the scheduler caps it.
        if let ttl = hints.ttlMinutes { candidates.append(ttl.saturatingMultiply(60)) }
        if let period = hints.updatePeriod.flatMap(periodSeconds) {
            candidates.append(period / max(1, hints.updateFrequency ?? 1))
        }
        if let response {
            if let maxAge = response.cacheControl.flatMap(maxAge) { candidates.append(maxAge) }
            if let expires = response.expires.flatMap(FeedDate.parse),
                let date = response.date.flatMap(FeedDate.parse), expires > date
            {
                candidates.append(Int(expires.saturatingSubtract(date)))
            }
        }
        return candidates.max()
    }

    static func periodSeconds(_ period: String) -> Int? {
        switch period.lowercased() {
        case "hourly": return 3600
        case "daily": return 86_400
        case "weekly": return 604_800
        case "monthly": return 2_592_000
        case "yearly": return 31_536_000
        default: return nil
        }
    }

    /// `max-age=N` from a Cache-Control value (`no-cache`/`no-store` give no hint).
    static func maxAge(_ cacheControl: String) -> Int? {
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == "max-age", let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) {
                return seconds
            }
        }
        return nil
    }
}
