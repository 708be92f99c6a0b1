import FeedBasics
import FeedFetching
import FeedModel
import FeedStorage

/// What happened to a feed in one run, as the catalog needs to know it.
public enum FeedEvent {
    /// A body was read as a feed and its entries are stored.
    case fetched(FetchResponse, NormalizedFeed)
    /// `304`, or a `200` with the same body as last time.
    case notModified(FetchResponse)
    /// `410 Gone`: never fetched again unless asked for by id.
    case gone(FetchResponse)
    /// A failure with its kind; `retryAfter` when the server said how long to wait.
    case failed(kind: FailureKind, message: String, status: Int?, retryAfter: Int?)
    /// The feed's database was damaged or foreign and was set aside.
    case databaseSetAside(message: String)
}

/// How one event changes what the catalog knows about a feed: the old record and the event
/// in, the next record out, in one place. Pure but for `isURLTaken`, so every rule has a
/// table test; the redirect move is part of the transition, decided here and nowhere else.
public enum FeedTransition {
    /// - Parameters:
    ///   - itemsChanged: a fetched body changed the feed's items (new, changed or removed):
    ///     only then does `last_update` move (``CatalogFeed/lastUpdate``).
    ///   - isURLTaken: whether another feed already has a URL (a feed is never moved onto
    ///     another feed's URL).
    /// - Returns: the next record, and the URL the feed was moved to when permanent redirects
    ///   to it were seen `redirectSightingsToMove` runs in a row.
    public static func next(
        _ feed: CatalogFeed, after event: FeedEvent, now: Int64, configuration: PipelineConfiguration, itemsChanged: Bool = true,
        isURLTaken: (String) throws(StorageError) -> Bool
    ) throws(StorageError) -> (feed: CatalogFeed, movedTo: String?) {
        var next = feed
        switch event {
        case .fetched(let response, let parsed):
            succeeded(&next, response: response, now: now)
            if itemsChanged || feed.lastUpdate == nil { next.lastUpdate = now }
            if !parsed.title.isEmpty { next.title = parsed.title } else if next.title == nil { next.title = feed.state.opmlTitle ?? "" }
            next.state.siteLink = parsed.link ?? next.state.siteLink
            // What the feed says of itself now; the home page falls back, as the title does, to
            // what the feed list said.
            next.link = next.state.siteLink
            next.about = parsed.about
            next.state.hintInterval = PollHints.interval(parsed.hints, response: response)
            next.state.skipHours = parsed.hints.skipHours
            next.state.skipDays = parsed.hints.skipDays
            next.state.bodyHash = response.bodyHash
            next.state.websubHub = parsed.websub?.hub
            next.state.websubTopic = parsed.websub?.topic
        case .notModified(let response):
            succeeded(&next, response: response, now: now)
            if let interval = PollHints.interval(SchedulingHints(), response: response) {
                next.state.hintInterval = max(interval, feed.state.hintInterval ?? 0)
            }
        case .gone(let response):
            failed(&next, kind: .gone, message: "the publisher says the feed is gone (HTTP 410)", status: response.status, now: now)
            next.state.consecutiveErrors = feed.state.consecutiveErrors
            next.state.gone = true
            return (next, nil)
        case .failed(.notWritable, let message, let status, _):
            // The feed is fine; its file wants a chown. No backoff: due again next run.
            failed(&next, kind: .notWritable, message: message, status: status ?? feed.state.lastStatus, now: now)
            next.state.consecutiveErrors = feed.state.consecutiveErrors
            next.state.nextAttempt = nil
            return (next, nil)
        case .failed(let kind, let message, let status, let retryAfter):
            failed(&next, kind: kind, message: message, status: status, now: now)
            let delay = retryAfter ?? Backoff.delay(
                feedID: feed.feedID, consecutiveFailures: next.state.consecutiveErrors,
                base: configuration.backoffBase, cap: configuration.backoffCap)
            next.state.nextAttempt = now.saturatingAdd(Int64(delay))
            return (next, nil)
        case .databaseSetAside(let message):
            // No validators (the next fetch is in full), no backoff (due again at once, as any
            // feed without its database is).
            failed(&next, kind: .damagedDatabase, message: message, status: feed.state.lastStatus, now: now)
            next.state.nextAttempt = nil
            next.state.etag = nil
            next.state.lastModified = nil
            next.state.bodyHash = nil
            return (next, nil)
        }
        return try redirected(next, finalURL: event.response?.movedPermanently == true ? event.response?.finalURL : nil,
            configuration: configuration, isURLTaken: isURLTaken)
    }

