import FeedModel
import GRDB
import GRDBSQLite

/// Every feed's health read in proportion to the feeds that are not plainly ok (issue 51).
///
/// A feed is *settled* when its `fetch_state` row says, in values of the right type, what only
/// an ok feed says: not gone, no failure in a row, no failure kind, an integer last success.
/// Two partial indexes split the rows on that test: the settled ones by feedid with their last
/// success (all a page needs of them: a count, the oldest success, the age chart), and the
/// others by feedid, whose whole health is read and decided as before. A feed with no row, a
/// row with no feed, and any value of the wrong type fall outside the settled test, so they
/// are decided by the one rule (``FeedHealth/State/of(gone:consecutiveErrors:lastErrorKind:lastAttempt:lastSuccess:)``),
/// never by the index. At a million ok feeds this reads a million small index entries instead
/// of a million joined rows, and makes a ``FeedHealth`` only for the feeds a page shows.
///
/// Why indexes without a migration: they change no meaning, so an older Feedmill must keep
/// reading and writing the catalog (it refuses one that records a migration it does not know);
/// SQLite keeps them up to date whoever writes. A catalog without them (not opened for writing
/// by this Feedmill yet) is read whole, as before.
enum CatalogHealthReading {
    static let settledIndex = "fetch_state_settled"
    static let unsettledIndex = "fetch_state_unsettled"

    /// What only an ok feed's row says, with each value of the type it must have.
    static let settled = """
        (typeof(gone) = 'integer' AND gone = 0 AND typeof(consecutive_errors) = 'integer' AND consecutive_errors = 0 \
        AND last_error_kind IS NULL AND typeof(last_success_unix_time) = 'integer')
        """

    static func createIndexes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX IF NOT EXISTS \(settledIndex) ON fetch_state (feedid, last_success_unix_time) WHERE \(settled);
            CREATE INDEX IF NOT EXISTS \(unsettledIndex) ON fetch_state (feedid) WHERE NOT \(settled);
            """)
    }

    /// Whether both indexes are there (a catalog this Feedmill has opened for writing).
    static func hasIndexes(_ db: Database) throws -> Bool {
        try Int.fetchOne(
            db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'fetch_state' AND name IN (?, ?)",
            arguments: [settledIndex, unsettledIndex]) == 2
    }

    /// The summary, keeping `listing` ok feeds; nil when the indexes are not there.
    static func summary(_ db: Database, listing: Int) throws -> FeedHealthSummary? {
        guard try hasIndexes(db) else { return nil }
        // The settled rows, by feedid: the feedid and the last success only.
        var settledIDs: [Int64] = [], settledSuccesses: [Int64] = []
        let settledRows = try db.makeStatement(sql: """
            SELECT feedid, last_success_unix_time FROM fetch_state INDEXED BY \(settledIndex) WHERE \(settled) ORDER BY feedid
            """)
        try DirectStatement.forEachRow(settledRows, in: db) { handle in
            settledIDs.append(sqlite3_column_int64(handle, 0))
            settledSuccesses.append(sqlite3_column_int64(handle, 1))
        }
        // The others, of listed feeds, whole (``Catalog/health(_:)``), by feedid.
        var unsettled: [FeedHealth] = []
        let unsettledRows = try db.makeStatement(sql: Catalog.selectHealth(
            from: "fetch_state INDEXED BY \(unsettledIndex) CROSS JOIN feeds ON feeds.feedid = fetch_state.feedid",
            where: "NOT \(settled)", orderBy: "fetch_state.feedid"))
        try DirectStatement.forEachRow(unsettledRows, in: db) { unsettled.append(Catalog.health($0)) }

        // Every listed feed, by feedid, against both: settled, unsettled, or without a row.
        var tally = FeedStateTally()
        var ordering = FeedHealthSummary.AttentionOrdering()
        var lastSuccesses: [Int64] = []
        lastSuccesses.reserveCapacity(settledIDs.count)
        var okIDs: [Int64] = [], withoutRow: [Int64] = []
        var decided: [FeedHealth] = []
        var settledAt = 0, unsettledAt = 0, feedCount = 0
        // The settled feeds are all ok: counted here, added to the tally once.
        var settledOK = 0
        var oldestSettled: Int64?
        try DirectStatement.forEachRow(try db.makeStatement(sql: "SELECT feedid FROM feeds ORDER BY feedid"), in: db) { handle in
            let id = sqlite3_column_int64(handle, 0)
            feedCount += 1
            while settledAt < settledIDs.count, settledIDs[settledAt] < id { settledAt += 1 }
            if settledAt < settledIDs.count, settledIDs[settledAt] == id {
                let success = settledSuccesses[settledAt]
                settledOK += 1
                oldestSettled = Swift.min(oldestSettled ?? success, success)
                lastSuccesses.append(success)
                if okIDs.count < listing { okIDs.append(id) }
                return
            }
            while unsettledAt < unsettled.count, unsettled[unsettledAt].feedID < id { unsettledAt += 1 }
            if unsettledAt < unsettled.count, unsettled[unsettledAt].feedID == id {
                decided.append(unsettled[unsettledAt])
            } else {
                withoutRow.append(id)
            }
        }
        tally.addOK(count: settledOK, oldestSuccess: oldestSettled)
        // A feed without a row: never fetched, or ok by its `last_update` (a catalog from before
        // `fetch_state`). Put back among the others in feedid order: the attention order of every
        // state but failing is the order feeds are added in.
        for health in merged(decided, try healths(db, ids: withoutRow)) { count(health, &tally, &ordering, &lastSuccesses, &okIDs) }
        // The first ok feeds by feedid, read whole: the page shows them.
        let ok = try healths(db, ids: Array(okIDs.sorted().prefix(Swift.max(0, listing))))
        return FeedHealthSummary(leading: ordering.ordered() + ok, feedCount: feedCount, lastSuccesses: lastSuccesses, tally: tally)
    }

    private static func count(
        _ health: FeedHealth, _ tally: inout FeedStateTally, _ ordering: inout FeedHealthSummary.AttentionOrdering,
        _ lastSuccesses: inout [Int64], _ okIDs: inout [Int64]
    ) {
        tally.add(health.state, kind: health.failureKind, lastSuccess: health.lastSuccess)
        if let success = health.lastSuccess { lastSuccesses.append(success) }
        if health.state == .ok { okIDs.append(health.feedID) } else { ordering.add(health) }
    }

    /// Two lists in feedid order as one.
    private static func merged(_ a: [FeedHealth], _ b: [FeedHealth]) -> [FeedHealth] {
        var result: [FeedHealth] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].feedID < b[j].feedID) {
                result.append(a[i]); i += 1
            } else {
                result.append(b[j]); j += 1
            }
        }
        return result
    }

    /// The health of the listed feeds among `ids`, by feedid, in batches.
    private static func healths(_ db: Database, ids: [Int64]) throws -> [FeedHealth] {
        var healths: [FeedHealth] = []
        for start in stride(from: 0, to: ids.count, by: Catalog.idsPerStatement) {
            let batch = Array(ids[start..<Swift.min(start + Catalog.idsPerStatement, ids.count)])
            let marks = Array(repeating: "?", count: batch.count).joined(separator: ",")
            let statement = try db.makeStatement(sql: Catalog.selectHealth(
                from: "feeds LEFT JOIN fetch_state ON fetch_state.feedid = feeds.feedid", where: "feeds.feedid IN (\(marks))",
                orderBy: "feeds.feedid"))
            try statement.setArguments(StatementArguments(batch))
            try DirectStatement.forEachRow(statement, in: db) { healths.append(Catalog.health($0)) }
        }
        return healths
    }
}
