import FeedModel
import GRDB

/// One `fetch_state` column: its name and declaration, the migration that added it, the rule
/// that repairs a wrong value in it (``CatalogValues``), and how it is written from and read
/// into a feed's ``FetchState``.
struct FetchStateColumn: Sendable {
    let name: String
    /// As in `CREATE TABLE` and `ADD COLUMN`: `TEXT`, `INTEGER NOT NULL DEFAULT 0`.
    let declaration: String
    /// The migration that added it (``CatalogSchema``).
    let addedBy: String
    let rule: ValueRules.Column
    /// The value stored for a feed.
    let write: @Sendable (CatalogFeed) -> DirectStatement.Value
    /// Reads the column at `index` of a row into the state: a value not of the column's type
    /// (written by hand) reads as absent, named in `problems`; so does NULL, as a feed listed
    /// before `fetch_state` existed has no row there.
    let read: @Sendable (_ state: inout FetchState, _ row: Row, _ index: Int, _ problems: inout [String]) -> Void
}

/// The `fetch_state` table, declared once: its schema and migrations (``CatalogSchema``), the
/// catalog's SELECT list and how a row is read and written (``Catalog``), and the repair of
/// wrong values (``CatalogValues``) all come from ``all``. Adding a column is a row at the end
/// of ``all``, naming a new migration (registered from here), and the ``FetchState`` property it
/// fills. The text encodings of typed state (skip hours, skip days) live here alone.
enum FetchStateColumns {
    static let all: [FetchStateColumn] = [
        .text("origin_url", addedBy: CatalogSchema.identity, write: { $0.state.originURL ?? $0.url }, \.originURL),
        .text("site_link", \.siteLink),
        .text("category", \.category),
        .text("opml_title", \.opmlTitle),
        .flag("in_opml", \.inOPML, default: true),
        .text("etag", \.etag),
        .text("last_modified", \.lastModified),
        .text("body_hash", \.bodyHash),
        .number("last_status", \.lastStatus),
        .text(
            "last_error_kind", write: { $0.state.lastErrorKind?.rawValue },
            // A kind written by a later Feedmill that this one does not know reads as a storage failure.
            read: { state, text in state.lastErrorKind = text.map { FailureKind(rawValue: $0) ?? .storage } }),
        .text("last_error", \.lastError),
        .counter("consecutive_errors", \.consecutiveErrors),
        .number("last_attempt_unix_time", \.lastAttempt),
        .number("last_success_unix_time", \.lastSuccess),
        .number("next_attempt_unix_time", \.nextAttempt),
        .text("redirect_target", \.redirectTarget),
        .counter("redirect_sightings", \.redirectSightings),
        .flag("gone", \.gone, default: false),
        .number("hint_interval_seconds", \.hintInterval),
        .text(
            // Comma-separated GMT hours, `1,2,3`.
            "skip_hours", write: { $0.state.skipHours.map(String.init).joined(separator: ",") },
            read: { state, text in state.skipHours = (text ?? "").split(separator: ",").compactMap { Int($0) } }),
        .text(
            // Comma-separated English day names, `Saturday,Sunday`.
            "skip_days", write: { $0.state.skipDays.joined(separator: ",") },
            read: { state, text in state.skipDays = (text ?? "").split(separator: ",").map(String.init) }),
        // Per-feed retention (`rss-feeds set --keep-items/--keep-days`); NULL: the run's.
        .limit("keep_items", \.retention.keepItems, Retention.itemLimits, addedBy: CatalogSchema.retention),
        .limit("keep_days", \.retention.keepDays, Retention.dayLimits, addedBy: CatalogSchema.retention),
        // Issue 53: where the feed announces its changes, for rss-serve's WebSub subscriber.
        .text("websub_hub", addedBy: CatalogSchema.websub, \.websubHub),
        .text("websub_topic", addedBy: CatalogSchema.websub, \.websubTopic),
    ]