    /// Counts runs in a row that permanent redirects led to the same URL, and moves the feed
    /// there once they are enough, no other feed has that URL, and the new URL's host is of
    /// the same shard (``crossesShards(from:to:configuration:)``).
    private static func redirected(
        _ feed: CatalogFeed, finalURL: String?, configuration: PipelineConfiguration,
        isURLTaken: (String) throws(StorageError) -> Bool
    ) throws(StorageError) -> (feed: CatalogFeed, movedTo: String?) {
        var next = feed
        guard let finalURL else {
            next.state.redirectTarget = nil
            next.state.redirectSightings = 0
            return (next, nil)
        }
        if next.state.redirectTarget == finalURL {
            next.state.redirectSightings = next.state.redirectSightings.saturatingAdd(1)
        } else {
            next.state.redirectTarget = finalURL
            next.state.redirectSightings = 1
        }
        guard next.state.redirectSightings >= configuration.redirectSightingsToMove,
            !crossesShards(from: feed.url, to: finalURL, configuration: configuration), try !isURLTaken(finalURL)
        else {
            return (next, nil)
        }
        next.url = finalURL
        next.state.redirectTarget = nil
        next.state.redirectSightings = 0
        return (next, finalURL)
    }

    /// Whether moving a feed from `url` to `target` would give it to another shard. Such a move
    /// is never made: only this shard's catalog would learn it, so this shard would stop
    /// fetching the feed while the other shards, whose catalogs still hold the old URL, would
    /// leave it to this one. A person changes the feed list on every shard instead.
    public static func crossesShards(from url: String, to target: String, configuration: PipelineConfiguration) -> Bool {
        let count = configuration.shard.count
        return ShardAssignment.shardIndex(ofURL: url, count: count) != ShardAssignment.shardIndex(ofURL: target, count: count)
    }

    /// What every failure records: its kind and message, the attempt, one more in a row.
    private static func failed(_ next: inout CatalogFeed, kind: FailureKind, message: String, status: Int?, now: Int64) {
        next.state.consecutiveErrors = next.state.consecutiveErrors.saturatingAdd(1)
        next.state.lastAttempt = now
        next.state.lastStatus = status
        next.state.lastErrorKind = kind
        next.state.lastError = message
    }

    private static func succeeded(_ next: inout CatalogFeed, response: FetchResponse, now: Int64) {
        // A last change after now was written by a clock that ran fast: now is the latest it can be.
        if let last = next.lastUpdate, last > now { next.lastUpdate = now }
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
    }
}

extension FeedEvent {
    /// What the run report says of the event, when the event itself decides it (a stored
    /// fetch reports its upsert summary instead, decided where it was stored).
    var reportedOutcome: FeedReport.Outcome? {
        switch self {
        case .gone: return .gone
        case .failed(let kind, let message, _, _): return .failed(kind: kind, message: message)
        case .databaseSetAside(let message): return .failed(kind: .damagedDatabase, message: message)
        case .fetched, .notModified: return nil
        }
    }

    /// The response a successful fetch brought.
    var response: FetchResponse? {
        switch self {
        case .fetched(let response, _), .notModified(let response), .gone(let response): return response
        case .failed, .databaseSetAside: return nil
        }
    }
}
