import FeedModel
import GRDB

/// A `fetch_state` row: written by GRDB as an `Encodable` record, read by position from the
/// catalog's joined rows (``init(joined:feedID:at:)``). The column names are written once,
/// here, and the text encodings of typed state (skip hours, skip days) live here alone. Read
/// from the joined rows, the columns are optional: a feed listed by the original schema has
/// no `fetch_state` row yet, and reads as the defaults. Nothing outside FeedStorage sees this type.
struct FetchStateRecord: Encodable, PersistableRecord {
    static let databaseTableName = "fetch_state"

    var feedid: Int64
    var originURL: String?
    var siteLink: String?
    var category: String?
    var opmlTitle: String?
    var inOPML: Bool?
    var etag: String?
    var lastModified: String?
    var bodyHash: String?
    var lastStatus: Int?
    var lastErrorKind: String?
    var lastError: String?
    var consecutiveErrors: Int?
    var lastAttempt: Int64?
    var lastSuccess: Int64?
    var nextAttempt: Int64?
    var redirectTarget: String?
    var redirectSightings: Int?
    var gone: Bool?
    var hintInterval: Int?
    /// Comma-separated GMT hours, `1,2,3`.
    var skipHours: String?
    /// Comma-separated English day names, `Saturday,Sunday`.
    var skipDays: String?
    var keepItems: Int?
    var keepDays: Int?

    enum CodingKeys: String, CodingKey {
        case feedid, etag, category, gone
        case originURL = "origin_url"
        case siteLink = "site_link"
        case opmlTitle = "opml_title"
        case inOPML = "in_opml"
        case lastModified = "last_modified"
        case bodyHash = "body_hash"
        case lastStatus = "last_status"
        case lastErrorKind = "last_error_kind"
        case lastError = "last_error"
        case consecutiveErrors = "consecutive_errors"
        case lastAttempt = "last_attempt_unix_time"
        case lastSuccess = "last_success_unix_time"
        case nextAttempt = "next_attempt_unix_time"
        case redirectTarget = "redirect_target"
        case redirectSightings = "redirect_sightings"
        case hintInterval = "hint_interval_seconds"
        case skipHours = "skip_hours"
        case skipDays = "skip_days"
        case keepItems = "keep_items"
        case keepDays = "keep_days"
    }

    init(_ feed: CatalogFeed) {
        let state = feed.state
        feedid = feed.feedID
        originURL = state.originURL ?? feed.url
        siteLink = state.siteLink
        category = state.category
        opmlTitle = state.opmlTitle
        inOPML = state.inOPML
        etag = state.etag
        lastModified = state.lastModified
        bodyHash = state.bodyHash
        lastStatus = state.lastStatus
        lastErrorKind = state.lastErrorKind?.rawValue
        lastError = state.lastError
        consecutiveErrors = state.consecutiveErrors
        lastAttempt = state.lastAttempt
        lastSuccess = state.lastSuccess
        nextAttempt = state.nextAttempt
        redirectTarget = state.redirectTarget
        redirectSightings = state.redirectSightings
        gone = state.gone
        hintInterval = state.hintInterval
        keepItems = state.retention.keepItems
        keepDays = state.retention.keepDays
        skipHours = state.skipHours.map(String.init).joined(separator: ",")
        skipDays = state.skipDays.joined(separator: ",")
    }

    /// The columns ``init(joined:feedID:at:unreadable:)`` reads, in its order.
    static let joinedColumns: [CodingKeys] = [
        .originURL, .siteLink, .category, .opmlTitle, .inOPML, .etag, .lastModified, .bodyHash, .lastStatus,
        .lastErrorKind, .lastError, .consecutiveErrors, .lastAttempt, .lastSuccess, .nextAttempt, .redirectTarget,
        .redirectSightings, .gone, .hintInterval, .skipHours, .skipDays, .keepItems, .keepDays,
    ]

    /// Reads ``joinedColumns`` from a row of the catalog's join, starting at column `first`,
    /// by position. Not `Codable`'s `init(row:)`: that finds each column by name, lowercasing
    /// and comparing strings, and costs more than the rest of reading a feed.
    /// A value that is not of its column's type reads as absent (its default), named in
    /// `unreadable`.
    init(joined row: Row, feedID: Int64, at first: Int, unreadable: inout [String]) {
        var column = first
        var problems: [String] = []
        func next<Value: DatabaseValueConvertible>() -> Value? {
            defer { column += 1 }
            return StoredValue.read(row, column, "fetch_state." + Self.joinedColumns[column - first].rawValue, noting: &problems)
        }
        feedid = feedID
        originURL = next()
        siteLink = next()
        category = next()
        opmlTitle = next()
        inOPML = next()
        etag = next()
        lastModified = next()
        bodyHash = next()
        lastStatus = next()
        lastErrorKind = next()
        lastError = next()
        consecutiveErrors = next()
        lastAttempt = next()
        lastSuccess = next()
        nextAttempt = next()
        redirectTarget = next()
        redirectSightings = next()
        gone = next()
        hintInterval = next()
        skipHours = next()
        skipDays = next()
        keepItems = next()
        keepDays = next()
        unreadable += problems
    }

    /// The typed state. A retention limit outside what an operator may set reads as unset
    /// (named in `unreadable`): `keep_items = -5` must not empty a feed's history.
    func state(unreadable: inout [String]) -> FetchState {
        var state = state
        if let keepItems, !Retention.itemLimits.contains(keepItems) {
            unreadable.append("fetch_state.keep_items holds \(keepItems), outside \(Retention.itemLimits)")
            state.retention.keepItems = nil
        }
        if let keepDays, !Retention.dayLimits.contains(keepDays) {
            unreadable.append("fetch_state.keep_days holds \(keepDays), outside \(Retention.dayLimits)")
            state.retention.keepDays = nil
        }
        return state
    }

    var state: FetchState {
        var state = FetchState()
        state.originURL = originURL
        state.siteLink = siteLink
        state.category = category
        state.opmlTitle = opmlTitle
        state.inOPML = inOPML ?? true
        state.etag = etag
        state.lastModified = lastModified
        state.bodyHash = bodyHash
        state.lastStatus = lastStatus
        // A kind written by a later Feedmill that this one does not know reads as a storage failure.
        state.lastErrorKind = lastErrorKind.map { FailureKind(rawValue: $0) ?? .storage }
        state.lastError = lastError
        state.consecutiveErrors = consecutiveErrors ?? 0
        state.lastAttempt = lastAttempt
        state.lastSuccess = lastSuccess
        state.nextAttempt = nextAttempt
        state.redirectTarget = redirectTarget
        state.redirectSightings = redirectSightings ?? 0
        state.gone = gone ?? false
        state.hintInterval = hintInterval
        state.skipHours = (skipHours ?? "").split(separator: ",").compactMap { Int($0) }
        state.skipDays = (skipDays ?? "").split(separator: ",").map(String.init)
        state.retention = Retention(keepItems: keepItems, keepDays: keepDays)
        return state
    }
}