    /// `fetch_state.site_link, …`: what the catalog's join selects, in the order of ``all``.
    static let selected = all.map { "fetch_state.\($0.name)" }.joined(separator: ", ")

    /// The table as the migration that created it made it: `feedid` and the columns it added.
    static var creation: String {
        let columns = ["feedid INTEGER PRIMARY KEY"] + all.filter { $0.addedBy == CatalogSchema.fetchState }.map { "\($0.name) \($0.declaration)" }
        return "CREATE TABLE IF NOT EXISTS fetch_state (\n" + columns.map { "    " + $0 }.joined(separator: ",\n") + ")"
    }

    /// Migrations after those ``CatalogSchema`` writes out, each adding its columns, in the
    /// order of ``all``.
    static var laterMigrations: [String] {
        var names: [String] = []
        for column in all where !CatalogSchema.written.contains(column.addedBy) && !names.contains(column.addedBy) {
            names.append(column.addedBy)
        }
        return names
    }

    /// Adds the columns `migration` added, unless a table created by hand already has them.
    static func addColumns(of migration: String, _ db: Database) throws {
        let existing = Set(try db.columns(in: "fetch_state").map { $0.name.lowercased() })
        for column in all where column.addedBy == migration && !existing.contains(column.name) {
            try db.execute(sql: "ALTER TABLE fetch_state ADD COLUMN \(column.name) \(column.declaration)")
        }
    }

    /// Writes one feed's row, replacing the one it had. `nextDue`: the feed's next due time
    /// for the schedule's index (``CatalogSchedule``); `nil` keeps the one the row had.
    static func save(_ feed: CatalogFeed, nextDue: Int64?, db: Database) throws {
        var values: [DirectStatement.Value] = []
        values.reserveCapacity(all.count + 2)
        values.append(.integer(feed.feedID))
        for column in all { values.append(column.write(feed)) }
        values.append(DirectStatement.Value(nextDue))
        // Cached, and bound through SQLite's C API: every feed of every run is saved here.
        try DirectStatement.execute(try db.cachedStatement(sql: insertion), values, in: db)
    }

    /// `next_due_unix_time` is not one of ``all`` (no ``FetchState`` property: the update
    /// gives it with the save), and a save without it keeps the row's.
    private static let insertion =
        "INSERT OR REPLACE INTO fetch_state (feedid, \(all.map(\.name).joined(separator: ", ")), \(CatalogSchedule.column)) "
        + "VALUES (?1\(String(repeating: ", ?", count: all.count)), "
        + "IFNULL(?, (SELECT \(CatalogSchedule.column) FROM fetch_state WHERE feedid = ?1)))"

    /// Reads ``all`` from a row of the catalog's join, starting at column `first`, by position
    /// (finding each column by name, lowercasing and comparing strings, cost more than the rest
    /// of reading a feed). A value that is not of its column's type, or outside the bounds an
    /// operator may set, reads as absent (its default), named in `unreadable`.
    static func state(_ row: Row, at first: Int, unreadable: inout [String]) -> FetchState {
        var state = FetchState()
        for (offset, column) in all.enumerated() { column.read(&state, row, first + offset, &unreadable) }
        // `keep_items = -5` must not empty a feed's history.
        if let keepItems = state.retention.keepItems, !Retention.itemLimits.contains(keepItems) {
            unreadable.append("fetch_state.keep_items holds \(keepItems), outside \(Retention.itemLimits)")
            state.retention.keepItems = nil
        }
        if let keepDays = state.retention.keepDays, !Retention.dayLimits.contains(keepDays) {
            unreadable.append("fetch_state.keep_days holds \(keepDays), outside \(Retention.dayLimits)")
            state.retention.keepDays = nil
        }
        return state
    }
}

extension FetchStateColumn {
    fileprivate typealias Path<Value> = WritableKeyPath<FetchState, Value> & Sendable

