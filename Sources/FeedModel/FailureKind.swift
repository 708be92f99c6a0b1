/// Why a feed failed, as one stable name shared by everything that speaks of failures: the
/// fetcher's errors, the run report, the catalog's `fetch_state.last_error_kind`, the logs,
/// the metrics and the recordings. The raw values are stored and documented; never rename one.
public enum FailureKind: String, Sendable, Codable, CaseIterable {
    // The fetch.
    case invalidURL = "invalid-url"
    case unsupportedScheme = "unsupported-scheme"
    /// The address connected to is not allowed by the network policy.
    case blockedAddress = "blocked-address"
    case dns
    case connect
    case tls
    case timeout
    case tooManyRedirects = "too-many-redirects"
    case redirectLoop = "redirect-loop"
    case tooLarge = "too-large"
    /// Any other status that is not a feed: 4xx, 5xx (with the status), 429/503 with `Retry-After`.
    case httpStatus = "http-status"
    /// The server broke HTTP: a `304 Not Modified` to a request that was not conditional,
    /// conflicting `Content-Length` values, a reply without a status line (HTTP/0.9).
    case protocolViolation = "protocol"
    case network
    /// A replay was asked for a request that was never recorded.
    case notRecorded = "not-recorded"
    /// A recording could not be written or read.
    case recording
    /// The run was told to stop (Ctrl-C, SIGTERM) while this transfer was in flight.
    case interrupted

    // After the fetch.
    /// The publisher says the feed is gone (HTTP 410).
    case gone
    /// The body is not a feed Feedmill can read.
    case notAFeed = "not-a-feed"
    /// The feed's database could not be written.
    case storage
    /// The feed's database is there but this run's user may not write it (another user owns
    /// it, or its mode forbids): a person fixes it with `chown`; the feed itself is fine, so
    /// its backoff does not grow.
    case notWritable = "not-writable"
    /// The feed's database was damaged or belonged to another feed, and was set aside.
    case damagedDatabase = "damaged-database"
    /// The feed's database was written by a newer Feedmill: left alone, neither read nor written.
    case newerDatabase = "newer-database"
    /// The catalog lists the feed twice: another feedid has the same URL once normalised.
    case duplicate
}
