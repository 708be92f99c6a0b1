import Foundation
import GRDB

/// The type every column of `items` holds, checked and repaired in one place.
///
/// Feedmill writes only values of these types, but a feed database is a file anyone can edit:
/// text in `pubdate_unix_time` or a BLOB title written by hand would otherwise trap the
/// readers, or reach clients as a value their queries do not expect. Publishing refuses a
/// feed holding one (``Snapshot/writeFeed(from:to:)``: the feed keeps its last good snapshot);
/// the update, which owns the file, repairs it (``repair(_:now:changeSequence:)``) whenever it
/// reads the rows' values (retention) or is asked for the feed by id.
enum ItemValues {
    /// Every column Feedmill reads, in table order. A BLOB in a text column is read as the
    /// text it holds (SQLite's `CAST`); any other wrong value becomes what an entry without
    /// that field gets: NULL, or for the publication date the first-seen time, as for an
    /// undated entry. A repaired row loses its content hash, so an entry the feed still lists
    /// is written again whole at its next fetch, and takes a new change number, so the next
    /// publication has it. An item whose id, made text, becomes another item's is removed: the
    /// two cannot be told apart.
    static let rules = ValueRules(
        table: "items", key: "id", keyWord: "item",
        columns: [
            // Repaired before the other columns (``repairIDs(_:)``), where Swift can tell valid text.
            .init("id", .text, also: "instr(id, char(0)) > 0", replacedBy: "id"),
            .init("title", .text, replacedBy: "IFNULL(CAST(title AS TEXT), '')"),
            .init("summary", .text, replacedBy: "IFNULL(CAST(summary AS TEXT), '')"),
            .init(
                "pubdate_unix_time", .integer,
                replacedBy: "CASE WHEN typeof(first_seen_unix_time) = 'integer' THEN first_seen_unix_time ELSE :now END"),
            .init("permalink", .optionalText, replacedBy: "NULL"),
            .init("updated_unix_time", .optionalInteger, replacedBy: "NULL"),
            .init("author", .optionalText, replacedBy: "CAST(author AS TEXT)"),
            .init("first_seen_unix_time", .optionalInteger, replacedBy: "NULL"),
            .init(
                "pubdate_is_first_seen", .integer,
                assignment: "CASE WHEN \(StoredValue.Kind.integer.mismatch("pubdate_unix_time")) THEN 1 "
                    + "WHEN \(StoredValue.Kind.integer.mismatch("pubdate_is_first_seen")) THEN 0 ELSE pubdate_is_first_seen END"),
            .init("id_source", .optionalText, replacedBy: "NULL"),
            .init("content_hash", .optionalText, assignment: "NULL"),
            .init("change_seq", .integer, assignment: ":seq"),
            .init("image_url", .optionalText, replacedBy: "NULL"),
            json("enclosures_json"), json("categories_json"), json("authors_json"),
        ],
        removesUnrepairable: true)

    /// A reader-field list (``ReaderFieldsJSON``): text holding a JSON array, or NULL. Anything
    /// else (another type, text that is not JSON, JSON that is not an array) becomes NULL, what
    /// an entry without the list has; the entry's next fetch writes it again.
    static func json(_ name: String) -> ValueRules.Column {
        .init(
            name, .optionalText, also: jsonNotAnArray(name), expected: "a JSON array as text, or NULL", replacedBy: "NULL")
    }

    /// SQL, true for text that is not a JSON array (`json_type` fails on text that is not
    /// JSON, so it is asked only after `json_valid`).
    static func jsonNotAnArray(_ name: String) -> String {
        "typeof(\(name)) = 'text' AND CASE WHEN json_valid(\(name)) THEN json_type(\(name)) <> 'array' ELSE 1 END"
    }

    /// The reader-field list columns, which hold JSON arrays.
    static let jsonColumns = ["enclosures_json", "categories_json", "authors_json"]

    /// What a repair found and did.
    struct Repair: Sendable, Equatable {
        var found: [WrongValue] = []
        /// Items removed because their id clashed with another's once read as text.
        var removedItems = 0

        /// One line per value repaired (and for the items removed), for the run's report.
        var lines: [String] {
            found.map { "repaired \($0)" }
                + (removedItems > 0 ? ["removed \(removedItems) item(s) whose id clashed with another's once read as text"] : [])
        }
    }

    static func problems(_ db: Database) throws -> [WrongValue] {
        try rules.problems(db)
    }

    /// Repairs every wrong value inside the caller's transaction; repaired rows get
    /// `changeSequence`, and undated ones `now`.
    static func repair(_ db: Database, now: Int64, changeSequence: Int64) throws -> Repair {
        let found = try problems(db)
        guard !found.isEmpty else { return Repair() }
        try repairIDs(db)
        let (_, removed) = try rules.repair(db, arguments: ["now": now, "seq": changeSequence])
        return Repair(found: found, removedItems: removed)
    }

    /// An id that is a BLOB, or text holding a NUL (which SQLite keeps, and GRDB and clients
    /// read only up to the NUL, so that two such ids read alike), becomes the text its bytes
    /// hold when they are valid UTF-8 without NUL, else `urn:feedmill:repaired-id:` and their
    /// hex: always an id of its own. One that would become another item's is left for the
    /// rules' removal.
    private static func repairIDs(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT rowid, CAST(id AS BLOB) FROM items WHERE typeof(id) <> 'text' OR instr(id, char(0)) > 0")
        for row in rows {
            guard case .int64(let rowid) = StoredValue.raw(row, 0).storage else { continue }
            let bytes: [UInt8]
            if case .blob(let data) = StoredValue.raw(row, 1).storage { bytes = [UInt8](data) } else { bytes = [] }
            let text = String(validating: bytes, as: UTF8.self).flatMap { $0.isEmpty || $0.utf8.contains(0) ? nil : $0 }
            let id = text ?? "urn:feedmill:repaired-id:" + bytes.map { String(format: "%02x", $0) }.joined()
            try db.execute(sql: "UPDATE OR IGNORE items SET id = ? WHERE rowid = ?", arguments: [id, rowid])
        }
    }

    /// The highest change number, among numbers only: a wrongly typed `change_seq` (text and
    /// BLOBs sort above every number in SQLite, `1e300` above every integer) must not become
    /// the maximum, or the publisher's fingerprint of the feed would stop moving. Bounded this
    /// way, SQLite still answers from the `change_seq` index.
    static let highestChangeSequence = "SELECT MAX(change_seq) FROM items WHERE change_seq <= 9223372036854775807"

    /// The next change number. At the largest integer (written by hand: Feedmill counts from
    /// 1) the rows are numbered again from 1 in rowid order, inside the caller's transaction,
    /// so changes keep getting numbers of their own.
    static func nextChangeSequence(_ db: Database, renumbering: Bool) throws -> Int64 {
        let highest = try Int64.fetchOne(db, sql: highestChangeSequence) ?? 0
        guard highest >= Int64.max - 1 else { return max(highest, 0) + 1 }
        guard renumbering else { return .max }
        try db.execute(sql: """
            UPDATE items SET change_seq = numbered.n
            FROM (SELECT rowid AS r, ROW_NUMBER() OVER (ORDER BY rowid) AS n FROM items) AS numbered
            WHERE items.rowid = numbered.r
            """)
        return (try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? 0) + 1
    }
}
