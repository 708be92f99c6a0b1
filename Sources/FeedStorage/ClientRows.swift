import GRDB

/// Rows of the catalog's client tables read as their published types, for the client copy
/// (``Snapshot/writeCatalog(from:to:)``): what clients get is what their queries expect, or
/// NULL, whatever a person wrote into the catalog by hand.
enum ClientRows {
    struct Table {
        let name: String
        /// The first column is the feedid, the row's key.
        let columns: [(name: String, kind: StoredValue.Kind)]
        /// Columns a later migration added: read as NULL from a catalog not yet migrated.
        var addedLater: Set<String> = []
    }

    /// The table's rows in feedid order. A value not of its column's type becomes NULL where
    /// NULL is allowed; a row whose feedid is not an integer, or whose required value is
    /// wrong, is left out. Each is named in `problems`.
    static func read(_ table: Table, db: Database, problems: inout [String]) throws -> [[DatabaseValue]] {
        let names = try ColumnsAsPublished.selectList(table.columns.map(\.name), from: table.name, addedLater: table.addedLater, db: db)
        var rows: [[DatabaseValue]] = []
        let cursor = try Row.fetchCursor(db, sql: "SELECT \(names) FROM \(table.name) ORDER BY feedid")
        while let row = try cursor.next() {
            var values: [DatabaseValue] = []
            var keep = true
            for (index, column) in table.columns.enumerated() {
                let value = StoredValue.raw(row, index)
                if column.kind.accepts(value) {
                    values.append(value)
                    continue
                }
                let optional = column.kind == .optionalText || column.kind == .optionalInteger
                let wrong = WrongValue(row, index, table: table.name, column: column.name, keyWord: "feed", expected: column.kind.expected)
                problems.append("\(wrong)" + (optional ? ": published as NULL" : ": the row is left out"))
                values.append(.null)
                keep = keep && optional
            }
            if keep { rows.append(values) }
        }
        return rows
    }
}
