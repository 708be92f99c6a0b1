import GRDB

/// The select list that reads a table's published columns from a file of any schema this
/// Feedmill knows: a column a later migration adds, missing from a file the reading command
/// does not migrate (`rss-publish` only reads), is read as NULL, which is what the migration
/// would give it. So an upgrade publishes every feed at once, not each after its next fetch.
/// A column the first schema had is never substituted: a file without it is damaged, and the
/// read fails.
enum ColumnsAsPublished {
    static func selectList(_ columns: [String], from table: String, addedLater: Set<String>, db: Database) throws -> String {
        let existing = Set(try db.columns(in: table).map { $0.name.lowercased() })
        return columns.map { name in
            existing.contains(name.lowercased()) || !addedLater.contains(name) ? name : "NULL AS \(name)"
        }.joined(separator: ", ")
    }
}
