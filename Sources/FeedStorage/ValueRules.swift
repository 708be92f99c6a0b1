import GRDB

/// The values one table's columns may hold, how a wrong one is found in SQL, and what
/// replaces it: the one mechanism behind ``ItemValues`` (feed databases) and
/// ``CatalogValues`` (the catalog), so that finding and repairing stored values is written once.
struct ValueRules {
    struct Column {
        let name: String
        let kind: StoredValue.Kind
        /// SQL, true when the value is wrong: its type, and any bound it must keep.
        let wrong: String
        /// `name = …` for a row being repaired, over the row's old values.
        let assignment: String
        /// What the column holds, for a person: `an integer`, `0 or 1`.
        let expected: String

        /// A wrong value (of another type, or failing `also`, described by `expected`) becomes
        /// `replacement`; a right one stays.
        init(_ name: String, _ kind: StoredValue.Kind, also: String? = nil, expected: String? = nil, replacedBy replacement: String) {
            let wrong = kind.mismatch(name) + (also.map { " OR (\($0))" } ?? "")
            self.init(name, kind, wrong: wrong, assignment: "CASE WHEN \(wrong) THEN \(replacement) ELSE \(name) END", expected: expected)
        }

        /// A column whose repair is `assignment` on every repaired row, whatever it holds.
        init(_ name: String, _ kind: StoredValue.Kind, assignment: String) {
            self.init(name, kind, wrong: kind.mismatch(name), assignment: assignment, expected: nil)
        }

        private init(_ name: String, _ kind: StoredValue.Kind, wrong: String, assignment: String, expected: String?) {
            (self.name, self.kind, self.wrong) = (name, kind, wrong)
            self.assignment = "\(name) = " + assignment
            self.expected = expected ?? kind.expected
        }
    }

    let table: String
    /// How a row is named in a message: its key column, and the word before it (`item`, `feed`).
    let key: String
    let keyWord: String
    let columns: [Column]
    /// Rows still wrong after the repair (a cast value clashing with a unique one) are
    /// removed. Not for `feeds`: a catalog row is a feed, never removed behind a person's back.
    let removesUnrepairable: Bool

    /// True for a row holding any wrong value.
    var anyWrong: String { columns.map { "(\($0.wrong))" }.joined(separator: " OR ") }

    /// Every wrong value, by row and column.
    func problems(_ db: Database) throws -> [WrongValue] {
        let names = ([key] + columns.map(\.name)).joined(separator: ", ")
        let wrongs = columns.map { "(\($0.wrong))" }.joined(separator: ", ")
        var found: [WrongValue] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT \(names), \(wrongs) FROM \(table) WHERE \(anyWrong)")
        while let row = try rows.next() {
            // Flagged by SQL, bounds included.
            for (index, column) in columns.enumerated() where StoredValue.raw(row, 1 + columns.count + index) == true.databaseValue {
                found.append(WrongValue(row, 1 + index, table: table, column: column.name, keyWord: keyWord, expected: column.expected))
            }
        }
        return found
    }

    /// Replaces every wrong value by the column's rule, inside the caller's transaction.
    /// Returns what was wrong and how many rows were removed.
    func repair(_ db: Database, arguments: StatementArguments = StatementArguments()) throws -> (found: [WrongValue], removed: Int) {
        let found = try problems(db)
        guard !found.isEmpty else { return ([], 0) }
        try db.execute(
            sql: "UPDATE OR IGNORE \(table) SET \(columns.map(\.assignment).joined(separator: ", ")) WHERE \(anyWrong)",
            arguments: arguments)
        guard removesUnrepairable else { return (found, 0) }
        try db.execute(sql: "DELETE FROM \(table) WHERE \(anyWrong)")
        return (found, db.changesCount)
    }
}
