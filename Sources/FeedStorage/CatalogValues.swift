import GRDB

/// The values every catalog column may hold, checked and repaired when a command that writes
/// the catalog opens it (``Catalog/init(path:)``), so that a value written by hand (text in
/// `last_update`, a BLOB title, `keep_items = -5`) is put right once, said, and never stops a
/// run or reaches clients. Commands that only read (`rss-publish`, `rss-feeds list`) read
/// such a value as absent instead (``Catalog/feed(_:)``) and say so.
///
/// Each wrong value becomes what a feed without it has: validators, errors and times NULL,
/// counters 0, flags their default (a number other than 0 is true, as it reads); a
/// BLOB holding text is read as that text; a retention
/// limit outside ``Retention/itemLimits`` or ``Retention/dayLimits`` is unset (the run's
/// limits apply). A client-table row whose feedid is not an integer belongs to no feed and is
/// removed; a `feeds` row never is.
enum CatalogValues {
    static func text(_ name: String) -> ValueRules.Column {
        .init(name, .optionalText, replacedBy: "CASE WHEN typeof(\(name)) = 'blob' THEN CAST(\(name) AS TEXT) END")
    }

    static func number(_ name: String) -> ValueRules.Column {
        .init(name, .optionalInteger, replacedBy: "NULL")
    }

    static func counter(_ name: String, default value: Int) -> ValueRules.Column {
        .init(name, .integer, also: "\(name) < 0", expected: "an integer of 0 or more", replacedBy: "\(value)")
    }

    /// A flag: any other number but 0 is true, as readers take it (C's rule); anything else its default.
    static func flag(_ name: String, default value: Int) -> ValueRules.Column {
        .init(
            name, .integer, also: "\(name) NOT IN (0, 1)", expected: "0 or 1",
            replacedBy: "CASE WHEN typeof(\(name)) IN ('integer', 'real') AND \(name) <> 0 THEN 1 ELSE \(value) END")
    }

    static func limit(_ name: String, _ range: ClosedRange<Int>) -> ValueRules.Column {
        .init(
            name, .optionalInteger, also: "\(name) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)",
            expected: "an integer from \(range.lowerBound) to \(range.upperBound), or NULL", replacedBy: "NULL")
    }

    static let rules: [ValueRules] = [
        ValueRules(
            table: "feeds", key: "feedid", keyWord: "feed",
            columns: [.init("url", .text, replacedBy: "CAST(url AS TEXT)")], removesUnrepairable: false),
        ValueRules(
            table: "about", key: "feedid", keyWord: "feed",
            columns: [.init("feedid", .integer, replacedBy: "feedid"), text("title")] + CatalogSchema.aboutReaderColumns.map(text),
            removesUnrepairable: true),
        ValueRules(
            table: "last_update", key: "feedid", keyWord: "feed",
            columns: [.init("feedid", .integer, replacedBy: "feedid"), number("when_unix_time")], removesUnrepairable: true),
        ValueRules(
            table: "fetch_state", key: "feedid", keyWord: "feed",
            columns: FetchStateColumns.all.map(\.rule) + [number(CatalogSchedule.column)],
            removesUnrepairable: false),
        ValueRules(
            table: "feedmill_catalog", key: "key", keyWord: "setting",
            columns: [
                // The high-water mark, unreadable: the highest feedid still listed is all that is
                // known; feed files on disk still keep their feedids from being given again.
                .init("value", .integer, replacedBy: "(SELECT IFNULL(MAX(feedid), 0) FROM feeds)")
            ],
            removesUnrepairable: false),
    ]

    /// Repairs every wrong value in one transaction. Returns one line per value, for a person.
    static func repair(_ db: Database) throws -> [String] {
        var lines: [String] = []
        try db.inTransaction {
            for table in rules {
                let (found, removed) = try table.repair(db)
                lines += found.map { "repaired \($0)" }
                if removed > 0 { lines.append("removed \(removed) \(table.table) row(s) whose feedid is not an integer") }
            }
            return .commit
        }
        return lines
    }

    /// Every wrong value, without repairing (for commands that only read).
    static func problems(_ db: Database) throws -> [WrongValue] {
        try rules.flatMap { try $0.problems(db) }
    }
}
