import FeedModel
import GRDB

/// Reading part of the catalog: what a publication that follows the change log needs when a
/// few of a million feeds changed (issue 51). Reading every feed's whole record
/// (``Catalog/forEachFeed(_:)``) was most of such a publication's time.
extension Catalog {
    /// Every catalogued feedid, ascending.
    public func feedIDs() throws(StorageError) -> [Int64] {
        try StorageError.wrap(path, "reading feedids") {
            try queue.inDatabase { db in
                var ids: [Int64] = []
                let rows = try Row.fetchCursor(db, sql: "SELECT feedid FROM feeds ORDER BY feedid")
                // An INTEGER PRIMARY KEY is always an integer.
                while let row = try rows.next() { ids.append(row[0]) }
                return ids
            }
        }
    }

    /// The feeds among `ids` the catalog lists, in feedid order (an id it does not list is left
    /// out), read as ``feed(id:)`` reads one.
    public func feeds(ids: some Sequence<Int64>) throws(StorageError) -> [CatalogFeed] {
        let wanted = Array(Set(ids)).sorted()
        guard !wanted.isEmpty else { return [] }
        return try StorageError.wrap(path, "reading \(wanted.count) feeds") {
            try queue.inDatabase { db in
                var feeds: [CatalogFeed] = []
                // In batches: a statement's variables are limited (32,766 by default).
                for start in stride(from: 0, to: wanted.count, by: Self.idsPerStatement) {
                    let batch = wanted[start..<Swift.min(start + Self.idsPerStatement, wanted.count)]
                    let marks = Array(repeating: "?", count: batch.count).joined(separator: ",")
                    let rows = try Row.fetchCursor(
                        db, sql: Self.selectFeeds + " WHERE feeds.feedid IN (\(marks)) ORDER BY feeds.feedid",
                        arguments: StatementArguments(Array(batch)))
                    while let row = try rows.next() { feeds.append(Self.feed(row)) }
                }
                return feeds
            }
        }
    }

    /// The feeds whose feedid lies in `range`, in feedid order.
    public func feeds(in range: ClosedRange<Int64>) throws(StorageError) -> [CatalogFeed] {
        try StorageError.wrap(path, "reading feeds \(range.lowerBound)…\(range.upperBound)") {
            try queue.inDatabase { db in
                var feeds: [CatalogFeed] = []
                let rows = try Row.fetchCursor(
                    db, sql: Self.selectFeeds + " WHERE feeds.feedid BETWEEN ? AND ? ORDER BY feeds.feedid",
                    arguments: [range.lowerBound, range.upperBound])
                while let row = try rows.next() { feeds.append(Self.feed(row)) }
                return feeds
            }
        }
    }

    /// Every feed's title (`about.title`), in feedid order: what the catalog's title index is
    /// made from, without the rest of each record.
    public func feedTitles() throws(StorageError) -> [(feedID: Int64, title: String?)] {
        try StorageError.wrap(path, "reading feeds' titles") {
            try queue.inDatabase { db in
                var titles: [(feedID: Int64, title: String?)] = []
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT feeds.feedid, about.title FROM feeds LEFT JOIN about ON about.feedid = feeds.feedid ORDER BY feeds.feedid")
                // A title that is not text reads as absent, as ``feed(id:)`` reads it.
                while let row = try rows.next() { titles.append((row[0], (try? StoredValue.read(row, 1, as: String.self).get()) ?? nil)) }
                return titles
            }
        }
    }

    /// Every feed's ``FeedHealth``, from the few columns it rests on: the same summary as
    /// ``FeedHealthSummary/init(_:listing:)`` over every whole record, in a fraction of the time.
    /// With the catalog's health indexes, only the feeds not plainly ok are read whole
    /// (``CatalogHealthReading``); without them, every feed's columns:
    ///
    /// Stepped through SQLite's C API (``DirectStatement/forEachRow(_:in:_:)``), each feed put
    /// in its attention order as it is read: at a million feeds, reading through GRDB's rows (a
    /// generic decoding per column) and ordering the feeds afterwards were a third of a one-feed
    /// publication (issue 51).
    public func healthSummary(listing: Int = FeedHealthSummary.everyFeed) throws(StorageError) -> FeedHealthSummary {
        try StorageError.wrap(path, "reading feeds' health") {
            try queue.inDatabase { db in
                if let summary = try CatalogHealthReading.summary(db, listing: listing) { return summary }
                var ordering = FeedHealthSummary.AttentionOrdering()
                let every = Self.selectHealth(from: "feeds LEFT JOIN fetch_state ON fetch_state.feedid = feeds.feedid", orderBy: "feeds.feedid")
                try DirectStatement.forEachRow(try db.makeStatement(sql: every), in: db) { ordering.add(Self.health($0)) }
                return FeedHealthSummary(attentionOrdered: ordering.ordered(), listing: listing)
            }
        }
    }

    static let idsPerStatement = 10_000

    /// `last_update` is the fallback for a last success the row does not give (a catalog from
    /// before `fetch_state`): looked up only then, as GRDB would read the column as absent (not
    /// an integer, nor a real within Int64's range). A join on it for every row was half the
    /// statement's time at a million feeds.
    static func selectHealth(from source: String, where condition: String? = nil, orderBy: String) -> String {
        """
        SELECT feeds.feedid, fetch_state.gone, fetch_state.consecutive_errors, fetch_state.last_error_kind,
            fetch_state.last_attempt_unix_time, fetch_state.next_attempt_unix_time, fetch_state.last_success_unix_time,
            CASE WHEN typeof(fetch_state.last_success_unix_time) = 'integer'
                    OR (typeof(fetch_state.last_success_unix_time) = 'real'
                        AND fetch_state.last_success_unix_time >= -9223372036854775808.0
                        AND fetch_state.last_success_unix_time < 9223372036854775808.0)
                THEN NULL
                ELSE (SELECT when_unix_time FROM last_update WHERE last_update.feedid = feeds.feedid)
            END,
            fetch_state.last_error
        FROM \(source)
        """ + (condition.map { "\nWHERE \($0)" } ?? "") + "\nORDER BY \(orderBy)"
    }

    /// A value of the wrong type reads as absent (its column's default), as ``feed(_:)`` reads
    /// it (``StoredValue/read(_:_:as:)``: GRDB's conversion, NULL and a failed one both `nil`):
    /// each column read as GRDB reads a row's value (``DatabaseValue/init(sqliteStatement:index:)``)
    /// and converted by GRDB's own conversion for the type, named, not through a generic
    /// decoder (a million rows spent most of their time looking up generic metadata).
    static func health(_ handle: OpaquePointer) -> FeedHealth {
        let raw = { (index: Int32) -> DatabaseValue in DatabaseValue(sqliteStatement: handle, index: index) }
        let kind = String.fromDatabaseValue(raw(3))
        return FeedHealth(
            feedID: Int64.fromDatabaseValue(raw(0)) ?? 0, gone: Bool.fromDatabaseValue(raw(1)) ?? false,
            consecutiveErrors: Int.fromDatabaseValue(raw(2)) ?? 0, lastErrorKind: kind.map { FailureKind(rawValue: $0) ?? .storage },
            lastError: { String.fromDatabaseValue(raw(8)) }, lastAttempt: Int64.fromDatabaseValue(raw(4)),
            nextAttempt: Int64.fromDatabaseValue(raw(5)), lastSuccess: Int64.fromDatabaseValue(raw(6)),
            lastUpdate: Int64.fromDatabaseValue(raw(7)))
    }
}