    /// Reads the column's value as `Value`, noting a value of another type under `qualified`
    /// (`fetch_state.etag`: made once per column, not once per row read).
    private static func value<Value: DatabaseValueConvertible>(_ qualified: String, _ row: Row, _ index: Int, _ problems: inout [String]) -> Value? {
        StoredValue.read(row, index, qualified, noting: &problems)
    }

    fileprivate static func text(_ name: String, addedBy: String = CatalogSchema.fetchState, _ path: Path<String?>) -> Self {
        text(name, addedBy: addedBy, write: { $0.state[keyPath: path] }, read: { state, text in state[keyPath: path] = text })
    }

    fileprivate static func text(_ name: String, addedBy: String = CatalogSchema.fetchState, write: @escaping @Sendable (CatalogFeed) -> String?, _ path: Path<String?>) -> Self {
        text(name, addedBy: addedBy, write: write, read: { state, text in state[keyPath: path] = text })
    }

    /// Text turned into typed state by `read`, and back by `write`.
    fileprivate static func text(
        _ name: String, addedBy: String = CatalogSchema.fetchState, write: @escaping @Sendable (CatalogFeed) -> String?,
        read: @escaping @Sendable (inout FetchState, String?) -> Void
    ) -> Self {
        let qualified = "fetch_state." + name
        return Self(
            name: name, declaration: "TEXT", addedBy: addedBy, rule: CatalogValues.text(name),
            write: { DirectStatement.Value(write($0)) },
            read: { state, row, index, problems in read(&state, value(qualified, row, index, &problems)) })
    }

    fileprivate static func number<Number: DatabaseValueConvertible & FixedWidthInteger & Sendable>(
        _ name: String, _ path: Path<Number?>, addedBy: String = CatalogSchema.fetchState
    ) -> Self {
        let qualified = "fetch_state." + name
        return Self(
            name: name, declaration: "INTEGER", addedBy: addedBy, rule: CatalogValues.number(name),
            write: { DirectStatement.Value($0.state[keyPath: path].map { Int64($0) }) },
            read: { state, row, index, problems in state[keyPath: path] = value(qualified, row, index, &problems) })
    }

    /// A count that starts at 0.
    fileprivate static func counter(_ name: String, _ path: Path<Int>) -> Self {
        let qualified = "fetch_state." + name
        return Self(
            name: name, declaration: "INTEGER NOT NULL DEFAULT 0", addedBy: CatalogSchema.fetchState,
            rule: CatalogValues.counter(name, default: 0),
            write: { .integer(Int64($0.state[keyPath: path])) },
            read: { state, row, index, problems in state[keyPath: path] = value(qualified, row, index, &problems) ?? 0 })
    }

    fileprivate static func flag(_ name: String, _ path: Path<Bool>, default initial: Bool) -> Self {
        let qualified = "fetch_state." + name
        return Self(
            name: name, declaration: "INTEGER NOT NULL DEFAULT \(initial ? 1 : 0)", addedBy: CatalogSchema.fetchState,
            rule: CatalogValues.flag(name, default: initial ? 1 : 0),
            write: { .integer($0.state[keyPath: path] ? 1 : 0) },
            read: { state, row, index, problems in state[keyPath: path] = value(qualified, row, index, &problems) ?? initial })
    }

    /// An operator's limit, `NULL` for none; bounds are checked when the state is read whole.
    fileprivate static func limit(_ name: String, _ path: Path<Int?>, _ range: ClosedRange<Int>, addedBy: String) -> Self {
        let qualified = "fetch_state." + name
        return Self(
            name: name, declaration: "INTEGER", addedBy: addedBy, rule: CatalogValues.limit(name, range),
            write: { DirectStatement.Value($0.state[keyPath: path].map { Int64($0) }) },
            read: { state, row, index, problems in state[keyPath: path] = value(qualified, row, index, &problems) })
    }
}
