import FeedFetching
import FeedModel
import FeedStorage

/// How one fetch outcome changes what the catalog knows about a feed. Pure: the old record
/// and the outcome in, the new record out, so every rule has a table test.
public enum FeedTransition {
    /// A body was fetched and read as a feed (its entries are already stored).
    public static func fetched(
        _ feed: CatalogFeed, response: FetchResponse, parsed: NormalizedFeed, now: Int64,
        configuration: PipelineConfiguration
    ) -> CatalogFeed {
        var next = succeeded(feed, response: response, now: now, configuration: configuration)
        if !parsed.title.isEmpty { next.title = parsed.title } else if next.title == nil { next.title = feed.state.opmlTitle ?? "" }
        next.state.siteLink = parsed.link ?? next.state.siteLink
        next.state.hintInterval = PollHints.interval(parsed.hints, response: response)
        next.state.skipHours = parsed.hints.skipHours
        next.state.skipDays = parsed.hints.skipDays
        next.state.bodyHash = response.bodyHash
        return next
    }

    /// `304`, or a `200` with the same body as last time.
    public static func notModified(
        _ feed: CatalogFeed, response: FetchResponse, now: Int64, configuration: PipelineConfiguration
    ) -> CatalogFeed {
        var next = succeeded(feed, response: response, now: now, configuration: configuration)
        if let interval = PollHints.interval(SchedulingHints(), response: response) {
            next.state.hintInterval = max(interval, feed.state.hintInterval ?? 0)
        }
        return next
    }

    /// `410 Gone`: never fetched again unless asked for by id.
    public static func gone(_ feed: CatalogFeed, response: FetchResponse, now: Int64) -> CatalogFeed {
        var next = feed
        next.state.gone = true
        next.state.lastStatus = response.status
        next.state.lastAttempt = now
        next.state.lastErrorKind = "gone"
        next.state.lastError = "the publisher says the feed is gone (HTTP 410)"
        return next
    }

    /// A failure: recorded with its kind, the failure count grows, and the next attempt backs
    /// off (or waits exactly as long as `Retry-After` asked).
    public static func failed(
        _ feed: CatalogFeed, kind: String, message: String, status: Int?, retryAfter: Int?, now: Int64,
        configuration: PipelineConfiguration
    ) -> CatalogFeed {
        var next = recordingFailure(feed, kind: kind, message: message, status: status, now: now)
        let delay = retryAfter ?? Backoff.delay(
            feedID: feed.feedID, consecutiveFailures: next.state.consecutiveErrors,
            base: configuration.backoffBase, cap: configuration.backoffCap)
        next.state.nextAttempt = now + Int64(delay)
        return next
    }

    /// The kind recorded when a feed's database was damaged or foreign and set aside.
    public static let damagedDatabaseKind = "damaged-database"

    /// The feed's database was set aside: no validators (the next fetch is in full), no
    /// backoff (the feed is due again at once, as any feed without its database is), and the
    /// reason recorded like any failure.
    public static func databaseSetAside(_ feed: CatalogFeed, message: String, now: Int64) -> CatalogFeed {
        var next = recordingFailure(feed, kind: damagedDatabaseKind, message: message, status: feed.state.lastStatus, now: now)
        next.state.nextAttempt = nil
        next.state.etag = nil
        next.state.lastModified = nil
        next.state.bodyHash = nil
        return next
    }

    /// The URL to move the feed to, when permanent redirects to it have been seen enough runs
    /// in a row; the record counts the sightings either way. Applied once per successful fetch.
    public static func redirects(
        _ feed: CatalogFeed, response: FetchResponse, configuration: PipelineConfiguration
    ) -> (feed: CatalogFeed, moveTo: String?) {
        var next = feed
        guard response.movedPermanently else {
            next.state.redirectTarget = nil
            next.state.redirectSightings = 0
            return (next, nil)
        }
        if next.state.redirectTarget == response.finalURL {
            next.state.redirectSightings += 1
        } else {
            next.state.redirectTarget = response.finalURL
            next.state.redirectSightings = 1
        }
        guard next.state.redirectSightings >= configuration.redirectSightingsToMove else { return (next, nil) }
        return (next, response.finalURL)
    }

    /// What every failure records: its kind and message, the attempt, one more in a row.
    private static func recordingFailure(_ feed: CatalogFeed, kind: String, message: String, status: Int?, now: Int64) -> CatalogFeed {
        var next = feed
        next.state.consecutiveErrors += 1
        next.state.lastAttempt = now
        next.state.lastStatus = status
        next.state.lastErrorKind = kind
        next.state.lastError = message
        return next
    }

    private static func succeeded(
        _ feed: CatalogFeed, response: FetchResponse, now: Int64, configuration: PipelineConfiguration
    ) -> CatalogFeed {
        var next = feed
        next.lastUpdate = now
        next.state.lastAttempt = now
        next.state.lastSuccess = now
        next.state.lastStatus = response.status
        next.state.lastErrorKind = nil
        next.state.lastError = nil
        next.state.consecutiveErrors = 0
        next.state.nextAttempt = nil
        next.state.gone = false
        next.state.etag = response.etag
        next.state.lastModified = response.lastModified
        return next
    }
}
